#!/bin/sh
# `sinew view` opens, reopens and drops models with and without spring
# bones (the demo character and extensions.gltf, a VRM 1.0, have them;
# joint_chain.gltf has none; the hair VRMs have springs but nothing to
# draw, so they fail to open after their programs are made) in one
# scripted session, and each reopen shows what the first open showed: the
# scene moved into the viewer keeps no pointer into the frame that built
# it (a reopened model with springs used to crash). open:PATH opens at
# once; drop:PATH goes through the window's drop callback and opens at
# the next frame, as a file dropped by hand.
#
# Needs a display: under Xvfb (xvfb-run) when DISPLAY is unset; skips,
# saying so, where there is neither, where sinew was built without GLFW,
# or where no OpenGL 4.3 window can open.
# Usage: sh test_view_reopen.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${SW_VIEW_TEST_XVFB:-}" ]; then
    if command -v xvfb-run >/dev/null 2>&1; then
        # 24-bit colour: xvfb-run's default 8-bit screen has no OpenGL visual.
        SW_VIEW_TEST_XVFB=1 exec xvfb-run -a -s "-screen 0 640x480x24" sh "$0" "$@"
    fi
fi

. "$(dirname "$0")/cli_harness.inc"
DATA=$(cd "$(dirname "$0")/../data" && pwd)

if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    echo "skipped: no display and no xvfb-run (Debian xvfb, xauth) to make one"
    finish
    exit 0
fi

sinew demo-asset -o "$WORK/demo.glb" --quiet
check "the demo character as a file" status_is 0
DEMO=$WORK/demo.glb
VRM1=$DATA/gltf/extensions.gltf
PLAIN=$DATA/gltf/joint_chain.gltf
HAIR0=$DATA/vrm/hair_vrm0.vrm
HAIR1=$DATA/vrm/hair_vrm1.gltf

# Each P writes sinew-view-NNNN.png of the frame it is pressed in, and
# every frame of a scripted run moves the clip on by one step. open:PATH
# opens in its own frame, drop:PATH in the next one, so "open:PATH p" and
# "drop:PATH wait:1 p" both show the model's first frame after time 0.
# Paused (space), a model stays still: a failed open must not change it.
S="--size 96x72 --aa none --no-bloom --camera orbit:0,0"
STEPS="h open:$DEMO p open:$DEMO p"                      # overlay hidden; 1, 2: springs, reopened
STEPS="$STEPS open:$VRM1 p drop:$VRM1 wait:1 p"          # 3, 4: VRM 1.0 springs, opened then dropped
STEPS="$STEPS drop:$PLAIN wait:1 p open:$PLAIN p"        # 5, 6: no springs, dropped then opened
STEPS="$STEPS space p drop:$HAIR0 wait:1 p open:$HAIR1 p" # 7, 8, 9: paused; springs, nothing to draw: it stays
STEPS="$STEPS open:$DEMO p drop:$DEMO wait:1 p"          # 10, 11: back to the character
STEPS="$STEPS space p open:$WORK/missing.vrm p"          # 12, 13: paused; a missing file keeps it
mkdir -p "$WORK/s"
if (cd "$WORK/s" && "$SINEW" view $S --script "$STEPS" --frames 3 --exit) >"$WORK/out" 2>"$WORK/err"; then
    rc=0
else
    rc=$?
fi
if [ "$rc" -ne 0 ] && grep -q -e "built without GLFW" -e "cannot open a window" -e "below 4.3" "$WORK/err"; then
    echo "skipped: no OpenGL 4.3 window here ($(cat "$WORK/err"))"
    finish
    exit 0
fi
check "opening, reopening and dropping models with and without springs: exit 0" status_is 0
check "... the errors: the hair VRMs have nothing to draw, missing.vrm is missing" sh -c \
    "[ \$(grep -v '^sinew view: warning:' '$WORK/err' | grep -c '^sinew view:') -eq 3 ] &&
     grep -q '^sinew view: .*hair_vrm0.vrm: the scene has no vertex to draw' '$WORK/err' &&
     grep -q '^sinew view: .*hair_vrm1.gltf: the scene has no vertex to draw' '$WORK/err' &&
     grep -q '^sinew view: .*missing.vrm' '$WORK/err'"
shot() { printf '%s/s/sinew-view-%04d.png' "$WORK" "$1"; }
check "thirteen screenshots" exists "$(shot 13)"
same() { cmp -s "$(shot "$1")" "$(shot "$2")"; }
check "the demo character reopened looks as first opened" same 1 2
check "a VRM 1.0 dropped looks as opened" same 3 4
check "a model without springs opened looks as dropped" same 5 6
check "models with springs that fail to open leave the previous one" sh -c \
    "cmp -s '$(shot 8)' '$(shot 7)' && cmp -s '$(shot 9)' '$(shot 7)'"
check "the character back, opened and dropped, as at the start" sh -c \
    "cmp -s '$(shot 10)' '$(shot 1)' && cmp -s '$(shot 11)' '$(shot 1)'"
check "the models differ from each other" sh -c "! cmp -s '$(shot 1)' '$(shot 3)' && ! cmp -s '$(shot 3)' '$(shot 5)' &&
    ! cmp -s '$(shot 5)' '$(shot 1)'"
check "a model that fails to open leaves the character" same 13 12
finish
