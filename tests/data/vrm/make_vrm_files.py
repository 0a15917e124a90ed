#!/usr/bin/env python3
"""Writes the spring-bone test files of tests/anim/test_spring.c:

  hair_vrm1.gltf  VRM 1.0: VRMC_springBone with a 3-joint hair chain
                  (Hair1 -> Hair2 -> Hair3), a sphere and a capsule
                  collider on Head in one collider group.
  hair_vrm0.vrm   VRM 0.x (a GLB, JSON chunk only): secondaryAnimation with
                  two bone groups, "hair" (root Hair1: one chain of three
                  joints and a virtual tail) and "ribbon" (root RibbonRoot,
                  two children: two chains), and one collider group with a
                  sphere on Head (offset z stored negated, as VRM 0.x does).

Both files share one skeleton, written in the file in an order that is NOT
parents first (Hair3 is nodes[0], Root nodes[4]), so the importer reorders
it and the readers must map file indices through node_from_source.

    Root (0, 0, 0)
      Head (0, 1.5, 0)
        Hair1 (0, 0.05, -0.1)
          Hair2 (0, -0.1, 0)
            Hair3 (0, -0.1, 0)
        RibbonRoot (0.05, 0.1, -0.05)
          RibbonL (0.05, -0.05, 0)
          RibbonR (-0.05, -0.05, 0)

Run from anywhere: python3 tests/data/vrm/make_vrm_files.py
The output is deterministic; the test expects exactly these values."""

import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))

# File order (index: name, translation, children by file index).
NODES = [
    ("Hair3", [0.0, -0.1, 0.0], []),             # 0
    ("Hair2", [0.0, -0.1, 0.0], [0]),            # 1
    ("Hair1", [0.0, 0.05, -0.1], [1]),           # 2
    ("Head", [0.0, 1.5, 0.0], [2, 5]),           # 3
    ("Root", [0.0, 0.0, 0.0], [3]),              # 4
    ("RibbonRoot", [0.05, 0.1, -0.05], [6, 7]),  # 5
    ("RibbonL", [0.05, -0.05, 0.0], []),         # 6
    ("RibbonR", [-0.05, -0.05, 0.0], []),        # 7
]
HAIR1, HAIR2, HAIR3, HEAD, RIBBON = 2, 1, 0, 3, 5


def nodes_json():
    out = []
    for name, t, children in NODES:
        node = {"name": name}
        if any(t):
            node["translation"] = t
        if children:
            node["children"] = children
        out.append(node)
    return out


def vrm1():
    spring_bone = {
        "specVersion": "1.0",
        "colliders": [
            {"node": HEAD, "shape": {"sphere": {"offset": [0.0, 0.05, 0.0], "radius": 0.08}}},
            {"node": HEAD, "shape": {"capsule": {"offset": [0.02, 0.0, 0.0], "radius": 0.03,
                                                 "tail": [-0.02, 0.0, 0.0]}}},
        ],
        "colliderGroups": [{"name": "head", "colliders": [0, 1]}],
        "springs": [{
            "name": "hair",
            "joints": [
                {"node": HAIR1, "hitRadius": 0.02, "stiffness": 0.8, "gravityPower": 0.5,
                 "gravityDir": [0.0, -1.0, 0.0], "dragForce": 0.3},
                {"node": HAIR2, "hitRadius": 0.015, "stiffness": 0.6, "gravityPower": 0.4,
                 "gravityDir": [0.1, -1.0, 0.0], "dragForce": 0.35},
                {"node": HAIR3},  # the tail: schema defaults, unused by the simulation
            ],
            "colliderGroups": [0],
        }],
    }
    return {
        "asset": {"version": "2.0", "generator": "sinew make_vrm_files.py"},
        "extensionsUsed": ["VRMC_vrm", "VRMC_springBone"],
        "extensions": {
            "VRMC_vrm": {"specVersion": "1.0", "meta": {"name": "hair test", "authors": ["sinew"],
                                                        "licenseUrl": "https://vrm.dev/licenses/1.0/"}},
            "VRMC_springBone": spring_bone,
        },
        "scene": 0,
        "scenes": [{"nodes": [4]}],
        "nodes": nodes_json(),
    }


def vrm0():
    secondary = {
        "boneGroups": [
            {"comment": "hair", "stiffiness": 0.8, "gravityPower": 0.5,
             "gravityDir": {"x": 0.0, "y": -1.0, "z": 0.0}, "dragForce": 0.3, "center": -1,
             "hitRadius": 0.02, "bones": [HAIR1], "colliderGroups": [0]},
            {"comment": "ribbon", "stiffiness": 1.5, "gravityPower": 0.0,
             "gravityDir": {"x": 0.0, "y": -1.0, "z": 0.0}, "dragForce": 0.6, "center": -1,
             "hitRadius": 0.01, "bones": [RIBBON], "colliderGroups": []},
        ],
        "colliderGroups": [
            {"node": HEAD, "colliders": [{"offset": {"x": 0.0, "y": 0.05, "z": 0.01}, "radius": 0.08}]},
        ],
    }
    return {
        "asset": {"version": "2.0", "generator": "sinew make_vrm_files.py"},
        "extensionsUsed": ["VRM"],
        "extensions": {
            "VRM": {"exporterVersion": "sinew-test", "specVersion": "0.0",
                    "meta": {"title": "hair test", "author": "sinew"},
                    "secondaryAnimation": secondary},
        },
        "scene": 0,
        "scenes": [{"nodes": [4]}],
        "nodes": nodes_json(),
    }


def glb(document):
    """A GLB of one JSON chunk (no BIN chunk: nothing here has buffers)."""
    text = json.dumps(document, separators=(",", ":")).encode("utf-8")
    text += b" " * (-len(text) % 4)
    chunk = struct.pack("<II", len(text), 0x4E4F534A) + text
    return struct.pack("<III", 0x46546C67, 2, 12 + len(chunk)) + chunk


def main():
    with open(os.path.join(HERE, "hair_vrm1.gltf"), "w", encoding="utf-8") as f:
        json.dump(vrm1(), f, indent=2)
        f.write("\n")
    with open(os.path.join(HERE, "hair_vrm0.vrm"), "wb") as f:
        f.write(glb(vrm0()))


if __name__ == "__main__":
    main()
