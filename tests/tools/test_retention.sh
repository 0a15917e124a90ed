#!/bin/sh
# `sinew retention`: the closed-form tables, the twist-tube measurements, JSON,
# and plots written atomically (SVG, PNG; bad names and paths leave nothing)
# with -o/--output (and the old --plot), missing folders created, and a
# "wrote ..." line on stderr unless --quiet.
# Usage: sh test_retention.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

. "$(dirname "$0")/cli_harness.inc"

# table ANCHOR: the rows of the table whose header line contains ANCHOR (rows
# start with a number; the table ends at a blank line).
table() {
    awk -v anchor="$1" '
        index($0, anchor) { on = 1; next }
        on && NF == 0 { on = 0 }
        on && $1 ~ /^[0-9.]+/ { print }' "$WORK/out"
}

# ---- the tables ------------------------------------------------------------
sinew retention
check "retention exits 0" status_is 0
table "w = 0.5 (closed form)" >"$WORK/w05"
table "measured on the skinned twist tube" >"$WORK/measured"
table "at φ = 120° (closed form)" >"$WORK/phi120"

check "appendix table has 18 rows (0..170°)" [ "$(wc -l <"$WORK/w05")" -eq 18 ]
check "appendix table: 170° row reads 0.087156" \
    awk '$1 == "170°" { found = ($2 == "0.087156" && $3 == "0.087156") } END { exit !found }' "$WORK/w05"
check "appendix table: 120° row reads 0.500000" \
    awk '$1 == "120°" { found = ($2 == "0.500000") } END { exit !found }' "$WORK/w05"

check "φ = 120° table has its 7 weights" [ "$(wc -l <"$WORK/phi120")" -eq 7 ]
check "φ = 120° table: w = 0.10 reads 0.854400" \
    awk '$1 == "0.10" { found = ($2 == "0.854400") } END { exit !found }' "$WORK/phi120"
check "φ = 120° table: no loss at w = 0 and 1" \
    awk '($1 == "0.00" || $1 == "1.00") && $2 == "1.000000" { n++ } END { exit n != 2 }' "$WORK/phi120"

check "measured table has 18 rows" [ "$(wc -l <"$WORK/measured")" -eq 18 ]
check "measured LBS at 170° is within 0.5% of 0.087156" \
    awk '$1 == "170°" { d = ($2 - 0.087156) / 0.087156; if (d < 0) d = -d; found = (d <= 0.005) }
         END { exit !found }' "$WORK/measured"
check "measured LBS at 90° is within 0.5% of cos 45° = 0.707107" \
    awk '$1 == "90°" { d = ($2 - 0.707107) / 0.707107; if (d < 0) d = -d; found = (d <= 0.005) }
         END { exit !found }' "$WORK/measured"
check "measured DQS reads 1.0000 at every row" \
    awk '{ n++; if (sprintf("%.4f", $5) != "1.0000") bad++ } END { exit !(n == 18 && bad == 0) }' "$WORK/measured"

# ---- other tube sizes ------------------------------------------------------------
sinew retention --rings 13 --segments 8
check "--rings 13 --segments 8 exits 0" status_is 0
check "--rings 13 --segments 8 is used" grep -q "13 rings × 8 segments" "$WORK/out"

sinew retention --rings=10
check "--rings=10 (no ring at w = 0.5) exits 0" status_is 0

# ---- JSON ------------------------------------------------------------------------
sinew retention --json
check "--json exits 0" status_is 0
check "--json prints an object" sh -c "head -c 1 '$WORK/out' | grep -q '{'"
if command -v python3 >/dev/null 2>&1; then
    check "--json output parses" sh -c "python3 -c 'import json,sys; json.load(sys.stdin)' <'$WORK/out'"
    check "--json has the three tables, full length, and the measured 170° value" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["table_w05"]) == 18 and len(d["table_phi120"]) == 7 and len(d["measured"]) == 18
