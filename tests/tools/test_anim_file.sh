#!/bin/sh
# --anim-file, --bone-map, --retarget (tools/anim_file.h, docs/retarget.md):
# the demo character (written by `sinew demo-asset`) with its own file as
# the anim file (by name: clip count and names, the same pose as the
# character's own clip), with a renamed copy of itself (retargeted through
# the name tables: the same pose), and with arnaud's clips (SINEW_ASSETS;
# skipped, saying so, without); `sinew info` lists the clips; a render
# with an anim file; an anim file that does not exist and a bone map that
# is not JSON give one line and exit status 1. The automatic mapping:
# --bone-map-out writes the map used, which --bone-map takes back to the
# same joints; a rig of meaningless names is an error naming the missing
# body bones (not a T-pose). With SINEW_ASSETS, the CC0 robot's walk (a
# Blender rig no name table knows) on a VRM 0.x avatar maps at least 15
# bones by itself and its feet alternate; arnaud's walk (root motion)
# carries the avatar's hips forward.
# Usage: sh test_anim_file.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

. "$(dirname "$0")/cli_harness.inc"
PY=/usr/bin/python3

sinew demo-asset -o "$WORK/demo.glb"
check "demo-asset writes the character" status_is 0
DEMO=$WORK/demo.glb

# info lists both files' clips, the file's renamed where a name is taken.
sinew info "$DEMO" --anim-file "$DEMO"
check "info --anim-file exits 0" status_is 0
check "... lists 14 animations" out_has "^animations: 14$"
check "... the file's walk as demo/walk" out_has '^  animation 7 "demo/walk"'
check "... and walk_right last" out_has '^  animation 13 "demo/walk_right"'
check "... says it merged by joint name" out_has "^anim file: .*7 clips added, by joint name, 168 of 168 tracks kept"

# The merged clip poses the character as its own clip does.
sinew export "$DEMO" --anim wave --times 0,0.3,1.1 --joints -o "$WORK/own.json"
check "export of the own clip" status_is 0
sinew export "$DEMO" --anim-file "$DEMO" --anim demo/wave --times 0,0.3,1.1 --joints -o "$WORK/merged.json"
check "export of the merged clip" status_is 0
check "... says what it added on stderr" err_has "7 clips added, by joint name"

# joints_equal A B TOL: every node's world matrix at every time within TOL
# (node by node in file order).
joints_equal() {
    "$PY" - "$1" "$2" "$3" <<'EOF'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
tol = float(sys.argv[3])
worst = 0.0
for n, m in zip(a["nodes"], b["nodes"]):  # the same node order (names may differ)
    for ma, mb in zip(n["world_by_time"], m["world_by_time"]):
        worst = max([worst] + [abs(x - y) for x, y in zip(ma, mb)])
print("worst matrix difference", worst)
sys.exit(0 if worst <= tol and len(a["nodes"]) == len(b["nodes"]) else 1)
EOF
}
check "... the same joints as the own clip" joints_equal "$WORK/own.json" "$WORK/merged.json" 0

# A copy of the character with Mixamo names: retargeted, the same pose.
"$PY" - "$DEMO" "$WORK/mixamo.glb" <<'EOF'
import json, struct, sys
data = open(sys.argv[1], "rb").read()
length = struct.unpack("<I", data[12:16])[0]
doc = json.loads(data[20:20 + length])
names = {"pelvis": "Hips", "spine": "Spine", "chest": "Spine1", "neck": "Neck", "head": "Head"}
for side, word in (("l", "Left"), ("r", "Right")):
    names.update({"shoulder_" + side: word + "Shoulder", "upper_arm_" + side: word + "Arm",
                  "forearm_" + side: word + "ForeArm", "hand_" + side: word + "Hand",
                  "thigh_" + side: word + "UpLeg", "shin_" + side: word + "Leg", "foot_" + side: word + "Foot"})
for node in doc["nodes"]:
    if node.get("name") in names:
        node["name"] = "mixamorig:" + names[node["name"]]
text = json.dumps(doc).encode()
text += b" " * (-len(text) % 4)
rest = data[20 + length:]
out = struct.pack("<III", 0x46546C67, 2, 12 + 8 + len(text) + len(rest)) + struct.pack("<II", len(text), 0x4E4F534A) + text + rest
open(sys.argv[2], "wb").write(out)
EOF
sinew export "$WORK/mixamo.glb" --anim-file "$DEMO" --anim demo/wave --times 0,0.3,1.1 --joints -o "$WORK/retargeted.json"
check "export with a renamed rig's clips" status_is 0
check "... retargeted through the name tables" err_has "retargeted, 19 humanoid bones (from sinew demo names, 19 bones; onto Mixamo names, 19 bones)"
# The twist joints are not humanoid bones: they keep their rest, which for
# "wave" is what the clip gives them too (it turns only the twist clip's).
check "... the same joints as the own clip" joints_equal "$WORK/own.json" "$WORK/retargeted.json" 1e-5

