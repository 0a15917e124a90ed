#!/usr/bin/env python3
"""Writes the scenes of tests/render/test_transparent_lit.c: plain glTF
metallic-roughness materials (metallic 0, roughness 1 unless said), no
toon data, buffers embedded as data: URIs. Every quad faces +Z, seen from
(x, 0, 3) looking down −Z; the groups stand apart along x:

  x = 0   "Blue" opaque 2 × 2 at z 0, base (0.1, 0.2, 0.9);
          "Red" BLEND, alpha 0.5, base (0.9, 0.1, 0.1), x ±0.6, y ±0.4, z 0.3.
  x = 4   "Blue2" as Blue; "Veil" unlit (KHR_materials_unlit) BLEND, alpha
          0.5, base (0.9, 0.1, 0.1), x ±0.6, y ±0.4, z 0.3.
  x = 8   "Blue3" as Blue, unlit; "Near" unlit BLEND alpha 0.5, base
          (0.9, 0.1, 0.1), x −0.6..0.3, z 0.5; "Far" unlit BLEND alpha 0.5,
          base (0.1, 0.8, 0.2), x −0.3..0.6, z 0.2 (both y ±0.4). In
          transparent_lit.gltf Near comes first in the file, in
          transparent_lit_swapped.gltf Far does: sorted back to front, the
          pictures are the same.
  x = 12  "Blue4" as Blue; "Leaf" MASK (cutoff 0.5), alpha 0.7, base
          (0, 1, 1), x −0.6..0.2, y ±0.4, z 0.1; "Cut" MASK alpha 0.3, base
          (1, 1, 0), x −0.6..0.2, y 0.5..0.9, z 0.1; "Film" unlit BLEND alpha
          0.5, base (0.9, 0.1, 0.1), x −0.2..0.6, y −0.2..0.9, z 0.4.
  x = 16  "Blue5" as Blue; "CardA", "CardB": MASK (cutoff 0.5) cards with an
          8 × 8 alpha texture (linear filtering: the edges fall inside
          texels), base (0.2, 0.9, 0.2) at z 0.2 and (0.9, 0.8, 0.1) at
          z 0.4, overlapping.
  x = 20  "Floor": opaque white, 2 × 2, horizontal (normal +Y) at y −0.5.

  x = 24  "Back6": unlit opaque, base (0.9, 0.6, 0.2); "Glass": an OPAQUE
          pane, base (0.8, 0.9, 1), KHR_materials_transmission 0.9,
          KHR_materials_volume thickness 0.5, attenuation distance 1,
          colour (0.5, 0.8, 1), KHR_materials_ior 1.45; x ±0.6, y ±0.4, z 0.3.

  transparent_lit_ref.gltf: as transparent_lit.gltf with Red OPAQUE and
  Glass without the extensions (their colours lit by the deferred pass,
  for the forward path to match).
  lights.gltf, lights_bad_cone.gltf, lights_bad_index.gltf: see lights().

Run from anywhere: python3 tests/data/transparency/make_transparency_files.py
The output is deterministic."""

import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the data
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "vrm"))
import make_mtoon_files  # noqa: E402  (the same glTF writer)
from make_mtoon_files import Gltf, png  # noqa: E402

make_mtoon_files.HERE = HERE


def rect(x0, x1, y0, y1):
    return [(x0, y1, 0), (x1, y1, 0), (x1, y0, 0), (x0, y0, 0)]


