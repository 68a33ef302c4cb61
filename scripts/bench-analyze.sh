#!/usr/bin/env bash
# Benchmark (not a test): the cold compile. Wall time of
# `regscope analyze --no-cache --offload-arch ARCH FILE` against
#   - a bare `hipcc --offload-arch=ARCH -c FILE` (the user's own build), and
#   - a bare device-only `hipcc --offload-arch=ARCH --cuda-device-only -S FILE`
#     (the floor: the compiler's own work for the device code),
# and, if given, another build of regscope (an older one, say). The commands
# run in alternating order, round after round, so that load from elsewhere
# touches each alike; prints the median of RUNS for each and the ratios, over
# wall time and over CPU time (user + sys, the compiler's processes included).
#
# With an NVIDIA ARCH (sm_90), nvcc instead: `nvcc -c` (host code included)
# and the device side alone (`nvcc --cubin -Xptxas -v`), the file compiled as
# CUDA through the reference kernels' shim.
#
# Usage: scripts/bench-analyze.sh [FILE] [RUNS] [ARCH] [OTHER_REGSCOPE]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bench-lib.sh
file=$(realpath "${1:-kernels/lbm/lbm.hip}")
runs=${2:-7}
arch=${3:-gfx90a}
other=${4:+$(realpath "$4")}
regscope=$(realpath "${REGSCOPE:-build/regscope}")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export XDG_CACHE_HOME=$scratch/cache

calc() { awk "BEGIN { print $1 }"; }  # arithmetic without bc
time_one() {  # prints "wall cpu" seconds for one run of "$@" (cpu: user + sys, children included) in a fresh scratch dir
  local dir wall user sys
  dir=$(mktemp -d "$scratch/run.XXXXXX")
  (cd "$dir" && /usr/bin/time -f '%e %U %S' -o "$scratch/time" "$@" >/dev/null 2>&1) || echo "bench-analyze: failed: $*" >&2
  read -r wall user sys <"$scratch/time"
  rm -rf "$dir"
  echo "$wall $(calc "$user + $sys")"
}

if [[ $arch == sm_* ]]; then  # NVIDIA: nvcc -c, and the device side alone with ptxas -v
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  cu=(-x cu -I "$PWD/kernels/common/cuda_shim")
  names=(nvcc_c device_cubin regscope)
  cmds=("$nvcc -arch=$arch ${cu[*]} -c $file -o out.o"
        "$nvcc -arch=$arch ${cu[*]} --cubin -Xptxas -v $file -o out.cubin"
        "$regscope analyze --no-cache --cuda-arch $arch $file -- ${cu[*]}")
  [ -n "$other" ] && names+=(other) && cmds+=("$other analyze --no-cache --cuda-arch $arch $file -- ${cu[*]}")
else
  names=(hipcc_c device_S regscope)
  cmds=("hipcc --offload-arch=$arch -c $file -o out.o"
        "hipcc --offload-arch=$arch --cuda-device-only -S $file -o out.s"
        "$regscope analyze --no-cache --offload-arch $arch $file")
  [ -n "$other" ] && names+=(other) && cmds+=("$other analyze --no-cache --offload-arch $arch $file")
fi
time_one ${cmds[0]} >/dev/null  # warm the page cache
for ((r = 0; r < runs; r++)); do
  for ((c = 0; c < ${#names[@]}; c++)); do
    time_one ${cmds[$c]} >>"$scratch/${names[$c]}"
  done
done

printf 'file            %s, %s\n' "${file#$PWD/}" "$arch"
printf 'load average    %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
# Wall time, then CPU time (user + sys of the command and its children): on a
# machine shared with other work, the CPU time is what the load distorts least.
for col in 1 2; do
  [ $col = 1 ] && echo "wall time" || echo "CPU time"
  bare=$(cut -d' ' -f$col "$scratch/${names[0]}" | median)
  floor=$(cut -d' ' -f$col "$scratch/${names[1]}" | median)
  for n in "${names[@]}"; do
    m=$(cut -d' ' -f$col "$scratch/$n" | median)
    printf '  %-15s %7.3f s  %5.2fx %s  %5.2fx %s  (median of %d)\n' "$n" "$m" \
      "$(calc "$m / $bare")" "${names[0]}" "$(calc "$m / $floor")" "${names[1]}" "$runs"
  done
done
printf 'load average    %s at the end\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