# --retarget on matching names, and a user bone map.
printf '{"hips": "mixamorig:Hips", "leftUpperArm": null}\n' >"$WORK/map.json"
sinew info "$DEMO" --anim-file "$WORK/mixamo.glb" --bone-map "$WORK/map.json"
check "info with a bone map" status_is 0
check "... retargets with it" out_has "retargeted, 18 humanoid bones"
check "... warns of the required bone it leaves out, on each rig" sh -c \
    "[ \$(grep -c 'warning: --anim-file: .*mixamo.glb: .* has no leftUpperArm (.*), left at rest; --bone-map-out FILE writes the map used' '$WORK/err') -eq 2 ]"
sinew info "$DEMO" --anim-file "$WORK/mixamo.glb" --bone-map-out "$WORK/no/such/dir/map.json"
check "--bone-map-out to a path that cannot be written: exit 1" status_is 1
check "... naming it" err_has "^sinew info: --bone-map-out: cannot write '.*no/such/dir/map.json'"

# --bone-map-out writes the map used; given back, the same joints.
sinew export "$WORK/mixamo.glb" --anim-file "$DEMO" --anim demo/wave --times 0,0.3,1.1 --joints \
    --bone-map-out "$WORK/used.json" -o "$WORK/again.json"
check "--bone-map-out with a retarget" status_is 0
check "... writes the map" exists "$WORK/used.json"
check "... in the bone map format, the anim file's rig first" sh -c "grep -q '\"hips\": \"pelvis\"' '$WORK/used.json'"
check "... then the character's" sh -c "grep -q '\"hips\": \"mixamorig:Hips\"' '$WORK/used.json'"
sinew export "$WORK/mixamo.glb" --anim-file "$DEMO" --anim demo/wave --times 0,0.3,1.1 --joints \
    --bone-map "$WORK/used.json" -o "$WORK/again.json"
check "... read back by --bone-map" status_is 0
check "... the same joints" joints_equal "$WORK/retargeted.json" "$WORK/again.json" 0
sinew info "$DEMO" --anim-file "$DEMO" --bone-map-out "$WORK/by_name.json"
check "--bone-map-out when merging by name" status_is 0
check "... says it wrote nothing" err_has "warning: --bone-map-out: .*by_name.json not written: the clips were merged by joint name"
check "... and did not" missing "$WORK/by_name.json"
sinew info "$DEMO" --bone-map-out "$WORK/x.json"
check "--bone-map-out without --anim-file is a usage error" status_is 2

# A rig of meaningless names: an error naming the missing body bones.
"$PY" - "$DEMO" "$WORK/nonames.glb" <<'EOF'
import json, struct, sys
data = open(sys.argv[1], "rb").read()
length = struct.unpack("<I", data[12:16])[0]
doc = json.loads(data[20:20 + length])
for i, node in enumerate(doc["nodes"]):
    node["name"] = "n%d" % i
text = json.dumps(doc).encode()
text += b" " * (-len(text) % 4)
rest = data[20 + length:]
out = struct.pack("<III", 0x46546C67, 2, 12 + 8 + len(text) + len(rest)) + struct.pack("<II", len(text), 0x4E4F534A) + text + rest
open(sys.argv[2], "wb").write(out)
EOF
sinew export "$DEMO" --anim-file "$WORK/nonames.glb" --anim nonames/walk --bone-map-out "$WORK/none.json" -o "$WORK/x.json"
check "a rig that cannot be mapped: exit 1" status_is 1
check "... one line" test "$(wc -l <"$WORK/err")" -eq 1
check "... naming the missing bones" err_has "cannot retarget: its rig has no hips, spine, leftUpperLeg, leftLowerLeg, leftFoot, rightUpperLeg, rightLowerLeg, rightFoot"
check "... and what to do" err_has "give --bone-map FILE\|name the nodes with --bone-map FILE"
check "... and no output" missing "$WORK/x.json"
check "... the (empty) map still written, to edit" exists "$WORK/none.json"

# bench anim plays the merged clips: the same skin matrices (its checksum)
# as with the character's own clips of the same names.
sinew bench anim "$DEMO" --anim wave --blend walk,wave --characters 4 --reps 20
cp "$WORK/out" "$WORK/bench_own.txt"
sinew bench anim "$DEMO" --anim-file "$DEMO" --anim demo/wave --blend demo/walk,demo/wave --characters 4 --reps 20
check "bench anim with --anim-file" status_is 0
check "... the same checksum as the character's own clips" sh -c \
    "[ -n \"\$(grep checksum '$WORK/out')\" ] && [ \"\$(grep checksum '$WORK/out')\" = \"\$(grep checksum '$WORK/bench_own.txt')\" ]"
sinew bench skin "$DEMO" --anim-file "$DEMO"
check "--anim-file on bench skin: usage error" status_is 2

