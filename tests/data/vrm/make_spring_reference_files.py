#!/usr/bin/env python3
"""Writes the spring-bone models that tests/vrm/test_spring_three_vrm.py
exports with `sinew export` and compares with three-vrm's result
(tests/reference/spring_three_vrm.mjs wrote the expected numbers,
tests/data/vrm/spring_*.three-vrm.json). Each is a GLB (a JSON and a BIN
chunk) with one animation, "move", that moves and turns the root over
2.5 s (LINEAR keys), so the chains swing:

  spring_chain.glb     VRMC_springBone 1.0: one chain of four joints
                       (HairA1..HairA4, three bones), no colliders.
  spring_sphere.glb    the same chain beside a sphere collider on Body.
  spring_center.glb    two chains (A and B) with `center` on the moving
                       Root, beside a capsule on Body; Body is scaled by
                       1.1 (radii are not scaled, the capsule's segment is).
  spring_extended.glb  VRMC_springBone_extended_collider 1.0: chain A
                       beside a plane (a wall; its normal not unit), chain
                       B kept inside a sphere, chain C inside a capsule;
                       each collider's own shape is a sphere of radius 0
                       (what a reader without the extension falls back to).
  spring_vrm0.vrm      VRM 0.x secondaryAnimation: one bone group with
                       `center` on Root, its root HairA1 a tree that
                       branches at HairA2 (HairA3, HairD3), leaves with
                       virtual tails, and a sphere collider group on Body
                       (offset z stored negated). Gravity points straight
                       down: sinew turns a 0.x model 180 degrees about y at
                       load (docs/vrm.md) and keeps the file's gravityDir
                       (as three-vrm after VRMUtils.rotateVRM0); the
                       reference script does not turn it.
  spring_order.glb     the order of the joints: springs listed C, A, B;
                       A collides with a sphere on RibbonB, a node (no
                       joint) hanging from HairB2, so B's first two joints
                       must run before A (and RibbonB follow B2) for A to
                       meet the sphere where B has swung it; C collides
                       with a sphere on HairA4 (A's last joint, a tail
                       only), so A runs before C. three-vrm runs B1 B2 A1
                       A2 A3 C1 C2 C3 B3.
  spring_defaults.glb  VRMC_springBone joints that omit every parameter
                       but dragForce (A: all of them; B: all but
                       gravityPower), B beside a sphere: stiffness 1,
                       gravityPower 0, gravityDir (0, -1, 0), hitRadius 0.
                       (A missing dragForce is 0.5 by the schema and
                       UniVRM, 0.4 in three-vrm: not compared.)
  spring_vrm0_defaults.vrm  VRM 0.x bone groups that omit every
                       parameter (A), or all but gravityPower (B, beside
                       a sphere): stiffiness 1, dragForce 0.4, gravityDir
                       (0, -1, 0) as three-vrm, hitRadius 0 as three-vrm
                       and UniVRM's importer.

The skeleton (file order, parents first):

    Root (0, 0, 0)                       animated: translation and turn about y
      Body (0, 1, 0)
        HairA1 (0, 0, -0.05) > HairA2 (0, -0.15, 0) [10 deg about x]
                             > HairA3 (0, -0.15, 0) > HairA4 (0, -0.15, 0)
        HairB1 (0.15, 0, -0.05) > HairB2 > HairB3 > HairB4   (as A)
        HairC1 (-0.15, 0, -0.05) > HairC2 > HairC3 > HairC4  (as A)
    (spring_vrm0.vrm: HairD3 (0.04, -0.12, 0) is a second child of HairA2)

Run from anywhere: python3 tests/data/vrm/make_spring_reference_files.py
The output is deterministic."""

import json
import math
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))

ROOT, BODY = 0, 1


def quat_x(deg):
    h = math.radians(deg) / 2
    return [math.sin(h), 0.0, 0.0, math.cos(h)]


def quat_y(deg):
    h = math.radians(deg) / 2
    return [0.0, math.sin(h), 0.0, math.cos(h)]


