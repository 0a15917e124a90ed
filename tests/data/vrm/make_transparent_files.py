#!/usr/bin/env python3
"""Writes the transparency test scenes of tests/render/test_transparent.c
(glTF files with VRMC_materials_mtoon materials, buffers embedded as data:
URIs). Every material's shadeColorFactor equals its base colour, so its
MToon colour is base × (light + GI) whatever N·L and the shadow map say,
and the test can compute it by hand. Seen from (0, 0, 3) looking down −Z:

  "Back"   opaque, 3 × 3 at z = 0, base (0.2, 0.3, 0.9);
  "Red"    BLEND, alpha 0.4, base (0.9, 0.1, 0.1), x −0.6..0.2, y −0.5..0.5, z = 0.3;
  "Green"  BLEND, alpha 0.6, base (0.1, 0.8, 0.2), x −0.2..0.6, y −0.5..0.5, z = 0.6
           (the nearer: by distance drawn last);
  "Cut"    MASK (cutoff 0.5), alpha 0.4, base (1, 1, 0), x −0.7..−0.3, y 0.55..0.95, z = 0.3;
  "Kept"   MASK (cutoff 0.5), alpha 0.7, base (0, 1, 1), x 0.3..0.7, y 0.55..0.95, z = 0.3.

  transparent_quads.gltf   as above: drawn Red, then Green (distance);
  transparent_queue.gltf   Green's renderQueueOffsetNumber −1: Green, then Red
                           (the queue before the distance);
  transparent_zwrite.gltf  Green with transparentWithZWrite (its queue, the
                           z-writing one, comes first): Green, then Red, which
                           the depth test hides behind Green.
  transparent_double.gltf  "Back" and "Shell": one double-sided BLEND primitive
                           (alpha 0.5) of two 1 × 1 quads, the first at z = 0.6
                           facing the camera (UV in the left, red half of a
                           2 × 1 texture), the second at z = 0.3 facing away
                           (the right, green half); the texture is also the
                           shade multiply texture. Back faces first: green,
                           then red, though the index order is red first.
                           Beside them "Veil": an unlit (KHR_materials_unlit)
                           BLEND quad, base (1, 0.5, 0), alpha 0.5, x 0.8..1.2,
                           y −0.2..0.2, z = 0.3.

Run from anywhere: python3 tests/data/vrm/make_transparent_files.py
The output is deterministic; the test expects exactly these values."""

import os
import struct
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the data
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_mtoon_files import Gltf, png  # noqa: E402  (the same glTF writer)


def rect(x0, x1, y0, y1):
    # Facing +Z, UV (0,0) at the top left; positions relative to the node.
    return [(x0, y1, 0), (x1, y1, 0), (x1, y0, 0), (x0, y0, 0)]


def scene(name, green_mtoon):
    g = Gltf()

    def material(label, rgb, alpha, mode, mtoon=None, cutoff=None):
        m = g.material(label, dict(mtoon or {}, shadeColorFactor=list(rgb)), None, base_color=tuple(rgb) + (alpha,))
        if mode != "OPAQUE":
            g.json["materials"][m]["alphaMode"] = mode
        if cutoff is not None:
            g.json["materials"][m]["alphaCutoff"] = cutoff
        return m

    back = material("Back", (0.2, 0.3, 0.9), 1.0, "OPAQUE")
    red = material("Red", (0.9, 0.1, 0.1), 0.4, "BLEND")
    green = material("Green", (0.1, 0.8, 0.2), 0.6, "BLEND", green_mtoon)
    cut = material("Cut", (1.0, 1.0, 0.0), 0.4, "MASK", cutoff=0.5)
    kept = material("Kept", (0.0, 1.0, 1.0), 0.7, "MASK", cutoff=0.5)
    g.quad("Back", rect(-1.5, 1.5, -1.5, 1.5), (0, 0, 1), back, [0, 0, 0])
    g.quad("Red", rect(-0.6, 0.2, -0.5, 0.5), (0, 0, 1), red, [0, 0, 0.3])
    g.quad("Green", rect(-0.2, 0.6, -0.5, 0.5), (0, 0, 1), green, [0, 0, 0.6])
    g.quad("Cut", rect(-0.7, -0.3, 0.55, 0.95), (0, 0, 1), cut, [0, 0, 0.3])
    g.quad("Kept", rect(0.3, 0.7, 0.55, 0.95), (0, 0, 1), kept, [0, 0, 0.3])
    g.json["asset"]["generator"] = "sinew make_transparent_files.py"
    g.write(name)


