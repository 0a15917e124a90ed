#!/bin/sh
# `sinew view`: the window shows the renderer's own pixels (overlay hidden:
# sinew render's image, bit for bit), the overlay is drawn over them, and
# the --script paths work: DQS, bones, retention, the next clip, a
# screenshot, a resize, a joint picked under the cursor, models that fail
# to open (the previous one stays). The retention view's values on a
# twist tube twisted 170° are the closed form's. Without a display the
# command says so in one line and exits 1.
#
# Needs a display: under Xvfb (xvfb-run, Debian xvfb + xauth) when DISPLAY
# is unset; skips, saying so, where there is neither, where sinew was built
# without GLFW, or where no OpenGL 4.3 window can open.
# Usage: sh test_view.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${SW_VIEW_TEST_XVFB:-}" ]; then
    if command -v xvfb-run >/dev/null 2>&1; then
        # 24-bit colour: xvfb-run's default 8-bit screen has no OpenGL visual.
        SW_VIEW_TEST_XVFB=1 exec xvfb-run -a -s "-screen 0 640x480x24" sh "$0" "$@"
    fi
fi

. "$(dirname "$0")/cli_harness.inc"
PY=/usr/bin/python3
DATA=$(cd "$(dirname "$0")/../data" && pwd)

# ---- without a display -------------------------------------------------------------
if env -u DISPLAY -u WAYLAND_DISPLAY "$SINEW" view >"$WORK/out" 2>"$WORK/err"; then rc=0; else rc=$?; fi
check "no display: exit status 1" status_is 1
check "... one line on stderr, saying so and naming sinew render" \
    sh -c "[ \$(wc -l <'$WORK/err') -eq 1 ] && grep -q 'no display' '$WORK/err' && grep -q 'sinew render' '$WORK/err'"
check "... nothing on stdout" out_empty
sinew view --help
check "view --help exits 0 and lists the keys" sh -c "[ $rc -eq 0 ] && grep -q 'retention: the radius LBS keeps' '$WORK/out'"
sinew view --script "nonsense:1"
check "a script step that is not one: usage error (2), naming it" sh -c "[ $rc -eq 2 ] && grep -q 'nonsense:1' '$WORK/err'"

if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    echo "skipped: no display and no xvfb-run (Debian xvfb, xauth) to make one"
    finish
    exit 0
fi
if [ ! -x "$PY" ]; then
    echo "skipped: $PY is needed to read the pictures"
    finish
    exit 0
fi

# png.py COMMAND ...: pixel checks on PNG files (RGBA, 8 bits, no interlace).
cat >"$WORK/png.py" <<'EOF'
import struct, sys, zlib

def read(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    at, idat = 8, b""
    while at < len(data):
        n, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + n]
        if kind == b"IHDR":
            w, h, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour == 6, path
        elif kind == b"IDAT":
            idat += body
        at += 12 + n
    raw, rows, stride, prev = zlib.decompress(idat), [], w * 4, bytearray(w * 4)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - 4] if i >= 4 else 0
            b, c = prev[i], prev[i - 4] if i >= 4 else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, [[r[4 * x:4 * x + 4] for x in range(w)] for r in rows]

def differing(a, b):
    wa, ha, pa = read(a)
    wb, hb, pb = read(b)
    assert (wa, ha) == (wb, hb), "sizes differ"
    return {(x, y) for y in range(ha) for x in range(wa) if pa[y][x] != pb[y][x]}

