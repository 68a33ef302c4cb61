// CPU references and result checks for the reference kernels. Header-only
// and GPU-free, so regscope's test suite covers them on machines without a GPU.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

namespace verify {

struct Check {
  bool ok = true;
  double max_error = 0;  // relative, or count of mismatches for exact checks
  std::string message;
};

// The 7-point Laplacian on the interior; the boundary is left as given.
inline void laplacianReference(const std::vector<double> &u, std::vector<double> &f, int nx, int ny, int nz,
                               double hx, double hy, double hz) {
  const double ix = 1 / (hx * hx), iy = 1 / (hy * hy), iz = 1 / (hz * hz), ic = -2 * (ix + iy + iz);
  const std::size_t slice = (std::size_t)nx * ny;
  for (int k = 1; k < nz - 1; ++k)
    for (int j = 1; j < ny - 1; ++j)
      for (int i = 1; i < nx - 1; ++i) {
        const std::size_t p = i + (std::size_t)nx * j + slice * k;
        f[p] = u[p] * ic + (u[p - 1] + u[p + 1]) * ix + (u[p - nx] + u[p + nx]) * iy + (u[p - slice] + u[p + slice]) * iz;
      }
}

// Largest relative error over the interior of an nx*ny*nz grid.
inline Check compareInterior(const std::vector<double> &got, const std::vector<double> &want, int nx, int ny, int nz,
                             double tolerance) {
  Check c;
  const std::size_t slice = (std::size_t)nx * ny;
  for (int k = 1; k < nz - 1; ++k)
    for (int j = 1; j < ny - 1; ++j)
      for (int i = 1; i < nx - 1; ++i) {
        const std::size_t p = i + (std::size_t)nx * j + slice * k;
        const double scale = std::max(std::abs(want[p]), 1.0);
        c.max_error = std::max(c.max_error, std::abs(got[p] - want[p]) / scale);
      }
  c.ok = c.max_error <= tolerance;
  if (!c.ok) c.message = "relative error " + std::to_string(c.max_error) + " > " + std::to_string(tolerance);
  return c;
}

// Elementwise relative comparison of two arrays.
inline Check compareRelative(const std::vector<double> &got, const std::vector<double> &want, double tolerance) {
  Check c;
  if (got.size() != want.size()) return {false, 0, "size mismatch"};
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double scale = std::max(std::abs(want[i]), 1.0);
    c.max_error = std::max(c.max_error, std::abs(got[i] - want[i]) / scale);
  }
  c.ok = c.max_error <= tolerance;
  if (!c.ok) c.message = "relative error " + std::to_string(c.max_error) + " > " + std::to_string(tolerance);
  return c;
}

// Sorted ascending, and a permutation of the input.
inline Check sortedPermutation(const std::vector<float> &input, const std::vector<float> &output) {
  if (input.size() != output.size()) return {false, 0, "size mismatch"};
  if (!std::is_sorted(output.begin(), output.end())) return {false, 1, "output is not sorted"};
  std::vector<float> expected = input;
  std::sort(expected.begin(), expected.end());
  if (expected != output) return {false, 1, "output is sorted but not a permutation of the input"};
  return {};
}

// The max-reduction of seed 004: final[pt] = max(0, max_k big[k*ptmax+pt] + small[k]).
inline void maxReference(const std::vector<double> &big, const std::vector<double> &small, std::vector<double> &out,
                         int ptmax, int kmax) {
  for (int pt = 0; pt < ptmax; ++pt) {
    double best = 0.0;
    for (int k = 0; k < kmax; ++k) best = std::max(big[(std::size_t)k * ptmax + pt] + small[k], best);
    out[pt] = best;
  }
}

inline Check compareExact(const std::vector<double> &got, const std::vector<double> &want) {
  Check c;
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < got.size() && i < want.size(); ++i) mismatches += got[i] != want[i];
  c.max_error = static_cast<double>(mismatches);
  c.ok = mismatches == 0 && got.size() == want.size();
  if (!c.ok) c.message = std::to_string(mismatches) + " values differ";
  return c;
}

// The ax contraction of seed 002 for one element (n = NX1).
inline void axReference(const double *u, const double *g, const double *D, double *w, int n) {
  auto I2 = [n](int i, int j) { return i + n * j; };
  auto I3 = [n](int i, int j, int k) { return i + n * (j + n * k); };
  std::vector<double> ur(n * n * n), us(n * n * n), ut(n * n * n);
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        double r = 0, s = 0, t = 0;
        for (int m = 0; m < n; ++m) {
          r += D[I2(i, m)] * u[I3(m, j, k)];
          s += D[I2(j, m)] * u[I3(i, m, k)];
          t += D[I2(k, m)] * u[I3(i, j, m)];
        }
        const double *G = g + 6 * I3(i, j, k);
        ur[I3(i, j, k)] = G[0] * r + G[1] * s + G[2] * t;
        us[I3(i, j, k)] = G[1] * r + G[3] * s + G[4] * t;
        ut[I3(i, j, k)] = G[2] * r + G[4] * s + G[5] * t;
      }
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        double wr = 0;
        for (int m = 0; m < n; ++m)
          wr += D[I2(m, i)] * ur[I3(m, j, k)] + D[I2(m, j)] * us[I3(i, m, k)] + D[I2(m, k)] * ut[I3(i, j, m)];
        w[I3(i, j, k)] = wr;
      }
}

// Effective bandwidth of the Laplacian, as seed 003 defines its figure of merit.
inline double laplacianBytes(int nx, int ny, int nz) {
  const double fetch = ((double)nx * ny * nz - 8 - 4.0 * (nx - 2) - 4.0 * (ny - 2) - 4.0 * (nz - 2)) * sizeof(double);
  const double write = (double)(nx - 2) * (ny - 2) * (nz - 2) * sizeof(double);
  return fetch + write;
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

}  // namespace verify
