// The Xe occupancy model: how many work-groups, and so hardware threads, one
// Xe-core (sub-slice) holds, over the rows of target/intel.h. It follows
// Intel's GPU Occupancy Calculator (compute_ss_occupancy) and compute-runtime's
// KernelHelper::getMaxWorkGroupCount; docs/intel.md shows the arithmetic.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "regscope/collect/kernel_record.h"
#include "regscope/model/limiter.h"
#include "regscope/target/intel.h"

namespace regscope {

struct IntelResources {
  int grf_count = 128;  // GRF registers per thread (128 small, 256 large GRF mode)
  int simd = 32;        // the kernel's SIMD width: work-items per hardware thread
  int work_group_size = 256;
  int slm_bytes = 0;  // static + dynamic, per work-group
  int barriers = 0;   // the kernel's barrier_count; 0: it takes no barrier register
};

// What it takes to hold one more work-group per Xe-core.
struct IntelNextStep {
  int work_groups_per_xe_core = 0;
  int threads_per_xe_core = 0;
  int slm_bytes_to_free = 0;  // 0: SLM already allows it
  bool small_grf = false;     // only small GRF mode's thread slots allow it
};

struct IntelOccupancy {
  int threads_per_eu = 0;
  int thread_slots = 0;            // hardware threads per Xe-core in this GRF mode
  int max_thread_slots = 0;        // per Xe-core in small GRF mode: the 100% mark
  int threads_per_work_group = 0;  // ceil(work-group size / SIMD)
  int slm_allocated = 0;           // per work-group, rounded up to the allocation step
  // Work-groups per Xe-core each resource allows alone.
  int by_threads = 0, by_slm = 0, by_barriers = 0, by_work_group_slots = 0;
  int work_groups_per_xe_core = 0;
  int threads_per_xe_core = 0;  // work-groups x threads per work-group
  double fraction = 0;          // threads_per_xe_core / max_thread_slots
  // ThreadSlots, Slm, Barriers, Workgroup (work-group slots), None (every
  // small-GRF thread slot used) or Invalid (the launch cannot run).
  Limiter limiter = Limiter::Invalid;
  std::optional<IntelNextStep> next;  // none at 100%, or when no SLM or GRF change reaches it
  // Why the launch cannot run, when limiter is Invalid.
  enum class Invalid { None, GrfCount, Simd, WorkGroupSize, ThreadsPerWorkGroup, Slm } invalid = Invalid::None;
};

IntelOccupancy computeIntelOccupancy(const IntelDevice &device, const IntelResources &r);

// Hardware threads per EU for a kernel compiled with `grf_count` registers
// (0 when the device cannot run it).
int intelThreadsPerEu(const IntelDevice &device, int grf_count);
// The SLM a work-group is given for `bytes`: the next allocation step, in
// bytes; 0 for 0; -1 when `bytes` is over the per-work-group limit.
int intelSlmAllocation(const IntelDevice &device, int bytes);

// The GRF mode to keep, by the rule Intel's own stacks follow: large GRF when
// the kernel spills in small GRF mode, small GRF otherwise (for its threads).
enum class GrfReason { SmallSpills, SmallDoesNotSpill, NoLargeMode };
struct GrfRecommendation {
  GrfMode mode = GrfMode::Small;
  GrfReason reason = GrfReason::SmallDoesNotSpill;
  std::int64_t small_grf_spill_bytes = 0;  // what the rule read
};
GrfRecommendation recommendGrfMode(const IntelDevice &device, std::int64_t small_grf_spill_bytes);
// "small_spills", "small_does_not_spill", "no_large_mode" (JSON).
const char *grfReasonName(GrfReason reason);

// A kernel record's spill bytes per hardware thread: SpillBytes when a source
// gave them, else SpillGrfs x the device's GRF size (saturated at int64's
// ends); 0 when neither is known.
std::int64_t intelSpillBytes(const IntelDevice &device, const KernelRecord &record);
std::int64_t intelSpillBytes(const IntelDevice &device, std::optional<std::int64_t> spill_bytes,
                             std::optional<std::int64_t> spill_grfs);

// Work-groups per Xe-core for each GRF mode x SIMD width x SLM step (the
// `table` subcommand), at one work-group size, with or without a barrier.
struct IntelTableRow {
  int grf_count, simd, slm_kib;
  IntelOccupancy occupancy;
};
std::vector<IntelTableRow> intelOccupancyTable(const IntelDevice &device, int work_group_size, bool barrier);

}  // namespace regscope
