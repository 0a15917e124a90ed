#!/bin/sh
# The animation options of `sinew export` (and their parsing in `sinew
# render`): --blend, --sync, --crossfade, --layer, --additive, --in-place,
# --ik, --look-at, --springs. Each is checked through `export --joints`
# (every node's world matrix per time) against an independent expectation:
# another export, or the geometry itself (python3 reads the JSON).
# The small checks use tests/data/gltf/pose_chain.gltf; SINEW_ASSETS adds
# arnaud's walk (in-place, a leg's IK); skipped, saying so, without it.
# Usage: sh test_anim_options.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

. "$(dirname "$0")/cli_harness.inc"

DATA=$(cd "$(dirname "$0")/../data/gltf" && pwd)
CHAIN=$DATA/pose_chain.gltf

if ! command -v python3 >/dev/null 2>&1; then
    echo "skipped: python3 is not installed"
    finish
    exit 0
fi

# The JSON checks, one python3 file: `py CHECK ARGS...` exits 0 when the check holds.
cat >"$WORK/check.py" <<'EOF'
import json, math, sys

def load(path):
    with open(path) as f:
        return json.load(f)

def world(doc, name):
    for n in doc["nodes"]:
        if n["name"] == name:
            return n["world_by_time"]
    sys.exit("no node %r" % name)

def close(a, b, tol):
    return all(abs(x - y) <= tol * max(1.0, abs(x), abs(y)) for x, y in zip(a, b)) and len(a) == len(b)

def same_nodes(a, b, names, times_a, times_b, tol):
    for name in names:
        wa, wb = world(a, name), world(b, name)
        for ta, tb in zip(times_a, times_b):
            if not close(wa[ta], wb[tb], tol):
                print("node %s differs at time index %d / %d:\n  %s\n  %s" % (name, ta, tb, wa[ta], wb[tb]))
                return False
    return True

def pos(m):
    return [m[3], m[7], m[11]]

cmd = sys.argv[1]
if cmd == "same":  # A B TOL [NODE...]: every (or the named) node's world matrices equal at every time
    a, b = load(sys.argv[2]), load(sys.argv[3])
    names = sys.argv[5:] or [n["name"] for n in a["nodes"]]
    t = list(range(len(a["times"])))
    ok = len(a["times"]) == len(b["times"]) and same_nodes(a, b, names, t, t, float(sys.argv[4]))
    sys.exit(0 if ok else 1)
if cmd == "pick":  # A B TOL IA,IB,...: time IA of A equals time IB of B, every node, pairs
    a, b = load(sys.argv[2]), load(sys.argv[3])
    pairs = [tuple(int(x) for x in p.split(":")) for p in sys.argv[5].split(",")]
    names = [n["name"] for n in a["nodes"]]
    sys.exit(0 if same_nodes(a, b, names, [p[0] for p in pairs], [p[1] for p in pairs], float(sys.argv[4])) else 1)
if cmd == "differs":  # A B NODE: the node moves differently somewhere (the option did something)
    a, b = load(sys.argv[2]), load(sys.argv[3])
    wa, wb = world(a, sys.argv[4]), world(b, sys.argv[4])
    sys.exit(0 if any(not close(x, y, 1e-4) for x, y in zip(wa, wb)) else 1)
if cmd == "flat":  # A NODE TOL: the node's world X and Z are constant over time
    w = world(load(sys.argv[2]), sys.argv[3])
    p0 = pos(w[0])
    for m in w:
        p = pos(m)
        if abs(p[0] - p0[0]) > float(sys.argv[4]) or abs(p[2] - p0[2]) > float(sys.argv[4]):
            print("moves horizontally: %s then %s" % (p0, p))
            sys.exit(1)
    sys.exit(0)
if cmd == "at":  # A NODE X,Y,Z TOL: the node's world position is the point at every time
    w = world(load(sys.argv[2]), sys.argv[3])
    target = [float(x) for x in sys.argv[4].split(",")]
    for m in w:
        d = math.dist(pos(m), target)
        if d > float(sys.argv[5]):
            print("%s is %g from %s" % (pos(m), d, target))
            sys.exit(1)
    sys.exit(0)
