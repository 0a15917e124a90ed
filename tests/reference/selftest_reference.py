#!/usr/bin/env python3
"""Self-checks of gltf_reference.py and compare_export.py.

Part 1 needs nothing: accessor decoding (every componentType, normalised
integers, byteStride, byteOffset, matrix column padding, sparse; data: URI,
GLB and external buffers), interpolation, and a small hand-built skinned /
morphed / rigid scene, each against values worked out here by hand.

Part 2 reads assets from $SINEW_ASSETS/gltf/... and checks the reference
against hand computation (with helpers in this file, not the reference's
maths) on triangle, twist_tube, interpolation_test, cubic_spline,
AnimatedMorphCube, morph_skin, eight_influences and the rest pose of the
skinned assets, then runs both command-line tools end to end.
If SINEW_ASSETS is unset, part 2 is skipped with a message (exit 0 when
part 1 passed).

Exit status: 0 all checks passed (or part 2 skipped), 1 a check failed.
"""

import base64
import json
import math
import os
import struct
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gltf_reference as ref  # noqa: E402

FAILED = []
PASSED = [0]


def check(name, ok, detail=""):
    if ok:
        PASSED[0] += 1
        print("PASS %s%s" % (name, (": " + detail) if detail else ""))
    else:
        FAILED.append(name)
        print("FAIL %s%s" % (name, (": " + detail) if detail else ""))


def close(name, got, want, tol):
    got = np.asarray(got, dtype=np.float64)
    want = np.asarray(want, dtype=np.float64)
    if got.shape != want.shape:
        check(name, False, "shape %s, expected %s" % (got.shape, want.shape))
        return
    err = float(np.max(np.abs(got - want))) if got.size else 0.0
    check(name, err <= tol, "max error %.3g (tolerance %.3g)" % (err, tol))


# --------------------------------------------------------------------------
# Hand maths, independent of the reference's helpers
# --------------------------------------------------------------------------

def qrot(q, v):
    """Rotate vectors v (..., 3) by the unit quaternion q = (x, y, z, w):
    v' = v + 2w (u x v) + 2 u x (u x v)."""
    q = np.asarray(q, dtype=np.float64)
    q = q / math.sqrt(float(np.dot(q, q)))
    u = q[:3]
    w = q[3]
    v = np.asarray(v, dtype=np.float64)
    uv = np.cross(u, v)
    return v + 2.0 * w * uv + 2.0 * np.cross(u, uv)


def axis_angle(axis, deg):
    a = np.asarray(axis, dtype=np.float64)
    a = a / np.linalg.norm(a)
    h = math.radians(deg) / 2
    return np.array([a[0] * math.sin(h), a[1] * math.sin(h), a[2] * math.sin(h), math.cos(h)])


def hand_slerp(q0, q1, u):
    q0 = np.asarray(q0, float) / np.linalg.norm(q0)
    q1 = np.asarray(q1, float) / np.linalg.norm(q1)
    d = float(np.dot(q0, q1))
    if d < 0:
        q1, d = -q1, -d
    if d > 1 - 1e-12:
        r = q0 + u * (q1 - q0)
    else:
        th = math.acos(min(1.0, d))
        r = (math.sin((1 - u) * th) * q0 + math.sin(u * th) * q1) / math.sin(th)
    return r / np.linalg.norm(r)


def hand_hermite(v0, b0, v1, a1, td, u):
    v0, b0, v1, a1 = (np.asarray(x, float) for x in (v0, b0, v1, a1))
    return ((2 * u ** 3 - 3 * u ** 2 + 1) * v0 + td * (u ** 3 - 2 * u ** 2 + u) * b0
            + (-2 * u ** 3 + 3 * u ** 2) * v1 + td * (u ** 3 - u ** 2) * a1)


def hand_key(inputs, t):
    """(k, u): inputs[k] <= t < inputs[k+1], by a plain scan."""
    for k in range(len(inputs) - 1):
        if inputs[k] <= t < inputs[k + 1]:
            return k, (t - inputs[k]) / (inputs[k + 1] - inputs[k])
    raise ValueError("t outside the keys")


def hand_sample(inputs, values, interp, t, rotation=False):
    """One channel at one time, by the spec's formulas (values: for
    CUBICSPLINE the flat list of (in, value, out) triples)."""
    if interp == "CUBICSPLINE":
        a = values[0::3]
        v = values[1::3]
        b = values[2::3]
    else:
        v = values
    if rotation:
        v = [np.asarray(x, float) / np.linalg.norm(x) for x in v]
    if t <= inputs[0]:
        return np.asarray(v[0], float)
    if t >= inputs[-1]:
        return np.asarray(v[-1], float)
    k, u = hand_key(inputs, t)
    if interp == "STEP":
        return np.asarray(v[k], float)
    if interp == "LINEAR":
        if rotation:
            return hand_slerp(v[k], v[k + 1], u)
        return np.asarray(v[k], float) * (1 - u) + np.asarray(v[k + 1], float) * u
    r = hand_hermite(v[k], b[k], v[k + 1], a[k + 1], inputs[k + 1] - inputs[k], u)
    return r / np.linalg.norm(r) if rotation else r


def trs_apply(t, r, s, p):
    """T * R * S applied to points p (..., 3)."""
    return np.asarray(t, float) + qrot(r, np.asarray(p, float) * np.asarray(s, float))


def trs_matrix(t, r, s):
    m = np.eye(4)
    for c in range(3):
        e = np.zeros(3)
        e[c] = s[c]
        m[:3, c] = qrot(r, e)
    m[:3, 3] = t
    return m


