#!/bin/sh
# `sinew render`: the demo character and the shared characters to PNG, MP4,
# GIF and numbered frames; every view; -o/--output (and the old --out),
# missing folders created, the "wrote ..." line and --quiet, a warning for
# a texture that is missing; bad input gives a clear error, exit status ≠ 0
# and no output file (nor a folder made for it). Runs wherever EGL gives an OpenGL 4.3
# context (Mesa's llvmpipe without a GPU); skips, saying so, only when
# there is none.
# Usage: sh test_render.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

. "$(dirname "$0")/cli_harness.inc"
PY=/usr/bin/python3
DATA=$(cd "$(dirname "$0")/../data/gltf" && pwd)
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
check "... documents -o, --output FILE" out_has "^  -o, --output FILE"
check "... does not mention the old --out" sh -c "! grep -q -e '--out\b' '$WORK/out'"

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
check "... saying what it wrote on stderr" err_has_text "wrote $WORK/o/demo.png (1 frame, 160×120)"
check "... and nothing on stdout" out_empty
# The output's spellings and the sky's hour, without TAA's warm-up frames
# (the default above is TAA; the same picture twice, below, too).
P="$S --aa none"
sinew render $P -o "$WORK/o/plain.png"
sinew render $P --output "$WORK/o/long.png"
check "--output FILE gives the same picture" cmp -s "$WORK/o/plain.png" "$WORK/o/long.png"
sinew render $P --output="$WORK/o/long.png"
check "--output=FILE gives the same picture" cmp -s "$WORK/o/plain.png" "$WORK/o/long.png"
sinew render $P --out "$WORK/o/long.png"
check "--out FILE (old spelling) gives the same picture" cmp -s "$WORK/o/plain.png" "$WORK/o/long.png"
check "... and says what it wrote" err_has_text "wrote $WORK/o/long.png (1 frame, 160×120)"
sinew render $P --quiet -o "$WORK/o/long.png"
check "--quiet: exit 0 and not a word" sh -c "[ $rc -eq 0 ] && [ ! -s '$WORK/err' ] && [ ! -s '$WORK/out' ]"
rm -f "$WORK/o/long.png"
sinew render $S -o "$WORK/o/a.png" --output "$WORK/o/b.png"
check "two outputs: usage error" status_is 2
sinew render $S -o "$WORK/o/again.png"
check "the same picture twice gives the same bytes" cmp -s "$WORK/o/demo.png" "$WORK/o/again.png"
rm -f "$WORK/o/again.png"
sinew render $P --time-of-day 6.5 -o "$WORK/o/dawn.png"
check "--time-of-day 6.5 renders" status_is 0
check "... a picture other than the plain sky's" sh -c "! cmp -s '$WORK/o/plain.png' '$WORK/o/dawn.png'"
rm -f "$WORK/o/dawn.png"
sinew render $S --time-of-day 25 -o "$WORK/o/late.png"
check "--time-of-day 25: usage error" status_is 2
check "... naming the option" err_has_text "--time-of-day expects a number from 0 to 24"
sinew render $S --fog 0.05,2 -o "$WORK/o/fog.png"
check "--fog 0.05,2: usage error" status_is 2
check "... naming the option" err_has_text "--fog: '0.05,2' is not on, off, DENSITY"
sinew render $S --weather snow,9 -o "$WORK/o/snow.png"
check "--weather snow,9: usage error" status_is 2
check "... naming the option" err_has_text "--weather: 'snow,9' is not none, snow or snow,DENSITY"
sinew render $S --wind 2 -o "$WORK/o/snow.png"
check "--wind 2: usage error" status_is 2
check "... naming the option" err_has_text "--wind: '2' is not X,Z"
# The default (edge AA + TAA, with its warm-up frames) is covered above and
# by the renderer's own post-processing tests; the rest test the command's
# outputs and options, without TAA's warm-up to keep the test short.
S="$S --aa none"
sinew render $S --fog 0 -o "$WORK/o/fog0.png"
check "--fog 0: the picture without fog, byte for byte" cmp -s "$WORK/o/plain.png" "$WORK/o/fog0.png"
sinew render $S --fog 0.05,0.8,0.9,1 -o "$WORK/o/fog.png"
check "--fog 0.05,0.8,0.9,1 renders" status_is 0
check "... a picture other than the clear one" sh -c "! cmp -s '$WORK/o/plain.png' '$WORK/o/fog.png'"
rm -f "$WORK/o/plain.png" "$WORK/o/fog0.png" "$WORK/o/fog.png"
sinew render $S --fog-height 0.5,0,1 -o "$WORK/o/fog.png"
check "--fog-height 0.5,0,1 (a ground layer alone) renders" status_is 0
rm -f "$WORK/o/fog.png"
sinew render $S --fog-height 0.5,0,0 -o "$WORK/o/fog.png"
check "--fog-height 0.5,0,0: usage error" status_is 2
check "... naming the option" err_has_text "--fog-height: '0.5,0,0': FALLOFF is above 0"

