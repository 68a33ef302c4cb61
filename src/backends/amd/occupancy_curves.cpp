// The AMD occupancy curves: computeOccupancy run again with one resource
// changed (VGPRs, workgroup size, LDS).
#include <algorithm>
#include <climits>

#include "regscope/backends/amd/backend.h"
#include "regscope/model/occupancy_curves.h"

namespace regscope {

using namespace curves;

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

}  // namespace regscope
