#!/usr/bin/env python3
"""Writes the VRM animation test files of tests/vrm/test_vrma.c:

  wave.vrma        VRMC_vrm_animation 1.0 (a GLB): a humanoid whose rest
                   pose is NOT the models' (every bone's rest rotation is a
                   different odd turn, longer bones, hips at 1.0 m, under an
                   "Armature" node turned -90 degrees about X and scaled by
                   0.01, as an FBX export's), with upperChest but no
                   shoulders. One clip "wave", 1.5 s: rotation tracks for
                   hips (LINEAR), spine (STEP), upperChest, neck, head,
                   upper/lower arms, upper legs (LINEAR) and leftLowerLeg
                   (CUBICSPLINE), a hips translation track, the expressions
                   "happy" (preset) and "smirk" (custom), and a look-at
                   rotation track.
  vrma_model1.vrm  VRM 1.0 avatar (skeleton only): its own odd rest
                   rotations, shorter bones (hips at 0.9 m), shoulders and
                   toes but no upperChest, a non-humanoid node between chest
                   and neck, expressions happy and smirk, a look-at.
  vrma_model0.vrm  VRM 0.x avatar (skeleton only): no rest rotations, facing
                   -Z as 0.x models do, hips at 0.85 m, blend shapes joy and
                   smirk.
  vrma_no_humanoid.vrma  the extension without a humanoid (a hostile case).
  vrma_plain.glb   vrma_model1.vrm without its VRM extension: a plain glTF
                   whose humanoid comes from its joint names.

Every humanoid leaf has a "...Tip" child so that each bone's rotation moves
a joint. The expected joint positions in test_vrma.c come from
tests/reference/vrma_reference.mjs (three-vrm-animation) on these files.

Run from anywhere: python3 tests/data/vrm/make_vrma_files.py
The output is deterministic."""

import json
import math
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


# ---- quaternions (x, y, z, w) ------------------------------------------------

def qmul(a, b):
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
            aw * bw - ax * bx - ay * by - az * bz)


def qinv(q):
    return (-q[0], -q[1], -q[2], q[3])


def qaxis(axis, degrees):
    n = math.sqrt(sum(c * c for c in axis))
    h = math.radians(degrees) / 2
    s = math.sin(h) / n
    return (axis[0] * s, axis[1] * s, axis[2] * s, math.cos(h))


def qrot(q, v):
    p = qmul(qmul(q, (v[0], v[1], v[2], 0.0)), qinv(q))
    return (p[0], p[1], p[2])


def qeuler_yxz(pitch, yaw):
    """three.js Euler(pitch, yaw, 0, 'YXZ'): Ry(yaw) * Rx(pitch)."""
    return qmul(qaxis((0, 1, 0), yaw), qaxis((1, 0, 0), pitch))


def r6(v):
    return [round(c, 6) + 0.0 for c in v]


# ---- skeletons ---------------------------------------------------------------
# A skeleton: list of (name, parent name or None, world position, world
# rotation, humanoid bone or None). Local transforms are derived.

def odd_turn(i, scale):
    """A deterministic rest rotation, different for every bone."""
    axis = (math.sin(1.3 * i + 0.2), math.cos(0.7 * i + 1.1), math.sin(2.1 * i + 0.5))
    return qaxis(axis, scale * (25 + (i * 37) % 50))


