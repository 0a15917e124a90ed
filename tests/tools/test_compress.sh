#!/bin/sh
# `sinew compress` and `--anim-file FILE.swa`: usage errors, the .swa
# written atomically with its ratio and errors printed, every clip with
# --anim all, the compressed walk played back by `sinew export` within the
# tolerance of the raw walk (vertices, not only joints), and a corrupted or
# foreign .swa refused with one line naming the file.
# (tests/anim/test_compress.c checks the codec and the CMU clips.)
# Usage: sh test_compress.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

. "$(dirname "$0")/cli_harness.inc"
PY=/usr/bin/python3

"$SINEW" demo-asset -o "$WORK/demo.glb" --quiet

# ---- usage ----------------------------------------------------------------------
sinew compress --help
check "compress --help exits 0" status_is 0
check "compress --help documents the options" \
    sh -c "grep -q -e '--rate HZ' '$WORK/out' && grep -q -e '--tolerance M' '$WORK/out' && grep -q -e '--virtual-vertex' '$WORK/out'"
sinew --help
check "sinew --help lists compress" out_has "compress"
sinew compress -o "$WORK/a.swa"
check "no model: usage error" status_is 2
sinew compress "$WORK/demo.glb"
check "no -o: usage error" status_is 2
check "... saying so" err_has "no output file given"
sinew compress "$WORK/demo.glb" --rate 0 -o "$WORK/a.swa"
check "--rate 0: usage error" status_is 2
sinew compress "$WORK/demo.glb" --tolerance -1 -o "$WORK/a.swa"
check "a negative tolerance: usage error" status_is 2
sinew compress "$WORK/demo.glb" --anim nosuch -o "$WORK/a.swa"
check "an unknown clip: usage error" status_is 2
check "... and no file" missing "$WORK/a.swa"

# ---- compressing ----------------------------------------------------------------
sinew compress "$WORK/demo.glb" --anim walk -o "$WORK/walk.swa"
check "compress walk exits 0" status_is 0
check "... writes the .swa" sh -c "[ \"\$(head -c 4 '$WORK/walk.swa')\" = SWA1 ]"
check "... prints raw and compressed bytes and the ratio" out_has "raw [0-9]* bytes, compressed [0-9]* bytes, ratio [0-9.]*:1"
check "... and the worst and 99th-percentile error" out_has "error: worst .*99th percentile"
check "... says it wrote the file" err_has "wrote .*walk.swa"
check "... leaves no temporary" no_temp_in "$WORK"
size=$(wc -c <"$WORK/walk.swa")
check "... and its size is the one printed" out_has "compressed $size bytes"
worst=$(sed -n 's/.*error: worst \([0-9.e+-]*\) .*/\1/p' "$WORK/out")
check "... within the default tolerance 0.0001" "$PY" -c "import sys; sys.exit(0 if float('$worst') <= 1e-4 else 1)"

cp "$WORK/walk.swa" "$WORK/keep.swa"
sinew compress "$WORK/demo.glb" --anim nosuch -o "$WORK/walk.swa"
check "a failed run leaves the old file as it was" cmp -s "$WORK/walk.swa" "$WORK/keep.swa"

sinew compress "$WORK/demo.glb" --anim all --rate 60 --tolerance 0.0005 --virtual-vertex 0.05 -o "$WORK/all.swa" --quiet
check "--anim all exits 0" status_is 0
check "... one file per clip" sh -c "[ -s '$WORK/all-0.swa' ] && [ -s '$WORK/all-1.swa' ] && [ -s '$WORK/all-2.swa' ]"
check "... at the rate asked" out_has "samples at 60 Hz"
check "... and --quiet says nothing on stderr" err_empty

# ---- playing it back --------------------------------------------------------------
sinew export "$WORK/demo.glb" --anim walk --times 0.25,0.5,0.8 -o "$WORK/raw.json" --quiet
check "export of the raw walk" status_is 0
sinew export "$WORK/demo.glb" --anim-file "$WORK/walk.swa" --anim walk/walk --times 0.25,0.5,0.8 -o "$WORK/swa.json" --quiet
check "export --anim-file walk.swa plays the compressed walk" status_is 0
# Vertices move by the joints' error times their distance to the joint over
# 3 cm (the virtual vertex), here a few millimetres at most.
check "... its vertices within 5 mm of the raw walk's" "$PY" - "$WORK/raw.json" "$WORK/swa.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
worst = 0.0
for pa, pb in zip(a["primitives"], b["primitives"]):
    for fa, fb in zip(pa["positions_by_time"], pb["positions_by_time"]):
        for x, y in zip(fa, fb):
            worst = max(worst, abs(x - y))
print("worst vertex difference", worst)
sys.exit(0 if 0 < worst < 5e-3 else 1)
PY
sinew info "$WORK/demo.glb" --anim-file "$WORK/walk.swa"
check "info lists the compressed clip" out_has "walk/walk"

head -c 100 "$WORK/walk.swa" >"$WORK/cut.swa"
sinew export "$WORK/demo.glb" --anim-file "$WORK/cut.swa" --anim 3
check "a truncated .swa: failure" status_is 1
check "... one line naming the file" sh -c "[ \$(wc -l <'$WORK/err') -eq 1 ] && grep -q 'cut.swa' '$WORK/err'"
"$PY" -c "import sys; d=bytearray(open(sys.argv[1],'rb').read()); d[16]=200; open(sys.argv[2],'wb').write(d)" \
    "$WORK/walk.swa" "$WORK/foreign.swa"
sinew export "$WORK/demo.glb" --anim-file "$WORK/foreign.swa" --anim 3
check "a .swa of another model (node count): failure" status_is 1
check "... naming the file" err_has "foreign.swa"

finish
