#!/bin/sh
# Names from files are untrusted: `sinew info` and `sinew check` on glTF
# files whose names hold invalid UTF-8, line breaks that fake a summary
# line, terminal escape sequences (ESC [ 31 m, an OSC title), C1 controls,
# a bidi override and a NUL. JSON output must be valid UTF-8 that Python's
# strict json.loads reads, with U+FFFD for invalid bytes and the control
# characters back as they were; text output must hold no raw control byte,
# only valid UTF-8, and exactly the lines a file with plain names gives.
# Usage: sh test_untrusted_text.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

. "$(dirname "$0")/cli_harness.inc"
PY=/usr/bin/python3
D=$(cd "$(dirname "$0")/../data/check" && pwd)

# hostile.gltf is tests/data/check/animated.gltf (a 3-joint chain, two
# animations; `check` reports joint 2 "tip" scaling non-uniformly in
# "stretch") with every name replaced by raw bytes; plain.gltf is the same
# file with ASCII names, for the line counts.
"$PY" - "$D/animated.gltf" "$WORK" <<'EOF'
import json, sys
src, work = sys.argv[1], sys.argv[2]
names = {
    "generator": b"gen\x1b]0;pwned\x07",                        # OSC: sets the terminal's title
    "scene": b"scene\\rFAKE\\nnodes: 0",                      # JSON escapes: CR, a fake line
    "node0": b"root\xff\xfe",                                   # not UTF-8
    "node1": b"mid\xe2\x80\xae",                                # right-to-left override
    "node2": b"tip\\nhostile.gltf: 0 errors, 0 warnings, 0 notes",  # a fake summary line
    "mesh": b"points\x7f",                                     # DEL
    "skin": b"chain\xc0\xaf\xed\xa0\x80\r",                     # overlong '/', a surrogate, raw CR
    "anim0": b"bend\xc2\x9b" b"2J",                             # C1 CSI: clears the screen
    "anim1": b"stretch\x1b[31m",                                # raw ESC: red text
    "material": b"mat\x01\xf4\x90\x80\x80\xe6\x97",             # C0, above U+10FFFF, cut short
}
d = json.load(open(src))
def place(key):  # a placeholder json.dumps leaves alone
    return "@@" + key + "@@"
d["asset"]["generator"] = place("generator")
d["scenes"][0]["name"] = place("scene")
for i in range(3):
    d["nodes"][i]["name"] = place("node%d" % i)
d["meshes"][0]["name"] = place("mesh")
d["skins"][0]["name"] = place("skin")
for i in range(2):
    d["animations"][i]["name"] = place("anim%d" % i)
d["materials"] = [{"name": place("material")}]
text = json.dumps(d, indent=1).encode()
plain = text
for key, raw in names.items():
    text = text.replace(place(key).encode(), raw)
    plain = plain.replace(place(key).encode(), key.encode())
open(work + "/hostile.gltf", "wb").write(text)
open(work + "/plain.gltf", "wb").write(plain)
# A name with a NUL (the loader refuses it, or cuts the name there).
open(work + "/nul.gltf", "wb").write(
    b'{"asset":{"version":"2.0"},"nodes":[{"name":"a\\u0000\x1b[31m\xff"}],"scenes":[{"nodes":[0]}]}')
# A file the loader refuses, quoting a string from it in its message.
open(work + "/refused.gltf", "wb").write(
    b'{"asset":{"version":"2.0"},"extensionsRequired":["EXT_\xff\xfe\x1b[31m\xe2\x80\xae"]}')
EOF
H=$WORK/hostile.gltf

# json_expr EXPR: stdout is strict UTF-8 and strict JSON (no raw control
# characters in strings), and the Python expression over it, `d`, is true.
json_expr() {
    "$PY" -c '
import json, sys
d = json.loads(open(sys.argv[1], "rb").read().decode("utf-8"), strict=True)
sys.exit(0 if eval(sys.argv[2]) else 1)' "$WORK/out" "$1"
}
# Stdout holds no C0 control other than the line feed, and no DEL.
no_raw_controls() { ! LC_ALL=C grep -qP '[\x00-\x09\x0b-\x1f\x7f]' "$WORK/out"; }
# Stdout is valid UTF-8 and holds no C1 control, line separator or bidi override.
utf8_terminal_safe() {
    "$PY" -c '
import re, sys
t = open(sys.argv[1], "rb").read().decode("utf-8")
sys.exit(1 if re.search("[\x80-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]", t) else 0)' "$WORK/out"
}
out_has_text() { grep -qF -e "$1" "$WORK/out"; }
lines_are() { [ "$(wc -l <"$WORK/out")" -eq "$1" ]; }
last_line_is() { [ "$(tail -n 1 "$WORK/out")" = "$1" ]; }

