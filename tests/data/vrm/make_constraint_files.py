#!/usr/bin/env python3
"""Writes the node-constraint test files of tests/vrm/test_constraint.c
(VRMC_node_constraint 1.0 on plain glTF nodes; each file has one clip,
"move", that turns the sources, with LINEAR rotation keys at 0, 1 and 2 s):

  constraint_roll.gltf      roll constraints (X, Y, Z; weights 0.5, 1, 0.75)
                            on twist nodes under an animated LowerArm with a
                            rest rotation; plus Spin -> SpinTwist, a hand case
                            (rests identity, Spin turns 90 deg about X, then
                            also swings 30 deg about Z; roll X, weight 0.5:
                            SpinTwist turns 45 deg about X at t = 1 and 2).
  constraint_aim.gltf       aim constraints (PositiveX, NegativeY, PositiveZ,
                            NegativeZ) on sleeves under animated parents, one
                            of them scaled non-uniformly, aiming at LowerArm
                            and Hand as UpperArm turns.
  constraint_rotation.gltf  rotation constraints (weights 1, 0.4) copying an
                            animated source with a rest rotation.
  constraint_chain.gltf     constraints that read each other's results, written
                            in the file so that every dependent comes BEFORE
                            what it depends on (and the nodes not parents
                            first): an aim whose source is below a roll
                            destination, which reads a rotation destination,
                            which reads the animated node.
  constraint_cycle.gltf     A <-> B (rotation constraints reading each other)
                            and Parent, whose roll source is its own child: the
                            spec forbids both (three-vrm refuses the file);
                            they are not evaluated, Free (an ordinary
                            rotation constraint) still is.

Run from anywhere: python3 tests/data/vrm/make_constraint_files.py
The output is deterministic; tests/reference/constraint_reference.mjs gives
three-vrm's rotations for the first four, which the test holds as numbers."""

import base64
import json
import math
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
TIMES = [0.0, 1.0, 2.0]


def quat(axis, degrees):
    x, y, z = axis
    n = math.sqrt(x * x + y * y + z * z)
    h = math.radians(degrees) / 2
    s = math.sin(h) / n
    return [x * s, y * s, z * s, math.cos(h)]


def qmul(a, b):
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return [aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
            aw * bw - ax * bx - ay * by - az * bz]


def r6(q):
    return [round(v, 6) for v in q]


class Doc:
    """Nodes (by file index), a scene of the given roots, one clip."""

    def __init__(self):
        self.nodes = []
        self.tracks = []  # (node, [quat per TIMES])

    def node(self, name, t=None, r=None, s=None, children=None, constraint=None):
        n = {"name": name}
        if t:
            n["translation"] = t
        if r:
            n["rotation"] = r6(r)
        if s:
            n["scale"] = s
        if children:
            n["children"] = children
        if constraint:
            kind, body = constraint
            n["extensions"] = {"VRMC_node_constraint": {"specVersion": "1.0", "constraint": {kind: body}}}
        self.nodes.append(n)
        return len(self.nodes) - 1

    def animate(self, node, rotations):
        self.tracks.append((node, [r6(q) for q in rotations]))

    def write(self, name, roots):
        blob = bytearray(struct.pack("<3f", *TIMES))
        accessors = [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "SCALAR",
                      "min": [TIMES[0]], "max": [TIMES[-1]]}]
        views = [{"buffer": 0, "byteOffset": 0, "byteLength": 12}]
        channels, samplers = [], []
        for node, rotations in self.tracks:
            offset = len(blob)
            for q in rotations:
                blob += struct.pack("<4f", *q)
            views.append({"buffer": 0, "byteOffset": offset, "byteLength": 16 * len(rotations)})
            accessors.append({"bufferView": len(views) - 1, "componentType": 5126, "count": len(rotations),
                              "type": "VEC4"})
            samplers.append({"input": 0, "output": len(accessors) - 1, "interpolation": "LINEAR"})
            channels.append({"sampler": len(samplers) - 1, "target": {"node": node, "path": "rotation"}})
        doc = {
            "asset": {"version": "2.0", "generator": "make_constraint_files.py"},
            "extensionsUsed": ["VRMC_node_constraint"],
            "scene": 0,
            "scenes": [{"nodes": roots}],
            "nodes": self.nodes,
            "animations": [{"name": "move", "channels": channels, "samplers": samplers}],
            "buffers": [{"byteLength": len(blob),
                         "uri": "data:application/octet-stream;base64," + base64.b64encode(bytes(blob)).decode()}],
            "bufferViews": views,
            "accessors": accessors,
        }
        with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")


