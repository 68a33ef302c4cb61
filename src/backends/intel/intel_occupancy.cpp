// The Xe occupancy model:
//   threads per work-group  = ceil(work-group size / SIMD)
//   thread slots            = EUs per Xe-core x threads per EU (halved in large GRF mode)
//   work-groups             = min(thread slots / threads per work-group,
//                                 SLM per Xe-core / the work-group's SLM rounded up to a step,
//                                 barrier registers / the kernel's barriers,
//                                 work-group slots)
//   fraction                = work-groups x threads per work-group / small-GRF thread slots
// docs/intel.md shows the arithmetic and where each rule comes from.
#include "regscope/backends/intel/intel_occupancy.h"

#include <algorithm>

namespace regscope {
namespace {

bool runsSimd(const IntelDevice &device, int simd) {
  return std::find(device.simd_widths.begin(), device.simd_widths.end(), simd) != device.simd_widths.end();
}

IntelOccupancy::Invalid invalidLaunch(const IntelDevice &device, const IntelResources &r, const IntelOccupancy &o) {
  using Invalid = IntelOccupancy::Invalid;
  if (o.threads_per_eu == 0) return Invalid::GrfCount;
  if (!runsSimd(device, r.simd)) return Invalid::Simd;
  if (r.work_group_size < 1 || r.work_group_size > device.max_work_group_size) return Invalid::WorkGroupSize;
  if (o.threads_per_work_group > o.thread_slots) return Invalid::ThreadsPerWorkGroup;
  if (r.slm_bytes < 0 || o.slm_allocated < 0) return Invalid::Slm;
  return Invalid::None;
}

// The largest SLM step that lets an Xe-core hold `work_groups`; 0 if none.
int slmStepFor(const IntelDevice &device, int work_groups) {
  int best = 0;
  for (int kib : device.slm_steps_kib)
    if (kib > 0 && device.slm_per_xe_core / (kib * 1024) >= work_groups) best = kib * 1024;
  return best;
}

std::optional<IntelNextStep> nextStep(const IntelDevice &device, const IntelResources &r, const IntelOccupancy &o) {
  if (o.threads_per_xe_core >= o.max_thread_slots) return std::nullopt;
  IntelNextStep next;
  next.work_groups_per_xe_core = o.work_groups_per_xe_core + 1;
  next.threads_per_xe_core = next.work_groups_per_xe_core * o.threads_per_work_group;
  // Work-group slots and barrier registers are the hardware's: no kernel change adds one.
  if (next.work_groups_per_xe_core > o.by_work_group_slots || next.work_groups_per_xe_core > o.by_barriers)
    return std::nullopt;
  if (next.threads_per_xe_core > o.thread_slots) {
    if (r.grf_count <= device.grf_small || next.threads_per_xe_core > o.max_thread_slots) return std::nullopt;
    next.small_grf = true;  // large GRF mode halved the slots; small GRF mode has them
  }
  if (o.slm_allocated > 0 && next.work_groups_per_xe_core > o.by_slm) {
    const int step = slmStepFor(device, next.work_groups_per_xe_core);
    next.slm_bytes_to_free = r.slm_bytes - step;
  }
  return next;
}

}  // namespace

int intelThreadsPerEu(const IntelDevice &device, int grf_count) {
  if (grf_count <= device.grf_small) return device.threads_per_eu;
  if (device.threads_per_eu_large > 0 && grf_count <= device.grf_large) return device.threads_per_eu_large;
  return 0;
}

int intelSlmAllocation(const IntelDevice &device, int bytes) {
  if (bytes <= 0) return 0;
  if (bytes > device.slm_per_work_group) return -1;
  for (int kib : device.slm_steps_kib)
    if (kib * 1024 >= bytes) return kib * 1024;
  return -1;
}

IntelOccupancy computeIntelOccupancy(const IntelDevice &device, const IntelResources &r) {
  IntelOccupancy o;
  o.threads_per_eu = intelThreadsPerEu(device, r.grf_count);
  o.thread_slots = device.eus_per_xe_core * o.threads_per_eu;
  o.max_thread_slots = device.eus_per_xe_core * device.threads_per_eu;
  o.threads_per_work_group = r.simd > 0 && r.work_group_size > 0 ? (r.work_group_size + r.simd - 1) / r.simd : 0;
  o.slm_allocated = intelSlmAllocation(device, r.slm_bytes);
  o.invalid = invalidLaunch(device, r, o);
  if (o.invalid != IntelOccupancy::Invalid::None) return o;

  const int slots = device.max_work_groups_per_xe_core;
  o.by_threads = o.thread_slots / o.threads_per_work_group;
  o.by_slm = o.slm_allocated > 0 ? device.slm_per_xe_core / o.slm_allocated : slots;
  o.by_barriers = r.barriers > 0 ? device.barriers_per_xe_core / r.barriers : slots;
  o.by_work_group_slots = slots;
  o.work_groups_per_xe_core = std::min({o.by_threads, o.by_slm, o.by_barriers, o.by_work_group_slots});
  o.threads_per_xe_core = o.work_groups_per_xe_core * o.threads_per_work_group;
  o.fraction = static_cast<double>(o.threads_per_xe_core) / o.max_thread_slots;
  // Ties name what the kernel can change first: its GRF mode, then its SLM.
  const int wgs = o.work_groups_per_xe_core;
  o.limiter = o.threads_per_xe_core >= o.max_thread_slots ? Limiter::None
              : wgs == o.by_threads                       ? Limiter::ThreadSlots
              : o.slm_allocated > 0 && wgs == o.by_slm    ? Limiter::Slm
              : r.barriers > 0 && wgs == o.by_barriers    ? Limiter::Barriers
                                                          : Limiter::Workgroup;
  o.next = nextStep(device, r, o);
  return o;
}

GrfRecommendation recommendGrfMode(const IntelDevice &device, std::int64_t small_grf_spill_bytes) {
  if (device.threads_per_eu_large == 0) return {GrfMode::Small, GrfReason::NoLargeMode, small_grf_spill_bytes};
  if (small_grf_spill_bytes > 0) return {GrfMode::Large, GrfReason::SmallSpills, small_grf_spill_bytes};
  return {GrfMode::Small, GrfReason::SmallDoesNotSpill, small_grf_spill_bytes};
}

const char *grfReasonName(GrfReason reason) {
  switch (reason) {
    case GrfReason::SmallSpills:
      return "small_spills";
    case GrfReason::SmallDoesNotSpill:
      return "small_does_not_spill";
    case GrfReason::NoLargeMode:
      return "no_large_mode";
  }
  return "?";
}

std::int64_t intelSpillBytes(const IntelDevice &device, std::optional<std::int64_t> spill_bytes,
                             std::optional<std::int64_t> spill_grfs) {
  if (spill_bytes) return *spill_bytes;
  if (!spill_grfs) return 0;
  std::int64_t bytes;  // a crafted GRF count could overflow the product: saturated instead
  if (__builtin_mul_overflow(*spill_grfs, std::int64_t{device.grf_bytes}, &bytes))
    return *spill_grfs < 0 ? INT64_MIN : INT64_MAX;
  return bytes;
}

std::int64_t intelSpillBytes(const IntelDevice &device, const KernelRecord &record) {
  auto figure = [&](Field f) { return record.has(f) ? std::optional<std::int64_t>(record.value(f)) : std::nullopt; };
  return intelSpillBytes(device, figure(Field::SpillBytes), figure(Field::SpillGrfs));
}

std::vector<IntelTableRow> intelOccupancyTable(const IntelDevice &device, int work_group_size, bool barrier) {
  std::vector<IntelTableRow> rows;
  std::vector<int> grf_counts = {device.grf_small};
  if (device.threads_per_eu_large > 0) grf_counts.push_back(device.grf_large);
  for (int grf : grf_counts)
    for (int simd : device.simd_widths)
      for (int kib : device.slm_steps_kib) {
        if (kib * 1024 > device.slm_per_work_group) continue;
        const IntelResources r{grf, simd, work_group_size, kib * 1024, barrier ? 1 : 0};
        rows.push_back({grf, simd, kib, computeIntelOccupancy(device, r)});
      }
  return rows;
}

}  // namespace regscope
