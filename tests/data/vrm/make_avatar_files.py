#!/usr/bin/env python3
"""Writes the avatar test files of tests/vrm/test_vrm_avatar.c,
tests/vrm/test_vrm_look_at.c and tests/tools/test_avatar.sh:

  avatar_vrm1.gltf   VRM 1.0 (buffers and the texture as data: URIs)
  avatar_vrm0.vrm    VRM 0.x (a GLB), the same avatar as 0.x writes it:
                     facing -Z (every node and vertex turned 180 degrees
                     about Y; sinew turns it back at load), bind weights
                     0..100, _MainTex_ST and _Color material values,
                     firstPersonBoneOffset as Unity's vector (z negated),
                     BlendShape look-at.
  look_vrm1_bone.gltf, look_vrm1_expression.gltf, look_vrm0_bone.vrm,
  look_vrm0_expression.vrm
                     the skeleton, humanoid, look-at and look expressions
                     only (no mesh, no texture: three-vrm loads them in
                     node without a DOM, tests/reference/vrm_look_at.mjs).

The skeleton has rest rotations on the neck, head and eyes so that the
look-at's rest frames matter:

    Root
      Hips (0, 0.9, 0)
        Spine (0, 0.1, 0)
          Chest (0, 0.15, 0)
            Neck (0, 0.2, 0), 10 deg about X
              Head (0, 0.1, 0), 15 deg about Y
                LeftEye (0.03, 0.05, 0.06), 20 deg about Z
                RightEye (-0.03, 0.05, 0.06), -20 deg about Z
            Left/RightUpperArm, LowerArm, Hand
        Left/RightUpperLeg, LowerLeg, Foot
      Face   mesh 0: a 1 x 1 quad facing +Z at z = 0.1, y 1..2, UV u 0..0.5
             over a texture whose left half is red and right half blue;
             morph targets "mouth" (+0.05 z) and "blink" (-0.01 y)
      Body   mesh 1: a 0.2 quad left of the face (x -0.8..-0.6, y 1..1.2),
             material BodyMat, skinned to Hips (its second vertex half to
             Head); first person auto
      Ears   mesh 5: a 0.2 quad left of the face, top, skinned to Head; auto
      Hair   mesh 2: thirdPersonOnly, right of the face, top (y 1.8..2)
      Arms   mesh 3: firstPersonOnly, right of the face, bottom (y 1..1.2)
      Face is first person auto too (rigid, not below the head: both views)
    Head
      Hat    mesh 4: a small rigid quad on the head, first person auto (three-vrm
             hides a rigid auto mesh below the head in first person)

Expressions (1.0 names; 0.x presets joy, angry, blink, a, lookup, ...):
  happy  isBinary, texture transform on FaceMat: offset (0.5, 0) (the
         quad then shows the blue half), morph mouth 1, overrideMouth block
  angry  colour binds on BodyMat: color -> (1, 0, 0, 1), emissionColor ->
         (0, 1, 0), overrideBlink blend
  blink  morph blink 1;  aa  morph mouth 0.5
  lookUp morph blink 0.25; lookDown, lookLeft, lookRight: no binds
  wink   (custom) morph blink 0.3, overrideBlink block

  avatar_erase.gltf  VRM 1.0, the skeleton and skinned first-person `auto`
                     meshes that three-vrm's headless copy erases in part
                     (tests/reference/vrm_first_person.mjs; see erase_avatar).

Run from anywhere: python3 tests/data/vrm/make_avatar_files.py
The output is deterministic."""

import base64
import json
import math
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def quat(axis, degrees):
    h = math.radians(degrees) / 2.0
    s = math.sin(h)
    return [axis[0] * s, axis[1] * s, axis[2] * s, math.cos(h)]


