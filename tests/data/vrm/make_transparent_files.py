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

Run from anywhere: python3 tests/data/vrm/make_transparent_files.py
The output is deterministic; the test expects exactly these values."""

import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the data
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_mtoon_files import Gltf  # noqa: E402  (the same glTF writer)


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


if __name__ == "__main__":
    scene("transparent_quads.gltf", {})
    scene("transparent_queue.gltf", {"renderQueueOffsetNumber": -1})
    scene("transparent_zwrite.gltf", {"transparentWithZWrite": True})
