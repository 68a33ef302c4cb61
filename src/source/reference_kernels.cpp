#include "regscope/source/reference_kernels.h"

#include <cstdlib>
#include <filesystem>

#include "regscope/support/error.h"

namespace regscope {

const std::vector<ReferenceCase> &referenceCases() {
  static const std::vector<ReferenceCase> cases = {
      {"lbm", "lbm", "lbm/lbm.hip", "kernel", "seed 000: the LBM kernel as published"},
      {"lbm", "lbm_nopow", "lbm/lbm_nopow.hip", "kernel", "pow(x, 2.0) replaced by x*x"},
      {"lbm", "lbm_rearrange", "lbm/lbm_rearrange.hip", "kernel", "and the f0[m] update moved up"},
      {"lbm", "lbm_restrict_g14", "lbm/lbm_restrict_g14.hip", "kernel", "and __restrict__ on g14"},
      {"lbm", "lbm_restrict_g7", "lbm/lbm_restrict_g7.hip", "kernel", "and __restrict__ on g7"},
      {"laplacian", "laplacian_naive", "laplacian/laplacian.hip", "laplacian_naive", "seed 003: one point per thread"},
      {"laplacian", "laplacian_k5", "laplacian/laplacian.hip", "laplacian_k5",
       "kernel 5: y tiling m=8, launch bounds 256"},
      {"laplacian", "laplacian_k6", "laplacian/laplacian.hip", "laplacian_k6", "kernel 6: grid index reordered"},
      {"laplacian", "laplacian_k7", "laplacian/laplacian.hip", "laplacian_k7",
       "kernel 7: y sub-domains, serial launches"},
      {"bitonic", "bitonic_float", "bitonic/bitonic.hip", "bitonic_float", "seed 001: Brook+ kernel, float index math"},
      {"bitonic", "bitonic_int", "bitonic/bitonic.hip", "bitonic_int", "integer: mask and shift for mod and div"},
      {"wideload", "max_baseline", "wideload/wideload.hip", "max_baseline", "seed 004: max-reduction, double loads"},
      {"wideload", "max_wide_small", "wideload/wideload.hip", "max_wide_small", "double2 loads of small_array"},
      {"wideload", "max_wide_both", "wideload/wideload.hip", "max_wide_both", "double2 loads of both arrays"},
      {"wideload", "max_baseline_lb", "wideload/wideload.hip", "max_baseline_lb",
       "baseline, __launch_bounds__(1024, 1)"},
      {"wideload", "max_wide_small_lb", "wideload/wideload.hip", "max_wide_small_lb",
       "wide small, launch bounds (1024, 1)"},
      {"wideload", "max_wide_both_lb", "wideload/wideload.hip", "max_wide_both_lb",
       "wide both, launch bounds (1024, 1)"},
      {"wideload", "max_baseline_512x2", "wideload/wideload.hip", "max_baseline_512x2",
       "baseline, __launch_bounds__(512, 2)"},
      {"unroll", "ax_rolled", "unroll/ax.hip", "ax_rolled", "seed 002: tensor contraction, inner loop rolled"},
      {"unroll", "ax_unrolled", "unroll/ax.hip", "ax_unrolled", "the same, inner loop fully unrolled"},
      {"unroll", "ax_rolled_cl", "unroll/ax.cl", "ax_rolled",
       "seed 002 in OpenCL C for Intel (--intel-device), NX1 12"},
      {"unroll", "ax_unrolled_cl", "unroll/ax.cl", "ax_unrolled", "the same, unrolled: spills with 128 GRF on pvc"},
  };
  return cases;
}

std::string kernelsDirectory() {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (const char *env = std::getenv("REGSCOPE_KERNELS_DIR"); env && *env) {
    if (fs::is_directory(env, ec)) return env;
    throw Error(std::string("REGSCOPE_KERNELS_DIR=") + env + " is not a directory");
  }
  const fs::path exe = fs::canonical("/proc/self/exe", ec);
  const fs::path installed = exe.parent_path().parent_path() / "share" / "regscope" / "kernels";
  if (!ec && fs::is_directory(installed, ec)) return installed.string();
  if (fs::is_directory(REGSCOPE_SOURCE_KERNELS_DIR, ec)) return REGSCOPE_SOURCE_KERNELS_DIR;
  throw Error("cannot find the reference kernels (set REGSCOPE_KERNELS_DIR)");
}

std::vector<ReferenceCase> selectCases(const std::string &selector) {
  std::vector<ReferenceCase> selected;
  for (const ReferenceCase &c : referenceCases())
    if (selector.empty() || selector == c.family || selector == c.name) selected.push_back(c);
  if (selected.empty()) {
    std::string known;
    for (const ReferenceCase &c : referenceCases())
      if (known.find(c.family) == std::string::npos) known += (known.empty() ? "" : ", ") + std::string(c.family);
    throw Error("no reference kernel or family '" + selector + "'; families: " + known +
                " (see regscope kernels list)");
  }
  return selected;
}

}  // namespace regscope