def scene(name, near_first, red_mode, glass_transmits=True):
    g = Gltf()
    g.json["extensionsUsed"] = ["KHR_materials_unlit"]

    def material(label, rgba, mode="OPAQUE", unlit=False, cutoff=None, texture=None):
        m = {"name": label, "pbrMetallicRoughness": {"baseColorFactor": list(rgba), "metallicFactor": 0.0,
                                                      "roughnessFactor": 1.0}}
        if mode != "OPAQUE":
            m["alphaMode"] = mode
        if cutoff is not None:
            m["alphaCutoff"] = cutoff
        if unlit:
            m["extensions"] = {"KHR_materials_unlit": {}}
        if texture is not None:
            m["pbrMetallicRoughness"]["baseColorTexture"] = {"index": texture}
        g.json["materials"].append(m)
        return len(g.json["materials"]) - 1

    def quad(label, x, corners, z, m):
        g.quad(label, corners, (0, 0, 1), m, [x, 0, z])

    blue = (0.1, 0.2, 0.9, 1.0)
    red = (0.9, 0.1, 0.1, 0.5)
    # x = 0: lit red over lit blue
    quad("Blue", 0, rect(-1, 1, -1, 1), 0, material("Blue", blue))
    quad("Red", 0, rect(-0.6, 0.6, -0.4, 0.4), 0.3,
         material("Red", red if red_mode == "BLEND" else red[:3] + (1.0,), red_mode))
    # x = 4: unlit red over lit blue
    quad("Blue2", 4, rect(-1, 1, -1, 1), 0, material("Blue2", blue))
    quad("Veil", 4, rect(-0.6, 0.6, -0.4, 0.4), 0.3, material("Veil", red, "BLEND", unlit=True))
    # x = 8: two blended quads, sorted whatever the file order
    quad("Blue3", 8, rect(-1, 1, -1, 1), 0, material("Blue3", blue, unlit=True))
    near = lambda: quad("Near", 8, rect(-0.6, 0.3, -0.4, 0.4), 0.5, material("Near", red, "BLEND", unlit=True))
    far = lambda: quad("Far", 8, rect(-0.3, 0.6, -0.4, 0.4), 0.2,
                       material("Far", (0.1, 0.8, 0.2, 0.5), "BLEND", unlit=True))
    (near, far)[0 if near_first else 1]()
    (near, far)[1 if near_first else 0]()
    # x = 12: blended over alpha-tested
    quad("Blue4", 12, rect(-1, 1, -1, 1), 0, material("Blue4", blue))
    quad("Leaf", 12, rect(-0.6, 0.2, -0.4, 0.4), 0.1, material("Leaf", (0, 1, 1, 0.7), "MASK", cutoff=0.5))
    quad("Cut", 12, rect(-0.6, 0.2, 0.5, 0.9), 0.1, material("Cut", (1, 1, 0, 0.3), "MASK", cutoff=0.5))
    quad("Film", 12, rect(-0.2, 0.6, -0.2, 0.9), 0.4, material("Film", red, "BLEND", unlit=True))
    # x = 16: overlapping alpha-tested cards
    leaves = g.texture(png(8, 8, lambda x, y: (255, 255, 255, (x * 37 + y * 61) % 256)))
    quad("Blue5", 16, rect(-1, 1, -1, 1), 0, material("Blue5", blue))
    quad("CardA", 16, rect(-0.7, 0.3, -0.5, 0.5), 0.2,
         material("CardA", (0.2, 0.9, 0.2, 1.0), "MASK", cutoff=0.5, texture=leaves))
    quad("CardB", 16, rect(-0.3, 0.7, -0.4, 0.6), 0.4,
         material("CardB", (0.9, 0.8, 0.1, 1.0), "MASK", cutoff=0.5, texture=leaves))
    # x = 20: a floor for the lights
    floor = material("Floor", (1, 1, 1, 1))
    g.quad("Floor", [(-1, 0, -1), (1, 0, -1), (1, 0, 1), (-1, 0, 1)], (0, 1, 0), floor, [20, -0.5, 0])
    # x = 24: a transmissive pane over an unlit orange quad
    quad("Back6", 24, rect(-1, 1, -1, 1), 0, material("Back6", (0.9, 0.6, 0.2, 1.0), unlit=True))
    glass = material("Glass", (0.8, 0.9, 1.0, 1.0))
    if glass_transmits:
        g.json["materials"][glass]["extensions"] = {
            "KHR_materials_transmission": {"transmissionFactor": 0.9},
            "KHR_materials_volume": {"thicknessFactor": 0.5, "attenuationDistance": 1.0,
                                     "attenuationColor": [0.5, 0.8, 1.0]},
            "KHR_materials_ior": {"ior": 1.45}}
        g.json["extensionsUsed"] += ["KHR_materials_transmission", "KHR_materials_volume", "KHR_materials_ior"]
    quad("Glass", 24, rect(-0.6, 0.6, -0.4, 0.4), 0.3, glass)
    g.json["asset"]["generator"] = "sinew make_transparency_files.py"
    g.write(name)