def skeleton(chains, body_scale=None, branch=False, ribbon=False):
    """Nodes for Root, Body and the named chains ("A", "B", "C"); returns
    (nodes, index of each joint by name)."""
    nodes = [{"name": "Root", "children": [BODY]},
             {"name": "Body", "translation": [0.0, 1.0, 0.0], "children": []}]
    if body_scale:
        nodes[BODY]["scale"] = [body_scale] * 3
    index = {"Root": ROOT, "Body": BODY}
    x_of = {"A": 0.0, "B": 0.15, "C": -0.15}
    for c in chains:
        parent = BODY
        for k in range(1, 5):
            name = "Hair%s%d" % (c, k)
            t = [x_of[c], 0.0, -0.05] if k == 1 else [0.0, -0.15, 0.0]
            node = {"name": name, "translation": t}
            if k == 2:
                node["rotation"] = quat_x(10.0)
            index[name] = len(nodes)
            nodes[parent].setdefault("children", []).append(len(nodes))
            nodes.append(node)
            parent = index[name]
    if ribbon:
        index["RibbonB"] = len(nodes)
        nodes[index["HairB2"]]["children"].append(len(nodes))
        nodes.append({"name": "RibbonB", "translation": [-0.1, -0.05, 0.0]})
    if branch:
        index["HairD3"] = len(nodes)
        nodes[index["HairA2"]]["children"].append(len(nodes))
        nodes.append({"name": "HairD3", "translation": [0.04, -0.12, 0.0]})
    return nodes, index


# The root's animation: (time, translation, turn about y in degrees).
KEYS = [
    (0.0, [0.0, 0.0, 0.0], 0.0),
    (0.4, [0.25, 0.0, 0.0], 10.0),
    (0.9, [0.25, 0.05, 0.2], 40.0),
    (1.4, [-0.15, 0.0, 0.1], 0.0),
    (2.0, [0.0, 0.0, 0.0], -20.0),
    (2.5, [0.0, 0.0, 0.0], 0.0),
]


def animation_buffers():
    """The BIN chunk and its accessors: times, translations, rotations."""
    times = b"".join(struct.pack("<f", k[0]) for k in KEYS)
    trans = b"".join(struct.pack("<3f", *k[1]) for k in KEYS)
    rots = b"".join(struct.pack("<4f", *quat_y(k[2])) for k in KEYS)
    blob = times + trans + rots
    n = len(KEYS)
    views = [
        {"buffer": 0, "byteOffset": 0, "byteLength": len(times)},
        {"buffer": 0, "byteOffset": len(times), "byteLength": len(trans)},
        {"buffer": 0, "byteOffset": len(times) + len(trans), "byteLength": len(rots)},
    ]
    accessors = [
        {"bufferView": 0, "componentType": 5126, "count": n, "type": "SCALAR",
         "min": [KEYS[0][0]], "max": [KEYS[-1][0]]},
        {"bufferView": 1, "componentType": 5126, "count": n, "type": "VEC3"},
        {"bufferView": 2, "componentType": 5126, "count": n, "type": "VEC4"},
    ]
    anim = {"name": "move",
            "samplers": [{"input": 0, "output": 1, "interpolation": "LINEAR"},
                         {"input": 0, "output": 2, "interpolation": "LINEAR"}],
            "channels": [{"sampler": 0, "target": {"node": ROOT, "path": "translation"}},
                         {"sampler": 1, "target": {"node": ROOT, "path": "rotation"}}]}
    return blob, views, accessors, anim


def document(nodes, used, extensions):
    blob, views, accessors, anim = animation_buffers()
    doc = {
        "asset": {"version": "2.0", "generator": "sinew make_spring_reference_files.py"},
        "extensionsUsed": used,
        "extensions": extensions,
        "scene": 0,
        "scenes": [{"nodes": [ROOT]}],
        "nodes": nodes,
        "buffers": [{"byteLength": len(blob)}],
        "bufferViews": views,
        "accessors": accessors,
        "animations": [anim],
    }
    return doc, blob


def joints(index, chain, **params):
    out = []
    for k in range(1, 5):
        j = {"node": index["Hair%s%d" % (chain, k)]}
        j.update(params)
        out.append(j)
    return out


