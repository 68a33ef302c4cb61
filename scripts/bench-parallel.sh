#!/usr/bin/env bash
# Benchmark (not a test): does `regscope analyze -p` scale with -j? A 20-file
# project (the LBM variants under 20 kernel names) in a compile database,
# analysed with --no-cache at -j1 and at -jN, alternating, median of RUNS each.
# Prints wall times, the speed-up, and the CPU time regscope and its compilers
# used (user + sys of the whole tree), which load from elsewhere touches less.
#
# Usage: scripts/bench-parallel.sh [RUNS] [N] [--cuda-arch ARCH]
#   default: hipcc for gfx90a; --cuda-arch sm_90: nvcc (the files compiled as CUDA)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bench-lib.sh
runs=${1:-3}
n=${2:-2}
shift $(($# < 2 ? $# : 2))
regscope=$(realpath "${REGSCOPE:-build/regscope}")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export XDG_CACHE_HOME=$scratch/cache

cuda=""
[ "${1:-}" = "--cuda-arch" ] && cuda=${2:?--cuda-arch needs an arch}
ext=hip
[ -n "$cuda" ] && ext=cu
lbm_project "$scratch/project" "$ext"
shim=$PWD/kernels/common/cuda_shim
{
  echo '['
  first=1
  for f in "$scratch"/project/*."$ext"; do
    [ $first = 1 ] || echo ','
    first=0
    if [ -n "$cuda" ]; then
      printf '{"directory": "%s", "file": "%s", "command": "nvcc -I %s -c %s -o %s.o"}' \
        "$scratch/project" "$f" "$shim" "$f" "$f"
    else
      printf '{"directory": "%s", "file": "%s", "command": "hipcc --offload-arch=gfx90a -c %s -o %s.o"}' \
        "$scratch/project" "$f" "$f" "$f"
    fi
  done
  echo ']'
} >"$scratch/project/compile_commands.json"

args=(analyze -p "$scratch/project" --no-cache)
[ -n "$cuda" ] && args+=(--cuda-arch "$cuda")
# seconds (wall) and seconds of CPU (user + sys of regscope and its children)
measure() {
  local TIMEFORMAT='%R %U %S'
  { time "$regscope" "${args[@]}" -j "$1" >"$scratch/out.$1" 2>&1 || true; } 2>"$scratch/time"
  awk '{printf "%s %.2f\n", $1, $2 + $3}' "$scratch/time"
}
calc() { awk "BEGIN { print $1 }"; }  # arithmetic without bc
for ((r = 0; r < runs; r++)); do
  measure 1 >>"$scratch/j1"
  measure "$n" >>"$scratch/jn"
done
grep -q 'error' "$scratch/out.1" && { echo "bench-parallel: the analysis failed:" >&2; cat "$scratch/out.1" >&2; exit 1; }
w1=$(cut -d' ' -f1 "$scratch/j1" | median)
wn=$(cut -d' ' -f1 "$scratch/jn" | median)
c1=$(cut -d' ' -f2 "$scratch/j1" | median)
cn=$(cut -d' ' -f2 "$scratch/jn" | median)
printf 'load average  %s; %s cores\n' "$(cut -d' ' -f1-3 /proc/loadavg)" "$(nproc)"
printf 'files         %d (%s)\n' "$i" "${cuda:-gfx90a}"
printf -- '-j1           %.2f s wall, %.2f s CPU (median of %d)\n' "$w1" "$c1" "$runs"
printf -- '-j%-2d          %.2f s wall, %.2f s CPU (median of %d)\n' "$n" "$wn" "$cn" "$runs"
printf 'speed-up      %.2fx\n' "$(calc "$w1 / $wn")"
