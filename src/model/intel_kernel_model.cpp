// The model stage for one Intel kernel record: its launch, the Xe model, and
// the vendor-neutral summary in hardware threads per Xe-core.
#include <algorithm>

#include "regscope/model/kernel_model.h"

namespace regscope {
namespace {

// No reqd_work_group_size and no --block-size: a common work-group size, as
// the NVIDIA model assumes 256 threads per block.
constexpr int kDefaultIntelWorkGroupSize = 256;

int value(const KernelRecord &r, Field f) { return static_cast<int>(r.value(f)); }

}  // namespace

ModelledKernel modelIntelKernel(const KernelRecord &record, const IntelDevice &device, const IntelTarget &target,
                                const LaunchOverrides &launch) {
  ModelledKernel m;
  m.launch.dynamic_shared = launch.dynamic_slm;
  if (record.has(Field::MaxWorkgroupSize)) {
    m.launch.block_size = value(record, Field::MaxWorkgroupSize);
    m.launch.source = BlockSizeSource::RequiredWorkGroupSize;
  } else if (launch.block_size) {
    m.launch.block_size = *launch.block_size;
    m.launch.source = launch.block_size_source;
  } else {
    m.launch.block_size = kDefaultIntelWorkGroupSize;
    m.launch.source = BlockSizeSource::Default;
  }
  IntelKernelModel intel;
  intel.device = device;
  intel.target = target;
  if (record.has(Field::GrfCount)) intel.resources.grf_count = value(record, Field::GrfCount);
  if (record.has(Field::SimdSize)) intel.resources.simd = value(record, Field::SimdSize);
  intel.resources.work_group_size = m.launch.block_size;
  intel.resources.slm_bytes = value(record, Field::SlmBytes) + m.launch.dynamic_shared;
  intel.resources.barriers = value(record, Field::Barriers);
  intel.occupancy = computeIntelOccupancy(device, intel.resources);
  intel.spill_bytes = intelSpillBytes(device, record);

  const IntelOccupancy &o = intel.occupancy;
  const int simd = std::max(intel.resources.simd, 1);
  m.summary = {Vendor::Intel, o.threads_per_xe_core, o.max_thread_slots, o.by_threads * o.threads_per_work_group,
               intel.resources.grf_count, static_cast<int>(intel.spill_bytes),
               // Scratch is per hardware thread, SIMD lanes wide; per lane, as AMD counts it.
               static_cast<int>((record.value(Field::ScratchPerThread) + simd - 1) / simd), o.limiter};
  m.model = std::move(intel);
  return m;
}

}  // namespace regscope
