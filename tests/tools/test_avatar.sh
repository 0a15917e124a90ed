#!/bin/sh
# VRM avatars on the command line (tools/avatar_program.h): --expression,
# --gaze and --first-person on the generated avatars tests/data/vrm/avatar_vrm1.gltf
# and avatar_vrm0.vrm (make_avatar_files.py). export reports the expression
# and morph weights, the nodes hidden, and names wrong input (the pictures:
# test_avatar_render.sh; the values the renderer gets: test_avatar_program.c).
# Usage: sh test_avatar.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

. "$(dirname "$0")/cli_harness.inc"
PY=/usr/bin/python3
DATA=$(cd "$(dirname "$0")/../data/vrm" && pwd)
V1=$DATA/avatar_vrm1.gltf
V0=$DATA/avatar_vrm0.vrm

# json_is EXPR: the Python expression EXPR is true of the JSON on stdout (as d).
json_is() {
    "$PY" -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' \
        "$WORK/out" "$1"
}

sinew export --help
check "export --help documents --expression" out_has "^  --expression NAME"
check "... --gaze and --first-person" sh -c "grep -q -e '--gaze X,Y,Z' '$WORK/out' && grep -q -e '--first-person' '$WORK/out'"

sinew view --help
check "view --help lists the avatar keys and options" \
    sh -c "grep -q 'VRM: next expression' '$WORK/out' && grep -q -e '--expression NAME' '$WORK/out'"

for f in "$V1" "$V0"; do
    sinew export "$f" --expression happy:0.6 --expression angry:0.5
    check "export $(basename "$f") --expression happy:0.6: happy is binary (1)" \
        json_is '[e["weight_by_time"] for e in d["avatar"]["expressions"] if e["name"] == "happy"] == [[1]]'
    check "... angry 0.5" \
        json_is '[e["weight_by_time"] for e in d["avatar"]["expressions"] if e["name"] == "angry"] == [[0.5]]'
    check "... the face's mouth morph weight is happy's bind (1), blink 0" \
        json_is '[m["weights_by_time"] for m in d["avatar"]["morph_weights"]] == [[[1, 0]]]'
    check "... the firstPersonOnly mesh (node 23) is hidden" json_is 'd["avatar"]["hidden_node_indices"] == [23]'
    check "... BodyMat's colour half way to red, FaceMat's UV offset (0.5, 0)" \
        json_is '{o["material_index"]: o for o in d["avatar"]["material_overrides"]}[1]["base_color_by_time"] == [[0.600000024, 0.200000003, 0.300000012, 1]] and {o["material_index"]: o for o in d["avatar"]["material_overrides"]}[0]["uv_offset_by_time"] == [[0.5, 0]]'
    sinew export "$f" --expression happy:0.4
    check "... happy:0.4 is 0" json_is 'd["avatar"]["expressions"] == []'
done
sinew export "$V1" --expression joy:1
check "an unknown expression is a usage error" status_is 2
check "... listing the expressions, and 1.0's name for a 0.x preset name" \
    err_has_text "'joy' is not an expression of $V1 (did you mean 'happy'?); it has: lookUp, lookDown, lookLeft, lookRight, happy, angry, blink, aa, wink"
sinew export "$V1" --expression hapy:1
check "... with 'did you mean' when one is close" err_has_text "(did you mean 'happy'?)"
sinew export "$V1" --expression happy:1.5
check "a weight outside 0..1 is a usage error" status_is 2
sinew export "$V1" --gaze 1,2
check "--gaze needs three numbers" err_has_text "--gaze: '1,2' is not three numbers X,Y,Z"
sinew export "$(dirname "$0")/../data/check/clean.gltf" --gaze 0,1,2
check "--gaze on a model that is not a VRM is a usage error" err_has "is not a VRM avatar"
sinew export "$V0" --gaze 0.6,1.6,1.0
check "--gaze on the 0.x avatar (expression look-at): lookUp and lookLeft" \
    json_is 'sorted(e["name"] for e in d["avatar"]["expressions"]) == ["lookLeft", "lookUp"]'
sinew export "$V1" --first-person --expression happy:0
check "--first-person hides the thirdPersonOnly mesh (22), the rigid auto one on the head (24) and the auto one skinned to the head (25) instead" \
    json_is 'd["avatar"]["hidden_node_indices"] == [22, 24, 25]'
check "... reports the triangles erased from the skinned auto meshes (three-vrm's copies: Body keeps 1 of 2, Ears 0)" \
    json_is 'd["avatar"]["erased_triangles"] == [{"node": 21, "erased": 1, "triangles": 2}, {"node": 25, "erased": 2, "triangles": 2}]'
check "... without a warning" sh -c "! grep -q 'drawn whole' '$WORK/err'"
sinew export "$V1" --expression happy:0
check "the third-person view erases nothing" json_is 'd["avatar"]["erased_triangles"] == []'
sinew export "$DATA/avatar_erase.gltf" --first-person
check "--first-person on avatar_erase.gltf: Cape loses 13 of 16 triangles, Cloak 1 of 6 (three-vrm 3.5.5), nothing hidden" \
    json_is 'd["avatar"]["erased_triangles"] == [{"node": 20, "erased": 13, "triangles": 16}, {"node": 21, "erased": 1, "triangles": 6}] and d["avatar"]["hidden_node_indices"] == []'

# A VRM animation's expression tracks drive the expressions (three-vrm-animation's
# weights at these times: tests/vrm/test_vrma_tool.c); --expression wins for its own.
sinew export "$DATA/vrma_model1.vrm" --anim-file "$DATA/wave.vrma" --times 0.25,0.8,1.3 --quiet
check "export --anim-file wave.vrma: happy and smirk follow the tracks" \
    json_is '{e["name"]: [round(x, 5) for x in e["weight_by_time"]] for e in d["avatar"]["expressions"]} == {"happy": [0.5, 0.55, 0.1], "smirk": [0.25, 0.45, 0.9]}'
sinew export "$DATA/vrma_model1.vrm" --anim-file "$DATA/wave.vrma" --times 0.25,0.8,1.3 --expression happy:1 --quiet
check "... --expression happy:1 holds happy, smirk still follows its track" \
    json_is '{e["name"]: [round(x, 5) for x in e["weight_by_time"]] for e in d["avatar"]["expressions"]} == {"happy": [1, 1, 1], "smirk": [0.25, 0.45, 0.9]}'

# info: the meta as the file states it; 0.x redistribution follows licenseName
sinew info "$V0"
check "info on the 0.x avatar: licenseName CC_BY allows redistribution" \
    out_has "licence: CC_BY (redistribution allowed), users Everyone, violent Disallow, sexual Disallow, commercial Allow"
sinew info --json "$V0"
check "... --json: allow_redistribution true, the 1.0-only fields null, the 0.x ones as written" \
    json_is 'd["vrm"]["allow_redistribution"] is True and d["vrm"]["avatar_permission"] is None and d["vrm"]["allow_excessively_violent_usage"] is None and d["vrm"]["violent_usage"] == "Disallow" and d["vrm"]["other_permission_url"] == ""'
sinew info --json "$V1"
check "... 1.0: its own fields, the 0.x ones null" \
    json_is 'd["vrm"]["allow_redistribution"] is True and d["vrm"]["avatar_permission"] == "everyone" and d["vrm"]["license_name"] is None and d["vrm"]["authors"] == ["sinew", "tests"]'

finish