HAIR = {"stiffness": 1.0, "dragForce": 0.4, "gravityPower": 1.0, "gravityDir": [0.0, -1.0, 0.0],
        "hitRadius": 0.02}


def spring_chain():
    nodes, index = skeleton("A")
    sb = {"specVersion": "1.0", "springs": [{"name": "hair A", "joints": joints(index, "A", **HAIR)}]}
    return document(nodes, ["VRMC_springBone"], {"VRMC_springBone": sb})


def spring_sphere():
    nodes, index = skeleton("A")
    hair = dict(HAIR, gravityDir=[-0.6, -1.0, 0.0])  # leans into the sphere, not normalised
    sb = {"specVersion": "1.0",
          "colliders": [{"node": BODY, "shape": {"sphere": {"offset": [-0.07, -0.3, -0.06], "radius": 0.08}}}],
          "colliderGroups": [{"name": "body", "colliders": [0]}],
          "springs": [{"name": "hair A", "joints": joints(index, "A", **hair), "colliderGroups": [0]}]}
    return document(nodes, ["VRMC_springBone"], {"VRMC_springBone": sb})


def spring_center():
    nodes, index = skeleton("AB", body_scale=1.1)
    soft = dict(HAIR, stiffness=0.6, dragForce=0.3, gravityDir=[0.0, -1.0, -0.3])
    sb = {"specVersion": "1.0",
          "colliders": [{"node": BODY, "shape": {"capsule": {"offset": [-0.1, -0.3, -0.13], "radius": 0.04,
                                                             "tail": [0.25, -0.3, -0.13]}}}],
          "colliderGroups": [{"name": "bar", "colliders": [0]}],
          "springs": [
              {"name": "hair A", "joints": joints(index, "A", **soft), "colliderGroups": [0], "center": ROOT},
              {"name": "hair B", "joints": joints(index, "B", **HAIR), "colliderGroups": [0], "center": ROOT},
          ]}
    return document(nodes, ["VRMC_springBone"], {"VRMC_springBone": sb})


def extended(shape):
    return {"node": BODY, "shape": {"sphere": {"offset": [0.0, 0.0, 0.0], "radius": 0.0}},
            "extensions": {"VRMC_springBone_extended_collider": {"specVersion": "1.0", "shape": shape}}}


def spring_extended():
    nodes, index = skeleton("ABC")
    sb = {"specVersion": "1.0",
          "colliders": [
              extended({"plane": {"offset": [-0.03, 0.0, 0.0], "normal": [2.0, 0.0, 0.3]}}),
              extended({"sphere": {"offset": [0.15, -0.25, -0.05], "radius": 0.25, "inside": True}}),
              extended({"capsule": {"offset": [-0.15, -0.1, -0.05], "tail": [-0.15, -0.4, -0.05],
                                    "radius": 0.07, "inside": True}}),
          ],
          "colliderGroups": [{"name": "wall", "colliders": [0]}, {"name": "ball", "colliders": [1]},
                             {"name": "tube", "colliders": [2]}],
          "springs": [
              {"name": "A", "joints": joints(index, "A", **dict(HAIR, gravityDir=[-0.5, -1.0, 0.0])),
               "colliderGroups": [0]},
              {"name": "B", "joints": joints(index, "B", **dict(HAIR, stiffness=0.3)), "colliderGroups": [1]},
              {"name": "C", "joints": joints(index, "C", **dict(HAIR, stiffness=0.3)), "colliderGroups": [2]},
          ]}
    return document(nodes, ["VRMC_springBone", "VRMC_springBone_extended_collider"], {"VRMC_springBone": sb})


