#!/usr/bin/env python3
"""Writes the seed corpus of the fuzz targets, fuzz/corpus/<target>/.

    python3 fuzz/make_corpus.py     (rewrites the generated seeds)

Seeds are small valid inputs that reach deep into each parser; libFuzzer
mutates them. Sources, all written in this repository:
  gltf_json  the feature files of tests/data/gltf, re-serialised compactly
             (whitespace only costs mutations), plus documents written here
             for what those files do not use (materials, textures, images,
             samplers, texture transforms, cameras, colours, tangents, two
             UV sets, eight influences, quantised keys, sparse-only data)
  glb        the same documents as GLB: the data: URI buffer moved into a
             BIN chunk, plus container variants (unknown chunk, no BIN,
             trailing padding, an image in a bufferView)
  data_uri   data: URIs and relative URIs (base64, percent-escapes, paths)
  accessor   headers in fuzz_accessor.c's layout followed by buffer bytes
  spring     the spring-bone files of tests/data/vrm (VRM 1.0 .gltf, and the
             JSON chunk of the VRM 0.x .vrm), plus documents written here:
             capsule colliders and a node between joints, a branched VRM 0.x
             tree with several roots, missing members (schema and UniVRM
             defaults), both extensions, warnings, and one reader error
  iqm        IQM files written here: the two-joint quad of the IQM tests
             (skinned, one clip), with tangents, colours, every channel
             animated, bounds and a comment, an animation file, a static
             mesh, and nearly valid ones (cut short, a parent after its
             child, a triangle past the vertices, a name past the text, NaN)
  vrm        VRMC_vrm and VRM records for fuzz_model.h's model (full ones,
             ones with every warning, ones with one error each), plus the
             records of tests/data/vrm
  toon       SW_materials_toon, VRMC_materials_mtoon and VRM 0.x
             materialProperties records (full, minimal, clamped, errors)
  bone_map   bone maps in JSON: several rigs' names, nulls, a repeated key,
             and errors (not an object, a key that is no bone, a number)
  vrma       the VRM animation files of tests/data/vrm (.vrma, GLB) and the
             same documents as JSON with a data: URI, plus variants: two
             clips, a draft specVersion, no rest turn on the hips' parent,
             the warnings (unknown bone and preset names, a node given
             twice, tracks the spec forbids) and one reader error each
             (a node past the nodes, a wrong type, an unknown version)

Files whose name starts with "regress_" are not written here: they are
inputs that once found a bug, kept as they were found.

Python 3 standard library only; the output is deterministic.
"""

import base64
import glob
import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CORPUS = os.path.join(HERE, "corpus")
F32, U8, U16, U32, I8, I16 = 5126, 5121, 5123, 5125, 5120, 5122


def compact(doc):
    return json.dumps(doc, separators=(",", ":"), sort_keys=False).encode()


def data_uri(blob):
    return "data:application/octet-stream;base64," + base64.b64encode(blob).decode()


def write(target, name, data):
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def clear_generated(target):
    for path in glob.glob(os.path.join(CORPUS, target, "*")):
        if not os.path.basename(path).startswith("regress_"):
            os.remove(path)


def glb(doc, binary, extra_chunks=(), pad_json=b" "):
    """A GLB of `doc` with `binary` as its BIN chunk (None: no BIN chunk)."""
    body = compact(doc)
    while len(body) % 4:
        body += pad_json
    chunks = [struct.pack("<II", len(body), 0x4E4F534A) + body]
    if binary is not None:
        blob = bytes(binary)
        while len(blob) % 4:
            blob += b"\0"
        chunks.append(struct.pack("<II", len(blob), 0x004E4942) + blob)
    for kind, payload in extra_chunks:
        chunks.append(struct.pack("<II", len(payload), kind) + payload)
    total = 12 + sum(len(c) for c in chunks)
    return struct.pack("<4sII", b"glTF", 2, total) + b"".join(chunks)


def to_glb(doc):
    """Moves buffer 0's data: URI into a BIN chunk (None if it has none)."""
    buffers = doc.get("buffers", [])
    if not buffers or not buffers[0].get("uri", "").startswith("data:"):
        return None
    doc = json.loads(json.dumps(doc))
    uri = doc["buffers"][0].pop("uri")
    return glb(doc, base64.b64decode(uri.split(",", 1)[1]))


class Doc:
    """A glTF document with one buffer, built view by view."""

    def __init__(self, extensions=()):
        self.doc = {"asset": {"version": "2.0"}}
        if extensions:
            self.doc["extensionsUsed"] = list(extensions)
        self.bin = bytearray()

    def add(self, key, obj):
        self.doc.setdefault(key, []).append(obj)
        return len(self.doc[key]) - 1

    def accessor(self, code, ctype, kind, values, normalized=False, stride=None):
        elements = [struct.pack("<" + code, *v) if isinstance(v, tuple) else struct.pack("<" + code, v)
                    for v in values]
        data = b"".join(e + bytes((stride or len(e)) - len(e)) for e in elements)
        while len(self.bin) % 4:
            self.bin.append(0)
        view = {"buffer": 0, "byteOffset": len(self.bin), "byteLength": len(data)}
        if stride:
            view["byteStride"] = stride
        self.bin += data
        acc = {"bufferView": self.add("bufferViews", view), "componentType": ctype, "count": len(values),
               "type": kind}
        if normalized:
            acc["normalized"] = True
        return self.add("accessors", acc)

    def finish(self):
        self.doc["buffers"] = [{"byteLength": len(self.bin), "uri": data_uri(bytes(self.bin))}]
        return self.doc


TRIANGLE = [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0)]


def materials_doc():
    """Materials, textures, samplers, images (data: URI and bufferView),
    texture transforms, unlit, cameras, tangents, colours, two UV sets."""
    d = Doc(["KHR_texture_transform", "KHR_materials_unlit"])
    pos = d.accessor("3f", F32, "VEC3", TRIANGLE)
    nrm = d.accessor("3f", F32, "VEC3", [(0.0, 0.0, 1.0)] * 3)
    tan = d.accessor("4f", F32, "VEC4", [(1.0, 0.0, 0.0, 1.0)] * 3)
    uv0 = d.accessor("2f", F32, "VEC2", [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)])
    uv1 = d.accessor("2H", U16, "VEC2", [(0, 0), (65535, 0), (0, 65535)], normalized=True)
    col = d.accessor("4B", U8, "VEC4", [(255, 0, 0, 255), (0, 255, 0, 128), (0, 0, 255, 0)], normalized=True)
    idx = d.accessor("B", U8, "SCALAR", [0, 1, 2])
    png = b"\x89PNG\r\n\x1a\n" + bytes(8)  # never decoded by the loader: any bytes do
    while len(d.bin) % 4:
        d.bin.append(0)
    image_view = d.add("bufferViews", {"buffer": 0, "byteOffset": len(d.bin), "byteLength": len(png)})
    d.bin += png
    d.add("images", {"uri": "data:image/png;base64," + base64.b64encode(png).decode(), "name": "uri"})
    d.add("images", {"bufferView": image_view, "mimeType": "image/png"})
    d.add("samplers", {"magFilter": 9729, "minFilter": 9987, "wrapS": 33648, "wrapT": 33071})
    d.add("textures", {"sampler": 0, "source": 0})
    d.add("textures", {"source": 1})
    d.add("materials", {
        "name": "lit",
        "pbrMetallicRoughness": {
            "baseColorFactor": [1.0, 0.5, 0.25, 1.0],
            "baseColorTexture": {"index": 0, "texCoord": 1, "extensions": {"KHR_texture_transform": {
                "offset": [0.5, 0.0], "rotation": 1.5, "scale": [2.0, 2.0], "texCoord": 0}}},
            "metallicFactor": 0.25, "roughnessFactor": 0.75,
            "metallicRoughnessTexture": {"index": 1}},
        "normalTexture": {"index": 1, "scale": 0.5},
        "occlusionTexture": {"index": 0, "strength": 0.5},
        "emissiveTexture": {"index": 1},
        "emissiveFactor": [0.1, 0.2, 0.3],
        "alphaMode": "MASK", "alphaCutoff": 0.25, "doubleSided": True})
    d.add("materials", {"alphaMode": "BLEND", "extensions": {"KHR_materials_unlit": {}}})
    d.add("meshes", {"primitives": [
        {"attributes": {"POSITION": pos, "NORMAL": nrm, "TANGENT": tan, "TEXCOORD_0": uv0, "TEXCOORD_1": uv1,
                        "COLOR_0": col, "_CUSTOM": pos}, "indices": idx, "material": 0, "mode": 4},
        {"attributes": {"POSITION": pos}, "material": 1, "mode": 0}]})
    d.add("cameras", {"type": "perspective", "perspective": {"yfov": 1.0, "znear": 0.1}})
    d.add("nodes", {"mesh": 0, "camera": 0, "rotation": [0.0, 0.0, 0.0, 2.0]})
    d.add("scenes", {"nodes": [0], "name": "materials"})
    d.doc["scene"] = 0
    return d.finish()


