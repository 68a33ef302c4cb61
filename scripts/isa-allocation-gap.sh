#!/usr/bin/env bash
# The isa stage on code regscope did not write: compiles each source with
# hipcc 5.2.3 for gfx90a (-O3 -gline-tables-only -S, in a scratch directory),
# analyses the .s with regscope-isa-dump, and compares every kernel's peak
# live VGPRs with what the compiler allocated (the .s's "; NumVgprs:").
#
#   scripts/isa-allocation-gap.sh [ISA_DUMP] [PROJECTS_DIR]
#
# Prints one line per kernel (allocated, peak live, the gap, whether the .s
# had line information) and the distribution of allocated - peak; exits 1 if
# a peak exceeds its allocation or an analysis fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dump=${1:-$root/build/regscope-isa-dump}
projects=${2:-/work/projects}
[ -x "$dump" ] || { echo "isa-allocation-gap: build regscope-isa-dump first ($dump)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

sources=()
for f in "$root"/kernels/*/*.hip "$root"/fixtures/src/probe.hip; do sources+=("$f|"); done
if [ -d "$projects" ]; then
  add() { [ -f "$projects/$1" ] && sources+=("$projects/$1|$2") || true; }
  add BabelStream/src/hip/HIPStream.cpp "-std=c++20 -I $projects/BabelStream/src"
  for f in reduction/reduction.cpp rtm8/rtm8.cpp strided-access/benchmark-hip.cpp vectorAdd/vectoradd_hip.cpp \
           gpu-burn/BurnKernel.cpp; do
    add "HIP-Examples/$f" "-I $projects/HIP-Examples/$(dirname "$f") -I $projects/HIP-Examples/$(dirname "$f")/.."
  done
  for d in "$projects"/HIP-Examples/HIP-Examples-Applications/*/; do
    for f in "$d"*.cpp; do [ -f "$f" ] && add "${f#"$projects"/}" "-I $d"; done
  done
  for d in "$projects"/rocm-examples/HIP-Basic/*/; do
    [ -f "$d/main.hip" ] && add "${d#"$projects"/}main.hip" "-std=c++17 -I $projects/rocm-examples/Common"
  done
fi

: > "$work/rows.tsv"
failed=0
for c in "${sources[@]}"; do
  file=${c%%|*}
  read -r -a flags <<< "${c#*|}"
  out=$work/k.s
  if ! (cd "$work" && hipcc --offload-arch=gfx90a -O3 -gline-tables-only --cuda-device-only -S "${flags[@]}" \
          "$file" -o "$out" 2> /dev/null); then
    continue  # not a device-code file for this compiler (host-only, needs a build system)
  fi
  grep -q '^\s*\.amdhsa_kernel' "$out" || continue
  if ! "$dump" "$out" gfx90a --no-estimate > "$work/dump.txt" 2> "$work/err.txt"; then
    echo "FAILED: ${file#"$projects"/}: $(head -c 200 "$work/err.txt")"
    failed=$((failed + 1))
    continue
  fi
  python3 - "$out" "$work/dump.txt" "${file#"$root"/}" >> "$work/rows.tsv" <<'EOF'
import re, sys
asm, dump, label = sys.argv[1:4]
allocated, function = {}, None
for line in open(asm, errors="replace"):
    m = re.match(r"\s*\.type\s+([^,\s]+),@function", line)
    if m:
        function = m.group(1)
    m = re.match(r"; NumVgprs: (\d+)", line)
    if m and function:
        allocated.setdefault(function, int(m.group(1)))
kernels = set(re.findall(r"^\s*\.amdhsa_kernel\s+(\S+)", open(asm, errors="replace").read(), re.M))
lines_info = "no line information" not in open(dump).read()
for m in re.finditer(r"^== (\S+)(?: \(kernel\))?: (\d+) instructions, max live v(\d+)", open(dump).read(), re.M):
    name, live = m.group(1), int(m.group(3))
    if name in kernels and name in allocated:
        print(f"{label}\t{name}\t{allocated[name]}\t{live}\t{int(lines_info)}")
EOF
done

python3 - "$work/rows.tsv" <<'EOF'
import collections, sys
rows = [r.rstrip("\n").split("\t") for r in open(sys.argv[1]) if r.strip()]
gaps = collections.Counter()
over = 0
for label, name, alloc, live, lines in rows:
    gap = int(alloc) - int(live)
    gaps[gap] += 1
    over += gap < 0
    print(f"{label[:60]:60} {name[:40]:40} allocated {alloc:>4} live {live:>4} gap {gap:>3}{'' if lines == '1' else '  (no lines)'}")
print(f"{len(rows)} kernels in {len(set(r[0] for r in rows))} files; allocated - peak live VGPRs: " +
      " ".join(f"{g}:{n}" for g, n in sorted(gaps.items())))
if rows:
    ordered = sorted(int(r[2]) - int(r[3]) for r in rows)
    print(f"median gap {ordered[len(ordered) // 2]}, gap 0 on {gaps[0]}, at most 4 on {sum(n for g, n in gaps.items() if 0 <= g <= 4)}")
print(f"peaks above the allocation: {over}")
sys.exit(1 if over else 0)
EOF
[ "$failed" -eq 0 ]
