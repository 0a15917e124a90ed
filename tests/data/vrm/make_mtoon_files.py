#!/usr/bin/env python3
"""Writes the MToon test avatars of tests/render/test_mtoon.c (glTF files,
buffers and PNG textures embedded as data: URIs):

  mtoon_uv_anim.gltf  UV animation: two quads side by side, facing +Z.
                      "Scroll" (left): high-contrast vertical stripes (4 per
                      UV unit, 8 texels each: 240, 130, 20 ×3, 130, 240 ×2) scrolling at 1 UV/s in u. "Spin" (right): a
                      four-sector pinwheel turning at 2 rad/s, its
                      uvAnimationMaskTexture B = 1 inside a disc of radius
                      0.35 around the UV centre and 0 outside (the outside
                      stays still; the bilinear ramp between shears).
  mtoon_binds.gltf    Expression binds and hidden meshes: "Panel", a quad
                      facing +Z whose base colour texture has four quadrants
                      (u < ½, v < ½ red; u ≥ ½, v < ½ green; u < ½, v ≥ ½
                      blue; u ≥ ½, v ≥ ½ white; glTF v runs down), and
                      "Blocker", a small magenta quad 0.3 in front of the
                      panel's right part (it casts a shadow on the panel
                      under a light from +X).
  mtoon_features.gltf MToon lighting: a 2 × 2 quad facing +Y (seen from
                      above), MToon with a shade multiply texture (left half
                      (u < ½) white, right half grey 0.5 in sRGB), a shading
                      shift texture (R: top half (v < ½) 1, bottom half 0,
                      scale −1.5), shadeColorFactor (0.2, 0.4, 0.6),
                      toony 1, GI equalisation 0.25, emissive
                      (0.05, 0, 0), no rim; a world outline of 0.05 m.

Run from anywhere: python3 tests/data/vrm/make_mtoon_files.py
The output is deterministic; the test expects exactly these values."""

import base64
import json
import math
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def png(width, height, pixel):
    """An RGBA8 PNG; pixel(x, y) -> (r, g, b, a), rows top to bottom."""
    raw = bytearray()
    for y in range(height):
        raw.append(0)
        for x in range(width):
            raw.extend(pixel(x, y))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) +
            chunk(b"IEND", b""))


def data_uri(mime, data):
    return "data:%s;base64,%s" % (mime, base64.b64encode(data).decode("ascii"))


class Gltf:
    """A glTF being written: one buffer, quads as meshes, PNG images."""

    def __init__(self):
        self.blob = bytearray()
        self.json = {"asset": {"version": "2.0", "generator": "sinew make_mtoon_files.py"},
                     "extensionsUsed": ["VRMC_materials_mtoon"], "scenes": [{"nodes": []}], "scene": 0,
                     "nodes": [], "meshes": [], "materials": [], "textures": [], "images": [], "samplers": [],
                     "accessors": [], "bufferViews": []}

    def view(self, data, target):
        while len(self.blob) % 4:
            self.blob.append(0)
        self.json["bufferViews"].append({"buffer": 0, "byteOffset": len(self.blob), "byteLength": len(data),
                                         "target": target})
        self.blob.extend(data)
        return len(self.json["bufferViews"]) - 1

    def accessor(self, floats, kind, count, lo=None, hi=None):
        view = self.view(struct.pack("<%df" % len(floats), *floats), 34962)
        a = {"bufferView": view, "componentType": 5126, "count": count, "type": kind}
        if lo is not None:
            a["min"], a["max"] = lo, hi
        self.json["accessors"].append(a)
        return len(self.json["accessors"]) - 1

    def quad(self, name, corners, normal, material, translation):
        """corners: 4 positions for UV (0,0), (1,0), (1,1), (0,1)."""
        positions = [c for corner in corners for c in corner]
        lo = [min(c[i] for c in corners) for i in range(3)]
        hi = [max(c[i] for c in corners) for i in range(3)]
        attributes = {
            "POSITION": self.accessor(positions, "VEC3", 4, lo, hi),
            "NORMAL": self.accessor(list(normal) * 4, "VEC3", 4),
            "TEXCOORD_0": self.accessor([0, 0, 1, 0, 1, 1, 0, 1], "VEC2", 4),
        }
        indices = self.view(struct.pack("<6H", 0, 3, 2, 0, 2, 1), 34963)
        self.json["accessors"].append({"bufferView": indices, "componentType": 5123, "count": 6, "type": "SCALAR"})
        mesh = {"name": name, "primitives": [{"attributes": attributes, "indices": len(self.json["accessors"]) - 1,
                                              "material": material}]}
        self.json["meshes"].append(mesh)
        self.json["nodes"].append({"name": name, "mesh": len(self.json["meshes"]) - 1, "translation": translation})
        self.json["scenes"][0]["nodes"].append(len(self.json["nodes"]) - 1)

    def texture(self, image_bytes, nearest=False):
        self.json["images"].append({"uri": data_uri("image/png", image_bytes)})
        filters = 9728 if nearest else 9729
        self.json["samplers"].append({"magFilter": filters, "minFilter": 9987 if not nearest else 9984,
                                      "wrapS": 10497, "wrapT": 10497})
        self.json["textures"].append({"source": len(self.json["images"]) - 1,
                                      "sampler": len(self.json["samplers"]) - 1})
        return len(self.json["textures"]) - 1

    def material(self, name, mtoon, base_texture=None, base_color=(1, 1, 1, 1), emissive=(0, 0, 0)):
        m = {"name": name, "pbrMetallicRoughness": {"baseColorFactor": list(base_color)},
             "extensions": {"VRMC_materials_mtoon": dict(mtoon, specVersion="1.0")}}
        if base_texture is not None:
            m["pbrMetallicRoughness"]["baseColorTexture"] = {"index": base_texture}
        if any(emissive):
            m["emissiveFactor"] = list(emissive)
        self.json["materials"].append(m)
        return len(self.json["materials"]) - 1

    def write(self, name):
        self.json["buffers"] = [{"byteLength": len(self.blob),
                                 "uri": data_uri("application/octet-stream", bytes(self.blob))}]
        for key in ("textures", "images", "samplers"):
            if not self.json[key]:
                del self.json[key]
        with open(os.path.join(HERE, name), "w") as f:
            json.dump(self.json, f, indent=1, sort_keys=True)
            f.write("\n")


