// The occupancy curves of one modelled kernel: what its occupancy would be
// if one resource (registers, block size, LDS/shared memory/SLM) were
// different and everything else stayed as it is, the way NVIDIA's occupancy
// calculator draws its three graphs. Every point is the vendor's own model
// (computeOccupancy, computeCudaOccupancy, computeIntelOccupancy) run on the
// kernel's resources with that one resource changed, so a chart can never
// disagree with the table: the views draw these points and compute none.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "regscope/model/kernel_model.h"
#include "regscope/model/limiter.h"

namespace regscope {

// The resource a curve varies.
enum class CurveAxis {
  Registers,  // AMD: VGPRs (the unified total); NVIDIA: registers per thread; Intel: GRF per thread (the modes)
  BlockSize,  // workgroup / block / work-group size in threads (work-items)
  Shared,     // AMD: LDS; NVIDIA: shared memory; Intel: SLM; bytes per workgroup
};
// "registers", "block_size", "shared" (JSON, HTML ids).
const char *curveAxisName(CurveAxis axis);

// One stair of a staircase: every x in [x_from, x_to] gives `level`.
struct CurveStep {
  int x_from = 0, x_to = 0;
  int level = 0;  // in the vendor's summary unit: waves/SIMD, warps/SM, threads/Xe-core; 0: cannot launch
};

struct OccupancyCurve {
  CurveAxis axis = CurveAxis::Registers;
  std::vector<CurveStep> steps;  // ascending x, adjacent steps differ in level
  int kernel_x = 0;              // the kernel's own figure on this axis
  int kernel_level = 0;          // the level the curve gives at kernel_x: the summary's level
  // Where fewer of the resource gives a higher level (the nearest such x
  // below kernel_x) and the largest x that keeps kernel_level: on the
  // axes where less never hurts (registers, shared memory). The block-size
  // curve is not monotone and has neither.
  std::optional<CurveStep> next;  // x_to: the most of the resource that reaches next->level
  std::optional<int> headroom_to;
};

// The level each resource alone allows, in the summary's unit (NVIDIA and
// Intel count blocks / work-groups; they are given here as warps / threads).
struct ResourceLimit {
  Limiter resource = Limiter::None;
  int level = 0;
};

struct OccupancyChart {
  Vendor vendor = defaultVendor();
  int level = 0, max_level = 0;
  Limiter limiter = Limiter::None;
  std::vector<ResourceLimit> limits;
  // The limiting resource's curve first (registers for limiters that are no
  // resource of their own: None, Workgroup, Warps, Blocks, ThreadSlots).
  std::vector<OccupancyCurve> curves;
};

// occupancyChart (include/regscope/backend/backend.h) builds a kernel's chart
// from these: the frame (the summary's figures), the backend's curves when
// the kernel has an occupancy, the limiting resource's curve first.
OccupancyChart chartFrame(const ModelFacts &kernel);
bool chartHasCurves(const OccupancyChart &chart);  // false: unresolved, unknown, or cannot launch
void limitingCurveFirst(OccupancyChart &chart);

namespace curves {  // for the backends' curves
// Samples level(x) at lo, then first, first + step,
// ... up to last (and last itself); equal neighbours merge into one step.
std::vector<CurveStep> sweep(int lo, int first, int last, int step, const std::function<int(int)> &level);
int roundUp(int x, int step);
// The curve's own level at the kernel's figure, the nearest higher stair
// below it and the end of its stair (monotone axes only).
OccupancyCurve finish(CurveAxis axis, std::vector<CurveStep> steps, int kernel_x, bool monotone);
// The block sizes a kernel can launch with: up to its bound, else the vendor's most.
int largestBlock(const LaunchAssumption &launch, int vendor_max);
}  // namespace curves

}  // namespace regscope
