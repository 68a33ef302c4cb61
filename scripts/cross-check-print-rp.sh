#!/usr/bin/env bash
# Cross-checks the isa stage's per-line VGPR ranking against an independent
# route: LLVM 19's GCNRegPressurePrinter (`llc-19 -run-pass=amdgpu-print-rp`)
# on the same kernel's device bitcode, the recipe of
# ../shared/research/frontier.md §6:
#   hipcc --save-temps -gline-tables-only  -> k-hip-amdgcn-amd-amdhsa-gfx90a.bc
#   opt-19 -passes=name-anon-globals; opt-19 -O3; llvm-extract-19 --recursive --func=K
#   llc-19 -stop-after=machine-scheduler -> k.mir; llc-19 -run-pass=amdgpu-print-rp k.mir
# print-rp gives pre-allocation pressure per MachineInstr with its debug
# location. The MIR is taken after the machine scheduler: before it, the loads
# the scheduler later clusters sit next to their uses (wideload's kernels: 10
# VGPRs before, 69 after, 70 allocated); each instruction counts for the innermost frame of its inline
# chain in the kernel's own file, as the isa stage counts it. It is LLVM 19 codegen of LLVM 15's
# bitcode, before scheduling and allocation: an independent estimate, not the
# same numbers.
#
#   scripts/cross-check-print-rp.sh [ISA_DUMP]     (build: cmake --build build --target regscope-isa-dump)
#
# Per kernel: the peaks (isa stage on hipcc's final .s, print-rp, the
# compiler's VGPRs), Spearman's rank correlation of the per-line peaks over the
# lines both name, and how many of the isa stage's 5 hottest lines are among
# print-rp's 5 and 10 hottest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dump=${1:-$root/build/regscope-isa-dump}
bin=/usr/lib/llvm-19/bin
[ -x "$dump" ] || { echo "cross-check-print-rp: build regscope-isa-dump first ($dump)" >&2; exit 2; }
[ -x "$bin/llc" ] || { echo "cross-check-print-rp: llc-19 is not installed" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for src in lbm/lbm.hip lbm/lbm_nopow.hip lbm/lbm_rearrange.hip laplacian/laplacian.hip bitonic/bitonic.hip \
           unroll/ax.hip wideload/wideload.hip; do
  name=$(basename "$src" .hip)
  dir=$work/$name
  mkdir -p "$dir"
  cp "$root/kernels/$src" "$dir/"
  (cd "$dir" && hipcc --offload-arch=gfx90a -gline-tables-only --save-temps --cuda-device-only -c "$name.hip" \
      -o "$name.o" 2> /dev/null)
  bc=$dir/$name-hip-amdgcn-amd-amdhsa-gfx90a.bc
  asm=$dir/$name-hip-amdgcn-amd-amdhsa-gfx90a.s
  "$dump" "$asm" gfx90a --lines --no-estimate > "$dir/isa.tsv"
  "$bin/opt" -passes=name-anon-globals "$bc" -o "$dir/a.bc"
  "$bin/opt" -O3 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx90a "$dir/a.bc" -o "$dir/b.bc"
  # The kernels: each .amdhsa_kernel of the final assembly.
  awk '$1 == ".amdhsa_kernel" {print $2}' "$asm" | while read -r kernel; do
    "$bin/llvm-extract" --recursive --func="$kernel" "$dir/b.bc" -o "$dir/$kernel.bc"
    "$bin/llc" -mtriple=amdgcn-amd-amdhsa -mcpu=gfx90a -O3 "$dir/$kernel.bc" -stop-after=machine-scheduler \
        -o "$dir/$kernel.mir"
    "$bin/llc" -mtriple=amdgcn-amd-amdhsa -mcpu=gfx90a -run-pass=amdgpu-print-rp "$dir/$kernel.mir" \
        -o /dev/null 2> "$dir/$kernel.rp"
    vgprs=$(awk -v k="$kernel" '$1 == ".amdhsa_kernel" {on = ($2 == k)} on && $1 == ".amdhsa_next_free_vgpr" {print $2; exit}' "$asm")
    python3 - "$dir/isa.tsv" "$dir/$kernel.rp" "$kernel" "$vgprs" <<'EOF'
import re, sys
isa_path, rp_path, kernel, allocated = sys.argv[1:5]
ours = {}
for row in open(isa_path):
    f, path, line, v, a, s, n = row.rstrip("\n").split("\t")
    if f == kernel and path and int(line) > 0:
        key = (path.rsplit("/", 1)[-1], int(line))
        ours[key] = max(ours.get(key, 0), int(v))
theirs = {}
for row in open(rp_path):
    m = re.match(r"\s+(\d+)\s+(\d+)\s+\S.*;\s*(.*)$", row)
    if not m or "debug-location" not in row:
        continue
    frames = re.findall(r"([^\s@\[\]]+):(\d+):\d+", m.group(3))
    if not frames:
        continue
    own = frames[-1][0]  # the kernel's file: the outermost frame's
    path, line = next(f for f in frames if f[0] == own)
    key = (path.rsplit("/", 1)[-1], int(line))
    theirs[key] = max(theirs.get(key, 0), int(m.group(2)))
common = sorted(set(ours) & set(theirs))
def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    r = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r
def spearman(x, y):
    rx, ry = ranks(x), ranks(y)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    vx = sum((a - mx) ** 2 for a in rx) ** 0.5
    vy = sum((b - my) ** 2 for b in ry) ** 0.5
    return cov / (vx * vy) if vx and vy else float("nan")
rho = spearman([ours[k] for k in common], [theirs[k] for k in common]) if len(common) > 2 else float("nan")
top = lambda d, n: [k for k, _ in sorted(d.items(), key=lambda kv: (-kv[1], kv[0]))[:n]]
ours5 = top(ours, 5)
in5 = sum(1 for k in ours5 if k in top(theirs, 5))
in10 = sum(1 for k in ours5 if k in top(theirs, 10))
print(f"{kernel[:40]:40} allocated {allocated:>4}  isa peak {max(ours.values(), default=0):>4}  "
      f"print-rp peak {max(theirs.values(), default=0):>4}  lines {len(common):>3}  spearman {rho:5.2f}  "
      f"top5 in top5 {in5}/5  in top10 {in10}/5")
EOF
  done
done