def skin8_doc():
    """Two JOINTS/WEIGHTS sets (eight influences), quantised keys, STEP and
    CUBICSPLINE, a morph target with targetNames and animated weights."""
    d = Doc(["KHR_mesh_quantization"])
    pos = d.accessor("3b", I8, "VEC3", [(0, 0, 0), (127, 0, 0), (0, 127, 0)], normalized=True)
    j0 = d.accessor("4B", U8, "VEC4", [(0, 1, 2, 3)] * 3)
    w0 = d.accessor("4B", U8, "VEC4", [(100, 50, 25, 10), (255, 0, 0, 0), (0, 0, 0, 0)], normalized=True)
    j1 = d.accessor("4H", U16, "VEC4", [(4, 5, 6, 7)] * 3)
    w1 = d.accessor("4f", F32, "VEC4", [(0.1, 0.1, 0.1, 0.1), (0.0, 0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 0.0)])
    delta = d.accessor("3h", I16, "VEC3", [(0, 0, 32767), (0, 0, 0), (-32768, 0, 0)], normalized=True)
    ibm = d.accessor("16f", F32, "MAT4", [tuple(1.0 if r == c else 0.0 for c in range(4) for r in range(4))] * 8)
    times = d.accessor("f", F32, "SCALAR", [0.0, 0.5, 1.0])
    rot = d.accessor("4h", I16, "VEC4", [(0, 0, 0, 32767), (0, 0, 23170, 23170), (0, 0, 32767, 0)],
                     normalized=True)
    cubic = d.accessor("3f", F32, "VEC3", [(0.0, 0.0, 0.0), (1.0, 2.0, 3.0), (0.0, 0.0, 0.0)] * 3)
    weights = d.accessor("B", U8, "SCALAR", [0, 128, 255], normalized=True)
    d.add("meshes", {"primitives": [{"attributes": {"POSITION": pos, "JOINTS_0": j0, "WEIGHTS_0": w0,
                                                    "JOINTS_1": j1, "WEIGHTS_1": w1},
                                     "targets": [{"POSITION": delta}]}],
                     "weights": [0.5], "extras": {"targetNames": ["bulge"]}})
    for i in range(8):
        node = {"name": "joint%d" % i, "translation": [0.0, float(i), 0.0]}
        if i + 1 < 8:
            node["children"] = [i + 1]
        d.add("nodes", node)
    d.add("nodes", {"mesh": 0, "skin": 0, "weights": [0.25]})
    d.add("skins", {"joints": list(range(8)), "inverseBindMatrices": ibm, "skeleton": 0})
    d.add("scenes", {"nodes": [0, 8]})
    d.add("animations", {"name": "mixed", "samplers": [
        {"input": times, "output": rot, "interpolation": "STEP"},
        {"input": times, "output": cubic, "interpolation": "CUBICSPLINE"},
        {"input": times, "output": weights}],
        "channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}},
                     {"sampler": 1, "target": {"node": 2, "path": "translation"}},
                     {"sampler": 2, "target": {"node": 8, "path": "weights"}},
                     {"sampler": 1, "target": {"node": 3, "path": "scale"}}]})
    return d.finish()


def sparse_only_doc():
    """Accessors without bufferView (zeros), sparse over them, a strided
    view, a matrix node and an unsigned-int index buffer."""
    d = Doc()
    inter = d.accessor("3f", F32, "VEC3", TRIANGLE, stride=16)
    idx = d.accessor("I", U32, "SCALAR", [2, 1, 0])
    sidx = d.accessor("H", U16, "SCALAR", [1, 2])
    sval = d.accessor("3f", F32, "VEC3", [(0.0, 0.0, 1.0), (0.0, 0.0, -1.0)])
    zeros = d.add("accessors", {"componentType": F32, "count": 3, "type": "VEC3",
                                "sparse": {"count": 2, "indices": {"bufferView": d.doc["accessors"][sidx]["bufferView"],
                                                                   "componentType": U16},
                                           "values": {"bufferView": d.doc["accessors"][sval]["bufferView"]}}})
    d.add("meshes", {"primitives": [{"attributes": {"POSITION": inter}, "indices": idx,
                                     "targets": [{"POSITION": zeros}]}]})
    d.add("nodes", {"mesh": 0, "matrix": [2.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0,
                                          1.0, 2.0, 3.0, 1.0]})
    d.add("scenes", {"nodes": [0]})
    return d.finish()


def minimal_docs():
    yield "minimal.gltf", {"asset": {"version": "2.0"}}
    yield "extensions.gltf", {"asset": {"version": "2.1", "minVersion": "2.0", "generator": "g"},
                              "extensionsUsed": ["KHR_texture_transform", "EXT_unknown"],
                              "extensionsRequired": ["KHR_materials_unlit"], "scene": 0, "scenes": [{}],
                              "extras": {"any": [1, "two", None, True]}}


def gltf_json_and_glb():
    clear_generated("gltf_json")
    clear_generated("glb")
    docs = []
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "data", "gltf", "*.gltf"))):
        with open(path) as f:
            doc = json.load(f)
        doc["asset"].pop("generator", None)
        docs.append((os.path.basename(path), doc))
    docs += [("materials.gltf", materials_doc()), ("skin8.gltf", skin8_doc()),
             ("sparse_only.gltf", sparse_only_doc())]
    docs += list(minimal_docs())
    for name, doc in docs:
        write("gltf_json", name, compact(doc))
        binary = to_glb(doc)
        if binary is not None:
            write("glb", name.replace(".gltf", ".glb"), binary)
    with open(os.path.join(ROOT, "tests", "data", "gltf", "container.glb"), "rb") as f:
        write("glb", "container.glb", f.read())
    # container variants around the smallest document
    tri = Doc()
    tri.accessor("3f", F32, "VEC3", TRIANGLE)
    tri.add("meshes", {"primitives": [{"attributes": {"POSITION": 0}}]})
    tri.add("nodes", {"mesh": 0})
    doc = tri.finish()
    blob = base64.b64decode(doc["buffers"][0].pop("uri").split(",", 1)[1])
    write("glb", "unknown_chunk.glb", glb(doc, blob, extra_chunks=[(0x12345678, b"abcd")]))
    write("glb", "nul_padding.glb", glb(doc, blob, pad_json=b"\0"))
    write("glb", "no_bin.glb", glb({"asset": {"version": "2.0"}}, None))
    trailing = glb(doc, blob) + b"\0" * 8
    write("glb", "trailing_bytes.glb", trailing)