class RawGltf:
    """Minimal independent reader: JSON + buffers, tightly packed
    non-sparse accessors only (asserted)."""

    SIZES = {5120: "b", 5121: "B", 5122: "h", 5123: "H", 5125: "I", 5126: "f"}
    NCOMP = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}

    def __init__(self, path):
        data = open(path, "rb").read()
        self.bin = None
        if data[:4] == b"glTF":
            jlen = struct.unpack_from("<I", data, 12)[0]
            self.doc = json.loads(data[20:20 + jlen])
            pos = 20 + jlen
            if pos + 8 <= len(data):
                blen = struct.unpack_from("<I", data, pos)[0]
                self.bin = data[pos + 8:pos + 8 + blen]
        else:
            self.doc = json.loads(data)
            uri = self.doc["buffers"][0]["uri"]
            if uri.startswith("data:"):
                self.bin = base64.b64decode(uri.split(",", 1)[1])
            else:
                self.bin = open(os.path.join(os.path.dirname(path), uri), "rb").read()

    def read(self, index):
        a = self.doc["accessors"][index]
        assert "sparse" not in a
        bv = self.doc["bufferViews"][a["bufferView"]]
        fmt = self.SIZES[a["componentType"]]
        n = self.NCOMP[a["type"]]
        size = struct.calcsize(fmt)
        assert bv.get("byteStride") in (None, n * size)
        off = bv.get("byteOffset", 0) + a.get("byteOffset", 0)
        vals = struct.unpack_from("<%d%s" % (a["count"] * n, fmt), self.bin, off)
        return np.array(vals, dtype=np.float64).reshape(a["count"], n)


# --------------------------------------------------------------------------
# Part 1: built-in checks
# --------------------------------------------------------------------------

