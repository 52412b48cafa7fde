#!/usr/bin/env bash
# Writes a compile_commands.json for cann/pypto's device tree (framework/src/machine/device) when
# there is no build to export one: the include directories and defines of
# framework/src/machine/device/CMakeLists.txt (tile_fwk_server) and, for the ctrl library of
# device/dynamic/CMakeLists.txt (device_ctrl.cpp, context/*.cpp), -D__USE_CUSTOM_CTRLFLOW__.
# With a build, CMake writes the real one: cmake -DCMAKE_EXPORT_COMPILE_COMMANDS=ON (docs/cpp.md).
# Usage: scripts/pypto_compile_commands.sh PYPTO_ROOT OUT_DIR
set -euo pipefail
root=$(cd "$1" && pwd)
out=$2
fw=$root/framework
mkdir -p "$out"
first=1
{
  echo "["
  while IFS= read -r f; do
    extra=""
    case "$f" in */dynamic/context/*|*/dynamic/device_ctrl.cpp) extra='"-D__USE_CUSTOM_CTRLFLOW__", ' ;; esac
    [ $first -eq 1 ] || echo ","
    first=0
    printf '{"directory": "%s", "file": "%s", "arguments": ["c++", "-std=gnu++17", "-D__DEVICE__", %s"-I%s/include", "-I%s/src", "-I%s/src/include", "-I%s/src/interface", "-I%s/src/interface/machine/device", "-I%s/src/cost_model", "-c", "%s"]}' \
      "$(dirname "$f")" "$f" "$extra" "$fw" "$fw" "$fw" "$fw" "$fw" "$fw" "$f"
  done < <(find "$fw/src/machine/device" -name '*.cpp' -not -path '*/stub/*' | sort)
  echo "]"
} >"$out/compile_commands.json"