def humanoid_layout(hips_y, arm, leg_scale, spine, upper_chest, shoulders, toes, extra_between=None):
    """T-pose positions facing +Z (left at +X): (name, parent, pos, bone)."""
    L = []
    y = hips_y
    L.append(("Hips", None, (0, y, 0), "hips"))
    L.append(("Spine", "Hips", (0, y + spine, 0.01), "spine"))
    L.append(("Chest", "Spine", (0, y + 2.1 * spine, 0), "chest"))
    top = "Chest"
    ty = y + 2.1 * spine
    if upper_chest:
        L.append(("UpperChest", "Chest", (0, y + 3.1 * spine, -0.01), "upperChest"))
        top, ty = "UpperChest", y + 3.1 * spine
    neck_parent = top
    if extra_between:
        L.append((extra_between, top, (0, ty + 0.04, 0), None))
        neck_parent = extra_between
    L.append(("Neck", neck_parent, (0, ty + 0.12, 0), "neck"))
    L.append(("Head", "Neck", (0, ty + 0.2, 0.01), "head"))
    L.append(("HeadTip", "Head", (0, ty + 0.4, 0.02), None))
    for side, sx, S in (("Left", 1, "left"), ("Right", -1, "right")):
        parent = top
        ay = ty + 0.06
        if shoulders:
            L.append((side + "Shoulder", top, (sx * 0.05, ay, 0), S + "Shoulder"))
            parent = side + "Shoulder"
        L.append((side + "UpperArm", parent, (sx * 0.16, ay, 0), S + "UpperArm"))
        L.append((side + "LowerArm", side + "UpperArm", (sx * (0.16 + arm), ay, -0.01), S + "LowerArm"))
        L.append((side + "Hand", side + "LowerArm", (sx * (0.16 + 1.9 * arm), ay, 0), S + "Hand"))
        L.append((side + "HandTip", side + "Hand", (sx * (0.16 + 2.4 * arm), ay, 0), None))
        L.append((side + "UpperLeg", "Hips", (sx * 0.09, y - 0.05, 0), S + "UpperLeg"))
        L.append((side + "LowerLeg", side + "UpperLeg", (sx * 0.09, y - 0.05 - 0.45 * leg_scale, 0.01),
                  S + "LowerLeg"))
        L.append((side + "Foot", side + "LowerLeg", (sx * 0.09, 0.08, 0), S + "Foot"))
        if toes:
            L.append((side + "Toes", side + "Foot", (sx * 0.09, 0.02, 0.12), S + "Toes"))
            L.append((side + "ToesTip", side + "Toes", (sx * 0.09, 0.02, 0.18), None))
        else:
            L.append((side + "FootTip", side + "Foot", (sx * 0.09, 0.02, 0.14), None))
    return L


def local_nodes(layout, rest_turn, root):
    """glTF nodes (dicts) for the layout under `root` = (name, translation,
    rotation, uniform scale); returns (nodes, index by name, world rotations)."""
    rname, rt, rr, rs = root
    nodes = [{"name": rname}]
    if any(rt):
        nodes[0]["translation"] = r6(rt)
    if rr != (0, 0, 0, 1):
        nodes[0]["rotation"] = r6(rr)
    if rs != 1:
        nodes[0]["scale"] = [rs, rs, rs]
    index = {rname: 0}
    world = {rname: (rr, rs, rt)}
    for i, (name, parent, pos, bone) in enumerate(layout):
        parent = parent or rname
        prot, pscale, ppos = world[parent]
        wrot = rest_turn(i)
        d = qrot(qinv(prot), (pos[0] - ppos[0], pos[1] - ppos[1], pos[2] - ppos[2]))
        t = (d[0] / pscale, d[1] / pscale, d[2] / pscale)
        r = qmul(qinv(prot), wrot)
        node = {"name": name, "translation": r6(t)}
        if abs(r[3]) < 0.999999:
            node["rotation"] = r6(r)
        index[name] = len(nodes)
        nodes.append(node)
        nodes[index[parent]].setdefault("children", []).append(index[name])
        world[name] = (wrot, pscale, pos)
    return nodes, index, world


# ---- binary buffers ------------------------------------------------------------