# The character's pixels in a normals-view picture: neither the background
# (0.08 grey) nor the ground (normal +Y), grown by `grow` pixels.
def character(path, grow=0):
    w, h, p = read(path)
    cells = {(x, y) for y in range(h) for x in range(w)
             if max(abs(p[y][x][0] - 20), abs(p[y][x][1] - 20), abs(p[y][x][2] - 20)) > 2
             and max(abs(p[y][x][0] - 128), abs(p[y][x][1] - 255), abs(p[y][x][2] - 128)) > 2}
    for _ in range(grow):
        cells |= {(x + dx, y + dy) for (x, y) in cells for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    return w, h, cells

command, args = sys.argv[1], sys.argv[2:]
if command == "same":        # A B: the same pixels
    sys.exit(0 if not differing(*args) else 1)
if command == "differ":      # A B MIN: at least MIN pixels differ
    sys.exit(0 if len(differing(args[0], args[1])) >= int(args[2]) else 1)
if command == "size":        # A W H
    w, h, _ = read(args[0])
    sys.exit(0 if (w, h) == (int(args[1]), int(args[2])) else 1)
if command == "coverage":    # NORMALS LO HI: the character covers LO..HI of the picture
    w, h, cells = character(args[0])
    sys.exit(0 if float(args[1]) <= len(cells) / (w * h) <= float(args[2]) else 1)
if command == "within":      # A B NORMALS MIN: A and B differ in MIN+ pixels, nine in ten of them on the
                             # character (the rest: its shadow on the ground)
    d = differing(args[0], args[1])
    _, _, cells = character(args[2], 2)
    sys.exit(0 if len(d) >= int(args[3]) and len(d & cells) >= 0.9 * len(d) else 1)
if command == "overlay":     # A B X1 Y1 MIN: MIN+ pixels differ in the box 0..X1, 0..Y1 (the text),
                             # some in the bottom 12 rows (the timeline), none elsewhere
    d = differing(args[0], args[1])
    w, h, _ = read(args[0])
    text = {(x, y) for x, y in d if x <= int(args[2]) and y <= int(args[3])}
    bar = {(x, y) for x, y in d if y >= h - 12}
    sys.exit(0 if len(text) >= int(args[4]) and bar and d == text | bar else 1)
sys.exit(2)
EOF
png() { "$PY" "$WORK/png.py" "$@"; }

# ---- the demo character, one scripted session ------------------------------------------
# The twist clip at 1 s, seen from the front: the forearm is turned, so LBS
# and DQS differ there. Each P writes sinew-view-NNNN.png (0001, 0002, ...)
# of the frame it is pressed in.
# Without bloom: it spreads any change over the whole picture by a unit.
S="--size 160x120 --aa none --no-bloom --anim twist --time 1 --camera orbit:0,0"
mkdir -p "$WORK/s"
STEPS="space p h p 2 p 1 d p l b p b r p r ] p open:$WORK/missing.gltf open:$DATA/check/extent_absurd.gltf"
STEPS="$STEPS open:$DATA/check/extent_posed.gltf p [ p move:80,40 w dump:$WORK/weights.txt p 1 size:200x150 p"
STEPS="$STEPS open:$DATA/gltf/joint_chain.gltf p"
if (cd "$WORK/s" && "$SINEW" view $S --script "$STEPS" --screenshot "$WORK/final.png" --frames 30 --exit) \
    >"$WORK/out" 2>"$WORK/err"; then rc=0; else rc=$?; fi
if [ "$rc" -ne 0 ] && grep -q -e "built without GLFW" -e "cannot open a window" -e "below 4.3" "$WORK/err"; then
    echo "skipped: no OpenGL 4.3 window here ($(cat "$WORK/err"))"
    finish
    exit 0
fi
check "a scripted session exits 0" status_is 0
shot() { printf '%s/s/sinew-view-%04d.png' "$WORK" "$1"; }
check "P writes numbered screenshots, saying so" \
    sh -c "[ -f '$(shot 12)' ] && grep -q '^wrote sinew-view-0001.png (160×120)' '$WORK/err'"
check "... and --screenshot after --frames 30" png size "$WORK/final.png" 200 150

"$SINEW" render $S --quiet -o "$WORK/render.png"
check "overlay hidden: the window is sinew render's image, bit for bit" png same "$(shot 2)" "$WORK/render.png"
check "the overlay: text in the top left corner, the timeline bar at the bottom, nothing else" \
    png overlay "$(shot 1)" "$(shot 2)" 159 60 300
check "the character covers a plausible part of the picture" png coverage "$(shot 3)" 0.03 0.4
check "D: DQS changes the image, on the character" png within "$(shot 4)" "$(shot 2)" "$(shot 3)" 10
check "B: bones drawn over the image" png differ "$(shot 5)" "$(shot 2)" 10
check "R: the retention view" png differ "$(shot 6)" "$(shot 2)" 1000
check "]: the next clip changes the pose" png differ "$(shot 7)" "$(shot 2)" 100
# The walk: its first pose's bounds are not the whole clip's, so the scene
# box (ground, shadow map) must come back with the model.
check "models that fail to open leave the previous one on screen" png same "$(shot 8)" "$(shot 7)"
check "[: back to the first clip, at its start" png differ "$(shot 9)" "$(shot 2)" 100
check "... each failure on stderr, naming the file" sh -c "grep -q 'missing.gltf' '$WORK/err' &&
    grep -q 'extent_absurd.gltf.*SW_MODEL_MAX_EXTENT' '$WORK/err' && grep -q 'extent_posed.gltf.*at this pose' '$WORK/err'"
check "W: the joint under the cursor, its weights drawn" sh -c \
    "head -n 1 '$WORK/weights.txt' | grep -q \"^# weights view of node [0-9]* '[a-z]\" &&
     awk 'NR > 1 && \$4 > 0.5 { n++ } END { exit !(n > 10) }' '$WORK/weights.txt'"
check "... as a heat map" png differ "$(shot 10)" "$(shot 9)" 1000
check "size:200x150 resizes the window and the picture" png size "$(shot 11)" 200 150
check "a model that opens replaces the character" png differ "$(shot 12)" "$(shot 11)" 1000

# Keys 8 and 7: the depth and AO views, the same pictures as render --view depth|ao.
mkdir -p "$WORK/k"
if (cd "$WORK/k" && "$SINEW" view $S --script "space h 8 p 7 p" --frames 3 --exit) >"$WORK/out" 2>"$WORK/err"; then rc=0; else rc=$?; fi
check "keys 8 and 7 in a scripted session" status_is 0
"$SINEW" render $S --view depth --quiet -o "$WORK/render_depth.png"
"$SINEW" render $S --view ao --quiet -o "$WORK/render_ao.png"
check "8: the depth view, sinew render --view depth's image" png same "$WORK/k/sinew-view-0001.png" "$WORK/render_depth.png"
check "7: the AO view, sinew render --view ao's image" png same "$WORK/k/sinew-view-0002.png" "$WORK/render_ao.png"

# --stage: the stage in the window as render draws it (its lights, decals
# and cached shadows, set on the window's renderer by the same helper); without
# the air (fog, feedback), whose state depends on the frames drawn before.
mkdir -p "$WORK/st"
if (cd "$WORK/st" && "$SINEW" view $S --stage demo --fog off --env-feedback off --script "space h p" --frames 2 --exit) >"$WORK/out" 2>"$WORK/err"; then rc=0; else rc=$?; fi
check "view --stage demo in a scripted session" status_is 0
"$SINEW" render $S --stage demo --fog off --env-feedback off --quiet -o "$WORK/render_stage.png"
"$SINEW" render $S --quiet -o "$WORK/render_no_stage.png"
check "view --stage demo: sinew render --stage demo's image" png same "$WORK/st/sinew-view-0001.png" "$WORK/render_stage.png"
check "... not the picture without the stage" png differ "$WORK/render_stage.png" "$WORK/render_no_stage.png" 1000

# --graph: the parameter keys. M four times raises the selected parameter
# (the first, speed) to 1 from the second frame on: 40 frames later she
# walks; U forgets the change and the replay from time 0 is the picture
# without keys, bit for bit (spring bones off: they keep the frames' history).
G="--size 160x120 --aa none --no-bloom --camera orbit:0,0 --graph demo --springs off"
mkdir -p "$WORK/g1" "$WORK/g2"
if (cd "$WORK/g1" && "$SINEW" view $G --script "h m m m m wait:40 p u p" --frames 1 --exit) >"$WORK/out" 2>"$WORK/err"; then rc=0; else rc=$?; fi
check "view --graph: the parameter keys in a scripted session" status_is 0
if (cd "$WORK/g2" && "$SINEW" view $G --script "h wait:44 p wait:1 p" --frames 1 --exit) >"$WORK/out" 2>"$WORK/err"; then rc=0; else rc=$?; fi
check "view --graph without keys" status_is 0
check "M: speed up from the second frame, and she walks" png differ "$WORK/g1/sinew-view-0001.png" "$WORK/g2/sinew-view-0001.png" 100
check "U: the --set alone again, the same picture" png same "$WORK/g1/sinew-view-0002.png" "$WORK/g2/sinew-view-0002.png"

# ---- the retention view on a twist tube --------------------------------------------------
# A tube along +X of 13 rings × 8 segments, joint 1 (at x = 1.5) turned 170°
# about X; ring r has the child's weight w = clamp(r/4 − 1, 0, 1): rings 0..4
# rigid on the parent, 5..7 blended (w = ¼, ½, ¾), 8..12 rigid on the child.
"$PY" - "$WORK/tube.gltf" <<'EOF'
import base64, json, math, struct, sys
rings, segs, length, radius = 13, 8, 3.0, 0.5
pos, nrm, jnt, wgt, idx = b"", b"", b"", b"", b""
for r in range(rings):
    w = min(1.0, max(0.0, 3.0 * r / (rings - 1) - 1.0))
    for s in range(segs):
        a = 2 * math.pi * s / segs
        pos += struct.pack("<3f", length * r / (rings - 1), radius * math.cos(a), radius * math.sin(a))
        nrm += struct.pack("<3f", 0.0, math.cos(a), math.sin(a))
        jnt += struct.pack("<4B", 0, 1, 0, 0)
        wgt += struct.pack("<4f", 1.0 - w, w, 0.0, 0.0)
for r in range(rings - 1):
    for s in range(segs):
        a, b = r * segs + s, r * segs + (s + 1) % segs
        idx += struct.pack("<6H", a, b, b + segs, a, b + segs, a + segs)
ibm = struct.pack("<16f", 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)
ibm += struct.pack("<16f", 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -length / 2, 0, 0, 1)
blob, views = b"", []
for part in (pos, nrm, jnt, wgt, idx, ibm):
    views.append({"buffer": 0, "byteOffset": len(blob), "byteLength": len(part)})
    blob += part + b"\0" * (-len(part) % 4)
n = rings * segs
half = math.radians(170) / 2
gltf = {
    "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0, 2]}],
    "nodes": [{"name": "root", "children": [1]},
              {"name": "twist", "translation": [length / 2, 0, 0], "rotation": [math.sin(half), 0, 0, math.cos(half)]},
              {"name": "tube", "mesh": 0, "skin": 0}],
    "skins": [{"joints": [0, 1], "inverseBindMatrices": 5}],
    "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1, "JOINTS_0": 2, "WEIGHTS_0": 3},
                                "indices": 4}]}],
    "accessors": [
        {"bufferView": 0, "componentType": 5126, "count": n, "type": "VEC3",
         "min": [0, -radius, -radius], "max": [length, radius, radius]},
        {"bufferView": 1, "componentType": 5126, "count": n, "type": "VEC3"},
        {"bufferView": 2, "componentType": 5121, "count": n, "type": "VEC4"},
        {"bufferView": 3, "componentType": 5126, "count": n, "type": "VEC4"},
        {"bufferView": 4, "componentType": 5123, "count": len(idx) // 2, "type": "SCALAR"},
        {"bufferView": 5, "componentType": 5126, "count": 2, "type": "MAT4"}],
    "bufferViews": views,
    "buffers": [{"byteLength": len(blob),
                 "uri": "data:application/octet-stream;base64," + base64.b64encode(blob).decode()}],
}
json.dump(gltf, open(sys.argv[1], "w"))
EOF
sinew view "$WORK/tube.gltf" --size 160x120 --aa none --script "r h dump:$WORK/retention.txt" \
    --screenshot "$WORK/tube_view.png" --frames 1 --exit
