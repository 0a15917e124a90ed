#!/bin/sh
# The `sinew` dispatcher: help, version, unknown commands and options, exit
# codes (0 ok, 1 failure, 2 usage error).
# Usage: sh test_cli.sh PATH_TO_SINEW SCRATCH_DIR
set -eu

. "$(dirname "$0")/cli_harness.inc"

sinew --help
check "--help exits 0" status_is 0
check "--help prints usage" out_has "usage: sinew <command>"
check "--help lists retention" out_has "^  retention  "
check "--help prints nothing on stderr" err_empty

sinew -h
check "-h exits 0" status_is 0
check "-h prints usage" out_has "usage: sinew <command>"

sinew help
check "help exits 0" status_is 0
check "help lists retention" out_has "^  retention  "

sinew
check "no arguments: usage error (2)" status_is 2
check "no arguments: usage on stderr" err_has "usage: sinew <command>"

sinew --version
check "--version exits 0" status_is 0
check "--version prints 'sinew X.Y.Z'" sh -c "head -n 1 '$WORK/out' | grep -Eq '^sinew [0-9]+\.[0-9]+\.[0-9]+$'"
check "--version prints the build" out_has "^build: [a-z].*kernels"

sinew retention --help
check "retention --help exits 0" status_is 0
check "retention --help prints its usage" out_has "usage: sinew retention"
check "retention --help documents -o, --output" out_has "-o, --output FILE"
check "retention --help documents --json" out_has "--json"

sinew help retention
check "help retention exits 0" status_is 0
check "help retention prints its usage" out_has "usage: sinew retention"

sinew frobnicate
check "unknown command: exit 2" status_is 2
check "unknown command: one clear line" err_has "^sinew: unknown command 'frobnicate' (see sinew --help)$"
check "unknown command: nothing on stdout" out_empty

sinew help frobnicate
check "help for an unknown command: exit 2" status_is 2
check "help for an unknown command: says so" err_has "unknown command 'frobnicate'"

sinew --frobnicate
check "unknown global option: exit 2" status_is 2
check "unknown global option: says so" err_has "^sinew: unknown option '--frobnicate'"

sinew retention --frobnicate
check "unknown retention option: exit 2" status_is 2
check "unknown retention option: names it" \
    err_has "^sinew retention: unknown option '--frobnicate' (see sinew retention --help)$"
check "unknown retention option: nothing on stdout" out_empty

sinew retention extra
check "unexpected argument: exit 2" status_is 2
check "unexpected argument: names it" err_has "unexpected argument 'extra'"

sinew retention --rings abc
check "--rings abc: exit 2" status_is 2
check "--rings abc: names the option and the range" err_has "--rings expects an integer from 7 to"

sinew retention --rings 3
check "--rings 3 (below range): exit 2" status_is 2

sinew retention --segments=2
check "--segments=2 (below range): exit 2" status_is 2
check "--segments=2: names the option" err_has "--segments expects an integer"

sinew retention --rings
check "--rings without a value: exit 2" status_is 2
check "--rings without a value: says so" err_has "option --rings needs a value"

sinew retention --quiet --json
check "--quiet with --json: exit 2" status_is 2

# Every command that writes a file documents the same output option and
# --quiet, and none documents the old spellings (--out, --plot), which are
# still accepted for one release.
for command in render export demo-asset retention; do
    sinew "$command" --help
    check "$command --help: -o, --output FILE" out_has "^  -o, --output FILE"
    check "$command --help: --quiet" out_has "^  --quiet"
    check "$command --help: no --out or --plot" sh -c "! grep -q -e '--out\b' -e '--plot' '$WORK/out'"
done
# The commands that only read write no file, so take no -o.
for command in info check; do
    sinew "$command" --help
    check "$command --help: no output option" sh -c "! grep -q -e '--output' '$WORK/out'"
done

if [ -w /dev/full ]; then
    if "$SINEW" --version >/dev/full 2>"$WORK/err"; then rc=0; else rc=$?; fi
    : >"$WORK/out"
    check "a full stdout is a failure (1)" status_is 1
    check "a full stdout is reported" err_has "cannot write standard output"
else
    echo "note: /dev/full is missing; skipped the write-error check"
fi

# A folder given as a model, with or without its trailing slash: one line
# that names it (the base name of "dir/" is empty, so the path is named).
mkdir -p "$WORK/folder"
sinew info "$WORK/folder/"
check "a folder with a trailing slash as the model: failure (1)" status_is 1
check "... named in the message" err_has_text "$WORK/folder/: not a regular file (a directory)"
sinew info "$WORK/folder"
check "a folder as the model: named in the message" err_has_text "folder: not a regular file (a directory)"

finish
