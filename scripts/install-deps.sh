#!/usr/bin/env bash
# Installs what regscope needs on Debian 12 (bookworm). Idempotent: packages
# already present are left as they are. Runs apt-get as root, or through sudo.
set -euo pipefail

packages=(
  # build (bc: the benchmark scripts' arithmetic)
  build-essential cmake bc
  # the AMD toolchain regscope drives (ROCm 5.2.3, clang 15)
  hipcc libamdhip64-dev rocm-device-libs
  # libraries regscope links: LLVM/Clang 15 (Clang's CMake package is in clang-15)
  llvm-15-dev libclang-15-dev libclang-cpp15-dev clang-15
  # the static link of LLVM (REGSCOPE_STATIC_LLVM, the default): the libraries
  # LLVM's static targets name (zlib, terminfo, and z3, which --as-needed drops)
  zlib1g-dev libncurses-dev libz3-dev
  nlohmann-json3-dev libcli11-dev libgtest-dev
  # compressed NVIDIA fatbin entries: LZ4 (nvcc --compress-mode=speed, CUDA <= 12.8) and zstd;
  # compressed AMD offload bundles (CCOB): zstd and zlib (zlib1g-dev, above)
  liblz4-dev libzstd-dev
  # --format html: Mustache templates (header-only; escapes HTML by default)
  libkainjow-mustache-dev
  # the test suite drives the shipped pre-commit hook in a scratch git repository,
  # and checks clang 19 as an alternative compiler (newer AMD targets)
  git pre-commit clang-19
  # .ci/run fails on C++ that clang-format-15 would change (scripts/check-format.sh)
  clang-format-15
  # Intel's offline compiler ocloc (22.43, with IGC): the Intel backend; needs no Intel GPU
  intel-opencl-icd
)

if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1; then
  sudo=(sudo)
else
  echo "install-deps: needs root or sudo to run apt-get" >&2
  exit 2
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
"${sudo[@]}" apt-get update -q
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q "${missing[@]}"
