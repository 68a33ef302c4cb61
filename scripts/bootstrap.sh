#!/usr/bin/env bash
# Installs the Debian packages, then configures and builds regscope and its
# tests in ./build. Safe to run again: each step does only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)"
