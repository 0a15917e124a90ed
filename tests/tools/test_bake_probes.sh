#!/bin/sh
# `sinew bake probes` and `--probes` (docs/probes.md): a small grid of the
# demo stage baked into a probe file of the documented size and header; a
# stage's probe* node as the probe, its box from the node's transform;
# usage errors (exit 2); a damaged file refused by render with one line
# naming the file and the problem (exit 1); a render with the file.
# (tests/render/test_probe_math.c checks the file's reader byte by byte,
# versions 1 and 2,
# tests/render/test_probes.c the lighting.)
# Usage: sh test_bake_probes.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

. "$(dirname "$0")/cli_harness.inc"

one_line_err() { [ "$(wc -l <"$WORK/err")" -eq 1 ]; }
size_is() { [ "$(wc -c <"$1")" -eq "$2" ]; }

sinew bake probes demo --grid 2,1 --size 8 -o "$WORK/p.probes"
check "bake probes: a 2x1 grid of the demo stage" status_is 0
check "... says what it wrote" err_has "wrote .*p.probes (2 probes"
# version 2: 32 + 2 x 148 + 3 cubes of 6 x (8² + 4² + 2² + 1²) x 3 floats
check "... 32 + 2 x 148 + 3 x 6120 bytes" size_is "$WORK/p.probes" 18688
check "... the SWPROBES header" [ "$(head -c 8 "$WORK/p.probes")" = "SWPROBES" ]

# A stage with its own probes: a node named Probe_A at (1, 1, 0) scaled by
# (2, 1, 1), so its box is x −1..3, y 0..2, z −1..1, fade 0.5.
/usr/bin/python3 - "$WORK/probe_stage.gltf" <<'PY'
import base64, json, struct, sys
pos = struct.pack("<9f", -5, 0, -5, 5, 0, -5, 0, 0, 5)
doc = {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0, 1]}],
       "nodes": [{"name": "ground", "mesh": 0},
                 {"name": "Probe_A", "translation": [1, 1, 0], "scale": [2, 1, 1]}],
       "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
       "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                      "min": [-5, 0, -5], "max": [5, 0, 5]}],
       "bufferViews": [{"buffer": 0, "byteLength": 36}],
       "buffers": [{"byteLength": 36, "uri": "data:application/octet-stream;base64," + base64.b64encode(pos).decode()}]}
open(sys.argv[1], "w").write(json.dumps(doc))
PY
sinew bake probes "$WORK/probe_stage.gltf" --size 8 -o "$WORK/n.probes"
check "bake probes: a stage's probe* node" status_is 0
check "... one probe (and the global cube)" size_is "$WORK/n.probes" 12420
check "... at the node, its box the node's cube, fade 0.5" \
    [ "$(/usr/bin/python3 -c 'import struct,sys; print(struct.unpack_from("<10f", open(sys.argv[1], "rb").read(), 32))' "$WORK/n.probes")" = \
      "(1.0, 1.0, 0.0, -1.0, 0.0, -1.0, 3.0, 2.0, 1.0, 0.5)" ]
sinew bake probes "$WORK/probe_stage.gltf" --size 8 --grid 2,2 -o "$WORK/n.probes"
check "... --grid with probe nodes: a warning" err_has "nodes named probe\*: --grid and --height are not used"

sinew bake probes -o "$WORK/u.probes"
check "no STAGE: usage error" status_is 2
check "... nothing written" missing "$WORK/u.probes"
sinew bake probes demo --grid 9,9 -o "$WORK/u.probes"
check "more than 64 probes: usage error" status_is 2
sinew bake probes demo
check "no output: usage error" status_is 2
sinew bake probes "$WORK/none.glb" -o "$WORK/u.probes"
check "a missing stage: failure" status_is 1
check "... nothing written" missing "$WORK/u.probes"

sinew render --probes "$WORK/p.probes" --size 64x48 -o "$WORK/r.png"
check "--probes without --stage: usage error" status_is 2
check "... saying --stage" err_has "give --stage"
head -c 100 "$WORK/p.probes" >"$WORK/short.probes"
sinew render --stage demo --probes "$WORK/short.probes" --size 64x48 -o "$WORK/r.png"
check "a truncated probe file: failure" status_is 1
check "... one line naming the file" err_has "short.probes: 100 bytes for 2 probes.*truncated"
check "... one line" one_line_err
printf 'SWPROBES\003\000\000\000' >"$WORK/v3.probes"
tail -c +13 "$WORK/p.probes" >>"$WORK/v3.probes"
sinew render --stage demo --probes "$WORK/v3.probes" --size 64x48 -o "$WORK/r.png"
check "another version: failure" status_is 1
check "... saying the version" err_has "version 3: this reader knows versions 1 and 2"
sinew render --stage demo --probes "$WORK/missing.probes" --size 64x48 -o "$WORK/r.png"
check "a missing probe file: failure naming it" err_has "cannot open .*missing.probes"

sinew render --stage demo --probes "$WORK/p.probes" --size 64x48 --aa none -o "$WORK/r.png"
check "render --stage demo --probes FILE" status_is 0
check "... writes the picture" exists "$WORK/r.png"

finish
