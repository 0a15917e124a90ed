#!/bin/sh
# Crowds on the command line: `sinew bench crowd` runs, reports pose and
# skinning time per character (text and JSON) and a checksum of every
# skinned vertex that does not depend on --threads; `sinew render --crowd`
# writes the same picture twice and refuses what it cannot do. It never
# judges the numbers (benchmarks are not timed tests). The runs need
# SINEW_ASSETS (skipped, saying so, when it is unset; the demo character's
# crowd is drawn by render_test_crowd).
# Usage: sh test_crowd.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

. "$(dirname "$0")/cli_harness.inc"
PY=/usr/bin/python3
json_expr() { "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' "$WORK/out" "$1"; }
same_files() { cmp -s "$1" "$2"; }

sinew bench --help
check "bench --help documents crowd" out_has "sinew bench crowd"
sinew bench crowd x.glb --copies 2
check "bench crowd --copies: usage error" status_is 2
sinew bench crowd x.glb --characters 0
check "bench crowd --characters 0: usage error" status_is 2
sinew bench skin x.glb --gpu-driven
check "bench skin --gpu-driven: usage error" status_is 2
sinew bench crowd x.glb --gpu-driven --dqs
check "bench crowd --gpu-driven --dqs: usage error (LBS only)" status_is 2
sinew render --crowd 0 -o "$WORK/zero.png"
check "render --crowd 0: usage error" status_is 2
sinew render --crowd 2 --blend walk:1 -o "$WORK/blend.png"
check "render --crowd with animation options: usage error" status_is 2
check "... saying why" err_has "animation options are for one character"


if [ -z "${SINEW_ASSETS:-}" ]; then
    echo "skipped: crowd renders and bench crowd runs (SINEW_ASSETS is not set)"
else
    M=$SINEW_ASSETS/gltf/pab/arnaud_locomotion.glb
    sinew render "$M" --crowd 4 --size 96x64 --aa none --no-bloom --quiet -o "$WORK/a.png"
    check "render --crowd 4 exits 0" status_is 0
    sinew render "$M" --crowd 4 --size 96x64 --aa none --no-bloom --quiet --stats -o "$WORK/b.png"
    check "render --crowd 4 twice: the same file" same_files "$WORK/a.png" "$WORK/b.png"
    check "... every copy skinned: 4 x 3748 vertices in one frame" err_has "crowd: 4 copies, 14992 vertices skinned"
    sinew render "$M" --size 96x64 --aa none --no-bloom --quiet -o "$WORK/one.png"
    check "... not the one character's picture" sh -c "! cmp -s '$WORK/a.png' '$WORK/one.png'"

    sinew bench crowd "$M" --characters 12 --reps 20
    check "bench crowd exits 0" status_is 0
    check "bench crowd prints time per character" out_has "microseconds per character"
    check "... for pose + skinning" out_has "pose + skinning"
    check "... of 3748 vertices each" out_has "3748 vertices each"

    sinew bench crowd "$M" --characters 12 --reps 20 --threads 2 --json
    check "bench crowd --json exits 0" status_is 0
    check "bench crowd --json: what was run" json_expr \
        "d['bench']=='crowd' and d['characters']==12 and d['threads']==2 and d['vertices_per_character']==3748 and d['animations']==4 and d['gpu'] is None"
    check "bench crowd --json: ordered statistics" json_expr \
        "all(0<d['microseconds_per_character'][k]['min']<=d['microseconds_per_character'][k]['median']<=d['microseconds_per_character'][k]['max'] for k in ('pose','skinning','pose_and_skinning'))"
    sum2=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["checksum"])' "$WORK/out")
    sinew bench crowd "$M" --characters 12 --reps 20 --threads 1 --json
    sum1=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["checksum"])' "$WORK/out")
    check "bench crowd: the same vertices on 1 and 2 threads" [ "$sum1" = "$sum2" ]
    sinew bench crowd "$M" --characters 4 --reps 20 --gpu-driven --json
    check "bench crowd --gpu-driven exits 0" status_is 0
    check "bench crowd --gpu-driven --json: both crowds timed, a ratio, every character at a level or culled" json_expr \
        "d['gpu_driven']['ratio']>0 and d['gpu_driven']['poses_ratio']>0 and d['gpu_driven']['microseconds_per_character']['gpu_driven']['median']>0 and 0<=d['gpu_driven']['level0']+d['gpu_driven']['level1']<=4 and d['gpu_driven']['load_average']!=0"
    sinew bench crowd "$M" --characters 12 --reps 20 --threads 1 --dqs --json
    sumd=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["checksum"])' "$WORK/out")
    check "bench crowd --dqs skins differently" [ "$sumd" != "$sum1" ]
fi

finish
