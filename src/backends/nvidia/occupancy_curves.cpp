// The NVIDIA occupancy curves: computeCudaOccupancy run again with one
// resource changed (registers, block size, shared memory).
#include <algorithm>
#include <climits>

#include "regscope/backends/nvidia/backend.h"
#include "regscope/model/occupancy_curves.h"

namespace regscope {

using namespace curves;
namespace {

constexpr int kWarpSize = 32;

}  // namespace

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
  const int shared = cudaSharedBytesSaturated(base);
  const int step = std::max(arch.shared_granule, 1);
  chart.curves.push_back(finish(CurveAxis::Shared,
                                sweep(0, step, std::max(arch.shared_per_block_optin, roundUp(shared, step)), step,
                                      at([](CudaResources &r, int x) {
                                        r.static_shared = x;
                                        r.dynamic_shared = 0;
                                      })),
                                shared, true));
}

}  // namespace regscope