def roll_file():
    d = Doc()
    # 0 Root, 1 LowerArm, 2 Hand, 3 TwistX, 4 TwistY, 5 TwistZ, 6 Spin, 7 SpinTwist
    rest_arm = quat((0.2, 0.3, 0.9), 35)
    d.node("Root", t=[0, 1, 0], children=[1, 6, 5])
    d.node("LowerArm", t=[0.3, 0, 0], r=rest_arm, children=[2, 3, 4])
    d.node("Hand", t=[0.25, 0, 0])
    d.node("TwistX", t=[0.1, 0, 0], r=quat((0.5, -0.4, 0.3), 50),
           constraint=("roll", {"source": 1, "rollAxis": "X", "weight": 0.5}))
    d.node("TwistY", t=[0.15, 0, 0], r=quat((-0.3, 0.8, 0.1), 70),
           constraint=("roll", {"source": 1, "rollAxis": "Y"}))
    d.node("TwistZ", t=[0.2, 0.1, 0], r=quat((0.1, 0.1, -1.0), 25),
           constraint=("roll", {"source": 1, "rollAxis": "Z", "weight": 0.75}))
    d.node("Spin", t=[-0.3, 0, 0], children=[7])
    d.node("SpinTwist", t=[-0.1, 0, 0], constraint=("roll", {"source": 6, "rollAxis": "X", "weight": 0.5}))
    d.animate(1, [rest_arm,
                  qmul(rest_arm, qmul(quat((0, 0, 1), 40), quat((1, 0, 0), 60))),
                  qmul(rest_arm, qmul(quat((0.3, 1, 0), -50), quat((1, 0.2, 0), -110)))])
    d.animate(6, [[0, 0, 0, 1], quat((1, 0, 0), 90), qmul(quat((0, 0, 1), 30), quat((1, 0, 0), 90))])
    d.write("constraint_roll.gltf", [0])


def aim_file():
    d = Doc()
    # 0 Root, 1 UpperArm, 2 LowerArm, 3 Hand, 4 SleeveX, 5 Shoulder, 6 SleeveNegY, 7 SleevePosZ, 8 SleeveNegZ
    rest_upper = quat((0, 0, 1), -20)
    rest_shoulder = quat((1, 0.5, 0), 30)
    d.node("Root", t=[0, 1.2, 0], children=[1, 4, 5])
    d.node("UpperArm", t=[0.15, 0.2, 0], r=rest_upper, children=[2])
    d.node("LowerArm", t=[0.3, 0, 0], r=quat((0, 1, 0), 15), children=[3])
    d.node("Hand", t=[0.25, 0, 0.02])
    d.node("SleeveX", t=[0.18, 0.15, 0.01], r=quat((0, 0, 1), -25),
           constraint=("aim", {"source": 2, "aimAxis": "PositiveX"}))
    d.node("Shoulder", t=[0.1, 0.25, -0.05], r=rest_shoulder, s=[1.5, 0.8, 1.2], children=[6, 7, 8])
    d.node("SleeveNegY", t=[0.05, 0, 0], r=quat((0.2, 0.1, 1), 80),
           constraint=("aim", {"source": 2, "aimAxis": "NegativeY", "weight": 0.6}))
    d.node("SleevePosZ", t=[0.02, -0.03, 0.04], r=quat((1, 1, 1), 40),
           constraint=("aim", {"source": 3, "aimAxis": "PositiveZ", "weight": 0.3}))
    d.node("SleeveNegZ", t=[0.0, 0.05, 0.0],
           constraint=("aim", {"source": 3, "aimAxis": "NegativeZ"}))
    d.animate(1, [rest_upper, qmul(quat((0, 1, 0.2), 50), rest_upper), qmul(quat((1, 0.3, 0), -70), rest_upper)])
    d.animate(5, [rest_shoulder, qmul(rest_shoulder, quat((0, 0, 1), 35)), qmul(rest_shoulder, quat((0, 1, 0), -40))])
    d.write("constraint_aim.gltf", [0])