def gallery():
    """transparency_gallery.gltf, the picture of docs/transparency.md: side by
    side, a lit red BLEND quad over a blue one, two overlapping BLEND quads,
    a transmissive pane over an orange quad, alpha-tested cards."""
    g = Gltf()
    g.json["extensionsUsed"] = ["KHR_materials_transmission", "KHR_materials_volume"]

    def material(label, rgba, mode="OPAQUE", extensions=None, texture=None):
        m = {"name": label, "pbrMetallicRoughness": {"baseColorFactor": list(rgba), "metallicFactor": 0.0,
                                                      "roughnessFactor": 0.6}}
        if mode != "OPAQUE":
            m["alphaMode"] = mode
        if extensions:
            m["extensions"] = extensions
        if texture is not None:
            m["pbrMetallicRoughness"]["baseColorTexture"] = {"index": texture}
        g.json["materials"].append(m)
        return len(g.json["materials"]) - 1

    def quad(label, x, corners, z, m):
        g.quad(label, corners, (0, 0, 1), m, [x, 0, z])

    leaves = g.texture(png(8, 8, lambda x, y: (255, 255, 255, (x * 37 + y * 61) % 256)))
    backs = [(0.1, 0.2, 0.9, 1), (0.1, 0.2, 0.9, 1), (0.9, 0.6, 0.2, 1), (0.1, 0.2, 0.9, 1)]
    for i, rgba in enumerate(backs):
        quad("Back%d" % i, 2.4 * i, rect(-1, 1, 0, 2), 0, material("Back%d" % i, rgba))
    quad("Red", 0, rect(-0.6, 0.6, 0.6, 1.4), 0.3, material("Red", (0.9, 0.1, 0.1, 0.5), "BLEND"))
    quad("Far", 2.4, rect(-0.3, 0.6, 0.6, 1.4), 0.2, material("Far", (0.1, 0.8, 0.2, 0.5), "BLEND"))
    quad("Near", 2.4, rect(-0.6, 0.3, 0.6, 1.4), 0.5, material("Near", (0.9, 0.1, 0.1, 0.5), "BLEND"))
    quad("Glass", 4.8, rect(-0.6, 0.6, 0.5, 1.5), 0.3, material("Glass", (0.8, 0.9, 1.0, 1.0), extensions={
        "KHR_materials_transmission": {"transmissionFactor": 0.9},
        "KHR_materials_volume": {"thicknessFactor": 0.5, "attenuationDistance": 1.0,
                                 "attenuationColor": [0.5, 0.8, 1.0]}}))
    quad("CardA", 7.2, rect(-0.7, 0.3, 0.5, 1.5), 0.2,
         material("CardA", (0.2, 0.9, 0.2, 1.0), "MASK", texture=leaves))
    quad("CardB", 7.2, rect(-0.3, 0.7, 0.6, 1.6), 0.4,
         material("CardB", (0.9, 0.8, 0.1, 1.0), "MASK", texture=leaves))
    g.json["asset"]["generator"] = "sinew make_transparency_files.py"
    g.write("transparency_gallery.gltf")


