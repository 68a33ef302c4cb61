#!/usr/bin/env bash
# Benchmark (not a test): what `regscope wrap` costs a real build, and what
# `regscope collect` takes. A 20-file CMake HIP project (the LBM variants
# under 20 kernel names, bench-lib.sh) is built from clean with and without
# CMAKE_HIP_COMPILER_LAUNCHER=regscope;wrap;--, alternating, RUNS times each
# (make -jJOBS); then collect over the wrapped build, median of 10.
# Prints the medians, the overhead ratio (goal: <= 1.05) and the load.
#
# Usage: scripts/bench-wrap.sh [RUNS] [JOBS]     (default 3 runs, -j2)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bench-lib.sh
runs=${1:-3}
jobs=${2:-2}
regscope=$(realpath "${REGSCOPE:-build/regscope}")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export XDG_CACHE_HOME=$scratch/cache

# The project: CMake's HIP language with Debian 12's ROCm 5.2 (clang++-15),
# as tests/scenarios/optimisation-level.sh configures it.
lbm_project "$scratch/p/src"
mkdir -p "$scratch/rocm-root/lib" && ln -s /usr/lib/x86_64-linux-gnu/cmake "$scratch/rocm-root/lib/cmake"
{
  echo 'cmake_minimum_required(VERSION 3.21)'
  echo 'project(bench LANGUAGES HIP)'
  printf 'add_library(kernels OBJECT'
  for f in "$scratch"/p/src/*.hip; do printf ' src/%s' "$(basename "$f")"; done
  echo ')'
} >"$scratch/p/CMakeLists.txt"
cat >"$scratch/toolchain.cmake" <<C
set(CMAKE_HIP_COMPILER /usr/bin/clang++-15)
set(CMAKE_HIP_COMPILER_ROCM_ROOT $scratch/rocm-root)
set(CMAKE_HIP_FLAGS_INIT "--rocm-path=/usr --rocm-device-lib-path=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode")
set(CMAKE_HIP_ARCHITECTURES gfx90a)
list(APPEND CMAKE_PREFIX_PATH /usr/lib/x86_64-linux-gnu/cmake)
execute_process(COMMAND /usr/bin/clang++-15 -print-resource-dir OUTPUT_VARIABLE _rd OUTPUT_STRIP_TRAILING_WHITESPACE)
set(HIP_CLANG_INCLUDE_PATH \${_rd}/include CACHE PATH "")
C
configure() {
  cmake -S "$scratch/p" -B "$scratch/$1" -DCMAKE_BUILD_TYPE=Release -DCMAKE_TOOLCHAIN_FILE="$scratch/toolchain.cmake" \
    "${@:2}" >"$scratch/$1.cfg" 2>&1 || { cat "$scratch/$1.cfg" >&2; exit 1; }
}
configure plain
configure wrapped "-DCMAKE_HIP_COMPILER_LAUNCHER=$regscope;wrap;--"

# seconds (wall) and seconds of CPU (user + sys of make, the compilers and
# regscope) of a clean build; CPU time is what other load touches least.
build() {
  make -C "$scratch/$1" clean >/dev/null
  local TIMEFORMAT='%R %U %S'
  { time make -C "$scratch/$1" -j"$jobs" >"$scratch/$1.log" 2>&1; } 2>"$scratch/time"
  awk '{printf "%s %.2f\n", $1, $2 + $3}' "$scratch/time" >>"$scratch/$1.times"
  grep -q 'Built target kernels' "$scratch/$1.log" || { echo "bench-wrap: the $1 build failed:" >&2; tail "$scratch/$1.log" >&2; exit 1; }
}
calc() { awk "BEGIN { print $1 }"; }  # arithmetic without bc
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for ((r = 0; r < runs; r++)); do
  build plain
  build wrapped
done
sidecars=$(find "$scratch/wrapped" -name '*.regscope.json' | wc -l)
[ "$sidecars" = 20 ] || { echo "bench-wrap: $sidecars sidecars, expected 20" >&2; exit 1; }
for ((r = 0; r < 10; r++)); do
  TIMEFORMAT='%R'
  { time "$regscope" collect "$scratch/wrapped" --format json >"$scratch/collect.json"; } 2>>"$scratch/collect.times"
done
# The parts of the overhead apart, where other load blurs whole builds less:
# (1) the remark flag's cost inside the compiler: one file compiled with and
# without it, alternating, CPU time; (2) regscope's own work per compile
# (start, read the object, disassemble, write the sidecar): wrap around a
# stand-in compiler that only copies the built object and prints the remarks.
hipflags=(--rocm-path=/usr --rocm-device-lib-path=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode -x hip --offload-arch=gfx90a -O3)
one=$scratch/p/src/k1.hip
cpu() {  # CPU seconds (user + sys) of a command
  local TIMEFORMAT='%U %S'
  { time "$@" >/dev/null 2>&1; } 2>"$scratch/time1"
  awk '{printf "%.3f\n", $1 + $2}' "$scratch/time1"
}
for ((r = 0; r < runs + 2; r++)); do
  cpu /usr/bin/clang++-15 "${hipflags[@]}" -c "$one" -o "$scratch/one.o" >>"$scratch/flag-off"
  cpu /usr/bin/clang++-15 "${hipflags[@]}" -c "$one" -o "$scratch/one.o" -Rpass-analysis=kernel-resource-usage >>"$scratch/flag-on"
done
/usr/bin/clang++-15 "${hipflags[@]}" -c "$one" -o "$scratch/one.o" -Rpass-analysis=kernel-resource-usage 2>"$scratch/remarks.txt"
mkdir -p "$scratch/stand-in"
printf '#!/bin/sh\n# a stand-in compiler: the object and the remarks of a real compile\nwhile [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done\ncp %s "$out"; cat %s >&2\n' \
  "$scratch/one.o" "$scratch/remarks.txt" >"$scratch/stand-in/clang++"
chmod +x "$scratch/stand-in/clang++"
for ((r = 0; r < 20; r++)); do
  cpu "$scratch/stand-in/clang++" -x hip --offload-arch=gfx90a -c "$one" -o "$scratch/two.o" >>"$scratch/bare"
  cpu "$regscope" wrap -- "$scratch/stand-in/clang++" -x hip --offload-arch=gfx90a -c "$one" -o "$scratch/two.o" >>"$scratch/wrap"
done
[ -s "$scratch/two.o.regscope.json" ] || { echo "bench-wrap: the stand-in compile wrote no sidecar" >&2; exit 1; }
kernels=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['kernels']))" "$scratch/collect.json")
tp=$(cut -d' ' -f1 "$scratch/plain.times" | median)
tw=$(cut -d' ' -f1 "$scratch/wrapped.times" | median)
cp=$(cut -d' ' -f2 "$scratch/plain.times" | median)
cw=$(cut -d' ' -f2 "$scratch/wrapped.times" | median)
tc=$(median <"$scratch/collect.times")
printf 'load average  %s before, %s after; %s cores\n' "$load_before" "$(cut -d' ' -f1-3 /proc/loadavg)" "$(nproc)"
printf 'project       20 files, CMake + make -j%s, clang++-15 for gfx90a, Release\n' "$jobs"
printf 'plain build   %.2f s wall, %.2f s CPU (median of %d; wall: %s)\n' "$tp" "$cp" "$runs" "$(cut -d' ' -f1 "$scratch/plain.times" | tr '\n' ' ')"
printf 'wrapped build %.2f s wall, %.2f s CPU (median of %d; wall: %s)\n' "$tw" "$cw" "$runs" "$(cut -d' ' -f1 "$scratch/wrapped.times" | tr '\n' ' ')"
printf 'overhead      %.3fx CPU, %.3fx wall (goal <= 1.05)\n' "$(calc "$cw / $cp")" "$(calc "$tw / $tp")"
printf 'collect       %.3f s for %d sidecars, %d kernels (median of 10)\n' "$tc" "$sidecars" "$kernels"
off=$(median <"$scratch/flag-off")
on=$(median <"$scratch/flag-on")
bare=$(median <"$scratch/bare")
wrapped=$(median <"$scratch/wrap")
printf 'one compile   %.3f s CPU, %.3f s with the remark flag: %.3fx (median of %d)\n' "$off" "$on" "$(calc "$on / $off")" "$((runs + 2))"
printf 'regscope wrap %.1f ms CPU per compile of its own (%.1f ms wrapped stand-in - %.1f ms stand-in, median of 20)\n' \
  "$(calc "($wrapped - $bare) * 1000")" "$(calc "$wrapped * 1000")" "$(calc "$bare * 1000")"
printf 'estimate      %.3fx: (compile with the flag + regscope'"'"'s own) / compile\n' "$(calc "($on + $wrapped - $bare) / $off")"