# ---- info ---------------------------------------------------------------------------
sinew info "$WORK/plain.gltf"
plain_info_lines=$(wc -l <"$WORK/out")
sinew info "$H"
check "info: exit 0" status_is 0
check "info: no raw control bytes" no_raw_controls
check "info: valid UTF-8, nothing a terminal acts on" utf8_terminal_safe
check "info: as many lines as with plain names" lines_are "$plain_info_lines"
check "info: the animation's ESC shown as backslash-e" out_has_text 'animation 1 "stretch\e[31m"'
check "info: the C1 CSI shown as backslash-u009b" out_has_text 'animation 0 "bend\u009b2J"'
check "info: the generator's OSC shown" out_has_text 'generator "gen\e]0;pwned\x07"'
check "info: the scene's CR and LF shown as backslash-r, -n" out_has_text 'scene 0 "scene\rFAKE\nnodes: 0"'
check "info: DEL shown" out_has_text 'mesh 0 "points\x7f"'
check "info: invalid UTF-8 shown byte by byte" out_has_text 'skin 0 "chain\xc0\xaf\xed\xa0\x80\r"'
check "info: C0, > U+10FFFF and a cut sequence shown" out_has_text 'material 0 "mat\x01\xf4\x90\x80\x80\xe6\x97"'
check "info: nothing on stderr" err_empty

sinew info "$H" --json
check "info --json: exit 0" status_is 0
check "info --json: no raw control bytes" no_raw_controls
check "info --json: strict UTF-8 and JSON, U+FFFD per invalid sequence" json_expr \
    "[n['name'] for n in d['nodes'][:3]]==['root\ufffd\ufffd','mid\u202e','tip\nhostile.gltf: 0 errors, 0 warnings, 0 notes']"
check "info --json: control characters read back" json_expr \
    "[a['name'] for a in d['animations']]==['bend\x9b2J','stretch\x1b[31m'] and d['generator']=='gen\x1b]0;pwned\x07' and d['scenes'][0]['name']=='scene\rFAKE\nnodes: 0'"
check "info --json: surrogates and overlongs replaced" json_expr \
    "d['skins'][0]['name']=='chain'+'\ufffd'*5+'\r' and d['meshes'][0]['name']=='points\x7f'"
check "info --json: > U+10FFFF and a cut sequence replaced" json_expr \
    "d['materials'][0]['name']=='mat\x01'+'\ufffd'*5"

# Whether the loader takes the name with a NUL or refuses it, nothing raw
# reaches stdout or stderr.
no_raw_controls_anywhere() { ! cat "$WORK/out" "$WORK/err" | LC_ALL=C grep -qP '[\x00-\x09\x0b-\x1f\x7f]'; }
for mode in "" --json; do
    sinew info "$WORK/nul.gltf" $mode
    check "info $mode, a NUL in a name: no raw control bytes" no_raw_controls_anywhere
    sinew check "$WORK/nul.gltf" $mode
    check "check $mode, a NUL in a name: no raw control bytes" no_raw_controls_anywhere
done
sinew check "$WORK/nul.gltf" --json
check "check --json, a NUL in a name: strict JSON" json_expr "isinstance(d['findings'], list)"

sinew info "$WORK/refused.gltf"
check "info, refused file: exit 1" status_is 1
check "info, refused file: the message's bytes escaped" err_has_text 'EXT_\xff\xfe?[31m\u202e'

# ---- check --------------------------------------------------------------------------
sinew check "$WORK/plain.gltf"
plain_check_lines=$(wc -l <"$WORK/out")
sinew check "$H"
check "check: exit 1 (the warning of animated.gltf)" status_is 1
check "check: no raw control bytes" no_raw_controls
check "check: valid UTF-8, nothing a terminal acts on" utf8_terminal_safe
check "check: as many lines as with plain names" lines_are "$plain_check_lines"
check "check: the fake summary does not start a line" sh -c "! grep -q '^hostile\.gltf: 0 errors' '$WORK/out'"
check "check: the last line is the real summary" last_line_is "$H: 0 errors, 1 warning, 0 notes"
check "check: every line starts with the model" sh -c "! grep -v -F -e '$H: ' '$WORK/out'"
# (the library's messages turn line breaks into spaces; shown escaped if not)
check "check: the joint's name quoted on its line" \
    sh -c "grep -qE 'joint 2 \"tip( |[\\\\]n)hostile.gltf: 0 errors, 0 warnings, 0 notes\"' '$WORK/out'"
check "check: the animation's ESC shown as backslash-e" out_has_text '"stretch\e[31m" at 1 s'
check "check: the skin's bytes shown" out_has_text 'skin 0 "chain\xc0\xaf\xed\xa0\x80'

sinew check "$H" --json
check "check --json: exit 1" status_is 1
check "check --json: no raw control bytes" no_raw_controls
check "check --json: the joint and skin names in the message" json_expr \
    "any('skin 0 \"chain'+'\ufffd'*5 in x['message'] and 'joint 2 \"tip' in x['message'] for x in d['findings'])"
check "check --json: the animation's ESC reads back" json_expr \
    "any('\"stretch\x1b[31m\" at 1 s' in x['message'] for x in d['findings'])"
check "check --json: pose names read back" json_expr \
    "[p['name'] for p in d['findings'][0]['poses']]==[None,'bend\x9b2J','stretch\x1b[31m']"

sinew check "$WORK/refused.gltf"
check "check, refused file: exit 2" status_is 2
check "check, refused file: no raw control bytes" no_raw_controls
check "check, refused file: the message's bytes escaped" out_has_text 'EXT_\xff\xfe?[31m\u202e'
check "check, refused file: the last line is the summary" last_line_is "$WORK/refused.gltf: 1 error, 0 warnings, 0 notes"
sinew check "$WORK/refused.gltf" --json
check "check --json, refused file: U+FFFD in the message" json_expr \
    "'EXT_\ufffd\ufffd?[31m\u202e' in d['findings'][0]['message']"

finish
