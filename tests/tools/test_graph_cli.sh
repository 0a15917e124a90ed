#!/bin/sh
# `--graph FILE|demo` and `--set NAME=VALUE[@T]` on `sinew export` and
# `sinew render` (tools/graph_program.c), with the demo character:
# - the issue's check through the command line: walk → wave when wave >
#   0.5 over 0.3 s, wave = 1 at 1.0 s; at 0.9 s the joints are walk's at
#   0.9 s, at 1.5 s wave's at 0.5 s (1e-5 m). Spring bones are off: they
#   carry the history of the whole run, which a single clip does not share;
# - root motion: a graph that extracts the pelvis's x plays the clip in
#   place and moves the character by it, so its joints are the clip's;
# - the demo graph: built in (`demo`) it is docs/demo-graph.json; idle plays
#   idle; speed = 1 at 0.5 s leaves idle; speed 1, direction -1 is
#   walk_left exactly (a sample point of the 2-D space); reach = 1 puts the
#   right hand on (reach_x, reach_y, reach_z) within 1 mm (the IK node);
# - render with --graph and --set writes its frames;
# - bad options fail with one line naming the option; view parses them too
#   (the overlay line needs a window: not checked here).
# Usage: sh test_graph_cli.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

. "$(dirname "$0")/cli_harness.inc"

DOCS=$(cd "$(dirname "$0")/../../docs" && pwd)

if ! command -v python3 >/dev/null 2>&1; then
    echo "skipped: python3 is not installed"
    finish
    exit 0
fi

# near A B TOL IA,IB [IA,IB...]: every skin joint's world position at time
# IA of A within TOL metres of time IB of B (the skinned mesh's own node is
# left out: skinning does not read it, and root motion moves it).
cat >"$WORK/near.py" <<'PY'
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
tol = float(sys.argv[3])
joints = {j["node_index"] for s in a["skins"] for j in s["joints"]}
worst = 0.0
for pair in sys.argv[4:]:
    ia, ib = (int(x) for x in pair.split(","))
    for na, nb in zip(a["nodes"], b["nodes"]):
        if na["node_index"] not in joints:
            continue
        ma, mb = na["world_by_time"][ia], nb["world_by_time"][ib]
        worst = max(worst, max(abs(ma[k] - mb[k]) for k in (3, 7, 11)))
print("largest difference %.3g m" % worst)
sys.exit(0 if worst <= tol and joints and len(a["nodes"]) == len(b["nodes"]) else 1)
PY
near() { python3 "$WORK/near.py" "$@"; }
differ() { ! python3 "$WORK/near.py" "$@" >/dev/null; }

sinew demo-asset -o "$WORK/demo.glb"
check "demo-asset writes the demo character" status_is 0
DEMO=$WORK/demo.glb

cat >"$WORK/walk_wave.json" <<'JSON'
{"parameters": {"wave": 0},
 "states": {"walk": {"clip": "walk"}, "wave": {"clip": "wave"}},
 "transitions": [{"from": "walk", "to": "wave", "when": "wave > 0.5", "duration": 0.3}]}
JSON

sinew export "$DEMO" --graph "$WORK/walk_wave.json" --set wave=1@1.0 --times 0.9,1.5 --joints --springs off \
    -o "$WORK/graph.json"
check "export --graph --set exits 0" status_is 0
sinew export "$DEMO" --anim walk --times 0.9 --joints --springs off -o "$WORK/walk.json"
sinew export "$DEMO" --anim wave --times 0.5 --joints --springs off -o "$WORK/wave.json"
check "graph at 0.9 s = walk at 0.9 s (1e-5 m)" near "$WORK/graph.json" "$WORK/walk.json" 1e-5 0,0
check "graph at 1.5 s = wave at 0.5 s (1e-5 m)" near "$WORK/graph.json" "$WORK/wave.json" 1e-5 1,0
sinew export "$DEMO" --graph "$WORK/walk_wave.json" --set wave=1@1.1 --times 0.9,1.5 --joints --springs off \
    -o "$WORK/late.json"
check "a set at 1.1 s is later: not wave at 0.5 s" differ "$WORK/late.json" "$WORK/wave.json" 1e-4 1,0

cat >"$WORK/root.json" <<'JSON'
{"parameters": {}, "states": {"walk": {"clip": "walk"}},
 "root_motion": {"joint": "pelvis", "components": ["x"]}}
JSON
sinew export "$DEMO" --graph "$WORK/root.json" --times 0.5,0.75 --joints --springs off -o "$WORK/root_out.json"
check "export --graph with root_motion exits 0" status_is 0
sinew export "$DEMO" --anim walk --times 0.5,0.75 --joints --springs off -o "$WORK/walk2.json"
check "root motion moves the character as the clip does (1e-5 m)" \
    near "$WORK/root_out.json" "$WORK/walk2.json" 1e-5 0,0 1,1

