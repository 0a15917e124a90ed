#!/bin/sh
# IQM on the command line (sinew's own reader, sinew/iqm.h): `sinew info`
# says what the file was and its axes; an animation file's clips
# (guyanim.iqm: poses without joint names) merge onto the character by
# joint name with --anim-file, are listed by info and drawn by render
# exactly as the character's own copy of the same clip.
# Needs SINEW_ASSETS (iqm/guy.iqm, iqm/guyanim.iqm); skips without it.
# Usage: sh test_iqm.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

. "$(dirname "$0")/cli_harness.inc"
PY=/usr/bin/python3

if [ -z "${SINEW_ASSETS:-}" ]; then
    echo "skipped: SINEW_ASSETS is not set"
    finish
    exit $?
fi
A=$SINEW_ASSETS/iqm

sinew info "$A/guy.iqm"
check "info" status_is 0
check "info: the format" out_has "guy.iqm: IQM version 2$"
check "info: the axes as read" out_has "^units: not stated, up axis: +Z (as read)"
check "info: 14 joints" out_has 'skin 0 "joints": 14 joints'
check "info: the clips" out_has 'animation 1 "dance": 2.5 s'
sinew info "$A/guy.iqm" --json
check "info --json" "$PY" -c "
import json,sys; d=json.load(open(sys.argv[1]))
assert d['format']=='IQM' and d['up_axis_read']=='+Z' and d['unit_scale_to_metres']==0, d" "$WORK/out"

sinew info "$A/guyanim.iqm"
check "animation file alone: its poses unnamed, said once" out_has 'warnings: 1'
check "animation file alone: the warning" out_has 'without joint names'

sinew info "$A/guy.iqm" --anim-file "$A/guyanim.iqm"
check "--anim-file: info" status_is 0
check "--anim-file: merged by name" out_has "guyanim.iqm: 2 clips added, by joint name, 84 of 84 tracks kept"
check "--anim-file: clips listed under the file's stem" out_has 'animation 2 "guyanim/jump": 2.5 s'
check "--anim-file: both" out_has 'animation 3 "guyanim/dance": 2.5 s'

# The same frames two ways: guy's own "dance" and guyanim's, at 1.3 s.
sinew render "$A/guy.iqm" --anim-file "$A/guyanim.iqm" --anim guyanim/dance --time 1.3 --size 64x64 \
    -o "$WORK/merged.png" --quiet
check "render --anim-file --anim guyanim/dance" status_is 0
sinew render "$A/guy.iqm" --anim dance --time 1.3 --size 64x64 -o "$WORK/own.png" --quiet
check "render --anim dance" status_is 0
check "the merged clip draws the character's own" cmp -s "$WORK/merged.png" "$WORK/own.png"
sinew render "$A/guy.iqm" --anim none --size 64x64 -o "$WORK/rest.png" --quiet
check "and a pose that differs from rest" sh -c '! cmp -s "$1" "$2"' - "$WORK/rest.png" "$WORK/own.png"

sinew render "$A/guy.iqm" --anim-file "$A/guyanim.iqm" --anim guyanim/nope --size 64x64 -o "$WORK/x.png" --quiet
check "an unknown clip: a usage error listing the merged ones" sh -c '[ "$1" -eq 2 ] && grep -q "3 \"guyanim/dance\"" "$2"' - "$rc" "$WORK/err"

finish