def data_uris():
    clear_generated("data_uri")
    uris = {
        "base64.txt": "data:application/octet-stream;base64,AAECAwQFBgc=",
        "base64_pad2.txt": "data:application/gltf-buffer;base64,AAECAwQ=",
        "base64_nopad.txt": "data:;base64,AAECAwQFBgcI",
        "base64_all.txt": "DATA:image/png;BASE64,+/+/" + base64.b64encode(bytes(range(48))).decode(),
        "plain.txt": "data:,hello%20world%00%ff",
        "plain_mime.txt": "data:text/plain;charset=utf-8,a%2Cb,c",
        "relative.txt": "buffers/mesh%20data.bin",
        "dotdot.txt": "a/../b/./c.bin",
        "escape_dotdot.txt": "%2e%2e/outside.bin",
        "absolute.txt": "/etc/file.bin",
        "windows.txt": "C:\\dir\\file.bin",
        "scheme.txt": "https://example.com/a.bin",
    }
    for name, uri in uris.items():
        write("data_uri", name, uri.encode())


def accessor_seed(ctype, normalized, shape, count, stride, elements, flags=0, sparse=None, payload=b""):
    """fuzz_accessor.c's 21-byte header, then the payload."""
    components = [I8, U8, I16, U16, U32, F32]
    index_types = [U8, U16, U32]
    h = bytes([components.index(ctype) | (0x80 if normalized else 0), shape]) + struct.pack("<HB", count, stride)
    h += struct.pack("<HH", *elements) + bytes([flags])
    if sparse:
        scount, itype, indices, values = sparse
        h += struct.pack("<HB", scount, index_types.index(itype)) + struct.pack("<HHHH", *indices, *values)
    else:
        h += bytes(11)
    assert len(h) == 21
    return h + payload


def accessors():
    clear_generated("accessor")
    ramp = bytes(range(256))
    seeds = {}
    shapes = ["scalar", "vec2", "vec3", "vec4", "mat2", "mat3", "mat4"]
    names = {I8: "i8", U8: "u8", I16: "i16", U16: "u16", U32: "u32", F32: "f32"}
    for ctype in (I8, U8, I16, U16, U32, F32):
        for shape in (0, 2, 3, 5, 6):
            normalized = ctype in (I8, U8, I16, U16) and shape != 5
            payload = ramp if ctype != F32 else b"".join(struct.pack("<f", i * 0.5) for i in range(64))
            seeds["%s_%s.bin" % (names[ctype], shapes[shape])] = accessor_seed(
                ctype, normalized, shape, 3, 0, (0, len(payload)), payload=payload)
    floats = b"".join(struct.pack("<f", i) for i in range(32))
    seeds["f32_vec3_stride.bin"] = accessor_seed(F32, False, 2, 4, 20, (4, 96), payload=floats)
    # sparse over a bufferView: 2 of 4 elements replaced (indices at 0, values at 8)
    sparse_payload = struct.pack("<HH", 1, 3) + bytes(4) + floats
    seeds["f32_vec3_sparse.bin"] = accessor_seed(F32, False, 2, 4, 0, (8, 48), flags=2,
                                                 sparse=(2, U16, (0, 4), (56, 24)), payload=sparse_payload)
    # sparse only: no bufferView, zeros elsewhere
    seeds["u8_vec4_sparse_only.bin"] = accessor_seed(U8, True, 3, 300, 0, (0, 0), flags=3,
                                                     sparse=(3, U8, (0, 3), (4, 12)),
                                                     payload=bytes([7, 9, 200, 0]) + ramp[:12])
    seeds["u32_scalar_sparse32.bin"] = accessor_seed(U32, False, 0, 5, 0, (0, 20), flags=2,
                                                     sparse=(2, U32, (20, 8), (28, 8)),
                                                     payload=ramp[:20] + struct.pack("<II", 0, 4) + ramp[40:48])
    for name, data in seeds.items():
        write("accessor", name, data)


def spring_nodes(spec):
    """glTF nodes from (name, translation, children, extra members)."""
    nodes = []
    for name, t, children, *extra in spec:
        node = {"name": name}
        if any(t):
            node["translation"] = t
        if children:
            node["children"] = children
        if extra:
            node.update(extra[0])
        nodes.append(node)
    return nodes


def spring_doc(nodes, extensions, roots=(0,)):
    return {"asset": {"version": "2.0"}, "extensionsUsed": sorted(extensions), "extensions": extensions,
            "scene": 0, "scenes": [{"nodes": list(roots)}], "nodes": nodes}


# Root 0 > Head 1 > (Hair1 2 > Hair2 3 > Mid 4 > Hair3 5 > Hair4 6), (Skirt 7 > SkirtL 8, SkirtR 9 > SkirtR2 10)
SPRING_SKELETON = [
    ("Root", [0.0, 0.0, 0.0], [1]),
    ("Head", [0.0, 1.5, 0.0], [2, 7], {"rotation": [0.0, 0.38268343, 0.0, 0.92387953]}),
    ("Hair1", [0.0, 0.05, -0.1], [3]),
    ("Hair2", [0.0, -0.1, 0.0], [4], {"scale": [1.0, 2.0, 1.0]}),
    ("Mid", [0.0, -0.05, 0.01], [5], {"rotation": [0.25881905, 0.0, 0.0, 0.96592583]}),
    ("Hair3", [0.0, -0.1, 0.0], [6]),
    ("Hair4", [0.0, -0.1, 0.02], []),
    ("Skirt", [0.0, -0.6, 0.0], [8, 9]),
    ("SkirtL", [0.1, -0.2, 0.0], []),
    ("SkirtR", [-0.1, -0.2, 0.0], [10]),
    ("SkirtR2", [0.0, -0.2, 0.05], []),
]


def spring_vrm1_capsules():
    """Capsules and a sphere on two nodes, two springs sharing a group, a
    node (Mid) between two joints, scaled and rotated joints, center."""
    bone = {
        "specVersion": "1.0",
        "colliders": [
            {"node": 1, "shape": {"capsule": {"offset": [0.0, 0.0, 0.0], "radius": 0.05, "tail": [0.0, 0.2, 0.0]}}},
            {"node": 1, "shape": {"capsule": {"offset": [0.1, -0.2, -0.1], "radius": 0.02,
                                              "tail": [-0.1, -0.2, -0.1]}}},
            {"node": 7, "shape": {"sphere": {"offset": [0.0, -0.1, 0.0], "radius": 0.15}}},
            {"node": 0, "shape": {"capsule": {"radius": 0.1}}},
        ],
        "colliderGroups": [{"name": "head", "colliders": [0, 1]}, {"name": "legs", "colliders": [2, 3]}],
        "springs": [
            {"name": "hair", "center": 0, "colliderGroups": [0, 1],
             "joints": [{"node": 2, "stiffness": 2.0, "dragForce": 0.1, "gravityPower": 1.0, "hitRadius": 0.03,
                         "gravityDir": [0.0, -1.0, 0.5]},
                        {"node": 3, "stiffness": 0.5, "dragForce": 0.9},
                        {"node": 5, "gravityPower": 3.0, "hitRadius": 0.01},
                        {"node": 6}]},
            {"name": "skirt", "colliderGroups": [1],
             "joints": [{"node": 9, "stiffness": 0.0, "gravityPower": 0.2}, {"node": 10}]},
        ],
    }
    return spring_doc(spring_nodes(SPRING_SKELETON), {"VRMC_springBone": bone})


