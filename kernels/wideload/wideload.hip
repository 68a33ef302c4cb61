// The max-reduction of "Improving GPU application performance with memory
// access tuning" (NVIDIA, seed 004), in HIP syntax:
//   max_baseline      : one double a load
//   max_wide_small    : double2 loads of small_array
//   max_wide_both     : double2 loads of small_array and big_array
//   *_lb              : each with __launch_bounds__(1024, 1)
//   max_baseline_512x2: __launch_bounds__(512, 2)
// KMAX and BLOCKDIMX are compile-time constants, as in the post, for the
// launch-bounded variants. The unbounded ones stride by the runtime blockDim.x:
// a compiler may give them more registers than a 1024-thread block can hold
// (CUDA 13 on sm_90 uses 95), so the runner launches the largest block they allow.
#include <hip/hip_runtime.h>

#define KMAX 32
#define BLOCKDIMX 1024

__device__ __forceinline__ int wl_index(int pt, int k, int ptmax) { return k * ptmax + pt; }

template <int BLOCK>  // 0: blockDim.x at run time
__device__ __forceinline__ void max_baseline_body(const double *big_array, const double *small_array, double *final_,
                                                  int ptmax) {
  const int block = BLOCK ? BLOCK : blockDim.x;
  for (int pt = threadIdx.x + blockIdx.x * block; pt < ptmax; pt += block * gridDim.x) {
    double best = 0.0;
#pragma unroll
    for (int k = 0; k < KMAX; ++k) {
      double c = big_array[wl_index(pt, k, ptmax)];
      c += small_array[k];
      best = max(c, best);
    }
    final_[pt] = best;
  }
}

template <int BLOCK>
__device__ __forceinline__ void max_wide_small_body(const double *big_array, const double *small_array,
                                                    double *final_, int ptmax) {
  const int block = BLOCK ? BLOCK : blockDim.x;
  for (int pt = threadIdx.x + blockIdx.x * block; pt < ptmax; pt += block * gridDim.x) {
    double best = 0.0;
#pragma unroll
    for (int k = 0; k < KMAX; k += 2) {
      double c = big_array[wl_index(pt, k, ptmax)];
      double2 val = *(const double2 *)&small_array[k];
      c += val.x;
      best = max(c, best);
      c = big_array[wl_index(pt, k + 1, ptmax)];
      c += val.y;
      best = max(c, best);
    }
    final_[pt] = best;
  }
}

template <int BLOCK>
__device__ __forceinline__ void max_wide_both_body(const double *big_array, const double *small_array,
                                                   double *final_, int ptmax) {
  const int block = BLOCK ? BLOCK : blockDim.x;
  for (int pt = 2 * (threadIdx.x + blockIdx.x * block); pt < ptmax; pt += 2 * block * gridDim.x) {
    double best1 = 0.0, best2 = 0.0;
#pragma unroll
    for (int k = 0; k < KMAX; k += 2) {
      double2 c1 = *(const double2 *)&big_array[wl_index(pt, k, ptmax)];
      double2 c2 = *(const double2 *)&big_array[wl_index(pt, k + 1, ptmax)];
      double2 val = *(const double2 *)&small_array[k];
      c1.x += val.x; best1 = max(c1.x, best1);
      c2.x += val.y; best1 = max(c2.x, best1);
      c1.y += val.x; best2 = max(c1.y, best2);
      c2.y += val.y; best2 = max(c2.y, best2);
    }
    final_[pt] = best1;
    final_[pt + 1] = best2;
  }
}

#define WL_PARAMS const double *__restrict__ big_array, const double *__restrict__ small_array, \
                  double *__restrict__ final_, int ptmax
#define WL_ARGS big_array, small_array, final_, ptmax

__global__ void max_baseline(WL_PARAMS) { max_baseline_body<0>(WL_ARGS); }
__global__ void max_wide_small(WL_PARAMS) { max_wide_small_body<0>(WL_ARGS); }
__global__ void max_wide_both(WL_PARAMS) { max_wide_both_body<0>(WL_ARGS); }
__global__ void __launch_bounds__(1024, 1) max_baseline_lb(WL_PARAMS) { max_baseline_body<BLOCKDIMX>(WL_ARGS); }
__global__ void __launch_bounds__(1024, 1) max_wide_small_lb(WL_PARAMS) { max_wide_small_body<BLOCKDIMX>(WL_ARGS); }
__global__ void __launch_bounds__(1024, 1) max_wide_both_lb(WL_PARAMS) { max_wide_both_body<BLOCKDIMX>(WL_ARGS); }
__global__ void __launch_bounds__(512, 2) max_baseline_512x2(WL_PARAMS) { max_baseline_body<512>(WL_ARGS); }

#ifdef REGSCOPE_RUNNER
// `variant`: 0 baseline, 1 wide small, 2 wide both, 3-5 the same with launch
// bounds, 6 the 512x2 baseline. Every point gets a thread (a pair, for wide
// both). Returns the block size used: the post's 1024, or for the unbounded
// variants the largest multiple of 64 their registers allow.
inline const void *wideload_function(int variant) {
  const void *functions[] = {(const void *)max_baseline,    (const void *)max_wide_small,
                             (const void *)max_wide_both,   (const void *)max_baseline_lb,
                             (const void *)max_wide_small_lb, (const void *)max_wide_both_lb,
                             (const void *)max_baseline_512x2};
  return functions[variant];
}

inline int wideload_block(int variant) {
  if (variant == 6) return 512;
  if (variant >= 3) return BLOCKDIMX;
  hipFuncAttributes attr;
  if (hipFuncGetAttributes(&attr, wideload_function(variant)) != hipSuccess) return BLOCKDIMX;
  return attr.maxThreadsPerBlock >= BLOCKDIMX ? BLOCKDIMX : attr.maxThreadsPerBlock / 64 * 64;
}

inline void launch_wideload(int variant, const double *big, const double *small, double *out, int ptmax) {
  const int block = wideload_block(variant);
  const int per_thread = (variant == 2 || variant == 5) ? 2 : 1;
  const int grid = (ptmax / per_thread + block - 1) / block;
  switch (variant) {
    case 0: max_baseline<<<grid, block>>>(big, small, out, ptmax); break;
    case 1: max_wide_small<<<grid, block>>>(big, small, out, ptmax); break;
    case 2: max_wide_both<<<grid, block>>>(big, small, out, ptmax); break;
    case 3: max_baseline_lb<<<grid, block>>>(big, small, out, ptmax); break;
    case 4: max_wide_small_lb<<<grid, block>>>(big, small, out, ptmax); break;
    case 5: max_wide_both_lb<<<grid, block>>>(big, small, out, ptmax); break;
    default: max_baseline_512x2<<<grid, block>>>(big, small, out, ptmax); break;
  }
}
#endif
