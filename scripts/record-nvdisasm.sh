#!/usr/bin/env bash
# Records real nvdisasm fixtures for the isa stage's NVIDIA join
# (joinNvdisasm, src/backends/nvidia/nvdisasm.cpp). Run on a machine with CUDA's full
# toolkit (nvcc and nvdisasm; no GPU is needed), from the repository root:
#
#   scripts/record-nvdisasm.sh [ARCH]          (default sm_90)
#
# Compiles the reference kernels (HIP syntax through kernels/common/cuda_shim,
# as the runner does) to cubins with -lineinfo, and writes, per source, what
# `nvdisasm -c` prints with -plr (graphical), -plr -lrm count, -g and -gi into
# fixtures/nvdisasm-<version>/, with a README.md naming the tool versions and
# the commands. Afterwards: git add fixtures/nvdisasm-<version> and extend
# tests/isa_test.cpp (IsaNvdisasm.*) to read them.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
arch=${1:-sm_90}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
nvdisasm=${NVDISASM:-$(command -v nvdisasm || echo "$(dirname "$nvcc")/nvdisasm")}
[ -x "$nvcc" ] || { echo "record-nvdisasm: nvcc not found (set NVCC)" >&2; exit 2; }
[ -x "$nvdisasm" ] || { echo "record-nvdisasm: nvdisasm not found (set NVDISASM): it ships with CUDA's full toolkit" >&2; exit 2; }
version=$("$nvdisasm" --version | sed -n 's/.*release \([0-9][0-9.]*\).*/\1/p' | head -1)
out=$root/fixtures/nvdisasm-${version:-unknown}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

sources=(lbm/lbm.hip lbm/lbm_nopow.hip bitonic/bitonic.hip laplacian/laplacian.hip wideload/wideload.hip unroll/ax.hip)
for src in "${sources[@]}"; do
  name=$(basename "$src" .hip)
  cp "$root/kernels/$src" "$work/$name.cu"
  # Paths in the line table are relative to the scratch directory, so the
  # fixtures do not name this machine's directories.
  (cd "$work" && "$nvcc" -O3 -arch="$arch" -cubin -lineinfo -I "$root/kernels/common/cuda_shim" "$name.cu" \
      -o "$name.cubin")
  # -plr and the line options cannot be combined in one run: four runs.
  # One function at a time would need --function-index; the whole cubin is
  # kept, as the join reads every .text.<function> section.
  (cd "$work" && "$nvdisasm" -c -plr "$name.cubin" > "$out/$name-$arch.plr.txt")
  (cd "$work" && "$nvdisasm" -c -plr -lrm count "$name.cubin" > "$out/$name-$arch.plr-count.txt")
  (cd "$work" && "$nvdisasm" -c -g "$name.cubin" > "$out/$name-$arch.g.txt")
  (cd "$work" && "$nvdisasm" -c -gi "$name.cubin" > "$out/$name-$arch.gi.txt")
done

{
  echo "# nvdisasm ${version:-unknown} on the reference kernels (recorded)"
  echo
  echo "Written by \`scripts/record-nvdisasm.sh $arch\` on $(uname -n), $(date -u +%Y-%m-%d)."
  echo
  echo '```'
  "$nvcc" --version | tail -2
  "$nvdisasm" --version | tail -2
  echo '```'
  echo
  echo "Per source \`S\` of kernels/ (${sources[*]}), compiled as"
  echo "\`nvcc -O3 -arch=$arch -cubin -lineinfo -I kernels/common/cuda_shim S.cu -o S.cubin\`:"
  echo
  echo '| file | command |'
  echo '|---|---|'
  echo "| \`S-$arch.plr.txt\` | \`nvdisasm -c -plr S.cubin\` |"
  echo "| \`S-$arch.plr-count.txt\` | \`nvdisasm -c -plr -lrm count S.cubin\` |"
  echo "| \`S-$arch.g.txt\` | \`nvdisasm -c -g S.cubin\` |"
  echo "| \`S-$arch.gi.txt\` | \`nvdisasm -c -gi S.cubin\` |"
} > "$out/README.md"
echo "recorded under $out"
