#!/bin/sh
# Node constraints (VRMC_node_constraint) in the commands: `export` applies
# them at every time without an option (render and view share its
# evaluation, tools/anim_program.c), warns about constraints on a cycle,
# and `info` counts them. Files: tests/data/vrm/constraint_*.gltf.
# Usage: sh test_constraints.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

. "$(dirname "$0")/cli_harness.inc"

DATA=$(cd "$(dirname "$0")/../data/vrm" && pwd)

if ! command -v python3 >/dev/null 2>&1; then
    echo "skipped: python3 is not installed"
    finish
    exit 0
fi

# SpinTwist rolls half of Spin's turn about X: at t = 1 and 2 Spin has
# turned 90 deg about X (and swung about Z at 2), so SpinTwist's world
# rotation is 90 + 45 = 135 deg about X at 1. Its world 3x3 rows.
cat >"$WORK/check.py" <<'PY'
import json, math, sys
doc = json.load(open(sys.argv[1]))
node = [n for n in doc["nodes"] if n["name"] == sys.argv[2]][0]
want = [float(v) for v in sys.argv[3].split(",")]
got = node["world_by_time"][int(sys.argv[4])]
rot = [got[0], got[1], got[2], got[4], got[5], got[6], got[8], got[9], got[10]]
sys.exit(0 if all(abs(a - b) < 1e-5 for a, b in zip(rot, want)) else 1)
PY
c=0.70710678
sinew export "$DATA/constraint_roll.gltf" --times 0,1 --joints -o "$WORK/roll.json" --quiet
check "export of a model with constraints exits 0" status_is 0
check "export: no warning" err_empty
check "export: the roll's destination at rest at t = 0" python3 "$WORK/check.py" "$WORK/roll.json" SpinTwist 1,0,0,0,1,0,0,0,1 0
check "export: the roll's destination at 135 deg about X at t = 1" \
    python3 "$WORK/check.py" "$WORK/roll.json" SpinTwist "1,0,0,0,-$c,-$c,0,$c,-$c" 1

sinew export "$DATA/constraint_cycle.gltf" --times 1 --joints -o "$WORK/cycle.json" --quiet
check "export of a model with a cycle exits 0" status_is 0
check "export: the cycle is a warning naming the node" \
    err_has_text "nodes[1].extensions.VRMC_node_constraint: source node 2 makes a circular dependency"
# Free copies Driver's 90 deg about X on top of its rest 90 deg about Z.
check "export: the constraint off the cycle is applied" \
    python3 "$WORK/check.py" "$WORK/cycle.json" Free "0,0,1,1,0,0,0,1,0" 0

sinew info "$DATA/constraint_chain.gltf"
check "info exits 0" status_is 0
check "info counts the constraints" out_has "node constraints: 3 (roll 1, aim 1, rotation 1)"
finish