def spring_vrm0():
    nodes, index = skeleton("A", branch=True)
    secondary = {
        "boneGroups": [{"comment": "hair", "stiffiness": 0.8, "gravityPower": 1.0,
                        "gravityDir": {"x": 0.0, "y": -1.0, "z": 0.0}, "dragForce": 0.35, "center": ROOT,
                        "hitRadius": 0.02, "bones": [index["HairA1"]], "colliderGroups": [0]}],
        "colliderGroups": [{"node": BODY, "colliders": [{"offset": {"x": -0.07, "y": -0.3, "z": 0.06},
                                                         "radius": 0.06}]}],
    }
    vrm = {"exporterVersion": "sinew-test", "specVersion": "0.0",
           "meta": {"title": "spring test", "author": "sinew"}, "secondaryAnimation": secondary}
    return document(nodes, ["VRM"], {"VRM": vrm})


def spring_order():
    nodes, index = skeleton("ABC", ribbon=True)
    sb = {"specVersion": "1.0",
          "colliders": [{"node": index["RibbonB"], "shape": {"sphere": {"offset": [0.0, 0.0, 0.0], "radius": 0.06}}},
                        {"node": index["HairA4"], "shape": {"sphere": {"offset": [0.0, 0.0, 0.0], "radius": 0.05}}}],
          "colliderGroups": [{"name": "ribbon", "colliders": [0]}, {"name": "tip of A", "colliders": [1]}],
          "springs": [
              {"name": "C", "joints": joints(index, "C", **dict(HAIR, gravityDir=[0.9, -1.0, 0.0])),
               "colliderGroups": [1]},
              {"name": "A", "joints": joints(index, "A", **dict(HAIR, gravityDir=[0.7, -1.0, 0.0])),
               "colliderGroups": [0]},
              {"name": "B", "joints": joints(index, "B", **dict(HAIR, stiffness=0.5))},
          ]}
    return document(nodes, ["VRMC_springBone"], {"VRMC_springBone": sb})


def spring_defaults():
    nodes, index = skeleton("AB")
    sb = {"specVersion": "1.0",
          "colliders": [{"node": BODY, "shape": {"sphere": {"offset": [0.19, -0.3, -0.05], "radius": 0.04}}}],
          "colliderGroups": [{"name": "body", "colliders": [0]}],
          "springs": [
              {"name": "A", "joints": joints(index, "A", dragForce=0.4)},
              {"name": "B", "joints": joints(index, "B", dragForce=0.4, gravityPower=1.5), "colliderGroups": [0]},
          ]}
    return document(nodes, ["VRMC_springBone"], {"VRMC_springBone": sb})


def spring_vrm0_defaults():
    nodes, index = skeleton("AB")
    secondary = {
        "boneGroups": [{"comment": "A", "bones": [index["HairA1"]]},
                       {"comment": "B", "gravityPower": 1.5, "bones": [index["HairB1"]], "colliderGroups": [0]}],
        "colliderGroups": [{"node": BODY, "colliders": [{"offset": {"x": 0.19, "y": -0.3, "z": 0.05},
                                                         "radius": 0.04}]}],
    }
    vrm = {"exporterVersion": "sinew-test", "specVersion": "0.0",
           "meta": {"title": "spring defaults", "author": "sinew"}, "secondaryAnimation": secondary}
    return document(nodes, ["VRM"], {"VRM": vrm})


def glb(doc, blob):
    text = json.dumps(doc, separators=(",", ":")).encode("utf-8")
    text += b" " * (-len(text) % 4)
    blob += b"\0" * (-len(blob) % 4)
    chunks = struct.pack("<II", len(text), 0x4E4F534A) + text + struct.pack("<II", len(blob), 0x004E4942) + blob
    return struct.pack("<III", 0x46546C67, 2, 12 + len(chunks)) + chunks


MODELS = {
    "spring_chain.glb": spring_chain,
    "spring_sphere.glb": spring_sphere,
    "spring_center.glb": spring_center,
    "spring_extended.glb": spring_extended,
    "spring_vrm0.vrm": spring_vrm0,
    "spring_order.glb": spring_order,
    "spring_defaults.glb": spring_defaults,
    "spring_vrm0_defaults.vrm": spring_vrm0_defaults,
}


def main():
    for name, make in MODELS.items():
        with open(os.path.join(HERE, name), "wb") as f:
            f.write(glb(*make()))


if __name__ == "__main__":
    main()