check "the twist tube's retention view" sh -c "[ $rc -eq 0 ] && head -n 1 '$WORK/retention.txt' | grep -q retention"
# Values per ring against sqrt(1 − 2w(1−w)(1 − cos 170°)): 0.087156 at w = ½.
check "... ring vertices at the joint (w = ½) read 0.0872, rigid ones 1, the rest the formula" awk '
    NR > 1 { r = int($3 / 8); w = 3 * r / 12 - 1; if (w < 0) w = 0; if (w > 1) w = 1
             f = sqrt(1 - 2 * w * (1 - w) * (1 - cos(170 * 3.14159265358979 / 180)))
             d = $4 - f; if (d < 0) d = -d; if (d > 0.001) bad++
             if (r == 6 && ($4 < 0.0862 || $4 > 0.0882)) bad++
             if ((r <= 4 || r >= 8) && $4 != "1.000000") bad++
             n++ }
    END { exit !(n == 104 && bad == 0) }' "$WORK/retention.txt"
check "sinew render --view retention draws the same picture" sh -c \
    "'$SINEW' render '$WORK/tube.gltf' --size 160x120 --aa none --view retention --quiet -o '$WORK/tube_render.png' &&
     '$PY' '$WORK/png.py' same '$WORK/tube_view.png' '$WORK/tube_render.png'"