# name, parent, translation, rotation (None: identity), humanoid bone
SKELETON = [
    ("Root", -1, [0, 0, 0], None, None),
    ("Hips", 0, [0, 0.9, 0], None, "hips"),
    ("Spine", 1, [0, 0.1, 0], None, "spine"),
    ("Chest", 2, [0, 0.15, 0], None, "chest"),
    ("Neck", 3, [0, 0.2, 0], quat([1, 0, 0], 10), "neck"),
    ("Head", 4, [0, 0.1, 0], quat([0, 1, 0], 15), "head"),
    ("LeftEye", 5, [0.03, 0.05, 0.06], quat([0, 0, 1], 20), "leftEye"),
    ("RightEye", 5, [-0.03, 0.05, 0.06], quat([0, 0, 1], -20), "rightEye"),
    ("LeftUpperArm", 3, [0.2, 0.1, 0], None, "leftUpperArm"),
    ("LeftLowerArm", 8, [0.25, 0, 0], None, "leftLowerArm"),
    ("LeftHand", 9, [0.25, 0, 0], None, "leftHand"),
    ("RightUpperArm", 3, [-0.2, 0.1, 0], None, "rightUpperArm"),
    ("RightLowerArm", 11, [-0.25, 0, 0], None, "rightLowerArm"),
    ("RightHand", 12, [-0.25, 0, 0], None, "rightHand"),
    ("LeftUpperLeg", 1, [0.1, -0.05, 0], None, "leftUpperLeg"),
    ("LeftLowerLeg", 14, [0, -0.4, 0], None, "leftLowerLeg"),
    ("LeftFoot", 15, [0, -0.4, 0], None, "leftFoot"),
    ("RightUpperLeg", 1, [-0.1, -0.05, 0], None, "rightUpperLeg"),
    ("RightLowerLeg", 17, [0, -0.4, 0], None, "rightLowerLeg"),
    ("RightFoot", 18, [0, -0.4, 0], None, "rightFoot"),
]
HEAD = 5
# mesh nodes (children of Root), after the skeleton
FACE, BODY, HAIR, ARMS, HAT, EARS = 20, 21, 22, 23, 24, 25
# name, mesh, parent (Hat rides on the head)
MESH_NODES = [("Face", 0, 0), ("Body", 1, 0), ("Hair", 2, 0), ("Arms", 3, 0), ("Hat", 4, HEAD), ("Ears", 5, 0)]

LOOK_AT_1 = {
    "offsetFromHeadBone": [0.0, 0.05, 0.08],
    "rangeMapHorizontalInner": {"inputMaxValue": 30.0, "outputScale": 5.0},
    "rangeMapHorizontalOuter": {"inputMaxValue": 60.0, "outputScale": 12.0},
    "rangeMapVerticalDown": {"inputMaxValue": 20.0, "outputScale": 8.0},
    "rangeMapVerticalUp": {"inputMaxValue": 40.0, "outputScale": 6.0},
}
# expression type: weights, so output scales of at most 1
LOOK_AT_1_EXPRESSION = {
    "offsetFromHeadBone": [0.0, 0.05, 0.08],
    "rangeMapHorizontalInner": {"inputMaxValue": 30.0, "outputScale": 0.5},
    "rangeMapHorizontalOuter": {"inputMaxValue": 60.0, "outputScale": 0.9},
    "rangeMapVerticalDown": {"inputMaxValue": 20.0, "outputScale": 0.8},
    "rangeMapVerticalUp": {"inputMaxValue": 40.0, "outputScale": 0.6},
}


def turn_vec(v):
    """VRM 0.x's -Z facing: 180 degrees about Y."""
    return [-v[0], v[1], -v[2]]


def turn_quat(q):
    """Y q Y^-1 for Y = 180 degrees about Y."""
    return [-q[0], q[1], -q[2], q[3]]


def quat_matrix(q):
    x, y, z, w = q
    return [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]


