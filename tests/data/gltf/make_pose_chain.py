#!/usr/bin/env python3
"""Writes pose_chain.gltf: a two-joint chain listed child first, a skinned
triangle and a matrix node, for the pose API test (tests/model/test_pose.c).

File nodes: 0 "tip" (child of 1, translation (0,1,0)), 1 "root"
(translation (1,0,0), rotation 90° about Z), 2 "mesh" (mesh 0, skin 0),
3 "scaled" (child of 0, matrix: scale 2, translation (0,0,3)).
Skin 0: joints [root, tip], inverse binds = inverses of the rest world
matrices (R(-90°)·T(-1,0,0) and R(-90°)).
Animation 0 "turn": root rotation 90° at t=0 → 180° at t=1 (LINEAR).
Animation 1 "two": tip translation and root rotation (two tracks)."""
import base64, json, math, struct

def quat_z(deg):
    h = math.radians(deg) / 2
    return [0.0, 0.0, math.sin(h), math.cos(h)]

def mat4_cols(rows):  # rows: 3x4 row-major -> 16 floats column-major
    m = [rows[0], rows[1], rows[2], [0, 0, 0, 1]]
    return [m[r][c] for c in range(4) for r in range(4)]

c, s = math.cos(math.radians(-90)), math.sin(math.radians(-90))
ibm_root = [[c, -s, 0, -c], [s, c, 0, -s], [0, 0, 1, 0]]  # R(-90)·T(-1,0,0)
ibm_tip = [[c, -s, 0, 0], [s, c, 0, 0], [0, 0, 1, 0]]     # R(-90)

chunks = []
def add(fmt, values):
    data = b"".join(struct.pack("<" + fmt, v) for v in values)
    while sum(len(x) for x in chunks) % 4: chunks.append(b"\0")
    offset = sum(len(x) for x in chunks)
    chunks.append(data)
    return offset, len(data)

views, accessors = [], []
def accessor(fmt, values, ctype, atype, count, minmax=None):
    off, ln = add(fmt, values)
    views.append({"buffer": 0, "byteOffset": off, "byteLength": ln})
    a = {"bufferView": len(views) - 1, "componentType": ctype, "count": count, "type": atype}
    if minmax: a["min"], a["max"] = minmax
    accessors.append(a)
    return len(accessors) - 1

pos = accessor("f", [2, 0, 0, 0, 1, 0, 1, 1, 0], 5126, "VEC3", 3, ([0, 0, 0], [2, 1, 0]))
joints = accessor("B", [0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0], 5121, "VEC4", 3)
weights = accessor("f", [1, 0, 0, 0, 1, 0, 0, 0, 0.5, 0.5, 0, 0], 5126, "VEC4", 3)
ibm = accessor("f", mat4_cols(ibm_root) + mat4_cols(ibm_tip), 5126, "MAT4", 2)
times = accessor("f", [0, 1], 5126, "SCALAR", 2, ([0], [1]))
rots = accessor("f", quat_z(90) + quat_z(180), 5126, "VEC4", 2)
moves = accessor("f", [0, 1, 0, 0, 2, 0], 5126, "VEC3", 2)
blob = b"".join(chunks)

doc = {
    "asset": {"version": "2.0", "generator": "sinew tests/data/gltf/make_pose_chain.py"},
    "scene": 0,
    "scenes": [{"nodes": [1, 2]}],
    "nodes": [
        {"name": "tip", "translation": [0, 1, 0], "children": [3]},
        {"name": "root", "translation": [1, 0, 0], "rotation": quat_z(90), "children": [0]},
        {"name": "mesh", "mesh": 0, "skin": 0},
        {"name": "scaled", "matrix": [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 3, 1]},
    ],
    "meshes": [{"primitives": [{"attributes": {"POSITION": pos, "JOINTS_0": joints, "WEIGHTS_0": weights}}]}],
    "skins": [{"joints": [1, 0], "inverseBindMatrices": ibm}],
    "animations": [
        {"name": "turn", "samplers": [{"input": times, "output": rots}],
         "channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}}]},
        {"name": "two", "samplers": [{"input": times, "output": moves}, {"input": times, "output": rots}],
         "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}},
                      {"sampler": 1, "target": {"node": 1, "path": "rotation"}}]},
    ],
    "buffers": [{"byteLength": len(blob),
                 "uri": "data:application/octet-stream;base64," + base64.b64encode(blob).decode()}],
    "bufferViews": views,
    "accessors": accessors,
}
with open(__file__.replace("make_pose_chain.py", "pose_chain.gltf"), "w") as f:
    json.dump(doc, f, indent=1)
    f.write("\n")
