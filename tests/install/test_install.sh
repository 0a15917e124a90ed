#!/bin/sh
# The installed package, used the way an outside project uses it:
#
#   test_install.sh BUILD_DIR SOURCE_DIR [CMAKE [CC]]
#
# 1. cmake --install BUILD_DIR into a temporary prefix; checks that the
#    headers, libraries, the sinew command, sinew.pc, sinew-render.pc and the
#    CMake package are there and that no installed package file names the
#    source or build tree (or the prefix: everything is relative).
# 2. Copies every examples/*.c out of the tree and builds each twice against
#    the prefix only: with `cc $(pkg-config --cflags --libs ...)`
#    (PKG_CONFIG_PATH = the prefix) and with tests/install/consumer, a CMake
#    project that uses find_package(sinew CONFIG REQUIRED). skin_arm, which
#    builds its model by hand, must need the `sinew` module alone (no
#    -lsinew_import, -lcjson or -lassimp on its line).
# 3. Runs both builds of each example and checks what they print: play_gltf
#    and play_gpu report the same instances, vertex counts and bounds;
#    render_png writes a PNG of the size asked for; check_asset finds nothing
#    in a clean file and the weights_negative error in a bad one.
#
# A sanitized build needs no special handling here: the package itself
# carries -fsanitize=... (sinew.pc's Libs, sinew::sinew's link options).
set -eu

