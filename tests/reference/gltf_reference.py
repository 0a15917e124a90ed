#!/usr/bin/env python3
"""Independent reference evaluation of glTF 2.0 skinned / morphed / animated
meshes, written from the glTF 2.0 specification (standard library + numpy).

    gltf_reference.py MODEL --anim INDEX (--samples N | --times t0,t1,...)
                      [--normals] -o OUT.json

Writes, for every (node, mesh primitive) instance (nodes in glTF node index
order, every node that has a mesh, in a scene or not), the world-space
vertex positions (and with --normals the normals) at each requested time,
in the "Export format for comparisons" of docs/DESIGN.md:

    {"model": ..., "anim": {"index": i, "name": ..., "duration": d},
     "method": "lbs", "loop": false, "times": [...],
     "primitives": [{"mesh_index", "primitive_index", "node_index",
                     "vertex_count", "skinned",
                     "positions_by_time": [[x,y,z,...], ...],
                     "normals_by_time": [...]  (only with --normals)}]}

--samples N: N evenly spaced times from 0 to the clip's end (the largest
last input time of all the animation's samplers), both ends included.
--anim -1, or a file without animations: rest pose, "anim": null (the clip
end is then 0, so --samples N gives N times 0).

Evaluation (glTF 2.0 spec; where the spec leaves a choice, the project
conventions of docs/DESIGN.md):
  * node local = matrix, or T * R * S; world = parent world * local, for all
    nodes (a forest; nodes outside every scene included).
  * animation (spec appendix C): STEP, LINEAR (slerp on the shortest path for
    rotations), CUBICSPLINE (Hermite, tangents times the key interval,
    rotations normalised afterwards); values clamped before the first and
    after the last key; normalised-integer outputs decoded; rotation keys
    normalised when read; translation, rotation, scale and weights paths.
  * morph targets: POSITION / NORMAL deltas added in bind space before
    skinning; weights from the animation, else node.weights, else
    mesh.weights, else 0.
  * skinning: sum_i w_i * (world(joint_i) * inverseBindMatrix_i) * p; the
    skinned mesh node's own transform is ignored; all JOINTS_n / WEIGHTS_n
    sets; the 8 largest influences kept; weights renormalised to sum 1 (all
    zero: weight 1 on the first joint of the first set).
  * normals: skinned normalize(sum_i w_i S_i[3x3] n); rigid
    normalize(inverse-transpose(world[3x3]) n).
  * a primitive without JOINTS_0/WEIGHTS_0 on a skinned node, and any
    primitive of a node without a skin, is placed rigidly by world(node).

Numbers are written in fixed point: positions with a quantum of at most
1e-9 of the rest bounding-box diagonal, normals with 9 decimals.
"""

import argparse
import base64
import json
import math
import os
import struct
import sys
import urllib.parse

import numpy as np

__all__ = ["GltfError", "Gltf", "Evaluator", "sample_channel", "main"]


class GltfError(Exception):
    """A file this reference cannot (or must not) evaluate."""


# --------------------------------------------------------------------------
# File and accessor reading
# --------------------------------------------------------------------------

COMPONENT_DTYPES = {
    5120: np.dtype("<i1"),  # BYTE
    5121: np.dtype("<u1"),  # UNSIGNED_BYTE
    5122: np.dtype("<i2"),  # SHORT
    5123: np.dtype("<u2"),  # UNSIGNED_SHORT
    5125: np.dtype("<u4"),  # UNSIGNED_INT
    5126: np.dtype("<f4"),  # FLOAT
}
TYPE_SHAPES = {
    "SCALAR": (1, 1), "VEC2": (1, 2), "VEC3": (1, 3), "VEC4": (1, 4),
    "MAT2": (2, 2), "MAT3": (3, 3), "MAT4": (4, 4),
}

GLB_MAGIC = 0x46546C67
GLB_CHUNK_JSON = 0x4E4F534A
GLB_CHUNK_BIN = 0x004E4942

# Required extensions that change geometry in ways this reference does not
# implement. (KHR_mesh_quantization only allows more accessor types, which
# the accessor decoder handles.)
UNSUPPORTED_REQUIRED = {
    "KHR_draco_mesh_compression", "EXT_meshopt_compression",
    "KHR_meshopt_compression",
}


def decode_normalized(raw):
    """Normalised integer -> float, as the spec's table gives it."""
    dt = raw.dtype
    x = raw.astype(np.float64)
    if dt == np.uint8:
        return x / 255.0
    if dt == np.uint16:
        return x / 65535.0
    if dt == np.uint32:
        return x / 4294967295.0
    if dt == np.int8:
        return np.maximum(x / 127.0, -1.0)
    if dt == np.int16:
        return np.maximum(x / 32767.0, -1.0)
    return x


