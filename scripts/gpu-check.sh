#!/bin/sh
# The GPU checks, for a machine with a GPU and its EGL driver (no X needed):
# builds the release configuration, runs the GPU tests, then benchmarks
# compute skinning on crowd_stress.glb replicated to about 10M vertices and
# prints vertices/s and GB/s next to the card's memory bandwidth; last, the
# GPU-driven crowd against the CPU-posed one (sinew bench crowd --gpu-driven).
# Usage: SINEW_ASSETS=/path/to/assets scripts/gpu-check.sh [BUILD_DIR]
# Needs the packages of scripts/install-deps.sh already installed.
set -eu
build=${1:-build/gpu-check}
: "${SINEW_ASSETS:?set SINEW_ASSETS to the test assets folder}"

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j "$(nproc)" --target sinew gpu_test_gpu_skin gpu_test_gpu_crowd dump_shaders >/dev/null

echo "== GPU tests"
"$build/tests/gpu_test_gpu_skin"
"$build/tests/gpu_test_gpu_crowd"
sh tests/tools/test_gpu.sh "$build/sinew" "$build/cli_gpu" | tail -1

if command -v nvidia-smi >/dev/null 2>&1; then
    echo "== card"
    nvidia-smi --query-gpu=name,memory.total,clocks.max.memory,memory.bus_width --format=csv 2>/dev/null ||
        nvidia-smi --query-gpu=name,memory.total,clocks.max.memory --format=csv
fi

model=$SINEW_ASSETS/gltf/pab/crowd_stress.glb
echo "== bench: 32 copies of crowd_stress (about 10.2M vertices)"
for args in "--normals" "--normals --tangents" "--normals --dqs" "--normals --gpu-vs"; do
    echo "-- $args"
    # shellcheck disable=SC2086
    "$build/sinew" bench skin "$model" --gpu --copies 32 --reps 50 $args
done

echo "== bench: the GPU-driven crowd against the CPU-posed one (10000 characters of arnaud)"
"$build/sinew" bench crowd "$SINEW_ASSETS/gltf/pab/arnaud_locomotion.glb" --characters 10000 \
    --threads "$(nproc)" --reps 20 --gpu-driven