def rest_world(node, vrm0):
    """(3x3 rotation, translation) of a skeleton node at rest, as the file
    writes it (a 0.x file turned)."""
    r, t = [[1, 0, 0], [0, 1, 0], [0, 0, 1]], [0.0, 0.0, 0.0]
    chain = []
    while node >= 0:
        chain.append(node)
        node = SKELETON[node][1]
    for n in reversed(chain):
        _, _, lt, lq, _ = SKELETON[n]
        lt = turn_vec(lt) if vrm0 else list(lt)
        lq = (turn_quat(lq) if vrm0 else lq) if lq else [0, 0, 0, 1]
        lr = quat_matrix(lq)
        t = [t[i] + sum(r[i][k] * lt[k] for k in range(3)) for i in range(3)]
        r = [[sum(r[i][k] * lr[k][j] for k in range(3)) for j in range(3)] for i in range(3)]
    return r, t


def inverse_rigid(world):
    """The inverse of a rotation and translation, as a column-major 4x4."""
    r, t = world
    rt = [[r[j][i] for j in range(3)] for i in range(3)]
    it = [-sum(rt[i][k] * t[k] for k in range(3)) for i in range(3)]
    return [rt[0][0], rt[1][0], rt[2][0], 0.0, rt[0][1], rt[1][1], rt[2][1], 0.0,
            rt[0][2], rt[1][2], rt[2][2], 0.0, it[0], it[1], it[2], 1.0]


def nodes_json(vrm0, with_meshes):
    out = []
    count = len(SKELETON) + (len(MESH_NODES) if with_meshes else 0)
    children = [[] for _ in range(count)]
    for i, (_, parent, _, _, _) in enumerate(SKELETON):
        if parent >= 0:
            children[parent].append(i)
    if with_meshes:
        for k, (_, _, parent) in enumerate(MESH_NODES):
            children[parent].append(len(SKELETON) + k)
    for i, (name, _, t, r, _) in enumerate(SKELETON):
        node = {"name": name}
        if any(t):
            node["translation"] = turn_vec(t) if vrm0 else list(t)
        if r:
            node["rotation"] = turn_quat(r) if vrm0 else list(r)
        if children[i]:
            node["children"] = children[i]
        out.append(node)
    if with_meshes:
        for name, mesh, _ in MESH_NODES:
            node = {"name": name, "mesh": mesh}
            if name in ("Body", "Ears"):
                node["skin"] = 0
            out.append(node)
    return out


def png_rgba(width, height, pixels):
    """pixels: rows top to bottom of (r, g, b, a)."""
    raw = b"".join(b"\x00" + bytes(c for px in row for c in px) for row in pixels)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


RED, BLUE = (255, 0, 0, 255), (0, 0, 255, 255)
TEXTURE = png_rgba(4, 2, [[RED, RED, BLUE, BLUE]] * 2)


class Buffer:
    def __init__(self):
        self.data = bytearray()
        self.views = []
        self.accessors = []

    def add(self, floats, kind, count, target=None, minmax=False, component=5126):
        fmt = "<%d%s" % (len(floats), "f" if component == 5126 else "H")
        blob = struct.pack(fmt, *floats)
        while len(self.data) % 4:
            self.data.append(0)
        view = {"buffer": 0, "byteOffset": len(self.data), "byteLength": len(blob)}
        if target:
            view["target"] = target
        self.data += blob
        self.views.append(view)
        acc = {"bufferView": len(self.views) - 1, "componentType": component, "count": count, "type": kind}
        if minmax:
            n = 3
            acc["min"] = [min(floats[i::n]) for i in range(n)]
            acc["max"] = [max(floats[i::n]) for i in range(n)]
        self.accessors.append(acc)
        return len(self.accessors) - 1

    def add_bytes(self, blob):
        while len(self.data) % 4:
            self.data.append(0)
        self.views.append({"buffer": 0, "byteOffset": len(self.data), "byteLength": len(blob)})
        self.data += blob
        return len(self.views) - 1


