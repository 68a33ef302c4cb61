#!/usr/bin/env bash
# Speed of the isa stage on a large device assembly: generates a HIP file whose
# gfx90a .s (hipcc 5.2.3, -O3, -gline-tables-only) has at least 10,000 lines,
# then times the whole analysis (MC parse, the in-memory assembly for the
# inline tree, liveness, lines, mix and MCA per block) with regscope-isa-dump.
#
#   scripts/bench-isa.sh [RUNS] [ISA_DUMP]
#
# Prints the .s size, the median time of the analysis (inside the process, and
# for the whole program with its start-up), the time per 1,000 lines, and the
# ratio to the hipcc compile that wrote the .s.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-5}
dump=${2:-$root/build/regscope-isa-dump}
[ -x "$dump" ] || { echo "bench-isa: build regscope-isa-dump first ($dump)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Two kernels of 240 dependent FMAs over loads, with a data-dependent branch
# every 40 statements: straight-line blocks, branches and high pressure.
{
  echo '#include <hip/hip_runtime.h>'
  for k in 0 1; do
    echo "__global__ void big$k(const double *in, double *out, int n) {"
    echo '  int i = blockIdx.x * blockDim.x + threadIdx.x;'
    for v in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do echo "  double x$v = in[i + $v * n];"; done
    for s in $(seq 0 239); do
      echo "  x$((s % 16)) = fma(x$(((s + 5) % 16)), in[i + $((s + 16)) * n], x$(((s + 11) % 16)));"
      if [ $((s % 40)) -eq 39 ]; then echo "  if (x$((s % 16)) > $s.0) x$(((s + 1) % 16)) += 1.0;"; fi
    done
    echo -n '  out[i] = x0'
    for v in $(seq 1 15); do echo -n " + x$v"; done
    echo ';'
    echo '}'
  done
} > "$work/big.hip"

cd "$work"
start=$(date +%s.%N)
hipcc --offload-arch=gfx90a -O3 -gline-tables-only --cuda-device-only -S big.hip -o big.s 2> /dev/null
compile=$(echo "$(date +%s.%N) - $start" | bc -l)
lines=$(wc -l < big.s)
[ "$lines" -ge 10000 ] || { echo "bench-isa: the generated .s has only $lines lines" >&2; exit 1; }
instructions=$("$dump" big.s gfx90a | awk '/^==/ {n += $(NF - 6)} END {print n}')

times=()
inside=()
for _ in $(seq "$runs"); do
  start=$(date +%s.%N)
  "$dump" big.s gfx90a --time > /dev/null 2> time.txt
  times+=("$(echo "$(date +%s.%N) - $start" | bc -l)")
  inside+=("$(awk '/^analysis:/ {print $2 / 1000}' time.txt)")
done
median=$(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
median_inside=$(printf '%s\n' "${inside[@]}" | sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
printf '.s: %d lines, %d instructions in 2 kernels\n' "$lines" "$instructions"
printf 'analysis (median of %d): %.3f s in process (analyzeAmdgpuAssembly), %.3f s for the whole program\n' \
  "$runs" "$median_inside" "$median"
printf '  %.1f ms per 1,000 lines in process; the rest is loading libLLVM-15 and starting up\n' \
  "$(echo "$median_inside * 1000000 / $lines" | bc -l)"
printf 'hipcc -S of the same file: %.3f s; whole analysis / compile = %.3f\n' "$compile" "$(echo "$median / $compile" | bc -l)"