sinew export "$DEMO" --graph demo --set speed=0.5@0.2 --set wave=trigger@1 --times 0,0.5,1.5 --joints \
    -o "$WORK/demo_builtin.json"
check "export --graph demo exits 0" status_is 0
sinew export "$DEMO" --graph "$DOCS/demo-graph.json" --set speed=0.5@0.2 --set wave=trigger@1 --times 0,0.5,1.5 \
    --joints -o "$WORK/demo_file.json"
check "the built-in demo graph is docs/demo-graph.json" near "$WORK/demo_builtin.json" "$WORK/demo_file.json" 0 0,0 1,1 2,2
sinew export "$DEMO" --graph demo --times 1.0 --joints --springs off -o "$WORK/idle.json"
sinew export "$DEMO" --anim idle --times 1.0 --joints --springs off -o "$WORK/idle_clip.json"
check "the demo graph's idle plays idle" near "$WORK/idle.json" "$WORK/idle_clip.json" 1e-5 0,0
sinew export "$DEMO" --graph demo --set speed=1@0.5 --times 1.0 --joints --springs off -o "$WORK/moving.json"
check "speed = 1 at 0.5 s leaves idle" differ "$WORK/moving.json" "$WORK/idle_clip.json" 1e-3 0,0
sinew export "$DEMO" --graph demo --set speed=1 --set direction=-1 --times 2.25 --joints --springs off \
    -o "$WORK/left.json"
sinew export "$DEMO" --anim walk_left --times 0.25 --joints --springs off -o "$WORK/left_clip.json"
check "speed 1, direction -1 is walk_left (1e-5 m)" near "$WORK/left.json" "$WORK/left_clip.json" 1e-5 0,0
sinew export "$DEMO" --graph demo --set reach=1 --set reach_y=1.3 --times 1.0 --joints --springs off \
    -o "$WORK/reach.json"
check "reach = 1: the right hand on its target (1 mm)" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
hand = [n for n in d["nodes"] if n.get("name") == "hand_r"][0]["world_by_time"][0]
miss = sum((hand[k] - t) ** 2 for k, t in ((3, -0.25), (7, 1.3), (11, 0.3))) ** 0.5
print("hand %.3g m from the target" % miss)
sys.exit(0 if miss < 1e-3 else 1)' "$WORK/reach.json"

sinew render --graph demo --set speed=1@0.2 --time 0.5 --frames 2 --fps 10 --size 160x120 -o "$WORK/frames/%04d.png"
check "render --graph demo --set writes its frames" exists "$WORK/frames/0001.png"

# bad options: exit 2, one line on stderr naming the option
bad() {
    expect=$1
    shift
    sinew export "$DEMO" "$@" -o "$WORK/bad.json"
    status_is 2 && [ "$(wc -l <"$WORK/err")" -eq 1 ] && err_has_text "$expect" && missing "$WORK/bad.json"
}
check "unknown parameter" bad "--set: 'sped=1': unknown parameter 'sped'" --graph demo --set sped=1
check "bad value" bad "--set: 'speed=fast': VALUE 'fast' is not a number" --graph demo --set speed=fast
check "bad time" bad "--set: 'speed=1@-2': time '-2' is not" --graph demo --set speed=1@-2
check "a value not of the parameter's type" bad "'wave' is a trigger parameter" --graph demo --set wave=2
check "--set without --graph" bad "--set: needs --graph" --set speed=1
check "missing graph file" bad "--graph: cannot open" --graph "$WORK/none.json"
printf '{"states": {"a": {"clip": "nope"}}}' >"$WORK/badclip.json"
check "a graph naming a clip the model lacks" bad 'states.a.clip: no clip "nope"' --graph "$WORK/badclip.json"
check "--graph with --in-place" bad "--in-place: not with --graph" --graph demo --in-place
check "--graph with --blend" bad "--graph: give --graph or --blend, not both" --graph demo --blend walk:1

# view parses the same options (before it needs a display)
sinew view --set speed=1
check "view: --set without --graph" sh -c '[ "$0" -eq 2 ] && [ "$(wc -l <"$1")" -eq 1 ] && grep -q -e "--set: needs --graph" "$1"' \
    "$rc" "$WORK/err"
for command in export render view; do
    sinew "$command" --help
    check "$command --help documents --graph and --set" sh -c 'grep -q -e "--graph FILE|demo" "$0" && grep -q -e "--set NAME=VALUE\[@T\]" "$0"' \
        "$WORK/out"
done

finish
