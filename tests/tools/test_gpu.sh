#!/bin/sh
# The GPU paths of the command: `sinew export --gpu` / `--gpu-vs` against
# the CPU export of the same model, times and method, through the comparison
# script of the conformance run (positions within 1e-5 × bounding-box
# diagonal, normals within 1e-4); the skin cache's counts (--stats); and
# `sinew bench skin --gpu`.
# Runs wherever EGL gives an OpenGL 4.3 context (Mesa's llvmpipe without a
# GPU); skips, saying so, only when there is none. Needs SINEW_ASSETS for
# the asset checks.
# Usage: sh test_export_gpu.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

. "$(dirname "$0")/cli_harness.inc"
PY=/usr/bin/python3
COMPARE="$(dirname "$0")/../reference/compare_export.py"

sinew export "$(dirname "$0")/../data/gltf/morph_skin.gltf" --gpu --samples 2
if [ "$rc" -ne 0 ] && err_has "no EGL display on this machine"; then
    echo "skipped: no EGL display here ($(cat "$WORK/err"))"
    finish
    exit 0
fi
check "export --gpu of a feature file succeeds" status_is 0
check "... and says which device skinned" out_has '"device":"gpu-compute"'

# compare MODEL ARGS...: CPU and both GPU paths agree.
compare() {
    model=$1
    shift
    label=$(basename "$model")
    "$SINEW" export "$model" --normals "$@" -o "$WORK/cpu.json"
    for gpu in --gpu --gpu-vs; do
        sinew export "$model" --normals "$@" $gpu -o "$WORK/gpu.json"
        check "$label $* $gpu exports" status_is 0
        check "$label $* $gpu equals the CPU" "$PY" "$COMPARE" "$WORK/cpu.json" "$WORK/gpu.json"
    done
}

compare "$(dirname "$0")/../data/gltf/morph_skin.gltf" --samples 4
if [ -n "${SINEW_ASSETS:-}" ]; then
    A=$SINEW_ASSETS/gltf
    compare "$A/khronos/cesium_man.gltf" --samples 5
    compare "$A/khronos/cesium_man.gltf" --samples 5 --dqs
    compare "$A/synthetic/eight_influences.glb" --samples 5
    compare "$A/synthetic/eight_influences.glb" --samples 5 --dqs
    compare "$A/synthetic/morph_skin.glb" --samples 5 --dqs
    compare "$A/assimp/AnimatedMorphCube-glTF/AnimatedMorphCube.gltf" --samples 5
    compare "$A/cc0/greenman.glb" --samples 3 --dqs
else
    echo "note: SINEW_ASSETS is not set; skipped the shared-asset comparisons"
fi

# The skin cache: times past the clip's end hold the last key, so the
# palette does not change and those dispatches are skipped.
F=$(dirname "$0")/../data/gltf/rigid_animated.gltf
sinew export "$F" --times 0,0.5,5,6,7 --gpu --stats
check "--stats with --gpu succeeds" status_is 0
check "... 0, 0.5 and 5 (the last key) dispatched; 6 and 7 (held) skipped" err_has "skin cache: 3 dispatched, 2 skipped"
sinew export "$F" --anim none --times 0,1 --gpu-vs --stats
check "the rest pose twice: one dispatch, one skip" err_has "skin cache: 1 dispatched, 1 skipped"
sinew export "$F" --stats
check "--stats without --gpu is a usage error" status_is 2

# bench skin --gpu: runs, reports positive rates, upload/readback apart.
F=$(dirname "$0")/../data/gltf/skin_no_ibm.gltf
for gpu in --gpu --gpu-vs; do
    sinew bench skin "$F" $gpu --normals --copies 3 --reps 20 --json
    check "bench skin $gpu runs" status_is 0
    check "bench skin $gpu reports rates" "$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
ok = (d["benchmark"] == "skin-gpu" and d["vertices_per_pass"] > 0 and d["pass_seconds"]["median"] > 0
      and d["gb_per_second_median"] > 0 and d["copy_gb_per_second_median"] > 0 and d["upload_bytes"] > 0
      and d["readback_bytes"] == 12 * d["vertices_per_pass"] and d["copies"] == 3 and d["reps"] == 20)
sys.exit(0 if ok else 1)' "$WORK/out"
done
sinew bench skin "$F" --gpu --copies 2 --reps 20
check "bench skin --gpu prints the copy ratio" out_has "ratio to copy"

# A failed GPU export leaves no file behind.
sinew export "$WORK/missing.gltf" --gpu -o "$WORK/none.json"
check "a missing model fails" status_is 1
check "... and writes nothing" missing "$WORK/none.json"
finish
