#!/bin/sh
# `sinew batch` without drawing: a manifest line becomes the render command
# line it means (--dry-run), --count sizes a job array, and every bad line
# is a one-line usage error naming the manifest and the line. The renders
# themselves are test_batch_render.sh's.
# Usage: sh test_batch.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

. "$(dirname "$0")/cli_harness.inc"
out_is() { [ "$(cat "$WORK/out")" = "$1" ]; }
one_line_error() { [ "$(wc -l <"$WORK/err")" -eq 1 ]; }
one_line_has() { grep -qF -e "$1" "$WORK/err" && one_line_error; }

M=$WORK/m.jsonl
cat >"$M" <<'JSON'
{"output": "a.png", "size": "64x48", "aa": "none", "bloom": false, "time": 0.2, "quiet": true}
{"model": "my model.glb", "anim": "run", "frames": 3, "size": [48, 32], "dqs": true, "output": "out/%02d.png"}
{"ik": ["leftHand:0.1,1,0", "rightHand:-0.1,1,0"], "camera-target": [0, 1.5, 0], "footprints": false, "style": null}
JSON

sinew batch --help
check "batch --help: exit 0" status_is 0
check "... documents --index counted from 1" out_has "counted from 1"
sinew --help
check "sinew --help lists batch" out_has "^  batch "

sinew batch "$M" --count
check "--count: 3 lines" out_is 3
printf '{"size": "64x48"}' >"$WORK/no_newline.jsonl"
sinew batch "$WORK/no_newline.jsonl" --count
check "--count: a last line without a newline counts" out_is 1

sinew batch "$M" --index 1 --dry-run
check "--dry-run line 1: exit 0" status_is 0
check "... the options in the line's order" out_is "sinew render -o a.png --size 64x48 --aa none --no-bloom --time 0.2 --quiet"
sinew batch "$M" --index 2 --dry-run
check "--dry-run line 2: model first, [W, H] as WxH, true as the flag" \
    out_is "sinew render 'my model.glb' --anim run --frames 3 --size 48x32 --dqs -o out/%02d.png"
sinew batch "$M" --index=3 --dry-run
check "--dry-run line 3: a list repeats the option, numbers joined, false and null as defaults" \
    out_is "sinew render --ik leftHand:0.1,1,0 --ik rightHand:-0.1,1,0 --camera-target 0,1.5,0 --no-footprints"

# Every option of `sinew render --help` has its key (the table in
# tools/cmd_batch.c follows render's options): null is accepted for each.
# (--no-bloom is "bloom": false: one key.)
"$SINEW" render --help | grep -o -e '--[a-z][a-z-]*' | sed 's/^--//; s/^no-//' | sort -u >"$WORK/options"
keys=
for key in $(cat "$WORK/options"); do
    case $key in help|output) continue ;; esac
    keys="$keys${keys:+, }\"$key\": null"
done
printf '{%s}\n' "$keys" >"$WORK/keys.jsonl"
sinew batch "$WORK/keys.jsonl" --index 1 --dry-run
check "every render option is a manifest key (one line with them all, null)" status_is 0
check "... (render's help lists at least 40 options)" [ "$(wc -l <"$WORK/options")" -ge 40 ]

printf '{"model": "-odd.glb", "anim": "-1"}\n' >"$WORK/dash.jsonl"
sinew batch "$WORK/dash.jsonl" --index 1 --dry-run
check "a model named -odd.glb stays a file (./-odd.glb), a value may start with -" out_is "sinew render ./-odd.glb --anim -1"

# Bad command lines.
sinew batch "$M"
check "no --index: usage error" status_is 2
check "... saying what to give" err_has "give --index N"
sinew batch "$M" --index 0
check "--index 0: usage error" status_is 2
check "... lines count from 1, with the Kubernetes mapping" err_has "JOB_COMPLETION_INDEX + 1"
sinew batch "$M" --index 4
check "--index past the end: usage error" status_is 2
check "... naming the manifest and the line count" err_has_text "m.jsonl: --index 4 is past the last line (3 lines)"
sinew batch "$WORK/missing.jsonl" --index 1
check "missing manifest: failure" status_is 1
check "... naming it" err_has "missing.jsonl: No such file"
sinew batch "$M" --indx 1
check "unknown option: did you mean" err_has "did you mean '--index'"

# Bad lines: one line each, naming MANIFEST:LINE.
bad() { # bad NAME LINE EXPECTED-TEXT
    printf '{"size": "64x48"}\n%s\n' "$2" >"$WORK/bad.jsonl"
    sinew batch "$WORK/bad.jsonl" --index 2
    check "$1: usage error" status_is 2
    check "... one line naming bad.jsonl:2: $3" one_line_has "bad.jsonl:2: $3"
}
bad "not JSON" '{"size": "64x48",' "not valid JSON"
bad "not an object" '["size", "64x48"]' "not a JSON object"
bad "text after the object" '{"size": "64x48"} x' "text after the JSON object (column 19)"
bad "unknown key" '{"sise": "64x48"}' "unknown key 'sise', did you mean 'size'?"
bad "unknown key, far from any" '{"zzzzzzzzzz": 1}' "unknown key 'zzzzzzzzzz'"
bad "a key twice" '{"size": "64x48", "size": "32x32"}' "key 'size' given twice"
bad "a flag not a boolean" '{"dqs": "yes"}' "'dqs' must be true or false"
bad "a value that is an object" '{"anim": {"name": "walk"}}' "'anim' must be a string or a number"
bad "a model that is not a string" '{"model": 3}' "'model' must be a file name"
bad "an empty line" '   ' "the line is empty"
# render's own errors point at the line too, with render's help.
printf '{"size": "12"}\n' >"$WORK/render_bad.jsonl"
sinew batch "$WORK/render_bad.jsonl" --index 1
check "a value render refuses: usage error" status_is 2
check "... from batch, naming the line, pointing at render's help" \
    err_has_text "sinew batch: $WORK/render_bad.jsonl:1: --size: '12' is not WxH (see sinew render --help)"
check "... on one line" one_line_error
printf '{"frames": 3, "output": "x.png"}\n' >"$WORK/render_bad.jsonl"
sinew batch "$WORK/render_bad.jsonl" --index 1 
check "options render refuses together: usage error" status_is 2
check "... naming the line" err_has_text "render_bad.jsonl:1: 3 frames do not fit in one PNG"

finish
