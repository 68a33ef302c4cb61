// The Intel backend's model of one kernel record: its launch, the Xe model, and
// the vendor-neutral summary in hardware threads per Xe-core.
#include <algorithm>
#include <climits>

#include "regscope/backends/intel/backend.h"
#include "regscope/model/model_figures.h"

namespace regscope {
namespace {

// No reqd_work_group_size and no --block-size: a common work-group size, as
// the NVIDIA model assumes 256 threads per block.
constexpr int kDefaultIntelWorkGroupSize = 256;

}  // namespace

std::vector<Field> intelRequiredFigures() { return {Field::GrfCount, Field::SimdSize}; }

ModelledKernel modelIntelKernel(const KernelRecord &record, const IntelDevice &device, const IntelTarget &target,
                                const LaunchOverrides &launch) {
  ModelledKernel m;
  const Figures value(record);  // a crafted .ze_info can say anything: checked below
  m.unknown = missingFigures(record, intelRequiredFigures());
  m.impossible = figureOutOfRange(record);
  if (m.impossible.empty() && record.has(Field::GrfCount) && record.value(Field::GrfCount) < 1)
    m.impossible = "grf_count " + std::to_string(record.value(Field::GrfCount)) + ": a kernel has GRF registers";
  if (m.impossible.empty() && launch.dynamic_slm < 0)
    m.impossible = "dynamic SLM of " + std::to_string(launch.dynamic_slm) + " bytes";
  m.launch.dynamic_shared = launch.dynamic_slm;
  if (record.has(Field::MaxWorkgroupSize)) {
    m.launch.block_size = value(Field::MaxWorkgroupSize);
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
  if (record.has(Field::GrfCount)) intel.resources.grf_count = value(Field::GrfCount);
  if (record.has(Field::SimdSize)) intel.resources.simd = value(Field::SimdSize);
  intel.resources.work_group_size = m.launch.block_size;
  intel.resources.slm_bytes = addBytes(value(Field::SlmBytes), m.launch.dynamic_shared);  // --dynamic-slm is any int
  intel.resources.barriers = value(Field::Barriers);
  const bool unknown = std::any_of(m.unknown.begin(), m.unknown.end(),
                                   [](Field f) { return f == Field::GrfCount || f == Field::SimdSize; });
  if (!m.impossible.empty() || unknown) {
    intel.occupancy.max_thread_slots = device.eus_per_xe_core * device.threads_per_eu;
    intel.occupancy.limiter = m.impossible.empty() ? Limiter::Unknown : Limiter::Invalid;
    m.summary = {Vendor::Intel, 0, intel.occupancy.max_thread_slots, 0, 0, 0, 0, intel.occupancy.limiter};
    m.model = std::move(intel);
    return m;
  }
  intel.occupancy = computeIntelOccupancy(device, intel.resources);
  // Through value(): the figures were checked to fit kMaxModelFigure, so
  // their product fits int64.
  auto figure = [&](Field f) { return record.has(f) ? std::optional<std::int64_t>(value(f)) : std::nullopt; };
  intel.spill_bytes = intelSpillBytes(device, figure(Field::SpillBytes), figure(Field::SpillGrfs));
  intel.spill_known = record.has(Field::SpillBytes) || record.has(Field::SpillGrfs);

  const IntelOccupancy &o = intel.occupancy;
  const int simd = std::max(intel.resources.simd, 1);
  m.summary = {Vendor::Intel, o.threads_per_xe_core, o.max_thread_slots, o.by_threads * o.threads_per_work_group,
               // The summary is int: more than 2 GiB of spill per thread (only 2^25 spilled GRFs
               // or more, far past every target) is saturated here; spill_bytes keeps the figure.
               intel.resources.grf_count, static_cast<int>(std::min<std::int64_t>(intel.spill_bytes, INT_MAX)),
               // Scratch is per hardware thread, SIMD lanes wide; per lane, as AMD counts it.
               (value(Field::ScratchPerThread) + simd - 1) / simd, o.limiter,
               /*registers_known=*/true, /*spills_known=*/intel.spill_known,
               /*scratch_known=*/m.knows(Field::ScratchPerThread)};
  m.model = std::move(intel);
  return m;
}

}  // namespace regscope
