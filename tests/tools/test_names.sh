#!/bin/sh
# Names on the command line: humanoid bone names wherever a joint is named
# (a VRM's humanoid, or the map found from node names; a node name wins),
# suggestions for a misspelt command, option, clip, joint or material,
# exit status 2 for every unknown name, paths repeated as typed, files that
# are no model said so by their first bytes, and a folder given as -o.
# Usage: sh test_names.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

. "$(dirname "$0")/cli_harness.inc"

case $SINEW in /*) ;; *) SINEW=$PWD/$SINEW ;; esac
DATA=$(cd "$(dirname "$0")/../data" && pwd)
V1=$DATA/vrm/avatar_vrm1.gltf
"$SINEW" demo-asset -o "$WORK/demo.glb" --quiet
DEMO=$WORK/demo.glb

same() { cmp -s "$1" "$2"; }
differ() { ! cmp -s "$1" "$2"; }
joints() { # FILE ARGS...: export --joints of ARGS to FILE
    file=$1
    shift
    sinew export "$@" --joints --quiet -o "$file"
}

# ---- suggestions --------------------------------------------------------------
sinew rendr
check "sinew rendr: usage error" status_is 2
check "... did you mean 'render'?" err_has_text "sinew: unknown command 'rendr' (did you mean 'render'?; see sinew --help)"
sinew help exprot
check "sinew help exprot: did you mean 'export'?" err_has_text "did you mean 'export'?"
sinew frobnicate
check "a command near nothing: no suggestion" err_has_text "sinew: unknown command 'frobnicate' (see sinew --help)"
sinew render "$V1" --styel toon -o "$WORK/x.png"
check "render --styel: usage error" status_is 2
check "... did you mean '--style'?" err_has_text "unknown option '--styel', did you mean '--style'?"
sinew export "$V1" --anim-fle x.vrma
check "export --anim-fle: did you mean '--anim-file'?" err_has_text "did you mean '--anim-file'?"
sinew --verison
check "sinew --verison: did you mean '--version'?" err_has_text "did you mean '--version'?"

# clips: a name in another case is suggested, not taken
sinew export "$DEMO" --anim WALK -o "$WORK/x.json"
check "--anim WALK (the clip is walk): usage error" status_is 2
check "... did you mean 'walk'?, listing the clips" err_has_text "has no animation 'WALK' (did you mean 'walk'?; it has 7: 0 \"walk\""
sinew export "$DEMO" --blend Wave:0.5,walk:0.5 -o "$WORK/x.json"
check "--blend Wave: usage error too" status_is 2
check "... did you mean 'wave'?" err_has_text "did you mean 'wave'?"
sinew bench anim "$DEMO" --anim wlak
check "bench --anim wlak: usage error" status_is 2
check "... did you mean 'walk'?" err_has_text "did you mean 'walk'?"
sinew export "$V1" --anim walk -o "$WORK/x.json"
check "--anim on a model without clips: usage error" status_is 2
check "... pointing to --anim-file" err_has_text "it has no animations (play a clip from another file with --anim-file FILE)"
check "no usage error wrote a file" missing "$WORK/x.json"

# ---- humanoid names for joints ------------------------------------------------------
# A VRM's humanoid: leftHand is node LeftHand; the same pose by either name.
joints "$WORK/ik_node.json" "$V1" --ik LeftHand:0.5,1.2,0.3
check "--ik LeftHand (node name) on a VRM exits 0" status_is 0
joints "$WORK/ik_bone.json" "$V1" --ik leftHand:0.5,1.2,0.3
check "--ik leftHand (humanoid name) on a VRM exits 0" status_is 0
check "... the same pose as by the node's name" same "$WORK/ik_node.json" "$WORK/ik_bone.json"
joints "$WORK/rest.json" "$V1"
check "... and the IK moved something" differ "$WORK/rest.json" "$WORK/ik_bone.json"

# Nodes renamed, the humanoid kept: the humanoid name still finds the hand,
# and a node named like a bone wins over the humanoid's bone.
python3 - "$V1" "$WORK/renamed.gltf" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
names = [n.get("name") for n in d["nodes"]]
d["nodes"][names.index("LeftHand")]["name"] = "J_Bip_L_Hand"
d["nodes"][names.index("RightHand")]["name"] = "rightFoot"  # a node named as another bone
for b in d.get("buffers", []):
    if "uri" in b and not b["uri"].startswith("data:"):
        b["uri"] = sys.argv[1].rsplit("/", 1)[0] + "/" + b["uri"]
json.dump(d, open(sys.argv[2], "w"))
PY
RIGHT_HAND=$(python3 -c 'import json,sys; print([n.get("name") for n in json.load(open(sys.argv[1]))["nodes"]].index("RightHand"))' "$V1")
joints "$WORK/r_node.json" "$WORK/renamed.gltf" --allow-outside-paths --ik J_Bip_L_Hand:0.5,1.2,0.3
joints "$WORK/r_bone.json" "$WORK/renamed.gltf" --allow-outside-paths --ik leftHand:0.5,1.2,0.3
check "renamed nodes: --ik leftHand exits 0" status_is 0
check "... the node the humanoid maps" same "$WORK/r_node.json" "$WORK/r_bone.json"
joints "$WORK/w_name.json" "$WORK/renamed.gltf" --allow-outside-paths --ik rightFoot:-0.5,1.2,0.3
joints "$WORK/w_index.json" "$WORK/renamed.gltf" --allow-outside-paths --ik "$RIGHT_HAND:-0.5,1.2,0.3"
check "a node named rightFoot wins over the humanoid's rightFoot" same "$WORK/w_name.json" "$WORK/w_index.json"

# No VRM: the map found from the node names (the demo's hand_l, upper_arm_l).
joints "$WORK/d_node.json" "$DEMO" --anim walk --ik hand_l:0.3,0.9,0.3 --layer wave:upper_arm_l --look-at head:0,1.5,2
joints "$WORK/d_bone.json" "$DEMO" --anim walk --ik leftHand:0.3,0.9,0.3 --layer wave:leftUpperArm --look-at Head:0,1.5,2
check "demo: --ik leftHand, --layer wave:leftUpperArm, --look-at Head exit 0" status_is 0
check "... the same pose as by node names" same "$WORK/d_node.json" "$WORK/d_bone.json"

sinew export "$V1" --ik leftHnd:0.5,1.2,0.3 -o "$WORK/x.json"
check "--ik leftHnd: usage error" status_is 2
check "... did you mean 'LeftHand'?" err_has_text "--ik: $V1 has no node 'leftHnd' (did you mean 'LeftHand'?; it has 26 nodes)"
sinew export "$V1" --ik leftThumbDistal:0.5,1.2,0.3 -o "$WORK/x.json"
check "a humanoid bone the model does not map: usage error" status_is 2
check "... saying so" err_has_text "'leftThumbDistal' is a humanoid bone, but $V1 maps no node to it"
sinew bake face-sdf "$V1" -o "$WORK/face.png" --size 16
check "bake face-sdf without --head on a VRM: the humanoid's head" err_has 'head node "Head"'

# ---- paths as typed; files that are no model -----------------------------------------
cd "$WORK"
for cmd in info export; do
    sinew $cmd nosuchdir/avatar.vrm
    check "$cmd nosuchdir/avatar.vrm: exit 1" status_is 1
    check "... repeats the path as typed" err_has_text "nosuchdir/avatar.vrm: cannot open"
done
sinew export "$V1" --anim-file nosuchdir/walk.vrma
check "--anim-file nosuchdir/walk.vrma repeats the path as typed" err_has_text "--anim-file: nosuchdir/walk.vrma: cannot open"
sinew check nosuchdir/avatar.vrm
check "check nosuchdir/avatar.vrm repeats the path as typed" out_has "^nosuchdir/avatar.vrm: error: cannot open"
sinew render nosuchdir/avatar.vrm -o "$WORK/x.png"
check "render nosuchdir/avatar.vrm repeats the path as typed" err_has_text "nosuchdir/avatar.vrm: cannot open"
cd - >/dev/null

printf '\211PNG\r\n\032\n\000\000\000\rIHDR' >"$WORK/picture.png"
sinew info "$WORK/picture.png"
check "a PNG given as a model: exit 1" status_is 1
check "... says it looks like a PNG image" err_has_text "$WORK/picture.png: not a model file (it looks like a PNG image)"
check "... and lists the formats sinew reads, FBX among them" err_has_text "sinew reads glTF/GLB/VRM, IQM and, through Assimp, FBX, Collada, BVH"
cp "$WORK/picture.png" "$WORK/picture.vrm"
sinew info "$WORK/picture.vrm"
check "a PNG named .vrm: a PNG image too" err_has_text "picture.vrm: not a model file (it looks like a PNG image)"
printf '\377\330\377\340\000\020JFIF' >"$WORK/photo.bin"
sinew info "$WORK/photo.bin"
check "a JPEG: says so" err_has_text "(it looks like a JPEG image)"
printf 'PK\003\004\024\000' >"$WORK/pack.glb"
sinew info "$WORK/pack.glb"
check "a ZIP named .glb: says so" err_has_text "(it looks like a ZIP archive)"
echo "hello" >"$WORK/notes.txt"
sinew info "$WORK/notes.txt"
check "text: says so" err_has_text "(it looks like text, not glTF JSON)"

# ---- a folder as the output ---------------------------------------------------------
mkdir -p "$WORK/outdir"
sinew render "$V1" -o "$WORK/outdir"
check "render -o FOLDER: usage error" status_is 2
check "... says it is a folder" err_has_text "output '$WORK/outdir' is a folder; name a file in it: $WORK/outdir/render.png"
sinew bake face-sdf "$V1" -o "$WORK/outdir/"
check "bake -o FOLDER/: usage error saying it is a folder" err_has_text "output '$WORK/outdir/' is a folder"
sinew export "$V1" -o "$WORK/outdir"
check "export -o FOLDER: says it is a folder" err_has_text "cannot write '$WORK/outdir': it is a folder"

finish
