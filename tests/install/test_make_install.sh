#!/bin/sh
# `make install` builds only what it installs:
#
#   test_make_install.sh SOURCE_DIR [CMAKE]
#
# Reads the cmake configure line the Makefile's install target runs
# (`make -n install`), configures a fresh tree with it and checks that the
# tree's targets are the installed ones (the libraries, the sinew command)
# and the generators they are made with, no test, example or fuzz target;
# then counts the objects each compiles (from the generated build rules:
# nothing is compiled).
set -eu

[ $# -ge 1 ] || { echo "usage: test_make_install.sh SOURCE_DIR [CMAKE]" >&2; exit 2; }
src=$(cd "$1" && pwd)
cmake=${2:-cmake}
command -v make >/dev/null 2>&1 || { echo "skipped: no make"; exit 0; }

work=$(mktemp -d "${TMPDIR:-/tmp}/sinew-make-install.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# The configure line, as the Makefile would run it (BUILD_DIR moved here).
make -n -s -C "$src" install BUILD_DIR="$work/build" PREFIX="$work/prefix" >"$work/plan" 2>&1 ||
    fail "make -n install: $(cat "$work/plan")"
configure=$(grep -E '^cmake -S ' "$work/plan" | head -n 1)
[ -n "$configure" ] || fail "make -n install runs no 'cmake -S' line: $(cat "$work/plan")"
echo "make install configures: $configure"
grep -q -- '-DSW_BUILD_TESTS=OFF' "$work/plan" || fail "the install build does not turn the tests off"
grep -q -- '-DSW_BUILD_EXAMPLES=OFF' "$work/plan" || fail "the install build does not turn the examples off"

# Configure for real (with the same options, our cmake) and list the targets.
options=$(echo "$configure" | sed 's/^cmake -S [^ ]* -B [^ ]*//')
# shellcheck disable=SC2086
(cd "$src" && "$cmake" -S . -B "$work/build" $options -G "Unix Makefiles") >"$work/configure.log" 2>&1 || {
    cat "$work/configure.log" >&2
    fail "configuring the install build"
}
"$cmake" --build "$work/build" --target help >"$work/help" 2>&1 || fail "listing the targets"
# Targets only (not the per-file .o/.i/.s helpers nor cmake's own).
sed -n 's/^\.\.\. \([A-Za-z0-9_]*\)$/\1/p' "$work/help" |
    grep -vxE 'all|clean|depend|edit_cache|install|rebuild_cache|list_install_components|test' >"$work/targets" || true
if grep -vxE 'sinew|sinew_lib|sinew_import|sinew_render|sinew_demo|[a-z_]+_gen' "$work/targets"; then
    fail "the install build has the targets above, which are neither installed nor generators of what is"
fi

# The objects each target compiles, from its generated build rules.
for t in $(cat "$work/targets"); do
    n=$(sed -n 's/^\(CMakeFiles\/[^ ]*\.o\): .*/\1/p' "$work/build/CMakeFiles/$t.dir/build.make" 2>/dev/null | sort -u | wc -l)
    printf '%s %s\n' "$t" "${n:-0}"
done >"$work/by_target"
total=$(awk '{ s += $2 } END { print s + 0 }' "$work/by_target")
[ "$total" -gt 0 ] || fail "the install build compiles nothing"
echo "make install compiles $total objects:" $(awk '{ printf "%s %s, ", $1, $2 }' "$work/by_target")
