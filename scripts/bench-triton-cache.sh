#!/usr/bin/env bash
# Benchmark (not a test): `regscope parse` over a Triton cache of thousands of
# kernels, against reading the same files (cat). The cache is COPIES copies of
# the 18 AMD entries of fixtures/triton (cache-gfx942, cache-gfx950,
# cache-squeezed-gfx942: real Triton 3.6 output), hard-linked into one
# directory per copy, as an autotuned model's cache holds one directory per
# compiled kernel. Every file regscope reads is counted in MB (the metadata,
# .source, .amdgcn and .hsaco of each entry); the IR it skips (.ttir, .ttgir)
# is not. Prints the median of RUNS wall and CPU (user + sys) times for cat,
# regscope -j1 and -jN (N: cores) without the result cache, and -jN with it
# cold (every entry stored: its files hashed) and warm (every entry a hit), as
# MB/s and kernels/s.
#
# Usage: scripts/bench-triton-cache.sh [COPIES] [RUNS]   (defaults: 200 5; REGSCOPE=binary)
set -euo pipefail
cd "$(dirname "$0")/.."
copies=${1:-200}
runs=${2:-5}
regscope=$(realpath "${REGSCOPE:-build/regscope}")
work=$(mktemp -d "${TMPDIR:-/tmp}/regscope-bench-triton.XXXXXX")
trap 'rm -rf "$work"' EXIT
for i in $(seq 1 "$copies"); do
  mkdir -p "$work/cache/$i"
  for c in cache-gfx942 cache-gfx950 cache-squeezed-gfx942; do
    for d in fixtures/triton/$c/*/; do cp -al "$d" "$work/cache/$i/$c-$(basename "$d")"; done
  done
done
find "$work/cache" -type f \( -name '*.amdgcn' -o -name '*.hsaco' -o -name '*.source' -o -name '*.json' \) -print0 \
  > "$work/read-files"
mb=$(xargs -0 stat -c %s < "$work/read-files" | awk '{s += $1} END {print s / 1e6}')
kernels=$((copies * 18))
cores=$(nproc)
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
measure() {  # NAME COMMAND...: median wall and cpu over RUNS
  local name=$1; shift
  local walls=() cpus=()
  for _ in $(seq 1 "$runs"); do
    /usr/bin/time -f '%e %U %S' -o "$work/t" "$@" > /dev/null 2> /dev/null
    read -r w u s < "$work/t"
    walls+=("$w"); cpus+=("$(echo "$u + $s" | bc -l)")
  done
  local wall cpu
  wall=$(printf '%s\n' "${walls[@]}" | median); cpu=$(printf '%s\n' "${cpus[@]}" | median)
  printf '%-14s %6.2f s wall %7.0f MB/s %8.0f kernels/s | %6.2f s cpu %7.0f MB/s\n' "$name" "$wall" \
    "$(echo "$mb / $wall" | bc -l)" "$(echo "$kernels / $wall" | bc -l)" "$cpu" "$(echo "$mb / $cpu" | bc -l)"
}
xargs -0 cat < "$work/read-files" > /dev/null  # warm: every figure below reads from the page cache
echo "$kernels kernels (Triton cache entries), ${mb} MB read, $cores cores"
measure "cat" sh -c 'xargs -0 cat < "$1"' sh "$work/read-files"
export XDG_CACHE_HOME=$work/xdg  # the result cache: a fresh one, filled by the first cached run
measure "regscope -j1" "$regscope" parse "$work/cache" -j1 --no-cache --format json
measure "regscope -j$cores" "$regscope" parse "$work/cache" -j"$cores" --no-cache --format json
measure "cache, cold" sh -c 'rm -rf "$XDG_CACHE_HOME"; exec "$@"' sh "$regscope" parse "$work/cache" -j"$cores" --format json
"$regscope" parse "$work/cache" -j"$cores" --format json > /dev/null 2>&1  # fill it
measure "cache, warm" "$regscope" parse "$work/cache" -j"$cores" --format json
