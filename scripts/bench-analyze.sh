#!/usr/bin/env bash
# Benchmark (not a test): wall time of `regscope analyze FILE` against a bare
# `hipcc --offload-arch=ARCH -c FILE`, median of N runs each, and their ratio.
# Usage: scripts/bench-analyze.sh [FILE] [RUNS] [ARCH]
set -euo pipefail
cd "$(dirname "$0")/.."
file=$(realpath "${1:-kernels/lbm/lbm.hip}")
runs=${2:-7}
arch=${3:-gfx90a}
regscope=$(realpath build/regscope)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
time_one() {  # prints seconds for one run of "$@" inside the scratch dir
  local start end
  start=$(date +%s.%N)
  (cd "$scratch" && "$@" >/dev/null 2>&1)
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}

hipcc --offload-arch="$arch" -c "$file" -o "$scratch/warm.o" >/dev/null 2>&1  # warm the page cache
bare=$(for _ in $(seq "$runs"); do time_one hipcc --offload-arch="$arch" -c "$file" -o "$scratch/bare.o"; done | median)
ours=$(for _ in $(seq "$runs"); do time_one "$regscope" analyze --offload-arch "$arch" "$file"; done | median)
printf 'file            %s\n' "${file#$PWD/}"
printf 'hipcc -c        %.3f s (median of %d)\n' "$bare" "$runs"
printf 'regscope        %.3f s (median of %d)\n' "$ours" "$runs"
printf 'ratio           %.2f  (regscope / bare build; below 1 means faster than the build)\n' "$(echo "$ours / $bare" | bc -l)"
