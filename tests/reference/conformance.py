#!/usr/bin/env python3
"""Conformance: `sinew export` against the independent reference.

For every skinned, morphed or animated glTF asset under $SINEW_ASSETS/gltf
and every animation in it, runs

    sinew export MODEL --anim I --samples 10 --normals --out A.json
    gltf_reference.py MODEL --anim I --samples 10 --normals -o B.json
    compare_export.py A.json B.json --tol-rel 1e-5

and fails if any vertex of any instance at any time differs by more than
1e-5 of the asset's bounding-box diagonal (normals: 1e-4).

usage: conformance.py PATH_TO_SINEW SCRATCH_DIR [--skip-large] [--samples N]
Skips (exit 0, saying so) when SINEW_ASSETS is unset.
"""
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# Every asset the acceptance covers: skinned, morphed or animated.
ASSETS = [
    "khronos/cesium_man.gltf",
    "khronos/rigged_simple.gltf",
    "khronos/box_animated.gltf",
    "khronos/interpolation_test.gltf",
    "assimp/simple_skin/simple_skin.gltf",
    "assimp/AnimatedMorphCube-glTF/AnimatedMorphCube.gltf",
    "pab/arnaud_locomotion.glb",
    "pab/crowd_stress.glb",
    "synthetic/twist_tube.glb",
    "synthetic/eight_influences.glb",
    "synthetic/morph_skin.glb",
    "synthetic/scaled_joint.glb",
    "synthetic/cubic_spline.glb",
    "cc0/robot.glb",
    "cc0/greenman.glb",
]
LARGE = {"pab/crowd_stress.glb"}


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


def main():
    args = sys.argv[1:]
    skip_large = "--skip-large" in args
    samples = "10"
    if "--samples" in args:
        samples = args[args.index("--samples") + 1]
    positional = [a for i, a in enumerate(args) if not a.startswith("--") and (i == 0 or args[i - 1] != "--samples")]
    if len(positional) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    sinew, scratch = positional
    assets = os.environ.get("SINEW_ASSETS")
    if not assets:
        print("skipped: SINEW_ASSETS is not set (conformance needs the shared assets)")
        return 0
    os.makedirs(scratch, exist_ok=True)
    python = sys.executable
    failures, checked = [], 0
    for rel in ASSETS:
        if skip_large and rel in LARGE:
            print(f"skip {rel} (large; checked in the release configuration)")
            continue
        model = os.path.join(assets, "gltf", rel)
        rc, out, err = run([sinew, "info", model, "--json"])
        if rc != 0:
            failures.append(f"{rel}: sinew info failed: {err.strip()}")
            continue
        animations = json.loads(out)["animations"]
        for index, anim in enumerate(animations):
            a = os.path.join(scratch, "sinew.json")
            b = os.path.join(scratch, "reference.json")
            t0 = time.time()
            rc, _, err = run([sinew, "export", model, "--anim", str(index), "--samples", samples,
                              "--normals", "--out", a])
            if rc != 0:
                failures.append(f"{rel} anim {index}: sinew export failed: {err.strip()}")
                continue
            rc, _, err = run([python, os.path.join(HERE, "gltf_reference.py"), model, "--anim", str(index),
                              "--samples", samples, "--normals", "-o", b])
            if rc != 0:
                failures.append(f"{rel} anim {index}: reference failed: {err.strip()}")
                continue
            rc, out, err = run([python, os.path.join(HERE, "compare_export.py"), a, b, "--tol-rel", "1e-5"])
            checked += 1
            # compare_export's last line: "OK: ... (worst 0.0262 of tolerance)".
            worst = out.strip().splitlines()[-1] if out.strip() else ""
            worst = worst[worst.find("(worst"):] if "(worst" in worst else ""
            status = "ok  " if rc == 0 else "FAIL"
            print(f"{status} {rel} anim {index} \"{anim['name']}\" ({time.time() - t0:.1f} s) {worst.strip()}")
            if rc != 0:
                failures.append(f"{rel} anim {index}: {out.strip()} {err.strip()}")
    for f in failures:
        print("FAIL", f, file=sys.stderr)
    print(f"{checked} clips compared, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
