// The occupancy curves' vendor-neutral part: the staircase sampler and the
// chart's frame. Each backend runs its own model again with one resource
// changed (src/backends/<vendor>/occupancy_curves.cpp); occupancyChart
// (include/regscope/backend/backend.h) puts the two together.
#include "regscope/model/occupancy_curves.h"

#include <algorithm>
#include <climits>
#include <functional>

namespace regscope {
namespace curves {

// Samples level(x) at lo, then first, first + step, ... up to last (and last
// itself). Each sample stands for the x above the previous sample up to it:
// every model rounds a resource up to its allocation step, so the level is
// constant there. Equal neighbours merge into one step.
std::vector<CurveStep> sweep(int lo, int first, int last, int step, const std::function<int(int)> &level) {
  std::vector<CurveStep> steps;
  auto add = [&](int from, int to) {
    const int l = level(to);
    if (!steps.empty() && steps.back().level == l)
      steps.back().x_to = to;
    else
      steps.push_back({from, to, l});
  };
  int previous = lo;
  if (first > lo) add(lo, lo);
  for (int x = first;; x += step) {
    if (x > last) x = last;
    add(steps.empty() ? lo : previous + 1, x);
    previous = x;
    if (x >= last) break;
  }
  return steps;
}

int roundUp(int x, int step) { return step > 0 ? (x + step - 1) / step * step : x; }

// The curve's own level at the kernel's figure, the nearest higher stair
// below it and the end of its stair (monotone axes only).
OccupancyCurve finish(CurveAxis axis, std::vector<CurveStep> steps, int kernel_x, bool monotone) {
  OccupancyCurve curve;
  curve.axis = axis;
  curve.kernel_x = kernel_x;
  for (const CurveStep &s : steps)
    if (kernel_x >= s.x_from && kernel_x <= s.x_to) {
      curve.kernel_level = s.level;
      if (monotone) curve.headroom_to = s.x_to;
    }
  if (monotone)
    for (const CurveStep &s : steps)
      if (s.x_to < kernel_x && s.level > curve.kernel_level) curve.next = s;
  curve.steps = std::move(steps);
  return curve;
}

// The block sizes a kernel can launch with: up to its bound (__launch_bounds__,
// reqd_work_group_size, the maximum flat workgroup size), else the vendor's most.
int largestBlock(const LaunchAssumption &launch, int vendor_max) {
  return launch.max_block_size > 0 ? std::min(launch.max_block_size, vendor_max) : vendor_max;
}

}  // namespace curves

namespace {

CurveAxis axisOf(Limiter limiter) {
  switch (limiter) {
    case Limiter::Lds:
    case Limiter::Shared:
    case Limiter::Slm:
      return CurveAxis::Shared;
    case Limiter::Workgroup:
    case Limiter::Warps:
    case Limiter::Blocks:
    case Limiter::Barriers:
      return CurveAxis::BlockSize;
    default:
      return CurveAxis::Registers;
  }
}

}  // namespace

const char *curveAxisName(CurveAxis axis) {
  switch (axis) {
    case CurveAxis::Registers:
      return "registers";
    case CurveAxis::BlockSize:
      return "block_size";
    case CurveAxis::Shared:
      return "shared";
  }
  return "?";
}

OccupancyChart chartFrame(const ModelFacts &kernel) {
  OccupancyChart chart;
  chart.vendor = kernel.summary.vendor;
  chart.level = kernel.summary.level;
  chart.max_level = kernel.summary.max_level;
  chart.limiter = kernel.summary.limiter;
  return chart;
}

bool chartHasCurves(const OccupancyChart &chart) {
  return !(chart.limiter == Limiter::Invalid || chart.limiter == Limiter::Unresolved ||
           chart.limiter == Limiter::Unknown);
}

void limitingCurveFirst(OccupancyChart &chart) {
  const CurveAxis first = axisOf(chart.limiter);
  std::stable_partition(chart.curves.begin(), chart.curves.end(),
                        [first](const OccupancyCurve &c) { return c.axis == first; });
}

}  // namespace regscope