class Builder:
    """Builds a glTF document and its single buffer."""

    def __init__(self):
        self.buf = bytearray()
        self.doc = {"asset": {"version": "2.0"}, "buffers": [], "bufferViews": [], "accessors": []}

    def view(self, data, stride=None):
        while len(self.buf) % 4:
            self.buf.append(0)
        bv = {"buffer": 0, "byteOffset": len(self.buf), "byteLength": len(data)}
        if stride:
            bv["byteStride"] = stride
        self.buf += data
        self.doc["bufferViews"].append(bv)
        return len(self.doc["bufferViews"]) - 1

    def accessor(self, **kw):
        self.doc["accessors"].append(kw)
        return len(self.doc["accessors"]) - 1

    def floats(self, values, typ):
        values = [float(x) for x in np.asarray(values, dtype=np.float64).ravel()]
        n = ref.TYPE_SHAPES[typ][0] * ref.TYPE_SHAPES[typ][1]
        v = self.view(struct.pack("<%df" % len(values), *values))
        return self.accessor(bufferView=v, componentType=5126, count=len(values) // n, type=typ)

    def ints(self, values, typ, ct, normalized=False):
        fmt = {5120: "b", 5121: "B", 5122: "h", 5123: "H", 5125: "I"}[ct]
        values = [int(x) for x in np.asarray(values).ravel()]
        n = ref.TYPE_SHAPES[typ][0] * ref.TYPE_SHAPES[typ][1]
        v = self.view(struct.pack("<%d%s" % (len(values), fmt), *values))
        kw = dict(bufferView=v, componentType=ct, count=len(values) // n, type=typ)
        if normalized:
            kw["normalized"] = True
        return self.accessor(**kw)

    def write(self, directory, name, mode):
        doc = json.loads(json.dumps(self.doc))
        data = bytes(self.buf)
        path = os.path.join(directory, name)
        if mode == "data":
            doc["buffers"] = [{"byteLength": len(data),
                               "uri": "data:application/octet-stream;base64," + base64.b64encode(data).decode()}]
            with open(path + ".gltf", "w") as f:
                json.dump(doc, f)
            return path + ".gltf"
        if mode == "external":
            doc["buffers"] = [{"byteLength": len(data), "uri": name + "%20data.bin"}]
            with open(os.path.join(directory, name + " data.bin"), "wb") as f:
                f.write(data)
            with open(path + ".gltf", "w") as f:
                json.dump(doc, f)
            return path + ".gltf"
        doc["buffers"] = [{"byteLength": len(data)}]
        j = json.dumps(doc).encode()
        j += b" " * (-len(j) % 4)
        b = data + b"\0" * (-len(data) % 4)
        glb = struct.pack("<III", 0x46546C67, 2, 12 + 8 + len(j) + 8 + len(b))
        glb += struct.pack("<II", len(j), 0x4E4F534A) + j + struct.pack("<II", len(b), 0x004E4942) + b
        with open(path + ".glb", "wb") as f:
            f.write(glb)
        return path + ".glb"


def part1_accessors(tmp):
    b = Builder()
    # interleaved: u8 normalised VEC2 at offset 0, i16 normalised VEC2 at offset 4, stride 8
    inter = b""
    a_vals = [(0, 255), (128, 51), (255, 0)]
    b_vals = [(-32768, 32767), (0, -16384), (16384, 1)]
    for (x, y), (z, w) in zip(a_vals, b_vals):
        inter += struct.pack("<BBxxhh", x, y, z, w)
    v = b.view(inter, stride=8)
    acc_u8 = b.accessor(bufferView=v, componentType=5121, count=3, type="VEC2", normalized=True)
    acc_i16 = b.accessor(bufferView=v, byteOffset=4, componentType=5122, count=3, type="VEC2", normalized=True)
    acc_i8 = b.ints([-128, -127, 0, 64, 127], "SCALAR", 5120, normalized=True)
    acc_u16 = b.ints([0, 65535, 32768], "VEC3", 5123, normalized=True)
    acc_u32 = b.ints([0, 4000000000, 7], "SCALAR", 5125)
    acc_i16raw = b.ints([-5, 300], "VEC2", 5122)
    # float VEC3 with an accessor byteOffset of 12 into its view
    fv = b.view(struct.pack("<6f", 9, 9, 9, 1.5, -2.25, 3.0))
    acc_foff = b.accessor(bufferView=fv, byteOffset=12, componentType=5126, count=1, type="VEC3")
    # MAT2 u8: each 2-byte column padded to 4 bytes
    m2 = b.view(struct.pack("<BBxxBBxx", 1, 2, 3, 4) + struct.pack("<BBxxBBxx", 5, 6, 7, 8))
    acc_m2 = b.accessor(bufferView=m2, componentType=5121, count=2, type="MAT2")
    # MAT3 i16: each 6-byte column padded to 8 bytes
    m3 = b.view(struct.pack("<hhhxxhhhxxhhhxx", 1, 2, 3, 4, 5, 6, 7, 8, -9))
    acc_m3 = b.accessor(bufferView=m3, componentType=5122, count=1, type="MAT3")
    # MAT3 u8 normalised: 3-byte columns padded to 4
    m3b = b.view(struct.pack("<BBBxBBBxBBBx", 255, 0, 0, 0, 255, 0, 0, 0, 51))
    acc_m3b = b.accessor(bufferView=m3b, componentType=5121, count=1, type="MAT3", normalized=True)
    # MAT4 float, column-major: translation (7, 8, 9) in elements 12..14
    acc_m4 = b.floats([1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 3, 0, 7, 8, 9, 1], "MAT4")
    # sparse over a bufferView: [1 2 3 4 5] with [1] = 20, [3] = 40
    base = b.view(struct.pack("<5f", 1, 2, 3, 4, 5))
    si = b.view(struct.pack("<HH", 1, 3))
    sv = b.view(struct.pack("<2f", 20, 40))
    acc_sp = b.accessor(bufferView=base, componentType=5126, count=5, type="SCALAR",
                        sparse={"count": 2, "indices": {"bufferView": si, "componentType": 5123},
                                "values": {"bufferView": sv}})
    # sparse without a bufferView (zeros), u8 indices with a byteOffset, normalised i8 values
    si2 = b.view(struct.pack("<BBB", 0, 9, 2))
    sv2 = b.view(struct.pack("<bb", 127, -127))
    acc_sp0 = b.accessor(componentType=5120, normalized=True, count=3, type="VEC2",
                         sparse={"count": 1, "indices": {"bufferView": si2, "byteOffset": 2, "componentType": 5121},
                                 "values": {"bufferView": sv2}})
    want = {
        acc_u8: [[0, 1], [128 / 255, 51 / 255], [1, 0]],
        acc_i16: [[-1, 1], [0, -16384 / 32767], [16384 / 32767, 1 / 32767]],
        acc_i8: [[-1], [-1], [0], [64 / 127], [1]],
        acc_u16: [[0, 1, 32768 / 65535]],
        acc_u32: [[0], [4000000000], [7]],
        acc_i16raw: [[-5, 300]],
        acc_foff: [[1.5, -2.25, 3.0]],
        acc_m2: [[1, 2, 3, 4], [5, 6, 7, 8]],
        acc_m3: [[1, 2, 3, 4, 5, 6, 7, 8, -9]],
        acc_m3b: [[1, 0, 0, 0, 1, 0, 0, 0, 0.2]],
        acc_m4: [[1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 3, 0, 7, 8, 9, 1]],
        acc_sp: [[1], [20], [3], [40], [5]],
        acc_sp0: [[0, 0], [0, 0], [1, -1]],
    }
    names = {acc_u8: "u8 normalised, stride 8", acc_i16: "i16 normalised, offset 4 stride 8",
             acc_i8: "i8 normalised (-128 -> -1)", acc_u16: "u16 normalised", acc_u32: "u32",
             acc_i16raw: "i16 not normalised", acc_foff: "float, accessor byteOffset",
             acc_m2: "MAT2 u8 column padding", acc_m3: "MAT3 i16 column padding",
             acc_m3b: "MAT3 u8 normalised column padding", acc_m4: "MAT4 float",
             acc_sp: "sparse over bufferView", acc_sp0: "sparse without bufferView"}
    results = {}
    for mode in ("data", "glb", "external"):
        path = b.write(tmp, "accessors_" + mode, mode)
        g = ref.Gltf(path)
        results[mode] = {i: g.accessor(i) for i in want}
        if mode == "data":
            for i, w in want.items():
                close("accessor: " + names[i], results[mode][i], w, 1e-15)
            m = g.accessor_matrices(acc_m4)[0]
            close("accessor: MAT4 column-major -> translation column", m[:3, 3], [7, 8, 9], 0)
            close("accessor: MAT4 column-major -> diagonal", np.diag(m), [1, 2, 3, 1], 0)
    for mode in ("glb", "external"):
        same = all(np.array_equal(results[mode][i], results["data"][i]) for i in want)
        check("buffers: %s gives the same accessors as a data: URI" % mode, same)


def part1_interpolation():
    inputs = np.array([0.0, 1.0, 2.0])
    ts = [-1.0, 0.0, 0.5, 1.0, 1.99, 2.0, 3.0]
    vals = np.array([[0.0], [10.0], [20.0]])
    got = ref.sample_channel(inputs, vals, "STEP", ts, False)[:, 0]
    close("interp: STEP with clamping", got, [0, 0, 0, 10, 10, 20, 20], 0)
    got = ref.sample_channel(inputs, vals, "LINEAR", ts, False)[:, 0]
    close("interp: LINEAR with clamping", got, [0, 0, 5, 10, 19.9, 20, 20], 1e-12)
    got = ref.sample_channel(np.array([0.5]), vals[:1], "LINEAR", ts, False)[:, 0]
    close("interp: single key is constant", got, [0] * len(ts), 0)
    # slerp: 0 -> 120 degrees about X, at 0.3: 36 degrees
    q0 = axis_angle([1, 0, 0], 0)
    q1 = axis_angle([1, 0, 0], 120)
    got = ref.sample_channel(np.array([0.0, 1.0]), np.array([q0, q1]), "LINEAR", [0.3], True)[0]
    close("interp: slerp 0->120 deg about X at 0.3 = 36 deg", got, axis_angle([1, 0, 0], 36), 1e-12)
    # shortest path: second key stored negated (dot < 0)
    q1n = -axis_angle([0, 0, 1], 90)
    got = ref.sample_channel(np.array([0.0, 1.0]), np.array([q0, q1n]), "LINEAR", [0.5], True)[0]
    want = axis_angle([0, 0, 1], 45)
    err = min(np.max(np.abs(got - want)), np.max(np.abs(got + want)))
    check("interp: slerp takes the shortest path (45 deg, not 135)", err < 1e-12, "error %.3g" % err)
    # cubic spline, td = 2, at u = 0.25
    inputs = np.array([1.0, 3.0])
    a = np.array([[0.0], [-1.0]])
    v = np.array([[2.0], [4.0]])
    bt = np.array([[3.0], [0.0]])
    got = ref.sample_channel(inputs, v, "CUBICSPLINE", [0.0, 1.5, 3.5], False, a, bt)[:, 0]
    u = 0.25
    want = ((2 * u ** 3 - 3 * u ** 2 + 1) * 2 + 2 * (u ** 3 - 2 * u ** 2 + u) * 3
            + (-2 * u ** 3 + 3 * u ** 2) * 4 + 2 * (u ** 3 - u ** 2) * -1)
    close("interp: CUBICSPLINE Hermite (tangents x interval), clamped ends", got, [2, want, 4], 1e-12)


def part1_scene(tmp):
    """Hand-built scene: skin with 12 influences per vertex (3 sets), zero
    weights, u8 normalised weights, ignored mesh-node transform, animation,
    a rigid mesh under a non-uniformly scaled parent, a node outside every
    scene, and morph weight precedence."""
    b = Builder()
    d = b.doc
    c_root = np.array([1.0, 0.0, 0.0])
    c_tip = np.array([1.0, 2.0, 0.0])
    q90z = axis_angle([0, 0, 1], 90)
    pos = np.array([[1.0, 3.0, 0.0], [2.0, 2.0, 1.0], [0.0, 1.0, 0.5]])
    nrm = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    # vertex 0: 12 influences, weights 12..1 alternating joints 0 / 1;
    # vertex 1: all weights zero, first joint 1; vertex 2: only joint 0
    w12 = np.zeros((3, 12))
    j12 = np.zeros((3, 12), dtype=int)
    w12[0] = np.arange(12, 0, -1)
    j12[0] = [k % 2 for k in range(12)]
    j12[1, 0] = 1
    w12[2, 5] = 0.3
    attrs = {"POSITION": b.floats(pos, "VEC3"), "NORMAL": b.floats(nrm, "VEC3")}
    for s in range(3):
        attrs["JOINTS_%d" % s] = b.ints(j12[:, 4 * s:4 * s + 4], "VEC4", 5123)
        attrs["WEIGHTS_%d" % s] = b.floats(w12[:, 4 * s:4 * s + 4], "VEC4")
    # primitive 1: u8 normalised weights 100 and 50 (-> 2/3, 1/3), u8 joints
    attrs1 = {"POSITION": b.floats([[1.0, 4.0, 0.0]], "VEC3"),
              "JOINTS_0": b.ints([1, 0, 0, 0], "VEC4", 5121),
              "WEIGHTS_0": b.ints([100, 50, 0, 0], "VEC4", 5121, normalized=True)}
    ibm = []
    for c in (c_root, c_tip):
        m = np.eye(4)
        m[:3, 3] = -c
        ibm += list(m.T.ravel())
    rigid_pos = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 2.0]])
    rigid_nrm = np.array([[1.0, 1.0, 0.0], [1.0, 0.0, 1.0]]) / math.sqrt(2)
    morph_base = b.floats([[0.0, 0.0, 0.0]], "VEC3")
    morph_delta = b.floats([[0.0, 4.0, 0.0]], "VEC3")
    d["meshes"] = [
        {"primitives": [{"attributes": attrs}, {"attributes": attrs1}]},
        {"primitives": [{"attributes": {"POSITION": b.floats(rigid_pos, "VEC3"),
                                        "NORMAL": b.floats(rigid_nrm, "VEC3")}}]},
        {"primitives": [{"attributes": {"POSITION": morph_base}, "targets": [{"POSITION": morph_delta}]}],
         "weights": [0.5]},
    ]
    d["skins"] = [{"joints": [0, 1], "inverseBindMatrices": b.floats(ibm, "MAT4")}]
    q_r4 = axis_angle([0, 1, 0], 90)
    d["nodes"] = [
        {"translation": list(c_root), "children": [1]},                        # 0 root joint
        {"translation": [0.0, 2.0, 0.0]},                                      # 1 tip joint
        {"mesh": 0, "skin": 0, "translation": [5.0, 5.0, 5.0]},               # 2 skinned (own transform ignored)
        {"translation": [0.0, 0.0, 10.0], "scale": [2.0, 1.0, 1.0], "children": [4]},  # 3
        {"mesh": 1, "rotation": list(q_r4)},                                   # 4 rigid under 3
        {"mesh": 1, "matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 3, 4, 5, 1]},  # 5 outside the scene
        {"mesh": 2, "weights": [0.25]},                                        # 6 node weights
        {"mesh": 2},                                                           # 7 mesh weights
    ]
    d["scenes"] = [{"nodes": [0, 2, 3, 6, 7]}]
    d["scene"] = 0
    times = b.floats([0.0, 1.0], "SCALAR")
    rot = b.floats([[0, 0, 0, 1], list(q90z)], "VEC4")
    wts = b.floats([0.0, 1.0], "SCALAR")
    d["animations"] = [{"name": "turn", "samplers": [{"input": times, "output": rot},
                                                     {"input": times, "output": wts}],
                        "channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}},
                                     {"sampler": 1, "target": {"node": 7, "path": "weights"}}]}]
    path = b.write(tmp, "scene", "glb")
    ev = ref.Evaluator(ref.Gltf(path))
    res = ev.evaluate(0, [0.0, 0.5, 1.0], want_normals=True)
    got_ids = [(r["node_index"], r["mesh_index"], r["primitive_index"]) for r in res]
    check("scene: instances in node order, node outside the scene included",
          got_ids == [(2, 0, 0), (2, 0, 1), (4, 1, 0), (5, 1, 0), (6, 2, 0), (7, 2, 0)], str(got_ids))

    def turn(p, deg):  # tip joint rotation about c_tip (Z)
        return c_tip + qrot(axis_angle([0, 0, 1], deg), p - c_tip)

    # vertex 0: kept weights 12..5 (sum 68) on joints 0,1,0,1,...: joint 0 gets 12+10+8+6 = 36
    w_tip0 = (11 + 9 + 7 + 5) / 68.0
    for k, deg in enumerate([0.0, 45.0, 90.0]):
        p = res[0]["positions"][k]
        want0 = (1 - w_tip0) * pos[0] + w_tip0 * turn(pos[0], deg)
        want1 = turn(pos[1], deg)   # all-zero weights -> joint of JOINTS_0[0] (tip), weight 1
        want2 = pos[2]              # single influence on the root, renormalised to 1
        close("scene: skinned t=%g (8 largest of 12, zero weights, renormalise)" % [0, 0.5, 1][k],
              p, [want0, want1, want2], 1e-12)
        want = (2 / 3) * turn(np.array([1.0, 4.0, 0.0]), deg) + (1 / 3) * np.array([1.0, 4.0, 0.0])
        close("scene: u8 normalised weights renormalised t=%g" % [0, 0.5, 1][k], res[1]["positions"][k][0],
              want, 1e-12)
    n = res[0]["normals"][2]
    a = (1 - w_tip0) * nrm[0] + w_tip0 * qrot(q90z, nrm[0])
    close("scene: skinned normals = normalize(blended 3x3 n)", n[0], a / np.linalg.norm(a), 1e-12)
    # rigid: world = T(0,0,10) S(2,1,1) * R_y(90)
    wp = np.array([0.0, 0.0, 10.0]) + np.array([2.0, 1.0, 1.0]) * qrot(q_r4, rigid_pos)
    close("scene: rigid world = parent * local", res[2]["positions"][0], wp, 1e-12)
    wn = qrot(q_r4, rigid_nrm) / np.array([2.0, 1.0, 1.0])
    wn /= np.linalg.norm(wn, axis=1, keepdims=True)
    close("scene: rigid normals use the inverse transpose", res[2]["normals"][0], wn, 1e-12)
    close("scene: node matrix", res[3]["positions"][1], rigid_pos + [3, 4, 5], 1e-12)
    close("scene: morph weights from node.weights", res[4]["positions"][0][0], [0, 1, 0], 1e-12)
    close("scene: morph weights animated (over mesh.weights)",
          [r[0] for r in res[5]["positions"]], [[0, 0, 0], [0, 2, 0], [0, 4, 0]], 1e-12)
    res = ev.evaluate(None, [0.0], want_normals=False)
    close("scene: rest pose uses mesh.weights", res[5]["positions"][0][0], [0, 2, 0], 1e-12)