last = d["measured"][-1]
assert last["phi_deg"] == 170 and abs(last["lbs"] - 0.087156) / 0.087156 < 0.005
assert all(abs(row["dqs"] - 1.0) < 5e-5 for row in d["measured"])
assert abs(d["table_w05"][-1]["retention"] - 0.087156) < 5e-7
' "$WORK/out"
else
    echo "note: python3 not found; skipped parsing the --json output"
fi

# ---- plots -------------------------------------------------------------------------
sinew retention --quiet -o "$WORK/r.svg"
check "-o r.svg exits 0" status_is 0
check "--quiet prints nothing" sh -c "[ ! -s '$WORK/out' ] && [ ! -s '$WORK/err' ]"
check "-o r.svg writes an SVG" \
    sh -c "head -c 5 '$WORK/r.svg' | grep -q '<?xml' || grep -q '<svg' '$WORK/r.svg'"
check "the SVG is complete (ends with </svg>)" sh -c "tail -c 200 '$WORK/r.svg' | grep -q '</svg>'"

sinew retention --output "$WORK/r.png"
check "--output r.png exits 0" status_is 0
check "--output r.png writes a PNG" \
    [ "$(od -An -tx1 -N8 "$WORK/r.png" | tr -d ' \n')" = "89504e470d0a1a0a" ]
check "... says what it wrote, on stderr" err_has_text "wrote $WORK/r.png (PNG plot, 5 twist angles, 61 rings)"
check "... and only that on stderr" [ "$(wc -l <"$WORK/err")" -eq 1 ]
check "... while stdout has the tables only" sh -c "grep -q 'measured on the skinned twist tube' '$WORK/out' && ! grep -q wrote '$WORK/out'"

sinew retention --quiet --output="$WORK/r2.svg"
check "--output=FILE writes the same SVG" cmp -s "$WORK/r.svg" "$WORK/r2.svg"
sinew retention --quiet --plot "$WORK/r3.svg"
check "--plot FILE (old spelling) writes the same SVG" cmp -s "$WORK/r.svg" "$WORK/r3.svg"
sinew retention --json -o "$WORK/r4.svg"
check "--json with -o: JSON on stdout, the 'wrote' line on stderr" \
    sh -c "head -c 1 '$WORK/out' | grep -q '{' && grep -qF 'wrote $WORK/r4.svg (SVG plot' '$WORK/err'"
sinew retention -o "$WORK/a.svg" --plot "$WORK/b.svg"
check "two outputs: usage error" status_is 2

echo "old" >"$WORK/again.svg"
sinew retention --quiet -o "$WORK/again.svg"
check "-o replaces an existing file" sh -c "grep -q '<svg' '$WORK/again.svg'"

sinew retention -o "$WORK/r.txt"
check "-o r.txt: usage error (2)" status_is 2
check "-o r.txt: says why" err_has "must end in .svg or .png"
check "-o r.txt: writes nothing" missing "$WORK/r.txt"
check "-o r.txt: prints no tables" out_empty

sinew retention --quiet -o "$WORK/new/folder/r.svg"
check "-o into missing folders: exit 0" status_is 0
check "... creates them and the plot" cmp -s "$WORK/r.svg" "$WORK/new/folder/r.svg"

echo "a file" >"$WORK/plain"
sinew retention -o "$WORK/plain/r.svg"
check "-o below a file: failure (1)" status_is 1
check "... names the path and the file in the way" \
    err_has_text "cannot write '$WORK/plain/r.svg': '$WORK/plain' exists and is not a folder"
check "... prints no tables" out_empty

# The temporary is created, then the rename over a directory fails: it must go.
mkdir "$WORK/dir.svg"
sinew retention -o "$WORK/dir.svg"
check "-o over a directory: failure (1)" status_is 1
check "-o over a directory: names the path" err_has_text "'$WORK/dir.svg'"
check "-o over a directory: the directory is untouched" [ -d "$WORK/dir.svg" ]

check "no temporary file left anywhere" no_temp_in "$WORK"

finish
