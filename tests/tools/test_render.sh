#!/bin/sh
# `sinew render`: the demo character and the shared characters to PNG, MP4,
# GIF and numbered frames; every view; bad input gives a clear error, exit
# status ≠ 0 and no output file. Runs wherever EGL gives an OpenGL 4.3
# context (Mesa's llvmpipe without a GPU); skips, saying so, only when
# there is none.
# Usage: sh test_render.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

. "$(dirname "$0")/cli_harness.inc"
PY=/usr/bin/python3
S="--size 160x120"

# png_size FILE W H: FILE is a PNG of W×H pixels (read from its IHDR).
png_size() {
    "$PY" -c '
import struct, sys
data = open(sys.argv[1], "rb").read(24)
ok = data[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", data[16:24]) == (int(sys.argv[2]), int(sys.argv[3]))
sys.exit(0 if ok else 1)' "$1" "$2" "$3"
}
# frames FILE CODEC N: ffprobe reports one video stream of CODEC with N frames.
frames() {
    [ "$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=codec_name,nb_read_frames \
        -of csv=p=0 "$1")" = "$2,$3" ]
}
no_files_but() { [ "$(ls "$WORK/o" | tr '\n' ' ')" = "$1" ]; }

sinew render --help
check "render --help exits 0" status_is 0
check "... and documents --split" out_has "--split"

mkdir -p "$WORK/o"
sinew render $S -o "$WORK/o/demo.png"
if [ "$rc" -ne 0 ] && err_has "no EGL display on this machine"; then
    echo "skipped: no EGL display here ($(cat "$WORK/err"))"
    finish
    exit 0
fi
check "the demo character renders to PNG" status_is 0
check "... of the asked size" png_size "$WORK/o/demo.png" 160 120
check "... and nothing else is left in the folder" no_files_but "demo.png "
sinew render $S -o "$WORK/o/again.png"
check "the same picture twice gives the same bytes" cmp -s "$WORK/o/demo.png" "$WORK/o/again.png"
rm -f "$WORK/o/again.png"

sinew render $S --anim walk --frames 6 --quiet -o "$WORK/o/walk.mp4"
check "6 frames to MP4" status_is 0
check "... H.264 with 6 frames" frames "$WORK/o/walk.mp4" h264 6
sinew render $S --anim wave --frames 4 --fps 12 -o "$WORK/o/wave.gif"
check "4 frames to GIF" status_is 0
check "... a GIF with 4 frames" frames "$WORK/o/wave.gif" gif 4
sinew render $S --frames 3 -o "$WORK/o/seq/%03d.png"
check "a missing folder for the frames is an error" status_is 1
mkdir -p "$WORK/o/seq"
sinew render $S --frames 3 -o "$WORK/o/seq/%03d.png"
check "3 frames as numbered PNGs" status_is 0
check "... 000, 001, 002" sh -c "[ \"\$(ls '$WORK/o/seq' | tr '\n' ' ')\" = '000.png 001.png 002.png ' ]"
check "... all different (the character walks)" sh -c "! cmp -s '$WORK/o/seq/000.png' '$WORK/o/seq/002.png'"

for view in normals motion uv weights:forearm_l bones; do
    sinew render $S --anim walk --time 0.3 --view "$view" -o "$WORK/o/view.png"
    check "--view $view renders" status_is 0
    check "... differently from shaded" sh -c "! cmp -s '$WORK/o/view.png' '$WORK/o/demo.png'"
done
sinew render $S --anim twist --time 1 --split --camera orbit:0,0 -o "$WORK/o/split.png"
check "--split on the twist clip renders" status_is 0
sinew render $S --anim twist --time 1 --dqs --camera orbit:0,0 --stats -o "$WORK/o/dqs.png"
check "--dqs renders, --stats reports the skin cache" err_has "skin cache: [0-9]* dispatched"

# Bad input: a clear error, exit ≠ 0, no output file.
rm -rf "$WORK/o"
mkdir -p "$WORK/o"
sinew render "$WORK/missing.glb" $S -o "$WORK/o/x.png"
check "a missing model fails" status_is 1
check "... naming it" err_has "missing.glb"
check "... and writes nothing" no_files_but ""
printf 'glTF\002\000\000\000garbage' >"$WORK/bad.glb"
sinew render "$WORK/bad.glb" $S -o "$WORK/o/x.mp4"
check "an invalid model fails" status_is 1
check "... naming it" err_has "bad.glb"
check "... and writes nothing" no_files_but ""
sinew render $S --view weights:no_such_joint -o "$WORK/o/x.png"
check "an unknown joint for --view weights fails" status_is 1
check "... naming it" err_has "no_such_joint"
check "... and writes nothing" no_files_but ""
sinew render $S --anim dance -o "$WORK/o/x.png"
check "an unknown clip fails, naming it" err_has "dance"
sinew render $S --view sparkles -o "$WORK/o/x.png"
check "an unknown view is a usage error" status_is 2
sinew render $S --frames 3 -o "$WORK/o/x.png"
check "several frames into one PNG is a usage error" status_is 2
sinew render $S -o "$WORK/o/x.bmp"
check "an unknown output type is a usage error" status_is 2
sinew render $S --split --dqs -o "$WORK/o/x.png"
check "--split with --dqs is a usage error" status_is 2
sinew render --size 5x5 -o "$WORK/o/x.png"
check "a tiny size is a usage error" status_is 2
check "nothing written by any of them" no_files_but ""

if [ -n "${SINEW_ASSETS:-}" ]; then
    for model in cc0/robot.glb khronos/cesium_man.gltf; do
        sinew render "$SINEW_ASSETS/gltf/$model" $S --time 0.5 -o "$WORK/o/model.png"
        check "$model renders" status_is 0
        check "... to a PNG" png_size "$WORK/o/model.png" 160 120
    done
else
    echo "note: SINEW_ASSETS is not set; skipped robot.glb and cesium_man.gltf"
fi
finish