# --------------------------------------------------------------------------
# Part 2: assets
# --------------------------------------------------------------------------

def evaluate(path, anim, times, normals=False):
    ev = ref.Evaluator(ref.Gltf(path))
    return ev, ev.evaluate(anim, times, normals)


def part2_triangle(assets):
    path = os.path.join(assets, "gltf/khronos/triangle.gltf")
    raw = RawGltf(path)
    want = raw.read(raw.doc["meshes"][0]["primitives"][0]["attributes"]["POSITION"])
    _, res = evaluate(path, None, [0.0])
    close("triangle: rest positions are the accessor values exactly", res[0]["positions"][0], want, 0)
    print("     triangle positions: %s" % res[0]["positions"][0].ravel().tolist())


def part2_twist_tube(assets):
    path = os.path.join(assets, "gltf/synthetic/twist_tube.glb")
    raw = RawGltf(path)
    bind = raw.read(raw.doc["meshes"][0]["primitives"][0]["attributes"]["POSITION"])
    nrm = raw.read(raw.doc["meshes"][0]["primitives"][0]["attributes"]["NORMAL"])
    names = [a.get("name") for a in raw.doc["animations"]]
    twist = names.index("twist")
    bend = names.index("bend")
    ev, res = evaluate(path, twist, [0.0, 1.0, 2.0], normals=True)
    close("twist_tube: t=0 skinned = bind positions", res[0]["positions"][0], bind, 1e-6)
    y = bind[:, 1]
    tip = y >= 4 / 3 - 1e-6
    for k, deg in ((1, 85.0), (2, 170.0)):
        th = math.radians(deg)
        x, z = bind[tip, 0], bind[tip, 2]
        want = np.stack([x * math.cos(th) + z * math.sin(th), bind[tip, 1],
                         -x * math.sin(th) + z * math.cos(th)], axis=1)
        close("twist_tube: twist t=%d: %d tip vertices (y >= 4/3) rotated %g deg about Y"
              % (k, int(tip.sum()), deg), res[0]["positions"][k][tip], want, 2e-6)
        p = res[0]["positions"][k][tip][np.argmax(bind[tip, 1] + bind[tip, 0])]
        if k == 2:
            print("     twist t=2: tip vertex %s -> %s" % (bind[tip][np.argmax(bind[tip, 1] + bind[tip, 0])].round(6).tolist(),
                                                        p.round(6).tolist()))
    q = axis_angle([0, 1, 0], 170)
    close("twist_tube: twist t=2 tip normals rotated 170 deg", res[0]["normals"][2][tip],
          qrot(q, nrm[tip]) / np.linalg.norm(nrm[tip], axis=1, keepdims=True), 2e-6)
    blend = (y > 2 / 3 + 1e-6) & (y < 4 / 3 - 1e-6)
    w = (y[blend] - 2 / 3) / (2 / 3)
    want = (1 - w)[:, None] * bind[blend] + w[:, None] * qrot(q, bind[blend])
    close("twist_tube: twist t=2 blend zone = (1-w) p + w R p, w = (y - 2/3)/(2/3) (%d vertices)"
          % int(blend.sum()), res[0]["positions"][2][blend], want, 1e-5)
    root = y <= 2 / 3 + 1e-6
    close("twist_tube: twist t=2 root vertices do not move", res[0]["positions"][2][root], bind[root], 1e-6)
    _, res = evaluate(path, bend, [2.0])
    c = np.array([0.0, 1.0, 0.0])
    want = c + qrot(axis_angle([1, 0, 0], 120), bind[tip] - c)
    close("twist_tube: bend t=2: tip vertices rotated 120 deg about X through the tip joint",
          res[0]["positions"][0][tip], want, 2e-6)


