#!/bin/sh
# Validates every GPU skinning shader variant and every renderer stage with
# glslangValidator (the Khronos reference compiler), independently of any
# driver.
# Usage: validate_shaders.sh DUMP_SHADERS GLSLANG_VALIDATOR WORK_DIR
set -eu
dump=$1 validator=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
"$dump" "$work"
# One run per stage: each file is compiled on its own, any error fails it.
for stage in comp vert frag; do
    if ! out=$("$validator" "$work"/*."$stage" 2>&1); then
        echo "$out" | grep -B2 -A2 ERROR
        echo "FAIL: some .$stage variants do not compile"
        exit 1
    fi
done
echo "$(ls "$work" | wc -l) shaders valid"