def quad(buf, x0, x1, y0, y1, z, vrm0, uv=None, morphs=()):
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    pos = []
    for x, y in corners:
        p = [x, y, z]
        pos += turn_vec(p) if vrm0 else p
    normal = [0.0, 0.0, -1.0] if vrm0 else [0.0, 0.0, 1.0]
    prim = {"attributes": {"POSITION": buf.add(pos, "VEC3", 4, 34962, True),
                           "NORMAL": buf.add(normal * 4, "VEC3", 4, 34962)},
            "indices": buf.add([0, 1, 2, 0, 2, 3, 0, 0], "SCALAR", 6, 34963, component=5123)}
    if uv:
        u0, u1 = uv
        prim["attributes"]["TEXCOORD_0"] = buf.add([u0, 1.0, u1, 1.0, u1, 0.0, u0, 0.0], "VEC2", 4, 34962)
    if morphs:
        prim["targets"] = []
        for delta in morphs:
            d = turn_vec(delta) if vrm0 else list(delta)
            prim["targets"].append({"POSITION": buf.add(d * 4, "VEC3", 4, 34962, True)})
    return prim


def geometry(vrm0):
    buf = Buffer()
    meshes = [
        {"name": "Face", "primitives": [dict(quad(buf, -0.5, 0.5, 1.0, 2.0, 0.1, vrm0, uv=(0.0, 0.5),
                                                 morphs=([0, 0, 0.05], [0, -0.01, 0])), material=0)],
         "extras": {"targetNames": ["mouth", "blink"]}},
        {"name": "Body", "primitives": [dict(quad(buf, -0.8, -0.6, 1.0, 1.2, 0.1, vrm0), material=1)]},
        {"name": "Hair", "primitives": [dict(quad(buf, 0.6, 0.8, 1.8, 2.0, 0.1, vrm0), material=2)]},
        {"name": "Arms", "primitives": [dict(quad(buf, 0.6, 0.8, 1.0, 1.2, 0.1, vrm0), material=2)]},
        {"name": "Hat", "primitives": [dict(quad(buf, -0.1, 0.1, 0.15, 0.3, 0.0, False), material=2)]},
        {"name": "Ears", "primitives": [dict(quad(buf, -0.8, -0.6, 1.8, 2.0, 0.1, vrm0), material=2)]},
    ]
    # Body is skinned to Hips, its second vertex half to Head (three-vrm's
    # first-person copy of this auto mesh drops the one triangle using it);
    # Ears is skinned to Head (the copy drops every triangle); at rest every
    # vertex is where the file puts it
    body = meshes[1]["primitives"][0]
    body["attributes"]["JOINTS_0"] = buf.add([0, 0, 0, 0, 0, 1, 0, 0] + [0, 0, 0, 0] * 2, "VEC4", 4, 34962,
                                             component=5123)
    body["attributes"]["WEIGHTS_0"] = buf.add([1.0, 0.0, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0] + [1.0, 0.0, 0.0, 0.0] * 2,
                                              "VEC4", 4, 34962)
    ears = meshes[5]["primitives"][0]
    ears["attributes"]["JOINTS_0"] = buf.add([1, 0, 0, 0] * 4, "VEC4", 4, 34962, component=5123)
    ears["attributes"]["WEIGHTS_0"] = buf.add([1.0, 0.0, 0.0, 0.0] * 4, "VEC4", 4, 34962)
    inverse_bind = inverse_rigid(rest_world(1, vrm0)) + inverse_rigid(rest_world(HEAD, vrm0))
    skins = [{"joints": [1, HEAD], "inverseBindMatrices": buf.add(inverse_bind, "MAT4", 2)}]
    materials = [
        {"name": "FaceMat", "pbrMetallicRoughness": {"baseColorTexture": {"index": 0}, "metallicFactor": 0.0},
         "extensions": {"KHR_materials_unlit": {}}},
        {"name": "BodyMat", "pbrMetallicRoughness": {"baseColorFactor": [0.2, 0.4, 0.6, 1.0], "metallicFactor": 0.0},
         "emissiveFactor": [0.0, 0.0, 0.0]},
        {"name": "PlainMat", "pbrMetallicRoughness": {"baseColorFactor": [0.5, 0.5, 0.5, 1.0], "metallicFactor": 0.0}},
    ]
    doc = {"meshes": meshes, "materials": materials, "skins": skins,
           "samplers": [{"magFilter": 9728, "minFilter": 9728, "wrapS": 33071, "wrapT": 33071}],
           "textures": [{"source": 0, "sampler": 0}]}
    if vrm0:
        doc["images"] = [{"bufferView": buf.add_bytes(TEXTURE), "mimeType": "image/png"}]
    else:
        doc["images"] = [{"uri": "data:image/png;base64," + base64.b64encode(TEXTURE).decode("ascii")}]
    return doc, buf


