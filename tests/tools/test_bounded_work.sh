#!/bin/sh
# Big inputs whose checks once grew faster than the file (docs/import.md,
# BOUNDED WORK): `--anim-file` with 45,000 clips (names taken renamed as
# a Python set says), a skin of 3,030 Assimp bones (every joint on the
# node of its name: rest skin matrices are identity), and spring bones read
# and simulated on a 1,000-joint chain and on 5,000 chains (finite, and
# swinging; anim_test_spring_bounded checks 3,000 joints and 20,000 chains
# against a reference). Results only: no timings.
# Usage: sh test_bounded_work.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

. "$(dirname "$0")/cli_harness.inc"
PY=/usr/bin/python3

"$PY" - "$WORK" <<'EOF'
import base64, json, os, struct, sys
work = sys.argv[1]
def chain(n):
    return [dict({"name": "j%d" % i, "translation": [0, 0.01, 0]}, **({"children": [i + 1]} if i + 1 < n else {}))
            for i in range(n)]
def gltf(nodes, **more):
    g = {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": nodes}
    g.update(more)
    return g
def write(name, g):
    json.dump(g, open(os.path.join(work, name), "w"), separators=(",", ":"))
# clips: one key each; a name repeats every 1,000th clip, and the target's
# own three clips are clip0..clip2
buf = struct.pack("<f4f", 0, 0, 0, 0, 1)
data = {"buffers": [{"byteLength": 20, "uri": "data:application/octet-stream;base64," + base64.b64encode(buf).decode()}],
        "bufferViews": [{"buffer": 0, "byteLength": 4}, {"buffer": 0, "byteOffset": 4, "byteLength": 16}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 1, "type": "SCALAR", "min": [0], "max": [0]},
                      {"bufferView": 1, "componentType": 5126, "count": 1, "type": "VEC4"}]}
def clip(name):
    return {"name": name, "samplers": [{"input": 0, "output": 1}],
            "channels": [{"sampler": 0, "target": {"node": 0, "path": "rotation"}}]}
names = ["clip%d" % (i if i % 1000 else i // 1000) for i in range(45000)]
write("clips.gltf", gltf(chain(2), animations=[clip(n) for n in names], **data))
write("target.gltf", gltf(chain(2), animations=[clip("clip%d" % i) for i in range(3)], **data))
taken, expected = {"clip0", "clip1", "clip2"}, ["clip0", "clip1", "clip2"]
for n in names:
    final = "clips/" + n if n in taken else n
    taken.add(final)
    expected.append(final)
open(os.path.join(work, "clips.expected"), "w").write("\n".join(expected) + "\n")
# spring bones
write("chain.gltf", gltf(chain(1000), extensionsUsed=["VRMC_springBone"], extensions={"VRMC_springBone": {
    "specVersion": "1.0", "springs": [{"joints": [{"node": i, "gravityPower": 1, "gravityDir": [1, 0, 0]} for i in range(1, 1000)]}]}}))
C = 5000
nodes = [{"name": "root", "children": [1 + 2 * c for c in range(C)]}]
for c in range(C):
    nodes += [{"translation": [0.001 * (c % 50), 0.01, 0], "children": [2 + 2 * c]}, {"translation": [0, 0.01, 0]}]
write("chains.gltf", gltf(nodes, extensionsUsed=["VRMC_springBone"], extensions={"VRMC_springBone": {
    "specVersion": "1.0", "springs": [{"joints": [{"node": 1 + 2 * c, "gravityPower": 1, "gravityDir": [1, 0, 0]}, {"node": 2 + 2 * c}]}
                                      for c in range(C)]}}))
# a BVH of 30 chains of 100 joints under Hips
lines = ["HIERARCHY", "ROOT Hips", "{", "OFFSET 0 0 0", "CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation"]
n = 1
for c in range(30):
    for d in range(100 if c else 99):
        lines += ["JOINT b%d_%d" % (c, d), "{", "OFFSET 0.1 1 0", "CHANNELS 3 Zrotation Xrotation Yrotation"]
        n += 1
    lines += ["End Site", "{", "OFFSET 0 1 0", "}"] + ["}"] * (100 if c else 99)
lines += ["}", "MOTION", "Frames: 1", "Frame Time: 0.033333", " ".join(["0"] * (6 + 3 * (n - 1)))]
open(os.path.join(work, "wide.bvh"), "w").write("\n".join(lines) + "\n")
EOF

sinew info "$WORK/target.gltf" --anim-file "$WORK/clips.gltf"
check "info --anim-file with 45,000 clips exits 0" status_is 0
check "... lists 45,003 animations" out_has "^animations: 45003$"
sed -n 's/^  animation [0-9]* "\(.*\)": .*/\1/p' "$WORK/out" >"$WORK/clips.got"
check "... each named as a set of taken names says" cmp -s "$WORK/clips.got" "$WORK/clips.expected"

# finite_and_moved FILE: every node's world matrix at every time is
# finite, and some node moved between the first and the last time.
finite_and_moved() {
    "$PY" - "$1" <<'EOF'
import json, math, sys
d = json.load(open(sys.argv[1]))
ok = all(math.isfinite(v) for n in d["nodes"] for m in n["world_by_time"] for v in m)
moved = any(abs(a - b) > 1e-6 for n in d["nodes"] for a, b in zip(n["world_by_time"][0], n["world_by_time"][-1]))
sys.exit(0 if ok and moved else 1)
EOF
}
sinew export "$WORK/chain.gltf" --joints --times 0,0.2,0.4 -o "$WORK/chain.json"
check "springs on a 1,000-joint chain" status_is 0
check "... finite, and they swing" finite_and_moved "$WORK/chain.json"
sinew export "$WORK/chains.gltf" --joints --times 0,0.2 -o "$WORK/chains.json"
check "springs on 5,000 chains" status_is 0
check "... finite, and they swing" finite_and_moved "$WORK/chains.json"

# rest_identity FILE: 3,030 joints of distinct names, each on the node of
# its name, each skin matrix the identity in the rest pose.
rest_identity() {
    "$PY" - "$1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
joints = d["skins"][0]["joints"]
names = [n["name"] for n in d["nodes"]]
ident = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0]
ok = len(joints) == 3030 and len({j["name"] for j in joints}) == 3030
ok = ok and all(names[j["node_index"]] == j["name"] for j in joints)
ok = ok and all(abs(a - b) < 1e-4 for j in joints for a, b in zip(j["skin_by_time"][0], ident))
sys.exit(0 if ok else 1)
EOF
}
sinew export "$WORK/wide.bvh" --joints --times 0 -o "$WORK/wide.json"
if status_is 1 && err_has "built with -DSW_ASSIMP=OFF"; then
    echo "skip: sinew is built without Assimp" >&2
else
    check "a BVH skin of 3,030 bones" status_is 0
    check "... every joint on its node, identity at rest" rest_identity "$WORK/wide.json"
fi
finish