def spring_vrm0_branched():
    """Several roots per bone group, a branched tree (Skirt: two leaves),
    two collider groups with several spheres, no center."""
    secondary = {
        "boneGroups": [
            {"comment": "hair", "stiffiness": 1.2, "gravityPower": 0.3, "gravityDir": {"x": 0.0, "y": -1.0, "z": 0.2},
             "dragForce": 0.2, "center": -1, "hitRadius": 0.02, "bones": [2], "colliderGroups": [0, 1]},
            {"comment": "skirt", "stiffiness": 0.5, "gravityPower": 1.0, "gravityDir": {"x": 0.0, "y": -1.0, "z": 0.0},
             "dragForce": 0.5, "center": 0, "hitRadius": 0.05, "bones": [7], "colliderGroups": [1]},
        ],
        "colliderGroups": [
            {"node": 1, "colliders": [{"offset": {"x": 0.0, "y": 0.05, "z": 0.0}, "radius": 0.1},
                                      {"offset": {"x": 0.0, "y": -0.1, "z": 0.05}, "radius": 0.04}]},
            {"node": 7, "colliders": [{"offset": {"x": 0.1, "y": -0.1, "z": 0.0}, "radius": 0.08},
                                      {"offset": {"x": -0.1, "y": -0.1, "z": 0.0}, "radius": 0.08}]},
        ],
    }
    return spring_doc(spring_nodes(SPRING_SKELETON), {"VRM": {"specVersion": "0.0", "secondaryAnimation": secondary}})


