#!/usr/bin/env bash
# Proves that adding -gline-tables-only to regscope's analysis compile leaves
# every figure unchanged: VGPRs, AGPRs, the VGPR allocation, SGPRs, scratch,
# VGPR and SGPR spills, LDS and the occupancy (regscope's and the compiler's
# printed one), per kernel and arch.
#
#   scripts/check-line-tables.sh [REGSCOPE] [PROJECTS_DIR]
#
# Runs `regscope analyze --no-cache --format json` twice per source, without
# and with `-- -gline-tables-only`, over kernels/, fixtures/src/probe.hip and,
# when PROJECTS_DIR (default /work/projects) holds them, a sample of real
# projects (BabelStream, HIP-Examples, rocm-examples). Compilers: hipcc 5.2.3
# for gfx90a and gfx908, clang 19 at -O3 for gfx90a. Prints one line per
# source and compiler, and exits 1 if any figure differs or a run fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
regscope=${1:-$root/build/regscope}
projects=${2:-/work/projects}
clang19=/usr/lib/llvm-19/bin/clang++
[ -x "$regscope" ] || { echo "check-line-tables: build regscope first ($regscope)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# file|extra compiler flags (paths relative to the file's directory allowed via @DIR@)
cases=()
for f in "$root"/kernels/*/*.hip "$root"/fixtures/src/probe.hip; do cases+=("$f|"); done
if [ -d "$projects" ]; then
  add() { [ -f "$projects/$1" ] && cases+=("$projects/$1|$2") || true; }
  # BabelStream's benchmark.h uses designated initialisers: C++20.
  add BabelStream/src/hip/HIPStream.cpp "-std=c++20 -I $projects/BabelStream/src -I $projects/BabelStream/src/hip"
  for f in reduction/reduction.cpp rtm8/rtm8.cpp strided-access/benchmark-hip.cpp vectorAdd/vectoradd_hip.cpp \
           gpu-burn/BurnKernel.cpp \
           HIP-Examples-Applications/BitonicSort/BitonicSort.cpp HIP-Examples-Applications/dct/dct.cpp \
           HIP-Examples-Applications/Histogram/Histogram.cpp \
           HIP-Examples-Applications/MatrixMultiplication/MatrixMultiplication.cpp \
           HIP-Examples-Applications/FloydWarshall/FloydWarshall.cpp \
           HIP-Examples-Applications/RecursiveGaussian/RecursiveGaussian.cpp \
           HIP-Examples-Applications/SimpleConvolution/SimpleConvolution.cpp \
           HIP-Examples-Applications/BinomialOption/BinomialOption.cpp \
           HIP-Examples-Applications/FastWalshTransform/FastWalshTransform.cpp \
           HIP-Examples-Applications/PrefixSum/PrefixSum.cpp HIP-Examples-Applications/dwtHaar1D/dwtHaar1D.cpp; do
    add "HIP-Examples/$f" "-I $projects/HIP-Examples/$(dirname "$f") -I $projects/HIP-Examples/$(dirname "$f")/.. \
        -I $projects/HIP-Examples/common"
  done
  for f in saxpy matrix_multiplication shared_memory warp_shuffle moving_average dynamic_shared bit_extract; do
    add "rocm-examples/HIP-Basic/$f/main.hip" "-std=c++17 -I $projects/rocm-examples/Common"
  done
fi

compare() {  # without.json with.json label -> prints a line, returns 1 on a difference
  python3 - "$1" "$2" "$3" <<'EOF'
import json, sys
fields = ["vgprs", "agprs", "vgprs_total", "sgprs", "scratch_bytes", "vgpr_spills", "sgpr_spills", "lds_bytes"]
def figures(path):
    out = {}
    for k in json.load(open(path))["kernels"]:
        occ = k.get("occupancy") or {}
        out[(k["name"], k["arch"])] = [k.get(f) for f in fields] + [occ.get("waves_per_simd"), occ.get("compiler_reported")]
    return out
a, b, label = figures(sys.argv[1]), figures(sys.argv[2]), sys.argv[3]
names = fields + ["occupancy", "compiler_occupancy"]
diffs = []
for key in sorted(set(a) | set(b)):
    if key not in a or key not in b:
        diffs.append(f"{key[0]} [{key[1]}] only in one run")
        continue
    for n, x, y in zip(names, a[key], b[key]):
        if x != y:
            diffs.append(f"{key[0]} [{key[1]}] {n}: {x} -> {y}")
print(f"{label}: {len(a)} kernel/arch pairs, " + ("identical" if not diffs else f"{len(diffs)} DIFFERENCES"))
for d in diffs:
    print("    " + d)
print(f"COUNT {len(a)} {len(diffs)}", file=sys.stderr)
sys.exit(1 if diffs else 0)
EOF
}

total=0
differing=0
failed=0
run() {  # label file flags compiler-args...
  local label=$1 file=$2 flags=$3
  shift 3
  local base=$work/run
  read -r -a extra <<< "$flags"
  if ! (cd "$(dirname "$file")" && "$regscope" analyze "$file" --no-cache --format json "$@" -- "${extra[@]}" \
          > "$base.plain.json" 2> "$base.err"); then
    echo "$label: regscope failed without line tables: $(head -c 200 "$base.err" | tr '\n' ' ')"
    failed=$((failed + 1))
    return
  fi
  if ! (cd "$(dirname "$file")" && "$regscope" analyze "$file" --no-cache --format json "$@" -- "${extra[@]}" \
          -gline-tables-only > "$base.lines.json" 2> "$base.err"); then
    echo "$label: regscope failed with line tables: $(head -c 200 "$base.err" | tr '\n' ' ')"
    failed=$((failed + 1))
    return
  fi
  if ! compare "$base.plain.json" "$base.lines.json" "$label" 2> "$base.count"; then differing=$((differing + 1)); fi
  read -r _ n _ < "$base.count"
  total=$((total + n))
}

for c in "${cases[@]}"; do
  file=${c%%|*}
  flags=${c#*|}
  rel=${file#"$root"/}
  rel=${rel#"$projects"/}
  run "hipcc 5.2.3 $rel" "$file" "$flags" --offload-arch=gfx90a,gfx908
  if [ -x "$clang19" ]; then run "clang 19    $rel" "$file" "-O3 $flags" --compiler "$clang19" --offload-arch=gfx90a; fi
done
echo "total: $total kernel/arch pairs; sources with a difference: $differing; runs that failed: $failed"
[ "$differing" -eq 0 ] && [ "$failed" -eq 0 ]
