#!/bin/sh
# `sinew info` and `sinew export`: exit codes, what they print, error lines
# for broken files, atomic output, -o/--output (and the old --out), missing
# folders created, the "wrote ..." line and --quiet, image warnings, and the
# pose written by --joints against matrices worked out by hand. Needs
# SINEW_ASSETS for the asset checks (they are skipped, saying so, when it is
# unset); the rest uses tests/data/gltf.
# Usage: sh test_info_export.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

. "$(dirname "$0")/cli_harness.inc"
PY=/usr/bin/python3
DATA=$(cd "$(dirname "$0")/../data/gltf" && pwd)

# json_ok: stdout is one valid JSON document.
json_ok() { "$PY" -c 'import json,sys; json.load(open(sys.argv[1]))' "$WORK/out"; }
# json_expr EXPR: a Python expression over `d` (the JSON on stdout) is true.
json_expr() { "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' "$WORK/out" "$1"; }
one_line_err() { [ "$(wc -l <"$WORK/err")" -eq 1 ]; }
# json_ok_file FILE: FILE is one valid JSON document.
json_ok_file() { "$PY" -c 'import json,sys; json.load(open(sys.argv[1]))' "$1"; }

sinew info --help
check "info --help exits 0" status_is 0
check "info --help prints usage" out_has "usage: sinew info MODEL"
sinew export --help
check "export --help exits 0" status_is 0
check "export --help documents --samples" out_has "--samples N"
check "export --help documents -o, --output FILE" out_has "^  -o, --output FILE"
check "export --help documents --joints and --quiet" sh -c "grep -q -e '--joints' '$WORK/out' && grep -q -e '--quiet' '$WORK/out'"
check "export --help does not mention the old --out" sh -c "! grep -q -e '--out\b' '$WORK/out'"

sinew info
check "info without MODEL: usage error" status_is 2
sinew info "$WORK/none.gltf"
check "info of a missing file fails" status_is 1
check "... naming the file" err_has "none.gltf"
check "... in one line" one_line_err
sinew info "$WORK/x.gltf" --bogus
check "info with an unknown option: usage error" status_is 2

# ---- images that are missing or do not decode: a warning, not a failure ------
# texture_missing.gltf: images[0] names a file that is not there, images[1]
# is a data: URI holding the text "not a png".
sinew info "$DATA/texture_missing.gltf"
check "info of a model with broken images exits 0" status_is 0
check "... and prints its report" out_has "textures: 2, images: 2"
check "... two warnings on stderr" [ "$(wc -l <"$WORK/err")" -eq 2 ]
check "... the missing file: file, index, uri and reason on one line" err_has_text \
    "sinew info: warning: $DATA/texture_missing.gltf: images[0] (uri \"no_such_texture.png\"): cannot open (No such file or directory)"
check "... the undecodable one: file, index, uri and reason on one line" err_has_text \
    "sinew info: warning: $DATA/texture_missing.gltf: images[1] (uri \"data:image/png;base64,...\"): not a PNG or JPEG image"
sinew info "$DATA/texture_missing.gltf" --json
check "info --json with broken images exits 0" status_is 0
check "... stdout is still one JSON document" json_ok
check "... the warnings go to stderr" err_has "images\[1\]"
sinew info "$DATA/joint_chain.gltf"
check "info of a model without images warns of nothing" err_empty

# ---- export: -o/--output, --out, '-', missing folders, "wrote", --quiet -------
M=$DATA/joint_chain.gltf
sinew export "$M" --times 0,1 -o "$WORK/o1.json"
check "export -o FILE exits 0" status_is 0
check "... writes the file" json_ok_file "$WORK/o1.json"
check "... nothing on stdout" out_empty
check "... says what it wrote on stderr" err_has_text "wrote $WORK/o1.json (1 primitive, 2 times)"
check "... and nothing else" [ "$(wc -l <"$WORK/err")" -eq 1 ]
sinew export "$M" --times 0,1 --output "$WORK/o2.json"
check "export --output FILE writes the same" cmp -s "$WORK/o1.json" "$WORK/o2.json"
sinew export "$M" --times 0,1 --output="$WORK/o3.json"
check "export --output=FILE writes the same" cmp -s "$WORK/o1.json" "$WORK/o3.json"
sinew export "$M" --times 0,1 --out "$WORK/o4.json"
check "export --out FILE (old spelling) still works" cmp -s "$WORK/o1.json" "$WORK/o4.json"
check "... and says what it wrote" err_has_text "wrote $WORK/o4.json (1 primitive, 2 times)"
sinew export "$M" --times 0,1 -o "$WORK/o5.json" --quiet
check "export --quiet exits 0" status_is 0
check "... writes the file" cmp -s "$WORK/o1.json" "$WORK/o5.json"
check "... and prints nothing at all" sh -c "[ ! -s '$WORK/out' ] && [ ! -s '$WORK/err' ]"
sinew export "$M" --times 0,1 -o -
check "export -o - writes to stdout" cmp -s "$WORK/o1.json" "$WORK/out"
check "... with no 'wrote' line" err_empty
sinew export "$M" --times 0,1
check "export without -o writes to stdout, no 'wrote' line" sh -c "cmp -s '$WORK/o1.json' '$WORK/out' && [ ! -s '$WORK/err' ]"
sinew export "$M" -o "$WORK/a.json" --output "$WORK/b.json"
check "two outputs: usage error" status_is 2
check "... saying so" err_has "one output file only"
sinew export "$M" -o
check "-o without a value: usage error" status_is 2
check "... naming the option" err_has "option -o needs a value"

# Missing folders are created with mode 0777 & ~umask; existing ones are
# left as they are; a file in the way is an error naming it.
mkdir "$WORK/mine" && chmod 700 "$WORK/mine"
old_umask=$(umask)
umask 002
sinew export "$M" --times 0 -o "$WORK/mine/new/deeper/x.json"
umask "$old_umask"
check "export into missing folders exits 0" status_is 0
check "... creates them and the file" json_ok_file "$WORK/mine/new/deeper/x.json"
check "... with mode 0777 & ~umask (775 under umask 002)" \
    sh -c "[ \$(stat -c %a '$WORK/mine/new') = 775 ] && [ \$(stat -c %a '$WORK/mine/new/deeper') = 775 ]"
check "... leaving the existing folder's mode alone (700)" [ "$(stat -c %a "$WORK/mine")" = 700 ]
check "... and no temporary" no_temp_in "$WORK/mine"
echo "a file" >"$WORK/plain"
sinew export "$M" --times 0 -o "$WORK/plain/sub/x.json"
check "a file where a folder should be: failure (1)" status_is 1
check "... naming the output and the file in the way" \
    err_has_text "cannot write '$WORK/plain/sub/x.json': '$WORK/plain' exists and is not a folder"
check "... in one line" one_line_err
check "... leaving the file alone" [ "$(cat "$WORK/plain")" = "a file" ]

# ---- export --joints: the pose, against matrices worked out by hand ----------
# joint_chain.gltf, in file order: nodes[0] "tip" (translation (0,2,0)) is a
# child of nodes[1] "root" (translation (1,0,0)); nodes[2] "body"
# (translation (5,0,0)) holds the skinned triangle. Skin "chain" has joints
# [root, tip] with inverse bind matrices T(-1,0,0) and T(-1,-2,0), the
# inverses of their rest world matrices T(1,0,0) and T(1,2,0). Clip "bend"
# turns root from the identity (0 s) to 90° about +Z (1 s), and tip from the
# identity to 90° about +X.
#   t = 0: world root = T(1,0,0), tip = T(1,2,0), body = T(5,0,0); both
#          skin matrices are the identity.
#   t = 1: Rz = [[0,-1,0],[1,0,0],[0,0,1]], Rx = [[1,0,0],[0,0,-1],[0,1,0]].
#          world root = [Rz | (1,0,0)];
#          world tip  = world root · T(0,2,0) · Rx = [Rz·Rx | Rz·(0,2,0) + (1,0,0)]
#                     = [[0,0,1],[1,0,0],[0,1,0] | (-1,0,0)];
#          skin root  = world root · T(-1,0,0) = [Rz | Rz·(-1,0,0) + (1,0,0)] = [Rz | (1,-1,0)];
#          skin tip   = world tip · T(-1,-2,0) = [Rz·Rx | (0,-1,-2) + (-1,0,0)] = [Rz·Rx | (-1,-1,-2)].
#          (Check: the tip's rest position (1,2,0) goes to its world position (-1,0,0).)
sinew export "$M" --times 0,1 --joints -o "$WORK/joints.json"
check "export --joints exits 0" status_is 0
check "... says what it wrote, with the pose's size" \
    err_has_text "wrote $WORK/joints.json (1 primitive, 2 times, 3 nodes, 1 skin)"
check "export --joints: nodes and skin matrices as worked out by hand" "$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
I = [1,0,0,0, 0,1,0,0, 0,0,1,0]
def rows(r, t): return [r[0][0],r[0][1],r[0][2],t[0], r[1][0],r[1][1],r[1][2],t[1], r[2][0],r[2][1],r[2][2],t[2]]
Rz = [[0,-1,0],[1,0,0],[0,0,1]]
RzRx = [[0,0,1],[1,0,0],[0,1,0]]
E = [[1,0,0],[0,1,0],[0,0,1]]
nodes = [(0, "tip", 1, [rows(E, (1,2,0)), rows(RzRx, (-1,0,0))]),
         (1, "root", -1, [rows(E, (1,0,0)), rows(Rz, (1,0,0))]),
         (2, "body", -1, [rows(E, (5,0,0)), rows(E, (5,0,0))])]
skin = [(0, 1, "root", [I, rows(Rz, (1,-1,0))]),
        (1, 0, "tip", [I, rows(RzRx, (-1,-1,-2))])]
def close(a, b): return len(a) == len(b) and all(abs(x - y) < 1e-6 for x, y in zip(a, b))
assert d["times"] == [0, 1]
assert [(n["node_index"], n["name"], n["parent_index"]) for n in d["nodes"]] == [n[:3] for n in nodes], d["nodes"]
for got, want in zip(d["nodes"], nodes):
    assert len(got["world_by_time"]) == 2
    for t in range(2):
        assert close(got["world_by_time"][t], want[3][t]), (want[1], t, got["world_by_time"][t])
assert len(d["skins"]) == 1 and d["skins"][0]["skin_index"] == 0 and d["skins"][0]["name"] == "chain"
joints = d["skins"][0]["joints"]
assert [(j["joint"], j["node_index"], j["name"]) for j in joints] == [s[:3] for s in skin], joints
for got, want in zip(joints, skin):
    for t in range(2):
        assert close(got["skin_by_time"][t], want[3][t]), (want[2], t, got["skin_by_time"][t])
# The vertices agree: the tip-weighted vertex (1,2,0) is drawn at (-1,0,0) at 1 s.
p = d["primitives"][0]["positions_by_time"][1]
assert close(p[3:6], [-1, 0, 0]), p
' "$WORK/joints.json"
sinew export "$M" --times 0,1
check "export without --joints writes no pose" json_expr "'nodes' not in d and 'skins' not in d"

if [ -z "${SINEW_ASSETS:-}" ]; then
    echo "skipped: asset checks (SINEW_ASSETS is not set)"
else
    A=$SINEW_ASSETS/gltf
    sinew info "$A/khronos/cesium_man.gltf"
    check "info cesium_man exits 0" status_is 0
    check "info cesium_man: 3273 vertices" out_has "3273 vertices"
    check "info cesium_man: 19 joints" out_has "19 joints"
    check "info cesium_man: 57 channels" out_has "57 channels"
    check "info cesium_man: warns of 210 unnormalised weights" out_has "210"

    sinew info "$A/pab/arnaud_locomotion.glb" --json
    check "info --json exits 0" status_is 0
    check "info --json is valid JSON" json_ok
    check "info --json: 4 animations, walk 1.333 s" json_expr \
        "len(d['animations'])==4 and any(a['name']=='walk' and abs(a['duration']-4/3)<1e-3 for a in d['animations'])"
    check "info --json: 53 joints" json_expr "d['skins'][0]['joint_count']==53"
    check "info --json: 3748 vertices" json_expr "sum(p['vertex_count'] for m in d['meshes'] for p in m['primitives'])==3748"

    sinew info "$A/synthetic/eight_influences.glb" --json
    check "info --json: eight_influences histogram 4:114 5:384 6:384 7:384 8:1128" json_expr \
        "d['skins'][0]['influence_histogram'][4:]==[114,384,384,384,1128]"

    # Broken files: exit 1, one line naming the file.
    for f in IncorrectVertexArrays/Cube.gltf IndexOutOfRange/IndexOutOfRange.gltf \
             IndexOutOfRange/AllIndicesOutOfRange.gltf MissingBin/BoxTextured.gltf \
             RecursiveNodes/RecursiveNodes.gltf SchemaFailures/sceneWrongType.gltf \
             TestNoRootNode/NoScene.gltf glTF1-IncorrectVertexArrays/Cube_v1.gltf \
             wrongTypes/badArray.gltf wrongTypes/badExtension.gltf wrongTypes/badNumber.gltf \
             wrongTypes/badObject.gltf wrongTypes/badString.gltf wrongTypes/badUint.gltf \
             BoxWithInfinites-glTF-Binary/BoxWithInfinites.glb; do
        sinew info "$A/invalid/$f"
        check "info rejects invalid/$f" status_is 1
        check "... in one line naming $(basename "$f")" sh -c "[ \$(wc -l <'$WORK/err') -eq 1 ] && grep -qF '$(basename "$f")' '$WORK/err'"
    done
    sinew info "$A/invalid/BoxBadNormals-glTF-Binary/BoxBadNormals.glb"
    check "BoxBadNormals loads (valid but suspicious)" status_is 0
    check "... with a warning about its normals" out_has "NORMAL"
    sinew info "$A/invalid/TestNoRootNode/SceneWithoutNodes.gltf"
    check "SceneWithoutNodes loads" status_is 0

    # export
    sinew export "$A/synthetic/twist_tube.glb" --anim twist --times 0,2
    check "export exits 0" status_is 0
    check "export is valid JSON" json_ok
    check "export: schema" json_expr \
        "d['anim']['name']=='twist' and d['times']==[0,2] and len(d['primitives'])==1 and d['primitives'][0]['vertex_count']==4355 and len(d['primitives'][0]['positions_by_time'])==2 and len(d['primitives'][0]['positions_by_time'][1])==3*4355"
    # At t=2 the tip is turned 170° about +Y: a vertex at y ≥ 4/3 keeps its
    # height and radius 0.2 (weights 1 on the tip), and at t=0 positions are
    # the bind positions (the tube runs y = 0..2).
    check "export: twisted tip keeps radius and height" json_expr \
        "all(abs((p[i]**2+p[i+2]**2)**0.5-0.2)<1e-5 for p in [d['primitives'][0]['positions_by_time'][1]] for i in range(0,len(p),3) if p[i+1]>1.34 and p[i+1]<1.99)"
    check "export: bind pose at t=0 spans y 0..2" json_expr \
        "abs(min(d['primitives'][0]['positions_by_time'][0][1::3]))<1e-6 and abs(max(d['primitives'][0]['positions_by_time'][0][1::3])-2)<1e-6"

    sinew export "$A/synthetic/twist_tube.glb" --anim 5
    check "export --anim out of range: usage error" status_is 2
    check "... listing the animations" err_has "bend"
    sinew export "$A/synthetic/twist_tube.glb" --samples 0
    check "export --samples 0: usage error" status_is 2
    sinew export "$A/synthetic/twist_tube.glb" --times 0,x
    check "export --times with junk: usage error" status_is 2
    sinew export "$A/synthetic/twist_tube.glb" --times 1 --samples 3
    check "export --times and --samples: usage error" status_is 2

    sinew export "$A/synthetic/morph_skin.glb" --samples 3 --normals -o "$WORK/morph.json"
    check "export -o exits 0" status_is 0
    check "export -o writes the file" exists "$WORK/morph.json"
    check "export -o leaves no temporary" no_temp_in "$WORK"
    check "export --normals: unit normals at 3 times" "$PY" -c '
import json,sys
d=json.load(open(sys.argv[1]))
p=d["primitives"][0]
n=p["normals_by_time"]
assert d["times"]==[0,1,2] and len(n)==3
for a in n:
    for i in range(0,len(a),3):
        l=(a[i]**2+a[i+1]**2+a[i+2]**2)**0.5
        assert abs(l-1)<1e-5, l
' "$WORK/morph.json"
    mkdir -p "$WORK/ro" && chmod 500 "$WORK/ro"
    if [ "$(id -u)" -ne 0 ]; then
        sinew export "$A/synthetic/twist_tube.glb" -o "$WORK/ro/x.json"
        check "export into a read-only folder fails" status_is 1
        check "... leaving nothing" no_temp_in "$WORK/ro"
        sinew export "$A/synthetic/twist_tube.glb" -o "$WORK/ro/sub/x.json"
        check "export below a read-only folder fails" status_is 1
        check "... naming the folder it cannot create" err_has_text "cannot create the folder '$WORK/ro/sub'"
    fi
    sinew export "$A/synthetic/twist_tube.glb" -o "$WORK/no/such/dir/x.json"
    check "export into missing folders creates them" status_is 0
    check "... and writes the file" exists "$WORK/no/such/dir/x.json"

    # A texture that decodes gives no warning.
    sinew info "$A/khronos/cesium_man.gltf"
    check "info of cesium_man (a JPEG texture) warns of nothing" err_empty

    sinew export "$A/khronos/box_animated.gltf" --samples 2
    check "export of a rigid node animation exits 0" status_is 0
    check "... with both mesh instances" json_expr "len(d['primitives'])==2 and not any(p['skinned'] for p in d['primitives'])"
fi

finish
