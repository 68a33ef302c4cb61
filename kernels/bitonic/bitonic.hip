// Bitonic sort, from "Brook+ to IL" (seed 001).
//   bitonic_float: the Brook+ kernel as written: float index math, fmod,
//                  floor and a division per element
//   bitonic_int  : the integer version the post derives: a mask instead of
//                  modulo by a power of two, a shift instead of the division
// One launch per (stage, pass); out-of-place, ping-ponging two buffers.
#include <hip/hip_runtime.h>

__global__ void bitonic_float(const float *input, float *output, float stageWidth, float offset, float twoOffset,
                              int n) {
  int thread = threadIdx.x + blockIdx.x * blockDim.x;
  if (thread >= n) return;
  float idx1 = (float)thread;
  float sign = (fmodf(idx1, twoOffset) < offset) ? 1.0f : -1.0f;
  float dir = (fmodf(floorf(idx1 / stageWidth), 2.0f) == 0.0f) ? 1.0f : -1.0f;
  float idx2 = idx1 + sign * offset;
  float a = input[(int)idx1], b = input[(int)idx2];
  float mn = a < b ? a : b;
  float mx = a > b ? a : b;
  output[thread] = (sign == dir) ? mn : mx;
}

// log2StageWidth replaces stageWidth (the post passes n instead of 2^n).
__global__ void bitonic_int(const float *input, float *output, int log2StageWidth, int offset, int twoOffset, int n) {
  int idx1 = threadIdx.x + blockIdx.x * blockDim.x;
  if (idx1 >= n) return;
  int sign = (idx1 & (twoOffset - 1)) < offset ? 1 : -1;
  int dir = ((idx1 >> log2StageWidth) & 1) == 0 ? 1 : -1;
  int idx2 = idx1 + sign * offset;
  float a = input[idx1], b = input[idx2];
  float mn = a < b ? a : b;
  float mx = a > b ? a : b;
  output[idx1] = (sign == dir) ? mn : mx;
}

#ifdef REGSCOPE_RUNNER
// Sorts `n` (a power of two) floats ascending; returns the buffer holding the
// result (`a` or `b`).
inline float *run_bitonic(bool integer_version, float *a, float *b, int n) {
  const int block = 256, grid = (n + block - 1) / block;
  int log2n = 0;
  while ((1 << log2n) < n) ++log2n;
  for (int stage = 1; stage <= log2n; ++stage) {
    for (int pass = stage - 1; pass >= 0; --pass) {
      const int offset = 1 << pass;
      if (integer_version)
        bitonic_int<<<grid, block>>>(a, b, stage, offset, 2 * offset, n);
      else
        bitonic_float<<<grid, block>>>(a, b, (float)(1 << stage), (float)offset, (float)(2 * offset), n);
      float *t = a;
      a = b;
      b = t;
    }
  }
  return a;
}
#endif