def humanoid1():
    return {"humanBones": {bone: {"node": i} for i, (_, _, _, _, bone) in enumerate(SKELETON) if bone}}


def expressions1(with_meshes):
    preset = {
        "lookUp": {}, "lookDown": {}, "lookLeft": {}, "lookRight": {},
    }
    custom = {}
    if with_meshes:
        preset.update({
            "happy": {"isBinary": True, "overrideMouth": "block",
                      "morphTargetBinds": [{"node": FACE, "index": 0, "weight": 1.0}],
                      "textureTransformBinds": [{"material": 0, "scale": [1.0, 1.0], "offset": [0.5, 0.0]}]},
            "angry": {"overrideBlink": "blend",
                      "materialColorBinds": [{"material": 1, "type": "color", "targetValue": [1.0, 0.0, 0.0, 1.0]},
                                             {"material": 1, "type": "emissionColor",
                                              "targetValue": [0.0, 1.0, 0.0, 1.0]}]},
            "blink": {"morphTargetBinds": [{"node": FACE, "index": 1, "weight": 1.0}]},
            "aa": {"morphTargetBinds": [{"node": FACE, "index": 0, "weight": 0.5}]},
        })
        preset["lookUp"] = {"morphTargetBinds": [{"node": FACE, "index": 1, "weight": 0.25}]}
        custom["wink"] = {"overrideBlink": "block", "morphTargetBinds": [{"node": FACE, "index": 1, "weight": 0.3}]}
    return {"preset": preset, "custom": custom}


def vrm1(look_type, with_meshes):
    look = dict(LOOK_AT_1 if look_type == "bone" else LOOK_AT_1_EXPRESSION, type=look_type)
    ext = {
        "specVersion": "1.0",
        "meta": {"name": "avatar test", "version": "1", "authors": ["sinew", "tests"],
                 "licenseUrl": "https://vrm.dev/licenses/1.0/", "avatarPermission": "everyone",
                 "commercialUsage": "personalProfit", "creditNotation": "unnecessary",
                 "allowRedistribution": True, "modification": "allowModification",
                 "allowExcessivelyViolentUsage": False},
        "humanoid": humanoid1(),
        "expressions": expressions1(with_meshes),
        "lookAt": look,
    }
    if with_meshes:
        ext["firstPerson"] = {"meshAnnotations": [
            {"node": FACE, "type": "auto"}, {"node": BODY, "type": "auto"}, {"node": HAT, "type": "auto"},
            {"node": EARS, "type": "auto"},
            {"node": HAIR, "type": "thirdPersonOnly"}, {"node": ARMS, "type": "firstPersonOnly"}]}
    doc = {
        "asset": {"version": "2.0", "generator": "sinew make_avatar_files.py"},
        "extensionsUsed": ["VRMC_vrm"] + (["KHR_materials_unlit"] if with_meshes else []),
        "extensions": {"VRMC_vrm": ext},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": nodes_json(False, with_meshes),
    }
    if with_meshes:
        geo, buf = geometry(False)
        doc.update(geo)
        doc["buffers"] = [{"byteLength": len(buf.data),
                           "uri": "data:application/octet-stream;base64," + base64.b64encode(bytes(buf.data)).decode()}]
        doc["bufferViews"] = buf.views
        doc["accessors"] = buf.accessors
    return doc