def facing_z(half_w, half_h):
    # UV (0,0) is the top left seen from +Z.
    return [(-half_w, half_h, 0), (half_w, half_h, 0), (half_w, -half_h, 0), (-half_w, -half_h, 0)]


def uv_anim():
    g = Gltf()
    size = 32

    def stripe(x, y):
        # 4 stripes, 8 texels each, from 240 to 20 and back through 2-texel
        # ramps: high contrast, yet band-limited as a mipmapped asset is.
        level = {0: 240, 1: 130, 2: 20, 3: 20, 4: 20, 5: 130, 6: 240, 7: 240}[x % 8]
        return (level, level, level, 255)

    stripes = g.texture(png(size, size, stripe))

    def sector(x, y):
        a = math.atan2(y + 0.5 - size / 2, x + 0.5 - size / 2)
        return (230, 40, 40, 255) if int((a + math.pi) / (math.pi / 2)) % 2 == 0 else (30, 30, 200, 255)

    pinwheel = g.texture(png(size, size, sector))

    def disc(x, y):
        r = math.hypot((x + 0.5) / size - 0.5, (y + 0.5) / size - 0.5)
        return (0, 0, 255 if r < 0.35 else 0, 255)

    mask = g.texture(png(size, size, disc))
    scroll = g.material("Scroll", {"shadeColorFactor": [0.6, 0.6, 0.6], "uvAnimationScrollXSpeedFactor": 1.0},
                        stripes)
    spin = g.material("Spin", {"shadeColorFactor": [0.6, 0.6, 0.6], "uvAnimationRotationSpeedFactor": 2.0,
                               "uvAnimationMaskTexture": {"index": mask}}, pinwheel)
    g.quad("Scroll", facing_z(0.5, 0.5), (0, 0, 1), scroll, [-0.55, 0.5, 0])
    g.quad("Spin", facing_z(0.5, 0.5), (0, 0, 1), spin, [0.55, 0.5, 0])
    g.write("mtoon_uv_anim.gltf")


def binds():
    g = Gltf()
    size = 16

    def quadrant(x, y):
        right, bottom = x >= size // 2, y >= size // 2
        return [(255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 255), (255, 255, 255, 255)][right + 2 * bottom]

    texture = g.texture(png(size, size, quadrant), nearest=True)
    mtoon = {"shadeColorFactor": [0.0, 0.0, 0.0], "shadingToonyFactor": 0.9}
    panel = g.material("Panel", mtoon, texture)
    blocker = g.material("Blocker", mtoon, None, base_color=(1, 0, 1, 1))
    g.quad("Panel", facing_z(1.0, 1.0), (0, 0, 1), panel, [0, 1, 0])
    g.quad("Blocker", facing_z(0.2, 0.2), (0, 0, 1), blocker, [0.5, 1, 0.3])
    g.write("mtoon_binds.gltf")


def features():
    g = Gltf()
    size = 16
    shade = g.texture(png(size, size, lambda x, y: (255, 255, 255, 255) if x < size // 2 else (128, 128, 128, 255)),
                      nearest=True)
    shift = g.texture(png(size, size, lambda x, y: (255 if y < size // 2 else 0, 0, 0, 255)), nearest=True)
    mtoon = {"shadeColorFactor": [0.2, 0.4, 0.6], "shadeMultiplyTexture": {"index": shade},
             "shadingShiftTexture": {"index": shift, "scale": -1.5}, "shadingToonyFactor": 1.0,
             "giEqualizationFactor": 0.25, "outlineWidthMode": "worldCoordinates", "outlineWidthFactor": 0.05,
             "outlineColorFactor": [0.0, 1.0, 0.0], "outlineLightingMixFactor": 0.0}
    m = g.material("Floor", mtoon, None, base_color=(0.8, 0.7, 0.6, 1), emissive=(0.05, 0, 0))
    # Facing +Y: UV (0,0) at (−1, 0, −1), u along +X, v along +Z.
    g.quad("Floor", [(-1, 0, -1), (1, 0, -1), (1, 0, 1), (-1, 0, 1)], (0, 1, 0), m, [0, 0, 0])
    g.write("mtoon_features.gltf")


if __name__ == "__main__":
    uv_anim()
    binds()
    features()