def part2_interpolation(assets):
    path = os.path.join(assets, "gltf/khronos/interpolation_test.gltf")
    raw = RawGltf(path)
    ev = ref.Evaluator(ref.Gltf(path))
    for ai, anim in enumerate(raw.doc["animations"]):
        ch = anim["channels"][0]
        smp = anim["samplers"][ch["sampler"]]
        node = ch["target"]["node"]
        p = ch["target"]["path"]
        inputs = raw.read(smp["input"])[:, 0]
        out = [row for row in raw.read(smp["output"])]
        interp = smp.get("interpolation", "LINEAR")
        t0, t1 = inputs[0], inputs[-1]
        times = [t0 - 0.5, t0, (inputs[0] + inputs[1]) / 2, inputs[1], inputs[1] + 0.3 * (inputs[2] - inputs[1]),
                 inputs[2], inputs[3] + 0.75 * (inputs[4] - inputs[3]), t1, t1 + 1.0]
        want = np.array([hand_sample(inputs, out, interp, t, p == "rotation") for t in times])
        got = ev.sample_animation(ai, times)[(node, p)]
        if p == "rotation":  # q and -q are the same rotation
            sign = np.sign(np.sum(got * want, axis=1))[:, None]
            got = got * np.where(sign == 0, 1, sign)
        close("interpolation_test: %-24s %-11s %-11s channel at %d times" % (anim.get("name"), interp, p, len(times)),
              got, want, 1e-9)
        # the animated cube's vertices = T R S (hand) of its rest vertices
        nd = raw.doc["nodes"][node]
        mesh = raw.doc["meshes"][nd["mesh"]]
        base = raw.read(mesh["primitives"][0]["attributes"]["POSITION"])
        res = ev.evaluate(ai, times)
        inst = [r for r in res if r["node_index"] == node][0]
        errs = []
        for k, t in enumerate(times):
            trs = {"translation": nd.get("translation", [0, 0, 0]), "rotation": nd.get("rotation", [0, 0, 0, 1]),
                   "scale": nd.get("scale", [1, 1, 1])}
            trs[p] = want[k]
            w = trs_apply(trs["translation"], trs["rotation"], trs["scale"], base)
            errs.append(np.max(np.abs(inst["positions"][k] - w)))
        check("interpolation_test: %-24s vertices = T R S by hand" % anim.get("name"), max(errs) < 1e-9,
              "max error %.3g" % max(errs))
        if anim.get("name") == "Step Translation":
            print("     Step Translation y at %s: %s" % ([round(t, 4) for t in times],
                                                         [round(float(x), 4) for x in want[:, 1]]))


