// The NVIDIA backend's model of one kernel record: the launch, the CUDA
// occupancy calculator's rules on the record's arch, and the summary in
// warps per SM.
#include <algorithm>
#include <climits>

#include "regscope/backends/nvidia/backend.h"
#include "regscope/model/model_figures.h"

namespace regscope {
namespace {

constexpr int kDefaultCudaBlockSize = 256;  // no launch bounds, no --block-size

}  // namespace

std::vector<Field> nvidiaRequiredFigures() {
  // ptxas leaves out "bytes smem" when there is none: shared memory is not required.
  return {Field::Registers, Field::StackBytes, Field::SpillStoreBytes, Field::SpillLoadBytes};
}

ModelledKernel modelCudaKernel(const KernelRecord &record, const CudaArch &arch, const LaunchOverrides &launch) {
  ModelledKernel m;
  const Figures value(record);
  m.unknown = missingFigures(record, nvidiaRequiredFigures());
  m.impossible = figureOutOfRange(record);
  m.launch = chooseLaunch(record, value, launch, Field::MaxThreadsPerBlock, BlockSizeSource::LaunchBounds,
                          kDefaultCudaBlockSize, launch.dynamic_shared);
  if (m.impossible.empty() && record.has(Field::Registers) &&
      record.value(Field::Registers) > arch.max_registers_per_thread)
    m.impossible = std::to_string(record.value(Field::Registers)) + " registers per thread, more than the " +
                   std::to_string(arch.max_registers_per_thread) + " a thread can have";
  if (m.impossible.empty() && launch.dynamic_shared < 0)
    m.impossible = "dynamic shared memory of " + std::to_string(launch.dynamic_shared) + " bytes";
  // Unknown dynamic shared memory at a launch: no occupancy until it is given.
  if (!m.impossible.empty() || occupancyUnknown(m.unknown) || !m.launch.dynamic_unread_at.empty()) {
    CudaKernelModel cuda{arch, {}, {}};
    cuda.occupancy.max_warps_per_sm = arch.max_warps_per_sm;
    cuda.occupancy.limiter = m.impossible.empty() ? Limiter::Unknown : Limiter::Invalid;
    cuda.resources.block_size = m.launch.block_size;
    m.summary.vendor = Vendor::Nvidia;
    m.summary.max_level = arch.max_warps_per_sm;
    m.summary.limiter = cuda.occupancy.limiter;
    m.model = std::move(cuda);
    return m;
  }
  CudaResources resources;
  resources.registers = value(Field::Registers);
  resources.static_shared = value(Field::SharedBytes);
  resources.dynamic_shared = m.launch.dynamic_shared;
  resources.block_size = m.launch.block_size;
  resources.carveout_percent = launch.carveout_percent;
  CudaKernelModel cuda{arch, resources, computeCudaOccupancy(arch, resources)};
  if (m.launch.exceeds_bound()) {  // __launch_bounds__ refuses a larger block
    cuda.occupancy = CudaOccupancy{};
    cuda.occupancy.max_warps_per_sm = arch.max_warps_per_sm;
    cuda.occupancy.limiter = Limiter::Invalid;
    cuda.occupancy.invalid = CudaOccupancy::Invalid::LaunchBounds;
  }
  const int warps_per_block = m.launch.block_size / 32 + (m.launch.block_size % 32 != 0);
  m.summary = {Vendor::Nvidia,
               cuda.occupancy.warps_per_sm,
               cuda.occupancy.max_warps_per_sm,
               std::min(cuda.occupancy.by_registers, cuda.occupancy.by_warps) * warps_per_block,
               resources.registers,
               value(Field::SpillStoreBytes),
               value(Field::StackBytes),
               cuda.occupancy.limiter,
               /*registers_known=*/true,
               /*spills_known=*/m.knows(Field::SpillStoreBytes),
               /*scratch_known=*/m.knows(Field::StackBytes)};
  m.model = std::move(cuda);
  return m;
}

}  // namespace regscope
