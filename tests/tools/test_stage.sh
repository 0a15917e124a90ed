#!/bin/sh
# Stages on the command line (docs/stage.md): `sinew render --stage FILE`
# draws the stage fixture (tests/data/stage/make_stage.py) with the demo
# character, `--stage demo` the built-in stage; `--place X,Z` stands her
# root at X,Z with her feet on the highest walkable ground there (hand-
# computed: the box top at y 1; model_test_ground checks the other
# heights); bad files and values are one-line errors
# with the usual exit statuses (2 usage, 1 failure).
# Usage: sh test_stage.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

. "$(dirname "$0")/cli_harness.inc"
STAGE=$(dirname "$0")/../data/stage/stage.gltf
SMALL="--size 160x120 --aa none --no-bloom"
differ() { ! cmp -s "$1" "$2"; }
one_line() { [ "$(wc -l <"$WORK/err")" -eq 1 ]; }

sinew render --help
check "render --help documents --stage" out_has "--stage FILE"
check "... and --place" out_has "--place X,Z"
sinew view --help
check "view --help documents --stage" out_has "--stage FILE"

# Errors: usage (2) for the command line, failure (1) for files and places.
sinew render --place 1,1 -o "$WORK/x.png"
check "--place without --stage: usage error" status_is 2
check "... saying why" err_has "give --stage"
sinew view --place 1,1
check "view --place without --stage: usage error" status_is 2
sinew render --stage "$STAGE" --place 1 -o "$WORK/x.png"
check "--place 1: usage error" status_is 2
check "... naming the form" err_has "is not X,Z"
sinew render --stage "" -o "$WORK/x.png"
check "--stage '': usage error" status_is 2
sinew render --stage "$STAGE" --place 1,1 --crowd 2 -o "$WORK/x.png"
check "--place with --crowd: usage error" status_is 2
sinew render --stage "$WORK/missing.glb" -o "$WORK/x.png"
check "--stage missing file: failure" status_is 1
check "... naming it" err_has "missing.glb"
check "... on one line" one_line
printf 'not a model\n' >"$WORK/bad.gltf"
sinew render --stage "$WORK/bad.gltf" -o "$WORK/x.png"
check "--stage a file that is not a model: failure" status_is 1
check "... naming it" err_has "bad.gltf"
check "... on one line" one_line
check "... and no picture" missing "$WORK/x.png"
sinew render --stage "$STAGE" --place 50,0 $SMALL -o "$WORK/x.png"
check "--place off the stage: failure" status_is 1
check "... saying there is no ground there" err_has "no walkable ground"

# Pictures: a stage changes the picture; --place moves her onto it.
sinew render $SMALL --quiet -o "$WORK/plain.png"
check "render without a stage exits 0" status_is 0
sinew render --stage "$STAGE" $SMALL --quiet -o "$WORK/stage.png"
check "render --stage FILE exits 0" status_is 0
check "... a different picture" differ "$WORK/plain.png" "$WORK/stage.png"
sinew render --stage "$STAGE" --place 2,0 $SMALL -o "$WORK/box.png"
check "--place 2,0 exits 0" status_is 0
check "... her feet on the box top (y 1)" err_has "the root at 2, .*; the feet at y 1 on the stage"
check "... a different picture" differ "$WORK/stage.png" "$WORK/box.png"
sinew render --stage demo $SMALL --quiet -o "$WORK/demo.png"
check "render --stage demo exits 0" status_is 0
check "... a different picture" differ "$WORK/plain.png" "$WORK/demo.png"

# A stage brings the air (docs/stage.md): fog at the analysis' 8.5e-4 and
# the environment feedback, unless the options say otherwise; two frames,
# so that the feedback's state (read one frame late) reaches her.
TINY="--size 64x48 --aa none --no-bloom --frames 2 --quiet"
sinew render --stage demo $TINY -o "$WORK/air_%d.png"
sinew render --stage demo $TINY --fog on --env-feedback on -o "$WORK/on_%d.png"
check "--stage: fog and feedback on by default, byte for byte" cmp -s "$WORK/air_1.png" "$WORK/on_1.png"
sinew render --stage demo $TINY --fog off -o "$WORK/nofog_%d.png"
check "... --fog off takes the fog away" sh -c "[ -s '$WORK/nofog_1.png' ] && ! cmp -s '$WORK/air_1.png' '$WORK/nofog_1.png'"
sinew render --stage demo $TINY --fog off --env-feedback off -o "$WORK/none_%d.png"
check "... --env-feedback off takes the feedback away" sh -c "[ -s '$WORK/none_1.png' ] && ! cmp -s '$WORK/nofog_1.png' '$WORK/none_1.png'"
finish
