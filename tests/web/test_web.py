#!/usr/bin/env python3
"""The browser build in a real browser.

Builds build/web incrementally (scripts/build-web.sh), serves it on
127.0.0.1 and loads index.html?test=walk,0.37 in headless Chromium
(SwiftShader's WebGL2), twice: --dump-dom reads the page's result, the
WebAssembly pose of the demo character's walk at 0.37 s (every node's
world matrix and every skinned vertex), which must equal `sinew export
--joints` of the native library within 1e-5 of the model's size, and the
runtime mid-crossfade (walk into wave, springs off) `sinew export
--crossfade`; --screenshot must show the
character: pixels that differ from the page's background, in the middle
of the picture, of the character's colours.

usage: test_web.py SOURCE_ROOT NATIVE_SINEW OUT_DIR OBJ_DIR
Exit status 77 (ctest: skipped) when emscripten or chromium is missing.
"""
import functools
import html
import http.server
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import zlib

SKIP = 77
CLIP, TIME = "walk", 0.37
# The runtime: walk, a crossfade to wave over 0.5 s started at 0, at 0.25 s
# (the middle, where the page's smoothstep and export's linear fade agree).
FADE = ("walk", "wave", 0.5, 0.25)
# The spring bones: walk from 0, 20 updates of 1/60 s (export: 20 steps).
SPRINGS = ("walk", 20)
WIDTH, HEIGHT = 320, 240
BACKGROUND = (219, 227, 237)  # the page's clear colour (0.86, 0.89, 0.93) in 8 bits


def fail(message):
    print("FAIL " + message)
    sys.exit(1)


def chromium_binary():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map,
                          **{".wasm": "application/wasm", ".js": "text/javascript"})

    def log_message(self, *args):
        pass


def serve(folder):
    """An HTTP server on a free port of 127.0.0.1, in a thread."""
    handler = functools.partial(QuietHandler, directory=folder)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def run_chromium(chromium, profile, url, *args):
    command = [chromium, "--headless", "--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
               "--hide-scrollbars", "--no-first-run", "--disable-extensions", "--user-data-dir=" + profile,
               "--window-size=%d,%d" % (WIDTH, HEIGHT), "--virtual-time-budget=30000", *args, url]
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    if done.returncode != 0:
        fail("chromium exited %d: %s" % (done.returncode, done.stderr.decode(errors="replace")[-2000:]))
    return done.stdout.decode(errors="replace")


