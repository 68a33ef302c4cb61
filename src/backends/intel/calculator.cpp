#include "regscope/backends/intel/calculator.h"

#include <algorithm>

#include "regscope/support/error.h"

namespace regscope {
namespace {

std::string joinInts(const std::vector<int> &values, const char *separator) {
  std::string out;
  for (int v : values) out += (out.empty() ? "" : separator) + std::to_string(v);
  return out;
}

}  // namespace

IntelOccupancy calculateIntelOccupancy(const IntelDevice &device, const IntelResources &r) {
  std::vector<int> modes = {device.grf_small};
  if (device.threads_per_eu_large > 0) modes.push_back(device.grf_large);
  if (std::find(modes.begin(), modes.end(), r.grf_count) == modes.end())
    throw Error("--grf " + std::to_string(r.grf_count) + " is not a GRF mode of " + std::string(device.name) + " (" +
                joinInts(modes, " or ") + ")");
  if (std::find(device.simd_widths.begin(), device.simd_widths.end(), r.simd) == device.simd_widths.end())
    throw Error("--simd " + std::to_string(r.simd) + " is not a SIMD width of " + std::string(device.name) + " (" +
                joinInts(device.simd_widths, ", ") + ")");
  if (r.slm_bytes < 0 || r.barriers < 0) throw Error("--slm and --barriers cannot be negative");
  return computeIntelOccupancy(device, r);
}

}  // namespace regscope
