#!/usr/bin/env python3
"""Writes the hostile inputs of tests/gltf/test_hostile_inputs.c that are
plain files (the FIFOs, links and devices are made by the test itself, in a
temporary folder). Run it from anywhere; it writes next to itself.

Each file is small and declares far more than it holds: the loader must
refuse it from the declarations alone, in milliseconds and without the
memory it declares."""
import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
ASSET = {"version": "2.0", "generator": "sinew make_hostile_files.py"}


def glb(doc, bin_chunk=b""):
    text = json.dumps(doc, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 4)
    bin_chunk += b"\0" * (-len(bin_chunk) % 4)
    chunks = struct.pack("<I", len(text)) + b"JSON" + text
    if bin_chunk:
        chunks += struct.pack("<I", len(bin_chunk)) + b"BIN\0" + bin_chunk
    return b"glTF" + struct.pack("<II", 2, 12 + len(chunks)) + chunks


def write(name, data):
    if isinstance(data, dict):
        data = json.dumps(data, separators=(",", ":")).encode()
    elif isinstance(data, str):
        data = data.encode()
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


# 300 million zero positions: 3.6 GB once decoded, a few hundred bytes here.
write("position_300m_no_view.glb", glb({
    "asset": ASSET,
    "accessors": [{"componentType": 5126, "count": 300000000, "type": "VEC3",
                   "min": [0, 0, 0], "max": [0, 0, 0]}],
    "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
    "nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}], "scene": 0}))

# 3e8 key times and 3e8 translations, all zeros: 4.8 GB once decoded.
write("keys_300m_no_view.glb", glb({
    "asset": ASSET,
    "nodes": [{}],
    "accessors": [{"componentType": 5126, "count": 300000000, "type": "SCALAR", "min": [0], "max": [0]},
                  {"componentType": 5126, "count": 300000000, "type": "VEC3"}],
    "animations": [{"samplers": [{"input": 0, "output": 1}],
                    "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}]}]}))

# One real triangle, then 3e8 indices that are all vertex 0 (1.2 GB decoded).
TRIANGLE = "data:application/octet-stream;base64," + "AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA"
write("indices_300m_no_view.gltf", {
    "asset": ASSET,
    "buffers": [{"byteLength": 36, "uri": TRIANGLE}],
    "bufferViews": [{"buffer": 0, "byteLength": 36}],
    "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                   "min": [0, 0, 0], "max": [1, 1, 0]},
                  {"componentType": 5125, "count": 300000000, "type": "SCALAR"}],
    "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}]})

# A skin of one joint whose inverseBindMatrices declare 5e7 zero matrices
# (3.2 GB decoded): glTF allows more matrices than joints; one is read.
write("ibm_50m_no_view.gltf", {
    "asset": ASSET,
    "nodes": [{"children": [1]}, {}],
    "accessors": [{"componentType": 5126, "count": 50000000, "type": "MAT4"}],
    "skins": [{"joints": [1], "inverseBindMatrices": 0}]})

# Strings that cJSON would cut short at a \u0000.
BUFFER = {"byteLength": 12, "uri": "x.bin"}
MESH = {"bufferViews": [{"buffer": 0, "byteLength": 12}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 1, "type": "VEC3"}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}]}


def with_buffer(buffer_text):
    doc = json.dumps({"asset": ASSET, **MESH}, separators=(",", ":"))
    return doc[:-1] + ',"buffers":[' + buffer_text + "]}"


write("uri_nul.gltf", with_buffer('{"byteLength":12,"uri":"x.bin\\u0000.png"}'))
write("key_nul.gltf", with_buffer('{"byteLength":12,"uri\\u0000 (not the uri)":"x.bin","uri":"x.bin"}'))
write("uri_raw_nul.gltf", with_buffer('{"byteLength":12,"uri":"x.bin\0.png"}'))
write("name_nul.gltf", with_buffer('{"byteLength":12,"uri":"x.bin","name":"a\\u0000b"}'))
write("uri_newline.gltf", with_buffer('{"byteLength":12,"uri":"x\\n.bin"}'))
write("uri_escaped_newline.gltf", with_buffer('{"byteLength":12,"uri":"x%0A.bin"}'))
write("uri_delete.gltf", with_buffer('{"byteLength":12,"uri":"data:application/octet-stream;base64,\\u007f"}'))
# An escaped backslash before u0000 is no NUL: this one loads.
write("not_nul.gltf", with_buffer('{"byteLength":12,"uri":"x.bin","name":"a\\\\u0000b"}'))
write("x.bin", b"\0" * 12)

# Arrays 1001 deep: one level past cJSON's limit.
write("deep_1001.gltf", '{"asset":{"version":"2.0"},"extras":' + "[" * 1000 + "]" * 1000 + "}")
