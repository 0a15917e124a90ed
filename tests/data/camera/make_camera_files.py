#!/usr/bin/env python3
"""Writes the avatar of tests/tools/test_camera.sh and tests/render/test_camera.c:

  block_avatar.vrm   a VRM 1.0 GLB: a humanoid of boxes (legs, torso, arms,
                     a 0.2 x 0.25 x 0.2 head), each box skinned wholly to
                     its bone, facing +Z, 1.85 tall, feet at y = 0. The head
                     node is named "Kopf" so that only the VRM humanoid
                     says it is the head (--frame face must read it). One
                     clip, "travel": the hips go 4 units along +X in 2 s
                     (root motion), the arms swing.

Run from anywhere: python3 make_camera_files.py (writes next to itself)."""
import json
import math
import os
import struct

# name, parent, world position of the joint, humanoid bone, box (min, max) in world space or None
BONES = [
    ("Hips", None, (0, 0.95, 0), "hips", ((-0.16, 0.85, -0.1), (0.16, 1.05, 0.1))),
    ("Spine", "Hips", (0, 1.1, 0), "spine", ((-0.15, 1.05, -0.09), (0.15, 1.3, 0.09))),
    ("Chest", "Spine", (0, 1.3, 0), "chest", ((-0.18, 1.3, -0.1), (0.18, 1.5, 0.1))),
    ("Neck", "Chest", (0, 1.5, 0), "neck", ((-0.04, 1.5, -0.04), (0.04, 1.6, 0.04))),
    ("Kopf", "Neck", (0, 1.6, 0), "head", ((-0.1, 1.6, -0.1), (0.1, 1.85, 0.1))),
    ("L_Arm", "Chest", (0.2, 1.45, 0), "leftUpperArm", ((0.18, 1.4, -0.05), (0.45, 1.5, 0.05))),
    ("L_Fore", "L_Arm", (0.45, 1.45, 0), "leftLowerArm", ((0.45, 1.41, -0.04), (0.7, 1.49, 0.04))),
    ("L_Hand", "L_Fore", (0.7, 1.45, 0), "leftHand", ((0.7, 1.41, -0.03), (0.8, 1.49, 0.03))),
    ("R_Arm", "Chest", (-0.2, 1.45, 0), "rightUpperArm", ((-0.45, 1.4, -0.05), (-0.18, 1.5, 0.05))),
    ("R_Fore", "R_Arm", (-0.45, 1.45, 0), "rightLowerArm", ((-0.7, 1.41, -0.04), (-0.45, 1.49, 0.04))),
    ("R_Hand", "R_Fore", (-0.7, 1.45, 0), "rightHand", ((-0.8, 1.41, -0.03), (-0.7, 1.49, 0.03))),
    ("L_Thigh", "Hips", (0.1, 0.9, 0), "leftUpperLeg", ((0.03, 0.5, -0.07), (0.17, 0.9, 0.07))),
    ("L_Shin", "L_Thigh", (0.1, 0.5, 0), "leftLowerLeg", ((0.04, 0.08, -0.06), (0.16, 0.5, 0.06))),
    ("L_Foot", "L_Shin", (0.1, 0.08, 0), "leftFoot", ((0.04, 0.0, -0.05), (0.16, 0.08, 0.15))),
    ("R_Thigh", "Hips", (-0.1, 0.9, 0), "rightUpperLeg", ((-0.17, 0.5, -0.07), (-0.03, 0.9, 0.07))),
    ("R_Shin", "R_Thigh", (-0.1, 0.5, 0), "rightLowerLeg", ((-0.16, 0.08, -0.06), (-0.04, 0.5, 0.06))),
    ("R_Foot", "R_Shin", (-0.1, 0.08, 0), "rightFoot", ((-0.16, 0.0, -0.05), (-0.04, 0.08, 0.15))),
]


def box(lo, hi, joint):
    """24 vertices (4 per face, flat normals) and 36 indices."""
    pos, nor, idx = [], [], []
    for axis in range(3):
        for side in (0, 1):
            n = [0.0, 0.0, 0.0]
            n[axis] = 1.0 if side else -1.0
            u, v = (axis + 1) % 3, (axis + 2) % 3
            base = len(pos)
            for a, b in ((0, 0), (1, 0), (1, 1), (0, 1)):
                p = [0.0, 0.0, 0.0]
                p[axis] = hi[axis] if side else lo[axis]
                p[u] = hi[u] if a else lo[u]
                p[v] = hi[v] if b else lo[v]
                pos.append(p)
                nor.append(n)
            quad = [0, 1, 2, 0, 2, 3] if side else [0, 2, 1, 0, 3, 2]
            idx += [base + q for q in quad]
    return pos, nor, idx, [joint] * 24


