#!/usr/bin/env bash
# Installs the Debian packages, then configures and builds regscope and its
# tests in ./build. With --tests, also installs the tools only the test suite
# uses. Safe to run again: each step does only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)"
if [ "${1:-}" = "--tests" ]; then
  bash scripts/install-test-tools.sh
fi
