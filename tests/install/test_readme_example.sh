#!/bin/sh
# The README's library example is examples/first_steps.c, line for line:
#
#   test_readme_example.sh SOURCE_DIR
#
# The first ```c block after the README line that names
# examples/first_steps.c must appear, as one run of consecutive lines, in
# the body of that file (indented by 4 there). The example itself is built
# and run by the install test (against the installed package) and by the
# build (example_first_steps), so the README shows code that compiles.
set -eu

[ $# -eq 1 ] || { echo "usage: test_readme_example.sh SOURCE_DIR" >&2; exit 2; }
readme=$1/README.md
example=$1/examples/first_steps.c

work=$(mktemp -d "${TMPDIR:-/tmp}/sinew-readme.XXXXXX")
trap 'rm -rf "$work"' EXIT

awk '/examples\/first_steps\.c/ && !named { named = 1 }
     named && !inside && /^```c$/ { inside = 1; next }
     inside && /^```$/ { exit }
     inside { print }' "$readme" >"$work/readme.c"
lines=$(wc -l <"$work/readme.c")
[ "$lines" -ge 5 ] || { echo "FAIL: no \`\`\`c block after the README line naming examples/first_steps.c" >&2; exit 1; }
sed 's/^    //' "$example" >"$work/example.c"

# The first line of the block where it starts in the example, then each next line.
if ! awk 'NR == FNR { want[++n] = $0; next }
          { have[++m] = $0 }
          END {
              for (s = 1; s + n - 1 <= m; s++) {
                  for (i = 1; i <= n && have[s + i - 1] == want[i]; i++) ;
                  if (i > n) exit 0
              }
              exit 1
          }' "$work/readme.c" "$work/example.c"; then
    echo "FAIL: README's example ($lines lines) is not a run of lines of examples/first_steps.c:" >&2
    echo "README lines that the example does not have (or has elsewhere):" >&2
    grep -vxF -f "$work/example.c" "$work/readme.c" >&2 || echo "(every line is there, in another order)" >&2
    exit 1
fi
echo "README's example: $lines lines of examples/first_steps.c"