def double_sided():
    g = Gltf()
    half = g.texture(png(2, 1, lambda x, y: (255, 0, 0, 255) if x == 0 else (0, 255, 0, 255)), nearest=True)
    back = g.material("Back", {"shadeColorFactor": [0.2, 0.3, 0.9]}, None, base_color=(0.2, 0.3, 0.9, 1.0))
    g.quad("Back", rect(-1.5, 1.5, -1.5, 1.5), (0, 0, 1), back, [0, 0, 0])
    shell = g.material("Shell", {"shadeColorFactor": [1, 1, 1], "shadeMultiplyTexture": {"index": half}}, half,
                       base_color=(1, 1, 1, 0.5))
    g.json["materials"][shell]["alphaMode"] = "BLEND"
    g.json["materials"][shell]["doubleSided"] = True
    veil = len(g.json["materials"])
    g.json["materials"].append({"name": "Veil", "alphaMode": "BLEND",
                                "pbrMetallicRoughness": {"baseColorFactor": [1.0, 0.5, 0.0, 0.5]},
                                "extensions": {"KHR_materials_unlit": {}}})
    g.json["extensionsUsed"].append("KHR_materials_unlit")
    g.quad("Veil", rect(0.8, 1.2, -0.2, 0.2), (0, 0, 1), veil, [0, 0, 0.3])
    # Near quad (counter-clockwise seen from +Z), then far quad (clockwise
    # seen from +Z: it faces away), each (x, y, z, u, v).
    near = [(-0.5, 0.5, 0.6, 0.1, 0.1), (0.5, 0.5, 0.6, 0.4, 0.1), (0.5, -0.5, 0.6, 0.4, 0.9), (-0.5, -0.5, 0.6, 0.1, 0.9)]
    far = [(0.5, 0.5, 0.3, 0.6, 0.1), (-0.5, 0.5, 0.3, 0.9, 0.1), (-0.5, -0.5, 0.3, 0.9, 0.9), (0.5, -0.5, 0.3, 0.6, 0.9)]
    corners = near + far
    positions = [c for v in corners for c in v[:3]]
    normals = [0, 0, 1] * 4 + [0, 0, -1] * 4
    uvs = [c for v in corners for c in v[3:]]
    lo = [min(v[i] for v in corners) for i in range(3)]
    hi = [max(v[i] for v in corners) for i in range(3)]
    attributes = {"POSITION": g.accessor(positions, "VEC3", 8, lo, hi), "NORMAL": g.accessor(normals, "VEC3", 8),
                  "TEXCOORD_0": g.accessor(uvs, "VEC2", 8)}
    indices = g.view(struct.pack("<12H", 0, 3, 2, 0, 2, 1, 4, 7, 6, 4, 6, 5), 34963)
    g.json["accessors"].append({"bufferView": indices, "componentType": 5123, "count": 12, "type": "SCALAR"})
    g.json["meshes"].append({"name": "Shell", "primitives": [{"attributes": attributes,
                                                               "indices": len(g.json["accessors"]) - 1,
                                                               "material": shell}]})
    g.json["nodes"].append({"name": "Shell", "mesh": len(g.json["meshes"]) - 1})
    g.json["scenes"][0]["nodes"].append(len(g.json["nodes"]) - 1)
    g.json["asset"]["generator"] = "sinew make_transparent_files.py"
    g.write("transparent_double.gltf")


if __name__ == "__main__":
    scene("transparent_quads.gltf", {})
    scene("transparent_queue.gltf", {"renderQueueOffsetNumber": -1})
    scene("transparent_zwrite.gltf", {"transparentWithZWrite": True})
    double_sided()
