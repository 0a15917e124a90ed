#!/bin/sh
# Characters through Assimp on the command line: `sinew info` says the
# format, units and axes as read; `sinew check` reports the importer's
# findings; a small BVH written here loads with its skeleton and clip; and
# truncated and bit-flipped copies of the FBX, IQM and BVH files go
# through info, check, export and render: each run ends with a status of
# 0, 1 or 2 (never a signal), and a failure is one line naming the file.
# Needs SINEW_ASSETS for the FBX and IQM files (the BVH part runs without).
# Usage: sh test_import.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

. "$(dirname "$0")/cli_harness.inc"
PY=/usr/bin/python3

# A two-joint BVH: 3 frames at 10 fps, the child bending about Z.
cat > "$WORK/bend.bvh" <<'EOF'
HIERARCHY
ROOT hips
{
  OFFSET 0 0 0
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
  JOINT knee
  {
    OFFSET 0 10 0
    CHANNELS 3 Zrotation Xrotation Yrotation
    End Site
    {
      OFFSET 0 10 0
    }
  }
}
MOTION
Frames: 3
Frame Time: 0.1
0 0 0 0 0 0 0 0 0
0 0 0 0 0 0 45 0 0
0 0 0 0 0 0 90 0 0
EOF

sinew info "$WORK/bend.bvh"
if status_is 1 && err_has "built with -DSW_ASSIMP=OFF"; then
    # a build without Assimp: the message is the whole feature
    check "no Assimp: one clear line" [ "$(wc -l < "$WORK/err")" -eq 1 ]
    finish
    exit $?
fi
check "bvh: info" status_is 0
check "bvh: format" out_has "^.*bend.bvh: BVH (through Assimp)"
check "bvh: one 0.2 s clip" out_has "0.2 s"
sinew export "$WORK/bend.bvh" --samples 3 -o "$WORK/bend.json"
check "bvh: export" status_is 0

# A Collada triangle whose first vertex has 10 bone weights (10/55 ...
# 1/55): the importer keeps 8, and `sinew check` says 3/55 was dropped.
"$PY" - "$WORK/ten.dae" <<'EOF'
import sys
n = 10
names = " ".join("b%d" % b for b in range(n))
binds = " ".join(["1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1"] * n)
weights = " ".join("%.9g" % ((n - b) / 55.0) for b in range(n)) + " 1"
pairs = " ".join("%d %d" % (b, b) for b in range(n)) + " 0 %d 0 %d" % (n, n)
children = "".join('<node id="b%d" sid="b%d" name="b%d" type="JOINT"><translate>0 %d 0</translate></node>' % (b, b, b, b)
                   for b in range(1, n))
def source(id, array, count, stride, param, kind):
    return ('<source id="%s"><%s id="%s-a" count="%d">%s</%s><technique_common><accessor source="#%s-a" count="%d" '
            'stride="%d"><param name="%s" type="%s"/></accessor></technique_common></source>'
            % (id, array[0], id, array[2], array[1], array[0], id, count, stride, param, kind))
open(sys.argv[1], "w").write(
    '<?xml version="1.0" encoding="utf-8"?><COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" '
    'version="1.4.1"><asset><unit name="meter" meter="1"/><up_axis>Y_UP</up_axis></asset>'
    '<library_geometries><geometry id="tri"><mesh><source id="p"><float_array id="p-a" count="9">0 0 0 1 0 0 0 1 0'
    '</float_array><technique_common><accessor source="#p-a" count="3" stride="3"><param name="X" type="float"/>'
    '<param name="Y" type="float"/><param name="Z" type="float"/></accessor></technique_common></source>'
    '<vertices id="v"><input semantic="POSITION" source="#p"/></vertices><triangles count="1">'
    '<input semantic="VERTEX" source="#v" offset="0"/><p>0 1 2</p></triangles></mesh></geometry></library_geometries>'
    '<library_controllers><controller id="skin"><skin source="#tri"><bind_shape_matrix>1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1'
    '</bind_shape_matrix>'
    + source("j", ("Name_array", names, n), n, 1, "JOINT", "name")
    + source("i", ("float_array", binds, 16 * n), n, 16, "TRANSFORM", "float4x4")
    + source("w", ("float_array", weights, n + 1), n + 1, 1, "WEIGHT", "float")
    + '<joints><input semantic="JOINT" source="#j"/><input semantic="INV_BIND_MATRIX" source="#i"/></joints>'
    '<vertex_weights count="3"><input semantic="JOINT" source="#j" offset="0"/><input semantic="WEIGHT" source="#w" '
    'offset="1"/><vcount>%d 1 1</vcount><v>%s</v></vertex_weights></skin></controller></library_controllers>'
    '<library_visual_scenes><visual_scene id="s"><node id="b0" sid="b0" name="b0" type="JOINT">%s</node>'
    '<node id="mesh" name="mesh"><instance_controller url="#skin"><skeleton>#b0</skeleton></instance_controller></node>'
    '</visual_scene></library_visual_scenes><scene><instance_visual_scene url="#s"/></scene></COLLADA>\n'
    % (n, pairs, children))
