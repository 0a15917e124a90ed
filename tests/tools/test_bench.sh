#!/bin/sh
# `sinew bench`: it runs, reports what it measured in text and JSON, and
# rejects bad options. It never judges the numbers (benchmarks are not
# timed tests). Needs SINEW_ASSETS for the models (skipped, saying so,
# when it is unset).
# Usage: sh test_bench.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

. "$(dirname "$0")/cli_harness.inc"
PY=/usr/bin/python3
json_expr() { "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' "$WORK/out" "$1"; }

sinew bench --help
check "bench --help exits 0" status_is 0
check "bench --help documents skin and anim" sh -c "grep -q 'sinew bench skin' '$WORK/out' && grep -q 'sinew bench anim' '$WORK/out'"
sinew bench
check "bench without a mode: usage error" status_is 2
sinew bench fly x.glb
check "bench with an unknown mode: usage error" status_is 2
sinew bench skin x.glb --reps 5
check "bench --reps below 20: usage error" status_is 2
sinew bench skin x.glb --kernel neon
check "bench --kernel neon: usage error" status_is 2
sinew bench anim x.glb --dqs
check "bench anim --dqs: usage error" status_is 2
sinew bench anim x.glb --blend walk
check "bench anim --blend with one animation: usage error" status_is 2
sinew bench skin x.glb --blend walk,jog
check "bench skin --blend: usage error" status_is 2
sinew bench skin x.glb --versus kernel=neon
check "bench skin --versus with an unknown setting: usage error" status_is 2
check "... naming the settings" err_has "kernel=auto|scalar|sse2|avx2|sse2-columns|avx2-columns|avx2-rows, no-normalize, normalize or positions"
sinew bench anim x.glb --versus no-normalize
check "bench anim --versus: usage error" status_is 2

if [ -z "${SINEW_ASSETS:-}" ]; then
    echo "skipped: benchmark runs (SINEW_ASSETS is not set)"
else
    A=$SINEW_ASSETS/gltf
    sinew bench skin "$A/pab/arnaud_locomotion.glb" --copies 2 --reps 20 --normals
    check "bench skin exits 0" status_is 0
    check "bench skin prints vertices/s" out_has "vertices/s"
    check "bench skin prints the memcpy ratio" out_has "ratio"
    check "bench skin names the kernel and the mesh size" out_has "7496 vertices (2 copies of 3748)"

    sinew bench skin "$A/synthetic/eight_influences.glb" --copies 3 --reps 20 --dqs --tangents --threads 2 --scalar --json
    check "bench skin --json exits 0" status_is 0
    check "bench skin --json: what was run" json_expr \
        "d['bench']=='skin' and d['kernel']=='scalar' and d['method']=='dqs' and d['threads']==2 and d['vertices']==3*2394 and d['tangents'] and d['synthetic_tangents']"
    check "bench skin --json: ordered statistics" json_expr \
        "all(0<d[k]['min']<=d[k]['median']<=d[k]['max'] for k in ('vertices_per_second','memcpy_bytes_per_second','ratio_to_memcpy'))"

    check "bench skin without --versus: no versus" json_expr "d['versus'] is None"

    # --versus: the same jobs with one setting changed, timed in turns; what
    # B changes in the outputs shows that B ran with that setting.
    sinew bench skin "$A/synthetic/eight_influences.glb" --copies 2 --reps 20 --normals --versus no-normalize --json
    check "bench skin --versus no-normalize exits 0" status_is 0
    check "bench skin --versus: B named, normalised A, unnormalised B" json_expr \
        "d['normalized'] and d['versus']['setting']=='no-normalize' and not d['versus']['normalized']"
    check "bench skin --versus: ordered statistics for B" json_expr \
        "all(0<d['versus'][k]['min']<=d['versus'][k]['median']<=d['versus'][k]['max'] for k in ('vertices_per_second','ratio_to_base'))"
    check "bench skin --versus no-normalize: positions the same bits, normals not unit" json_expr \
        "d['versus']['max_difference']['positions']==0 and d['versus']['max_difference']['normals']>1e-3 and d['versus']['max_difference']['tangents'] is None"
    sinew bench skin "$A/synthetic/eight_influences.glb" --copies 2 --reps 20 --normals --tangents --scalar --versus kernel=auto --json
    check "bench skin --versus kernel=auto: every kernel within 1e-5 of the scalar one" json_expr \
        "d['kernel']=='scalar' and all(0<=d['versus']['max_difference'][k]<1e-5 for k in ('positions','normals','tangents'))"
    sinew bench skin "$A/synthetic/eight_influences.glb" --copies 2 --reps 20 --normals --tangents --versus positions --json
    check "bench skin --versus positions: the positions of the job with normals and tangents, bit for bit" json_expr \
        "d['versus']['positions_only'] and d['versus']['max_difference']['positions']==0 and d['versus']['max_difference']['normals'] is None and d['versus']['max_difference']['tangents'] is None"
    sinew bench skin "$A/synthetic/eight_influences.glb" --copies 2 --reps 20 --normals --quantized --versus kernel=scalar --json
    # 8 influences: at most 8 + 4 + 8 + 7 bytes in, 12 + 12 out.
    check "bench skin --quantized: the quantised layout, its kernel within 1e-5 of the scalar one" json_expr \
        "d['layout']=='quantized' and d['bytes_per_vertex']<=51 and all(0<=d['versus']['max_difference'][k]<1e-5 for k in ('positions','normals'))"
    sinew bench skin "$A/synthetic/eight_influences.glb" --copies 2 --reps 20 --packed-normals
    check "bench skin --packed-normals without --quantized: usage error" status_is 2
    sinew bench skin "$A/synthetic/eight_influences.glb" --copies 2 --reps 20 --normals --versus kernel=scalar
    check "bench skin --versus prints B and the ratio" sh -c "grep -q 'versus kernel=scalar (scalar)' '$WORK/out' && grep -q 'B / A' '$WORK/out' && grep -q '|B - A| at most: positions' '$WORK/out'"

    sinew bench skin "$A/khronos/box_animated.gltf" --reps 20
    check "bench skin of a model without skins fails" status_is 1
    check "... saying so" err_has "no skinned mesh"

    sinew bench anim "$A/pab/arnaud_locomotion.glb" --characters 50 --reps 20 --anim walk --json
    check "bench anim --json exits 0" status_is 0
    check "bench anim --json: 159 tracks, 53 joints, 50 characters" json_expr \
        "d['tracks']==159 and d['joints']==53 and d['characters']==50 and d['animation']=='walk'"
    check "bench anim --json: every stage measured" json_expr \
        "all(d['microseconds_per_character'][k]['median']>0 for k in ('sample','local_to_model','skin_matrices','wall'))"
    sinew bench anim "$A/pab/arnaud_locomotion.glb" --characters 40 --reps 20 --threads 2
    check "bench anim with 2 threads exits 0" status_is 0
    check "bench anim prints microseconds per character" out_has "microseconds per character"
    sinew bench anim "$A/pab/arnaud_locomotion.glb" --anim nope --reps 20
    check "bench anim of a missing animation: usage error" status_is 2
    sinew bench anim "$A/pab/arnaud_locomotion.glb" --blend walk,nope --reps 20
    check "bench anim --blend with a missing animation: usage error" status_is 2

    # The blend scenario: walk + jog by phase, IK on both legs.
    sinew bench anim "$A/pab/arnaud_locomotion.glb" --characters 40 --reps 20 --anim walk --blend walk,jog --json
    check "bench anim --blend --json exits 0" status_is 0
    check "bench anim --blend --json: walk + jog, IK on both legs" json_expr \
        "d['blend']['animations']==['walk','jog'] and d['blend']['ik'] and d['blend']['ik_legs'][1]==['RightUpLeg','RightLeg','RightFoot']"
    check "bench anim --blend --json: every blend stage measured" json_expr \
        "all(0<d['blend_microseconds_per_character'][k]['min']<=d['blend_microseconds_per_character'][k]['median']<=d['blend_microseconds_per_character'][k]['max'] for k in ('sample_blend','ik','local_to_model','skin_matrices','wall'))"
    sinew bench anim "$A/pab/arnaud_locomotion.glb" --characters 40 --reps 20
    check "bench anim blends the first two clips by default" out_has 'blend "crossarms" + "jog"'
    check "bench anim prints the blend stages" sh -c "grep -q 'sample + blend' '$WORK/out' && grep -q 'IK, both legs' '$WORK/out'"
    sinew bench anim "$A/khronos/box_animated.gltf" --characters 20 --reps 20 --json
    check "bench anim of a one-clip model: plain only" json_expr \
        "d['blend'] is None and d['blend_microseconds_per_character'] is None and len(d['checksum'])==16"

    # N characters (not a multiple of the 16-character task) over 1 and 2
    # threads: every skin matrix of both scenarios bit-identical.
    sinew bench anim "$A/pab/arnaud_locomotion.glb" --characters 203 --reps 20 --blend walk,jog --threads 1
    check "bench anim --threads 1 prints a checksum" out_has "checksum of all skin matrices [0-9a-f]\{16\}"
    grep 'checksum of all skin matrices' "$WORK/out" >"$WORK/checksum1" || true
    sinew bench anim "$A/pab/arnaud_locomotion.glb" --characters 203 --reps 20 --blend walk,jog --threads 2
    grep 'checksum of all skin matrices' "$WORK/out" >"$WORK/checksum2" || true
    check "bench anim: 203 characters over 1 and 2 threads are bit-identical" \
        sh -c "[ -s '$WORK/checksum1' ] && cmp -s '$WORK/checksum1' '$WORK/checksum2'"
fi

finish
