#!/bin/sh
# Footprints in the snow (docs/snow.md): a 40-frame walk on the demo
# stage's snow with --follow leaves a track. The last frame is rendered
# twice, with the footprints and with --no-footprints; the pixels that
# differ are where her feet pressed the snow. Stated amounts: at least 20
# pixels of a 160x120 picture darker by more than 0.04 in luma, none
# brighter, the deepest by more than 0.07 (measured: 38 pixels, deepest
# 0.102, mean 0.056; the trail darkens fully pressed snow by half before
# tone mapping; most of the track is behind her, seen from the front).
# Usage: sh test_snow.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

. "$(dirname "$0")/cli_harness.inc"
MEASURE="$(cd "$(dirname "$0")" && pwd)/snow_measure.py"
if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP: python3 is not installed"
    exit 0
fi
WALK="--stage demo --anim walk --frames 40 --follow --size 160x120 --aa none --no-bloom --quiet"

sinew render --help
check "render --help documents --no-footprints" out_has "--no-footprints"

sinew render $WALK -o "$WORK/with_%04d.png"
check "the walk renders" status_is 0
sinew render $WALK --no-footprints -o "$WORK/without_%04d.png"
check "... and without footprints" status_is 0
LAST=0039
check "the last frame is written" exists "$WORK/with_$LAST.png"
RESULT=$(python3 "$MEASURE" "$WORK/without_$LAST.png" "$WORK/with_$LAST.png")
echo "  $RESULT"
value() { echo "$RESULT" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
check "the track covers at least 20 pixels" test "$(value darker)" -ge 20
check "... none brighter" test "$(value brighter)" -eq 0
check "... the deepest darker by more than 0.07" python3 -c "import sys; sys.exit(0 if $(value max) > 0.07 else 1)"
# The first frame: nothing walked yet, so nothing to see but where she stands.
FIRST=0000
RESULT=$(python3 "$MEASURE" "$WORK/without_$FIRST.png" "$WORK/with_$FIRST.png")
echo "  first frame: $RESULT"
check "the first frame's track is smaller than the last's" test "$(value darker)" -lt "$(echo "$(python3 "$MEASURE" "$WORK/without_$LAST.png" "$WORK/with_$LAST.png")" | tr ' ' '\n' | sed -n 's/^darker=//p')"
finish
