#!/usr/bin/env bash
# End-to-end test of the shipped pre-commit hook: a scratch git repository uses
# .pre-commit-hooks.yaml from this checkout, commits the LBM kernel, then tries
# to commit a change that makes it spill, and must see that commit refused.
# Exit 77 (ctest: skipped) when pre-commit, git or hipcc is missing.
set -euo pipefail
source_dir=$1
regscope=$2
for tool in pre-commit git hipcc; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed"; exit 77; }
done

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# Every tool's temporary files (hipcc's, the validator's) stay in the scratch: nothing left in /tmp.
mkdir -p "$scratch/tmp"
export TMPDIR=$scratch/tmp
export PRE_COMMIT_HOME=$scratch/cache HOME=$scratch/home PATH=$(dirname "$regscope"):$PATH
mkdir -p "$HOME"
git config --global user.email test@example.com
git config --global user.name test
git config --global init.defaultBranch main
git config --global protocol.file.allow always

# The hook repository: this checkout's .pre-commit-hooks.yaml, committed so
# pre-commit can clone it at a revision (the working tree may be dirty).
hooks=$scratch/hooks
mkdir -p "$hooks"
cp "$source_dir/.pre-commit-hooks.yaml" "$hooks/"
git -C "$hooks" init -q
git -C "$hooks" add .pre-commit-hooks.yaml
git -C "$hooks" commit -qm hooks
rev=$(git -C "$hooks" rev-parse HEAD)

repo=$scratch/project
mkdir -p "$repo"
cd "$repo"
git init -q
cat > .pre-commit-config.yaml <<YAML
repos:
  - repo: $hooks
    rev: $rev
    hooks:
      - id: regscope-gate
        args: [--max-spills, "0"]
YAML
pre-commit install >/dev/null
cp "$source_dir/kernels/lbm/lbm.hip" lbm.hip
git add .pre-commit-config.yaml lbm.hip
git commit -qm "LBM kernel" || { echo "FAIL: the clean kernel was refused"; exit 1; }

# __launch_bounds__(256, 8) asks for 8 waves/SIMD: 64 VGPRs, so the kernel spills.
sed -i 's/^__global__ void kernel(/__global__ void __launch_bounds__(256, 8) kernel(/' lbm.hip
git add lbm.hip
if git commit -qm "squeeze the kernel" >"$scratch/out" 2>&1; then
  cat "$scratch/out"
  echo "FAIL: the commit that adds spills went through"
  exit 1
fi
grep -q "max-spills" "$scratch/out" || { cat "$scratch/out"; echo "FAIL: refusal does not name the rule"; exit 1; }
[ "$(git rev-list --count HEAD)" = 1 ] || { echo "FAIL: a commit was recorded"; exit 1; }
echo "PASS: the commit that adds spills was refused:"
grep "max-spills" "$scratch/out"

# A header-only change (issue 22 item 6): with a baseline, the hook passes the
# staged header and the gate judges it through the sources that include it. A
# private array indexed at run time in the header adds scratch to the kernel of
# src/uses.hip; the commit must be refused, naming the rule and the source.
repo2=$scratch/project-header
mkdir -p "$repo2/include" "$repo2/src"
cd "$repo2"
git init -q
cat > .pre-commit-config.yaml <<YAML
repos:
  - repo: $hooks
    rev: $rev
    hooks:
      - id: regscope-gate
        args: [--baseline, regscope-baseline.json]
YAML
pre-commit install >/dev/null
printf '__device__ inline float pick(const float *a, int i) { return a[i] * 2.0f; }\n' > include/kern.h
printf '#include <hip/hip_runtime.h>\n#include "../include/kern.h"\n__global__ void uses(float *a, int i) { a[threadIdx.x] = pick(a, i); }\n' > src/uses.hip
regscope baseline src/uses.hip -o regscope-baseline.json 2>/dev/null
grep -q '"include/kern.h"' regscope-baseline.json || { cat regscope-baseline.json; echo "FAIL: the baseline records no dependency on the header"; exit 1; }
git add .pre-commit-config.yaml include/kern.h src/uses.hip regscope-baseline.json
git commit -qm "kernel and baseline" || { echo "FAIL: the clean kernel was refused"; exit 1; }
cat > include/kern.h <<'H'
__device__ inline float pick(const float *a, int i) {
  float t[64];
  for (int k = 0; k < 64; ++k) t[k] = a[k * i];
  return t[i & 63];
}
H
git add include/kern.h
if git commit -qm "header-only change" >"$scratch/out2" 2>&1; then
  cat "$scratch/out2"
  echo "FAIL: the header-only change that adds scratch went through"
  exit 1
fi
grep -q "scratch-regression" "$scratch/out2" || { cat "$scratch/out2"; echo "FAIL: refusal does not name the rule"; exit 1; }
grep -q "gated through the 1 source that includes it: src/uses.hip" "$scratch/out2" ||
  { cat "$scratch/out2"; echo "FAIL: the refusal does not say which source judged the header"; exit 1; }
[ "$(git rev-list --count HEAD)" = 1 ] || { echo "FAIL: a commit was recorded"; exit 1; }
echo "PASS: the header-only change that adds scratch was refused:"
grep "scratch-regression" "$scratch/out2"