EOF
sinew check "$WORK/ten.dae"
check "dae: check prints the dropped weights" out_has "vertices.*\[influences_dropped\]"
sinew check "$WORK/ten.dae" --json
check "dae: check --json: 1 vertex, 3/55 dropped" "$PY" -c "
import json,sys; d=json.load(open(sys.argv[1]))
f=[x for x in d['findings'] if x['code']=='influences_dropped']
assert len(f)==1 and f[0]['count']==1 and abs(f[0]['value']-3/55)<1e-6 and f[0]['severity']=='warning', f" "$WORK/out"

if [ -n "${SINEW_ASSETS:-}" ]; then
    A=$SINEW_ASSETS
    sinew info "$A/fbx/arnaud.fbx"
    check "fbx: info" status_is 0
    check "fbx: format" out_has "arnaud.fbx: FBX (through Assimp)"
    check "fbx: units and axes as read" out_has "^units: 0.01 m per unit, up axis: +Y (as read)"
    check "fbx: helpers folded" out_has "3 helper nodes folded"
    sinew info "$A/fbx/arnaud.fbx" --json
    check "fbx: info --json" "$PY" -c "
import json,sys; d=json.load(open(sys.argv[1]))
assert d['format']=='FBX' and abs(d['unit_scale_to_metres']-0.01)<1e-9 and d['up_axis_read']=='+Y', d
assert d['import_collapsed_nodes']==3" "$WORK/out"
    sinew check "$A/fbx/arnaud.fbx" --json
    check "fbx: check finds the folded helpers" "$PY" -c "
import json,sys; d=json.load(open(sys.argv[1]))
f=[x for x in d['findings'] if x['code']=='helper_nodes_collapsed']
assert len(f)==1 and f[0]['count']==3 and f[0]['severity']=='note', f" "$WORK/out"
    sinew render "$A/fbx/arnaud.fbx" --size 64x64 -o "$WORK/arnaud.png" --quiet
    check "fbx: render" status_is 0
fi

# Damaged copies: truncated at a few lengths, and bit-flipped (fixed
# seeds, so a failure reproduces). Each through every command.
"$PY" - "$WORK" "$WORK/bend.bvh" "${SINEW_ASSETS:-}" <<'EOF'
import os, random, sys
work, bvh, assets = sys.argv[1], sys.argv[2], sys.argv[3]
sources = [bvh]
if assets:
    sources += [os.path.join(assets, "fbx", "arnaud.fbx"), os.path.join(assets, "iqm", "guy.iqm")]
for src in sources:
    data = open(src, "rb").read()
    base, ext = os.path.splitext(os.path.basename(src))
    for k, frac in enumerate((0.02, 0.6)):
        open(os.path.join(work, "bad_%s_cut%d%s" % (base, k, ext)), "wb").write(data[: int(len(data) * frac)])
    for k in range(2):
        rng = random.Random(1000 * k + len(data))
        b = bytearray(data)
        for _ in range(8):
            i = rng.randrange(len(b))
            b[i] ^= 1 << rng.randrange(8)
        open(os.path.join(work, "bad_%s_flip%d%s" % (base, k, ext)), "wb").write(bytes(b))
EOF

# survives CMD FILE: status 0, 1 or 2; when not 0, stderr's lines each
# name the file (a warning or the error), and at least one does.
survives() {
    case $rc in 0 | 1 | 2) ;; *) return 1 ;; esac
    [ "$rc" -eq 0 ] && return 0
    name=$(basename "$1")
    [ -s "$WORK/err" ] || [ "$2" = check ] || return 1
    [ "$2" = check ] && { grep -q "$name" "$WORK/out" || return 1; return 0; }
    ! grep -v -q -F "$name" "$WORK/err"
}

n=0
for f in "$WORK"/bad_*; do
    sinew info "$f"
    check "info $(basename "$f")" survives "$f" info
    sinew check "$f"
    check "check $(basename "$f")" survives "$f" check
    sinew export "$f" --samples 2 -o "$WORK/x.json"
    check "export $(basename "$f")" survives "$f" export
    # render is slower (a GL context): every sixth file
    if [ $((n % 6)) -eq 0 ]; then
        sinew render "$f" --size 64x64 -o "$WORK/x.png" --quiet
        check "render $(basename "$f")" survives "$f" render
    fi
    n=$((n + 1))
done

finish
