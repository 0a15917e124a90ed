#!/usr/bin/env python3
"""Writes stage.gltf: a small stage for the stage tests (tests/render/test_stage.c,
tests/model/test_ground.c, tests/tools/test_stage.sh). Metres, y up.

Nodes and meshes (every triangle wound counter-clockwise seen from its front):
  0 "ground": a green quad, x and z in [-10, 10], y = 0, facing up.
  1 "box": translation (2, 0, 0); a red unit box x, z in [-0.5, 0.5],
     y in [0, 1]: its top at y = 1 over x in [1.5, 2.5], z in [-0.5, 0.5].
  2 "ramp": a blue quad over x in [-3, -1], z in [-1, 1], rising 30° towards
     +x: y = (x + 3) tan 30°, facing up (normal.y = cos 30°: walkable).
  3 "wall": a grey quad over x in [-1, 1], z in [-4, -3], rising 60° towards
     -z: y = (-3 - z) tan 60°, facing up and +z (normal.y = cos 60° = 0.5:
     not walkable, under cos 50°)."""
import base64, json, math, struct

chunks = []
def add(fmt, values):
    data = b"".join(struct.pack("<" + fmt, v) for v in values)
    while sum(len(x) for x in chunks) % 4: chunks.append(b"\0")
    offset = sum(len(x) for x in chunks)
    chunks.append(data)
    return offset, len(data)

views, accessors = [], []
def accessor(fmt, values, ctype, count, atype, target, minmax=None):
    offset, length = add(fmt, values)
    views.append({"buffer": 0, "byteOffset": offset, "byteLength": length, "target": target})
    a = {"bufferView": len(views) - 1, "componentType": ctype, "count": count, "type": atype}
    if minmax: a["min"], a["max"] = minmax
    accessors.append(a)
    return len(accessors) - 1

def mesh_from_quads(quads):
    """quads: lists of 4 corners (counter-clockwise from the front); flat normals."""
    pos, nrm, idx = [], [], []
    for q in quads:
        a, b, c = q[0], q[1], q[2]
        e1 = [b[i] - a[i] for i in range(3)]
        e2 = [c[i] - a[i] for i in range(3)]
        n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]]
        l = math.sqrt(sum(x * x for x in n))
        n = [x / l for x in n]
        base = len(pos) // 3
        for p in q:
            pos += p
            nrm += n
        idx += [base, base + 1, base + 2, base, base + 2, base + 3]
    count = len(pos) // 3
    lo = [min(pos[i::3]) for i in range(3)]
    hi = [max(pos[i::3]) for i in range(3)]
    p = accessor("f", pos, 5126, count, "VEC3", 34962, (lo, hi))
    n = accessor("f", nrm, 5126, count, "VEC3", 34962)
    i = accessor("I", idx, 5125, len(idx), "SCALAR", 34963)
    return {"attributes": {"POSITION": p, "NORMAL": n}, "indices": i}

ground = mesh_from_quads([[[-10, 0, 10], [10, 0, 10], [10, 0, -10], [-10, 0, -10]]])
h, l = 0.5, 0.5
box_quads = [
    [[-h, 1, l], [h, 1, l], [h, 1, -l], [-h, 1, -l]],      # top (+y)
    [[-h, 0, -l], [h, 0, -l], [h, 0, l], [-h, 0, l]],      # bottom (-y)
    [[-h, 0, l], [h, 0, l], [h, 1, l], [-h, 1, l]],        # front (+z)
    [[h, 0, -l], [-h, 0, -l], [-h, 1, -l], [h, 1, -l]],    # back (-z)
    [[h, 0, l], [h, 0, -l], [h, 1, -l], [h, 1, l]],        # right (+x)
    [[-h, 0, -l], [-h, 0, l], [-h, 1, l], [-h, 1, -l]],    # left (-x)
]
box = mesh_from_quads(box_quads)
t30 = math.tan(math.radians(30))
ramp = mesh_from_quads([[[-3, 0, 1], [-1, 2 * t30, 1], [-1, 2 * t30, -1], [-3, 0, -1]]])
t60 = math.tan(math.radians(60))
wall = mesh_from_quads([[[-1, 0, -3], [1, 0, -3], [1, t60, -4], [-1, t60, -4]]])

def material(name, rgb):
    return {"name": name, "pbrMetallicRoughness": {"baseColorFactor": rgb + [1.0], "metallicFactor": 0.0,
                                                    "roughnessFactor": 0.8}}

meshes = []
for k, (m, name) in enumerate([(ground, "ground"), (box, "box"), (ramp, "ramp"), (wall, "wall")]):
    m["material"] = k
    meshes.append({"name": name, "primitives": [m]})
buffer = b"".join(chunks)
doc = {
    "asset": {"version": "2.0", "generator": "tests/data/stage/make_stage.py"},
    "scene": 0,
    "scenes": [{"nodes": [0, 1, 2, 3]}],
    "nodes": [
        {"name": "ground", "mesh": 0},
        {"name": "box", "mesh": 1, "translation": [2, 0, 0]},
        {"name": "ramp", "mesh": 2},
        {"name": "wall", "mesh": 3},
    ],
    "meshes": meshes,
    "materials": [material("green", [0.1, 0.6, 0.1]), material("red", [0.8, 0.05, 0.05]),
                  material("blue", [0.1, 0.2, 0.9]), material("grey", [0.5, 0.5, 0.5])],
    "accessors": accessors,
    "bufferViews": views,
    "buffers": [{"byteLength": len(buffer),
                 "uri": "data:application/octet-stream;base64," + base64.b64encode(buffer).decode()}],
}
with open(__file__.replace("make_stage.py", "stage.gltf"), "w") as f:
    json.dump(doc, f, indent=1)
    f.write("\n")