def part2_cubic_spline(assets):
    path = os.path.join(assets, "gltf/synthetic/cubic_spline.glb")
    raw = RawGltf(path)
    ev = ref.Evaluator(ref.Gltf(path))
    names = {n.get("name"): i for i, n in enumerate(raw.doc["nodes"])}
    ch = ev.sample_animation(0, [1.0])
    rx = float(ch[(names["root"], "translation")][0, 0])
    sx = float(ch[(names["tip"], "scale")][0, 0])
    check("cubic_spline: root translation x at 1 s = 0.2696 (README)", abs(rx - 0.2696) < 5e-5, "%.6f" % rx)
    check("cubic_spline: tip scale x at 1 s = 1.1518 (README)", abs(sx - 1.1518) < 5e-5, "%.6f" % sx)
    anim = raw.doc["animations"][0]
    for c in anim["channels"]:
        smp = anim["samplers"][c["sampler"]]
        inputs = raw.read(smp["input"])[:, 0]
        out = [row for row in raw.read(smp["output"])]
        p = c["target"]["path"]
        ts = [0.3, 1.0, 1.333333, 1.5, 1.9]
        want = np.array([hand_sample(inputs, out, "CUBICSPLINE", t, p == "rotation") for t in ts])
        got = ev.sample_animation(0, ts)[(c["target"]["node"], p)]
        close("cubic_spline: %s %s at %s vs hand Hermite" % (raw.doc["nodes"][c["target"]["node"]]["name"], p, ts),
              got, want, 1e-9)
    # vertices weighted fully to the root move by the root translation only
    prim = raw.doc["meshes"][0]["primitives"][0]["attributes"]
    bind = raw.read(prim["POSITION"])
    j = raw.read(prim["JOINTS_0"]).astype(int)
    w = raw.read(prim["WEIGHTS_0"])
    root_slot = raw.doc["skins"][0]["joints"].index(names["root"])
    only_root = np.all((w == 0) | (j == root_slot), axis=1) & (w.sum(axis=1) > 0)
    _, res = evaluate(path, 0, [1.0])
    close("cubic_spline: %d root-only vertices at 1 s = bind + (%.4f, 0, 0)" % (int(only_root.sum()), rx),
          res[0]["positions"][0][only_root], bind[only_root] + [rx, 0, 0], 1e-9)


def part2_morph_cube(assets):
    path = os.path.join(assets, "gltf/assimp/AnimatedMorphCube-glTF/AnimatedMorphCube.gltf")
    raw = RawGltf(path)
    nd = raw.doc["nodes"][0]
    prim = raw.doc["meshes"][0]["primitives"][0]
    base = raw.read(prim["attributes"]["POSITION"])
    bn = raw.read(prim["attributes"]["NORMAL"])
    dp = [raw.read(t["POSITION"]) for t in prim["targets"]]
    dn = [raw.read(t["NORMAL"]) for t in prim["targets"]]
    smp = raw.doc["animations"][0]["samplers"][0]
    inputs = raw.read(smp["input"])[:, 0]
    out = raw.read(smp["output"]).reshape(len(inputs), 2)
    times = [0.0, 0.7, 1.2345, 2.1, 3.3, 4.2, 5.0]
    ev, res = evaluate(path, 0, times, normals=True)
    m = trs_matrix(nd.get("translation", [0, 0, 0]), nd["rotation"], nd["scale"])
    ninv = np.linalg.inv(m[:3, :3]).T
    perr = nerr = 0.0
    shown = []
    for k, t in enumerate(times):
        w = hand_sample(inputs, [row for row in out], "LINEAR", t)
        shown.append(np.round(w, 4).tolist())
        p = base + w[0] * dp[0] + w[1] * dp[1]
        wp = p @ m[:3, :3].T + m[:3, 3]
        n = (bn + w[0] * dn[0] + w[1] * dn[1]) @ ninv.T
        n /= np.linalg.norm(n, axis=1, keepdims=True)
        perr = max(perr, float(np.max(np.abs(res[0]["positions"][k] - wp))))
        nerr = max(nerr, float(np.max(np.abs(res[0]["normals"][k] - n))))
    check("AnimatedMorphCube: positions = node TRS (base + w . deltas) at %d times" % len(times),
          perr < 1e-9, "max error %.3g; weights %s" % (perr, shown))
    check("AnimatedMorphCube: normals with morphed normal deltas", nerr < 1e-9, "max error %.3g" % nerr)


