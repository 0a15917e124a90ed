#!/bin/sh
# `sinew batch` drawing: --index 1 renders exactly line 1 (the same file as
# the same options given to `sinew render`, and no other line's output),
# scripts/sinew-batch renders every line with GNU parallel and --resume
# redoes nothing done, and a job stopped by SIGTERM leaves no file.
# Usage: sh test_batch_render.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

. "$(dirname "$0")/cli_harness.inc"
SCRIPT=$(cd "$(dirname "$0")/../../scripts" && pwd)/sinew-batch
same_files() { cmp -s "$1" "$2"; }

D=$WORK/renders
mkdir -p "$D"
M=$WORK/m.jsonl
cat >"$M" <<JSON
{"output": "$D/a.png", "size": "64x48", "aa": "none", "time": 0.2, "quiet": true}
{"output": "$D/b.png", "size": [48, 32], "aa": "none", "bloom": false, "anim": "wave", "quiet": true}
{"output": "$D/c.png", "size": "40x40", "aa": "none", "dqs": true, "camera": "orbit:90", "quiet": true}
JSON

sinew batch "$M" --index 1
check "batch --index 1: exit 0" status_is 0
check "... wrote line 1's output" exists "$D/a.png"
check "... and no other line's" sh -c "[ ! -e '$D/b.png' ] && [ ! -e '$D/c.png' ]"
sinew render --size 64x48 --aa none --time 0.2 --quiet -o "$WORK/direct.png"
check "... the same file as sinew render with the line's options" same_files "$D/a.png" "$WORK/direct.png"
rm -f "$D/a.png"

if ! command -v parallel >/dev/null 2>&1; then
    echo "skipped: scripts/sinew-batch (GNU parallel is not installed; scripts/install-deps.sh installs it)"
else
    if SINEW=$SINEW sh "$SCRIPT" "$M" -j 2 --joblog "$WORK/jobs.log" >"$WORK/out" 2>"$WORK/err"; then rc=0; else rc=$?; fi
    check "sinew-batch: exit 0" status_is 0
    check "... every line rendered" sh -c "[ -s '$D/a.png' ] && [ -s '$D/b.png' ] && [ -s '$D/c.png' ]"
    check "... line 1 as batch --index 1 drew it" same_files "$D/a.png" "$WORK/direct.png"
    check "... the job log has 3 successful jobs" sh -c "[ \$(awk 'NR > 1 && \$7 == 0' '$WORK/jobs.log' | wc -l) -eq 3 ]"
    check "... no temporary file left" no_temp_in "$D"
    rm "$D/b.png"
    if SINEW=$SINEW sh "$SCRIPT" "$M" --joblog "$WORK/jobs.log" --resume >"$WORK/out" 2>"$WORK/err"; then rc=0; else rc=$?; fi
    check "sinew-batch --resume: exit 0, nothing redone" sh -c "[ $rc -eq 0 ] && [ ! -e '$D/b.png' ]"
    printf '{"output": "%s/e.png", "size": "1x1"}\n' "$D" >"$WORK/bad.jsonl"
    if SINEW=$SINEW sh "$SCRIPT" "$WORK/bad.jsonl" >"$WORK/out" 2>"$WORK/err"; then rc=0; else rc=$?; fi
    check "sinew-batch with a bad line: exit 1" status_is 1
    check "... the bad line's error names it" err_has_text "bad.jsonl:1: --size"
    SINEW=$SINEW sh "$SCRIPT" "$M" --resume >"$WORK/out" 2>"$WORK/err" && rc=0 || rc=$?
    check "sinew-batch --resume without --joblog: usage error" status_is 2
fi

# A job stopped by the scheduler (SIGTERM) leaves neither output nor temporary.
if env --default-signal=TERM true 2>/dev/null; then
    printf '{"output": "%s/frames/%%04d.png", "size": "64x48", "aa": "none", "frames": 5000, "quiet": true}\n' "$D" >"$WORK/long.jsonl"
    env --default-signal=TERM "$SINEW" batch "$WORK/long.jsonl" --index 1 >"$WORK/out" 2>"$WORK/err" &
    bg=$!
    i=0
    while [ $i -lt 600 ] && [ ! -e "$D/frames/0003.png" ] && kill -0 $bg 2>/dev/null; do sleep 0.05; i=$((i + 1)); done
    kill -TERM $bg 2>/dev/null || true
    if wait $bg; then rc=0; else rc=$?; fi
    check "batch job killed by SIGTERM: exit 143" status_is 143
    check "... no frame, temporary or folder left" missing "$D/frames"
else
    echo "skipped: the SIGTERM check (this env(1) has no --default-signal)"
fi

finish