# ---- three joints turned about different axes ----------------------------------------------
# The tube's blends have two equal small singular values (a turn about one
# axis); here joints 1 and 2 are turned 90° about X and about Y, so Σ wᵢRᵢ
# has three different ones and only the smallest is right. Expected values
# from a Jacobi eigen-solver of MᵀM written here (the renderer solves the
# cubic in closed form).
"$PY" - "$WORK/three.gltf" "$WORK/three_expected.txt" <<'EOF'
import base64, json, math, struct, sys
weights = [(0.5, 0.3, 0.2), (1/3, 1/3, 1/3), (0.2, 0.5, 0.3), (0.1, 0.1, 0.8), (0.6, 0.4, 0.0), (0.0, 0.0, 1.0)]
c, s = math.cos(math.pi / 2), math.sin(math.pi / 2)
rot = [[[1, 0, 0], [0, 1, 0], [0, 0, 1]], [[1, 0, 0], [0, c, -s], [0, s, c]], [[c, 0, s], [0, 1, 0], [-s, 0, c]]]
def smallest_singular(m):
    a = [[sum(m[k][i] * m[k][j] for k in range(3)) for j in range(3)] for i in range(3)]
    for sweep in range(60):
        for p in range(3):
            for q in range(p + 1, 3):
                if abs(a[p][q]) < 1e-300:
                    continue
                th = (a[q][q] - a[p][p]) / (2 * a[p][q])
                t = (1.0 if th >= 0 else -1.0) / (abs(th) + math.sqrt(th * th + 1))
                cs = 1 / math.sqrt(t * t + 1); sn = t * cs
                for k in range(3):
                    a[k][p], a[k][q] = cs * a[k][p] - sn * a[k][q], sn * a[k][p] + cs * a[k][q]
                for k in range(3):
                    a[p][k], a[q][k] = cs * a[p][k] - sn * a[q][k], sn * a[p][k] + cs * a[q][k]
    return math.sqrt(max(0.0, min(a[i][i] for i in range(3))))