def read_png(path):
    """RGB rows of an 8-bit RGB or RGBA PNG (what Chromium writes), by the PNG specification's filters."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(path + ": not a PNG")
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or colour not in (2, 6) or interlace:
                fail("%s: PNG depth %d colour type %d interlace %d not read here" % (path, depth, colour, interlace))
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b = previous[x]
            c = previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])
        previous = line
    return rows


def check_pose(page_result, native_json):
    nodes = page_result["nodes"]
    native = [node["world_by_time"][0] for node in native_json["nodes"]]
    if len(nodes) != 12 * len(native):
        fail("the page posed %d nodes, the native export %d" % (len(nodes) // 12, len(native)))
    # The model's size: the diagonal of its skinned vertices' bounds at that time.
    lo, hi = [float("inf")] * 3, [float("-inf")] * 3
    for primitive in native_json["primitives"]:
        positions = primitive["positions_by_time"][0]
        for i in range(0, len(positions), 3):
            for c in range(3):
                lo[c] = min(lo[c], positions[i + c])
                hi[c] = max(hi[c], positions[i + c])
    size = sum((hi[c] - lo[c]) ** 2 for c in range(3)) ** 0.5
    worst, where = 0.0, None
    for n, rows in enumerate(native):
        flat = [v for row in rows for v in row] if isinstance(rows[0], list) else rows
        for k in range(12):
            d = abs(nodes[12 * n + k] - flat[k])
            if d > worst:
                worst, where = d, (n, k)
    print("pose: %d nodes, largest difference %.3g (model size %.3f m, limit %.3g) at node %s" %
          (len(native), worst, size, 1e-5 * size, where))
    if not worst <= 1e-5 * size:
        fail("the WebAssembly pose differs from the native one by %g > 1e-5 x %g" % (worst, size))
    # The skinned vertices (the WebAssembly SIMD128 kernel against the native one).
    native_positions = [v for primitive in native_json["primitives"] for v in primitive["positions_by_time"][0]]
    positions = page_result["positions"]
    if len(positions) != len(native_positions):
        fail("the page skinned %d vertices, the native export %d" % (len(positions) // 3, len(native_positions) // 3))
    worst_vertex = max(abs(a - b) for a, b in zip(positions, native_positions))
    print("skinning: %d vertices, largest difference %.3g" % (len(positions) // 3, worst_vertex))
    if not worst_vertex <= 1e-5 * size:
        fail("the WebAssembly vertices differ from the native ones by %g > 1e-5 x %g" % (worst_vertex, size))
    if not any(abs(nodes[12 * n + 7]) > 0.1 * size for n in range(len(native))):
        fail("the page's pose is all at the origin")
    return size


def check_fade(page_result, fade_json, size):
    """The page's runtime mid-crossfade against `sinew export --crossfade`."""
    native = [v for primitive in fade_json["primitives"] for v in primitive["positions_by_time"][0]]
    fade = page_result.get("fade") or []
    if len(fade) != len(native):
        fail("the page's crossfade frame has %d vertices, the native export %d" % (len(fade) // 3, len(native) // 3))
    worst = max(abs(a - b) for a, b in zip(fade, native))
    print("crossfade walk -> wave at its middle: largest difference %.3g (limit %.3g)" % (worst, 1e-5 * size))
    if not worst <= 1e-5 * size:
        fail("the page's crossfade differs from the native one by %g" % worst)


def check_springs(page_result, springs_json, still_json, size):
    """The page's spring bones against `sinew export` (springs on: stepped from 0 at 1/60 s)."""
    native = [v for primitive in springs_json["primitives"] for v in primitive["positions_by_time"][0]]
    page = page_result.get("springs") or []
    if len(page) != len(native):
        fail("the page's springs frame has %d vertices, the native export %d" % (len(page) // 3, len(native) // 3))
    worst = max(abs(a - b) for a, b in zip(page, native))
    print("springs, walk after 20 steps: largest difference %.3g (limit %.3g)" % (worst, 1e-5 * size))
    if not worst <= 1e-5 * size:
        fail("the page's spring bones differ from the native ones by %g" % worst)
    still = [v for primitive in still_json["primitives"] for v in primitive["positions_by_time"][0]]
    moved = max(abs(a - b) for a, b in zip(page, still))
    print("... the springs moved vertices up to %.3g m from the pose without them" % moved)
    if not moved > 1e-3 * size:
        fail("the springs moved nothing (%g): the comparison above proves nothing" % moved)


def check_picture(path):
    rows = read_png(path)
    height, width = len(rows), len(rows[0])
    drawn = [(x, y) for y in range(height) for x in range(width)
             if max(abs(rows[y][x][c] - BACKGROUND[c]) for c in range(3)) > 24]
    share = len(drawn) / float(width * height)
    if not drawn:
        fail("the screenshot is all background: nothing drawn")
    xs, ys = [p[0] for p in drawn], [p[1] for p in drawn]
    box = (min(xs), min(ys), max(xs), max(ys))
    print("picture: %d×%d, %.1f %% of the pixels drawn, in the box %s" % (width, height, 100 * share, box))
    # A standing character framed by the page: a few percent of the picture,
    # taller than wide, around the middle, the corners left background.
    if not 0.01 <= share <= 0.5:
        fail("%.1f %% of the pixels differ from the background: not a framed character" % (100 * share))
    if not (box[3] - box[1]) > 1.5 * (box[2] - box[0]):
        fail("what is drawn is not taller than wide: %s" % (box,))
    centre = (box[0] + box[2]) / 2.0
    if abs(centre - width / 2.0) > width / 4.0:
        fail("what is drawn is off the middle: %s" % (box,))
    dark = sum(1 for x, y in drawn if sum(rows[y][x]) < 150)
    if dark == 0:
        fail("no dark pixels: the outlines (and the dark clothes) are missing")


def main():
    if len(sys.argv) != 5:
        print(__doc__)
        return 2
    root, native, out, obj = sys.argv[1:]
    build = subprocess.run(["sh", os.path.join(root, "scripts", "build-web.sh"), out, obj, native])
    if build.returncode == SKIP:
        print("skipped: emscripten is not installed (scripts/install-deps.sh --test installs it)")
        return SKIP
    if build.returncode != 0:
        fail("scripts/build-web.sh exited %d" % build.returncode)
    chromium = chromium_binary()
    if not chromium:
        print("skipped: chromium is not installed (scripts/install-deps.sh --test installs it)")
        return SKIP

    server = serve(out)
    url = "http://127.0.0.1:%d/index.html?test=%s,%s&fade=%s,%s,%s,%s&springs=%s,%d" % (
        (server.server_address[1], CLIP, TIME) + FADE + SPRINGS)
    with tempfile.TemporaryDirectory(prefix="sinew-web-") as scratch:
        # The two browser runs at once (two cores): the screenshot's in a thread.
        shot = os.path.join(scratch, "page.png")
        screenshot = threading.Thread(target=run_chromium, args=(chromium, os.path.join(scratch, "profile2"), url,
                                                                 "--screenshot=" + shot))
        screenshot.start()
        dom = run_chromium(chromium, os.path.join(scratch, "profile"), url, "--dump-dom")
        match = re.search(r'<pre id="result"[^>]*>(.*?)</pre>', dom, re.S)
        if not match or not match.group(1).strip():
            fail("the page wrote no result (title: %s)" % re.findall(r"<title>(.*?)</title>", dom))
        result = json.loads(html.unescape(match.group(1)))
        if "error" in result:
            fail("the page: " + result["error"])
        native_json = json.loads(subprocess.run(
            [native, "export", os.path.join(out, "demo.glb"), "--anim", CLIP, "--times", str(TIME), "--joints",
             "--springs", "off", "--quiet", "-o", "-"], stdout=subprocess.PIPE, check=True).stdout)
        size = check_pose(result, native_json)
        fade_json = json.loads(subprocess.run(
            [native, "export", os.path.join(out, "demo.glb"), "--crossfade", "%s,%s,0,%s" % FADE[:3], "--times",
             str(FADE[3]), "--springs", "off", "--quiet", "-o", "-"], stdout=subprocess.PIPE, check=True).stdout)
        check_fade(result, fade_json, size)
        springs_json = json.loads(subprocess.run(
            [native, "export", os.path.join(out, "demo.glb"), "--anim", SPRINGS[0], "--times", "%.9f" % (SPRINGS[1] / 60.0),
             "--quiet", "-o", "-"], stdout=subprocess.PIPE, check=True).stdout)
        still_json = json.loads(subprocess.run(
            [native, "export", os.path.join(out, "demo.glb"), "--anim", SPRINGS[0], "--times", "%.9f" % (SPRINGS[1] / 60.0),
             "--springs", "off", "--quiet", "-o", "-"], stdout=subprocess.PIPE, check=True).stdout)
        check_springs(result, springs_json, still_json, size)
        screenshot.join()
        if not os.path.exists(shot):
            fail("chromium wrote no screenshot")
        check_picture(shot)
    server.shutdown()
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
