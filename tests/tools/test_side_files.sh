#!/bin/sh
# Side files under sinew's rules, and outputs that never replace an input
# (docs/import.md "Assimp side files", docs/cli.md "Outputs"):
#  - an OBJ whose mtllib names a FIFO fails at once with one line (it
#    used to hang: Assimp opened the FIFO and waited for a writer);
#  - an MTL outside the model's folder is not read (a warning; the
#    material keeps Assimp's default colour) without --allow-outside-paths,
#    and read with it;
#  - `render -o` over the OBJ's texture, `export -o` over its MTL, `-o`
#    over the --bone-map file and the viewer's dump: over the model are
#    refused with one line, and each file keeps its checksum.
# Usage: sh test_side_files.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

. "$(dirname "$0")/cli_harness.inc"
PY=/usr/bin/python3

# Every run bounded: a FIFO must not make sinew wait.
sinew() {
    if timeout 20 "$SINEW" "$@" >"$WORK/out" 2>"$WORK/err"; then rc=0; else rc=$?; fi
}
one_line_err() { [ "$(wc -l <"$WORK/err")" -eq 1 ]; }
sum_of() { sha256sum "$1" | cut -d' ' -f1; }
unchanged() { [ "$(sum_of "$1")" = "$2" ]; }

M=$WORK/m
mkdir -p "$M"
cat >"$M/box.obj" <<'OBJ'
mtllib box.mtl
v 0 0 0
v 1 0 0
v 0 1 0
vt 0 0
vt 1 0
vt 0 1
usemtl red
f 1/1 2/2 3/3
OBJ
printf 'newmtl red\nKd 0.8 0.1 0.2\nmap_Kd tex.png\n' >"$M/box.mtl"
# A 2×2 red PNG, the texture.
"$PY" - "$M/tex.png" <<'PNG'
import struct, sys, zlib
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
raw = b"".join(b"\x00" + b"\xff\x00\x00" * 2 for _ in range(2))
open(sys.argv[1], "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
                              + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
PNG

sinew info "$M/box.obj"
if [ "$rc" -ne 0 ] && grep -q "no Assimp importer" "$WORK/err"; then
    echo "skipped: sinew was built without Assimp"
    finish
    exit 0
fi
check "an OBJ with its MTL: read" status_is 0
check "... the MTL's colour" out_has 'material 1 "red": base colour (0.8, 0.1, 0.2, 1) × texture 0'

# ---- side files under the rules ----------------------------------------------------
mkfifo "$M/fifo.mtl"
printf 'mtllib fifo.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n' >"$M/fifo.obj"
# Run from the model's folder too: Assimp's own file system looked there.
ABS_SINEW=$(cd "$(dirname "$SINEW")" && pwd)/$(basename "$SINEW")
if (cd "$M" && timeout 20 "$ABS_SINEW" info fifo.obj) >"$WORK/out" 2>"$WORK/err"; then rc=0; else rc=$?; fi
check "mtllib naming a FIFO: exit status 1, no hang" status_is 1
check "... one line saying it is a FIFO" sh -c "[ \$(wc -l <'$WORK/err') -eq 1 ] && grep -q \"side file 'fifo.mtl': not a regular file (a FIFO)\" '$WORK/err'"

printf 'newmtl red\nKd 0.1 0.9 0.1\n' >"$WORK/outside.mtl"
printf 'mtllib ../outside.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl red\nf 1 2 3\n' >"$M/out.obj"
sinew info "$M/out.obj"
check "an MTL outside the model's folder: the model loads" status_is 0
check "... without the MTL's colour" out_has 'material 1 "red": base colour (0.6, 0.6, 0.6, 1)'
check "... and a warning saying why" out_has "side file not read: '../outside.mtl' leaves the asset's folder"
sinew info --allow-outside-paths "$M/out.obj"
check "... read with --allow-outside-paths" out_has 'material 1 "red": base colour (0.1, 0.9, 0.1, 1)'
ln -s "$WORK/outside.mtl" "$M/link.mtl"
printf 'mtllib link.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl red\nf 1 2 3\n' >"$M/link.obj"
sinew info "$M/link.obj"
check "an MTL that is a link out of the folder: not read" out_has 'material 1 "red": base colour (0.6, 0.6, 0.6, 1)'
check "... saying so" out_has "leads outside the asset's folder through a symbolic link"

# ---- outputs never replace inputs -----------------------------------------------------
TEX=$(sum_of "$M/tex.png")
MTL=$(sum_of "$M/box.mtl")
OBJ_SUM=$(sum_of "$M/box.obj")
sinew export "$M/box.obj" -o "$M/box.mtl"
check "export -o over the OBJ's MTL: exit status 1" status_is 1
check "... one line saying it is an input" sh -c "one_line() { [ \$(wc -l <'$WORK/err') -eq 1 ]; }; one_line && grep -q \"cannot write '$M/box.mtl': it is an input\" '$WORK/err'"
check "... the MTL as it was" unchanged "$M/box.mtl" "$MTL"
ln "$M/box.mtl" "$WORK/hard.mtl"
sinew export "$M/box.obj" -o "$WORK/hard.mtl"
check "export -o over a hard link to the MTL: refused" status_is 1
check "... the MTL as it was" unchanged "$M/box.mtl" "$MTL"

sinew render "$M/box.obj" --size 32x32 -o "$WORK/fresh.png" --quiet
if [ "$rc" -eq 0 ]; then
    sinew render "$M/box.obj" --size 32x32 -o "$M/tex.png" --quiet
    check "render -o over the OBJ's texture: exit status 1" status_is 1
    check "... one line saying it is an input" sh -c "[ \$(wc -l <'$WORK/err') -eq 1 ] && grep -q 'it is an input' '$WORK/err'"
else
    echo "skipped: render (no EGL here): $(head -1 "$WORK/err")"
    sinew render "$M/box.obj" --size 32x32 -o "$M/tex.png" --quiet
fi
check "... the texture as it was" unchanged "$M/tex.png" "$TEX"

sinew demo-asset -o "$WORK/demo.glb"
printf '{"hips": "pelvis"}\n' >"$WORK/map.json"
MAP=$(sum_of "$WORK/map.json")
sinew export "$WORK/demo.glb" --anim-file "$WORK/demo.glb" --bone-map "$WORK/map.json" -o "$WORK/x.json"
check "an export with a bone map" status_is 0
sinew export "$WORK/demo.glb" --anim-file "$WORK/demo.glb" --bone-map "$WORK/map.json" -o "$WORK/map.json"
check "export -o over the --bone-map file: exit status 1" status_is 1
check "... saying it is the input" err_has "cannot write '.*map.json': it is the input file"
check "... the bone map as it was" unchanged "$WORK/map.json" "$MAP"

# The viewer's dump: over the model (a display, or xvfb-run, needed).
cp "$(dirname "$0")/../data/gltf/joint_chain.gltf" "$WORK/jc.gltf"
JC=$(sum_of "$WORK/jc.gltf")
RUN=
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && command -v xvfb-run >/dev/null; then RUN="xvfb-run -a"; fi
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}$RUN" ]; then
    if timeout 60 $RUN "$SINEW" view "$WORK/jc.gltf" --size 160x120 --aa none --script "w dump:$WORK/jc.gltf" \
        --frames 5 --exit >"$WORK/out" 2>"$WORK/err"; then rc=0; else rc=$?; fi
    if grep -q -e "built without GLFW" -e "cannot open a window" -e "below 4.3" "$WORK/err"; then
        echo "skipped: no OpenGL 4.3 window here"
    else
        check "view dump: over the model: refused" err_has "cannot write '.*jc.gltf': it is the input file"
    fi
else
    echo "skipped: no display and no xvfb-run for the viewer"
fi
check "... the model as it was" unchanged "$WORK/jc.gltf" "$JC"
check "the OBJ itself untouched throughout" unchanged "$M/box.obj" "$OBJ_SUM"

finish
