// 7-point Laplacian finite differences, double precision, from "Finite
// difference method - Laplacian part 4" (AMD lab notes, seed 003).
//   laplacian_naive : one grid point per thread (the baseline)
//   laplacian_k5    : kernel 5: tiling factor m = 8 in y, __launch_bounds__(256),
//                     nontemporal stores
//   laplacian_k6    : kernel 6: kernel 5 with the grid index reordered (x last)
//   laplacian_k7    : kernel 7: kernel 5 over y sub-domains, one launch each
#include <hip/hip_runtime.h>

#define LAPLACIAN_M 8
#define LAPLACIAN_LB 256

template <typename T>
__global__ void laplacian_naive(T *f, const T *u, int nx, int ny, int nz, T invhx2, T invhy2, T invhz2,
                                T invhxyz2) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int j = threadIdx.y + blockIdx.y * blockDim.y;
  int k = threadIdx.z + blockIdx.z * blockDim.z;
  if (i == 0 || i >= nx - 1 || j == 0 || j >= ny - 1 || k == 0 || k >= nz - 1) return;
  const size_t slice = (size_t)nx * ny;
  size_t pos = i + (size_t)nx * j + slice * k;
  f[pos] = u[pos] * invhxyz2 + (u[pos - 1] + u[pos + 1]) * invhx2 + (u[pos - nx] + u[pos + nx]) * invhy2 +
           (u[pos - slice] + u[pos + slice]) * invhz2;
}

// Kernel 5 as printed in the post; `sy` is kernel 7's sub-domain offset (0
// for kernel 5) and `reordered` selects kernel 6's grid index order.
template <typename T, bool reordered>
__device__ __forceinline__ void laplacian_tiled(T *f, const T *u, int nx, int ny, int nz, T invhx2, T invhy2,
                                                T invhz2, T invhxyz2, int sy) {
  const int m = LAPLACIAN_M;
  int i = threadIdx.x + (reordered ? blockIdx.z : blockIdx.x) * blockDim.x;
  int j = sy + m * (threadIdx.y + (reordered ? blockIdx.x : blockIdx.y) * blockDim.y);
  int k = threadIdx.z + (reordered ? blockIdx.y : blockIdx.z) * blockDim.z;
  if (i == 0 || i >= nx - 1 || k == 0 || k >= nz - 1) return;
  const int slice = nx * ny;
  size_t pos = i + (size_t)nx * j + (size_t)slice * k;
  T Lu[m] = {0};
  T center;
  for (int n = 0; n < m; n++) Lu[n] += u[pos - slice + n * nx] * invhz2;  // z - 1
  Lu[0] += j > 0 ? u[pos - 1 * nx] * invhy2 : 0;                         // y - 1
  for (int n = 0; n < m; n++) {                                          // x direction
    Lu[n] += u[pos - 1 + n * nx] * invhx2;
    center = u[pos + n * nx];
    Lu[n] += center * invhxyz2;
    Lu[n] += u[pos + 1 + n * nx] * invhx2;
    if (n > 0) Lu[n - 1] += center * invhy2;      // reuse: y + 1 of the previous n
    if (n < m - 1) Lu[n + 1] += center * invhy2;  // reuse: y - 1 of the next n
  }
  Lu[m - 1] += j < ny - m ? u[pos + m * nx] * invhy2 : 0;                 // y + 1
  for (int n = 0; n < m; n++) Lu[n] += u[pos + slice + n * nx] * invhz2;  // z + 1
  for (int n = 0; n < m; n++)
    if (n + j > 0 && n + j < ny - 1) __builtin_nontemporal_store(Lu[n], &f[pos + n * nx]);
}

template <typename T>
__launch_bounds__(LAPLACIAN_LB) __global__
    void laplacian_k5(T *f, const T *u, int nx, int ny, int nz, T invhx2, T invhy2, T invhz2, T invhxyz2) {
  laplacian_tiled<T, false>(f, u, nx, ny, nz, invhx2, invhy2, invhz2, invhxyz2, 0);
}

template <typename T>
__launch_bounds__(LAPLACIAN_LB) __global__
    void laplacian_k6(T *f, const T *u, int nx, int ny, int nz, T invhx2, T invhy2, T invhz2, T invhxyz2) {
  laplacian_tiled<T, true>(f, u, nx, ny, nz, invhx2, invhy2, invhz2, invhxyz2, 0);
}

template <typename T>
__launch_bounds__(LAPLACIAN_LB) __global__ void laplacian_k7(T *f, const T *u, int nx, int ny, int nz, T invhx2,
                                                            T invhy2, T invhz2, T invhxyz2, int sy) {
  laplacian_tiled<T, false>(f, u, nx, ny, nz, invhx2, invhy2, invhz2, invhxyz2, sy);
}

template __global__ void laplacian_naive<double>(double *, const double *, int, int, int, double, double, double,
                                                 double);
template __global__ void laplacian_k5<double>(double *, const double *, int, int, int, double, double, double, double);
template __global__ void laplacian_k6<double>(double *, const double *, int, int, int, double, double, double, double);
template __global__ void laplacian_k7<double>(double *, const double *, int, int, int, double, double, double, double,
                                              int);

#ifdef REGSCOPE_RUNNER
// Host launchers for the runner (kernels/runner). `variant`: 0 naive, 5, 6, 7.
// Kernel 7 splits y into `subdomains` launches.
inline void launch_laplacian(int variant, double *f, const double *u, int nx, int ny, int nz, double hx, double hy,
                             double hz, int subdomains = 4) {
  const double invhx2 = 1.0 / (hx * hx), invhy2 = 1.0 / (hy * hy), invhz2 = 1.0 / (hz * hz);
  const double invhxyz2 = -2.0 * (invhx2 + invhy2 + invhz2);
  const int m = LAPLACIAN_M;
  if (variant == 0) {
    dim3 block(256, 1, 1);
    dim3 grid((nx - 1) / block.x + 1, ny, nz);
    laplacian_naive<double><<<grid, block>>>(f, u, nx, ny, nz, invhx2, invhy2, invhz2, invhxyz2);
  } else if (variant == 5) {
    dim3 block(256, 1, 1);
    dim3 grid((nx - 1) / block.x + 1, (ny - 1) / (block.y * m) + 1, (nz - 1) / block.z + 1);
    laplacian_k5<double><<<grid, block>>>(f, u, nx, ny, nz, invhx2, invhy2, invhz2, invhxyz2);
  } else if (variant == 6) {
    dim3 block(256, 1, 1);
    dim3 grid((ny - 1) / (block.y * m) + 1, (nz - 1) / block.z + 1, (nx - 1) / block.x + 1);
    laplacian_k6<double><<<grid, block>>>(f, u, nx, ny, nz, invhx2, invhy2, invhz2, invhxyz2);
  } else {
    dim3 block(256, 1, 1);
    const int bny = (ny - 1) / subdomains + 1;
    dim3 grid((nx - 1) / block.x + 1, (bny - 1) / (block.y * m) + 1, (nz - 1) / block.z + 1);
    for (int s = 0; s < subdomains; s++)
      laplacian_k7<double><<<grid, block>>>(f, u, nx, ny, nz, invhx2, invhy2, invhz2, invhxyz2, bny * s);
  }
}
#endif