if cmd == "aims":  # A NODE X,Y,Z: the node's world +Z points at the point at every time (within 1e-3 rad)
    w = world(load(sys.argv[2]), sys.argv[3])
    target = [float(x) for x in sys.argv[4].split(",")]
    for m in w:
        z = [m[2], m[6], m[10]]
        d = [t - p for t, p in zip(target, pos(m))]
        c = sum(a * b for a, b in zip(z, d)) / (math.hypot(*z) * math.hypot(*d))
        if math.acos(max(-1.0, min(1.0, c))) > 1e-3:
            print("+Z %s is %g rad off %s" % (z, math.acos(c), d))
            sys.exit(1)
    sys.exit(0)
if cmd == "reach":  # A END: prints a reachable target for END's two-bone chain at time 0
    a = load(sys.argv[2])
    nodes = {n["node_index"]: n for n in a["nodes"]}
    end = next(n for n in a["nodes"] if n["name"] == sys.argv[3])
    mid = nodes[end["parent_index"]]
    start = nodes[mid["parent_index"]]
    pa, pb, pc = pos(start["world_by_time"][0]), pos(mid["world_by_time"][0]), pos(end["world_by_time"][0])
    l1, l2 = math.dist(pa, pb), math.dist(pb, pc)
    # Bend the chain: a target at 85 % of the reach, off the current line.
    d = [c - a_ for c, a_ in zip(pc, pa)]
    n = math.hypot(*d)
    d = [x / n for x in d]
    side = [0.0, 0.0, 1.0] if abs(d[2]) < 0.9 else [1.0, 0.0, 0.0]
    r = max(abs(l1 - l2) * 1.2, 0.85 * (l1 + l2))
    t = [pa[i] + r * (0.9 * d[i] + 0.43 * side[i]) / math.hypot(0.9, 0.43) for i in range(3)]
    print("%.6f,%.6f,%.6f" % tuple(t))
    sys.exit(0)
sys.exit("unknown check " + cmd)
EOF
py() { python3 "$WORK/check.py" "$@"; }

export_to() { # FILE ARGS...: export --joints of ARGS to FILE
    file=$1
    shift
    sinew export "$@" --joints --quiet -o "$file"
}

T=0,0.1,0.25,0.5,0.75,1

# --blend A:1,B:0 is --anim A.
export_to "$WORK/turn.json" "$CHAIN" --anim turn --times $T
check "export --anim turn exits 0" status_is 0
export_to "$WORK/blend10.json" "$CHAIN" --blend turn:1,two:0 --times $T
check "--blend turn:1,two:0 exits 0" status_is 0
check "--blend turn:1,two:0 equals --anim turn" py same "$WORK/turn.json" "$WORK/blend10.json" 1e-6
export_to "$WORK/blend01.json" "$CHAIN" --blend 0:0,1:1 --times $T
export_to "$WORK/two.json" "$CHAIN" --anim two --times $T
check "--blend by index: 0:0,1:1 equals --anim two" py same "$WORK/two.json" "$WORK/blend01.json" 1e-6
export_to "$WORK/blend55.json" "$CHAIN" --blend turn:0.5,two:0.5 --times $T
check "--blend 50/50 differs from either clip" py differs "$WORK/turn.json" "$WORK/blend55.json" tip
# Equal durations: synchronised phases are the clips' own times.
export_to "$WORK/sync.json" "$CHAIN" --blend turn:0.5,two:0.5 --sync --times $T
check "--sync exits 0" status_is 0
check "--sync of clips of one length equals the plain blend" py same "$WORK/blend55.json" "$WORK/sync.json" 1e-5

# --crossfade FROM,TO,START,DURATION: FROM before START, TO (from its start) after START + DURATION.
export_to "$WORK/fade.json" "$CHAIN" --crossfade turn,two,0.2,0.3 --times 0,0.1,0.2,0.35,0.5,0.7,0.9
check "--crossfade exits 0" status_is 0
export_to "$WORK/fade_two.json" "$CHAIN" --anim two --times 0.3,0.5,0.7
check "--crossfade: FROM up to START" py pick "$WORK/turn.json" "$WORK/fade.json" 1e-6 0:0,1:1
check "--crossfade: TO after START + DURATION, TO's time from START" \
    py pick "$WORK/fade_two.json" "$WORK/fade.json" 1e-6 0:4,1:5,2:6
