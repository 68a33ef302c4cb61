// The occupancy curves: each vendor's model, run again with one resource
// changed. Nothing here knows a rule; it only asks the models.
#include "regscope/model/occupancy_curves.h"

#include <algorithm>
#include <climits>
#include <functional>

namespace regscope {
namespace {

constexpr int kWarpSize = 32;

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

void amdChart(const ModelledKernel &k, const AmdKernelModel &m, OccupancyChart &chart) {
  const AmdArch &arch = m.arch;
  const KernelResources &base = m.resources;
  const Occupancy &occ = m.occupancy;
  chart.limits = {{Limiter::Vgpr, occ.by_vgpr},
                  {Limiter::Sgpr, occ.by_sgpr},
                  {Limiter::Lds, occ.by_lds},
                  {Limiter::Workgroup, occ.by_workgroup}};
  auto at = [&](auto change) {
    return [&arch, base, change](int x) {
      KernelResources r = base;
      change(r, x);
      return computeOccupancy(arch, r).waves_per_simd;
    };
  };
  const int vgpr_max = std::max(arch.agprs == AgprMode::Unified ? 2 * arch.max_arch_vgprs : arch.max_arch_vgprs,
                                roundUp(occ.vgprs_total, arch.vgpr_granule));
  chart.curves.push_back(finish(CurveAxis::Registers,
                                // From 1: a VGPR total of 0 means "derive it from VGPRs and AGPRs" to the model.
                                sweep(1, arch.vgpr_granule, vgpr_max, arch.vgpr_granule,
                                      at([](KernelResources &r, int x) { r.vgprs_total = x; })),
                                occ.vgprs_total, true));
  const int block_max = std::max(largestBlock(k.launch, 1024), base.workgroup_size);
  chart.curves.push_back(finish(
      CurveAxis::BlockSize,
      sweep(1, arch.wave_size, block_max, arch.wave_size, at([](KernelResources &r, int x) { r.workgroup_size = x; })),
      base.workgroup_size, false));
  const int lds_max = std::max(arch.max_lds_per_workgroup, roundUp(base.lds_bytes, arch.lds_granule));
  chart.curves.push_back(finish(
      CurveAxis::Shared,
      sweep(0, arch.lds_granule, lds_max, arch.lds_granule, at([](KernelResources &r, int x) { r.lds_bytes = x; })),
      base.lds_bytes, true));
}

void cudaChart(const ModelledKernel &k, const CudaKernelModel &m, OccupancyChart &chart) {
  const CudaArch &arch = m.arch;
  const CudaResources &base = m.resources;
  const CudaOccupancy &occ = m.occupancy;
  const int warps_per_block = (base.block_size + kWarpSize - 1) / kWarpSize;
  auto warps = [&](int blocks) { return blocks == INT_MAX ? chart.max_level : blocks * warps_per_block; };
  chart.limits = {{Limiter::Registers, warps(occ.by_registers)},
                  {Limiter::Shared, warps(occ.by_shared)},
                  {Limiter::Warps, warps(occ.by_warps)},
                  {Limiter::Blocks, warps(occ.by_blocks)},
                  {Limiter::Barriers, warps(occ.by_barriers)}};
  auto at = [&](auto change) {
    return [&arch, base, change](int x) {
      CudaResources r = base;
      change(r, x);
      const CudaOccupancy o = computeCudaOccupancy(arch, r);
      return o.limiter == Limiter::Invalid ? 0 : o.warps_per_sm;
    };
  };
  chart.curves.push_back(finish(CurveAxis::Registers,
                                sweep(0, 1, std::max(arch.max_registers_per_thread, base.registers), 1,
                                      at([](CudaResources &r, int x) { r.registers = x; })),
                                base.registers, true));
  const int block_max = std::max(largestBlock(k.launch, arch.max_threads_per_block), base.block_size);
  chart.curves.push_back(
      finish(CurveAxis::BlockSize,
             sweep(1, kWarpSize, block_max, kWarpSize, at([](CudaResources &r, int x) { r.block_size = x; })),
             base.block_size, false));
  // Static and dynamic shared memory count alike: the curve varies their sum.
  const int shared = base.static_shared + base.dynamic_shared;
  const int step = std::max(arch.shared_granule, 1);
  chart.curves.push_back(finish(CurveAxis::Shared,
                                sweep(0, step, std::max(arch.shared_per_block_optin, roundUp(shared, step)), step,
                                      at([](CudaResources &r, int x) {
                                        r.static_shared = x;
                                        r.dynamic_shared = 0;
                                      })),
                                shared, true));
}

void intelChart(const ModelledKernel &k, const IntelKernelModel &m, OccupancyChart &chart) {
  const IntelDevice &device = m.device;
  const IntelResources &base = m.resources;
  const IntelOccupancy &occ = m.occupancy;
  auto threads = [&](int groups) { return groups == INT_MAX ? chart.max_level : groups * occ.threads_per_work_group; };
  chart.limits = {{Limiter::ThreadSlots, threads(occ.by_threads)},
                  {Limiter::Slm, threads(occ.by_slm)},
                  {Limiter::Barriers, threads(occ.by_barriers)},
                  {Limiter::Workgroup, threads(occ.by_work_group_slots)}};
  auto level = [&device](const IntelResources &r) {
    const IntelOccupancy o = computeIntelOccupancy(device, r);
    return o.limiter == Limiter::Invalid ? 0 : o.threads_per_xe_core;
  };
  // GRF: the modes are the only register counts a kernel can be compiled for.
  std::vector<CurveStep> grf;
  for (int count : {device.grf_small, device.grf_large}) {
    if (count <= 0 || (count == device.grf_large && device.threads_per_eu_large == 0)) continue;
    IntelResources r = base;
    r.grf_count = count;
    const int from = grf.empty() ? 0 : grf.back().x_to + 1;
    if (!grf.empty() && grf.back().level == level(r))
      grf.back().x_to = count;
    else
      grf.push_back({from, count, level(r)});
  }
  chart.curves.push_back(finish(CurveAxis::Registers, std::move(grf), base.grf_count, true));
  const int simd = std::max(base.simd, 1);
  const int block_max = std::max(largestBlock(k.launch, device.max_work_group_size), base.work_group_size);
  chart.curves.push_back(finish(CurveAxis::BlockSize,
                                sweep(1, simd, block_max, simd,
                                      [&](int x) {
                                        IntelResources r = base;
                                        r.work_group_size = x;
                                        return level(r);
                                      }),
                                base.work_group_size, false));
  const int step = 1024;  // SLM is allocated in whole KiB steps (slm_steps_kib)
  chart.curves.push_back(finish(CurveAxis::Shared,
                                sweep(0, step, std::max(device.slm_per_work_group, roundUp(base.slm_bytes, step)), step,
                                      [&](int x) {
                                        IntelResources r = base;
                                        r.slm_bytes = x;
                                        return level(r);
                                      }),
                                base.slm_bytes, true));
}

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

OccupancyChart occupancyChart(const ModelledKernel &kernel) {
  OccupancyChart chart;
  chart.vendor = kernel.summary.vendor;
  chart.level = kernel.summary.level;
  chart.max_level = kernel.summary.max_level;
  chart.limiter = kernel.summary.limiter;
  if (chart.limiter == Limiter::Invalid || chart.limiter == Limiter::Unresolved || chart.limiter == Limiter::Unknown)
    return chart;
  if (const auto *amd = std::get_if<AmdKernelModel>(&kernel.model))
    amdChart(kernel, *amd, chart);
  else if (const auto *cuda = std::get_if<CudaKernelModel>(&kernel.model))
    cudaChart(kernel, *cuda, chart);
  else if (const auto *intel = std::get_if<IntelKernelModel>(&kernel.model))
    intelChart(kernel, *intel, chart);
  // The limiting resource's curve first.
  const CurveAxis first = axisOf(chart.limiter);
  std::stable_partition(chart.curves.begin(), chart.curves.end(),
                        [first](const OccupancyCurve &c) { return c.axis == first; });
  return chart;
}

}  // namespace regscope
