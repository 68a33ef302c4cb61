# Shared helpers for the user-scenario tests (sourced, not run). See README.md in this folder.
#   bash tests/scenarios/<script>.sh SOURCE_DIR REGSCOPE_BINARY [EXTRA]
# Each scenario: . lib.sh; need TOOLS...; scratch; ...; pass ID WHAT | fail ID SEEN | skip ID WHY
# Exit status: 1 on any FAIL or when no check ran; else 77 (ctest: skipped) when a check was skipped
# (`skip`) or a tool the scenario needs is missing (`need`); 0 only when every check ran and passed.
# A skipped check is never counted as a pass: the scenario's last lines name each one with its reason
# ("SKIPPED <id>: <why>"), which .ci/run's summary (scripts/ci-skips.py) reads.
SRC=${1:-$REGSCOPE_SRC}
R=${2:-$REGSCOPE}
EXTRA=${3:-}
if [ ! -d "$SRC" ] || [ ! -x "$R" ]; then
  echo "usage: bash $(basename "$0") SOURCE_DIR REGSCOPE_BINARY [EXTRA]" >&2; exit 2
fi
SRC=$(cd "$SRC" && pwd)
case "$R" in /*) ;; *) R=$(cd "$(dirname "$R")" && pwd)/$(basename "$R") ;; esac
SCN=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)   # this folder (helpers such as craft_elf.py)
LLVM19=/usr/lib/llvm-19/bin/clang++
NVCC=$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)

# need TOOL...: exit 77 (skipped) naming the first missing tool (a name on PATH or an absolute path).
need() {
  local t
  for t in "$@"; do
    command -v "$t" > /dev/null 2>&1 || [ -x "$t" ] ||
      { echo "SKIP: $t is not installed (the $(basename "$0" .sh) scenarios need: $*)"; exit 77; }
  done
}
have() { command -v "$1" > /dev/null 2>&1 || [ -x "$1" ]; }

# Results also go to files in the scratch, so that checks run in sub-shells count too.
pass() { local id=$1; shift; echo "PASS $id $*"; echo "$id" >> "$RS_SCRATCH/.passed"; }
fail() { local id=$1; shift; echo "FAIL $id $*" | tr '\n' ' ' | sed 's/ *$//'; echo; echo "$id" >> "$RS_SCRATCH/.failed"; }
skip() { local id=$1; shift; echo "SKIP $id $*"; echo "$id: $*" >> "$RS_SCRATCH/.skipped"; }

# scratch: a private directory (S) with its own result cache, removed on exit; cwd = S. regscope runs
# (rs, rst) get TMPDIR=$S/.tmp, which must be empty at the end; everything else (hipcc, cmake, ...) uses
# $S/.tmp-tools (clang itself leaves files in TMPDIR, which is no concern of regscope's).
scratch() {
  S=$(mktemp -d "${TMPDIR:-/tmp}/regscope-scenario.XXXXXX")
  mkdir -p "$S/.cache" "$S/.tmp" "$S/.tmp-tools"
  export XDG_CACHE_HOME=$S/.cache TMPDIR=$S/.tmp-tools RS_TMP=$S/.tmp
  RS_SCRATCH=$S   # what the trap removes, whatever a script later does with $S
  trap finish EXIT
  cd "$S"
}
# Nothing may be left in TMPDIR after any run (README's promise): one extra FAIL line if something was.
leftover_check() {
  local left; left=$(ls -A "$RS_TMP" 2>/dev/null | head -5 | tr '\n' ' ')
  [ -z "$left" ] || fail "$(basename "$0" .sh).tmp" "regscope runs left in their TMPDIR: $left"
}
finish() {
  leftover_check
  local p=0 f=0 s=0 skipped=""
  [ -f "$RS_SCRATCH/.passed" ] && p=$(wc -l < "$RS_SCRATCH/.passed")
  [ -f "$RS_SCRATCH/.failed" ] && f=$(wc -l < "$RS_SCRATCH/.failed")
  [ -f "$RS_SCRATCH/.skipped" ] && { s=$(wc -l < "$RS_SCRATCH/.skipped"); skipped=$(cat "$RS_SCRATCH/.skipped"); }
  cd /; rm -rf "$RS_SCRATCH"
  echo "$(basename "$0" .sh): $p passed, $f failed, $s skipped"
  [ "$f" = 0 ] && [ "$((p + f + s))" != 0 ] || exit 1
  if [ "$s" != 0 ]; then
    printf '%s\n' "$skipped" | sed 's/^/SKIPPED /'
    exit 77  # ctest: skipped, not passed
  fi
  exit 0
}

# rs OUTPREFIX ARGS...: run regscope; stdout, stderr and the exit code land in OUTPREFIX.{out,err,rc}.
rs() {
  local p=$1; shift
  TMPDIR=$RS_TMP "$R" "$@" > "$p.out" 2> "$p.err"
  echo $? > "$p.rc"
}
rc() { cat "$1.rc"; }
# unwrap FILE: the text with each wrapped note joined (continuation lines are indented four spaces)
unwrap() { python3 -c "import re,sys; print(re.sub(r'\n    (?=\S)', ' ', open(sys.argv[1]).read()), end='')" "$1"; }
first_err() { head -1 "$1.err" | cut -c1-160; }
# one-line summary of what a run printed, for FAIL lines
seen() { echo "rc=$(rc "$1") err: $(grep -v '^\s*$' "$1.err" | head -2 | cut -c1-140 | tr '\n' '|')"; }
# jq-less JSON helper (python3 is on Debian 12): jget FILE PYTHON-EXPRESSION-OVER-d
jget() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
# crashed PREFIX: did the run die of a signal or hang (rc >= 124 from timeout, or >= 128)?
crashed() { local c; c=$(rc "$1"); [ "$c" -ge 124 ]; }
# clean_error PREFIX: exit 2 and the first stderr line is a regscope error, not an internal one
clean_error() { [ "$(rc "$1")" = 2 ] && head -1 "$1.err" | grep -q '^regscope: error:' && ! grep -qi 'internal error' "$1.err"; }
# rst PREFIX SECONDS ARGS...: rs under a time limit (exit 137 when killed)
rst() { local p=$1 t=$2; shift 2; TMPDIR=$RS_TMP timeout -s KILL "$t" "$R" "$@" > "$p.out" 2> "$p.err"; echo $? > "$p.rc"; }

# ---- Sources: this repository's kernels, or small ones written here (no third-party code). ----

# lbm_src: the seed's LBM kernel ("Register pressure in AMD CDNA2 GPUs"): 0 spills on gfx90a at -O3.
lbm_src() { cat "$SRC/kernels/lbm/lbm.hip"; }
# small_src: a one-line kernel, for checks where what is compiled does not matter, only that it is.
small_src() { printf '#include <hip/hip_runtime.h>\n__global__ void scale_kernel(float *p) { p[threadIdx.x] *= 2.0f; }\n'; }
# add_spills FILE: the change that makes LBM spill on gfx90a (8 waves/SIMD asked for: at most 64 VGPRs).
add_spills() {
  sed -i 's/^__global__ void kernel *(/__global__ void __launch_bounds__(256, 8) kernel(/' "$1"
  grep -q '__launch_bounds__(256, 8)' "$1"
}

# stream_project DEST: a two-file "stream" benchmark laid out like BabelStream's HIP model:
# DEST/src/Stream.h and DEST/src/hip/HIPStream.cpp, which includes "Stream.h" (so it compiles only with an
# include path to src/). 7 kernel templates x {float, double} = 14 healthy kernels (no spills, no scratch).
STREAM_FLAGS=(-std=c++17 -DSTREAM_MODEL_HIP)
stream_project() {
  mkdir -p "$1/src/hip"
  cat > "$1/src/Stream.h" <<'H'
// Shared by every model of the stream benchmark (written for regscope's scenario tests).
#pragma once
#define TBSIZE 1024
#define DOT_NUM_BLOCKS 256
#define STREAM_SCALAR 0.4
H
  cat > "$1/src/hip/HIPStream.cpp" <<'K'
// The HIP model of the stream benchmark: one kernel per operation, for float and double.
#include <hip/hip_runtime.h>
#include "Stream.h"
#ifndef STREAM_MODEL_HIP
#error "compile with -DSTREAM_MODEL_HIP"
#endif

template <typename T> __global__ void init_kernel(T *a, T *b, T *c, T ia, T ib, T ic) {
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  a[i] = ia; b[i] = ib; c[i] = ic;
}
template <typename T> __global__ void copy_kernel(const T *a, T *c) {
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  c[i] = a[i];
}
template <typename T> __global__ void mul_kernel(T *b, const T *c) {
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  b[i] = (T)STREAM_SCALAR * c[i];
}
template <typename T> __global__ void add_kernel(const T *a, const T *b, T *c) {
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  c[i] = a[i] + b[i];
}
template <typename T> __global__ void triad_kernel(T *a, const T *b, const T *c) {
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  a[i] = b[i] + (T)STREAM_SCALAR * c[i];
}
template <typename T> __global__ void nstream_kernel(T *a, const T *b, const T *c) {
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  a[i] += b[i] + (T)STREAM_SCALAR * c[i];
}
template <typename T> __global__ void dot_kernel(const T *a, const T *b, T *sum, int n) {
  __shared__ T tb_sum[TBSIZE];
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  const size_t local_i = threadIdx.x;
  tb_sum[local_i] = 0.0;
  for (; i < n; i += blockDim.x * gridDim.x) tb_sum[local_i] += a[i] * b[i];
  for (int offset = blockDim.x / 2; offset > 0; offset /= 2) {
    __syncthreads();
    if (local_i < offset) tb_sum[local_i] += tb_sum[local_i + offset];
  }
  if (local_i == 0) sum[blockIdx.x] = tb_sum[local_i];
}

#define STREAM_INSTANTIATE(T)                                                                  \
  template __global__ void init_kernel<T>(T *, T *, T *, T, T, T);                             \
  template __global__ void copy_kernel<T>(const T *, T *);                                     \
  template __global__ void mul_kernel<T>(T *, const T *);                                      \
  template __global__ void add_kernel<T>(const T *, const T *, T *);                           \
  template __global__ void triad_kernel<T>(T *, const T *, const T *);                         \
  template __global__ void nstream_kernel<T>(T *, const T *, const T *);                       \
  template __global__ void dot_kernel<T>(const T *, const T *, T *, int);
STREAM_INSTANTIATE(float)
STREAM_INSTANTIATE(double)
K
}

# matmul_project DEST: a tiled matrix multiplication laid out like a user's project with an include/
# folder: DEST/include/matmul.hpp (the block size and a helper) and DEST/src/matmul.hip, whose host code
# launches the kernel with dim3(block_size, block_size). Compiles with -I DEST/include.
matmul_header() {
  cat <<'H'
// Tile size and the multiply-add the kernel uses (written for regscope's scenario tests).
#pragma once
constexpr unsigned int block_size = 16;
template <typename T> __device__ inline T mm_fma(T a, T b, T acc) { return a * b + acc; }
H
}
matmul_src() {
  cat <<'K'
// Tiled matrix multiplication C = A * B, one BlockSize x BlockSize tile per workgroup.
#include <hip/hip_runtime.h>
#include "matmul.hpp"

template <unsigned int BlockSize>
__global__ void matrix_multiplication_kernel(const float *A, const float *B, float *C, unsigned int a_cols) {
  const unsigned int tx = threadIdx.x, ty = threadIdx.y, bx = blockIdx.x, by = blockIdx.y;
  const unsigned int b_cols = BlockSize * gridDim.x;
  const unsigned int steps = a_cols / BlockSize;
  float thread_result = 0.0F;
  for (unsigned int step = 0; step < steps; step++) {
    __shared__ float a_values[BlockSize][BlockSize];
    __shared__ float b_values[BlockSize][BlockSize];
    const unsigned int a_idx = BlockSize * (a_cols * by + step);
    const unsigned int b_idx = BlockSize * (b_cols * step + bx);
    a_values[ty][tx] = A[a_idx + a_cols * ty + tx];
    b_values[ty][tx] = B[b_idx + b_cols * ty + tx];
    __syncthreads();
    for (unsigned int i = 0; i < BlockSize; ++i) thread_result = mm_fma(a_values[ty][i], b_values[i][tx], thread_result);
    __syncthreads();
  }
  C[b_cols * BlockSize * by + BlockSize * bx + b_cols * ty + tx] = thread_result;
}

void multiply(const float *A, const float *B, float *C, unsigned int a_rows, unsigned int a_cols,
              unsigned int b_cols) {
  const dim3 block_dim(block_size, block_size);
  const dim3 grid_dim(b_cols / block_size, a_rows / block_size);
  matrix_multiplication_kernel<block_size><<<grid_dim, block_dim, 0, hipStreamDefault>>>(A, B, C, a_cols);
}
K
}

# yax_src VARIANT: a y^T A x kernel shaped like the rocprof-compute training exercises, with a host
# main() that launches it. VARIANT: bounds (__launch_bounds__(256), launched with dim3(64,1,1)),
# runtime (no bounds, block size computed at run time), lds (64 KiB of LDS, launched with dim3(64,1,1)).
yax_src() {
  local bounds="" lds="" block="dim3 block = dim3(64,1,1);" launch="yax<<<grid,block>>>"
  case $1 in
    bounds) bounds="__launch_bounds__(256) " ;;
    runtime) block="dim3 block = block_runtime(argc);" ;;
    lds) lds=1 ;;
  esac
  echo '#include <hip/hip_runtime.h>'
  [ "$1" = runtime ] && echo 'static dim3 block_runtime(int n) { return dim3(n * 64); }'
  [ -n "$lds" ] && echo 'constexpr size_t fully_allocate_lds = 64ul * 1024ul / sizeof(double);'
  cat <<K
__global__ ${bounds}void yax(double *y, double *A, double *x, int n, int m, double *result) {
K
  if [ -n "$lds" ]; then cat <<'K'
  __shared__ double tmp[fully_allocate_lds];
  for (int i = threadIdx.x; i < fully_allocate_lds; i += blockDim.x) tmp[i] = x[i];
  __syncthreads();
K
  fi
  cat <<K
  double res = 0.0;
  for (int i = blockDim.x * blockIdx.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    double temp = 0.0;
    for (int j = 0; j < m; j++) temp += A[i * n + j] * $( [ -n "$lds" ] && echo '(j < fully_allocate_lds ? tmp[j] : x[j])' || echo 'x[j]');
    res += y[i] * temp;
  }
  atomicAdd(&result[0], res);
}
int main(int argc, char **argv) {
  dim3 grid = dim3(2048,1,1);
  $block
  int n = 2 << 14, m = 2 << 14;
  double *y, *x, *A, *result;
  hipMalloc(&y, n * sizeof(double)); hipMalloc(&x, m * sizeof(double));
  hipMalloc(&A, n * m * sizeof(double)); hipMalloc(&result, sizeof(double));
  $launch(y, A, x, n, m, result);
  hipDeviceSynchronize();
  return 0;
}
K
}

# make_repo DIR: a git repository laid out like a user's project:
#   src/a/k1.hip   the LBM kernel        src/b/k2.hip   the matrix multiplication (includes "matmul.hpp")
#   include/matmul.hpp
# REPO_FLAGS: -std=c++17 and an absolute -I for include/, so that these scenarios do not depend on
# relative include paths, which relative-include-paths.sh tests.
make_repo() {
  mkdir -p "$1/src/a" "$1/src/b" "$1/include"
  lbm_src > "$1/src/a/k1.hip"
  matmul_src > "$1/src/b/k2.hip"
  matmul_header > "$1/include/matmul.hpp"
  REPO_FLAGS=(-std=c++17 "-I$(cd "$1" && pwd)/include")
  ( cd "$1" && git init -q && git config user.email t@example.org && git config user.name scenario &&
    git add -A && git commit -qm initial )
}
# entries FILE.json SUBSTRING: how many baseline entries have a file key containing SUBSTRING
entries() { python3 -c "import json,sys; print(sum(1 for k in json.load(open(sys.argv[1]))['kernels'] if sys.argv[2] in k['file']))" "$1" "$2"; }

# LLVM 20 .s template (regscope's hand-written fixture shape, fixtures/llvm20/k.s): with_vgpr EXPR > FILE
llvm20_s() { cat "$SRC/fixtures/llvm20/k.s"; }
with_vgpr() { llvm20_s | python3 -c "import sys; s=sys.stdin.read(); sys.stdout.write(s.replace('.set _Z6simplePf.num_vgpr, 42', '.set _Z6simplePf.num_vgpr, ' + sys.argv[1]))" "$1"; }
