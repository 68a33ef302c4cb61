// The tensor contraction of "GPU Max: small and large register files" (Intel,
// seed 002) in OpenCL C, for Intel GPUs through ocloc; ax.hip is the HIP form.
// One work-group per element e, the s_* arrays in SLM. ax_rolled keeps the
// inner m-loop rolled; ax_unrolled unrolls it fully, which raises register
// pressure: on PVC (ocloc 22.43) the unrolled kernel spills with 128 GRF and
// not with 256, while the rolled one fits in 128 (docs/intel.md has the figures).
//
// NX1 is 12 here, not ax.hip's 8: at 8, IGC fits both forms in 128 GRF; at 12
// the unrolled form spills, and the work-group (NX1 * NX1 * ZDIM = 576
// work-items, 18 SIMD32 threads) is large enough that halving the threads per
// EU costs work-groups per Xe-core. OpenCL C wants __local arrays at kernel
// scope, so the kernels declare them and pass them to the shared body.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#ifndef NX1
#define NX1 12
#endif
#define ZDIM 4
#define I2(i, j) ((i) + NX1 * (j))
#define I3(i, j, k) ((i) + NX1 * ((j) + NX1 * (k)))
#define I4(i, j, k, e) ((i) + NX1 * ((j) + NX1 * ((k) + NX1 * (size_t)(e))))

// One k-plane's three contractions over m, rolled or fully unrolled.
#define CONTRACT(r_ur, r_us, r_ut)                  \
  for (int m = 0; m < NX1; m++) {                   \
    r_ur += s_D[I2(i, m)] * s_u[I3(m, j, k)];       \
    r_us += s_D[I2(j, m)] * s_u[I3(i, m, k)];       \
    r_ut += s_D[I2(k, m)] * s_u[I3(i, j, m)];       \
  }

inline void ax_body(const bool unroll, __global double *restrict w, __global const double *restrict u,
                    __global const double *restrict g, __global const double *restrict D, __local double *s_u,
                    __local double *s_D, __local double *s_ur, __local double *s_us, __local double *s_ut) {
  const int e = get_group_id(0);
  const int inner = get_local_id(0);  // NX1 * NX1 * ZDIM work-items
  const int k0 = inner / (NX1 * NX1);
  const int j = (inner - k0 * NX1 * NX1) / NX1;
  const int i = inner - k0 * NX1 * NX1 - j * NX1;
  if (k0 == 0) s_D[I2(i, j)] = D[I2(i, j)];
  for (int k = k0; k < NX1; k += ZDIM) s_u[I3(i, j, k)] = u[I4(i, j, k, e)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = k0; k < NX1; k += ZDIM) {
    double r_ur = 0, r_us = 0, r_ut = 0;
    if (unroll) {
      __attribute__((opencl_unroll_hint)) CONTRACT(r_ur, r_us, r_ut)
    } else {
      __attribute__((opencl_unroll_hint(1))) CONTRACT(r_ur, r_us, r_ut)
    }
    const size_t gbase = 6 * I4(i, j, k, e);
    const double G00 = g[gbase + 0], G01 = g[gbase + 1], G02 = g[gbase + 2];
    const double G11 = g[gbase + 3], G12 = g[gbase + 4], G22 = g[gbase + 5];
    s_ur[I3(i, j, k)] = G00 * r_ur + G01 * r_us + G02 * r_ut;
    s_us[I3(i, j, k)] = G01 * r_ur + G11 * r_us + G12 * r_ut;
    s_ut[I3(i, j, k)] = G02 * r_ur + G12 * r_us + G22 * r_ut;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = k0; k < NX1; k += ZDIM) {
    double wr = 0.0;
    for (int m = 0; m < NX1; m++)
      wr += s_D[I2(m, i)] * s_ur[I3(m, j, k)] + s_D[I2(m, j)] * s_us[I3(i, m, k)] + s_D[I2(m, k)] * s_ut[I3(i, j, m)];
    w[I4(i, j, k, e)] = wr;
  }
}

#define AX_KERNEL(NAME, UNROLL)                                                                                  \
  __kernel __attribute__((reqd_work_group_size(NX1 * NX1 * ZDIM, 1, 1))) void NAME(                            \
      __global double *w, __global const double *u, __global const double *g, __global const double *D) {     \
    __local double s_u[NX1 * NX1 * NX1], s_D[NX1 * NX1];                                                         \
    __local double s_ur[NX1 * NX1 * NX1], s_us[NX1 * NX1 * NX1], s_ut[NX1 * NX1 * NX1];                         \
    ax_body(UNROLL, w, u, g, D, s_u, s_D, s_ur, s_us, s_ut);                                                     \
  }

AX_KERNEL(ax_rolled, false)
AX_KERNEL(ax_unrolled, true)
