#!/bin/sh
# `sinew demo-asset`: usage errors, the GLB written atomically and the same
# on every run (missing folders created, a "wrote ..." line unless --quiet),
# and what `sinew info` and `sinew check` make of it.
# (tests/demo/test_demo_character.c checks the content; its --round-trip
# mode, ctest's demo_round_trip, that the file is the in-memory GLB.)
# Usage: sh test_demo_asset.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

. "$(dirname "$0")/cli_harness.inc"
PY=/usr/bin/python3

# json_expr EXPR: a Python expression over `d` (the JSON on stdout) is true.
json_expr() { "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' "$WORK/out" "$1"; }
starts_with_gltf() { [ "$(head -c 4 "$1")" = "glTF" ]; }

# ---- usage ----------------------------------------------------------------------
sinew demo-asset --help
check "demo-asset --help exits 0" status_is 0
check "demo-asset --help prints usage" out_has "usage: sinew demo-asset .*-o FILE.glb"
check "demo-asset --help documents -o, --output FILE and --quiet" \
    sh -c "grep -q '^  -o, --output FILE' '$WORK/out' && grep -q -e '^  --quiet' '$WORK/out'"
sinew --help
check "sinew --help lists demo-asset" out_has "demo-asset"

sinew demo-asset
check "demo-asset without -o: usage error" status_is 2
check "... saying -o is missing" err_has "no output file given"
check "... and nothing on stdout" out_empty
sinew demo-asset -o
check "-o without a value: usage error" status_is 2
sinew demo-asset -o "$WORK/a.glb" extra
check "an extra argument: usage error" status_is 2
check "... and no file written" missing "$WORK/a.glb"
sinew demo-asset --bogus -o "$WORK/a.glb"
check "an unknown option: usage error" status_is 2
sinew demo-asset -o "$WORK/a.glb" -o "$WORK/b.glb"
check "two outputs: usage error" status_is 2
sinew demo-asset --out "$WORK/a.glb"
check "--out (never a spelling of demo-asset's): usage error" status_is 2

# ---- writing -----------------------------------------------------------------------
sinew demo-asset -o "$WORK/demo.glb"
check "demo-asset -o demo.glb exits 0" status_is 0
check "... nothing on stdout" out_empty
check "... one line on stderr saying what it wrote" \
    sh -c "[ \$(wc -l <'$WORK/err') -eq 1 ] && grep -qx 'wrote $WORK/demo.glb (GLB, [0-9]* bytes)' '$WORK/err'"
check "... the size it says is the file's" err_has_text "(GLB, $(wc -c <"$WORK/demo.glb") bytes)"
check "... writes a GLB" starts_with_gltf "$WORK/demo.glb"
check "... and leaves no temporary file" no_temp_in "$WORK"
sinew demo-asset --output="$WORK/again.glb"
check "--output=FILE exits 0" status_is 0
check "two runs write the same bytes" cmp -s "$WORK/demo.glb" "$WORK/again.glb"
sinew demo-asset --output "$WORK/third.glb" --quiet
check "--output FILE --quiet exits 0" status_is 0
check "... not a word" sh -c "[ ! -s '$WORK/out' ] && [ ! -s '$WORK/err' ]"
check "... the same bytes" cmp -s "$WORK/demo.glb" "$WORK/third.glb"
sinew demo-asset --stage -o "$WORK/stage.glb" --quiet
check "--stage exits 0" status_is 0
check "... writes a GLB" starts_with_gltf "$WORK/stage.glb"
check "... the stage, not the character" sh -c "grep -q 'built-in demo stage' '$WORK/stage.glb' && ! cmp -s '$WORK/demo.glb' '$WORK/stage.glb'"
sinew demo-asset -o "$WORK/no/such/dir/demo.glb"
check "missing folders are created" status_is 0
check "... and the file written" cmp -s "$WORK/demo.glb" "$WORK/no/such/dir/demo.glb"
echo "a file" >"$WORK/plain"
sinew demo-asset -o "$WORK/plain/dir/demo.glb"
check "a file where a folder should be fails" status_is 1
check "... naming it" err_has_text "'$WORK/plain' exists and is not a folder"
check "... leaving nothing behind" sh -c "[ \"\$(cat '$WORK/plain')\" = 'a file' ] && [ -z \"\$(find '$WORK' -name '*.tmp.*')\" ]"

# ---- what the importer and the checker see -------------------------------------------
sinew info "$WORK/demo.glb"
check "info exits 0" status_is 0
check "info: animation walk" out_has 'animation [0-9]* "walk"'
check "info: animation wave" out_has 'animation [0-9]* "wave"'
check "info: animation twist" out_has 'animation [0-9]* "twist"'
check "info: 43 joints (23 body, 4 ponytail, 8 skirt chains of 2)" out_has "43 joints"
check "info: no warnings" out_has "^warnings: 0"

sinew info "$WORK/demo.glb" --json
check "info --json exits 0" status_is 0
check "info --json: 38-43 joints, 2000-8000 vertices, the four region materials" json_expr \
    "38 <= d['skins'][0]['joint_count'] <= 43 and 2000 <= sum(p['vertex_count'] for m in d['meshes'] for p in m['primitives']) <= 8000 and {'skin','face','hair','cloth'} <= {m['name'] for m in d['materials']}"

sinew export "$WORK/demo.glb" --anim twist --times 1 --dqs -o "$WORK/twist.json"
check "export of the twist clip exits 0" status_is 0

# The one finding is the one the twist clip exists to show: LBS's collapse
# of the forearm at 170°, in that clip only (the other clips bend elbows
# and knees under 90°, above the default 0.7 retention). No errors, nothing else.
sinew check "$WORK/demo.glb" --json
check "check: no errors (exit 1: warnings only)" status_is 1
check "check: the only finding is lbs_volume_loss, all of it in twist" json_expr \
    "d['errors'] == 0 and [f['code'] for f in d['findings']] == ['lbs_volume_loss'] and all(p['count'] == 0 or p['name'] == 'twist' for p in d['findings'][0]['poses'])"
sinew check "$WORK/demo.glb" --retention-threshold 0.05
check "check below the 170° collapse (retention 0.05) is clean: exit 0" status_is 0
check "... 0 errors, 0 warnings" out_has "0 errors, 0 warnings"

finish