# Errors: one line, exit status 1.
sinew export "$DEMO" --anim-file "$WORK/not-there.glb" -o "$WORK/x.json"
check "a missing anim file: exit 1" status_is 1
check "... one line" test "$(wc -l <"$WORK/err")" -eq 1
check "... naming the file" err_has "^sinew export: --anim-file: .*not-there.glb"
check "... and no output" missing "$WORK/x.json"
printf '{"hips": "Bip01_Pelvis",\n' >"$WORK/bad.json"
sinew export "$DEMO" --anim-file "$WORK/mixamo.glb" --bone-map "$WORK/bad.json" -o "$WORK/x.json"
check "a bone map that is not JSON: exit 1" status_is 1
check "... one line" test "$(wc -l <"$WORK/err")" -eq 1
check "... naming the file and the problem" err_has "^sinew export: --bone-map: .*bad.json: bone map is not valid JSON"
printf '{"pelvis": "Bip01_Pelvis"}' >"$WORK/bad.json"
sinew info "$DEMO" --anim-file "$WORK/mixamo.glb" --bone-map "$WORK/bad.json"
check "a bone map with a wrong bone name: exit 1" status_is 1
check "... says which" err_has '"pelvis" is not a VRM humanoid bone name'
sinew info "$DEMO" --bone-map "$WORK/map.json"
check "--bone-map without --anim-file is a usage error" status_is 2

# A render with an anim file.
sinew render "$DEMO" --anim-file "$WORK/mixamo.glb" --anim mixamo/walk --size 64x48 -o "$WORK/r.png" --quiet
if [ "$rc" -ne 0 ] && err_has "no EGL display on this machine"; then
    echo "skipped: render (no EGL display on this machine)"
else
    check "render with an anim file" status_is 0
    check "... writes the picture" exists "$WORK/r.png"
fi

if [ -n "${SINEW_ASSETS:-}" ]; then
    A=$SINEW_ASSETS
    sinew info "$DEMO" --anim-file "$A/gltf/pab/arnaud_locomotion.glb"
    check "arnaud's clips on the demo" status_is 0
    check "... four more clips" out_has "^animations: 11$"
    check "... retargeted from HumanIK names (and the left little finger, LeftHandRingPinky1-3, by the hierarchy)" out_has "retargeted, 19 humanoid bones (from Mixamo names and hierarchy, 50 bones"
    sinew export "$DEMO" --anim-file "$A/gltf/pab/arnaud_locomotion.glb" --anim jog --samples 4 -o "$WORK/jog.json"
    check "... export of jog on the demo" status_is 0

    # feet_alternate JOINTS.json: over the clip, the left foot is ahead of
    # the right by more than 0.1 m at one time and behind it by more than
    # 0.1 m at another (forward is +Z); prints the numbers.
    feet_alternate() {
        "$PY" - "$1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
z = {n["name"]: [m[11] for m in n["world_by_time"]] for n in d["nodes"] if n.get("name")}
ahead = [l - r for l, r in zip(z["LeftFoot"], z["RightFoot"])]
print("left foot ahead of right, per time:", [round(a, 3) for a in ahead])
sys.exit(0 if max(ahead) > 0.1 and min(ahead) < -0.1 else 1)
EOF
    }
    # hips_forward JOINTS.json M: the hips end the clip more than M ahead (+Z).
    hips_forward() {
        "$PY" - "$1" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
z = [n for n in d["nodes"] if n.get("name") == "Hips"][0]["world_by_time"]
print("hips z from", round(z[0][11], 3), "to", round(z[-1][11], 3))
sys.exit(0 if z[-1][11] - z[0][11] > float(sys.argv[2]) else 1)
EOF
    }
    AVATAR=$(dirname "$0")/../data/vrm/avatar_vrm0.vrm
    sinew export "$AVATAR" --anim-file "$A/gltf/cc0/robot.glb" --anim Robot_Walking --samples 9 --joints \
        -o "$WORK/robot_walk.json"
    check "the robot's walk on a VRM 0.x avatar" status_is 0
    check "... its Blender rig mapped by names and hierarchy" err_has "from names and hierarchy, 35 bones; onto VRM humanoid, 19 bones"
    check "... at least 15 bones in common" sh -c \
        "n=\$(sed -n 's/.*retargeted, \([0-9]*\) humanoid bones.*/\1/p' '$WORK/err'); [ \"\${n:-0}\" -ge 15 ]"
    check "... the feet alternate" feet_alternate "$WORK/robot_walk.json"
    sinew export "$AVATAR" --anim-file "$A/gltf/pab/arnaud_locomotion.glb" --anim walk --samples 9 --joints \
        -o "$WORK/arnaud_walk.json"
    check "arnaud's walk on the avatar" status_is 0
    check "... the feet alternate" feet_alternate "$WORK/arnaud_walk.json"
    check "... the hips move forward (root motion)" hips_forward "$WORK/arnaud_walk.json" 0.5
    sinew info "$AVATAR" --anim-file "$A/gltf/cc0/greenman.glb"
    check "a toy rig without feet: exit 1" status_is 1
    check "... naming what it lacks" err_has "its rig has no hips, spine, leftLowerLeg, leftFoot"
else
    echo "skipped: the arnaud, robot and greenman checks (SINEW_ASSETS is not set)"
fi

finish
