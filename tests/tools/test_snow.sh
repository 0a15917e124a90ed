#!/bin/sh
# Footprints in the snow through the command (docs/snow.md): the option is
# documented, and one small walk on the demo stage's snow renders, its
# --stats timing the height cache as a pass of its own ("snow-cache"). What
# the footprints look like, and where, is render_test_snow_gl's: a 40-frame
# walk whose last frame is darker exactly where the feet were.
# Usage: sh test_snow.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

. "$(dirname "$0")/cli_harness.inc"

sinew render --help
check "render --help documents --no-footprints" out_has "--no-footprints"

sinew render --stage demo --anim walk --frames 3 --size 64x48 --aa none --no-bloom --quiet --stats \
    -o "$WORK/walk_%04d.png"
check "a short walk on the snow renders" status_is 0
check "... its last frame is written" exists "$WORK/walk_0002.png"
check "... and --stats times the height cache" err_has "^snow-cache "
finish
