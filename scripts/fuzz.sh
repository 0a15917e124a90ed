#!/bin/sh
# Runs the libFuzzer targets built by `make fuzz` (CMake option SW_FUZZ):
#   scripts/fuzz.sh <build dir> <seconds per target> <target>...
# Each target starts from a scratch copy of its seed corpus, fuzz/corpus/<target>/
# (so the committed corpus never grows), with its dictionary (fuzz/*.dict), for
# <seconds> of fuzzing (0: replay the corpus once). A crash, a leak, a
# sanitizer report, an abort from a broken asset invariant or an input that
# runs longer than 20 s fails the run; libFuzzer writes the input to
# <build dir>/fuzz-artifacts/<target>-crash-… (replay it with
# fuzz_corpus_<target> <file>, add it to the corpus as regress_<name>).
# Prints how many inputs each target executed, and the total. Targets run
# FUZZ_JOBS at a time (default: the CPU count).
set -u
cd "$(dirname "$0")/.."
build=$1
seconds=$2
shift 2

work="$build/fuzz-work"
artifacts="$build/fuzz-artifacts"
mkdir -p "$artifacts" "$work"
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}

# One target: fuzz it and leave its exit status in $work/<target>.status.
run_target() {
    target=$1
    binary="$build/fuzz/fuzz_$target"
    corpus="$work/$target"
    log="$work/$target.log"
    rm -rf "$corpus"
    mkdir -p "$corpus"
    cp fuzz/corpus/"$target"/* "$corpus"/
    # the accessor and IQM targets read binary data: glTF words would only
    # get in the way; the extension records have their own words
    dict="-dict=fuzz/gltf.dict"
    case "$target" in
        accessor | iqm | model_stream | swa) dict="" ;;
        vrm | toon | bone_map | constraint | vrma) dict="-dict=fuzz/vrm.dict" ;;
    esac
    if [ "$seconds" -gt 0 ]; then
        limit="-max_total_time=$seconds"
    else
        limit="-runs=0"
    fi
    # shellcheck disable=SC2086
    "$binary" "$corpus" $dict $limit -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$artifacts/$target-" >"$log" 2>&1
    echo $? >"$work/$target.status"
}

# The targets run $jobs at a time (FUZZ_JOBS, default: the CPU count): each
# one is single-threaded, so the time per target stays what was asked.
running=0
for target in "$@"; do
    echo "fuzz: $target for ${seconds}s"
    run_target "$target" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait
        running=0
    fi
done
wait

total=0
failed=""
summary=""
for target in "$@"; do
    log="$work/$target.log"
    status=$(cat "$work/$target.status" 2>/dev/null || echo 1)
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    runs=${runs:-0}
    total=$((total + runs))
    coverage=$(grep -E '^#[0-9]+[[:space:]]+(DONE|INITED)' "$log" | tail -n 1 | sed -n 's/.*\(cov: [0-9]*\).*/\1/p')
    if [ "$status" -ne 0 ]; then
        failed="$failed $target"
        tail -n 60 "$log"
        summary="$summary
  $target: FAILED (exit $status) after $runs inputs; log $log"
    else
        summary="$summary
  $target: $runs inputs, no failure ($coverage)"
    fi
done
echo "fuzz summary ($seconds s per target, $jobs at a time):$summary
  total: $total inputs executed"
if [ -n "$failed" ]; then
    echo "fuzz: FAILED:$failed (inputs in $artifacts/)" >&2
    exit 1
fi
