#!/usr/bin/env python3
"""Writes the small glTF files that tests/tools/test_check.sh runs
`sinew check` on, one problem (or none) per file.

    python3 tests/data/check/make_check_files.py     (writes next to this script)
    python3 tests/data/check/make_check_files.py --chain N OUT.gltf [--star]

The second form writes one large file for measuring how `sinew check`
scales (nothing in the repository): N joints in a chain, each 1 unit above
its parent (--star: N joints side by side under one root), identity
inverse bind matrices (so the rest pose is not the bind pose: every joint
but the first disagrees), and one skinned point per joint.

Every file is the same little rig: three joints in a vertical chain,
root (0,0,0) -> mid (0,1,0) -> tip (0,2,0), identity rotations, inverse bind
matrices that undo those translations, and a skinned point cloud (mode
POINTS, so no triangle needs completing) of a few vertices on a node at the
scene root. Each file then changes one thing. The reports the test expects
are worked out by hand there, not derived from this script.

Python 3 standard library only; data in base64 data: URIs; deterministic.
"""

import base64
import json
import math
import os
import struct
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
U8, F32 = 5121, 5126
S45 = math.sqrt(0.5)  # sin 45° = cos 45°: a 90° rotation about Z is (0, 0, S45, S45)


def translation(x, y, z):
    """Column-major 4x4 translation."""
    return [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1]


class Builder:
    def __init__(self):
        self.doc = {"asset": {"version": "2.0", "generator": "sinew tests/data/check/make_check_files.py"}}
        self.bin = bytearray()

    def add(self, key, obj):
        self.doc.setdefault(key, []).append(obj)
        return len(self.doc[key]) - 1

    def accessor(self, rows, ctype, type_name, with_bounds=False):
        width = {"SCALAR": 1, "VEC3": 3, "VEC4": 4, "MAT4": 16}[type_name]
        code = {U8: "B", F32: "f"}[ctype]
        data = b"".join(struct.pack("<%d%s" % (width, code), *(r if isinstance(r, (list, tuple)) else [r]))
                        for r in rows)
        while len(self.bin) % 4:
            self.bin.append(0)
        view = self.add("bufferViews", {"buffer": 0, "byteOffset": len(self.bin), "byteLength": len(data)})
        self.bin += data
        acc = {"bufferView": view, "componentType": ctype, "count": len(rows), "type": type_name}
        if with_bounds:
            acc["min"] = [min(struct.unpack("<f", struct.pack("<f", r[c]))[0] for r in rows) for c in range(width)]
            acc["max"] = [max(struct.unpack("<f", struct.pack("<f", r[c]))[0] for r in rows) for c in range(width)]
        return self.add("accessors", acc)

    def finish(self):
        uri = "data:application/octet-stream;base64," + base64.b64encode(bytes(self.bin)).decode("ascii")
        self.doc["buffers"] = [{"byteLength": len(self.bin), "uri": uri}]
        return self.doc


def rig(vertices, joints, weights, ibm=None, animations=None):
    """The three-joint rig with a skinned point cloud.

    Nodes: 0 root, 1 mid, 2 tip, 3 the skinned mesh. `animations` is a list
    of (name, [(node, path, times, values)]) with values as rows."""
    b = Builder()
    b.doc["scene"] = 0
    b.doc["scenes"] = [{"nodes": [0, 3]}]
    b.doc["nodes"] = [
        {"name": "root", "children": [1]},
        {"name": "mid", "translation": [0, 1, 0], "children": [2]},
        {"name": "tip", "translation": [0, 1, 0]},
        {"name": "points", "mesh": 0, "skin": 0},
    ]
    attributes = {
        "POSITION": b.accessor(vertices, F32, "VEC3", with_bounds=True),
        "JOINTS_0": b.accessor(joints, U8, "VEC4"),
        "WEIGHTS_0": b.accessor(weights, F32, "VEC4"),
    }
    b.doc["meshes"] = [{"name": "points", "primitives": [{"attributes": attributes, "mode": 0}]}]
    if ibm is None:
        ibm = [translation(0, 0, 0), translation(0, -1, 0), translation(0, -2, 0)]
    b.doc["skins"] = [{"name": "chain", "joints": [0, 1, 2], "inverseBindMatrices": b.accessor(ibm, F32, "MAT4")}]
    for name, channels in animations or []:
        anim = {"name": name, "samplers": [], "channels": []}
        for node, path, times, values in channels:
            type_name = {"translation": "VEC3", "scale": "VEC3", "rotation": "VEC4", "weights": "SCALAR"}[path]
            sampler = {"input": b.accessor([(t,) for t in times], F32, "SCALAR", with_bounds=True),
                       "output": b.accessor(values, F32, type_name)}
            anim["samplers"].append(sampler)
            anim["channels"].append({"sampler": len(anim["samplers"]) - 1, "target": {"node": node, "path": path}})
        b.add("animations", anim)
    return b.finish()


