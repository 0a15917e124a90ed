#!/bin/sh
# Outputs under attack: what `sinew` does when -o names something that is
# not a plain file, when it is interrupted, and when the disk is full.
#  - a device node (made here with mknod, never a real /dev one), a FIFO, a
#    folder and a UNIX socket under the output's name are refused before
#    any work, and left as they were (export, render, demo-asset,
#    retention);
#  - a symbolic link is written through (the link stays, its target gets
#    the new data); an existing file keeps its mode and owner;
#  - an output that is an input (the model, a link or hard link to it, a
#    buffer file it names) is refused and the input stays intact;
#  - '-' is standard output where a command takes it (export; demo-asset
#    unless standard output is a terminal), a usage error elsewhere;
#  - SIGTERM, SIGINT, SIGHUP and SIGPIPE during a long export or render
#    end sinew with status 128 + N, leave no temporary file, and stop
#    ffmpeg (needs $SINEW_ASSETS for the large model, and EGL for render);
#  - a full disk (a 200 KB tmpfs, where mounting is permitted) makes a
#    render to MP4 or GIF fail with nothing left, and export, demo-asset
#    and retention name the file and "No space left on device".
# Usage: sh test_hostile_outputs.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

. "$(dirname "$0")/cli_harness.inc"
PY=/usr/bin/python3
DATA=$(cd "$(dirname "$0")/../data/gltf" && pwd)
M=$DATA/morph_skin.gltf
T=$WORK/t
mkdir -p "$T"

# A refused output must never make sinew wait on it: every run is bounded.
sinew() {
    if timeout 120 "$SINEW" "$@" >"$WORK/out" 2>"$WORK/err"; then rc=0; else rc=$?; fi
}
# is TEST PATH: `test TEST PATH` (-c device, -p FIFO, -d folder, -S socket, -L link, -f file).
is() { test "$1" "$2"; }
mode_is() { [ "$(stat -c %a "$1")" = "$2" ]; }
owner_is() { [ "$(stat -c %u:%g "$1")" = "$2" ]; }
json_file() { "$PY" -c 'import json,sys; json.load(open(sys.argv[1]))' "$1"; }
starts_with() { [ "$(head -c ${#2} "$1")" = "$2" ]; }
one_line_err() { [ "$(wc -l <"$WORK/err")" -eq 1 ]; }

# Renders here run without TAA: its warm-up frames would only make the test
# longer; what is tested is how outputs are written.
# Whether render works here (EGL); its checks are skipped, saying so, when not.
sinew render --aa none --size 16x16 -o "$T/probe.png"
if [ "$rc" -eq 0 ]; then HAVE_RENDER=1; else
    HAVE_RENDER=0
    echo "note: render does not run here ($(head -n 1 "$WORK/err")); its checks are skipped"
fi
rm -f "$T/probe.png"

# ---- what is not a regular file ----------------------------------------------------

# refused WHAT TEST NAME: every command refuses the hostile NAME.EXT made by
# `make_it NAME.EXT`, says what it is in one line, and leaves it as it was.
refused() {
    what=$1 test_flag=$2 name=$3
    for spec in "export:json" "render:png" "render:mp4" "demo-asset:glb" "retention:svg"; do
        command=${spec%%:*} ext=${spec#*:}
        target="$T/$name.$ext"
        make_it "$target"
        case $command in
        export) sinew export "$M" -o "$target" ;;
        render)
            [ "$HAVE_RENDER" -eq 1 ] || { rm -rf "$target"; continue; }
            frames=1; [ "$ext" = mp4 ] && frames=3
            sinew render --aa none --size 32x32 --frames $frames -o "$target" ;;
        demo-asset) sinew demo-asset -o "$target" ;;
        retention) sinew retention --quiet -o "$target" ;;
        esac
        check "$command -o $what (.$ext): failure (1)" status_is 1
        check "... in one line naming it and what it is" \
            err_has_text "cannot write '$target': it is $what, not a regular file"
        check "... one line only" one_line_err
        check "... and it is still there, untouched" is "$test_flag" "$target"
        check "... with no temporary beside it" no_temp_in "$T"
        rm -rf "$target"
    done
}