check "--crossfade: a mix inside the fade" py differs "$WORK/turn.json" "$WORK/fade.json" tip

# --layer CLIP:MASKROOT: nodes outside MASKROOT's subtree keep the base pose.
export_to "$WORK/layer.json" "$CHAIN" --anim turn --layer two:tip --times $T
check "--layer two:tip exits 0" status_is 0
check "--layer keeps nodes outside the subtree" py same "$WORK/turn.json" "$WORK/layer.json" 1e-6 root mesh
check "--layer changes the subtree" py differs "$WORK/turn.json" "$WORK/layer.json" scaled
export_to "$WORK/layer0.json" "$CHAIN" --anim turn --layer two:0:0 --times $T
check "--layer at weight 0 keeps the base (MASKROOT by file index)" py same "$WORK/turn.json" "$WORK/layer0.json" 1e-6

# --additive CLIP:0 is the base; CLIP:1 moves it.
export_to "$WORK/add0.json" "$CHAIN" --anim turn --additive two:0 --times $T
check "--additive two:0 exits 0" status_is 0
check "--additive two:0 equals the base" py same "$WORK/turn.json" "$WORK/add0.json" 1e-6
export_to "$WORK/add1.json" "$CHAIN" --anim turn --additive two --times $T
check "--additive two adds motion" py differs "$WORK/turn.json" "$WORK/add1.json" scaled

# --ik: the chain end reaches a reachable point (root -> tip -> scaled).
export_to "$WORK/rest.json" "$CHAIN" --anim none
GOAL=$(py reach "$WORK/rest.json" scaled)
export_to "$WORK/ik.json" "$CHAIN" --anim turn --ik "scaled:$GOAL" --times $T
check "--ik scaled:$GOAL exits 0" status_is 0
check "--ik puts the end joint on the target within 1e-3" py at "$WORK/ik.json" scaled "$GOAL" 1e-3
export_to "$WORK/ikpole.json" "$CHAIN" --anim turn --ik "scaled:$GOAL:0,0,5" --times $T
check "--ik with a pole point exits 0" status_is 0
check "--ik with a pole reaches the target" py at "$WORK/ikpole.json" scaled "$GOAL" 1e-3

# --look-at: the joint's +Z points at the target.
export_to "$WORK/look.json" "$CHAIN" --anim turn --look-at tip:3,4,5 --times $T
check "--look-at tip:3,4,5 exits 0" status_is 0
check "--look-at points tip's +Z at the target" py aims "$WORK/look.json" tip 3,4,5

# --springs on|off on a model without spring bones changes nothing.
export_to "$WORK/springs.json" "$CHAIN" --anim turn --springs on --times $T
check "--springs on without spring bones equals the plain export" py same "$WORK/turn.json" "$WORK/springs.json" 0

# A model with spring bones (VRM 1.0 hair): on by default, off gives the plain pose.
HAIR=$(cd "$(dirname "$0")/../data/vrm" && pwd)/hair_vrm1.gltf
export_to "$WORK/hair_on.json" "$HAIR" --anim none --times 0,0.1,0.2,0.5
check "springs by default on a VRM model exits 0" status_is 0
export_to "$WORK/hair_off.json" "$HAIR" --anim none --springs off --times 0,0.1,0.2,0.5
export_to "$WORK/hair_plain.json" "$HAIR" --anim none --springs off --times 0,0.1,0.2,0.5 --in-place
check "--springs off equals --springs off with a no-op option" py same "$WORK/hair_off.json" "$WORK/hair_plain.json" 0
check "spring bones move the hair over time" sh -c "! python3 '$WORK/check.py' same '$WORK/hair_on.json' '$WORK/hair_off.json' 1e-6"