def part2_morph_skin(assets):
    path = os.path.join(assets, "gltf/synthetic/morph_skin.glb")
    raw = RawGltf(path)
    prim = raw.doc["meshes"][0]["primitives"][0]
    base = raw.read(prim["attributes"]["POSITION"])
    d = [raw.read(t["POSITION"]) for t in prim["targets"]]
    j = raw.read(prim["attributes"]["JOINTS_0"]).astype(int)
    w = raw.read(prim["attributes"]["WEIGHTS_0"])
    w = w / w.sum(axis=1, keepdims=True)
    names = {n.get("name"): i for i, n in enumerate(raw.doc["nodes"])}
    joints = raw.doc["skins"][0]["joints"]
    tip_slot = joints.index(names["tip"])
    w_tip = np.sum(np.where(j == tip_slot, w, 0.0), axis=1)
    c = np.array(raw.doc["nodes"][names["tip"]]["translation"], dtype=float)
    ev, res = evaluate(path, 0, [0.0, 0.5, 1.0, 2.0])
    P = res[0]["positions"]
    close("morph_skin: t=0 = bind positions", P[0], base, 1e-6)
    close("morph_skin: t=2 = bind + flatten delta (tip back at rest)", P[3], base + d[1], 1e-6)
    for k, (t, wts, deg) in enumerate([(0.5, (0.5, 0.0), 50.0), (1.0, (1.0, 0.0), 100.0)], start=1):
        pm = base + wts[0] * d[0] + wts[1] * d[1]
        want = (1 - w_tip)[:, None] * pm + w_tip[:, None] * (c + qrot(axis_angle([1, 0, 0], deg), pm - c))
        close("morph_skin: t=%g weights %s, tip %g deg about X, deltas turn with the joints" % (t, wts, deg),
              P[k], want, 2e-6)


def part2_eight_influences(assets):
    path = os.path.join(assets, "gltf/synthetic/eight_influences.glb")
    raw = RawGltf(path)
    a = raw.doc["meshes"][0]["primitives"][0]["attributes"]
    bind = raw.read(a["POSITION"])
    j = np.concatenate([raw.read(a["JOINTS_0"]), raw.read(a["JOINTS_1"])], axis=1).astype(int)
    w = np.concatenate([raw.read(a["WEIGHTS_0"]), raw.read(a["WEIGHTS_1"])], axis=1)
    hist = np.bincount((w > 0).sum(axis=1), minlength=9)
    want_hist = {4: 114, 5: 384, 6: 384, 7: 384, 8: 1128}
    check("eight_influences: influence histogram as README (4:114 5:384 6:384 7:384 8:1128)",
          all(hist[k] == v for k, v in want_hist.items()), str({k: int(hist[k]) for k in range(9) if hist[k]}))
    # naive per-vertex skinning with hand-composed joint world matrices
    g = ref.Gltf(path)
    ev = ref.Evaluator(g)
    nodes = raw.doc["nodes"]
    parent = {c: i for i, n in enumerate(nodes) for c in n.get("children", [])}
    skin = raw.doc["skins"][0]
    ibm = raw.read(skin["inverseBindMatrices"]).reshape(-1, 4, 4).transpose(0, 2, 1)
    times = [0.0, 0.77, 1.5]
    ch = ev.sample_animation(0, times)
    res = ev.evaluate(0, times)
    sel = np.arange(0, len(bind), 7)
    worst = 0.0
    for k, t in enumerate(times):
        def world(i):
            nd = nodes[i]
            tt = ch.get((i, "translation"), [nd.get("translation", [0, 0, 0])])[k if (i, "translation") in ch else 0]
            rr = ch.get((i, "rotation"), [nd.get("rotation", [0, 0, 0, 1])])[k if (i, "rotation") in ch else 0]
            ss = ch.get((i, "scale"), [nd.get("scale", [1, 1, 1])])[k if (i, "scale") in ch else 0]
            m = trs_matrix(tt, rr, ss)
            return world(parent[i]) @ m if i in parent else m
        S = [world(jn) @ ibm[ji] for ji, jn in enumerate(skin["joints"])]
        for v in sel:
            acc = np.zeros(3)
            tot = w[v].sum()
            for s in range(8):
                acc += (w[v, s] / tot) * (S[j[v, s]][:3, :3] @ bind[v] + S[j[v, s]][:3, 3])
            worst = max(worst, float(np.max(np.abs(acc - res[0]["positions"][k][v]))))
    check("eight_influences: vectorised skinning = naive per-vertex loop (%d vertices x %d times)"
          % (len(sel), len(times)), worst < 1e-9, "max error %.3g" % worst)


def part2_rest_is_bind(assets):
    for rel in ("synthetic/twist_tube.glb", "synthetic/eight_influences.glb", "synthetic/morph_skin.glb",
                "synthetic/scaled_joint.glb", "synthetic/cubic_spline.glb", "pab/arnaud_locomotion.glb"):
        path = os.path.join(assets, "gltf", rel)
        raw = RawGltf(path)
        ev, res = evaluate(path, None, [0.0])
        worst = 0.0
        for r in res:
            prim = raw.doc["meshes"][r["mesh_index"]]["primitives"][r["primitive_index"]]
            bind = raw.read(prim["attributes"]["POSITION"])
            worst = max(worst, float(np.max(np.abs(r["positions"][0] - bind))))
        diag = ev.rest_diagonal()
        check("rest pose = bind positions: %s" % rel, worst <= 1e-5 * diag,
              "max error %.3g = %.2g x diagonal %.3g" % (worst, worst / diag, diag))


