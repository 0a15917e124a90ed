#!/bin/sh
# The libraries keep to their layers, read from their symbol tables:
#
#   test_layers.sh NM LIBSINEW LIBSINEW_IMPORT LIBSINEW_RENDER [LIBSINEW_DEMO]
#
# 1. libsinew.a, the core, does no I/O and reads no format: none of its
#    objects refers to cJSON, Assimp, stb_image or the functions that open
#    and read files (open, openat, read, fopen, fread, realpath, readlink,
#    stat, fstat, and the names glibc gives them: open64, __xstat, ...),
#    nor defines a copy of cJSON, Assimp or stb_image of its own.
# 2. libsinew_render.a draws what it is given: no sw_toon_read, no
#    sw_model_decode_image, no cJSON, no stb_image.
# 3. Every allocation goes through sw_set_allocator's allocator: in every
#    library, malloc, calloc, realloc, free, aligned_alloc, posix_memalign,
#    strdup and strndup are referred to by base.c.o alone (the default
#    allocator).
# Each failure names the library, the object and the symbol; a pass says
# how many objects and references were looked at.
set -eu

if [ $# -lt 4 ]; then
    echo "usage: test_layers.sh NM LIBSINEW LIBSINEW_IMPORT LIBSINEW_RENDER [LIBSINEW_DEMO]" >&2
    exit 2
fi
nm=$1
core=$2
import=$3
render=$4
demo=${5:-}

failures=0

# "object symbol" for each undefined reference of an archive.
undefined() {
    "$nm" -A -u "$1" 2>/dev/null | awk '{ n = split($1, part, ":"); print part[n - 1], $NF }'
}
# "object symbol" for each global symbol an archive defines.
defined() {
    "$nm" -A -g --defined-only "$1" 2>/dev/null | awk '{ n = split($1, part, ":"); print part[n - 1], $NF }'
}

# check LIBRARY WHAT KIND PATTERN: fails on every symbol of KIND
# (undefined/defined) matching the extended regular expression PATTERN.
check() {
    lib=$1 what=$2 kind=$3 pattern=$4
    found=$("$kind" "$lib" | grep -E " ($pattern)\$" || true)
    if [ -n "$found" ]; then
        echo "FAIL: ${lib##*/} $what:"
        echo "$found" | sed 's/^/    /'
        failures=$((failures + 1))
    else
        echo "ok   ${lib##*/}: $what: none"
    fi
}

summary() {
    objects=$("$nm" -A "$1" 2>/dev/null | awk '{ n = split($1, part, ":"); print part[n - 1] }' | sort -u | wc -l)
    refs=$(undefined "$1" | wc -l)
    echo "     ${1##*/}: $objects objects, $refs undefined references"
}

for lib in "$core" "$import" "$render" $demo; do
    [ -f "$lib" ] || { echo "FAIL: no library $lib" >&2; exit 1; }
done

cjson='cJSON_[A-Za-z_]*'
assimp='ai[A-Z][A-Za-z0-9_]*|.*Assimp.*'
stb='stbi_[A-Za-z0-9_]*|stbi__[A-Za-z0-9_]*'
files='open|open64|__open_2|__open64_2|openat|openat64|__openat_2|__openat64_2'
files="$files|read|__read_chk|fopen|fopen64|fread|fread_unlocked|__fread_chk|__fread_unlocked_chk"
files="$files|realpath|__realpath_chk|readlink|__readlink_chk"
files="$files|stat|stat64|__xstat|__xstat64|fstat|fstat64|__fxstat|__fxstat64"

echo "== 1. the core (${core##*/}): no I/O, no JSON, no image decoding, no Assimp"
summary "$core"
check "$core" "refers to cJSON" undefined "$cjson"
check "$core" "refers to Assimp" undefined "$assimp"
check "$core" "refers to stb_image" undefined "$stb"
check "$core" "opens, reads or inspects files" undefined "$files"
check "$core" "carries its own cJSON, Assimp or stb_image" defined "$cjson|$assimp|$stb"

echo "== 2. the renderer (${render##*/}): draws what it is given"
summary "$render"
check "$render" "reads toon materials or decodes images" undefined "sw_toon_read|sw_model_decode_image"
check "$render" "refers to cJSON or stb_image" undefined "$cjson|$stb"
check "$render" "carries its own cJSON or stb_image" defined "$cjson|$stb"

allocation='malloc|calloc|realloc|reallocarray|free|aligned_alloc|posix_memalign|memalign|valloc|strdup|strndup'
echo "== 3. every library allocates through sw_set_allocator's allocator (base.c.o is the default one)"
for lib in "$core" "$import" "$render" $demo; do
    found=$(undefined "$lib" | grep -Ev '^base\.c\.o ' | grep -E " ($allocation)\$" || true)
    if [ -n "$found" ]; then
        echo "FAIL: ${lib##*/} allocates around the allocator:"
        echo "$found" | sed 's/^/    /'
        failures=$((failures + 1))
    else
        echo "ok   ${lib##*/}: malloc and friends from base.c.o only"
    fi
done

if [ "$failures" -ne 0 ]; then
    echo "$failures layer rules broken"
    exit 1
fi
echo "every layer rule holds"
