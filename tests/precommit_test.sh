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