def spring_missing_members():
    """What the readers default, skip or warn about: joints without
    parameters, a collider group without a name, spring without groups,
    a one-joint spring, out-of-range and out-of-order joints, a shape
    that is neither sphere nor capsule, a negative radius, an unknown
    specVersion."""
    nodes = spring_nodes(SPRING_SKELETON)
    v1 = {
        "specVersion": "1.1-draft",
        "colliders": [{"node": 1, "shape": {"sphere": {}}}, {"node": 1, "shape": {"box": {}}},
                      {"node": 99, "shape": {"sphere": {"radius": 1.0}}},
                      {"node": 7, "shape": {"sphere": {"radius": -1.0}}}],
        "colliderGroups": [{"colliders": [0, 1, 2, 3, 7]}, {"colliders": []}],
        "springs": [
            {"joints": [{"node": 2}, {"node": 3}, {"node": 5}]},
            {"name": "one", "joints": [{"node": 8}]},
            {"name": "backwards", "joints": [{"node": 10}, {"node": 9}]},
            {"name": "range", "joints": [{"node": 9}, {"node": 42}]},
            {"name": "clamped", "colliderGroups": [0, 5],
             "joints": [{"node": 7, "dragForce": 2.0, "stiffness": -1.0, "hitRadius": -0.5}, {"node": 9}]},
        ],
    }
    yield "vrm1_missing.gltf", spring_doc(nodes, {"VRMC_springBone": v1})
    v0 = {"boneGroups": [{"bones": [2]}, {"bones": [7, 99], "colliderGroups": [3]}, {"comment": "empty"}],
          "colliderGroups": [{"node": 1}, {"node": 7, "colliders": [{"radius": 0.1}, {"offset": {"x": 1, "y": 0, "z": 0}}]}]}
    yield "vrm0_missing.gltf", spring_doc(nodes, {"VRM": {"secondaryAnimation": v0}})
    yield "vrm0_no_secondary.gltf", spring_doc(nodes, {"VRM": {"specVersion": "0.0"}})
    yield "vrm1_empty.gltf", spring_doc(nodes, {"VRMC_springBone": {"specVersion": "1.0"}})
    both = {"VRMC_springBone": {"specVersion": "1.0", "springs": [{"joints": [{"node": 7}, {"node": 9}, {"node": 10}]}]},
            "VRM": {"secondaryAnimation": {"boneGroups": [{"bones": [2]}]}}}
    yield "both.gltf", spring_doc(nodes, both)
    # one reader error: a joint's node of the wrong type
    yield "error_node_type.gltf", spring_doc(nodes, {"VRMC_springBone": {"springs": [{"joints": [{"node": "2"}]}]}})
    # a joint on a matrix node, and a chain below another chain's joints
    matrix = spring_nodes(SPRING_SKELETON)
    matrix[3] = {"name": "Hair2", "children": [4],
                 "matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -0.1, 0, 1]}
    yield "vrm1_matrix_nested.gltf", spring_doc(matrix, {"VRMC_springBone": {"springs": [
        {"joints": [{"node": 2}, {"node": 3}, {"node": 4}]}, {"joints": [{"node": 5}, {"node": 6}]},
        {"joints": [{"node": 1}, {"node": 7}, {"node": 9}]}]}})


def springs():
    clear_generated("spring")
    vrm = os.path.join(ROOT, "tests", "data", "vrm")
    docs = []
    for path in sorted(glob.glob(os.path.join(vrm, "*.gltf"))):
        with open(path) as f:
            docs.append((os.path.basename(path), json.load(f)))
    for path in sorted(glob.glob(os.path.join(vrm, "*.vrm"))):
        with open(path, "rb") as f:
            blob = f.read()
        length, kind = struct.unpack_from("<II", blob, 12)
        assert blob[:4] == b"glTF" and kind == 0x4E4F534A
        docs.append((os.path.basename(path).replace(".vrm", ".gltf"), json.loads(blob[20:20 + length])))
    docs += [("vrm1_capsules.gltf", spring_vrm1_capsules()), ("vrm0_branched.gltf", spring_vrm0_branched())]
    docs += list(spring_missing_members())
    for name, doc in docs:
        doc["asset"].pop("generator", None)
        write("spring", name, compact(doc))


# ---- IQM ----------------------------------------------------------------------------------------------

def iqm_file(text, meshes=(), arrays=(), vertex_count=0, tris=(), joints=(), poses=(), anims=(), frames=(),
             channels=0, bounds=None, comment=b"", size_delta=0):
    """An IQM 2 file from its blocks, each 4-aligned after the 124-byte
    header. arrays: (type, format, size, payload bytes); joints: (name,
    parent, t3, r4, s3); poses: (parent, mask, offset10, scale10); anims:
    (name, first, count, framerate, flags); frames: u16 channel values."""
    blocks = []
    at = [124]

    def place(payload):
        if not payload:
            return 0
        offset = at[0]
        blocks.append(payload + bytes(-len(payload) % 4))
        at[0] += len(blocks[-1])
        return offset

    ofs_text = place(text)
    ofs_meshes = place(b"".join(struct.pack("<6I", *m) for m in meshes))
    array_offsets = [place(payload) for _, _, _, payload in arrays]
    ofs_arrays = place(b"".join(struct.pack("<5I", t, 0, f, s, o)
                                for (t, f, s, _), o in zip(arrays, array_offsets)))
    ofs_tris = place(b"".join(struct.pack("<3I", *t) for t in tris))
    ofs_joints = place(b"".join(struct.pack("<Ii10f", n, p, *t, *r, *s) for n, p, t, r, s in joints))
    ofs_poses = place(b"".join(struct.pack("<iI20f", p, m, *o, *s) for p, m, o, s in poses))
    ofs_anims = place(b"".join(struct.pack("<3IfI", *a) for a in anims))
    ofs_frames = place(struct.pack("<%dH" % len(frames), *frames))
    ofs_bounds = place(b"".join(struct.pack("<8f", *b) for b in bounds)) if bounds else 0
    ofs_comment = place(comment)
    size = at[0] + size_delta
    header = [2, size, 0, len(text), ofs_text, len(meshes), ofs_meshes, len(arrays), vertex_count, ofs_arrays,
              len(tris), ofs_tris, 0, len(joints), ofs_joints, len(poses), ofs_poses, len(anims), ofs_anims,
              len(frames) // channels if channels else 0, channels, ofs_frames, ofs_bounds, len(comment),
              ofs_comment, 0, 0]
    return b"INTERQUAKEMODEL\0" + struct.pack("<27I", *header) + b"".join(blocks)


def f32s(values):
    return struct.pack("<%df" % len(values), *values)


# Two joints (root, tip 1 up Z), a 2 x 2 quad skinned to them, clip "wave"
# moving the tip's z over 3 frames: the layout of tests/import/test_iqm.c's
# fixture, written here again.
IQM_TEXT = b"\0root\0tip\0quad\0skin.png\0wave\0run\0"
IQM_REST = [([0, 0, 0], [0, 0, 0, 1], [1, 1, 1]), ([0, 0, 1], [0, 0, 0, 1], [1, 1, 1])]


def iqm_quad_arrays(extra=False):
    arrays = [(0, 7, 3, f32s([-1, 0, 0, 1, 0, 0, 1, 0, 2, -1, 0, 2])),
              (2, 7, 3, f32s([0, -1, 0] * 4)),
              (1, 7, 2, f32s([0, 1, 1, 1, 1, 0, 0, 0])),
              (4, 1, 4, bytes([0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0])),
              (5, 1, 4, bytes([255, 0, 0, 0, 255, 0, 0, 0, 128, 127, 0, 0, 100, 100, 0, 0]))]
    if extra:
        arrays += [(3, 7, 4, f32s([1, 0, 0, 1] * 4)), (6, 1, 4, bytes([255, 0, 0, 255, 0, 255, 0, 255] * 2))]
    return arrays


def iqm_joint_poses(mask_tip=0x4, scale=0.001):
    poses = []
    for j, (t, r, s) in enumerate(IQM_REST):
        offsets = t + r + s
        scales = [0.0] * 10
        if j:
            scales[2] = scale
        poses.append((j - 1, mask_tip if j else 0, offsets, scales))
    return poses


def iqm_seeds():
    joints = [(1 + 5 * j, j - 1, t, r, s) for j, (t, r, s) in enumerate(IQM_REST)]
    mesh = [(10, 15, 0, 4, 0, 2)]
    tris = [(0, 2, 1), (0, 3, 2)]
    seeds = {}
    seeds["quad_wave.iqm"] = iqm_file(IQM_TEXT, mesh, iqm_quad_arrays(), 4, tris, joints, iqm_joint_poses(),
                                      [(24, 0, 3, 0.0, 1)], [0, 500, 1000], channels=1)
    # tangents and colours, two clips at 30 fps (one not looping), every
    # channel of the tip animated (translate, rotate, scale), bounds, a comment
    poses = iqm_joint_poses(mask_tip=0x3FF, scale=0.0001)
    frames = []
    for f in range(4):
        frames += [f * 100 % 65536 for _ in range(10)]
    seeds["quad_full.iqm"] = iqm_file(IQM_TEXT, mesh, iqm_quad_arrays(True), 4, tris, joints, poses,
                                      [(24, 0, 2, 30.0, 1), (29, 2, 2, 30.0, 0)], frames, channels=10,
                                      bounds=[[-1, 0, 0, 1, 0, 2, 2, 2]] * 4, comment=b"made for the fuzzer\0")
    # an animation file: poses and a clip, no joints (the target's skeleton names them)
    seeds["anim_only.iqm"] = iqm_file(IQM_TEXT, poses=iqm_joint_poses(), anims=[(24, 0, 3, 25.0, 0)],
                                      frames=[0, 500, 1000], channels=1)
    # three poses: not the skeleton's count ("pose 0" …)
    three = iqm_joint_poses() + [(1, 0x1, [0.5, 0, 0, 0, 0, 0, 1, 1, 1, 1], [0.001] + [0.0] * 9)]
    seeds["anim_three_poses.iqm"] = iqm_file(IQM_TEXT, poses=three, anims=[(29, 0, 2, 0.0, 1)],
                                             frames=[0, 0, 10, 20], channels=2)
    # a static mesh: no joints, no blend arrays
    seeds["static_quad.iqm"] = iqm_file(IQM_TEXT, mesh, iqm_quad_arrays()[:3], 4, tris)
    # nearly valid: the file cut short (its header still says the full size),
    # a joint after its child, a triangle past the vertices, a name past the text
    full = seeds["quad_wave.iqm"]
    seeds["cut_short.iqm"] = full[:len(full) - 40]
    bad_parent = [(1, 1, IQM_REST[0][0], IQM_REST[0][1], IQM_REST[0][2]), joints[1]]
    seeds["parent_after.iqm"] = iqm_file(IQM_TEXT, mesh, iqm_quad_arrays(), 4, tris, bad_parent, iqm_joint_poses(),
                                         [(24, 0, 3, 0.0, 1)], [0, 500, 1000], channels=1)
    seeds["triangle_past.iqm"] = iqm_file(IQM_TEXT, mesh, iqm_quad_arrays(), 4, [(0, 2, 1), (0, 4, 2)], joints)
    seeds["name_past.iqm"] = iqm_file(IQM_TEXT, [(200, 15, 0, 4, 0, 2)], iqm_quad_arrays(), 4, tris, joints)
    seeds["nan_position.iqm"] = iqm_file(IQM_TEXT, mesh, [(0, 7, 3, f32s([float("nan")] + [0.0] * 11))] +
                                         iqm_quad_arrays()[1:], 4, tris, joints)
    return seeds


def iqms():
    clear_generated("iqm")
    for name, data in iqm_seeds().items():
        write("iqm", name, data)


# ---- VRM extensions, toon materials, bone maps -----------------------------------------------------------
# The records are read on fuzz_model.h's model: file nodes 0 face (3 morph
# targets), 1 hips … 17 rightFoot (VRM names), 18 leftThumbMetacarpal,
# 19 body, 20 root; materials Skin, Cloth, Hair, Face; 3 textures.

VRM_BONES = ["hips", "spine", "chest", "neck", "head", "leftUpperArm", "leftLowerArm", "leftHand", "rightUpperArm",
             "rightLowerArm", "rightHand", "leftUpperLeg", "leftLowerLeg", "leftFoot", "rightUpperLeg",
             "rightLowerLeg", "rightFoot"]


def vrm1_record():
    bones = {name: {"node": i + 1} for i, name in enumerate(VRM_BONES)}
    bones["leftThumbMetacarpal"] = {"node": 18}
    return {
        "specVersion": "1.0",
        "meta": {"name": "Fuzz", "version": "1", "authors": ["A", "B"], "copyrightInformation": "none",
                 "contactInformation": "c", "references": ["r"], "thirdPartyLicenses": "t",
                 "licenseUrl": "https://vrm.dev/licenses/1.0/", "avatarPermission": "onlyAuthor",
                 "allowExcessivelyViolentUsage": False, "allowExcessivelySexualUsage": False,
                 "commercialUsage": "personalNonProfit", "allowPoliticalOrReligiousUsage": False,
                 "allowAntisocialOrHateUsage": False, "creditNotation": "required", "allowRedistribution": False,
                 "modification": "prohibited", "otherLicenseUrl": ""},
        "humanoid": {"humanBones": bones},
        "expressions": {
            "preset": {
                "happy": {"morphTargetBinds": [{"node": 0, "index": 2, "weight": 1.0}],
                          "materialColorBinds": [{"material": 0, "type": "color", "targetValue": [1, 0, 0, 1]}],
                          "overrideBlink": "block", "overrideMouth": "blend", "overrideLookAt": "none"},
                "blink": {"morphTargetBinds": [{"node": 0, "index": 1, "weight": 1.0}], "isBinary": True},
                "aa": {"morphTargetBinds": [{"node": 0, "index": 0, "weight": 0.5}]},
                "lookUp": {"overrideBlink": "blend"},
                "surprised": {"textureTransformBinds": [{"material": 1, "scale": [2, 2], "offset": [0.5, 0]}]},
                "neutral": {},
            },
            "custom": {
                "wink": {"morphTargetBinds": [{"node": 0, "index": 1, "weight": 0.3}],
                         "materialColorBinds": [{"material": 3, "type": "shadeColor", "targetValue": [0, 1, 0, 1]},
                                                {"material": 2, "type": "rimColor", "targetValue": [1, 1, 0, 1]}],
                         "overrideMouth": "block"},
            },
        },
        "lookAt": {"type": "bone", "offsetFromHeadBone": [0, 0.06, 0.02],
                   "rangeMapHorizontalInner": {"inputMaxValue": 90, "outputScale": 10},
                   "rangeMapHorizontalOuter": {"inputMaxValue": 45, "outputScale": 8},
                   "rangeMapVerticalDown": {"inputMaxValue": 90, "outputScale": 10},
                   "rangeMapVerticalUp": {"inputMaxValue": 30, "outputScale": 5}},
        "firstPerson": {"meshAnnotations": [{"node": 0, "type": "thirdPersonOnly"}, {"node": 19, "type": "auto"}]},
    }


def vrm0_record():
    return {
        "specVersion": "0.0", "exporterVersion": "fuzz",
        "meta": {"title": "Old", "version": "0.9", "author": "Cy", "contactInformation": "c", "reference": "r",
                 "texture": 0, "allowedUserName": "Everyone", "violentUssageName": "Disallow",
                 "sexualUssageName": "Disallow", "commercialUssageName": "Allow", "otherPermissionUrl": "",
                 "licenseName": "CC_BY", "otherLicenseUrl": ""},
        "humanoid": {"humanBones": [{"bone": name, "node": i + 1} for i, name in enumerate(VRM_BONES)] +
                     [{"bone": "leftThumbProximal", "node": 18}]},
        "blendShapeMaster": {"blendShapeGroups": [
            {"name": "Joy", "presetName": "joy", "binds": [{"mesh": 0, "index": 2, "weight": 100}],
             "materialValues": [{"materialName": "Skin", "propertyName": "_Color", "targetValue": [1, 0, 0, 1]}]},
            {"name": "Blink", "presetName": "blink", "binds": [{"mesh": 0, "index": 1, "weight": 100}]},
            {"name": "A", "presetName": "a", "binds": [{"mesh": 0, "index": 0, "weight": 80}]},
            {"name": "Blink_L", "presetName": "blink_l", "isBinary": True,
             "binds": [{"mesh": 0, "index": 1, "weight": 50}]},
            {"name": "Uv", "presetName": "unknown", "materialValues": [
                {"materialName": "Cloth", "propertyName": "_MainTex_ST", "targetValue": [2, 2, 0.5, 0]},
                {"materialName": "Hair", "propertyName": "_ShadeColor", "targetValue": [0, 0, 1, 1]}]},
        ]},
        "firstPerson": {"firstPersonBone": 5, "firstPersonBoneOffset": {"x": 0, "y": 0.07, "z": 0.02},
                        "meshAnnotations": [{"mesh": 0, "firstPersonFlag": "ThirdPersonOnly"},
                                            {"mesh": 1, "firstPersonFlag": "Both"}],
                        "lookAtTypeName": "BlendShape",
                        "lookAtHorizontalInner": {"curve": [0, 0, 0, 1, 1, 1, 1, 0], "xRange": 90, "yRange": 1},
                        "lookAtHorizontalOuter": {"curve": [0, 0, 0, 1, 1, 1, 1, 0], "xRange": 45, "yRange": 1},
                        "lookAtVerticalDown": {"xRange": 30, "yRange": 1},
                        "lookAtVerticalUp": {"xRange": 30, "yRange": 1}},
        "materialProperties": [{"name": "Hair", "shader": "VRM/MToon"}],
    }


def vrm_records():
    """(file name, record) pairs: valid and nearly valid."""
    out = [("vrm1_full.json", vrm1_record()), ("vrm0_full.json", vrm0_record())]
    # the records of tests/data/vrm (their node indices meet another model: mostly errors)
    vrm = os.path.join(ROOT, "tests", "data", "vrm")
    with open(os.path.join(vrm, "hair_vrm1.gltf")) as f:
        doc = json.load(f)
    if "VRMC_vrm" in doc.get("extensions", {}):
        out.append(("hair_vrm1.json", doc["extensions"]["VRMC_vrm"]))
    with open(os.path.join(vrm, "hair_vrm0.vrm"), "rb") as f:
        blob = f.read()
    length, kind = struct.unpack_from("<II", blob, 12)
    doc = json.loads(blob[20:20 + length])
    if "VRM" in doc.get("extensions", {}):
        record = doc["extensions"]["VRM"]
        record.pop("secondaryAnimation", None)  # the spring target's
        out.append(("hair_vrm0.json", record))
    # warnings: a bone twice and on a used node, unknown names, an override of
    # its own kind, a preset among the custom ones, an unknown enum, out-of-range maps
    v = vrm1_record()
    v["humanoid"]["humanBones"]["tail"] = {"node": 19}
    v["humanoid"]["humanBones"]["neck"] = {"node": 2}
    v["expressions"]["preset"]["blink"]["overrideBlink"] = "block"
    v["expressions"]["preset"]["aa"]["overrideMouth"] = "sometimes"
    v["expressions"]["custom"]["happy"] = {"isBinary": True}
    v["lookAt"]["type"] = "expression"
    v["lookAt"]["rangeMapHorizontalInner"] = {"inputMaxValue": 400, "outputScale": -1}
    v["firstPerson"]["meshAnnotations"].append({"node": 0, "type": "firstPersonOnly"})
    out.append(("vrm1_warnings.json", v))
    v = vrm0_record()
    v["humanoid"]["humanBones"] += [{"bone": "hips", "node": 20}, {"bone": "unknownBone", "node": 19},
                                    {"bone": "leftThumbIntermediate", "node": 18}]
    v["blendShapeMaster"]["blendShapeGroups"] += [
        {"name": "Joy", "presetName": "joy"}, {"name": "Lookup", "presetName": "lookup", "isBinary": False},
        {"name": "NoMaterial", "materialValues": [{"materialName": "Nothing", "propertyName": "_Color",
                                                   "targetValue": [1, 1, 1, 1]}]}]
    v["firstPerson"]["lookAtTypeName"] = "Bone"
    v["firstPerson"]["meshAnnotations"].append({"mesh": 0, "firstPersonFlag": "Sometimes"})
    out.append(("vrm0_warnings.json", v))
    # errors: an index out of range, a morph target past the mesh's, a wrong type
    v = vrm1_record()
    v["expressions"]["preset"]["happy"]["morphTargetBinds"][0]["index"] = 3
    out.append(("vrm1_target_past.json", v))
    v = vrm1_record()
    v["expressions"]["preset"]["blink"]["morphTargetBinds"][0]["node"] = 5
    out.append(("vrm1_node_without_mesh.json", v))
    v = vrm0_record()
    v["blendShapeMaster"]["blendShapeGroups"][0]["binds"][0]["mesh"] = 7
    out.append(("vrm0_mesh_past.json", v))
    out.append(("vrm1_minimal.json", {"specVersion": "1.0", "humanoid": {"humanBones": {"hips": {"node": 1}}}}))
    out.append(("vrm0_minimal.json", {"humanoid": {"humanBones": []}}))
    out.append(("not_object.json", ["VRMC_vrm"]))
    return out


def vrms():
    clear_generated("vrm")
    for name, record in vrm_records():
        write("vrm", name, compact(record))


def toon_records():
    sw_full = {
        "kind": "face", "controlTexture": {"index": 1, "texCoord": 1, "extensions": {"KHR_texture_transform": {
            "offset": [0.5, 0.25], "rotation": 1.0, "scale": [3, 2], "texCoord": 0}}},
        "rampTexture": {"index": 2}, "shadeColor": [0.3, 0.2, 0.1], "shadingShift": 0.1, "shadingToony": 0.6,
        "regionEnabled": [True, True, False, True, False], "lightArea": 0.5, "rampWidth": 0.8,
        "vertexColorThreshold": True, "vertexColorWidth": False, "backUv1": True, "backForceDark": False,
        "normalTexture": {"index": 0}, "detailNormalTexture": {"index": 2, "texCoord": 1}, "detailGate": 0.8,
        "glints": [{"grid": 40, "spotScale": 0.03, "phaseRate": 0.2, "activeWidth": 0.25, "intensity": 1.5,
                    "lumaLerp": 0.25, "color": [0.7, 0.6, 0.5], "cameraScale": 2},
                   {"grid": 80}],
        "viewLift": -0.05, "bands": [{"exponent": 6, "lower": 0.05, "upper": 0.8, "intensity": 0.3,
                                      "color": [1, 0.8, 0.6]}, {"exponent": 5}],
        "rimColor": [0.2, 0.3, 0.4], "rimWidth": 0.5, "rimPower": 2, "rimLift": 0.05,
        "rimMaskTexture": {"index": 0}, "faceSdfTexture": {"index": 1}, "headNode": 5, "sdfSteepness": 100,
        "sdfOffset": 0.02, "sdfMirror": True, "foldTagMask": 8, "foldUvSet": 1, "fade": 0.75,
        "matcapTexture": {"index": 2}, "matcapMix": 0.3, "parallaxHeight": 0.25, "irisRadius": 0.5,
        "outline": True, "outlineWidth": 2, "outlineColor": [0.1, 0.1, 0.1], "outlineMaxDistance": 5,
        "uvScroll": [0.2, 0.1], "uvRotation": 0.5}
    mtoon = {
        "specVersion": "1.0", "transparentWithZWrite": False, "renderQueueOffsetNumber": 0,
        "shadeColorFactor": [0.4, 0.3, 0.2], "shadeMultiplyTexture": {"index": 0},
        "shadingShiftFactor": -0.2, "shadingShiftTexture": {"index": 1, "scale": 0.5}, "shadingToonyFactor": 0.9,
        "giEqualizationFactor": 0.9, "matcapFactor": [1, 1, 1], "matcapTexture": {"index": 2},
        "parametricRimColorFactor": [0.25, 0.5, 1], "rimMultiplyTexture": {"index": 1}, "rimLightingMixFactor": 1,
        "parametricRimFresnelPowerFactor": 5, "parametricRimLiftFactor": 0.1,
        "outlineWidthMode": "screenCoordinates", "outlineWidthFactor": 0.005,
        "outlineWidthMultiplyTexture": {"index": 0}, "outlineColorFactor": [0.1, 0.05, 0.0],
        "outlineLightingMixFactor": 1, "uvAnimationMaskTexture": {"index": 2},
        "uvAnimationScrollXSpeedFactor": 0.25, "uvAnimationScrollYSpeedFactor": -0.5,
        "uvAnimationRotationSpeedFactor": 0.75}
    vrm0 = {"materialProperties": [
        {"name": "Unlit", "shader": "VRM/UnlitTexture", "floatProperties": {}, "vectorProperties": {},
         "textureProperties": {}},
        {"name": "Skin", "shader": "VRM/MToon", "renderQueue": 2000,
         "floatProperties": {"_ShadeShift": 0.1, "_ShadeToony": 0.7, "_RimFresnelPower": 2, "_RimLift": 0.2,
                             "_OutlineWidthMode": 1, "_OutlineWidth": 0.4, "_OutlineScaledMaxDistance": 3,
                             "_UvAnimScrollX": 0.5, "_UvAnimScrollY": 0.25, "_UvAnimRotation": 0.25},
         "vectorProperties": {"_Color": [1, 1, 1, 1], "_ShadeColor": [0.25, 0.5, 0.75, 1],
                              "_RimColor": [0.5, 0.5, 0, 1], "_OutlineColor": [0.1, 0.1, 0.1, 1],
                              "_MainTex": [0, 0, 1, 1]},
         "textureProperties": {"_MainTex": 0, "_ShadeTexture": 1, "_SphereAdd": 2, "_RimTexture": 1},
         "keywordMap": {}, "tagMap": {}},
        {"name": "Hair", "shader": "VRM/MToon", "floatProperties": {"_OutlineWidthMode": 2, "_OutlineWidth": 0.1},
         "vectorProperties": {}, "textureProperties": {}},
        {"name": "Face", "shader": "VRM/MToon", "floatProperties": {"_OutlineWidthMode": 0}},
        {"name": "Cloth", "shader": "VRM/UnlitCutout"}]}
    out = [("sw_full.json", sw_full), ("mtoon_full.json", mtoon), ("vrm0_properties.json", vrm0)]
    for kind in ("body", "hair", "face", "eye"):
        out.append(("sw_kind_%s.json" % kind, {"kind": kind}))
    out.append(("sw_empty.json", {}))
    out.append(("mtoon_minimal.json", {"specVersion": "1.0"}))
    out.append(("mtoon_world.json", {"specVersion": "1.0", "outlineWidthMode": "worldCoordinates",
                                     "outlineWidthFactor": 0.01}))
    # clamped with a warning, and errors: out of range, wrong types, past the textures
    out.append(("sw_clamped.json", {"lightArea": 3, "rampWidth": -1, "fade": 2, "matcapMix": -0.5,
                                    "glints": [{}, {}, {}]}))
    out.append(("sw_texture_past.json", {"rampTexture": {"index": 3}}))
    out.append(("sw_head_past.json", {"headNode": 21}))
    out.append(("mtoon_wrong_type.json", {"specVersion": "1.0", "shadeColorFactor": [0, "x", 0]}))
    out.append(("vrm0_not_array.json", {"materialProperties": {"name": "Skin"}}))
    out.append(("vrm0_bad_values.json", {"materialProperties": [
        {"name": "Skin", "shader": "VRM/MToon", "floatProperties": {"_ShadeToony": "soft"},
         "vectorProperties": {"_ShadeColor": [1, 1]}, "textureProperties": {"_MainTex": 9}}]}))
    return out


def toons():
    clear_generated("toon")
    for name, record in toon_records():
        write("toon", name, compact(record))


def bone_maps():
    clear_generated("bone_map")
    seeds = {
        "biped.json": {"hips": "Bip01_Pelvis", "spine": "Bip01_Spine", "head": "Bip01_Head",
                       "leftUpperArm": "Bip01_L_UpperArm", "rightUpperArm": "Bip01_R_UpperArm",
                       "leftHand": None, "rightHand": None},
        "vrm_names.json": {name: name for name in VRM_BONES},
        "mixamo.json": {"Hips": "mixamorig:Hips", "SPINE": "mixamorig:Spine", "leftupperarm": "mixamorig:LeftArm",
                        "leftLowerArm": "mixamorig:LeftForeArm", "leftUpperLeg": "Armature|LeftUpLeg",
                        "head": "mixamorig:Head"},
        "rigify_vroid.json": {"hips": "DEF-spine", "chest": "J_Bip_C_Chest", "leftUpperArm": "DEF-upper_arm.L",
                              "rightUpperArm": "upperarm_r", "leftThumbIntermediate": "J_Bip_L_Thumb2",
                              "leftFoot": "foot_l"},
        "repeated.json": {"hips": "pelvis", "spine": "pelvis", "hips ": "x"},
        "nulls.json": {"hips": None, "spine": None},
        "empty.json": {},
    }
    for name, doc in seeds.items():
        if name == "repeated.json":
            # a key repeated (JSON allows it: the later entry wins), and a key that is no bone
            write("bone_map", name, b'{"hips":"pelvis","spine":"spine_01","hips":"root","neck":"neck_01"}')
            write("bone_map", "not_a_bone.json", b'{"hips":"pelvis","tail":"tail_01"}')
            continue
        write("bone_map", name, compact(doc))
    write("bone_map", "not_object.json", b'["hips","pelvis"]')
    write("bone_map", "number_value.json", b'{"hips":3}')
    write("bone_map", "unicode.json", '{"head":"\u982d","neck":"Ne\\u0000ck"}'.encode())
    write("bone_map", "truncated.json", b'{"hips":"pelvis","spine":"spi')


def read_glb(path):
    """The JSON document and BIN chunk of a GLB file."""
    with open(path, "rb") as f:
        data = f.read()
    length = struct.unpack("<I", data[12:16])[0]
    doc = json.loads(data[20:20 + length])
    rest = data[20 + length:]
    binary = rest[8:8 + struct.unpack("<I", rest[:4])[0]] if len(rest) >= 8 else b""
    return doc, binary


def vrma_seeds():
    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "data", "vrm", "*.vrma"))):
        with open(path, "rb") as f:
            out.append((os.path.basename(path), f.read()))
    doc, binary = read_glb(os.path.join(ROOT, "tests", "data", "vrm", "wave.vrma"))
    doc["buffers"][0]["uri"] = data_uri(binary)
    out.append(("wave.gltf", compact(doc)))

    def variant(name, change):
        d = json.loads(json.dumps(doc))
        change(d, d["extensions"]["VRMC_vrm_animation"])
        out.append((name, compact(d)))

    def two_clips(d, e):
        clip = json.loads(json.dumps(d["animations"][0]))
        clip["name"] = "second"
        clip["channels"] = clip["channels"][::2]
        d["animations"].append(clip)

    def warnings(d, e):
        bones = e["humanoid"]["humanBones"]
        bones["tail"] = {"node": 0}
        bones["leftEye"] = {"node": 7}
        bones["spine"] = {"node": 1}
        e["expressions"]["preset"]["lookLeft"] = {"node": 23}
        e["expressions"]["preset"]["smile"] = {"node": 24}
        d["animations"][0]["channels"].append({"sampler": 0, "target": {"node": 2, "path": "scale"}})
        d["animations"][0]["channels"].append({"sampler": 0, "target": {"node": 24, "path": "rotation"}})

    def no_hips_parent_turn(d, e):
        for node in d["nodes"]:
            node.pop("rotation", None)

    variant("wave_two_clips.gltf", two_clips)
    variant("wave_draft.gltf", lambda d, e: e.update(specVersion="1.0-draft"))
    variant("wave_no_spec.gltf", lambda d, e: e.pop("specVersion"))
    variant("wave_warnings.gltf", warnings)
    variant("wave_rest_untouched.gltf", no_hips_parent_turn)
    variant("wave_no_hips.gltf", lambda d, e: e["humanoid"]["humanBones"].pop("hips"))
    variant("error_node_past.gltf", lambda d, e: e["lookAt"].update(node=99))
    variant("error_type.gltf", lambda d, e: e.update(expressions=[1]))
    variant("error_version.gltf", lambda d, e: e.update(specVersion="2.0"))
    return out