def part2_cli(assets, tmp):
    path = os.path.join(assets, "gltf/synthetic/twist_tube.glb")
    tool = os.path.join(HERE, "gltf_reference.py")
    cmp_tool = os.path.join(HERE, "compare_export.py")
    out1 = os.path.join(tmp, "a.json")
    out2 = os.path.join(tmp, "b.json")
    r = subprocess.run([sys.executable, tool, path, "--anim", "1", "--samples", "3", "--normals", "-o", out1],
                       capture_output=True, text=True)
    check("cli: gltf_reference.py --samples runs", r.returncode == 0, r.stderr.strip())
    if r.returncode:
        return
    doc = json.load(open(out1))
    ok = (doc["times"] == [0.0, 1.0, 2.0] and doc["anim"]["index"] == 1 and doc["anim"]["name"] == "twist"
          and doc["anim"]["duration"] == 2.0 and len(doc["primitives"]) == 1
          and doc["primitives"][0]["node_index"] == 2 and doc["primitives"][0]["vertex_count"] == 4355
          and len(doc["primitives"][0]["positions_by_time"]) == 3
          and len(doc["primitives"][0]["positions_by_time"][2]) == 3 * 4355
          and len(doc["primitives"][0]["normals_by_time"]) == 3)
    check("cli: output schema (times 0,1,2; anim twist 2 s; node 2; 4355 vertices)", ok)
    _, res = evaluate(path, 1, [0.0, 1.0, 2.0], normals=True)
    close("cli: JSON positions = evaluation (fixed-point output)",
          np.array(doc["primitives"][0]["positions_by_time"]), np.stack([p.ravel() for p in res[0]["positions"]]),
          1e-9)
    r = subprocess.run([sys.executable, tool, path, "--anim", "1", "--times", "0,1,2", "--normals", "-o", out2],
                       capture_output=True, text=True)
    check("cli: --times gives the same file as --samples", r.returncode == 0 and
          open(out1).read() == open(out2).read())
    r = subprocess.run([sys.executable, cmp_tool, out1, out2], capture_output=True, text=True)
    check("cli: compare_export identical files -> exit 0", r.returncode == 0, r.stdout.strip().splitlines()[-1])
    # perturb one coordinate by 2e-5 x diagonal: must fail at 1e-5, pass at 1e-4
    doc2 = json.load(open(out2))
    lo = np.min(np.array(doc2["primitives"][0]["positions_by_time"][0]).reshape(-1, 3), axis=0)
    hi = np.max(np.array(doc2["primitives"][0]["positions_by_time"][0]).reshape(-1, 3), axis=0)
    diag = float(np.linalg.norm(hi - lo))
    doc2["primitives"][0]["positions_by_time"][1][100] += 2e-5 * diag
    json.dump(doc2, open(out2, "w"))
    r = subprocess.run([sys.executable, cmp_tool, out1, out2], capture_output=True, text=True)
    check("cli: compare_export 2e-5 x diagonal error -> exit 1", r.returncode == 1,
          r.stdout.strip().splitlines()[-1])
    r = subprocess.run([sys.executable, cmp_tool, out1, out2, "--tol-rel", "1e-4"], capture_output=True, text=True)
    check("cli: compare_export same error with --tol-rel 1e-4 -> exit 0", r.returncode == 0,
          r.stdout.strip().splitlines()[-1])
    doc2["times"][1] = 1.01
    json.dump(doc2, open(out2, "w"))
    r = subprocess.run([sys.executable, cmp_tool, out1, out2], capture_output=True, text=True)
    check("cli: compare_export different times -> exit 1", r.returncode == 1, r.stdout.strip())
    doc2 = json.load(open(out1))
    doc2["primitives"][0]["normals_by_time"][2][5] += 2e-4
    json.dump(doc2, open(out2, "w"))
    r = subprocess.run([sys.executable, cmp_tool, out1, out2], capture_output=True, text=True)
    check("cli: compare_export normal error 2e-4 -> exit 1", r.returncode == 1, r.stdout.strip().splitlines()[-1])
    r = subprocess.run([sys.executable, tool, path, "--anim", "-1", "--samples", "2", "-o", out2],
                       capture_output=True, text=True)
    doc2 = json.load(open(out2))
    check("cli: --anim -1 gives the rest pose with anim null", r.returncode == 0 and doc2["anim"] is None
          and doc2["times"] == [0.0, 0.0])
    r = subprocess.run([sys.executable, tool, path, "--anim", "7", "--samples", "2", "-o", out2],
                       capture_output=True, text=True)
    check("cli: --anim out of range is an error", r.returncode != 0 and "out of range" in r.stderr,
          r.stderr.strip())


def main():
    np.seterr(all="raise")
    with tempfile.TemporaryDirectory() as tmp:
        print("-- part 1: built-in cases")
        part1_accessors(tmp)
        part1_interpolation()
        part1_scene(tmp)
        assets = os.environ.get("SINEW_ASSETS")
        if not assets:
            print("SKIP part 2: SINEW_ASSETS is not set (it should name the folder that holds gltf/)")
        elif not os.path.isdir(os.path.join(assets, "gltf")):
            print("FAIL part 2: SINEW_ASSETS=%s has no gltf/ folder" % assets)
            FAILED.append("assets folder")
        else:
            print("-- part 2: assets")
            part2_triangle(assets)
            part2_twist_tube(assets)
            part2_interpolation(assets)
            part2_cubic_spline(assets)
            part2_morph_cube(assets)
            part2_morph_skin(assets)
            part2_eight_influences(assets)
            part2_rest_is_bind(assets)
            part2_cli(assets, tmp)
    print("%d passed, %d failed" % (PASSED[0], len(FAILED)))
    if FAILED:
        print("failed: " + "; ".join(FAILED))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
