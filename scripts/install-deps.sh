#!/bin/sh
# Installs the Debian packages that building, testing and running sinew need.
# assimp-testmodels is for the tests only: its CMU motion-capture clips
# (BVH/01_01.bvh, 01_03.bvh) are what the compression test measures.
# Idempotent: packages already installed are skipped, and when nothing is
# missing it touches no network. Needs root (or sudo) only when installing.
#   scripts/install-deps.sh         what `make demo` and the build need
#   scripts/install-deps.sh --test  also what `make test` and `make web` need:
#                                   GNU parallel (scripts/sinew-batch),
#                                   emscripten (the WebAssembly build) and
#                                   chromium (the browser test),
#                                   assimp-testmodels (the CMU clips)
set -eu

TEST_PACKAGES="
parallel
emscripten
chromium
assimp-testmodels
"

PACKAGES="
cmake
make
gcc
g++
libc6-dev
pkg-config
libcairo2-dev
libcglm-dev
libcjson-dev
libassimp-dev
libstb-dev
python3
python3-numpy
fonts-dejavu-core
clang
libclang-rt-14-dev
libepoxy-dev
libegl-dev
libegl1
libegl-mesa0
libgl1-mesa-dri
glslang-tools
ffmpeg
libglfw3-dev
xvfb
xauth
"

case "${1:-}" in
    "") ;;
    --test) PACKAGES="$PACKAGES $TEST_PACKAGES" ;;
    *) echo "usage: scripts/install-deps.sh [--test]" >&2; exit 2 ;;
esac

missing=""
for pkg in $PACKAGES; do
    status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
    case "$status" in
        *"install ok installed"*) ;;
        *) missing="$missing $pkg" ;;
    esac
done

if [ -z "$missing" ]; then
    exit 0
fi

echo "install-deps: installing$missing"
if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "install-deps: missing packages:$missing; run this script as root" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
