#!/bin/sh
# `sinew bake face-sdf`: usage errors (exit 2, nothing written), model
# errors (exit 1, one line naming the file, nothing written), and the map
# of the demo character's face: a PNG of the size asked for, written
# atomically, the same whether the face material is named or found.
# (tests/toon/test_face_sdf.c checks the map's content.)
# Usage: sh test_bake.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

. "$(dirname "$0")/cli_harness.inc"
PY=/usr/bin/python3

# png_size FILE: "WIDTH HEIGHT" from the IHDR chunk (bytes 16..23, big-endian).
png_size() {
    od -An -tu1 -j16 -N8 "$1" | awk '{print $1*16777216 + $2*65536 + $3*256 + $4, $5*16777216 + $6*65536 + $7*256 + $8}'
}
is_png_of() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] && [ "$(png_size "$1")" = "$2 $3" ]; }
one_line_err() { [ "$(wc -l <"$WORK/err")" -eq 1 ]; }

sinew demo-asset -o "$WORK/demo.glb" --quiet
check "demo-asset writes the demo character" status_is 0
DEMO=$WORK/demo.glb

# ---- usage ----------------------------------------------------------------------
sinew bake --help
check "bake --help exits 0" status_is 0
check "bake --help prints usage" out_has "usage: sinew bake face-sdf MODEL \[--head JOINT\]"
sinew bake face-sdf --help
check "bake face-sdf --help exits 0" status_is 0
sinew --help
check "sinew --help lists bake" out_has "^  bake "

sinew bake
check "bake without a kind: usage error" status_is 2
sinew bake normal-map "$DEMO" --head head -o "$WORK/u.png"
check "an unknown kind: usage error" status_is 2
check "... naming the kinds there are" err_has "face-sdf"
sinew bake face-sdf --head head -o "$WORK/u.png"
check "no MODEL: usage error" status_is 2
sinew bake face-sdf "$DEMO" --head head
check "no -o: usage error" status_is 2
sinew bake face-sdf "$DEMO" --head head --size 8 -o "$WORK/u.png"
check "--size 8: usage error" status_is 2
check "... giving the range" err_has "16"
sinew bake face-sdf "$DEMO" --head head --size 5000 -o "$WORK/u.png"
check "--size 5000: usage error" status_is 2
sinew bake face-sdf "$DEMO" --head head --size big -o "$WORK/u.png"
check "--size big: usage error" status_is 2
sinew bake face-sdf "$DEMO" --head head -o "$WORK/u.jpg"
check "-o u.jpg: usage error (a PNG only)" status_is 2
sinew bake face-sdf "$DEMO" --head head -o -
check "-o -: usage error" status_is 2
sinew bake face-sdf "$DEMO" --head head --bogus -o "$WORK/u.png"
check "an unknown option: usage error" status_is 2
sinew bake face-sdf "$DEMO" "$DEMO" --head head -o "$WORK/u.png"
check "two models: usage error" status_is 2
check "no usage error wrote a file" missing "$WORK/u.png"
check "... nor a .jpg" missing "$WORK/u.jpg"

# ---- model errors ------------------------------------------------------------------
sinew bake face-sdf "$WORK/missing.glb" --head head -o "$WORK/m.png"
check "a missing model: exit 1" status_is 1
check "... one line naming the file" sh -c "[ \$(wc -l <'$WORK/err') -eq 1 ] && grep -q 'missing.glb' '$WORK/err'"
check "... nothing written" missing "$WORK/m.png"
sinew bake face-sdf "$DEMO" --head no_such_joint -o "$WORK/m.png"
check "an unknown head joint: usage error" status_is 2
check "... one line naming the file and the joint" \
    sh -c "[ \$(wc -l <'$WORK/err') -eq 1 ] && grep -q 'demo.glb.*no_such_joint' '$WORK/err'"
sinew bake face-sdf "$DEMO" --head head --material no_such_material -o "$WORK/m.png"
check "an unknown material: usage error" status_is 2
check "... one line naming the file and the material" \
    sh -c "[ \$(wc -l <'$WORK/err') -eq 1 ] && grep -q 'demo.glb.*no_such_material' '$WORK/err'"
echo "not a model" >"$WORK/junk.glb"
sinew bake face-sdf "$WORK/junk.glb" --head head -o "$WORK/m.png"
check "a file that is no glTF: exit 1" status_is 1
check "... one line naming it" sh -c "[ \$(wc -l <'$WORK/err') -eq 1 ] && grep -q 'junk.glb' '$WORK/err'"
check "no model error wrote a file" missing "$WORK/m.png"
check "... nor left a temporary" no_temp_in "$WORK"

# ---- the demo character's face ----------------------------------------------------------
sinew bake face-sdf "$DEMO" --head head --material face --size 64 -o "$WORK/maps/face.png"
check "bake face-sdf demo.glb --head head --material face exits 0" status_is 0
check "... nothing on stdout" out_empty
check "... one line on stderr saying what it wrote" \
    sh -c "[ \$(wc -l <'$WORK/err') -eq 1 ] && grep -q '^wrote $WORK/maps/face.png (face SDF 64x64' '$WORK/err'"
check "... a 64x64 PNG (missing folder created)" is_png_of "$WORK/maps/face.png" 64 64
check "... and no temporary left" no_temp_in "$WORK"

sinew bake face-sdf "$DEMO" --head head --size=64 --output="$WORK/found.png" --quiet
check "without --material: the face material is found (exit 0)" status_is 0
check "... --quiet: not a word" sh -c "[ ! -s '$WORK/out' ] && [ ! -s '$WORK/err' ]"
check "... the same map" cmp -s "$WORK/maps/face.png" "$WORK/found.png"
sinew bake face-sdf "$DEMO" --size=64 --output="$WORK/head_found.png"
check "without --head: the head joint is found (exit 0)" status_is 0
check "... named in the status line" err_has 'head node "head"'
check "... the same map" cmp -s "$WORK/maps/face.png" "$WORK/head_found.png"
sinew bake face-sdf "$DEMO" --head Head --material Face -o "$WORK/m.png"
check "a material name in another case: usage error" status_is 2
check "... suggesting the name" err_has "did you mean 'face'?"

# The same material and joint by their indices in the file.
sinew info "$DEMO" --json
index_of() { "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); print([x["name"] for x in d[sys.argv[2]]].index(sys.argv[3]))' "$WORK/out" "$1" "$2"; }
FACE=$(index_of materials face)
HEAD=$(index_of nodes head)
sinew bake face-sdf "$DEMO" --head "$HEAD" --material "$FACE" --size 64 -o "$WORK/by_index.png" --quiet
check "--head and --material by index exit 0" status_is 0
check "... the same map" cmp -s "$WORK/maps/face.png" "$WORK/by_index.png"

# (A 512x512 bake, the default, takes a second or more in a debug build: the
# help text says the default instead.)
sinew bake --help
check "the help gives the default size, 512" out_has "(default 512)"

finish
