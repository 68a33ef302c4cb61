#!/usr/bin/env bash
# Configures and builds the fuzz targets (tests/fuzz) in ./build-fuzz: every
# library with ASan, UBSan and libFuzzer's coverage, compiled by clang-15.
# libFuzzer itself (libclang_rt.fuzzer) comes with Debian's clang-15, which
# scripts/install-deps.sh installs (package libclang-common-15-dev).
# Safe to run again. Then: scripts/fuzz.sh --seconds N, or ctest's Fuzz.ShortPass.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! ls /usr/lib/llvm-15/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  echo "build-fuzz: libFuzzer for clang-15 is missing (apt-get install clang-15 libclang-common-15-dev)" >&2
  exit 2
fi
# The shared LLVM libraries, as before issue 14: start-up time does not matter
# here, and eleven static instrumented targets would each carry LLVM.
cmake -S . -B build-fuzz -DREGSCOPE_FUZZ=ON -DREGSCOPE_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DREGSCOPE_STATIC_LLVM=OFF -DCMAKE_C_COMPILER=clang-15 -DCMAKE_CXX_COMPILER=clang++-15 >/dev/null
cmake --build build-fuzz -j "$(nproc)" --target fuzz_targets