class Gltf:
    """A parsed glTF 2.0 asset: JSON document plus lazily loaded buffers."""

    def __init__(self, path):
        self.path = path
        self.base_dir = os.path.dirname(os.path.abspath(path))
        self.glb_bin = None
        with open(path, "rb") as f:
            data = f.read()
        if len(data) >= 12 and struct.unpack_from("<I", data, 0)[0] == GLB_MAGIC:
            self.doc = self._parse_glb(data)
        else:
            try:
                self.doc = json.loads(data.decode("utf-8-sig"))
            except (UnicodeDecodeError, ValueError) as e:
                raise GltfError("not a glTF JSON or GLB file: %s" % e)
        if not isinstance(self.doc, dict):
            raise GltfError("top-level JSON value is not an object")
        version = str(self.doc.get("asset", {}).get("version", ""))
        if not version.startswith("2."):
            raise GltfError("asset.version is %r, only glTF 2.x is supported" % version)
        required = set(self.doc.get("extensionsRequired", []) or [])
        bad = sorted(required & UNSUPPORTED_REQUIRED)
        if bad:
            raise GltfError("unsupported required extension(s): %s" % ", ".join(bad))
        self._buffers = {}
        self._accessor_cache = {}

    # -- containers ---------------------------------------------------------
    def _parse_glb(self, data):
        magic, version, length = struct.unpack_from("<III", data, 0)
        if version != 2:
            raise GltfError("GLB version %d, expected 2" % version)
        if length > len(data):
            raise GltfError("GLB header length %d exceeds file size %d" % (length, len(data)))
        pos = 12
        doc = None
        first = True
        while pos + 8 <= length:
            clen, ctype = struct.unpack_from("<II", data, pos)
            pos += 8
            if pos + clen > length:
                raise GltfError("GLB chunk runs past the end of the file")
            chunk = data[pos:pos + clen]
            pos += clen
            if first:
                if ctype != GLB_CHUNK_JSON:
                    raise GltfError("first GLB chunk is not JSON")
                try:
                    doc = json.loads(chunk.decode("utf-8"))
                except (UnicodeDecodeError, ValueError) as e:
                    raise GltfError("bad GLB JSON chunk: %s" % e)
                first = False
            elif ctype == GLB_CHUNK_BIN and self.glb_bin is None:
                self.glb_bin = chunk
        if doc is None:
            raise GltfError("GLB has no JSON chunk")
        return doc

    def arr(self, key):
        v = self.doc.get(key, [])
        if not isinstance(v, list):
            raise GltfError("'%s' is not an array" % key)
        return v

    def get(self, key, index):
        items = self.arr(key)
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(items):
            raise GltfError("%s index %r out of range (%d)" % (key, index, len(items)))
        return items[index]

    def buffer(self, index):
        if index in self._buffers:
            return self._buffers[index]
        b = self.get("buffers", index)
        uri = b.get("uri")
        if uri is None:
            if index != 0 or self.glb_bin is None:
                raise GltfError("buffer %d has no uri and there is no GLB BIN chunk" % index)
            data = self.glb_bin
        elif uri.startswith("data:"):
            head, sep, payload = uri.partition(",")
            if not sep:
                raise GltfError("buffer %d: malformed data: URI" % index)
            if head.endswith(";base64"):
                try:
                    data = base64.b64decode(payload)
                except ValueError as e:
                    raise GltfError("buffer %d: bad base64: %s" % (index, e))
            else:
                data = urllib.parse.unquote_to_bytes(payload)
        else:
            p = os.path.join(self.base_dir, urllib.parse.unquote(uri))
            try:
                with open(p, "rb") as f:
                    data = f.read()
            except OSError as e:
                raise GltfError("buffer %d: cannot read %r: %s" % (index, uri, e.strerror))
        need = b.get("byteLength", 0)
        if len(data) < need:
            raise GltfError("buffer %d holds %d bytes, byteLength says %d" % (index, len(data), need))
        self._buffers[index] = data
        return data

    def buffer_view(self, index):
        """(bytes, byteStride or None) of a bufferView."""
        bv = self.get("bufferViews", index)
        data = self.buffer(bv.get("buffer"))
        off = bv.get("byteOffset", 0)
        length = bv.get("byteLength", 0)
        if off < 0 or length < 0 or off + length > len(data):
            raise GltfError("bufferView %d (offset %d, length %d) runs past its buffer (%d bytes)"
                            % (index, off, length, len(data)))
        return memoryview(data)[off:off + length], bv.get("byteStride")

    # -- accessors ----------------------------------------------------------
    @staticmethod
    def _read_elements(view, offset, count, dtype, shape, stride, what):
        """count elements of shape (cols, rows) from view; matrix columns of
        1- and 2-byte components start on 4-byte boundaries (spec)."""
        cols, rows = shape
        csize = dtype.itemsize
        col_stride = rows * csize
        if cols > 1 and col_stride % 4:
            col_stride += 4 - col_stride % 4
        elem_size = (cols - 1) * col_stride + rows * csize if cols > 1 else rows * csize
        elem_span = cols * col_stride if cols > 1 else rows * csize
        if stride is None or stride == 0:
            stride = elem_span
        if count == 0:
            return np.zeros((0, cols * rows), dtype)
        end = offset + (count - 1) * stride + elem_size
        if offset < 0 or end > len(view):
            raise GltfError("%s: %d elements at offset %d (stride %d) need %d bytes, the view has %d"
                            % (what, count, offset, stride, end, len(view)))
        a = np.ndarray(shape=(count, cols, rows), dtype=dtype, buffer=view, offset=offset,
                       strides=(stride, col_stride, csize))
        return a.reshape(count, cols * rows).copy()

    def accessor_raw(self, index):
        """Accessor elements as stored (component dtype), sparse applied.
        Shape (count, n); matrices column-major, as in the file."""
        key = ("raw", index)
        if key in self._accessor_cache:
            return self._accessor_cache[key]
        acc = self.get("accessors", index)
        ct = acc.get("componentType")
        if ct not in COMPONENT_DTYPES:
            raise GltfError("accessor %d: unknown componentType %r" % (index, ct))
        if acc.get("type") not in TYPE_SHAPES:
            raise GltfError("accessor %d: unknown type %r" % (index, acc.get("type")))
        dtype = COMPONENT_DTYPES[ct]
        shape = TYPE_SHAPES[acc["type"]]
        n = shape[0] * shape[1]
        count = acc.get("count", 0)
        what = "accessor %d" % index
        if acc.get("bufferView") is not None:
            view, stride = self.buffer_view(acc["bufferView"])
            a = self._read_elements(view, acc.get("byteOffset", 0), count, dtype, shape, stride, what)
        else:
            a = np.zeros((count, n), dtype)
        sp = acc.get("sparse")
        if sp:
            scount = sp.get("count", 0)
            si = sp.get("indices", {})
            sv = sp.get("values", {})
            ict = si.get("componentType")
            if ict not in (5121, 5123, 5125):
                raise GltfError("%s: sparse indices componentType %r" % (what, ict))
            iview, _ = self.buffer_view(si.get("bufferView"))
            idx = self._read_elements(iview, si.get("byteOffset", 0), scount,
                                      COMPONENT_DTYPES[ict], (1, 1), None, what + " sparse indices")[:, 0]
            vview, _ = self.buffer_view(sv.get("bufferView"))
            vals = self._read_elements(vview, sv.get("byteOffset", 0), scount, dtype, shape, None,
                                       what + " sparse values")
            if scount and int(idx.max()) >= count:
                raise GltfError("%s: sparse index %d >= count %d" % (what, int(idx.max()), count))
            a = a.copy()
            a[idx.astype(np.int64)] = vals
        self._accessor_cache[key] = a
        return a

    def accessor(self, index, force_normalized=False):
        """Accessor as float64 (count, n): normalised integers decoded,
        other integers converted as they are."""
        key = ("f", index, force_normalized)
        if key in self._accessor_cache:
            return self._accessor_cache[key]
        acc = self.get("accessors", index)
        raw = self.accessor_raw(index)
        if raw.dtype != np.float32 and (acc.get("normalized", False) or force_normalized):
            a = decode_normalized(raw)
        else:
            a = raw.astype(np.float64)
        self._accessor_cache[key] = a
        return a

    def accessor_matrices(self, index):
        """MAT4 accessor as (count, 4, 4) row-major (m[row, col])."""
        acc = self.get("accessors", index)
        if acc.get("type") != "MAT4":
            raise GltfError("accessor %d: expected MAT4, got %r" % (index, acc.get("type")))
        a = self.accessor(index)
        return a.reshape(-1, 4, 4).transpose(0, 2, 1).copy()