class Bin:
    def __init__(self):
        self.data = b""
        self.views = []
        self.accessors = []

    def floats(self, values, kind, minmax=False):
        off = len(self.data)
        self.data += struct.pack("<%df" % len(values), *values)
        self.views.append({"buffer": 0, "byteOffset": off, "byteLength": 4 * len(values)})
        n = {"SCALAR": 1, "VEC3": 3, "VEC4": 4}[kind]
        acc = {"bufferView": len(self.views) - 1, "componentType": 5126, "count": len(values) // n, "type": kind}
        if minmax:
            acc["min"] = [min(values)]
            acc["max"] = [max(values)]
        self.accessors.append(acc)
        return len(self.accessors) - 1


def glb(document, binary=b""):
    text = json.dumps(document, separators=(",", ":")).encode("utf-8")
    text += b" " * (-len(text) % 4)
    out = struct.pack("<II", len(text), 0x4E4F534A) + text
    if binary:
        binary += b"\0" * (-len(binary) % 4)
        out += struct.pack("<II", len(binary), 0x004E4942) + binary
    return struct.pack("<III", 0x46546C67, 2, 12 + len(out)) + out


# ---- the animation -------------------------------------------------------------

TIMES = [0.0, 0.5, 1.0, 1.5]

# The intended pose per bone: a turn in world axes (the normalized humanoid)
# per key, as (axis, degrees).
POSE = {
    "hips": [((0, 1, 0), 0), ((0, 1, 0), 20), ((0, 1, 0), -15), ((0, 1, 0), 5)],
    "spine": [((1, 0, 0), 0), ((1, 0, 0), 15), ((1, 0, 1), 10), ((1, 0, 0), 0)],
    "upperChest": [((0, 0, 1), 0), ((0, 0, 1), 10), ((0, 1, 0), -20), ((0, 1, 1), 8)],
    "neck": [((1, 0, 0), 0), ((1, 0, 0), -10), ((0, 1, 0), 25), ((1, 0, 0), 5)],
    "head": [((0, 1, 0), 0), ((1, 1, 0), 20), ((0, 1, 0), -30), ((0, 0, 1), 10)],
    "leftUpperArm": [((0, 0, 1), 0), ((0, 0, 1), 60), ((0, 1, 1), 40), ((0, 0, 1), -70)],
    "leftLowerArm": [((0, 1, 0), 0), ((0, 1, 0), 45), ((0, 1, 0), 90), ((1, 1, 0), 30)],
    "rightUpperArm": [((0, 0, 1), 0), ((0, 0, 1), -50), ((1, 0, 1), -30), ((0, 0, 1), 70)],
    "rightLowerArm": [((0, 1, 0), 0), ((0, 1, 0), -60), ((0, 1, 0), -20), ((0, 1, 0), -80)],
    "leftUpperLeg": [((1, 0, 0), 0), ((1, 0, 0), -30), ((1, 0, 0), 20), ((1, 0, 1), -10)],
    "rightUpperLeg": [((1, 0, 0), 0), ((1, 0, 0), 25), ((1, 0, 0), -20), ((0, 1, 0), 15)],
    "leftLowerLeg": [((1, 0, 0), 0), ((1, 0, 0), 40), ((1, 0, 0), 10), ((1, 0, 0), 60)],
}
STEP_BONES = set()  # three-vrm-animation 3.5.5 plays every rotation track as LINEAR
CUBIC_BONES = set()  # (and reads CUBICSPLINE triplets as keys): see docs/vrm.md
HIPS_WORLD = [(0.0, 1.0, 0.0), (0.05, 0.95, 0.1), (-0.04, 1.02, 0.2), (0.0, 0.9, 0.3)]
EXPRESSIONS = {"happy": [0.0, 1.0, 0.25, 0.0], "smirk": [0.5, 0.0, 0.75, 1.0]}
GAZE = [(0, 0), (10, 20), (-5, -10), (15, 30)]  # (pitch, yaw) degrees, three.js Euler YXZ


def vrma():
    layout = humanoid_layout(1.0, 0.27, 1.1, 0.13, True, False, False)
    armature = ("Armature", (0.0, 0.0, 0.0), qaxis((1, 0, 0), -90), 0.01)
    nodes, index, world = local_nodes(layout, lambda i: odd_turn(i, 1.0), armature)
    bones = {bone: name for name, _, _, bone in layout if bone}
    parent_of = {name: parent for name, parent, _, _ in layout}
    b = Bin()
    channels, samplers = [], []
    times = b.floats(TIMES, "SCALAR", True)

    def add(node, path, out, interp="LINEAR", t=times):
        samplers.append({"input": t, "output": out, "interpolation": interp})
        channels.append({"sampler": len(samplers) - 1, "target": {"node": node, "path": path}})

    for bone, keys in POSE.items():
        name = bones[bone]
        parent = parent_of[name]
        pw = world[parent][0] if parent else armature[2]
        w = world[name][0]
        values = []
        for axis, deg in keys:
            n = qaxis(axis, deg)
            q = qmul(qmul(qinv(pw), n), w)  # the local rotation that gives n
            values += list(q)
        if bone in CUBIC_BONES:
            cubic = []
            for k in range(len(TIMES)):
                q = values[4 * k:4 * k + 4]
                tangent = [0.3 * c for c in q] if k % 2 else [0.0] * 4
                cubic += tangent + q + [-c for c in tangent]
            values = cubic
        interp = "STEP" if bone in STEP_BONES else "CUBICSPLINE" if bone in CUBIC_BONES else "LINEAR"
        add(index[name], "rotation", b.floats(values, "VEC4"), interp)
    # Hips translation: world positions through the armature's inverse.
    values = []
    for p in HIPS_WORLD:
        d = qrot(qinv(armature[2]), p)
        values += [c / armature[3] for c in d]
    add(index["Hips"], "translation", b.floats(values, "VEC3"))
    ext = {"specVersion": "1.0",
           "humanoid": {"humanBones": {bone: {"node": index[name]} for bone, name in bones.items()}},
           "expressions": {"preset": {}, "custom": {}},
           "lookAt": {"node": 0, "offsetFromHeadBone": [0.0, 0.06, 0.0]}}
    scene_roots = [0]
    for name, keys in EXPRESSIONS.items():
        index[name] = len(nodes)
        nodes.append({"name": "Expression_" + name})
        scene_roots.append(index[name])
        values = []
        for k in keys:
            values += [k, 0.0, 0.0]
        add(index[name], "translation", b.floats(values, "VEC3"))
        ext["expressions"]["preset" if name == "happy" else "custom"][name] = {"node": index[name]}
    gaze = len(nodes)
    nodes.append({"name": "LookAt"})
    scene_roots.append(gaze)
    ext["lookAt"]["node"] = gaze
    values = []
    for pitch, yaw in GAZE:
        values += list(qeuler_yxz(pitch, yaw))
    add(gaze, "rotation", b.floats(values, "VEC4"))
    doc = {
        "asset": {"version": "2.0", "generator": "sinew make_vrma_files.py"},
        "extensionsUsed": ["VRMC_vrm_animation"],
        "extensions": {"VRMC_vrm_animation": ext},
        "scene": 0,
        "scenes": [{"nodes": scene_roots}],
        "nodes": nodes,
        "animations": [{"name": "wave", "channels": channels, "samplers": samplers}],
        "accessors": b.accessors,
        "bufferViews": b.views,
        "buffers": [{"byteLength": len(b.data) + (-len(b.data) % 4)}],
    }
    return doc, b.data


def vrm1():
    layout = humanoid_layout(0.9, 0.22, 0.95, 0.11, False, True, True, extra_between="NeckTwist")
    nodes, index, _ = local_nodes(layout, lambda i: odd_turn(i + 5, 0.8), ("Root", (0, 0, 0), (0, 0, 0, 1), 1))
    bones = {bone: {"node": index[name]} for name, _, _, bone in layout if bone}
    ext = {
        "specVersion": "1.0",
        "meta": {"name": "vrma test 1.0", "authors": ["sinew"], "licenseUrl": "https://vrm.dev/licenses/1.0/"},
        "humanoid": {"humanBones": bones},
        "expressions": {"preset": {"happy": {}}, "custom": {"smirk": {}}},
        "lookAt": {"type": "expression", "offsetFromHeadBone": [0.0, 0.06, 0.0]},
    }
    return {
        "asset": {"version": "2.0", "generator": "sinew make_vrma_files.py"},
        "extensionsUsed": ["VRMC_vrm"],
        "extensions": {"VRMC_vrm": ext},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": nodes,
    }


def vrm0():
    layout = humanoid_layout(0.85, 0.24, 0.9, 0.12, False, True, False)
    # 0.x: face -Z (every position turned 180 degrees about Y), no rest rotations.
    layout = [(n, p, (-pos[0], pos[1], -pos[2]), b) for n, p, pos, b in layout]
    nodes, index, _ = local_nodes(layout, lambda i: (0, 0, 0, 1), ("Root", (0, 0, 0), (0, 0, 0, 1), 1))
    bones = [{"bone": bone, "node": index[name]} for name, _, _, bone in layout if bone]
    ext = {
        "exporterVersion": "sinew-test", "specVersion": "0.0",
        "meta": {"title": "vrma test 0.x", "author": "sinew"},
        "humanoid": {"humanBones": bones},
        "blendShapeMaster": {"blendShapeGroups": [
            {"name": "Joy", "presetName": "joy", "binds": []},
            {"name": "smirk", "presetName": "unknown", "binds": []}]},
        "firstPerson": {"firstPersonBone": index["Head"], "firstPersonBoneOffset": {"x": 0, "y": 0.06, "z": 0},
                        "lookAtTypeName": "BlendShape"},
    }
    return {
        "asset": {"version": "2.0", "generator": "sinew make_vrma_files.py"},
        "extensionsUsed": ["VRM"],
        "extensions": {"VRM": ext},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": nodes,
    }


def no_humanoid():
    doc, data = vrma()
    del doc["extensions"]["VRMC_vrm_animation"]["humanoid"]
    return doc, data


def main():
    doc, data = vrma()
    with open(os.path.join(HERE, "wave.vrma"), "wb") as f:
        f.write(glb(doc, data))
    doc, data = no_humanoid()
    with open(os.path.join(HERE, "vrma_no_humanoid.vrma"), "wb") as f:
        f.write(glb(doc, data))
    with open(os.path.join(HERE, "vrma_model1.vrm"), "wb") as f:
        f.write(glb(vrm1()))
    with open(os.path.join(HERE, "vrma_model0.vrm"), "wb") as f:
        f.write(glb(vrm0()))
    plain = vrm1()
    del plain["extensions"], plain["extensionsUsed"]
    with open(os.path.join(HERE, "vrma_plain.glb"), "wb") as f:
        f.write(glb(plain))


if __name__ == "__main__":
    main()
