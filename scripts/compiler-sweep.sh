#!/usr/bin/env bash
# The full compiler sweep (not part of the test suite; the suite runs a fast
# subset): generated kernels over VGPRs 1..256, LDS and workgroup sizes, and
# AGPR and SGPR cases, compiled with hipcc (LLVM 15) and clang 19 for every arch
# each knows, in wave32 and wave64. regscope's model of each compiler must
# reproduce every printed occupancy. The result belongs in docs/compiler-sweep.md.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/tests/regscope_tests ] || { echo "build first: scripts/bootstrap.sh" >&2; exit 2; }
REGSCOPE_FULL_SWEEP=1 build/tests/regscope_tests --gtest_filter='CompilerSweep.*' 2>&1 | grep -E "sweep:|mismatch|OK|FAILED"
