#!/usr/bin/env bash
# Installs the Debian packages, then configures and builds regscope in ./build.
# With --tests, also builds the tests and installs the tools only the test
# suite uses. Safe to run again: each step does only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
if [ "${1:-}" = "--tests" ]; then
  cmake --build build -j "$(nproc)"
  bash scripts/install-test-tools.sh
else
  cmake --build build -j "$(nproc)" --target regscope  # the test binary is most of a fresh build
fi
