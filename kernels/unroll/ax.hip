// The tensor contraction of "GPU Max: small and large register files" (Intel,
// seed 002), written as a HIP kernel: one block per element e, the s_* arrays
// in LDS. ax_rolled keeps the inner m-loop rolled; ax_unrolled unrolls it
// fully (#pragma unroll  // full: NX1 is a constant (clang does not expand macros in the pragma)), which the post shows raises register pressure.
#include <hip/hip_runtime.h>

#define NX1 8
#define ZDIM 4
#define I2(i, j) ((i) + NX1 * (j))
#define I3(i, j, k) ((i) + NX1 * ((j) + NX1 * (k)))
#define I4(i, j, k, e) ((i) + NX1 * ((j) + NX1 * ((k) + NX1 * (size_t)(e))))

template <bool UNROLL>
__device__ __forceinline__ void ax_body(double *__restrict__ w, const double *__restrict__ u,
                                        const double *__restrict__ g, const double *__restrict__ D) {
  __shared__ double s_u[NX1 * NX1 * NX1], s_D[NX1 * NX1];
  __shared__ double s_ur[NX1 * NX1 * NX1], s_us[NX1 * NX1 * NX1], s_ut[NX1 * NX1 * NX1];
  const int e = blockIdx.x;
  const int inner = threadIdx.x;  // NX1 * NX1 * ZDIM threads
  const int k0 = inner / (NX1 * NX1);
  const int j = (inner - k0 * NX1 * NX1) / NX1;
  const int i = inner - k0 * NX1 * NX1 - j * NX1;
  if (k0 == 0) s_D[I2(i, j)] = D[I2(i, j)];
  for (int k = k0; k < NX1; k += ZDIM) s_u[I3(i, j, k)] = u[I4(i, j, k, e)];
  __syncthreads();
  for (int k = k0; k < NX1; k += ZDIM) {
    double r_ur = 0, r_us = 0, r_ut = 0;
    if (UNROLL) {
#pragma unroll  // full: NX1 is a constant (clang does not expand macros in the pragma)
      for (int m = 0; m < NX1; m++) {
        r_ur += s_D[I2(i, m)] * s_u[I3(m, j, k)];
        r_us += s_D[I2(j, m)] * s_u[I3(i, m, k)];
        r_ut += s_D[I2(k, m)] * s_u[I3(i, j, m)];
      }
    } else {
#pragma unroll 1
      for (int m = 0; m < NX1; m++) {
        r_ur += s_D[I2(i, m)] * s_u[I3(m, j, k)];
        r_us += s_D[I2(j, m)] * s_u[I3(i, m, k)];
        r_ut += s_D[I2(k, m)] * s_u[I3(i, j, m)];
      }
    }
    const size_t gbase = 6 * I4(i, j, k, e);
    const double G00 = g[gbase + 0], G01 = g[gbase + 1], G02 = g[gbase + 2];
    const double G11 = g[gbase + 3], G12 = g[gbase + 4], G22 = g[gbase + 5];
    s_ur[I3(i, j, k)] = G00 * r_ur + G01 * r_us + G02 * r_ut;
    s_us[I3(i, j, k)] = G01 * r_ur + G11 * r_us + G12 * r_ut;
    s_ut[I3(i, j, k)] = G02 * r_ur + G12 * r_us + G22 * r_ut;
  }
  __syncthreads();
  for (int k = k0; k < NX1; k += ZDIM) {
    double wr = 0.0;
    for (int m = 0; m < NX1; m++)
      wr += s_D[I2(m, i)] * s_ur[I3(m, j, k)] + s_D[I2(m, j)] * s_us[I3(i, m, k)] + s_D[I2(m, k)] * s_ut[I3(i, j, m)];
    w[I4(i, j, k, e)] = wr;
  }
}

__global__ void __launch_bounds__(NX1 *NX1 *ZDIM) ax_rolled(double *w, const double *u, const double *g,
                                                            const double *D) {
  ax_body<false>(w, u, g, D);
}
__global__ void __launch_bounds__(NX1 *NX1 *ZDIM) ax_unrolled(double *w, const double *u, const double *g,
                                                              const double *D) {
  ax_body<true>(w, u, g, D);
}

#ifdef REGSCOPE_RUNNER
inline void launch_ax(bool unrolled, double *w, const double *u, const double *g, const double *D, int nelt) {
  if (unrolled) ax_unrolled<<<nelt, NX1 * NX1 * ZDIM>>>(w, u, g, D);
  else ax_rolled<<<nelt, NX1 * NX1 * ZDIM>>>(w, u, g, D);
}
#endif
