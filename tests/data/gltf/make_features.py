#!/usr/bin/env python3
"""Writes the small glTF feature files that tests/gltf/test_features.c loads.

    python3 tests/data/gltf/make_features.py     (writes next to this script)

Each file exercises one importer or scene-evaluation feature on a triangle or
a quad with at most three joints. This script only encodes the numbers given
here into accessors (base64 data: URIs, one external .bin, one .glb) and
fills in the accessor min/max the spec requires. The values the test expects
are worked out by hand in test_features.c, not derived from this script, so
a change to a file here needs the matching hand values changed there.

Python 3 standard library only; the output is deterministic.
"""

import base64
import json
import math
import os
import re
import struct

HERE = os.path.dirname(os.path.abspath(__file__))

C = math.sqrt(0.5)  # cos 45° = sin 45°

# glTF componentType -> (struct code, size in bytes)
COMPONENT = {
    5120: ("b", 1), 5121: ("B", 1), 5122: ("h", 2),
    5123: ("H", 2), 5125: ("I", 4), 5126: ("f", 4),
}
TYPE_WIDTH = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}
I8, U8, I16, U16, U32, F32 = 5120, 5121, 5122, 5123, 5125, 5126
ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER = 34962, 34963


def f32(x):
    """x rounded to float32, as the file stores it (for accessor min/max)."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


class Builder:
    """One glTF document and its single binary buffer."""

    def __init__(self, extensions=None):
        self.doc = {"asset": {"version": "2.0", "generator": "sinew tests/data/gltf/make_features.py"}}
        if extensions:
            self.doc["extensionsUsed"] = list(extensions)
            self.doc["extensionsRequired"] = list(extensions)
        self.bin = bytearray()

    def add(self, key, obj):
        self.doc.setdefault(key, []).append(obj)
        return len(self.doc[key]) - 1

    def view(self, data, target=None, stride=None):
        while len(self.bin) % 4:
            self.bin.append(0)
        view = {"buffer": 0, "byteOffset": len(self.bin), "byteLength": len(data)}
        if stride is not None:
            view["byteStride"] = stride
        if target is not None:
            view["target"] = target
        self.bin += data
        return self.add("bufferViews", view)

    @staticmethod
    def pack(rows, ctype, width, stride=None):
        code, size = COMPONENT[ctype]
        out = bytearray()
        for row in rows:
            row = list(row) if isinstance(row, (tuple, list)) else [row]
            assert len(row) == width
            element = struct.pack("<%d%s" % (width, code), *row)
            if stride is not None:
                element += bytes(stride - len(element))
            out += element
        return bytes(out)

    @staticmethod
    def minmax(rows, ctype, width):
        rows = [list(r) if isinstance(r, (tuple, list)) else [r] for r in rows]
        conv = f32 if ctype == F32 else int
        lo = [conv(min(r[i] for r in rows)) for i in range(width)]
        hi = [conv(max(r[i] for r in rows)) for i in range(width)]
        return lo, hi

    def accessor(self, rows, type_, ctype=F32, normalized=False, target=None, bounds=False, sparse=None,
                 no_view=False, count=None):
        """rows: one tuple per element (or plain numbers for SCALAR).
        Vertex attributes (target=ARRAY_BUFFER) whose elements are not a
        multiple of 4 bytes get a padded byteStride, as the spec requires.
        sparse: (indices ctype, [(index, row), ...]) overrides rows there.
        no_view: the accessor has no bufferView (all zeros before sparse)."""
        width = TYPE_WIDTH[type_]
        size = COMPONENT[ctype][1] * width
        stride = None
        if target == ARRAY_BUFFER and size % 4:
            stride = (size + 3) // 4 * 4
        if count is None:
            count = len(rows)
        acc = {"componentType": ctype, "count": count, "type": type_}
        if normalized:
            acc["normalized"] = True
        final = [list(r) if isinstance(r, (tuple, list)) else [r] for r in rows]
        if not no_view:
            acc["bufferView"] = self.view(self.pack(rows, ctype, width, stride), target, stride)
        if sparse is not None:
            index_type, pairs = sparse
            acc["sparse"] = {
                "count": len(pairs),
                "indices": {"bufferView": self.view(self.pack([i for i, _ in pairs], index_type, 1)),
                            "componentType": index_type},
                "values": {"bufferView": self.view(self.pack([v for _, v in pairs], ctype, width))},
            }
            for i, v in pairs:
                final[i] = list(v)
        if bounds:
            acc["min"], acc["max"] = self.minmax(final, ctype, width)
        return self.add("accessors", acc)

    def positions(self, rows, **kw):
        return self.accessor(rows, "VEC3", target=ARRAY_BUFFER, bounds=True, **kw)

    def vec3(self, rows, **kw):
        return self.accessor(rows, "VEC3", target=ARRAY_BUFFER, **kw)

    def times(self, times):
        return self.accessor(times, "SCALAR", bounds=True)

    def animation(self, channels, name=None):
        """channels: (node, path, interpolation, times, flat output rows, output type)."""
        samplers, chans = [], []
        for node, path, interp, times, rows, type_ in channels:
            s = {"input": self.times(times), "output": self.accessor(rows, type_)}
            if interp != "LINEAR":
                s["interpolation"] = interp
            samplers.append(s)
            chans.append({"sampler": len(samplers) - 1, "target": {"node": node, "path": path}})
        anim = {"samplers": samplers, "channels": chans}
        if name:
            anim["name"] = name
        return self.add("animations", anim)

    def matrices(self, mats):
        """mats: 4x4 matrices as rows of rows (row-major, as written on paper);
        stored column-major as glTF wants."""
        cols = [tuple(m[r][c] for c in range(4) for r in range(4)) for m in mats]
        return self.accessor(cols, "MAT4")

    # ---- output ------------------------------------------------------------

    def json_text(self):
        text = json.dumps(self.doc, indent=1)
        # Keep arrays of numbers on one line.
        return re.sub(r"\[\s*([-0-9.eE,\s]+?)\s*\]",
                      lambda m: "[" + ", ".join(x.strip() for x in m.group(1).split(",")) + "]", text) + "\n"

    def write_gltf(self, name, external_bin=None):
        if external_bin:
            buf = {"byteLength": len(self.bin), "uri": external_bin}
            with open(os.path.join(HERE, external_bin), "wb") as f:
                f.write(self.bin)
        else:
            buf = {"byteLength": len(self.bin),
                   "uri": "data:application/octet-stream;base64," + base64.b64encode(bytes(self.bin)).decode()}
        self.doc["buffers"] = [buf]
        with open(os.path.join(HERE, name), "w", newline="\n") as f:
            f.write(self.json_text())

    def write_glb(self, name):
        self.doc["buffers"] = [{"byteLength": len(self.bin)}]
        js = json.dumps(self.doc, separators=(",", ":")).encode()
        js += b" " * (-len(js) % 4)
        bin_ = bytes(self.bin) + bytes(-len(self.bin) % 4)
        total = 12 + 8 + len(js) + 8 + len(bin_)
        out = struct.pack("<4sII", b"glTF", 2, total)
        out += struct.pack("<I4s", len(js), b"JSON") + js
        out += struct.pack("<I4s", len(bin_), b"BIN\0") + bin_
        with open(os.path.join(HERE, name), "wb") as f:
            f.write(out)


def scene(b, roots):
    b.doc["scene"] = 0
    b.doc["scenes"] = [{"nodes": roots}]


# The triangle most files use: the three unit axes, so a rigid transform's
# image of vertex k is column k of its 3x3 plus the translation.
AXES = [(1, 0, 0), (0, 1, 0), (0, 0, 1)]


def axes_mesh(b, name, normals=True):
    attrs = {"POSITION": b.positions(AXES)}
    if normals:
        attrs["NORMAL"] = b.vec3(AXES)
    return b.add("meshes", {"name": name, "primitives": [{"attributes": attrs}]})


def axes_morph_mesh(b, name, weights):
    """AXES with two targets: target 0 moves vertex k by (k+1, 0, 0), target 1
    moves every vertex by (0, 1, 0)."""
    t0 = b.accessor([(1, 0, 0), (2, 0, 0), (3, 0, 0)], "VEC3", target=ARRAY_BUFFER, bounds=True)
    t1 = b.accessor([(0, 1, 0)] * 3, "VEC3", target=ARRAY_BUFFER, bounds=True)
    prim = {"attributes": {"POSITION": b.positions(AXES)}, "targets": [{"POSITION": t0}, {"POSITION": t1}]}
    return b.add("meshes", {"name": name, "primitives": [prim], "weights": weights})


# ---- 1. interpolation x path ------------------------------------------------

KEY_TIMES = [1.0, 2.0, 4.0]


def interp_file(name, interp, t, r, s, w):
    """Four nodes on the triangle, each animated on one path with keys at
    KEY_TIMES. Each node's rest value differs from the first key, so a track
    that does not hold its first value before t = 1 shows."""
    b = Builder()
    mesh = axes_mesh(b, "axes")
    morph = axes_morph_mesh(b, "axes_morph", [0.5, 0.5])
    b.add("nodes", {"name": "translation", "mesh": mesh, "translation": [0, 0, -10]})
    b.add("nodes", {"name": "rotation", "mesh": mesh, "rotation": [1, 0, 0, 0]})
    b.add("nodes", {"name": "scale", "mesh": mesh, "scale": [3, 3, 3]})
    b.add("nodes", {"name": "weights", "mesh": morph})
    scene(b, [0, 1, 2, 3])

    def flat(keys):
        return [tuple(v) for key in keys for v in (key if interp == "CUBICSPLINE" else [key])]

    def flat_weights(keys):
        rows = []
        for key in keys:
            for v in (key if interp == "CUBICSPLINE" else [key]):
                rows += list(v)
        return rows

    b.animation([
        (0, "translation", interp, KEY_TIMES, flat(t), "VEC3"),
        (1, "rotation", interp, KEY_TIMES, flat(r), "VEC4"),
        (2, "scale", interp, KEY_TIMES, flat(s), "VEC3"),
        (3, "weights", interp, KEY_TIMES, flat_weights(w), "SCALAR"),
    ], name=interp.lower())
    b.write_gltf(name)


def make_interp_files():
    t = [(-1, 0, 1), (2, 2, 2), (4, 0, 2)]
    # identity, 90 deg about +Z, 90 deg about +X stored negated (q and -q are
    # the same rotation; LINEAR must take the short way).
    r = [(0, 0, 0, 1), (0, 0, C, C), (-C, 0, 0, -C)]
    s = [(1, 1, 0.5), (2, 2, 2), (1, 2, 3)]
    w = [(0, 0), (1, 0.5), (0.25, 1)]
    interp_file("interp_step.gltf", "STEP", t, r, s, w)
    interp_file("interp_linear.gltf", "LINEAR", t, r, s, w)

    # CUBICSPLINE: each key is (in-tangent, value, out-tangent). The in-tangent
    # of the first key and the out-tangent of the last are never used; they
    # hold large values so that reading them shows.
    ct = [[(9, 9, 9), (-1, 0, 1), (1, 2, 0)],
          [(0, 0, 4), (2, 2, 2), (1, 0, -1)],
          [(2, 0, 0), (4, 0, 2), (9, 9, 9)]]
    cr = [[(5, 5, 5, 5), (0, 0, 0, 1), (0, 0, 4, 0)],
          [(0, 0, 0, 0), (0, 0, 1, 0), (0.8, 0, 0, 0)],
          [(0, 0, 0, -2.4), (0.6, 0, 0, 0.8), (5, 5, 5, 5)]]
    cs = [[(9, 9, 9), (1, 1, 0.5), (0, 2, 0)],
          [(2, 0, 0), (2, 2, 2), (0, 0, 1)],
          [(1, 1, 1), (1, 2, 3), (9, 9, 9)]]
    cw = [[(7, 7), (0, 0), (1, 0)],
          [(0, -1), (1, 0.5), (0.5, 0)],
          [(1, 0), (0.25, 1), (7, 7)]]
    interp_file("interp_cubicspline.gltf", "CUBICSPLINE", ct, cr, cs, cw)


# ---- 2. sparse accessors -------------------------------------------------------

def make_sparse():
    b = Builder()
    quad = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)]
    # Vertices 1 and 3 are replaced by sparse values (u8 indices).
    pos = b.positions(quad, sparse=(U8, [(1, (2, 0, 0)), (3, (0, 3, 0))]))
    # Morph target with no bufferView: zeros, except vertex 2 (u16 index).
    target = b.accessor([(0, 0, 0)] * 4, "VEC3", bounds=True, no_view=True, sparse=(U16, [(2, (0, 0, 2))]))
    idx = b.accessor([0, 1, 2, 0, 2, 3], "SCALAR", ctype=U16, target=ELEMENT_ARRAY_BUFFER)
    b.add("meshes", {"name": "quad", "weights": [0.5],
                     "primitives": [{"attributes": {"POSITION": pos}, "indices": idx, "targets": [{"POSITION": target}]}]})
    b.add("nodes", {"name": "quad", "mesh": 0})
    scene(b, [0])
    b.write_gltf("sparse.gltf")


# ---- 3. normalised integer weights, u8 / u16 joints ---------------------------------

def make_weights_normalized():
    b = Builder()
    # Primitive 0: JOINTS_0 u8, WEIGHTS_0 u8 normalised.
    p0 = b.positions([(0, 0, 0), (1, 0, 0), (0, 1, 0)])
    j0 = b.accessor([(0, 0, 0, 0), (1, 0, 0, 0), (0, 1, 0, 0)], "VEC4", ctype=U8, target=ARRAY_BUFFER)
    w0 = b.accessor([(255, 0, 0, 0), (128, 127, 0, 0), (51, 204, 0, 0)], "VEC4", ctype=U8, normalized=True,
                    target=ARRAY_BUFFER)
    # Primitive 1: JOINTS_0 u16, WEIGHTS_0 u16 normalised.
    p1 = b.positions([(0, 0, 1), (1, 0, 1), (0, 1, 1)])
    j1 = b.accessor([(1, 0, 0, 0), (0, 1, 0, 0), (1, 0, 0, 0)], "VEC4", ctype=U16, target=ARRAY_BUFFER)
    w1 = b.accessor([(65535, 0, 0, 0), (13107, 52428, 0, 0), (32768, 32767, 0, 0)], "VEC4", ctype=U16,
                    normalized=True, target=ARRAY_BUFFER)
    ibm = b.matrices([[[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]] * 2)
    b.add("meshes", {"name": "two_prims", "primitives": [
        {"attributes": {"POSITION": p0, "JOINTS_0": j0, "WEIGHTS_0": w0}},
        {"attributes": {"POSITION": p1, "JOINTS_0": j1, "WEIGHTS_0": w1}},
    ]})
    b.add("nodes", {"name": "mesh", "mesh": 0, "skin": 0})
    b.add("nodes", {"name": "joint_x", "translation": [1, 0, 0]})
    b.add("nodes", {"name": "joint_z", "translation": [0, 0, 1]})
    b.add("nodes", {"name": "rig", "children": [1, 2]})
    b.add("skins", {"joints": [1, 2], "inverseBindMatrices": ibm})
    scene(b, [0, 3])
    b.write_gltf("weights_normalized.gltf")


# ---- 4. external buffer and GLB ---------------------------------------------------

def container_scene(b):
    pos = b.positions([(0, 0, 0), (1, 0, 0), (0, 1, 0)])
    idx = b.accessor([0, 1, 2], "SCALAR", ctype=U16, target=ELEMENT_ARRAY_BUFFER)
    b.add("meshes", {"name": "tri", "primitives": [{"attributes": {"POSITION": pos}, "indices": idx}]})
    b.add("nodes", {"name": "tri", "mesh": 0, "translation": [1, 2, 3], "scale": [2, 2, 2]})
    scene(b, [0])


def make_containers():
    b = Builder()
    container_scene(b)
    b.write_gltf("buffer_external.gltf", external_bin="buffer_external.bin")
    b = Builder()
    container_scene(b)
    b.write_glb("container.glb")


# ---- 5. matrix vs TRS ------------------------------------------------------------

def make_matrix_vs_trs():
    b = Builder()
    pos = b.positions(AXES)
    nrm = b.vec3([(C, C, 0), (0, C, C), (0, 0, 1)])
    b.add("meshes", {"name": "axes", "primitives": [{"attributes": {"POSITION": pos, "NORMAL": nrm}}]})
    # T (1,2,3) . R (90 deg about Z) . S (2,1,0.5), written as a matrix by
    # hand: columns R*(2,0,0) = (0,2,0), R*(0,1,0) = (-1,0,0), R*(0,0,0.5).
    matrix = [0, 2, 0, 0, -1, 0, 0, 0, 0, 0, 0.5, 0, 1, 2, 3, 1]
    child = {"mesh": 0, "translation": [0, 1, 0], "rotation": [0, 0, math.sin(math.pi / 8), math.cos(math.pi / 8)]}
    b.add("nodes", {"name": "trs", "mesh": 0, "children": [2], "translation": [1, 2, 3],
                    "rotation": [0, 0, C, C], "scale": [2, 1, 0.5]})
    b.add("nodes", {"name": "matrix", "mesh": 0, "children": [3], "matrix": matrix})
    b.add("nodes", dict(name="trs_child", **child))
    b.add("nodes", dict(name="matrix_child", **child))
    scene(b, [0, 1])
    b.write_gltf("matrix_vs_trs.gltf")


# ---- 6. skin without inverseBindMatrices ----------------------------------------------

def make_skin_no_ibm():
    b = Builder()
    pos = b.positions(AXES)
    nrm = b.vec3([(1, 0, 0)] * 3)
    joints = b.accessor([(0, 0, 0, 0), (1, 0, 0, 0), (0, 1, 0, 0)], "VEC4", ctype=U8, target=ARRAY_BUFFER)
    weights = b.accessor([(1, 0, 0, 0), (1, 0, 0, 0), (0.5, 0.5, 0, 0)], "VEC4", target=ARRAY_BUFFER)
    b.add("meshes", {"name": "axes", "primitives": [
        {"attributes": {"POSITION": pos, "NORMAL": nrm, "JOINTS_0": joints, "WEIGHTS_0": weights}}]})
    b.add("nodes", {"name": "mesh", "mesh": 0, "skin": 0})
    b.add("nodes", {"name": "root_joint", "children": [2], "translation": [1, 0, 0], "rotation": [0, 0, C, C]})
    b.add("nodes", {"name": "child_joint", "translation": [0, 2, 0]})
    b.add("skins", {"joints": [1, 2]})
    scene(b, [0, 1])
    b.write_gltf("skin_no_ibm.gltf")


# ---- 7. skinned mesh under transformed parents --------------------------------------

def make_skin_mesh_transform_ignored():
    b = Builder()
    pos = b.positions([(0, 0, 0), (1, 0, 0), (0, 1, 0)])
    joints = b.accessor([(0, 0, 0, 0), (1, 0, 0, 0), (0, 1, 0, 0)], "VEC4", ctype=U8, target=ARRAY_BUFFER)
    weights = b.accessor([(1, 0, 0, 0), (1, 0, 0, 0), (0.25, 0.75, 0, 0)], "VEC4", target=ARRAY_BUFFER)
    ibm = b.matrices([
        [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, -1], [0, 0, 0, 1]],   # translate (0, 0, -1)
        [[1, 0, 0, 0], [0, 1, 0, -1], [0, 0, 1, 0], [0, 0, 0, 1]],   # translate (0, -1, 0)
    ])
    b.add("meshes", {"name": "tri", "primitives": [
        {"attributes": {"POSITION": pos, "JOINTS_0": joints, "WEIGHTS_0": weights}}]})
    b.add("nodes", {"name": "parent", "children": [1], "translation": [100, 0, 0], "scale": [3, 3, 3]})
    b.add("nodes", {"name": "mesh", "mesh": 0, "skin": 0, "translation": [0, 50, 0], "rotation": [C, 0, 0, C]})
    b.add("nodes", {"name": "joint0", "children": [3], "translation": [0, 0, 3]})
    b.add("nodes", {"name": "joint1", "translation": [0, 1, 0], "rotation": [0, 0, C, C]})
    b.add("skins", {"joints": [2, 3], "inverseBindMatrices": ibm})
    scene(b, [0, 2])
    b.write_gltf("skin_mesh_transform_ignored.gltf")


# ---- 8. joints in a separate, transformed branch -----------------------------------------

def make_skin_joints_separate_branch():
    b = Builder()
    pos = b.positions([(0, 1, 0), (0, 2, 0), (1, 3, 0)])
    joints = b.accessor([(0, 0, 0, 0), (1, 0, 0, 0), (0, 1, 0, 0)], "VEC4", ctype=U8, target=ARRAY_BUFFER)
    weights = b.accessor([(1, 0, 0, 0), (1, 0, 0, 0), (0.5, 0.5, 0, 0)], "VEC4", target=ARRAY_BUFFER)
    ibm = b.matrices([
        [[1, 0, 0, 0], [0, 1, 0, -1], [0, 0, 1, 0], [0, 0, 0, 1]],   # translate (0, -1, 0)
        [[1, 0, 0, 0], [0, 1, 0, -2], [0, 0, 1, 0], [0, 0, 0, 1]],   # translate (0, -2, 0)
    ])
    b.add("meshes", {"name": "tri", "primitives": [
        {"attributes": {"POSITION": pos, "JOINTS_0": joints, "WEIGHTS_0": weights}}]})
    b.add("nodes", {"name": "mesh", "mesh": 0, "skin": 0})
    b.add("nodes", {"name": "rig_root", "children": [2], "translation": [10, 0, 0], "scale": [2, 2, 2]})
    b.add("nodes", {"name": "joint0", "children": [3], "translation": [0, 1, 0]})
    b.add("nodes", {"name": "joint1", "translation": [0, 1, 0], "rotation": [C, 0, 0, C]})
    b.add("skins", {"joints": [2, 3], "inverseBindMatrices": ibm, "skeleton": 1})
    scene(b, [0, 1])
    b.write_gltf("skin_joints_separate_branch.gltf")


# ---- 9. morph + skin --------------------------------------------------------------

def make_morph_skin():
    b = Builder()
    pos = b.positions(AXES)
    nrm = b.vec3([(0, 0, 1)] * 3)
    joints = b.accessor([(0, 0, 0, 0), (0, 0, 0, 0), (1, 0, 0, 0)], "VEC4", ctype=U8, target=ARRAY_BUFFER)
    weights = b.accessor([(1, 0, 0, 0)] * 3, "VEC4", target=ARRAY_BUFFER)
    dpos = b.accessor([(1, 0, 0), (1, 0, 0), (0, 2, 0)], "VEC3", target=ARRAY_BUFFER, bounds=True)
    dnrm = b.accessor([(1, 0, -1), (0, 0, 0), (0, 2, -1)], "VEC3", target=ARRAY_BUFFER)
    b.add("meshes", {"name": "axes", "weights": [0], "primitives": [
        {"attributes": {"POSITION": pos, "NORMAL": nrm, "JOINTS_0": joints, "WEIGHTS_0": weights},
         "targets": [{"POSITION": dpos, "NORMAL": dnrm}]}]})
    b.add("nodes", {"name": "mesh", "mesh": 0, "skin": 0, "weights": [0.5]})
    b.add("nodes", {"name": "joint0", "children": [2], "rotation": [0, 0, C, C]})
    b.add("nodes", {"name": "joint1", "translation": [2, 0, 0]})
    b.add("skins", {"joints": [1, 2]})
    scene(b, [0, 1])
    b.write_gltf("morph_skin.gltf")


# ---- 10. clip that starts after 0 ------------------------------------------------------

def make_clip_late_start():
    b = Builder()
    mesh = axes_mesh(b, "axes")
    b.add("nodes", {"name": "a", "mesh": mesh, "translation": [0, 0, -7]})
    b.add("nodes", {"name": "b", "mesh": mesh, "rotation": [1, 0, 0, 0]})
    scene(b, [0, 1])
    b.animation([
        (0, "translation", "LINEAR", [1.0, 3.0], [(1, 0, 0), (3, 0, 0)], "VEC3"),
        (1, "rotation", "LINEAR", [2.0, 4.0], [(0, 0, C, C), (0, 0, 1, 0)], "VEC4"),
    ], name="late")
    b.write_gltf("clip_late_start.gltf")


# ---- 11. rigid animated mesh; node.weights over mesh.weights ----------------------------------

def make_rigid_animated():
    b = Builder()
    pos = b.positions([(0, 0, 0), (1, 0, 0), (0, 1, 0)])
    nrm = b.vec3([(1, 0, 0)] * 3)
    b.add("meshes", {"name": "tri", "primitives": [{"attributes": {"POSITION": pos, "NORMAL": nrm}}]})
    b.add("nodes", {"name": "parent", "children": [1]})
    b.add("nodes", {"name": "child", "mesh": 0, "translation": [1, 0, 0]})
    scene(b, [0])
    b.animation([(0, "rotation", "LINEAR", [0.0, 1.0], [(0, 0, 0, 1), (0, 0, C, C)], "VEC4")], name="spin")
    b.write_gltf("rigid_animated.gltf")


def make_morph_node_weights():
    b = Builder()
    pos = b.positions([(0, 0, 0), (1, 0, 0), (0, 1, 0)])
    t0 = b.accessor([(0, 0, 1)] * 3, "VEC3", target=ARRAY_BUFFER, bounds=True)
    t1 = b.accessor([(1, 0, 0), (0, 1, 0), (0, 0, 0)], "VEC3", target=ARRAY_BUFFER, bounds=True)
    b.add("meshes", {"name": "tri", "weights": [0.25, 0.75], "primitives": [
        {"attributes": {"POSITION": pos}, "targets": [{"POSITION": t0}, {"POSITION": t1}]}]})
    b.add("nodes", {"name": "own_weights", "mesh": 0, "weights": [1, 0]})
    b.add("nodes", {"name": "mesh_weights", "mesh": 0, "translation": [5, 0, 0]})
    scene(b, [0, 1])
    b.write_gltf("morph_node_weights.gltf")


# ---- 12. rotation keys not normalised -------------------------------------------------

def make_rotation_unnormalized():
    # Deliberately invalid: glTF requires unit rotation keys; the importer
    # normalises them. (0,0,0,3) is identity, (0,0,2,2) is 90 deg about Z.
    b = Builder()
    mesh = axes_mesh(b, "axes")
    b.add("nodes", {"name": "spin", "mesh": mesh})
    scene(b, [0])
    b.animation([(0, "rotation", "LINEAR", [0.0, 1.0], [(0, 0, 0, 3), (0, 0, 2, 2)], "VEC4")], name="spin")
    b.write_gltf("rotation_unnormalized.gltf")


# ---- 13. KHR_mesh_quantization -----------------------------------------------------------

def make_quantized():
    b = Builder(extensions=["KHR_mesh_quantization"])
    # i16 normalised: c / 32767, and -32768 clamps to -1.
    p16 = b.accessor([(32767, 0, -32768), (0, 16384, 0), (-16384, 0, 32767)], "VEC3", ctype=I16,
                     normalized=True, target=ARRAY_BUFFER, bounds=True)
    # u8 integers (not normalised), scaled by the node.
    p8 = b.accessor([(0, 0, 0), (10, 0, 0), (0, 20, 0)], "VEC3", ctype=U8, target=ARRAY_BUFFER, bounds=True)
    n8 = b.accessor([(0, 0, 127), (0, 127, 0), (-127, 0, 0)], "VEC3", ctype=I8, normalized=True,
                    target=ARRAY_BUFFER)
    b.add("meshes", {"name": "i16", "primitives": [{"attributes": {"POSITION": p16}}]})
    b.add("meshes", {"name": "u8", "primitives": [{"attributes": {"POSITION": p8, "NORMAL": n8}}]})
    b.add("nodes", {"name": "i16", "mesh": 0, "translation": [0, 0, 1], "scale": [2, 2, 2]})
    b.add("nodes", {"name": "u8", "mesh": 1, "translation": [1, 0, 0], "scale": [0.1, 0.1, 0.1]})
    scene(b, [0, 1])
    b.write_gltf("quantized.gltf")


# ---- 14. emissive strength; an extension sinew does not know ---------------------------

def make_emissive_strength():
    # The Khronos and the VRM emissive multipliers, alone and together (the
    # VRM one wins, as in three-vrm), a negative one (ignored with a
    # warning), none (1); extensionsUsed also names KHR_materials_clearcoat,
    # which sinew does not read: a warning names it. Not required: a viewer
    # without the multipliers still draws the file.
    b = Builder()
    b.doc["extensionsUsed"] = ["KHR_materials_emissive_strength", "VRMC_materials_hdr_emissiveMultiplier",
                               "KHR_materials_clearcoat"]
    emissive = [0.25, 0.5, 0.125]
    b.add("materials", {"name": "khr", "emissiveFactor": emissive,
                        "extensions": {"KHR_materials_emissive_strength": {"emissiveStrength": 4}}})
    b.add("materials", {"name": "vrmc", "emissiveFactor": emissive,
                        "extensions": {"VRMC_materials_hdr_emissiveMultiplier": {"emissiveMultiplier": 4}}})
    b.add("materials", {"name": "both", "emissiveFactor": emissive, "extensions": {
        "KHR_materials_emissive_strength": {"emissiveStrength": 2},
        "VRMC_materials_hdr_emissiveMultiplier": {"emissiveMultiplier": 4}}})
    b.add("materials", {"name": "plain", "emissiveFactor": emissive,
                        "extensions": {"KHR_materials_clearcoat": {"clearcoatFactor": 1}}})
    b.add("materials", {"name": "negative", "emissiveFactor": emissive,
                        "extensions": {"KHR_materials_emissive_strength": {"emissiveStrength": -1}}})
    pos = b.positions(AXES)
    b.add("meshes", {"name": "tri", "primitives": [{"attributes": {"POSITION": pos}, "material": m}
                                                   for m in range(5)]})
    b.add("nodes", {"name": "tri", "mesh": 0})
    scene(b, [0])
    b.write_gltf("emissive_strength.gltf")


def main():
    make_interp_files()
    make_sparse()
    make_weights_normalized()
    make_containers()
    make_matrix_vs_trs()
    make_skin_no_ibm()
    make_skin_mesh_transform_ignored()
    make_skin_joints_separate_branch()
    make_morph_skin()
    make_clip_late_start()
    make_rigid_animated()
    make_morph_node_weights()
    make_rotation_unnormalized()
    make_quantized()
    make_emissive_strength()


if __name__ == "__main__":
    main()