def png_1x1(rgba):
    """A 1x1 RGBA PNG (signature, IHDR, IDAT, IEND)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    ihdr = struct.pack(">IIBBBBB", 1, 1, 8, 6, 0, 0, 0)  # 8-bit RGBA, no interlace
    idat = zlib.compress(b"\x00" + bytes(rgba))       # filter byte 0, then the pixel
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def with_images(doc, uris):
    """`doc` with one texture per image URI, the first one the points' base colour."""
    doc["images"] = [{"uri": uri} for uri in uris]
    doc["textures"] = [{"source": i} for i in range(len(uris))]
    doc["materials"] = [{"name": "textured", "pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}]
    doc["meshes"][0]["primitives"][0]["material"] = 0
    return doc


def far_node(doc):
    """`doc` with node 4 "far", 5e7 up, drawing mesh 0 without a skin (a scene root)."""
    doc["nodes"].append({"name": "far", "mesh": 0, "translation": [0, 5e7, 0]})
    doc["scenes"][0]["nodes"].append(4)
    return doc


def joints_listed(doc, joints):
    """`doc` with skin 0's joints replaced."""
    doc["skins"][0]["joints"] = joints
    return doc


def scene_roots(doc, roots):
    """`doc` with scene 0's roots replaced."""
    doc["scenes"][0]["nodes"] = roots
    return doc


def data_uri(mime, data):
    return "data:%s;base64,%s" % (mime, base64.b64encode(data).decode("ascii"))


# one vertex per joint, each fully weighted
COLUMN = [(0.5, 0, 0), (0.5, 1, 0), (0.5, 2, 0)]
ONE_EACH_J = [(0, 0, 0, 0), (1, 0, 0, 0), (2, 0, 0, 0)]
ONE_EACH_W = [(1, 0, 0, 0)] * 3

FILES = {
    # nothing to report
    "clean.gltf": rig(COLUMN, ONE_EACH_J, ONE_EACH_W),
    # the tip weights nothing: a note only
    "unused_joint.gltf": rig(COLUMN[:2], ONE_EACH_J[:2], ONE_EACH_W[:2]),
    # the tip's inverse bind matrix is half a unit off: at rest it moves
    # vertices down by 0.5, a quarter of the points' 2-unit bounding box
    "ibm_mismatch.gltf": rig(COLUMN, ONE_EACH_J, ONE_EACH_W,
                             ibm=[translation(0, 0, 0), translation(0, -1, 0), translation(0, -2.5, 0)]),
    # a channel on a node that does not exist, and a weights channel on a
    # mesh without morph targets: both skipped by the importer
    "bad_channels.gltf": rig(COLUMN, ONE_EACH_J, ONE_EACH_W, animations=[
        ("lost", [(99, "translation", [0, 1], [(0, 0, 0), (1, 0, 0)]),
                  (3, "weights", [0, 1], [0, 1])])]),
    # the first of two rotation keys has length 2
    "rotation_not_unit.gltf": rig(COLUMN, ONE_EACH_J, ONE_EACH_W, animations=[
        ("spin", [(1, "rotation", [0, 1], [(0, 0, 0, 2), (0, 0, S45, S45)])])]),
    # vertex 0 names the mid joint twice, half and half
    "joint_duplicate.gltf": rig(COLUMN, [(1, 1, 0, 0), (0, 0, 0, 0), (2, 0, 0, 0)],
                                [(0.5, 0.5, 0, 0), (1, 0, 0, 0), (1, 0, 0, 0)]),
    # vertex 0: 1.25 on the root, -0.25 on the mid joint (the sum is 1)
    "weight_negative.gltf": rig(COLUMN, [(0, 1, 0, 0), (1, 0, 0, 0), (2, 0, 0, 0)],
                                [(1.25, -0.25, 0, 0), (1, 0, 0, 0), (1, 0, 0, 0)]),
    # vertex 0 names joint 5 of 3 with weight 0; vertex 1 the tip with weight 0
    "zero_weight_joints.gltf": rig(COLUMN, [(0, 5, 0, 0), (1, 2, 0, 0), (2, 0, 0, 0)],
                                   [(1, 0, 0, 0), (1, 0, 0, 0), (1, 0, 0, 0)]),
    # vertex 0 sums to 0.5, vertex 1 has no weight at all
    "unnormalised.gltf": rig(COLUMN, [(0, 0, 0, 0), (0, 0, 0, 0), (2, 0, 0, 0)],
                             [(0.5, 0, 0, 0), (0, 0, 0, 0), (1, 0, 0, 0)]),
    # "bend": mid turns 0 -> 90° about Z over 1 s; "stretch": tip scales
    # (1,1,1) -> (2,1,1) over 1 s. Vertex 1 is root/mid half and half,
    # vertex 2 root 0.5, mid 0.3, tip 0.2.
    "animated.gltf": rig([(0.5, 0, 0), (0.5, 1, 0), (-0.5, 1, 0), (0.5, 2, 0)],
                         [(0, 0, 0, 0), (0, 1, 0, 0), (0, 1, 2, 0), (2, 0, 0, 0)],
                         [(1, 0, 0, 0), (0.5, 0.5, 0, 0), (0.5, 0.3, 0.2, 0), (1, 0, 0, 0)],
                         animations=[("bend", [(1, "rotation", [0, 1], [(0, 0, 0, 1), (0, 0, S45, S45)])]),
                                     ("stretch", [(2, "scale", [0, 1], [(1, 1, 1), (2, 1, 1)])])]),
    # vertex 1 at x = -3e38, vertex 2 at z = 3e38: stored positions 3e38
    # from the origin on an axis, far beyond 1e7 (SW_MODEL_MAX_EXTENT)
    "extent_absurd.gltf": rig([(0.5, 0, 0), (-3e38, 1, 0), (0.5, 2, 3e38)], ONE_EACH_J, ONE_EACH_W),
    # "fling": the tip's translation goes from (0,1,0) to (0,2e7,0) over 1 s,
    # carrying vertex 2 (weighted to the tip) from y = 2 to y = 2e7 + 1
    "extent_posed.gltf": rig(COLUMN, ONE_EACH_J, ONE_EACH_W, animations=[
        ("fling", [(2, "translation", [0, 1], [(0, 1, 0), (0, 2e7, 0)])])]),
    # node 4 "far" draws the points' mesh unskinned, 5e7 up: its bounds,
    # (0.5,0,0)..(0.5,2,0), reach y = 5e7 + 2
    "extent_placed.gltf": far_node(rig(COLUMN, ONE_EACH_J, ONE_EACH_W)),
    # the skin lists mid twice: joints [root, mid, tip, mid] (its fourth
    # inverse bind matrix the second's); no vertex weights joint 3
    "skin_joint_duplicate.gltf": joints_listed(
        rig(COLUMN, ONE_EACH_J, ONE_EACH_W, ibm=[translation(0, 0, 0), translation(0, -1, 0),
                                                 translation(0, -2, 0), translation(0, -1, 0)]), [0, 1, 2, 1]),
    # the scene holds the points (node 3) but not the root of the joints
    "joint_outside_scene.gltf": scene_roots(rig(COLUMN, ONE_EACH_J, ONE_EACH_W), [3]),
    # image 0 is a file that does not exist, image 1 a data: URI holding
    # text, not a PNG or JPEG; image 2 is a valid 1x1 PNG
    "image_unreadable.gltf": with_images(rig(COLUMN, ONE_EACH_J, ONE_EACH_W), [
        "missing_texture.png",
        data_uri("image/png", b"not an image"),
        data_uri("image/png", png_1x1((255, 128, 0, 255)))]),
}


def chain(n, star=False):
    """N joints, 1 unit apart (a chain, or children of one root side by side),
    identity inverse bind matrices, one point weighted fully to each joint."""
    b = Builder()
    b.doc["scene"] = 0
    b.doc["scenes"] = [{"nodes": [0, n]}]
    nodes = []
    for j in range(n):
        node = {"name": "j%d" % j}
        if star:
            if j > 0:
                node["translation"] = [j, 0, 0]
        else:
            if j > 0:
                node["translation"] = [0, 1, 0]
            if j + 1 < n:
                node["children"] = [j + 1]
        nodes.append(node)
    if star and n > 1:
        nodes[0]["children"] = list(range(1, n))
    nodes.append({"name": "points", "mesh": 0, "skin": 0})
    b.doc["nodes"] = nodes
    points = [(j, 0, 0) if star else (0.5, j, 0) for j in range(n)]
    U16 = 5123
    joints = b"".join(struct.pack("<4H", j, 0, 0, 0) for j in range(n))
    while len(b.bin) % 4:
        b.bin.append(0)
    view = b.add("bufferViews", {"buffer": 0, "byteOffset": len(b.bin), "byteLength": len(joints)})
    b.bin += joints
    attributes = {
        "POSITION": b.accessor(points, F32, "VEC3", with_bounds=True),
        "JOINTS_0": b.add("accessors", {"bufferView": view, "componentType": U16, "count": n, "type": "VEC4"}),
        "WEIGHTS_0": b.accessor([(1, 0, 0, 0)] * n, F32, "VEC4"),
    }
    b.doc["meshes"] = [{"name": "points", "primitives": [{"attributes": attributes, "mode": 0}]}]
    b.doc["skins"] = [{"name": "chain", "joints": list(range(n))}]
    return b.finish()


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "--chain":
        with open(sys.argv[3], "w") as f:
            json.dump(chain(int(sys.argv[2]), star="--star" in sys.argv[4:]), f)
        return
    for name, doc in FILES.items():
        with open(os.path.join(HERE, name), "w") as f:
            json.dump(doc, f, indent=1, sort_keys=True)
            f.write("\n")
        print("wrote", name)


if __name__ == "__main__":
    main()