pos, jnt, wgt, expected = b"", b"", b"", []
for i, w in enumerate(weights):
    pos += struct.pack("<3f", 0.2 * i, 0.0, 0.0)
    jnt += struct.pack("<4B", 0, 1, 2, 0)
    wgt += struct.pack("<4f", w[0], w[1], w[2], 0.0)
    m = [[sum(w[k] * rot[k][r][col] for k in range(3)) for col in range(3)] for r in range(3)]
    used = sum(1 for x in w if x > 0)
    expected.append(1.0 if used < 2 else smallest_singular(m))
idx = struct.pack("<6H", 0, 1, 2, 3, 4, 5)
ibm = struct.pack("<16f", 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1) * 3
blob, views = b"", []
for part in (pos, jnt, wgt, idx, ibm):
    views.append({"buffer": 0, "byteOffset": len(blob), "byteLength": len(part)})
    blob += part + b"\0" * (-len(part) % 4)
h = math.sin(math.pi / 4)
n = len(weights)
gltf = {
    "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0, 1, 2, 3]}],
    "nodes": [{"name": "still"}, {"name": "about_x", "rotation": [h, 0, 0, h]},
              {"name": "about_y", "rotation": [0, h, 0, h]}, {"name": "points", "mesh": 0, "skin": 0}],
    "skins": [{"joints": [0, 1, 2], "inverseBindMatrices": 4}],
    "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2}, "indices": 3}]}],
    "accessors": [
        {"bufferView": 0, "componentType": 5126, "count": n, "type": "VEC3", "min": [0, 0, 0], "max": [0.2 * (n - 1), 0, 0]},
        {"bufferView": 1, "componentType": 5121, "count": n, "type": "VEC4"},
        {"bufferView": 2, "componentType": 5126, "count": n, "type": "VEC4"},
        {"bufferView": 3, "componentType": 5123, "count": 6, "type": "SCALAR"},
        {"bufferView": 4, "componentType": 5126, "count": 3, "type": "MAT4"}],
    "bufferViews": views,
    "buffers": [{"byteLength": len(blob),
                 "uri": "data:application/octet-stream;base64," + base64.b64encode(blob).decode()}],
}
json.dump(gltf, open(sys.argv[1], "w"))
open(sys.argv[2], "w").write("".join("%d %.9f\n" % (i, e) for i, e in enumerate(expected)))
EOF
sinew view "$WORK/three.gltf" --size 160x120 --aa none --script "r h dump:$WORK/three.txt" --frames 1 --exit
check "three joints, three axes: the retention view reads the smallest singular value" sh -c \
    "[ $rc -eq 0 ] && awk 'NR == FNR { e[\$1] = \$2; next }
         FNR > 1 { d = \$4 - e[\$3]; if (d < 0) d = -d; if (d > 2e-6) bad++; n++ }
         END { exit !(n == 6 && bad == 0) }' '$WORK/three_expected.txt' '$WORK/three.txt'"