def main():
    names = [b[0] for b in BONES]
    nodes, positions, normals, indices, joints = [], [], [], [], []
    for i, (name, parent, p, _, bx) in enumerate(BONES):
        pp = BONES[names.index(parent)][2] if parent else (0, 0, 0)
        node = {"name": name, "translation": [p[k] - pp[k] for k in range(3)]}
        children = [j for j, b in enumerate(BONES) if b[1] == name]
        if children:
            node["children"] = children
        nodes.append(node)
        pos, nor, idx, jo = box(bx[0], bx[1], i)
        indices += [len(positions) + k for k in idx]
        positions += pos
        normals += nor
        joints += jo
    body = len(nodes)
    nodes.append({"name": "Body", "mesh": 0, "skin": 0})
    count = len(positions)
    binary = bytearray()
    views, accessors = [], []

    def add(data, fmt, kind, comp, n, target=None, minmax=None):
        while len(binary) % 4:
            binary.append(0)
        view = {"buffer": 0, "byteOffset": len(binary), "byteLength": len(data)}
        if target:
            view["target"] = target
        binary.extend(data)
        views.append(view)
        acc = {"bufferView": len(views) - 1, "componentType": comp, "count": n, "type": kind}
        if minmax:
            acc["min"], acc["max"] = minmax
        accessors.append(acc)
        return len(accessors) - 1

    flat = [c for p in positions for c in p]
    lo = [min(p[k] for p in positions) for k in range(3)]
    hi = [max(p[k] for p in positions) for k in range(3)]
    a_pos = add(struct.pack("<%df" % len(flat), *flat), None, "VEC3", 5126, count, 34962, (lo, hi))
    flat = [c for n in normals for c in n]
    a_nor = add(struct.pack("<%df" % len(flat), *flat), None, "VEC3", 5126, count, 34962)
    a_jnt = add(b"".join(struct.pack("<4H", j, 0, 0, 0) for j in joints), None, "VEC4", 5123, count, 34962)
    a_wgt = add(b"".join(struct.pack("<4f", 1, 0, 0, 0) for _ in joints), None, "VEC4", 5126, count, 34962)
    a_idx = add(struct.pack("<%dI" % len(indices), *indices), None, "SCALAR", 5125, len(indices), 34963)
    ibm = []
    for b in BONES:
        p = b[2]
        ibm += [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -p[0], -p[1], -p[2], 1]
    a_ibm = add(struct.pack("<%df" % len(ibm), *ibm), None, "MAT4", 5126, len(BONES))
    # "travel": the hips from x 0 to 4 in 2 s; the upper arms swing.
    times = [0.0, 0.5, 1.0, 1.5, 2.0]
    a_t = add(struct.pack("<5f", *times), None, "SCALAR", 5126, 5, None, ([0.0], [2.0]))
    hips = [c for t in times for c in (2.0 * t, 0.95, 0.0)]
    a_hips = add(struct.pack("<15f", *hips), None, "VEC3", 5126, 5)
    swing = []
    for t in times:
        angle = math.radians(30.0) * math.sin(math.pi * t)
        swing += [math.sin(angle / 2), 0.0, 0.0, math.cos(angle / 2)]
    a_swing = add(struct.pack("<20f", *swing), None, "VEC4", 5126, 5)
    humanoid = {b[3]: {"node": i} for i, b in enumerate(BONES)}
    doc = {
        "asset": {"version": "2.0", "generator": "sinew make_camera_files.py"},
        "extensionsUsed": ["VRMC_vrm"],
        "scene": 0,
        "scenes": [{"nodes": [0, body]}],
        "nodes": nodes,
        "meshes": [{"name": "Body", "primitives": [{"attributes": {"POSITION": a_pos, "NORMAL": a_nor,
                                                                   "JOINTS_0": a_jnt, "WEIGHTS_0": a_wgt},
                                                    "indices": a_idx, "material": 0}]}],
        "materials": [{"name": "Plain", "pbrMetallicRoughness": {"baseColorFactor": [0.8, 0.7, 0.6, 1.0],
                                                                 "metallicFactor": 0.0}}],
        "skins": [{"joints": list(range(len(BONES))), "inverseBindMatrices": a_ibm, "skeleton": 0}],
        "animations": [{"name": "travel",
                        "samplers": [{"input": a_t, "output": a_hips}, {"input": a_t, "output": a_swing}],
                        "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}},
                                     {"sampler": 1, "target": {"node": names.index("L_Arm"), "path": "rotation"}}]}],
        "accessors": accessors,
        "bufferViews": views,
        "buffers": [{"byteLength": len(binary)}],
        "extensions": {"VRMC_vrm": {
            "specVersion": "1.0",
            "meta": {"name": "block avatar", "version": "1", "authors": ["sinew", "tests"],
                     "licenseUrl": "https://vrm.dev/licenses/1.0/", "avatarPermission": "everyone",
                     "commercialUsage": "personalProfit", "creditNotation": "unnecessary",
                     "allowRedistribution": True, "modification": "allowModification",
                     "allowExcessivelyViolentUsage": False},
            "humanoid": {"humanBones": humanoid}}},
    }
    js = json.dumps(doc, separators=(",", ":")).encode()
    js += b" " * (-len(js) % 4)
    while len(binary) % 4:
        binary.append(0)
    out = struct.pack("<III", 0x46546C67, 2, 12 + 8 + len(js) + 8 + len(binary))
    out += struct.pack("<I4s", len(js), b"JSON") + js + struct.pack("<I4s", len(binary), b"BIN\0") + bytes(binary)
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "block_avatar.vrm"), "wb") as f:
        f.write(out)


main()