[ $# -ge 2 ] || { echo "usage: test_install.sh BUILD_DIR SOURCE_DIR [CMAKE [CC]]" >&2; exit 2; }
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
cmake=${3:-cmake}
cc=${4:-cc}

work=$(mktemp -d "${TMPDIR:-/tmp}/sinew-install-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM
prefix=$work/prefix

fail() {
    echo "FAIL: $*" >&2
    exit 1
}
step() { echo "== $*"; }

# The install layout the build was configured with (GNUInstallDirs).
cache_get() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
libdir=$(cache_get CMAKE_INSTALL_LIBDIR)
libdir=${libdir:-lib}
bindir=$(cache_get CMAKE_INSTALL_BINDIR)
bindir=${bindir:-bin}
includedir=$(cache_get CMAKE_INSTALL_INCLUDEDIR)
includedir=${includedir:-include}

# ---- 1. install ----------------------------------------------------------------
step "cmake --install $build --prefix $prefix"
"$cmake" --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 || {
    cat "$work/install.log" >&2
    fail "cmake --install"
}

for f in "$libdir/libsinew.a" "$libdir/libsinew_import.a" "$libdir/libsinew_render.a" \
    "$libdir/pkgconfig/sinew.pc" "$libdir/pkgconfig/sinew-import.pc" "$libdir/pkgconfig/sinew-render.pc" \
    "$libdir/cmake/sinew/sinewConfig.cmake" "$libdir/cmake/sinew/sinewConfigVersion.cmake" \
    "$libdir/cmake/sinew/sinewTargets.cmake"; do
    [ -f "$prefix/$f" ] || fail "not installed: $f"
done
for h in "$src"/include/sinew/*.h; do
    [ -f "$prefix/$includedir/sinew/${h##*/}" ] || fail "header not installed: ${h##*/}"
done
if [ -f "$build/libsinew_demo.a" ]; then
    for f in "$libdir/libsinew_demo.a" "$libdir/pkgconfig/sinew-demo.pc"; do
        [ -f "$prefix/$f" ] || fail "not installed: $f"
    done
fi
if [ -x "$build/sinew" ]; then
    [ -x "$prefix/$bindir/sinew" ] || fail "not installed: $bindir/sinew"
    "$prefix/$bindir/sinew" --version >"$work/version.out" 2>&1 || fail "installed sinew --version"
    echo "installed: $(head -n 1 "$work/version.out")"
fi

# Relocatable: no package file names the trees it came from or the prefix.
if grep -rlF -e "$src" -e "$build" -e "$work" "$prefix/$libdir/pkgconfig" "$prefix/$libdir/cmake"; then
    fail "the package files above contain an absolute path"
fi

# ---- 2. build every example against the prefix only ----------------------------------
mkdir -p "$work/examples" "$work/pc"
cp "$src"/examples/*.c "$work/examples/"
examples=$(cd "$work/examples" && ls *.c | LC_ALL=C sort | sed 's/\.c$//')

# Nothing from the environment may point the compiler elsewhere.
unset CPATH C_INCLUDE_PATH LIBRARY_PATH PKG_CONFIG_LIBDIR PKG_CONFIG_SYSROOT_DIR || true
PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig
export PKG_CONFIG_PATH

# The pkg-config modules an example needs, read from its source.
modules_of() {
    m=sinew
    grep -Eq '#include +[<"]sinew/(gltf|import|check|vrm|iqm|assimp)\.h' "$1" && m="$m sinew-import"
    grep -Eq '#include +[<"]sinew/(gpu|render)\.h' "$1" && m="$m sinew-render"
    if grep -q 'sw_demo_' "$1" && [ -f "$PKG_CONFIG_PATH/sinew-demo.pc" ]; then m="$m sinew-demo"; fi
    grep -Eq '#include +<stb_' "$1" && m="$m stb"
    echo "$m"
}

step "pkg-config: $(pkg-config --modversion sinew) from $(pkg-config --variable=pcfiledir sinew)"
for name in $examples; do
    mods=$(modules_of "$work/examples/$name.c")
    # shellcheck disable=SC2086
    flags=$(pkg-config --cflags --libs $mods) || fail "pkg-config $mods"
    case "$flags" in *"$src"*) fail "pkg-config $mods points into the source tree: $flags" ;; esac
    # The core alone: skin_arm builds a model by hand and links `sinew`
    # without the readers, the renderer or their dependencies.
    if [ "$name" = skin_arm ]; then
        [ "$mods" = sinew ] || fail "skin_arm.c needs the modules '$mods', not sinew alone"
        case " $flags " in
        *" -lsinew_import "* | *" -lsinew_render "* | *" -lsinew_demo "* | *" -lcjson"* | *" -lassimp"*)
            fail "pkg-config --libs sinew pulls in more than the core: $flags" ;;
        esac
    fi
    echo "cc $name.c \$(pkg-config --cflags --libs $mods)"
    # shellcheck disable=SC2086
    "$cc" -std=c11 -Wall -Wextra -Werror -o "$work/pc/$name" "$work/examples/$name.c" $flags ||
        fail "$name.c does not build with pkg-config ($flags)"
done

step "CMake: find_package(sinew CONFIG REQUIRED)"
"$cmake" -S "$src/tests/install/consumer" -B "$work/cm" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF \
    -DSW_EXAMPLES_DIR="$work/examples" >"$work/cm.log" 2>&1 || {
    cat "$work/cm.log" >&2
    fail "configuring the find_package project"
}
"$cmake" --build "$work/cm" --parallel 2 >"$work/cm-build.log" 2>&1 || {
    cat "$work/cm-build.log" >&2
    fail "building the examples with the CMake package"
}
for name in $examples; do
    [ -x "$work/cm/$name" ] || fail "the CMake project did not build $name"
done

# ---- 3. run them ---------------------------------------------------------------------
data=$src/tests/data/gltf

# Same lines up to the bounds, and bounds within 1e-3 (GPU float order).
same_instances() {
    sed 's/, bounds.*//' "$1" >"$1.counts"
    sed 's/, bounds.*//' "$2" >"$2.counts"
    cmp -s "$1.counts" "$2.counts" || return 1
    grep '^node' "$1" | tr -c '0-9.\n-' ' ' >"$1.nums"
    grep '^node' "$2" | tr -c '0-9.\n-' ' ' >"$2.nums"
    paste -d '\n' "$1.nums" "$2.nums" | awk '
        NR % 2 == 1 { n = split($0, a, " "); next }
        { m = split($0, b, " "); if (m != n) bad = 1
          for (i = 1; i <= n; i++) { d = a[i] - b[i]; if (d < 0) d = -d; if (d > 1e-3) bad = 1 } }
        END { exit bad }'
}

# Width and height from a PNG's IHDR (bytes 16..23, big-endian).
png_size() {
    od -An -tu1 -j16 -N8 "$1" | awk '{ printf "%d x %d\n", (($1*256+$2)*256+$3)*256+$4, (($5*256+$6)*256+$7)*256+$8 }'
}

run_examples() { # DIR LABEL
    dir=$1
    for name in $examples; do
        out=$dir/$name.out
        case $name in
        skin_arm)
            "$dir/skin_arm" >"$out" 2>&1 || { cat "$out" >&2; fail "$2 skin_arm"; }
            grep -q '^vertex 0: LBS' "$out" || fail "$2 skin_arm printed: $(cat "$out")"
            ;;
        play_gltf | play_gpu)
            for model in morph_skin interp_linear; do
                "$dir/$name" "$data/$model.gltf" 0 0.7 >"$out.$model" 2>"$out.$model.err" || {
                    cat "$out.$model" "$out.$model.err" >&2
                    fail "$2 $name $model.gltf"
                }
                if grep -q '^skipped:' "$out.$model"; then
                    echo "$2 $name: $(cat "$out.$model")"
                    continue
                fi
                grep -Eq '^node [0-9]+ primitive 0: [0-9]+ vertices' "$out.$model" ||
                    fail "$2 $name $model.gltf printed: $(cat "$out.$model")"
                if [ "$name" = play_gpu ]; then
                    same_instances "$dir/play_gltf.out.$model" "$out.$model" || {
                        echo "CPU (play_gltf):" >&2
                        cat "$dir/play_gltf.out.$model" >&2
                        echo "GPU (play_gpu):" >&2
                        cat "$out.$model" >&2
                        fail "$2 play_gpu and play_gltf disagree on $model.gltf"
                    }
                fi
            done
            ;;
        render_png)
            "$dir/render_png" "$data/morph_skin.gltf" "$dir/frame.png" 96 64 >"$out" 2>&1 || {
                cat "$out" >&2
                fail "$2 render_png"
            }
            if grep -q '^skipped:' "$out"; then
                echo "$2 render_png: $(cat "$out")"
                continue
            fi
            grep -q "^wrote .*frame.png: 96 x 64" "$out" || fail "$2 render_png printed: $(cat "$out")"
            size=$(png_size "$dir/frame.png")
            [ "$size" = "96 x 64" ] || fail "$2 render_png wrote a PNG of $size, not 96 x 64"
            ;;
        first_steps)
            # The README's example: a clip by name (pose_chain.gltf's "turn"), then every mesh instance.
            "$dir/first_steps" "$data/pose_chain.gltf" turn >"$out" 2>&1 || { cat "$out" >&2; fail "$2 first_steps"; }
            grep -Eq '^node [0-9]+: 3 vertices, the first at \(' "$out" || fail "$2 first_steps printed: $(cat "$out")"
            ;;
        check_asset)
            "$dir/check_asset" "$src/tests/data/check/clean.gltf" >"$out" 2>&1 || {
                cat "$out" >&2
                fail "$2 check_asset clean.gltf"
            }
            grep -q 'clean.gltf: 0 errors, 0 warnings, 0 notes$' "$out" || fail "$2 check_asset printed: $(cat "$out")"
            # A file with a negative weight: an error finding, and exit status 1.
            st=0
            "$dir/check_asset" "$src/tests/data/check/weight_negative.gltf" >"$out" 2>&1 || st=$?
            [ $st -eq 1 ] && grep -q '^error: .*\[weights_negative\]$' "$out" &&
                grep -q 'weight_negative.gltf: 1 errors, ' "$out" ||
                fail "$2 check_asset weight_negative.gltf (exit $st) printed: $(cat "$out")"
            ;;
        *)
            # An example without a rule here gets the smallest model and must succeed.
            "$dir/$name" "$data/morph_skin.gltf" >"$out" 2>&1 || { cat "$out" >&2; fail "$2 $name"; }
            ;;
        esac
        echo "$2 $name: ok"
    done
}

# play_gltf runs before play_gpu (alphabetical), which compares with it.
step "run"
run_examples "$work/pc" pkg-config
run_examples "$work/cm" cmake
step "ok: $(echo $examples | wc -w) examples, built and run twice against the installed package"