# Usage errors: exit 2, one line naming the option, nothing written.
usage_error() { # NAME OPTION ARGS...
    name=$1
    option=$2
    shift 2
    rm -f "$WORK/bad.json"
    sinew export "$CHAIN" "$@" --joints -o "$WORK/bad.json"
    check "$name: exit 2" status_is 2
    check "$name: names $option" err_has_text "$option"
    check "$name: one line" sh -c "[ \$(wc -l <'$WORK/err') -eq 1 ]"
    check "$name: no output" missing "$WORK/bad.json"
}
usage_error "--blend unknown clip" --blend --blend nope:1
usage_error "--blend without weight" --blend --blend turn
usage_error "--blend negative weight" --blend --blend turn:-1
usage_error "--blend twice" --blend --blend turn:1 --blend two:1
usage_error "--sync without --blend" --sync --sync
usage_error "--sync with zero weights" --sync --blend turn:0,two:0 --sync
usage_error "--crossfade short" --crossfade --crossfade turn,two,0.5
usage_error "--crossfade unknown clip" --crossfade --crossfade turn,nope,0,1
usage_error "--crossfade negative duration" --crossfade --crossfade turn,two,0,-1
usage_error "--crossfade with --blend" --crossfade --crossfade turn,two,0,1 --blend turn:1
usage_error "--layer unknown joint" --layer --layer two:nope
usage_error "--layer unknown clip" --layer --layer nope:tip
usage_error "--layer weight above 1" --layer --layer two:tip:2
usage_error "--layer without root" --layer --layer two
usage_error "--additive unknown clip" --additive --additive nope
usage_error "--additive weight above 1" --additive --additive two:1.5
usage_error "--ik unknown joint" --ik --ik nope:1,2,3
usage_error "--ik two numbers" --ik --ik scaled:1,2
usage_error "--ik not a number" --ik --ik scaled:1,x,3
usage_error "--ik bad pole" --ik --ik scaled:1,2,3:4,5
usage_error "--ik without grandparent" --ik --ik tip:1,2,3
usage_error "--look-at unknown joint" --look-at --look-at nope:1,2,3
usage_error "--look-at malformed" --look-at --look-at tip:1,2,3,4
usage_error "--springs bad value" --springs --springs maybe

# render parses the same options (usage errors come before any GPU work).
sinew render "$CHAIN" --blend turn -o "$WORK/bad.png"
check "render --blend malformed: exit 2" status_is 2
check "render --blend malformed: names --blend" err_has_text "--blend"
sinew render "$CHAIN" --ik tip -o "$WORK/bad.png"
check "render --ik malformed: exit 2" status_is 2
sinew render --help
check "render --help documents --crossfade" out_has "--crossfade FROM,TO,START,DURATION"
sinew export --help
check "export --help documents --look-at" out_has "--look-at JOINT:X,Y,Z"

# A character: arnaud walks in place, and a foot reaches a point.
if [ -z "${SINEW_ASSETS:-}" ]; then
    echo "skipped: arnaud checks, --in-place and a leg's --ik (SINEW_ASSETS is not set)"
else
    ARNAUD=$SINEW_ASSETS/gltf/pab/arnaud_locomotion.glb
    export_to "$WORK/walk.json" "$ARNAUD" --anim walk --samples 9
    export_to "$WORK/walk_ip.json" "$ARNAUD" --anim walk --samples 9 --in-place
    check "arnaud --in-place exits 0" status_is 0
    check "arnaud walk travels without --in-place" sh -c "! python3 '$WORK/check.py' flat '$WORK/walk.json' Pelvis 1e-3"
    check "arnaud --in-place keeps the root's horizontal position" py flat "$WORK/walk_ip.json" Pelvis 1e-3
    FOOT=$(py reach "$WORK/walk.json" LeftFoot)
    export_to "$WORK/walk_ik.json" "$ARNAUD" --anim walk --samples 9 --ik "LeftFoot:$FOOT"
    check "arnaud --ik LeftFoot exits 0" status_is 0
    # The target is reachable at time 0; the walk's hip moves, so check that time only.
    check "arnaud --ik puts LeftFoot on the target at time 0" \
        sh -c "python3 - '$WORK/walk_ik.json' '$FOOT' <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
m = next(n for n in d['nodes'] if n['name'] == 'LeftFoot')['world_by_time'][0]
t = [float(x) for x in sys.argv[2].split(',')]
sys.exit(0 if math.dist([m[3], m[7], m[11]], t) <= 1e-3 * max(1.0, math.hypot(*t)) else 1)
PY"
    export_to "$WORK/walk_layer.json" "$ARNAUD" --anim walk --samples 9 --layer crossarms:Spine1
    check "arnaud --layer crossarms:Spine1 keeps the legs" \
        py same "$WORK/walk.json" "$WORK/walk_layer.json" 1e-5 LeftFoot RightFoot Pelvis
fi

finish
