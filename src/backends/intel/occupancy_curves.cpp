// The Intel occupancy curves: computeIntelOccupancy run again with one
// resource changed (GRF mode, work-group size, SLM).
#include <algorithm>
#include <climits>

#include "regscope/backends/intel/backend.h"
#include "regscope/model/occupancy_curves.h"

namespace regscope {

using namespace curves;

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

}  // namespace regscope