def mask_shadow():
    """mask_shadow.gltf: shadow casters by alpha (docs/shadows.md). A white
    floor 3 × 2 at y −0.5 (x −1.5..1.5, z −1..1); above it at y 0, level
    (seen edge-on from the camera), "Card": MASK (cutoff 0.5), white, a
    4 × 4 nearest-filtered texture whose left half (u < 0.5, x < 0) has
    alpha 0 and right half alpha 1, x −0.8..0.8, z −0.6..0.2; "Veil": BLEND,
    alpha 0.3, x −1.4..−0.9, z −0.6..0.2; "Glass": OPAQUE with
    KHR_materials_transmission 0.9, x 0.9..1.4, z −0.6..0.2."""
    g = Gltf()
    g.json["extensionsUsed"] = ["KHR_materials_transmission"]

    def material(label, rgba, mode="OPAQUE", texture=None):
        m = {"name": label, "pbrMetallicRoughness": {"baseColorFactor": list(rgba), "metallicFactor": 0.0,
                                                      "roughnessFactor": 1.0}}
        if mode != "OPAQUE":
            m["alphaMode"] = mode
        if mode == "MASK":
            m["alphaCutoff"] = 0.5
        if texture is not None:
            m["pbrMetallicRoughness"]["baseColorTexture"] = {"index": texture}
        g.json["materials"].append(m)
        return len(g.json["materials"]) - 1

    def level(label, x0, x1, m):  # UV u along +x
        g.quad(label, [(x0, 0, 0.2), (x1, 0, 0.2), (x1, 0, -0.6), (x0, 0, -0.6)], (0, 1, 0), m, [0, 0, 0])

    g.quad("Floor", [(-1.5, 0, 1), (1.5, 0, 1), (1.5, 0, -1), (-1.5, 0, -1)], (0, 1, 0),
           material("Floor", (1, 1, 1, 1)), [0, -0.5, 0])
    half = g.texture(png(4, 4, lambda x, y: (255, 255, 255, 0 if x < 2 else 255)), nearest=True)
    level("Card", -0.8, 0.8, material("Card", (1, 1, 1, 1), "MASK", half))
    level("Veil", -1.4, -0.9, material("Veil", (1, 1, 1, 0.3), "BLEND"))
    glass = material("Glass", (1, 1, 1, 1))
    g.json["materials"][glass]["extensions"] = {"KHR_materials_transmission": {"transmissionFactor": 0.9}}
    level("Glass", 0.9, 1.4, glass)
    g.json["asset"]["generator"] = "sinew make_transparency_files.py"
    g.write("mask_shadow.gltf")


def lights():
    """lights.gltf: KHR_lights_punctual, a point light on "Bulb" (y 2), a
    spot on "Lamp" (turned to point down), a directional on "Sun"; the spot
    also on "Lamp2". One quad so that it is a scene."""
    g = Gltf()
    g.json["extensionsUsed"] = ["KHR_lights_punctual"]
    g.json["materials"].append({"name": "Grey"})
    g.quad("Floor", [(-1, 0, -1), (1, 0, -1), (1, 0, 1), (-1, 0, 1)], (0, 1, 0), 0, [0, 0, 0])
    g.json["extensions"] = {"KHR_lights_punctual": {"lights": [
        {"name": "bulb", "type": "point", "color": [1.0, 0.9, 0.8], "intensity": 5.0, "range": 4.0},
        {"name": "lamp", "type": "spot", "intensity": 20.0, "spot": {"innerConeAngle": 0.2, "outerConeAngle": 0.5}},
        {"type": "directional", "intensity": 2.0}]}}
    down = [-0.7071068, 0, 0, 0.7071068]  # −Z turned to −Y
    g.json["nodes"] += [
        {"name": "Bulb", "translation": [0, 2, 0], "extensions": {"KHR_lights_punctual": {"light": 0}}},
        {"name": "Lamp", "translation": [1, 3, 0], "rotation": down,
         "extensions": {"KHR_lights_punctual": {"light": 1}}},
        {"name": "Sun", "extensions": {"KHR_lights_punctual": {"light": 2}}},
        {"name": "Lamp2", "translation": [-1, 3, 0], "extensions": {"KHR_lights_punctual": {"light": 1}}}]
    g.json["scenes"][0]["nodes"] += [1, 2, 3, 4]
    g.json["asset"]["generator"] = "sinew make_transparency_files.py"
    g.write("lights.gltf")
    for key in ("textures", "images", "samplers"):  # write() drops them when empty
        g.json[key] = []
    # Bad files: each names its JSON path in the error.
    spot = g.json["extensions"]["KHR_lights_punctual"]["lights"][1]["spot"]
    spot["innerConeAngle"] = 0.6
    g.write("lights_bad_cone.gltf")
    for key in ("textures", "images", "samplers"):
        g.json[key] = []
    spot["innerConeAngle"] = 0.2
    g.json["nodes"][1]["extensions"]["KHR_lights_punctual"]["light"] = 7
    g.write("lights_bad_index.gltf")


if __name__ == "__main__":
    scene("transparent_lit.gltf", True, "BLEND")
    scene("transparent_lit_swapped.gltf", False, "BLEND")
    scene("transparent_lit_ref.gltf", True, "OPAQUE", glass_transmits=False)
    lights()
    gallery()
    mask_shadow()