# A device node of our own (the real /dev/null is never used): the same
# numbers as /dev/null, so that a write through it would vanish, and a
# rename over it would replace it with a file.
make_it() { mknod -m 666 "$1" c 1 3; }
if mknod -m 666 "$T/probe-node" c 1 3 2>/dev/null; then
    rm -f "$T/probe-node"
    refused "a character device" -c fakenull
    # Before any work: the model is not even read (it does not exist).
    make_it "$T/fakenull"
    sinew export "$T/no such model.gltf" -o "$T/fakenull"
    check "the device is refused before the model is loaded" \
        err_has_text "cannot write '$T/fakenull': it is a character device"
    check "... the model's absence is not what is reported" sh -c "! grep -q 'no such model' '$WORK/err'"
    if [ "$HAVE_RENDER" -eq 1 ]; then
        make_it "$T/fakenull.png"
        sinew render "$T/no such model.gltf" -o "$T/fakenull.png"
        check "render refuses the device before loading the model" \
            err_has_text "cannot write '$T/fakenull.png': it is a character device"
        rm -f "$T/fakenull.png"
    fi
    # Through a symbolic link: the link leads to a device.
    ln -s fakenull "$T/to-null.json"
    sinew export "$M" -o "$T/to-null.json"
    check "a link to a device: failure (1)" status_is 1
    check "... naming the link and where it leads" \
        err_has_text "cannot write '$T/to-null.json': it leads to '$T/fakenull', which is a character device"
    check "... the device stays a device" is -c "$T/fakenull"
    check "... the link stays a link" is -L "$T/to-null.json"
    rm -f "$T/fakenull" "$T/to-null.json"
else
    echo "skipped: mknod is not permitted here (not root?): the device node checks are not run"
fi

make_it() { mkfifo "$1"; }
refused "a FIFO (named pipe)" -p fifo

make_it() { mkdir "$1"; }
refused "a folder" -d folder