sinew render $S --anim walk --frames 6 --quiet -o "$WORK/o/walk.mp4"
check "6 frames to MP4" status_is 0
check "... H.264 with 6 frames" frames "$WORK/o/walk.mp4" h264 6
check "... quietly (--quiet)" err_empty
sinew render $S --anim wave --frames 4 --fps 12 -o "$WORK/o/wave.gif"
check "4 frames to GIF" status_is 0
check "... a GIF with 4 frames" frames "$WORK/o/wave.gif" gif 4
check "... saying what it wrote" err_has_text "wrote $WORK/o/wave.gif (4 frames, 160×120)"
sinew render $S --frames 3 -o "$WORK/o/seq/%03d.png"
check "3 frames as numbered PNGs into a folder that did not exist" status_is 0
check "... 000, 001, 002" sh -c "[ \"\$(ls '$WORK/o/seq' | tr '\n' ' ')\" = '000.png 001.png 002.png ' ]"
check "... all different (the character walks)" sh -c "! cmp -s '$WORK/o/seq/000.png' '$WORK/o/seq/002.png'"
check "... naming the first and the last frame" \
    err_has_text "wrote $WORK/o/seq/000.png .. $WORK/o/seq/002.png (3 frames, 160×120)"
sinew render $S --frames 2 -o "$WORK/o/deep/er/f_%d.png"
check "a pattern two missing folders down" status_is 0
check "... writes f_0.png and f_1.png" sh -c "[ \"\$(ls '$WORK/o/deep/er' | tr '\n' ' ')\" = 'f_0.png f_1.png ' ]"
rm -rf "$WORK/o/deep"

for view in normals motion uv weights:forearm_l ao depth bones; do
    sinew render $S --anim walk --time 0.3 --view "$view" -o "$WORK/o/view.png"
    check "--view $view renders" status_is 0
    check "... differently from shaded" sh -c "! cmp -s '$WORK/o/view.png' '$WORK/o/demo.png'"
done
sinew render $S --anim twist --time 1 --split --camera orbit:0,0 -o "$WORK/o/split.png"
check "--split on the twist clip renders" status_is 0
sinew render $S --anim twist --time 1 --dqs --camera orbit:0,0 --stats -o "$WORK/o/dqs.png"
check "--dqs renders, --stats reports the skin cache" err_has "skin cache: [0-9]* dispatched"
check "... and the last frame's occlusion culling" err_has "^occlusion culling (last frame): [0-9]* tested, [0-9]* culled$"
for pass in skinning shadow gbuffer lighting transparent post total; do
    check "... and the time of pass $pass (GPU and CPU ms)" err_has "^$pass  *\([0-9][0-9.]*\|-\)  *[0-9][0-9.]*\$"
done
check "... averaged over the frames drawn" err_has "average of [1-9][0-9]* frames"
sinew render $S --weather snow,2 --wind 3,-1 --time 2 --stats -o "$WORK/o/snow.png"
check "--weather snow,2 --wind 3,-1 renders, --stats times the weather" err_has "^weather  *[0-9.]*  *[0-9.]*"
rm -f "$WORK/o/snow.png"

# A texture whose image file is missing, and one that is not an image: drawn
# white, with a warning on stderr naming the file, image, uri and reason
# (without --stats).
sinew render "$DATA/texture_missing.gltf" $S -o "$WORK/o/tex.png"
check "a model with broken textures still renders" status_is 0
check "... to a PNG" png_size "$WORK/o/tex.png" 160 120
check "... warning of the missing file" err_has_text \
    "sinew render: warning: $DATA/texture_missing.gltf: images[0] (uri \"no_such_texture.png\"): cannot open (No such file or directory); drawn white"
check "... and of the one that does not decode" err_has_text \
    "sinew render: warning: $DATA/texture_missing.gltf: images[1] (uri \"data:image/png;base64,...\"): not a PNG or JPEG image; drawn white"
check "... two warnings, then the 'wrote' line" sh -c "[ \$(wc -l <'$WORK/err') -eq 3 ] && tail -n 1 '$WORK/err' | grep -q '^wrote '"
sinew render "$DATA/texture_missing.gltf" $S --quiet -o "$WORK/o/tex.png"
check "... --quiet keeps the warnings" sh -c "[ \$(wc -l <'$WORK/err') -eq 2 ] && grep -q 'images\[0\]' '$WORK/err'"
rm -f "$WORK/o/tex.png"

# Bad input: a clear error, exit ≠ 0, no output file.
rm -rf "$WORK/o"
mkdir -p "$WORK/o"
echo "a file" >"$WORK/o/plain"
sinew render $S -o "$WORK/o/plain/x.png"
check "a file where a folder should be: failure (1)" status_is 1
check "... naming it" err_has_text "cannot write '$WORK/o/plain/x.png': '$WORK/o/plain' exists and is not a folder"
rm -f "$WORK/o/plain"
# ffmpeg missing: the output fails after its folder was made, and the folder goes again.
if env PATH=/nonexistent "$SINEW" render $S --frames 2 -o "$WORK/o/new/x.mp4" >"$WORK/out" 2>"$WORK/err"; then
    rc=0
else
    rc=$?
fi
check "a video without ffmpeg on PATH fails" status_is 1
check "... saying so" err_has "needs ffmpeg"
check "... and removes the folder it made for it" no_files_but ""
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
check "an unknown joint for --view weights: usage error (exit 2, as every unknown name)" status_is 2
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