def rotation_file():
    d = Doc()
    # 0 Root, 1 Source, 2 Copy, 3 Half
    rest_src = quat((0.4, 0.1, -0.6), 45)
    d.node("Root", children=[1, 2, 3])
    d.node("Source", t=[0.2, 0, 0], r=rest_src)
    d.node("Copy", t=[-0.2, 0, 0], r=quat((0, 1, 0), 90), constraint=("rotation", {"source": 1}))
    d.node("Half", t=[0, 0.2, 0], r=quat((1, -1, 0.5), 60), constraint=("rotation", {"source": 1, "weight": 0.4}))
    d.animate(1, [rest_src, qmul(rest_src, quat((1, 2, 3), 80)), qmul(rest_src, quat((-2, 0.5, 1), 150))])
    d.write("constraint_rotation.gltf", [0])


def chain_file():
    d = Doc()
    # File order puts dependents first and children before parents:
    # 0 Sleeve (aim at Tip), 1 Twist (roll from Copy), 2 Copy (rotation from Arm),
    # 3 Tip (child of Twist), 4 Arm (animated), 5 Root
    d.node("Sleeve", t=[0.0, -0.1, 0.1], r=quat((0, 1, 0), 10),
           constraint=("aim", {"source": 3, "aimAxis": "PositiveY", "weight": 0.8}))
    d.node("Twist", t=[0.1, 0, 0], r=quat((0, 0, 1), 30), children=[3],
           constraint=("roll", {"source": 2, "rollAxis": "Y", "weight": 0.9}))
    d.node("Copy", t=[0, 0.1, 0], r=quat((1, 0, 0), 20), children=[1],
           constraint=("rotation", {"source": 4, "weight": 0.7}))
    d.node("Tip", t=[0.1, 0.2, 0])
    d.node("Arm", t=[0.2, 0, 0], r=quat((0, 1, 1), 15))
    d.node("Root", t=[0, 1, 0], children=[4, 2, 0])
    rest_arm = quat((0, 1, 1), 15)
    d.animate(4, [rest_arm, qmul(rest_arm, quat((1, 1, 0), 70)), qmul(rest_arm, quat((0.2, -1, 0.4), -120))])
    d.write("constraint_chain.gltf", [5])


def cycle_file():
    d = Doc()
    # 0 Root, 1 A, 2 B, 3 Parent, 4 Child, 5 Driver, 6 Free
    d.node("Root", children=[1, 2, 3, 5, 6])
    d.node("A", t=[0.1, 0, 0], constraint=("rotation", {"source": 2}))
    d.node("B", t=[0.2, 0, 0], constraint=("rotation", {"source": 1}))
    d.node("Parent", t=[0.3, 0, 0], children=[4], constraint=("roll", {"source": 4, "rollAxis": "X"}))
    d.node("Child", t=[0.1, 0, 0])
    d.node("Driver", t=[0.4, 0, 0])
    d.node("Free", t=[0.5, 0, 0], r=quat((0, 0, 1), 90), constraint=("rotation", {"source": 5}))
    ident = [0, 0, 0, 1]
    d.animate(1, [ident, quat((0, 1, 0), 40), quat((0, 1, 0), 80)])     # A: kept (not evaluated)
    d.animate(4, [ident, quat((1, 0, 0), 60), quat((1, 0, 0), 120)])    # Child: Parent would roll
    d.animate(5, [ident, quat((1, 0, 0), 90), quat((0, 1, 0), 90)])     # Driver: Free copies it
    d.write("constraint_cycle.gltf", [0])


def main():
    roll_file()
    aim_file()
    rotation_file()
    chain_file()
    cycle_file()


if __name__ == "__main__":
    main()
