#!/bin/sh
# build-web.sh OUT_DIR OBJ_DIR NATIVE_SINEW
#
# The browser build (`make web`, tests/web): configures web/ with
# emscripten once (OBJ_DIR), then builds what changed: the WebAssembly
# module and the page into OUT_DIR (index.html, sinew.js, sinew-core.js,
# sinew-core.wasm) and demo.glb, written by NATIVE_SINEW demo-asset.
# Debian's emscripten ships its system libraries prebuilt (a frozen cache),
# so a first build compiles sinew's sources only. Exit status 77 when
# emscripten is not installed (scripts/install-deps.sh --test installs it).
set -eu

[ $# -eq 3 ] || { echo "usage: build-web.sh OUT_DIR OBJ_DIR NATIVE_SINEW" >&2; exit 2; }
OUT=$1
OBJ=$2
NATIVE=$3
ROOT=$(cd "$(dirname "$0")/.." && pwd)

if ! command -v emcmake >/dev/null 2>&1 || ! command -v emcc >/dev/null 2>&1; then
    echo "build-web: emscripten is not installed (Debian: apt-get install emscripten, or scripts/install-deps.sh --test)" >&2
    exit 77
fi
# Debian's emscripten runs its JS tools with node and Debian's node modules
# (acorn) from /usr/share/nodejs; a node from elsewhere does not look there.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
NATIVE=$(cd "$(dirname "$NATIVE")" && pwd)/$(basename "$NATIVE")
if [ ! -f "$OBJ/CMakeCache.txt" ]; then
    emcmake cmake -S "$ROOT/web" -B "$OBJ" -DCMAKE_BUILD_TYPE=Release -DSW_WEB_OUT="$OUT" \
        -DSW_NATIVE_SINEW="$NATIVE" >/dev/null
fi
cmake --build "$OBJ" -j "${JOBS:-$(nproc 2>/dev/null || echo 2)}" -- --no-print-directory | grep -v '^\[' || true
for f in index.html sinew.js sinew-core.js sinew-core.wasm demo.glb; do
    [ -s "$OUT/$f" ] || { echo "build-web: $OUT/$f was not made" >&2; exit 1; }
done
