#!/usr/bin/env bash
# Benchmark (not a test): what a pre-commit hook pays when nothing changed.
# Times `/bin/true`, `regscope --version`, a result-cache hit of `analyze` on one
# file and `gate` over 20 unchanged files, for this build and, if given, another
# build of regscope (the shared-library one), in alternating runs: the runs of
# each round follow each other, so load from elsewhere touches them alike.
# Prints the median of RUNS for each, and ratios to /bin/true and to OTHER.
#
# Usage: scripts/bench-startup.sh [RUNS] [OTHER_REGSCOPE]
#   OTHER_REGSCOPE: e.g. a build configured with -DREGSCOPE_STATIC_LLVM=OFF
#   (scripts/bench-startup.sh 10 build-shared/regscope)
#   CUDA_ARCH=sm_90 in the environment: the files through nvcc instead of hipcc
#   (as CUDA, with the reference kernels' shim), for a machine without hipcc
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bench-lib.sh
runs=${1:-10}
ours=$(realpath "${REGSCOPE:-build/regscope}")
other=${2:+$(realpath "$2")}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export XDG_CACHE_HOME=$scratch/cache

# The same 20 files as scripts/bench-cache.sh: the LBM variants under new names.
lbm_project "$scratch/project"
files=("$scratch"/project/*.hip)
one=${files[0]}
target=()
[ -n "${CUDA_ARCH:-}" ] && target=(--cuda-arch "$CUDA_ARCH" -- -x cu -I "$PWD/kernels/common/cuda_shim")

# Milliseconds of one run, from bash's own clock (no date(1) fork in the timing).
ms() {
  local s=$EPOCHREALTIME
  "$@" >/dev/null 2>&1 || true
  local e=$EPOCHREALTIME
  calc "($e - $s) * 1000"
}
calc() { awk "BEGIN { print $1 }"; }  # arithmetic without bc

builds=("$ours")
[ -n "$other" ] && builds+=("$other")
# Fill the cache with each build (both read the same entries: same key, same format).
for b in "${builds[@]}"; do
  "$b" gate --min-occupancy 1 "${files[@]}" "${target[@]}" >/dev/null 2>&1 || true
  "$b" analyze "$one" "${target[@]}" >/dev/null 2>&1 || true
done

cases=(true version analyze gate)
run_case() {  # build case
  case $2 in
    true) ms /bin/true ;;
    version) ms "$1" --version ;;
    analyze) ms "$1" analyze "$one" "${target[@]}" ;;
    gate) ms "$1" gate --min-occupancy 1 "${files[@]}" "${target[@]}" ;;
  esac
}
for ((r = 0; r < runs; r++)); do
  for c in "${cases[@]}"; do
    for ((b = 0; b < ${#builds[@]}; b++)); do
      echo "$(run_case "${builds[$b]}" "$c")" >>"$scratch/$c.$b"
    done
  done
done

printf 'load average: %s; %s cores; compiler: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)" "$(nproc)" \
  "${CUDA_ARCH:-hipcc (gfx90a)}"
printf 'this build:   %s (%s)\n' "$ours" "$(ldd "$ours" | grep -qE 'libLLVM|libclang-cpp' && echo shared || echo static)"
[ -n "$other" ] && printf 'other build:  %s (%s)\n' "$other" \
  "$(ldd "$other" | grep -qE 'libLLVM|libclang-cpp' && echo shared || echo static)"
truth=$(median <"$scratch/true.0")
printf '%-28s %10s %10s' "median of $runs, ms" this "x true"
[ -n "$other" ] && printf ' %10s %10s' other "this/other"
printf '\n'
for c in "${cases[@]}"; do
  m0=$(median <"$scratch/$c.0")
  printf '%-28s %10.1f %10.1f' "$c" "$m0" "$(calc "$m0 / $truth")"
  if [ -n "$other" ]; then
    m1=$(median <"$scratch/$c.1")
    printf ' %10.1f %10.2f' "$m1" "$(calc "$m0 / $m1")"
  fi
  printf '\n'
done
