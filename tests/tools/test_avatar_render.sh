#!/bin/sh
# VRM avatars drawn by `sinew render` (tools/avatar_program.h and the
# renderer's sw_render_frame_avatar) on the generated avatars
# tests/data/vrm/avatar_vrm1.gltf and avatar_vrm0.vrm (make_avatar_files.py):
# the Face quad samples the red half of its texture, and happy (isBinary)
# binds a UV offset of (0.5, 0) that shows the blue half at weight 1, so
# happy:1 and happy:0.6 draw blue and happy:0.4 red. First person: the
# thirdPersonOnly and firstPersonOnly quads (right of the face) swap, and
# the skinned auto Body quad loses its triangle weighted to the head.
# Runs wherever EGL gives an OpenGL 4.3 context; skips, saying so, otherwise.
# Usage: sh test_avatar_render.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

. "$(dirname "$0")/cli_harness.inc"
PY=/usr/bin/python3
DATA=$(cd "$(dirname "$0")/../data/vrm" && pwd)
V1=$DATA/avatar_vrm1.gltf
V0=$DATA/avatar_vrm0.vrm

mkdir -p "$WORK/o"
S="--size 64x64 --aa none"
sinew render "$V1" $S -o "$WORK/o/none.png"
if [ "$rc" -ne 0 ] && err_has "no EGL display on this machine"; then
    echo "skipped the pictures: no EGL display here ($(cat "$WORK/err"))"
    finish
    exit 0
fi
check "the avatar renders" status_is 0

# colour_at FILE X Y WANT: the pixel at (X, Y) (from the top left) is
# mostly red (WANT = red), mostly blue (blue), BodyMat's colour (body)
# or the sky behind (sky).
colour_at() {
    "$PY" - "$@" <<'PY'
import struct, sys, zlib
path, x, y, want = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
data = open(path, "rb").read()
pos, idat = 8, b""
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
bpp = {6: 4, 2: 3}[ctype]
raw, stride, prev = zlib.decompress(idat), w * bpp, bytearray(w * bpp)
for row in range(y + 1):
    f, line = raw[row * (stride + 1)], bytearray(raw[row * (stride + 1) + 1:(row + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    prev = line
r, g, b = prev[x * bpp:x * bpp + 3]
if want == "red":
    ok = r > 2 * b and r > 128
elif want == "blue":
    ok = b > 2 * r and b > 128
elif want == "body":  # BodyMat (0.2, 0.4, 0.6), lit
    ok = b > r + 40
else:  # the sky behind: grey-blue, nearly even
    ok = abs(b - r) < 20 and r > 150
if not ok:
    print("pixel (%d, %d) is (%d, %d, %d), not %s" % (x, y, r, g, b, want), file=sys.stderr)
sys.exit(0 if ok else 1)
PY
}

for f in "$V1" "$V0"; do
    n=$(basename "$f")
    sinew render "$f" $S -o "$WORK/o/none.png"
    check "$n without expressions: the face shows the texture's red half" colour_at "$WORK/o/none.png" 32 32 red
    sinew render "$f" $S --expression happy:1 -o "$WORK/o/happy.png"
    check "$n --expression happy:1 draws the bound texture region (blue)" colour_at "$WORK/o/happy.png" 32 32 blue
    sinew render "$f" $S --expression happy:0.6 -o "$WORK/o/happy06.png"
    check "... happy:0.6 (isBinary) draws as 1" colour_at "$WORK/o/happy06.png" 32 32 blue
    sinew render "$f" $S --expression happy:0.4 -o "$WORK/o/happy04.png"
    check "... happy:0.4 (isBinary) draws as 0" colour_at "$WORK/o/happy04.png" 32 32 red
done

# first person: the images differ on the right (Hair, Arms), and on the
# left the Body quad (x -0.8..-0.6, y 1..1.2; its lower right corner half
# on the head) loses the triangle with that corner, as three-vrm's copy
# does, and keeps the other
for f in "$V1" "$V0"; do
    n=$(basename "$f")
    sinew render "$f" $S -o "$WORK/o/third.png"
    sinew render "$f" $S --first-person -o "$WORK/o/first.png"
    check "$n --first-person changes the picture" sh -c "! cmp -s '$WORK/o/third.png' '$WORK/o/first.png'"
    check "... third person: Body's lower right triangle is drawn" colour_at "$WORK/o/third.png" 14 43 body
    check "... and its upper left one" colour_at "$WORK/o/third.png" 12 40 body
    check "... first person: the lower right one (on the head) is not" colour_at "$WORK/o/first.png" 14 43 sky
    check "... the upper left one still is" colour_at "$WORK/o/first.png" 12 40 body
done

finish
