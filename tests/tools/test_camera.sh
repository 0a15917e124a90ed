#!/bin/sh
# `sinew render` camera control: --frame auto|path|full|upper|face|JOINT,
# --camera-target, --camera-distance, --fov, --follow, with --camera.
# Measured on the pictures (camera_measure.py reads a --view weights:JOINT
# picture): --frame face fills at least a third of the picture with the
# head's projected box (the pixels where the head's weight is above one
# half), on the demo character and on a VRM avatar whose head only the VRM
# humanoid names; --frame full leaves every vertex inside the picture (no
# body pixel on its border, from several angles and poses). Root travel:
# auto frames the character in place, path the whole path, --follow keeps
# it where it was. Option errors are usage errors (exit 2), an unknown
# joint gets the nearest name. Skips only where EGL gives no context.
# Usage: sh test_camera.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

. "$(dirname "$0")/cli_harness.inc"
PY=/usr/bin/python3
MEASURE="$(cd "$(dirname "$0")" && pwd)/camera_measure.py"
AVATAR="$(cd "$(dirname "$0")/../data/camera" && pwd)/block_avatar.vrm"
S="--size 192x108 --aa none --quiet"

# measure FILE KEY: the value camera_measure.py prints for KEY.
measure() { "$PY" "$MEASURE" "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
# at_least A B: A >= B (decimals).
at_least() { "$PY" -c 'import sys; sys.exit(0 if float(sys.argv[1]) >= float(sys.argv[2]) else 1)' "$1" "$2"; }
# below A B: A < B.
below() { "$PY" -c 'import sys; sys.exit(0 if float(sys.argv[1]) < float(sys.argv[2]) else 1)' "$1" "$2"; }

# Option parsing, before any GL: usage errors, exit status 2.
sinew render --help
check "render --help documents --frame" out_has "^  --frame F"
check "... --camera-target, --camera-distance, --fov, --follow" \
    sh -c "grep -q -e '--camera-target X,Y,Z' '$WORK/out' && grep -q -e '--camera-distance M' '$WORK/out' &&
           grep -q -e '--fov DEG' '$WORK/out' && grep -q -e '--follow' '$WORK/out'"
sinew view --help
check "view --help documents --frame too" out_has "^  --frame F"
for bad in "--camera-target 1,2" "--camera-target 1,2,x" "--camera-target 1,2,3,4" "--camera-distance 0" \
    "--camera-distance -1" "--fov 0" "--fov 171" "--fov wide" "--frame="; do
    # shellcheck disable=SC2086
    sinew render $bad -o "$WORK/bad.png"
    check "render $bad: a usage error" status_is 2
done
sinew render --camera-target 1,2 -o "$WORK/bad.png"
check "... naming the option and the form" err_has_text "--camera-target: '1,2' is not X,Y,Z"
sinew render --fov 200 -o "$WORK/bad.png"
check "--fov 200 names the range" err_has "--fov"
sinew render --crowd 4 --frame face -o "$WORK/bad.png"
check "--crowd with --frame: a usage error" status_is 2
check "... saying why" err_has_text "--frame and --follow are for one character"
check "... and no picture" missing "$WORK/bad.png"

sinew render $S --frame face -o "$WORK/face.png"
if [ "$rc" -ne 0 ] && err_has "no EGL display on this machine"; then
    echo "skipped: no EGL display here ($(cat "$WORK/err"))"
    finish
    exit 0
fi
check "--frame face renders the demo character" status_is 0

# Unknown joints: a usage error with the nearest name, and no picture.
sinew render $S --frame leftHnd -o "$WORK/x.png"
check "--frame leftHnd: a usage error" status_is 2
check "... suggesting the humanoid bone leftHand" err_has_text "has no joint 'leftHnd'; did you mean 'leftHand'?"
check "... and no picture" missing "$WORK/x.png"
sinew render $S --frame qqqqqqqqqq -o "$WORK/x.png"
check "--frame with nothing near: the joint count" err_has_text "no node or humanoid bone of that name; it has 44 nodes"
sinew render $S "$AVATAR" --frame Kopff -o "$WORK/x.png"
check "... a node name is suggested too" err_has_text "did you mean 'Kopf'?"
sinew render $S "$(dirname "$AVATAR")/../gltf/joint_chain.gltf" --frame face -o "$WORK/x.png"
check "--frame face on a model without a head: a usage error" status_is 2
check "... saying there is no head" err_has_text "has no head (no humanoid head bone and no joint named like 'Head')"

# face: the head's box covers at least a third of the picture.
for model in demo avatar; do
    if [ $model = demo ]; then m=""; head=head; else m=$AVATAR; head=Kopf; fi
    for cam in auto orbit:200,20; do
        # shellcheck disable=SC2086
        sinew render $S $m --frame face --camera $cam --view weights:$head -o "$WORK/f.png"
        box=$(measure "$WORK/f.png" box)
        check "$model, --frame face --camera $cam: the head's box is $box of the picture (>= 1/3)" at_least "$box" 0.3334
    done
done
sinew render $S --frame face --view weights:head --size 90x160 -o "$WORK/f.png"
check "... and in a portrait picture ($(measure "$WORK/f.png" box))" at_least "$(measure "$WORK/f.png" box)" 0.3334
# Without --frame the head is small: the measure tells them apart.
sinew render $S --view weights:head -o "$WORK/f.png"
check "without --frame the head covers under 5 % ($(measure "$WORK/f.png" box))" below "$(measure "$WORK/f.png" box)" 0.05

# full: every vertex inside the picture, and the body tall in it.
for model in demo avatar; do
    if [ $model = demo ]; then m=""; j=pelvis; else m=$AVATAR; j=Hips; fi
    for args in "--camera orbit:90,40" "--time 0.4 --size 90x160"; do
        # shellcheck disable=SC2086
        sinew render $S $m --frame full --view weights:$j $args -o "$WORK/full.png"
        edge=$(measure "$WORK/full.png" edge)
        check "$model, --frame full $args: no body pixel on the border ($edge)" [ "$edge" -eq 0 ]
        check "... and the body is there" at_least "$(measure "$WORK/full.png" body)" 0.02
    done
done
sinew render $S --frame full --view weights:pelvis --camera-distance 1 -o "$WORK/full.png"
check "--camera-distance 1 is nearer than full: the body crosses the border" at_least "$(measure "$WORK/full.png" edge)" 1

# --frame upper and JOINT.
sinew render $S --frame upper --view weights:head -o "$WORK/u.png"
check "--frame upper: the head larger than full's ($(measure "$WORK/u.png" box))" at_least "$(measure "$WORK/u.png" box)" 0.015
sinew render $S "$AVATAR" --frame leftHand --view weights:L_Hand -o "$WORK/h.png"
check "--frame leftHand (a VRM humanoid bone): the hand is large" at_least "$(measure "$WORK/h.png" pixels)" 0.05
sinew render $S "$AVATAR" --frame 7 --view weights:L_Hand -o "$WORK/h7.png"
check "--frame 7 (a node index) is the same joint" cmp -s "$WORK/h.png" "$WORK/h7.png"

# --camera-target, --fov: the target is at the picture's centre.
sinew render $S "$AVATAR" --frame full --camera orbit:0,0 --camera-target 0.75,1.45,0 --camera-distance 1.5 \
    --view weights:L_Hand -o "$WORK/t.png"
hx=$(measure "$WORK/t.png" hx)
check "--camera-target on the left hand: the hand at the picture's centre ($hx)" \
    "$PY" -c "import sys; sys.exit(0 if 0.45 <= $hx <= 0.55 else 1)"
sinew render $S --frame face --fov 20 --view weights:head -o "$WORK/n.png"
check "--frame face --fov 20 still fills a third ($(measure "$WORK/n.png" box))" at_least "$(measure "$WORK/n.png" box)" 0.3334

# Root travel: the avatar's clip moves its hips 4 units along +X.
sinew render --size 240x135 --aa none "$AVATAR" --view weights:Kopf --time 0.5 -o "$WORK/auto.png"
check "auto on a travelling clip says on stderr it frames the character in place" \
    err_has_text "the camera frames it at its first frame's place"
sinew render $S "$AVATAR" --frame path --view weights:Kopf --time 0.5 -o "$WORK/path.png"
a=$(measure "$WORK/auto.png" body)
p=$(measure "$WORK/path.png" body)
check "auto shows the character over 3 times larger than path ($a vs $p)" "$PY" -c "import sys; sys.exit(0 if $a > 3 * $p else 1)"
rm -rf "$WORK/still" "$WORK/follow"
sinew render $S "$AVATAR" --view weights:Kopf --frames 2 --fps 2 -o "$WORK/still/%02d.png"
sinew render $S "$AVATAR" --view weights:Kopf --frames 2 --fps 2 --follow -o "$WORK/follow/%02d.png"
s0=$(measure "$WORK/still/00.png" cx) s1=$(measure "$WORK/still/01.png" cx)
f0=$(measure "$WORK/follow/00.png" cx) f1=$(measure "$WORK/follow/01.png" cx)
check "without --follow the character walks across the picture ($s0 -> $s1)" "$PY" -c "import sys; sys.exit(0 if $s1 - $s0 > 0.1 else 1)"
check "with --follow it stays where it was ($f0 -> $f1)" "$PY" -c "import sys; sys.exit(0 if abs($f1 - $f0) < 0.01 else 1)"
# The demo's walk stays in place: auto frames it as before (no note).
sinew render --size 160x120 -o "$WORK/demo.png"
check "the demo's walk gets no travel note" sh -c "! grep -q 'travels' '$WORK/err'"

finish
