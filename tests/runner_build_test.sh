#!/usr/bin/env bash
# Builds the reference kernels' runner for AMD (gfx90a) with the installed
# hipcc, as a user without LLVM would (CMake only), and runs it: on a machine
# without a GPU it must say so and exit 3. Exit 77 (skipped) without hipcc.
set -euo pipefail
source_dir=$1
command -v hipcc >/dev/null || { echo "SKIP: hipcc is not installed"; exit 77; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cmake -S "$source_dir/kernels/runner" -B "$scratch/build" -DRUNNER_GPU=hip -DRUNNER_HIP_ARCH=gfx90a >"$scratch/log" 2>&1 ||
  { cat "$scratch/log"; echo "FAIL: configure"; exit 1; }
cmake --build "$scratch/build" -j 2 >>"$scratch/log" 2>&1 || { tail -30 "$scratch/log"; echo "FAIL: build"; exit 1; }
set +e
"$scratch/build/regscope-runner" >"$scratch/out" 2>"$scratch/err"
code=$?
set -e
if [ -e /dev/kfd ]; then echo "PASS: built for gfx90a (an AMD GPU is present: not run here)"; exit 0; fi
[ "$code" = 3 ] || { cat "$scratch/err"; echo "FAIL: expected exit 3 without a GPU, got $code"; exit 1; }
grep -q "no GPU found" "$scratch/err" || { cat "$scratch/err"; echo "FAIL: no 'no GPU found' message"; exit 1; }
echo "PASS: the runner builds for gfx90a and reports: $(cat "$scratch/err")"