# --------------------------------------------------------------------------
# Transform maths (batched over a leading axis)
# --------------------------------------------------------------------------

def normalize_rows(q):
    n = np.linalg.norm(q, axis=-1, keepdims=True)
    return np.divide(q, n, out=np.zeros_like(q), where=n > 0)


def quat_to_mat3(q):
    """(..., 4) unit quaternions (x, y, z, w) -> (..., 3, 3)."""
    x, y, z, w = q[..., 0], q[..., 1], q[..., 2], q[..., 3]
    m = np.empty(q.shape[:-1] + (3, 3))
    m[..., 0, 0] = 1 - 2 * (y * y + z * z)
    m[..., 0, 1] = 2 * (x * y - z * w)
    m[..., 0, 2] = 2 * (x * z + y * w)
    m[..., 1, 0] = 2 * (x * y + z * w)
    m[..., 1, 1] = 1 - 2 * (x * x + z * z)
    m[..., 1, 2] = 2 * (y * z - x * w)
    m[..., 2, 0] = 2 * (x * z - y * w)
    m[..., 2, 1] = 2 * (y * z + x * w)
    m[..., 2, 2] = 1 - 2 * (x * x + y * y)
    return m


def trs_to_mat4(t, r, s):
    """(..., 3), (..., 4), (..., 3) -> (..., 4, 4) = T * R * S."""
    m = np.zeros(t.shape[:-1] + (4, 4))
    m[..., :3, :3] = quat_to_mat3(r) * s[..., None, :]
    m[..., :3, 3] = t
    m[..., 3, 3] = 1.0
    return m