def vrmas():
    clear_generated("vrma")
    for name, data in vrma_seeds():
        write("vrma", name, data)


def vrm_dict():
    """fuzz/vrm.dict: every key and short ASCII string of the vrm, toon and
    bone_map seeds, the humanoid and preset names they leave out, and JSON
    pieces, for the extension targets' -dict (scripts/fuzz.sh)."""
    words = set()

    def walk(x):
        if isinstance(x, dict):
            for k, v in x.items():
                words.add(k)
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
        elif isinstance(x, str) and len(x) < 40 and all(" " <= c <= "~" for c in x):
            words.add(x)

    for target in ("vrm", "toon", "bone_map"):
        for path in sorted(glob.glob(os.path.join(CORPUS, target, "*.json"))):
            try:
                with open(path, "rb") as f:
                    walk(json.loads(f.read()))
            except ValueError:
                pass
    words.update(["upperChest", "jaw", "leftEye", "rightEye", "leftShoulder", "rightShoulder", "leftToes",
                  "rightToes", "leftThumbProximal", "leftThumbDistal", "rightThumbMetacarpal",
                  "leftIndexProximal", "thumbIntermediate", "relaxed", "sad", "ih", "ou", "ee", "oh",
                  "blinkRight", "lookDown", "lookLeft", "lookRight", "fun", "sorrow", "blink_r", "lookdown",
                  "lookleft", "lookright", "block", "blend", "none", "auto", "both", "firstPersonOnly", "Bone"])
    words = sorted(w for w in words if w and '"' not in w and "\\" not in w)
    lines = ["# libFuzzer dictionary for the vrm, toon and bone_map targets (written by",
             "# fuzz/make_corpus.py from their seeds): keys, names and enum strings, JSON pieces.", ""]
    lines += ['w%d="\\"%s\\""' % (i, w) for i, w in enumerate(words)]
    lines += ['n_neg="-1"', 'n_big="1e39"', 'n_huge="1e400"', 'n_max="4294967295"', 'n_half="0.5"',
              'j_null="null"', 'j_true="true"', 'j_false="false"', 'j_empty_object="{}"', 'j_empty_array="[]"',
              'j_colon="\\":"', 'j_comma=","', 'j_nul="\\x00"']
    # the constraint and vrma targets' glTF documents: their extensions' words
    lines += ["# VRMC_node_constraint"]
    lines += ['c_%s="\\"%s\\""' % (key, word) for key, word in (
        ("ext", "VRMC_node_constraint"), ("constraint", "constraint"), ("roll", "roll"), ("aim", "aim"),
        ("rotation", "rotation"), ("source", "source"), ("roll_axis", "rollAxis"), ("aim_axis", "aimAxis"),
        ("weight", "weight"), ("positive_x", "PositiveX"), ("negative_z", "NegativeZ"))]
    lines += ["# VRMC_vrm_animation"]
    lines += ['a_%s="\\"%s\\""' % (key, word) for key, word in (
        ("ext", "VRMC_vrm_animation"), ("spec", "specVersion"), ("humanoid", "humanoid"),
        ("human_bones", "humanBones"), ("node", "node"), ("expressions", "expressions"), ("preset", "preset"),
        ("custom", "custom"), ("look_at", "lookAt"), ("offset", "offsetFromHeadBone"), ("v10", "1.0"),
        ("draft", "1.0-draft"), ("hips", "hips"), ("head", "head"), ("happy", "happy"), ("blink", "blink"),
        ("translation", "translation"), ("scale", "scale"), ("cubic", "CUBICSPLINE"), ("step", "STEP"))]
    with open(os.path.join(HERE, "vrm.dict"), "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    gltf_json_and_glb()
    data_uris()
    accessors()
    springs()
    iqms()
    vrms()
    toons()
    bone_maps()
    vrmas()
    vrm_dict()


if __name__ == "__main__":
    main()
