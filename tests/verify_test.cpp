// The reference kernels' CPU checks (kernels/runner/verify.h), without a GPU.
#include <gtest/gtest.h>

#include "../kernels/runner/verify.h"

namespace {

TEST(Verify, LaplacianOfAQuadraticIsSix) {
  const int n = 8;
  std::vector<double> u(n * n * n), f(n * n * n, 0.0);
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) u[i + n * (j + n * k)] = i * i + j * j + k * k;
  verify::laplacianReference(u, f, n, n, n, 1.0, 1.0, 1.0);
  std::vector<double> six(n * n * n, 6.0);
  EXPECT_TRUE(verify::compareInterior(f, six, n, n, n, 1e-12).ok);
  f[1 + n * (1 + n * 1)] = 6.5;
  verify::Check wrong = verify::compareInterior(f, six, n, n, n, 1e-12);
  EXPECT_FALSE(wrong.ok);
  EXPECT_NEAR(wrong.max_error, 0.5 / 6.0, 1e-12);
}

TEST(Verify, SortedPermutation) {
  std::vector<float> in = {3, 1, 2, 2};
  EXPECT_TRUE(verify::sortedPermutation(in, {1, 2, 2, 3}).ok);
  EXPECT_FALSE(verify::sortedPermutation(in, {1, 2, 3, 2}).ok);  // not sorted
  EXPECT_FALSE(verify::sortedPermutation(in, {1, 2, 3, 3}).ok);  // sorted, not a permutation
  EXPECT_FALSE(verify::sortedPermutation(in, {1, 2, 3}).ok);     // lost an element
}

TEST(Verify, MaxReductionIsExact) {
  const int ptmax = 4, kmax = 2;
  std::vector<double> big = {1, -5, 3, -1, /* k = 1 */ 0.5, -2, 7, -3}, small = {0.25, -0.5}, out(ptmax);
  verify::maxReference(big, small, out, ptmax, kmax);
  EXPECT_EQ(out, (std::vector<double>{1.25, 0.0, 6.5, 0.0}));  // max with 0, as the kernel starts from 0
  std::vector<double> off = out;
  off[2] = std::nextafter(off[2], 100.0);
  EXPECT_FALSE(verify::compareExact(off, out).ok);
  EXPECT_TRUE(verify::compareExact(out, out).ok);
}

TEST(Verify, AxWithIdentityDerivativeIsTheGeometryWeightedSum) {
  const int n = 2;
  std::vector<double> D = {1, 0, 0, 1}, u(8, 1.0), g(6 * 8), w(8);
  for (int p = 0; p < 8; ++p)
    for (int c = 0; c < 6; ++c) g[6 * p + c] = c + 1;  // G00..G22 = 1..6
  verify::axReference(u.data(), g.data(), D.data(), w.data(), n);
  // r = s = t = 1; ur = 1+2+3, us = 2+4+5, ut = 3+5+6; w = ur + us + ut.
  for (double x : w) EXPECT_DOUBLE_EQ(x, 6 + 11 + 14);
}

TEST(Verify, SeedBandwidthFormulaAndMedian) {
  // Seed 003: fetch = (n^3 - 8 - 12(n-2)) doubles, write = (n-2)^3 doubles.
  EXPECT_DOUBLE_EQ(verify::laplacianBytes(4, 4, 4), ((64.0 - 8 - 24) + 8) * 8);
  EXPECT_DOUBLE_EQ(verify::median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(verify::median({4, 1, 2, 3}), 2.5);
}

}  // namespace
