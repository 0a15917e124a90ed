#!/bin/sh
# `sinew info` and `sinew export`: exit codes, what they print, error lines
# for broken files, atomic output. Needs SINEW_ASSETS for the asset checks
# (they are skipped, saying so, when it is unset).
# Usage: sh test_info_export.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

. "$(dirname "$0")/cli_harness.inc"
PY=/usr/bin/python3

# json_ok: stdout is one valid JSON document.
json_ok() { "$PY" -c 'import json,sys; json.load(open(sys.argv[1]))' "$WORK/out"; }
# json_expr EXPR: a Python expression over `d` (the JSON on stdout) is true.
json_expr() { "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' "$WORK/out" "$1"; }
one_line_err() { [ "$(wc -l <"$WORK/err")" -eq 1 ]; }

sinew info --help
check "info --help exits 0" status_is 0
check "info --help prints usage" out_has "usage: sinew info MODEL"
sinew export --help
check "export --help exits 0" status_is 0
check "export --help documents --samples" out_has "--samples N"

sinew info
check "info without MODEL: usage error" status_is 2
sinew info "$WORK/none.gltf"
check "info of a missing file fails" status_is 1
check "... naming the file" err_has "none.gltf"
check "... in one line" one_line_err
sinew info "$WORK/x.gltf" --bogus
check "info with an unknown option: usage error" status_is 2

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
    check "export --anim out of range fails" status_is 1
    check "... listing the animations" err_has "bend"
    sinew export "$A/synthetic/twist_tube.glb" --samples 0
    check "export --samples 0: usage error" status_is 2
    sinew export "$A/synthetic/twist_tube.glb" --times 0,x
    check "export --times with junk: usage error" status_is 2
    sinew export "$A/synthetic/twist_tube.glb" --times 1 --samples 3
    check "export --times and --samples: usage error" status_is 2

    sinew export "$A/synthetic/morph_skin.glb" --samples 3 --normals --out "$WORK/morph.json"
    check "export --out exits 0" status_is 0
    check "export --out writes the file" exists "$WORK/morph.json"
    check "export --out leaves no temporary" no_temp_in "$WORK"
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
        sinew export "$A/synthetic/twist_tube.glb" --out "$WORK/ro/x.json"
        check "export into a read-only folder fails" status_is 1
        check "... leaving nothing" no_temp_in "$WORK/ro"
    fi
    sinew export "$A/synthetic/twist_tube.glb" --out "$WORK/no/such/dir/x.json"
    check "export into a missing folder fails" status_is 1
    check "... naming the path" err_has "no/such/dir"

    sinew export "$A/khronos/box_animated.gltf" --samples 2
    check "export of a rigid node animation exits 0" status_is 0
    check "... with both mesh instances" json_expr "len(d['primitives'])==2 and not any(p['skinned'] for p in d['primitives'])"
fi

finish