# avatar_erase.gltf: one skin (joints Hips, Neck, Head, LeftEye; Head and
# LeftEye are three-vrm's erase bones), every mesh first person auto:
#   Cape    (node 20, child of Root) a 4 x 2 grid of quads (16 triangles),
#           one primitive; vertex rows y 1.0 (Hips), 1.4 (Neck, with column
#           1 at 0.99 Neck + 0.01 Head, column 3 half LeftEye, column 4
#           weight 0 on Head), 1.8 (columns 0-1 Head, the rest Neck)
#   Cloak   (node 21, child of Root) two primitives: a quad on Hips, and a
#           triangle strip of 6 vertices (4 triangles) whose last vertex is
#           on Head
#   Helmet  (node 22, child of Head) two primitives on Hips only: three.js
#           makes a group of them, hidden whole in first person below the head
#   Visor   (node 23, child of Head) one primitive on Hips only: a skinned
#           mesh, never hidden by its place (its copy erases nothing)
ERASE_JOINTS = [1, 4, HEAD, 6]  # skin joint index -> node


def erase_avatar():
    buf = Buffer()

    def primitive(positions, influences, indices=None, mode=None):
        """influences: per vertex a list of (skin joint, weight), at most 4."""
        joints, weights = [], []
        for inf in influences:
            inf = list(inf) + [(0, 0.0)] * (4 - len(inf))
            joints += [j for j, _ in inf]
            weights += [w for _, w in inf]
        n = len(positions) // 3
        prim = {"attributes": {"POSITION": buf.add(positions, "VEC3", n, 34962, True),
                               "NORMAL": buf.add([0.0, 0.0, 1.0] * n, "VEC3", n, 34962),
                               "JOINTS_0": buf.add(joints, "VEC4", n, 34962, component=5123),
                               "WEIGHTS_0": buf.add(weights, "VEC4", n, 34962)},
                "material": 0}
        if indices is not None:
            padded = indices + [0] * (len(indices) % 2)
            prim["indices"] = buf.add(padded, "SCALAR", len(indices), 34963, component=5123)
        if mode is not None:
            prim["mode"] = mode
        return prim

    def quad(x0, x1, y0, y1, z, influences):
        return primitive([x0, y0, z, x1, y0, z, x1, y1, z, x0, y1, z], influences, [0, 1, 2, 0, 2, 3])

    hips, neck, head, eye = 0, 1, 2, 3
    rows = [
        [[(hips, 1.0)]] * 5,
        [[(neck, 1.0)], [(neck, 0.99), (head, 0.01)], [(neck, 1.0)], [(neck, 0.5), (eye, 0.5)],
         [(neck, 1.0), (head, 0.0)]],
        [[(head, 1.0)], [(head, 1.0)], [(neck, 1.0)], [(neck, 1.0)], [(neck, 1.0)]],
    ]
    positions, influences, indices = [], [], []
    for r, row in enumerate(rows):
        for c, inf in enumerate(row):
            positions += [-0.4 + 0.2 * c, 1.0 + 0.4 * r, 0.2]
            influences.append(inf)
    for r in range(2):
        for c in range(4):
            a, b = r * 5 + c, r * 5 + c + 1
            indices += [a, b, b + 5, a, b + 5, a + 5]
    cape = primitive(positions, influences, indices)
    meshes = [
        {"name": "Cape", "primitives": [cape]},
        {"name": "Cloak", "primitives": [
            quad(0.5, 0.7, 0.6, 0.8, 0.2, [[(hips, 1.0)]] * 4),
            primitive([v for i in range(6) for v in (0.5 + 0.1 * (i // 2), 1.0 + 0.2 * (i % 2), 0.2)],
                      [[(hips, 1.0)]] * 5 + [[(head, 1.0)]], mode=5)]},
        {"name": "Helmet", "primitives": [quad(-0.1, 0.1, 0.1, 0.2, 0.1, [[(hips, 1.0)]] * 4),
                                          quad(-0.1, 0.1, 0.2, 0.3, 0.1, [[(hips, 1.0)]] * 4)]},
        {"name": "Visor", "primitives": [quad(-0.1, 0.1, 0.0, 0.1, 0.1, [[(hips, 1.0)]] * 4)]},
    ]
    nodes = []
    children = [[] for _ in SKELETON]
    for i, (_, parent, _, _, _) in enumerate(SKELETON):
        if parent >= 0:
            children[parent].append(i)
    mesh_parents = [0, 0, HEAD, HEAD]
    for k, parent in enumerate(mesh_parents):
        children[parent].append(len(SKELETON) + k)
    for i, (name, _, t, r, _) in enumerate(SKELETON):
        node = {"name": name}
        if any(t):
            node["translation"] = list(t)
        if r:
            node["rotation"] = list(r)
        if children[i]:
            node["children"] = children[i]
        nodes.append(node)
    for k, mesh in enumerate(meshes):
        nodes.append({"name": mesh["name"], "mesh": k, "skin": 0})
    inverse_bind = []
    for j in ERASE_JOINTS:
        inverse_bind += inverse_rigid(rest_world(j, False))
    skins = [{"joints": ERASE_JOINTS, "inverseBindMatrices": buf.add(inverse_bind, "MAT4", len(ERASE_JOINTS))}]
    first = len(SKELETON)
    ext = {
        "specVersion": "1.0",
        "meta": {"name": "first-person erase test", "version": "1", "authors": ["sinew", "tests"],
                 "licenseUrl": "https://vrm.dev/licenses/1.0/", "avatarPermission": "everyone",
                 "commercialUsage": "personalProfit", "creditNotation": "unnecessary",
                 "allowRedistribution": True, "modification": "allowModification",
                 "allowExcessivelyViolentUsage": False},
        "humanoid": humanoid1(),
        "firstPerson": {"meshAnnotations": [{"node": first + k, "type": "auto"} for k in range(len(meshes))]},
    }
    return {
        "asset": {"version": "2.0", "generator": "sinew make_avatar_files.py"},
        "extensionsUsed": ["VRMC_vrm"],
        "extensions": {"VRMC_vrm": ext},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": nodes,
        "meshes": meshes,
        "materials": [{"name": "Plain", "pbrMetallicRoughness": {"baseColorFactor": [0.2, 0.4, 0.6, 1.0],
                                                                 "metallicFactor": 0.0}}],
        "skins": skins,
        "buffers": [{"byteLength": len(buf.data),
                     "uri": "data:application/octet-stream;base64," + base64.b64encode(bytes(buf.data)).decode()}],
        "bufferViews": buf.views,
        "accessors": buf.accessors,
    }


def degree_map(rmap):
    return {"curve": [0, 0, 0, 1, 1, 1, 1, 0], "xRange": rmap["inputMaxValue"], "yRange": rmap["outputScale"]}


def vrm0(look_type, with_meshes):
    look = LOOK_AT_1 if look_type == "bone" else LOOK_AT_1_EXPRESSION
    off = look["offsetFromHeadBone"]
    first_person = {
        "firstPersonBone": HEAD,
        # the offset turned with the avatar (-x, y, -z), then as Unity's
        # left-handed vector (z negated; readers negate it back)
        "firstPersonBoneOffset": {"x": -off[0], "y": off[1], "z": off[2]},
        "lookAtTypeName": "Bone" if look_type == "bone" else "BlendShape",
        "lookAtHorizontalInner": degree_map(look["rangeMapHorizontalInner"]),
        "lookAtHorizontalOuter": degree_map(look["rangeMapHorizontalOuter"]),
        "lookAtVerticalDown": degree_map(look["rangeMapVerticalDown"]),
        "lookAtVerticalUp": degree_map(look["rangeMapVerticalUp"]),
    }
    groups = [{"name": n, "presetName": p, "binds": [], "materialValues": []}
              for n, p in [("LookUp", "lookup"), ("LookDown", "lookdown"), ("LookLeft", "lookleft"),
                           ("LookRight", "lookright")]]
    if with_meshes:
        groups[0]["binds"] = [{"mesh": 0, "index": 1, "weight": 25}]
        groups += [
            {"name": "Joy", "presetName": "joy", "isBinary": True, "binds": [{"mesh": 0, "index": 0, "weight": 100}],
             "materialValues": [{"materialName": "FaceMat", "propertyName": "_MainTex_ST",
                                 "targetValue": [1.0, 1.0, 0.5, 0.0]}]},
            {"name": "Angry", "presetName": "angry", "binds": [],
             "materialValues": [{"materialName": "BodyMat", "propertyName": "_Color",
                                 "targetValue": [1.0, 0.0, 0.0, 1.0]}]},
            {"name": "Blink", "presetName": "blink", "binds": [{"mesh": 0, "index": 1, "weight": 100}],
             "materialValues": []},
            {"name": "A", "presetName": "a", "binds": [{"mesh": 0, "index": 0, "weight": 50}], "materialValues": []},
            {"name": "wink", "presetName": "unknown", "binds": [{"mesh": 0, "index": 1, "weight": 30}],
             "materialValues": []},
        ]
        first_person["meshAnnotations"] = [
            {"mesh": 0, "firstPersonFlag": "Auto"}, {"mesh": 1, "firstPersonFlag": "Auto"},
            {"mesh": 4, "firstPersonFlag": "Auto"}, {"mesh": 5, "firstPersonFlag": "Auto"},
            {"mesh": 2, "firstPersonFlag": "ThirdPersonOnly"}, {"mesh": 3, "firstPersonFlag": "FirstPersonOnly"}]
    ext = {
        "exporterVersion": "sinew-test", "specVersion": "0.0",
        "meta": {"title": "avatar test", "version": "1", "author": "sinew", "contactInformation": "",
                 "reference": "", "allowedUserName": "Everyone", "violentUssageName": "Disallow",
                 "sexualUssageName": "Disallow", "commercialUssageName": "Allow",
                 "otherPermissionUrl": "", "licenseName": "CC_BY", "otherLicenseUrl": ""},
        "humanoid": {"humanBones": [{"bone": bone, "node": i, "useDefaultValues": True}
                                    for i, (_, _, _, _, bone) in enumerate(SKELETON) if bone]},
        "blendShapeMaster": {"blendShapeGroups": groups},
        "firstPerson": first_person,
    }
    doc = {
        "asset": {"version": "2.0", "generator": "sinew make_avatar_files.py"},
        "extensionsUsed": ["VRM"] + (["KHR_materials_unlit"] if with_meshes else []),
        "extensions": {"VRM": ext},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": nodes_json(True, with_meshes),
    }
    binary = b""
    if with_meshes:
        geo, buf = geometry(True)
        doc.update(geo)
        doc["buffers"] = [{"byteLength": len(buf.data)}]
        doc["bufferViews"] = buf.views
        doc["accessors"] = buf.accessors
        binary = bytes(buf.data)
    return glb(doc, binary)


def glb(document, binary=b""):
    text = json.dumps(document, separators=(",", ":")).encode("utf-8")
    text += b" " * (-len(text) % 4)
    out = struct.pack("<II", len(text), 0x4E4F534A) + text
    if binary:
        binary += b"\x00" * (-len(binary) % 4)
        out += struct.pack("<II", len(binary), 0x004E4942) + binary
    return struct.pack("<III", 0x46546C67, 2, 12 + len(out)) + out


def write_json(name, doc):
    with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


def main():
    write_json("avatar_vrm1.gltf", vrm1("bone", True))
    with open(os.path.join(HERE, "avatar_vrm0.vrm"), "wb") as f:
        f.write(vrm0("expression", True))
    write_json("avatar_erase.gltf", erase_avatar())
    for look in ("bone", "expression"):
        write_json("look_vrm1_%s.gltf" % look, vrm1(look, False))
        with open(os.path.join(HERE, "look_vrm0_%s.vrm" % look), "wb") as f:
            f.write(vrm0(look, False))


if __name__ == "__main__":
    main()
