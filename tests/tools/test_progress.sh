#!/bin/sh
# `sinew render --progress`: with stderr in a file (not a terminal) auto
# gives one line per 5 % of the frames and a last one, with no '\r'; none
# and --quiet give nothing but what they keep; bar draws '\r' lines even
# into a file; a bad mode is a usage error (exit 2). Small frames (64x48,
# no AA) keep it fast. Skips, saying so, where EGL gives no OpenGL context.
# Usage: sh test_progress.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

. "$(dirname "$0")/cli_harness.inc"
S="--size 64x48 --aa none --no-bloom"

mkdir -p "$WORK/o"
# 40 frames: a step of 5 % is 2 frames, so lines at frames 2, 4, ..., 40.
sinew render $S --frames 40 -o "$WORK/o/f_%02d.png"
if [ "$rc" -ne 0 ] && err_has "no EGL display on this machine"; then
    echo "skipped: no EGL display here ($(cat "$WORK/err"))"
    finish
    exit 0
fi
check "render --frames 40 into a log succeeds" status_is 0
check "... with 20 progress lines" sh -c "[ \$(grep -c '^frame [0-9]*/40 ' '$WORK/err') -eq 20 ]"
check "... the first at 5 %" err_has_text "frame 2/40 (5%)  "
check "... with the time elapsed and left" err_has "^frame 20/40 (50%)  [0-9]*:[0-9][0-9] elapsed  about [0-9]*:[0-9][0-9] left$"
check "... the last with the total time" err_has "^frame 40/40 (100%)  done in [0-9]*:[0-9][0-9]$"
check "... none at frame 3" sh -c "! grep -q '^frame 3/40 ' '$WORK/err'"
check "... no carriage return" sh -c "! grep -q \"\$(printf '\\r')\" '$WORK/err'"
check "... then the wrote line" err_has "^wrote .*f_00.png .. .*f_39.png (40 frames, 64×48)$"

sinew render $S --frames 4 --progress none -o "$WORK/o/n_%d.png"
check "--progress none: no progress" sh -c "! grep -q '^frame ' '$WORK/err'"
check "... the wrote line stays" err_has "^wrote "

sinew render $S --frames 4 --quiet -o "$WORK/o/q_%d.png"
check "--quiet: nothing on stderr" err_empty

sinew render $S --frames 4 --quiet --progress lines -o "$WORK/o/ql_%d.png"
check "--quiet --progress lines: the lines, no wrote line" sh -c "[ \$(grep -c '^frame ' '$WORK/err') -eq 4 ] && ! grep -q '^wrote' '$WORK/err'"

sinew render $S --frames 4 --progress bar -o "$WORK/o/b_%d.png"
check "--progress bar into a file: '\\r' lines" sh -c "grep -q \"\$(printf '\\r')\\[\" '$WORK/err'"
check "... ending at 4/4" err_has_text "4/4 frames"

sinew render $S --frames 4 --progress sometimes -o "$WORK/o/x_%d.png"
check "--progress sometimes: usage error" status_is 2
check "... naming the modes" err_has_text "'sometimes' is not auto, bar, lines or none"

sinew render $S --progress lines -o "$WORK/o/one.png"
check "one picture: no progress" sh -c "! grep -q '^frame ' '$WORK/err'"

finish