# A UNIX socket's path must fit in 108 bytes: under a deep build folder the
# sockets go to a short temporary folder instead.
T_KEPT=$T
if [ ${#T} -gt 60 ]; then T=$(mktemp -d "${TMPDIR:-/tmp}/sw-sock.XXXXXX"); fi
make_it() { "$PY" -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$1"; }
refused "a socket" -S sock
[ "$T" = "$T_KEPT" ] || rm -rf "$T"
T=$T_KEPT

# A render to a frame pattern checks every frame's name first.
if [ "$HAVE_RENDER" -eq 1 ]; then
    mkdir -p "$T/seq"
    mkfifo "$T/seq/0002.png"
    sinew render --aa none --size 32x32 --frames 4 -o "$T/seq/%04d.png"
    check "a frame pattern whose third frame is a FIFO: failure (1)" status_is 1
    check "... naming that frame" err_has_text "cannot write '$T/seq/0002.png': it is a FIFO"
    check "... before any frame is written" sh -c "[ \"\$(ls '$T/seq')\" = 0002.png ]"
    rm -rf "$T/seq"
fi

# ---- links, modes, owners ----------------------------------------------------------

echo old >"$T/target.json"
ln -s target.json "$T/link.json"
sinew export "$M" -o "$T/link.json"
check "export through a symbolic link: exit 0" status_is 0
check "... the link is still a link" is -L "$T/link.json"
check "... to the same target" sh -c "[ \"\$(readlink '$T/link.json')\" = target.json ]"
check "... whose target now holds the JSON" json_file "$T/target.json"
check "... and no temporary is left (beside the link or the target)" no_temp_in "$T"

mkdir -p "$T/elsewhere"
ln -s elsewhere/new.json "$T/dangling.json"
sinew export "$M" -o "$T/dangling.json"
check "a dangling link: exit 0, its target created" json_file "$T/elsewhere/new.json"
check "... the link stays a link" is -L "$T/dangling.json"

for spec in "demo-asset:glb:glTF" "retention:svg:<?xml" "render:png:"; do
    command=${spec%%:*} rest=${spec#*:} ext=${rest%%:*} magic=${rest#*:}
    [ "$command" = render ] && [ "$HAVE_RENDER" -eq 0 ] && continue
    echo old >"$T/real.$ext"
    ln -s "real.$ext" "$T/via.$ext"
    case $command in
    demo-asset) sinew demo-asset -o "$T/via.$ext" ;;
    retention) sinew retention --quiet -o "$T/via.$ext" ;;
    render) sinew render --aa none --size 32x32 -o "$T/via.$ext"; magic=$(printf '\211PNG') ;;
    esac
    check "$command through a symbolic link: exit 0" status_is 0
    check "... the link stays" is -L "$T/via.$ext"
    check "... the target is the new file" starts_with "$T/real.$ext" "$magic"
done

echo secret >"$T/private.json"
chmod 600 "$T/private.json"
sinew export "$M" -o "$T/private.json"
check "export over a 600 file: exit 0" status_is 0
check "... the file is still mode 600" mode_is "$T/private.json" 600
check "... and holds the JSON" json_file "$T/private.json"
echo x >"$T/shared.glb"
chmod 664 "$T/shared.glb"
sinew demo-asset -o "$T/shared.glb"
check "demo-asset over a 664 file keeps 664" mode_is "$T/shared.glb" 664
if [ "$(id -u)" -eq 0 ]; then
    echo x >"$T/owned.json"
    chown 4242:4243 "$T/owned.json"
    chmod 640 "$T/owned.json"
    sinew export "$M" -o "$T/owned.json"
    check "export over another user's file (as root): owner and group kept" owner_is "$T/owned.json" 4242:4243
    check "... and mode 640" mode_is "$T/owned.json" 640
fi
umask 077
sinew export "$M" -o "$T/brand-new.json"
check "a new file follows the umask (077: 600)" mode_is "$T/brand-new.json" 600
umask 022

# ---- the output is an input --------------------------------------------------------

cp "$M" "$T/g.gltf"
sinew export "$T/g.gltf" -o "$T/g.gltf"
check "export g.gltf -o g.gltf: failure (1)" status_is 1
check "... saying it is the input" err_has_text "cannot write '$T/g.gltf': it is the input file '$T/g.gltf'"
check "... g.gltf is intact" cmp -s "$M" "$T/g.gltf"
ln "$T/g.gltf" "$T/hard.json"
sinew export "$T/g.gltf" -o "$T/hard.json"
check "a hard link to the model: refused" err_has_text "it is the input file '$T/g.gltf'"
ln -s g.gltf "$T/soft.json"
sinew export "$T/g.gltf" -o "$T/soft.json"
check "a symbolic link to the model: refused" err_has_text "it is the input file '$T/g.gltf'"
check "... the model is intact" cmp -s "$M" "$T/g.gltf"
cp "$DATA/container.glb" "$T/c.glb"
sinew export "$T/c.glb" -o "$T/c.glb"
check "export c.glb -o c.glb: refused" status_is 1
check "... c.glb intact" cmp -s "$DATA/container.glb" "$T/c.glb"
cp "$DATA/buffer_external.gltf" "$DATA/buffer_external.bin" "$T/"
sinew export "$T/buffer_external.gltf" -o "$T/buffer_external.bin"
check "an output that is a buffer the model names: refused" \
    err_has_text "cannot write '$T/buffer_external.bin': it is an input, a file the model reads"
check "... the buffer is intact" cmp -s "$DATA/buffer_external.bin" "$T/buffer_external.bin"
if [ "$HAVE_RENDER" -eq 1 ]; then
    ln -s g.gltf "$T/model.png"
    sinew render "$T/g.gltf" --aa none --size 32x32 -o "$T/model.png"
    check "render MODEL -o (a link to MODEL).png: refused" err_has_text "it is the input file '$T/g.gltf'"
    check "... the model is intact" cmp -s "$M" "$T/g.gltf"
fi

# ---- '-' is standard output ----------------------------------------------------------

sinew export "$M" -o -
check "export -o -: exit 0" status_is 0
check "... the JSON on stdout" json_file "$WORK/out"
check "... and no 'wrote' line" err_empty
sinew demo-asset -o -
check "demo-asset -o - into a file: exit 0" status_is 0
check "... a GLB on stdout" starts_with "$WORK/out" glTF
check "... and no 'wrote' line" err_empty
# On a terminal, binary data is refused (and nothing reaches the terminal).
"$PY" - "$SINEW" >"$WORK/out" 2>"$WORK/err" <<'EOF' && rc=0 || rc=$?
import os, pty, subprocess, sys, threading
master, slave = pty.openpty()
got = []
def drain():
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:
            return
        if not data:
            return
        got.append(data)
reader = threading.Thread(target=drain, daemon=True)
reader.start()
p = subprocess.run([sys.argv[1], "demo-asset", "-o", "-"], stdout=slave, stderr=subprocess.PIPE, timeout=60)
os.close(slave)
reader.join(5)
sys.stderr.write(p.stderr.decode())
print(sum(len(g) for g in got))
sys.exit(p.returncode)
EOF
check "demo-asset -o - on a terminal: usage error (2)" status_is 2
check "... saying why" err_has "standard output is a terminal"
check "... and nothing was written to the terminal" out_has "^0$"
sinew retention -o -
check "retention -o -: usage error (2), stdout carries the tables" status_is 2
check "... saying so" err_has "standard output"
sinew render -o -
check "render -o -: usage error (2)" status_is 2
check "... saying so" err_has "not to standard output"

# ---- signals -----------------------------------------------------------------------------

# start_bg ARGS...: sinew in the background, its pid in $bg, with the four
# signals at their default (a script's `&` ignores SIGINT; a test runner
# may ignore SIGPIPE), output in $WORK/bg.out and $WORK/bg.err.
start_bg() {
    env --default-signal=INT,TERM,HUP,PIPE "$SINEW" "$@" >"$WORK/bg.out" 2>"$WORK/bg.err" &
    bg=$!
}
# wait_for COMMAND...: polls COMMAND for up to 60 s; false if it never held.
wait_for() {
    i=0
    while [ $i -lt 1200 ]; do
        if "$@"; then return 0; fi
        kill -0 "$bg" 2>/dev/null || { "$@"; return; }
        sleep 0.05
        i=$((i + 1))
    done
    return 1
}
has_temp() { [ -n "$(find "$1" -name '*.tmp.*' -print 2>/dev/null)" ]; }
signal_number() {
    kill -l "$1" 2>/dev/null || "$PY" -c "import signal,sys; print(int(signal.Signals['SIG' + sys.argv[1]]))" "$1"
}

if ! env --default-signal=INT true 2>/dev/null; then
    echo "skipped: this env(1) has no --default-signal: the signal checks are not run"
elif [ -z "${SINEW_ASSETS:-}" ] || [ ! -f "$SINEW_ASSETS/gltf/pab/crowd_stress.glb" ]; then
    echo "skipped: SINEW_ASSETS is not set (or has no gltf/pab/crowd_stress.glb):" \
        "the signal checks on a long export are not run"
else
    BIG=$SINEW_ASSETS/gltf/pab/crowd_stress.glb
    for sig in TERM INT HUP PIPE; do
        n=$(signal_number $sig)
        rm -rf "$T/sig"
        mkdir -p "$T/sig"
        start_bg export "$BIG" --samples 10 -o "$T/sig/new/big.json"
        if wait_for has_temp "$T/sig"; then
            kill -$sig "$bg"
            if wait "$bg"; then rc=0; else rc=$?; fi
            cp "$WORK/bg.err" "$WORK/err"
            : >"$WORK/out"
            check "export killed by SIG$sig: exit status 128+$n" status_is $((128 + n))
            check "... no temporary file left, no output, and the folder it made is gone" \
                sh -c "[ -z \"\$(ls -A '$T/sig')\" ]"
        else
            wait "$bg" || true
            check "export of crowd_stress.glb made a temporary file to interrupt (SIG$sig)" false
        fi
    done
fi

if ! env --default-signal=INT true 2>/dev/null || [ "$HAVE_RENDER" -eq 0 ] || ! command -v ffmpeg >/dev/null; then
    echo "skipped: render with ffmpeg (or env --default-signal) is not available:" \
        "the signal checks on a render are not run"
else
    for sig in HUP TERM INT; do
        n=$(signal_number $sig)
        rm -rf "$T/sig"
        mkdir -p "$T/sig"
        start_bg render --aa none --size 160x120 --frames 5000 -o "$T/sig/r/o.mp4"
        ffmpeg_pid=
        ffmpeg_started() { ffmpeg_pid=$(pgrep -P "$bg" ffmpeg || true); [ -n "$ffmpeg_pid" ] && has_temp "$T/sig"; }
        if wait_for ffmpeg_started; then
            sleep 0.3 # a few frames into ffmpeg
            kill -$sig "$bg"
            if wait "$bg"; then rc=0; else rc=$?; fi
            cp "$WORK/bg.err" "$WORK/err"
            : >"$WORK/out"
            check "render to MP4 killed by SIG$sig: exit status 128+$n" status_is $((128 + n))
            check "... ffmpeg ($ffmpeg_pid) was stopped and reaped with it" sh -c "! kill -0 $ffmpeg_pid 2>/dev/null"
            check "... no ffmpeg child left" sh -c "[ -z \"\$(pgrep -P $bg)\" ]"
            check "... no temporary file left, and the folder it made is gone" sh -c "[ -z \"\$(ls -A '$T/sig')\" ]"
        else
            kill -KILL "$bg" 2>/dev/null || true
            wait "$bg" || true
            check "render started ffmpeg and a temporary file to interrupt (SIG$sig)" false
        fi
    done
    # A PNG sequence: the frames already in place go too.
    rm -rf "$T/sig"
    mkdir -p "$T/sig"
    start_bg render --aa none --size 64x48 --frames 5000 -o "$T/sig/frames/%04d.png"
    if wait_for test -f "$T/sig/frames/0003.png"; then
        kill -INT "$bg"
        if wait "$bg"; then rc=0; else rc=$?; fi
        cp "$WORK/bg.err" "$WORK/err"
        check "render to PNG frames killed by SIGINT: exit status 130" status_is 130
        check "... no frame, no temporary and no folder left" sh -c "[ -z \"\$(ls -A '$T/sig')\" ]"
    else
        wait "$bg" || true
        check "render wrote frames to interrupt" false
    fi
fi

# ---- a full disk ---------------------------------------------------------------------------

FULL=$T/full
mkdir -p "$FULL"
if mount -t tmpfs -o size=200k tmpfs "$FULL" 2>/dev/null; then
    trap 'umount "$FULL" 2>/dev/null || true' EXIT
    trap 'umount "$FULL" 2>/dev/null || true; exit 1' INT TERM HUP
    # fill KB: fills the file system, leaving about KB kilobytes free.
    fill() {
        rm -f "$FULL/fill"
        dd if=/dev/zero of="$FULL/fill" bs=1k count=$((200 - $1)) 2>/dev/null || true
    }
    only_fill() { [ "$(ls -A "$FULL")" = fill ]; }

    fill 0
    if [ "$HAVE_RENDER" -eq 1 ] && command -v ffmpeg >/dev/null; then
        sinew render --aa none --size 160x120 --frames 60 -o "$FULL/o.mp4"
        check "render of 60 frames to MP4 on a full disk: failure" sh -c "[ $rc -ne 0 ]"
        check "... nothing left but the filler" only_fill
        # Room for the start of the video, not for all of it: ffmpeg 5.1
        # exits 0 with a broken file; the box check refuses it. (The whole
        # video is about 40 KB: TAA's smooth frames compress well.)
        fill 16
        sinew render --aa none --size 320x240 --frames 60 -o "$FULL/o.mp4"
        check "render of 60 frames to MP4 with 16 KB free: failure" sh -c "[ $rc -ne 0 ]"
        check "... a message naming the video" err_has_text "cannot write '$FULL/o.mp4'"
        check "... nothing left but the filler" only_fill
        echo "     ($(cat "$WORK/err"))"
        sinew render --aa none --size 320x240 --frames 60 -o "$FULL/o.gif"
        check "render of 60 frames to GIF with 16 KB free: failure" sh -c "[ $rc -ne 0 ]"
        check "... nothing left but the filler" only_fill
    fi
    fill 8
    sinew export "$M" --times "$(seq -s, 0 0.001 2)" -o "$FULL/o.json" # 2001 poses: about 600 KB
    check "export on a full disk: failure (1)" status_is 1
    check "... naming the file and the reason" err_has_text "cannot write '$FULL/o.json': No space left on device"
    check "... nothing left but the filler" only_fill
    sinew demo-asset -o "$FULL/o.glb"
    check "demo-asset on a full disk: failure (1)" status_is 1
    check "... naming the file and the reason" err_has_text "cannot write '$FULL/o.glb': No space left on device"
    check "... nothing left but the filler" only_fill
    fill 0
    sinew retention --quiet -o "$FULL/o.png"
    check "retention's plot on a full disk: failure (1)" status_is 1
    check "... naming the file and the reason" err_has_text "cannot write '$FULL/o.png': No space left on device"
    check "... nothing left but the filler" only_fill
    umount "$FULL"
    trap - EXIT INT TERM HUP
else
    echo "skipped: mounting a tmpfs is not permitted here: the full-disk checks are not run"
fi

finish