def mat3_to_quat(m):
    """Rotation matrix (3, 3) -> unit quaternion (x, y, z, w)."""
    tr = m[0, 0] + m[1, 1] + m[2, 2]
    if tr > 0:
        s = math.sqrt(tr + 1.0) * 2
        q = [(m[2, 1] - m[1, 2]) / s, (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s, 0.25 * s]
    elif m[0, 0] > m[1, 1] and m[0, 0] > m[2, 2]:
        s = math.sqrt(1.0 + m[0, 0] - m[1, 1] - m[2, 2]) * 2
        q = [0.25 * s, (m[0, 1] + m[1, 0]) / s, (m[0, 2] + m[2, 0]) / s, (m[2, 1] - m[1, 2]) / s]
    elif m[1, 1] > m[2, 2]:
        s = math.sqrt(1.0 + m[1, 1] - m[0, 0] - m[2, 2]) * 2
        q = [(m[0, 1] + m[1, 0]) / s, 0.25 * s, (m[1, 2] + m[2, 1]) / s, (m[0, 2] - m[2, 0]) / s]
    else:
        s = math.sqrt(1.0 + m[2, 2] - m[0, 0] - m[1, 1]) * 2
        q = [(m[0, 2] + m[2, 0]) / s, (m[1, 2] + m[2, 1]) / s, 0.25 * s, (m[1, 0] - m[0, 1]) / s]
    q = np.array(q)
    return q / np.linalg.norm(q)


def decompose_mat4(m):
    """Affine 4x4 without shear -> (t, r, s). Only for animated nodes that
    (against the spec) carry a matrix."""
    t = m[:3, 3].copy()
    a = m[:3, :3]
    s = np.linalg.norm(a, axis=0)
    if np.linalg.det(a) < 0:
        s[0] = -s[0]
    rm = a / np.where(s == 0, 1.0, s)[None, :]
    return t, mat3_to_quat(rm), s


# --------------------------------------------------------------------------
# Animation sampling (glTF 2.0 appendix C)
# --------------------------------------------------------------------------

def slerp(q0, q1, u):
    """Rows of unit quaternions, shortest path (negate q1 if dot < 0)."""
    d = np.sum(q0 * q1, axis=-1)
    q1 = np.where((d < 0)[..., None], -q1, q1)
    d = np.abs(d)
    u = u[..., None]
    near = d > 1.0 - 1e-9
    a = np.arccos(np.clip(d, -1.0, 1.0))
    sa = np.sin(a)
    safe = np.where(near, 1.0, sa)
    k0 = np.where(near, 1.0 - u[..., 0], np.sin((1.0 - u[..., 0]) * a) / safe)[..., None]
    k1 = np.where(near, u[..., 0], np.sin(u[..., 0] * a) / safe)[..., None]
    return normalize_rows(k0 * q0 + k1 * q1)


def sample_channel(inputs, values, interpolation, times, is_rotation,
                   in_tangents=None, out_tangents=None):
    """Evaluate one sampler at `times`.

    inputs: (K,) key times; values: (K, C) key values (rotation values already
    normalised); for CUBICSPLINE in_tangents / out_tangents (K, C).
    Returns (len(times), C)."""
    times = np.asarray(times, dtype=np.float64)
    K = len(inputs)
    C = values.shape[1]
    if K == 0:
        raise GltfError("animation sampler with no keys")
    out = np.empty((len(times), C))
    if K == 1:
        out[:] = values[0]
        return out
    before = times <= inputs[0]
    after = times >= inputs[-1]
    out[before] = values[0]
    out[after & ~before] = values[-1]
    mid = ~(before | after)
    if not mid.any():
        return out
    t = times[mid]
    # key k with inputs[k] <= t < inputs[k+1]
    k = np.searchsorted(inputs, t, side="right") - 1
    k = np.clip(k, 0, K - 2)
    t0 = inputs[k]
    t1 = inputs[k + 1]
    td = t1 - t0
    u = np.where(td > 0, (t - t0) / np.where(td > 0, td, 1.0), 1.0)
    v0 = values[k]
    v1 = values[k + 1]
    if interpolation == "STEP":
        r = v0
    elif interpolation == "LINEAR":
        if is_rotation:
            r = slerp(v0, v1, u)
        else:
            r = v0 + (v1 - v0) * u[:, None]
    elif interpolation == "CUBICSPLINE":
        b0 = out_tangents[k]
        a1 = in_tangents[k + 1]
        u2 = u * u
        u3 = u2 * u
        h00 = 2 * u3 - 3 * u2 + 1
        h10 = u3 - 2 * u2 + u
        h01 = -2 * u3 + 3 * u2
        h11 = u3 - u2
        r = (h00[:, None] * v0 + (h10 * td)[:, None] * b0
             + h01[:, None] * v1 + (h11 * td)[:, None] * a1)
        if is_rotation:
            r = normalize_rows(r)
    else:
        raise GltfError("unknown interpolation %r" % interpolation)
    out[mid] = r
    return out


# --------------------------------------------------------------------------
# Evaluation
# --------------------------------------------------------------------------

MAX_INFLUENCES = 8
SKIN_CHUNK_ELEMENTS = 4_000_000  # blended-matrix floats held at once


class Primitive:
    """Decoded data of one mesh primitive (shared by all its instances)."""

    def __init__(self, g, mesh_index, prim_index, prim):
        self.mesh_index = mesh_index
        self.prim_index = prim_index
        attrs = prim.get("attributes", {})
        what = "mesh %d primitive %d" % (mesh_index, prim_index)
        if "POSITION" in attrs:
            self.positions = g.accessor(attrs["POSITION"])[:, :3].copy()
        else:
            self.positions = np.zeros((0, 3))
        V = len(self.positions)
        self.vertex_count = V
        self.normals = None
        if "NORMAL" in attrs:
            self.normals = g.accessor(attrs["NORMAL"])[:, :3].copy()
            if len(self.normals) != V:
                raise GltfError("%s: NORMAL count %d != POSITION count %d" % (what, len(self.normals), V))
        # morph targets: (T, V, 3) deltas (zeros where an attribute is absent)
        targets = prim.get("targets", []) or []
        self.target_count = len(targets)
        self.dpos = np.zeros((len(targets), V, 3))
        self.dnrm = np.zeros((len(targets), V, 3))
        for ti, tg in enumerate(targets):
            if "POSITION" in tg:
                d = g.accessor(tg["POSITION"])[:, :3]
                if len(d) != V:
                    raise GltfError("%s: target %d POSITION count mismatch" % (what, ti))
                self.dpos[ti] = d
            if "NORMAL" in tg:
                d = g.accessor(tg["NORMAL"])[:, :3]
                if len(d) != V:
                    raise GltfError("%s: target %d NORMAL count mismatch" % (what, ti))
                self.dnrm[ti] = d
        # skin influences: all JOINTS_n / WEIGHTS_n sets
        sets = []
        n = 0
        while "JOINTS_%d" % n in attrs and "WEIGHTS_%d" % n in attrs:
            sets.append((attrs["JOINTS_%d" % n], attrs["WEIGHTS_%d" % n]))
            n += 1
        self.has_influences = bool(sets)
        if sets:
            js, ws = [], []
            for ja, wa in sets:
                jr = g.accessor_raw(ja)
                if jr.dtype not in (np.uint8, np.uint16):
                    raise GltfError("%s: JOINTS accessor %d is not unsigned byte/short" % (what, ja))
                w = g.accessor(wa)
                if len(jr) != V or len(w) != V:
                    raise GltfError("%s: JOINTS/WEIGHTS count != POSITION count" % what)
                js.append(jr.astype(np.int64))
                ws.append(w)
            joints = np.concatenate(js, axis=1)
            weights = np.concatenate(ws, axis=1)
            first_joint = joints[:, 0].copy()
            if joints.shape[1] > MAX_INFLUENCES:
                order = np.argsort(-weights, axis=1, kind="stable")[:, :MAX_INFLUENCES]
                joints = np.take_along_axis(joints, order, axis=1)
                weights = np.take_along_axis(weights, order, axis=1)
            s = weights.sum(axis=1)
            zero = s == 0
            weights = weights / np.where(zero, 1.0, s)[:, None]
            if zero.any():
                weights[zero] = 0.0
                weights[zero, 0] = 1.0
                joints[zero, 0] = first_joint[zero]
            self.joints = joints
            self.weights = weights

    def morphed(self, weights_t, nt):
        """Bind-space positions and normals after morphing, for every time.
        weights_t: (nt, T) or None. Returns arrays of shape (V, 3) when they
        do not change with time, else (nt, V, 3)."""
        p = self.positions
        n = self.normals
        if self.target_count and weights_t is not None:
            T = min(self.target_count, weights_t.shape[1])
            w = np.asarray(weights_t[:, :T], dtype=np.float64)
            if np.any(w != 0):
                p = p[None] + np.einsum("tk,kvi->tvi", w, self.dpos[:T])
                if n is not None:
                    n = n[None] + np.einsum("tk,kvi->tvi", w, self.dnrm[:T])
        return p, n

    def skin(self, S, P, N):
        """Linear blend skinning for all times at once.

        S: (nt, J, 4, 4) skinning matrices; P, N: (V, 3) or (nt, V, 3) bind
        positions / normals (N may be None). Returns (nt, V, 3) positions and
        normalised normals (or None)."""
        nt, J = S.shape[:2]
        Sa = np.ascontiguousarray(S[:, :, :3, :].transpose(1, 0, 2, 3)).reshape(J, nt * 12)
        V = self.vertex_count
        outp = np.empty((nt, V, 3))
        outn = np.empty((nt, V, 3)) if N is not None else None
        chunk = max(256, SKIN_CHUNK_ELEMENTS // (nt * 12))
        for a in range(0, V, chunk):
            b = min(V, a + chunk)
            M = np.zeros((b - a, nt * 12))
            buf = np.empty_like(M)
            for c in range(self.joints.shape[1]):
                w = self.weights[a:b, c]
                if not w.any():
                    continue
                np.take(Sa, self.joints[a:b, c], axis=0, out=buf)
                buf *= w[:, None]
                M += buf
            M = M.reshape(b - a, nt, 3, 4)
            pp = P[a:b, None, :] if P.ndim == 2 else P[:, a:b].transpose(1, 0, 2)
            res = (M[..., 0] * pp[..., 0, None] + M[..., 1] * pp[..., 1, None]
                   + M[..., 2] * pp[..., 2, None] + M[..., 3])
            outp[:, a:b] = res.transpose(1, 0, 2)
            if N is not None:
                nn = N[a:b, None, :] if N.ndim == 2 else N[:, a:b].transpose(1, 0, 2)
                res = (M[..., 0] * nn[..., 0, None] + M[..., 1] * nn[..., 1, None]
                       + M[..., 2] * nn[..., 2, None])
                outn[:, a:b] = res.transpose(1, 0, 2)
        if outn is not None:
            for k in range(nt):
                outn[k] = _safe_normalize(outn[k])
        return outp, outn


def _safe_normalize(v):
    n = np.sqrt(np.einsum("ij,ij->i", v, v))
    return np.divide(v, n[:, None], out=np.zeros_like(v), where=n[:, None] > 0)


class Evaluator:
    """Scene graph, animations, morphs and skins of one glTF asset."""

    def __init__(self, g):
        self.g = g
        nodes = g.arr("nodes")
        self.node_count = len(nodes)
        # parents, with checks for shared children and cycles
        self.parent = [-1] * len(nodes)
        for i, nd in enumerate(nodes):
            for c in nd.get("children", []) or []:
                if not isinstance(c, int) or not 0 <= c < len(nodes):
                    raise GltfError("node %d: child %r out of range" % (i, c))
                if self.parent[c] != -1:
                    raise GltfError("node %d has two parents (%d and %d)" % (c, self.parent[c], i))
                if c == i:
                    raise GltfError("node %d is its own child" % i)
                self.parent[c] = i
        self.order = []
        children = [list(nd.get("children", []) or []) for nd in nodes]
        stack = [i for i in range(len(nodes)) if self.parent[i] == -1][::-1]
        while stack:
            i = stack.pop()
            self.order.append(i)
            stack.extend(children[i][::-1])
        if len(self.order) != len(nodes):
            raise GltfError("node hierarchy has a cycle")
        # rest TRS / matrices
        self.rest_t = np.zeros((len(nodes), 3))
        self.rest_r = np.tile([0.0, 0.0, 0.0, 1.0], (len(nodes), 1))
        self.rest_s = np.ones((len(nodes), 3))
        self.rest_matrix = [None] * len(nodes)
        for i, nd in enumerate(nodes):
            if "matrix" in nd:
                m = np.array(nd["matrix"], dtype=np.float64)
                if m.shape != (16,):
                    raise GltfError("node %d: matrix must have 16 numbers" % i)
                self.rest_matrix[i] = m.reshape(4, 4).T.copy()
            self.rest_t[i] = nd.get("translation", [0.0, 0.0, 0.0])
            q = np.array(nd.get("rotation", [0.0, 0.0, 0.0, 1.0]), dtype=np.float64)
            qn = np.linalg.norm(q)
            self.rest_r[i] = q / qn if qn > 0 else [0.0, 0.0, 0.0, 1.0]
            self.rest_s[i] = nd.get("scale", [1.0, 1.0, 1.0])
        self._prims = {}

    # -- animation -----------------------------------------------------------
    def animation_count(self):
        return len(self.g.arr("animations"))

    def animation_duration(self, anim_index):
        anim = self.g.get("animations", anim_index)
        d = 0.0
        for s in anim.get("samplers", []):
            inp = self.g.accessor(s["input"])[:, 0]
            if len(inp):
                d = max(d, float(inp[-1]))
        return d

    def sample_animation(self, anim_index, times):
        """{(node, path): (len(times), C) values} for the animation."""
        g = self.g
        anim = g.get("animations", anim_index)
        samplers = anim.get("samplers", [])
        result = {}
        for ci, ch in enumerate(anim.get("channels", [])):
            tgt = ch.get("target", {})
            node = tgt.get("node")
            path = tgt.get("path")
            if node is None or path not in ("translation", "rotation", "scale", "weights"):
                continue  # e.g. KHR_animation_pointer targets: not evaluated
            if not 0 <= node < self.node_count:
                raise GltfError("animation %d channel %d: node %r out of range" % (anim_index, ci, node))
            si = ch.get("sampler")
            if not isinstance(si, int) or not 0 <= si < len(samplers):
                raise GltfError("animation %d channel %d: sampler %r out of range" % (anim_index, ci, si))
            smp = samplers[si]
            interp = smp.get("interpolation", "LINEAR")
            inputs = g.accessor(smp["input"])[:, 0]
            if np.any(np.diff(inputs) < 0):
                raise GltfError("animation %d sampler %d: input times decrease" % (anim_index, si))
            is_int = g.accessor_raw(smp["output"]).dtype != np.float32
            # rotation / weights outputs in integers are normalised (spec)
            out = g.accessor(smp["output"], force_normalized=is_int and path in ("rotation", "weights"))
            K = len(inputs)
            flat = out.ravel()
            if path == "weights":
                C = self._weight_count(node)
                if C == 0:
                    continue
            else:
                C = {"translation": 3, "rotation": 4, "scale": 3}[path]
            per_key = 3 * C if interp == "CUBICSPLINE" else C
            if flat.size != K * per_key:
                raise GltfError("animation %d sampler %d: %d output values for %d keys of %d"
                                % (anim_index, si, flat.size, K, per_key))
            if interp == "CUBICSPLINE":
                kv = flat.reshape(K, 3, C)
                a, v, b = kv[:, 0].copy(), kv[:, 1].copy(), kv[:, 2].copy()
            else:
                a = b = None
                v = flat.reshape(K, C).copy()
            if path == "rotation":
                v = normalize_rows(v)  # rotation keys normalised at import
            result[(node, path)] = sample_channel(inputs, v, interp, times, path == "rotation", a, b)
        return result

    def _weight_count(self, node):
        nd = self.g.get("nodes", node)
        if "mesh" not in nd:
            return len(nd.get("weights", []) or [])
        mesh = self.g.get("meshes", nd["mesh"])
        prims = mesh.get("primitives", [])
        if prims:
            return len(prims[0].get("targets", []) or [])
        return len(mesh.get("weights", []) or [])

    # -- scene graph ---------------------------------------------------------
    def world_matrices(self, times, channels):
        """(node_count, len(times), 4, 4) world matrices."""
        nt = len(times)
        world = np.empty((self.node_count, nt, 4, 4))
        for i in self.order:
            has_anim = any((i, p) in channels for p in ("translation", "rotation", "scale"))
            if self.rest_matrix[i] is not None and not has_anim:
                local = np.broadcast_to(self.rest_matrix[i], (nt, 4, 4))
            else:
                if self.rest_matrix[i] is not None:
                    t0, r0, s0 = decompose_mat4(self.rest_matrix[i])
                else:
                    t0, r0, s0 = self.rest_t[i], self.rest_r[i], self.rest_s[i]
                t = channels.get((i, "translation"), np.broadcast_to(t0, (nt, 3)))
                r = channels.get((i, "rotation"), np.broadcast_to(r0, (nt, 4)))
                s = channels.get((i, "scale"), np.broadcast_to(s0, (nt, 3)))
                local = trs_to_mat4(np.asarray(t), np.asarray(r), np.asarray(s))
            p = self.parent[i]
            world[i] = local if p < 0 else np.matmul(world[p], local)
        return world

    def morph_weights(self, node, times, channels):
        """(len(times), T) target weights of a mesh node."""
        nd = self.g.get("nodes", node)
        mesh = self.g.get("meshes", nd["mesh"])
        T = self._weight_count(node)
        if (node, "weights") in channels:
            w = channels[(node, "weights")]
        else:
            base = nd.get("weights")
            if base is None:
                base = mesh.get("weights")
            if base is None:
                base = [0.0] * T
            base = list(base)[:T] + [0.0] * max(0, T - len(base))
            w = np.broadcast_to(np.array(base, dtype=np.float64), (len(times), T))
        return np.asarray(w)

    def primitive(self, mesh_index, prim_index):
        key = (mesh_index, prim_index)
        if key not in self._prims:
            mesh = self.g.get("meshes", mesh_index)
            prim = mesh.get("primitives", [])[prim_index]
            self._prims[key] = Primitive(self.g, mesh_index, prim_index, prim)
        return self._prims[key]

    def instances(self):
        """[(node_index, mesh_index, primitive_index)] in glTF node order."""
        out = []
        for ni, nd in enumerate(self.g.arr("nodes")):
            if nd.get("mesh") is None:
                continue
            mesh = self.g.get("meshes", nd["mesh"])
            for pi in range(len(mesh.get("primitives", []))):
                out.append((ni, nd["mesh"], pi))
        return out

    def skin_matrices(self, skin_index, world):
        """(len(times), J, 4, 4) skinning matrices world(joint) * IBM."""
        skin = self.g.get("skins", skin_index)
        joints = skin.get("joints", [])
        for j in joints:
            if not 0 <= j < self.node_count:
                raise GltfError("skin %d: joint node %r out of range" % (skin_index, j))
        J = len(joints)
        if skin.get("inverseBindMatrices") is not None:
            ibm = self.g.accessor_matrices(skin["inverseBindMatrices"])
            if len(ibm) < J:
                raise GltfError("skin %d: %d inverse bind matrices for %d joints" % (skin_index, len(ibm), J))
            ibm = ibm[:J]
        else:
            ibm = np.broadcast_to(np.eye(4), (J, 4, 4))
        jw = world[np.array(joints, dtype=np.int64)]  # (J, nt, 4, 4)
        return np.matmul(jw, ibm[:, None]).transpose(1, 0, 2, 3)

    def evaluate(self, anim_index, times, want_normals=False):
        """Evaluate every instance at every time.

        Returns a list of dicts (node_index, mesh_index, primitive_index,
        vertex_count, positions: [(V, 3)] per time, normals: [(V, 3)] per
        time or None)."""
        times = np.asarray(times, dtype=np.float64)
        nt = len(times)
        channels = self.sample_animation(anim_index, times) if anim_index is not None else {}
        world = self.world_matrices(times, channels)
        skin_cache = {}
        results = []
        for ni, mi, pi in self.instances():
            nd = self.g.get("nodes", ni)
            prim = self.primitive(mi, pi)
            weights_t = self.morph_weights(ni, times, channels) if prim.target_count else None
            skin_index = nd.get("skin")
            skinned = skin_index is not None and prim.has_influences
            if skinned:
                if skin_index not in skin_cache:
                    skin_cache[skin_index] = self.skin_matrices(skin_index, world)
                S = skin_cache[skin_index]
                J = S.shape[1]
                if prim.vertex_count and int(prim.joints.max()) >= J:
                    raise GltfError("mesh %d primitive %d: joint index %d >= skin %d joint count %d"
                                    % (mi, pi, int(prim.joints.max()), skin_index, J))
            want_n = want_normals and prim.normals is not None
            P, N = prim.morphed(weights_t, nt)
            if not want_n:
                N = None
            if skinned:
                pos, nrm = prim.skin(S, P, N)
                pos_t = list(pos)
                nrm_t = list(nrm) if nrm is not None else None
            else:
                pos_t, nrm_t = [], ([] if want_n else None)
                for k in range(nt):
                    A = world[ni, k]
                    p = P if P.ndim == 2 else P[k]
                    pos_t.append(p @ A[:3, :3].T + A[:3, 3])
                    if want_n:
                        n = N if N.ndim == 2 else N[k]
                        a3 = A[:3, :3]
                        if np.linalg.det(a3) != 0:
                            nm = np.linalg.inv(a3).T
                        else:  # cofactor matrix: same direction where defined
                            nm = np.array([np.cross(a3[:, 1], a3[:, 2]),
                                           np.cross(a3[:, 2], a3[:, 0]),
                                           np.cross(a3[:, 0], a3[:, 1])]).T
                        nrm_t.append(_safe_normalize(n @ nm.T))
            results.append({
                "node_index": ni, "mesh_index": mi, "primitive_index": pi,
                "vertex_count": prim.vertex_count, "skinned": skinned, "positions": pos_t,
                "normals": nrm_t,
            })
        return results

    def rest_diagonal(self):
        """Bounding-box diagonal of all instances' rest (bind) positions
        placed by their node's rest world transform."""
        world = self.world_matrices(np.zeros(1), {})
        lo = np.full(3, np.inf)
        hi = np.full(3, -np.inf)
        for ni, mi, pi in self.instances():
            p = self.primitive(mi, pi).positions
            if len(p) == 0:
                continue
            A = world[ni, 0]
            q = p @ A[:3, :3].T + A[:3, 3]
            q = q[np.all(np.isfinite(q), axis=1)]
            if len(q):
                lo = np.minimum(lo, q.min(axis=0))
                hi = np.maximum(hi, q.max(axis=0))
        if not np.all(hi >= lo):
            return 0.0
        return float(np.linalg.norm(hi - lo))


# --------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------

def format_numbers(a, decimals):
    """JSON array text of a flat float array in fixed point with `decimals`
    digits, formatted vectorised (fixed width, padded with spaces)."""
    a = np.asarray(a, dtype=np.float64).ravel()
    if a.size == 0:
        return "[]"
    scale = 10.0 ** decimals
    if not np.all(np.isfinite(a)) or float(np.max(np.abs(a))) * scale >= 4e15:
        return json.dumps([float(x) for x in a])
    v = np.rint(a * scale).astype(np.int64)
    neg = v < 0
    av = np.abs(v)
    p10 = 10 ** decimals
    ip = av // p10
    fp = av % p10
    maxip = int(ip.max())
    nint = max(1, len(str(maxip)))
    width = 1 + nint + (1 + decimals if decimals > 0 else 0) + 1
    buf = np.full((a.size, width), 32, dtype=np.uint8)
    ndig = np.ones(a.size, dtype=np.int64)
    for k in range(nint):
        col = nint - k  # column 0 is reserved for a sign
        pk = 10 ** k
        shown = (ip >= pk) | (k == 0)
        buf[:, col] = np.where(shown, 48 + (ip // pk) % 10, 32).astype(np.uint8)
        if k:
            ndig += (ip >= pk)
    if neg.any():
        rows = np.nonzero(neg)[0]
        buf[rows, nint - ndig[rows]] = ord("-")
    if decimals > 0:
        buf[:, nint + 1] = ord(".")
        for k in range(decimals):
            pk = 10 ** (decimals - 1 - k)
            buf[:, nint + 2 + k] = (48 + (fp // pk) % 10).astype(np.uint8)
    buf[:, -1] = ord(",")
    s = buf.tobytes().decode("ascii")
    return "[" + s[:-1] + "]"


def position_decimals(diag):
    if not diag > 0 or not math.isfinite(diag):
        return 9
    return int(min(15, max(0, 9 - math.floor(math.log10(diag)))))


def write_export(path, model_name, anim, times, results, diag, want_normals):
    pdec = position_decimals(diag)
    with open(path, "w") as f:
        f.write('{"model": %s,\n "anim": %s,\n "method": "lbs", "loop": false,\n "times": %s,\n "primitives": [' % (
            json.dumps(model_name), json.dumps(anim), json.dumps([float(t) for t in times])))
        for ii, r in enumerate(results):
            f.write(",\n" if ii else "\n")
            f.write('  {"mesh_index": %d, "primitive_index": %d, "node_index": %d, "vertex_count": %d,'
                    ' "skinned": %s,\n   "positions_by_time": ['
                    % (r["mesh_index"], r["primitive_index"], r["node_index"], r["vertex_count"],
                       "true" if r["skinned"] else "false"))
            for k, p in enumerate(r["positions"]):
                if k:
                    f.write(",\n    ")
                f.write(format_numbers(p, pdec))
            f.write("]")
            if want_normals and r["normals"] is not None:
                f.write(',\n   "normals_by_time": [')
                for k, n in enumerate(r["normals"]):
                    if k:
                        f.write(",\n    ")
                    f.write(format_numbers(n, 9))
                f.write("]")
            f.write("}")
        f.write("\n ]}\n")


def parse_times(text):
    try:
        ts = [float(x) for x in text.split(",") if x.strip() != ""]
    except ValueError:
        raise SystemExit("error: --times expects comma-separated numbers, got %r" % text)
    if not ts or not all(math.isfinite(t) for t in ts):
        raise SystemExit("error: --times expects at least one finite number")
    return ts


def main(argv=None):
    ap = argparse.ArgumentParser(description="glTF 2.0 reference evaluation (positions / normals as JSON)")
    ap.add_argument("model")
    ap.add_argument("--anim", type=int, default=-1, help="animation index, -1 for the rest pose")
    grp = ap.add_mutually_exclusive_group(required=True)
    grp.add_argument("--samples", type=int, help="N evenly spaced times over [0, clip end]")
    grp.add_argument("--times", help="comma-separated times in seconds")
    ap.add_argument("--normals", action="store_true", help="also write normals_by_time")
    ap.add_argument("-o", "--output", required=True, help="output JSON file")
    args = ap.parse_args(argv)
    try:
        with np.errstate(all="ignore"):
            return _run(args)
    except GltfError as e:
        print("error: %s: %s" % (args.model, e), file=sys.stderr)
        return 1
    except OSError as e:
        print("error: %s" % e, file=sys.stderr)
        return 1
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as e:
        print("error: %s: malformed glTF (%s: %s)" % (args.model, type(e).__name__, e), file=sys.stderr)
        return 1


def _run(args):
    g = Gltf(args.model)
    ev = Evaluator(g)
    n_anim = ev.animation_count()
    anim_index = args.anim
    if anim_index == -1 or n_anim == 0:
        anim_index = None
        anim_json = None
        duration = 0.0
    elif 0 <= anim_index < n_anim:
        duration = ev.animation_duration(anim_index)
        anim_json = {"index": anim_index,
                     "name": g.get("animations", anim_index).get("name"),
                     "duration": duration}
    else:
        print("error: --anim %d out of range (the file has %d animation(s))" % (anim_index, n_anim),
              file=sys.stderr)
        return 2
    if args.times is not None:
        times = parse_times(args.times)
    else:
        if args.samples < 1:
            print("error: --samples must be >= 1", file=sys.stderr)
            return 2
        n = args.samples
        times = [0.0] if n == 1 else [duration * i / (n - 1) for i in range(n)]
        if n > 1:
            times[-1] = duration
    results = ev.evaluate(anim_index, times, args.normals)
    write_export(args.output, os.path.basename(args.model), anim_json, times, results,
                 ev.rest_diagonal(), args.normals)
    return 0


if __name__ == "__main__":
    sys.exit(main())