# ---- the camera options set the first camera (as sinew render's, test_camera.sh) ----
MEASURE="$(cd "$(dirname "$0")" && pwd)/camera_measure.py"
measure() { "$PY" "$MEASURE" "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
CS="--size 240x135 --aa none --frames 1 --exit"
sinew view $CS --frame face --view weights:head --script h --screenshot "$WORK/face.png"
box=$(measure "$WORK/face.png" box)
check "view --frame face: the head's box is $box of the picture (>= 1/3)" \
    "$PY" -c "import sys; sys.exit(0 if $box >= 0.3334 else 1)"
sinew view $CS --frame nosuchjoint
check "view --frame with an unknown joint: a usage error (2)" status_is 2
check "... naming it" err_has_text "has no joint 'nosuchjoint'"
sinew view $CS --fov 0
check "view --fov 0: a usage error (2)" status_is 2
# The sky: Y steps the hour (from the plain sky to 6:00, then 7:00), as
# --time-of-day 7 sets it.
sinew view $CS --anim none --script "h y y" --screenshot "$WORK/sky_key.png"
sinew view $CS --anim none --time-of-day 7 --script h --screenshot "$WORK/sky_option.png"
sinew view $CS --anim none --script h --screenshot "$WORK/sky_plain.png"
check "view: Y Y from the plain sky shows 7:00, as --time-of-day 7" cmp -s "$WORK/sky_key.png" "$WORK/sky_option.png"
check "... not the plain sky" sh -c "! cmp -s '$WORK/sky_key.png' '$WORK/sky_plain.png'"
AVATAR="$DATA/camera/block_avatar.vrm"
sinew view "$AVATAR" $CS --view weights:Kopf --script "h wait:14" --screenshot "$WORK/walk.png"
sinew view "$AVATAR" $CS --view weights:Kopf --script "h wait:14" --follow --screenshot "$WORK/follow.png"
w=$(measure "$WORK/walk.png" cx) f=$(measure "$WORK/follow.png" cx)
check "view: the avatar walks off centre ($w); with --follow it stays centred ($f)" \
    "$PY" -c "import sys; sys.exit(0 if $w > 0.6 and abs($f - 0.5) < 0.03 else 1)"

# C: the frame cost per pass joins the overlay (two more lines of text).
"$SINEW" view $S --frames 3 --exit --screenshot "$WORK/cost_off.png" >"$WORK/out" 2>"$WORK/err" || true
"$SINEW" view $S --script c --frames 3 --exit --screenshot "$WORK/cost_on.png" >"$WORK/out" 2>"$WORK/err" || true
check "C: the pass times add text to the overlay" png differ "$WORK/cost_on.png" "$WORK/cost_off.png" 200

finish
