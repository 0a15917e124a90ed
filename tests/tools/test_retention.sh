#!/bin/sh
# `sinew retention`: seed 000's tables, the twist-tube measurements, JSON,
# and plots written atomically (SVG, PNG; bad names and paths leave nothing).
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
table "w = 0.5 (seed 000, appendix 1)" >"$WORK/w05"
table "measured on the skinned twist tube" >"$WORK/measured"
table "at φ = 120° (seed 000, appendix 1)" >"$WORK/phi120"

check "appendix table has 18 rows (0..170°)" [ "$(wc -l <"$WORK/w05")" -eq 18 ]
check "appendix table: 170° row reads 0.087156" \
    awk '$1 == "170°" { found = ($2 == "0.087156" && $3 == "0.087156") } END { exit !found }' "$WORK/w05"
check "appendix table: 120° row reads 0.500000" \
    awk '$1 == "120°" { found = ($2 == "0.500000") } END { exit !found }' "$WORK/w05"

check "φ = 120° table has the seed's 7 weights" [ "$(wc -l <"$WORK/phi120")" -eq 7 ]
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
sinew retention --quiet --plot "$WORK/r.svg"
check "--plot r.svg exits 0" status_is 0
check "--quiet prints nothing" out_empty
check "--plot r.svg writes an SVG" \
    sh -c "head -c 5 '$WORK/r.svg' | grep -q '<?xml' || grep -q '<svg' '$WORK/r.svg'"
check "the SVG is complete (ends with </svg>)" sh -c "tail -c 200 '$WORK/r.svg' | grep -q '</svg>'"

sinew retention --plot "$WORK/r.png"
check "--plot r.png exits 0" status_is 0
check "--plot r.png writes a PNG" \
    [ "$(od -An -tx1 -N8 "$WORK/r.png" | tr -d ' \n')" = "89504e470d0a1a0a" ]
check "--plot says what it wrote" grep -qxF "wrote $WORK/r.png" "$WORK/out"

echo "old" >"$WORK/again.svg"
sinew retention --quiet --plot "$WORK/again.svg"
check "--plot replaces an existing file" sh -c "grep -q '<svg' '$WORK/again.svg'"

sinew retention --plot "$WORK/r.txt"
check "--plot r.txt: usage error (2)" status_is 2
check "--plot r.txt: says why" err_has "must end in .svg or .png"
check "--plot r.txt: writes nothing" missing "$WORK/r.txt"
check "--plot r.txt: prints no tables" out_empty

sinew retention --plot "$WORK/no/such/dir/r.svg"
check "--plot into a missing directory: failure (1)" status_is 1
check "--plot into a missing directory: names the path" err_has_text "'$WORK/no/such/dir/r.svg'"
check "--plot into a missing directory: gives the reason" err_has "No such file or directory"
check "--plot into a missing directory: creates nothing" missing "$WORK/no"

# The temporary is created, then the rename over a directory fails: it must go.
mkdir "$WORK/dir.svg"
sinew retention --plot "$WORK/dir.svg"
check "--plot over a directory: failure (1)" status_is 1
check "--plot over a directory: names the path" err_has_text "'$WORK/dir.svg'"
check "--plot over a directory: the directory is untouched" [ -d "$WORK/dir.svg" ]

check "no temporary file left anywhere" no_temp_in "$WORK"

finish
