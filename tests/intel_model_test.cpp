// The Xe occupancy model and the device rows. The expected work-group counts
// of the PVC tables are Intel's GPU Occupancy Calculator's own results
// (compute_ss_occupancy in oneAPI-samples Tools/GPU-Occupancy-Calculator,
// run for these inputs; docs/intel.md shows the arithmetic).
#include <gtest/gtest.h>

#include "regscope/backend/modelled_kernel.h"
#include "regscope/backends/intel/backend.h"
#include "regscope/backends/intel/collect.h"
#include "regscope/backends/intel/intel_occupancy.h"
#include "regscope/model/kernel_model.h"
#include "regscope/support/error.h"
#include "regscope/target/intel.h"
#include "test_util.h"

namespace regscope {
namespace {

const IntelDevice &device(const char *name) {
  const IntelDevice *d = findIntelDevice(name);
  if (!d) throw std::runtime_error(std::string("no device ") + name);
  return *d;
}

// Work-groups per Xe-core for each SLM step 0, 1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128 KiB.
struct TableCase {
  int grf, simd;
  std::vector<int> work_groups;
};

void expectTable(int work_group_size, bool barrier, const std::vector<TableCase> &cases) {
  const IntelDevice &pvc = device("pvc");
  const std::vector<IntelTableRow> rows = intelOccupancyTable(pvc, work_group_size, barrier);
  ASSERT_EQ(rows.size(), 2u * 2u * 12u);  // GRF modes x SIMD widths x SLM steps
  std::size_t at = 0;
  for (const TableCase &c : cases)
    for (std::size_t step = 0; step < c.work_groups.size(); ++step, ++at) {
      const IntelTableRow &row = rows[at];
      SCOPED_TRACE(std::to_string(row.grf_count) + " GRF, SIMD" + std::to_string(row.simd) + ", " +
                   std::to_string(row.slm_kib) + " KiB");
      EXPECT_EQ(row.grf_count, c.grf);
      EXPECT_EQ(row.simd, c.simd);
      EXPECT_EQ(row.slm_kib, pvc.slm_steps_kib[step]);
      const IntelOccupancy &o = row.occupancy;
      EXPECT_EQ(o.work_groups_per_xe_core, c.work_groups[step]);
      EXPECT_EQ(o.threads_per_work_group, work_group_size / c.simd);
      EXPECT_EQ(o.threads_per_xe_core, c.work_groups[step] * work_group_size / c.simd);
      EXPECT_DOUBLE_EQ(o.fraction, o.threads_per_xe_core / 64.0);  // 8 EUs x 8 threads
      EXPECT_EQ(o.thread_slots, c.grf == 128 ? 64 : 32);
    }
}

TEST(IntelModel, PvcTableWorkGroup256) {
  expectTable(256, false,
              {{128, 16, {4, 4, 4, 4, 4, 4, 4, 4, 2, 2, 1, 1}},
               {128, 32, {8, 8, 8, 8, 8, 8, 5, 4, 2, 2, 1, 1}},
               {256, 16, {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1}},
               {256, 32, {4, 4, 4, 4, 4, 4, 4, 4, 2, 2, 1, 1}}});
}

TEST(IntelModel, PvcTableWorkGroup64WithABarrier) {
  expectTable(64, true,
              {{128, 16, {16, 16, 16, 16, 16, 8, 5, 4, 2, 2, 1, 1}},
               {128, 32, {32, 32, 32, 32, 16, 8, 5, 4, 2, 2, 1, 1}},
               {256, 16, {8, 8, 8, 8, 8, 8, 5, 4, 2, 2, 1, 1}},
               {256, 32, {16, 16, 16, 16, 16, 8, 5, 4, 2, 2, 1, 1}}});
}

TEST(IntelModel, ThreadsPerEuBySmallAndLargeGrf) {
  EXPECT_EQ(intelThreadsPerEu(device("pvc"), 128), 8);
  EXPECT_EQ(intelThreadsPerEu(device("pvc"), 256), 4);
  EXPECT_EQ(intelThreadsPerEu(device("dg2"), 128), 8);
  EXPECT_EQ(intelThreadsPerEu(device("dg2"), 256), 4);
  EXPECT_EQ(intelThreadsPerEu(device("tgllp"), 128), 7);
  EXPECT_EQ(intelThreadsPerEu(device("tgllp"), 256), 0);  // no large GRF mode
}

TEST(IntelModel, SlmIsAllocatedInSteps) {
  EXPECT_EQ(intelSlmAllocation(device("pvc"), 0), 0);
  EXPECT_EQ(intelSlmAllocation(device("pvc"), 4224), 8192);
  EXPECT_EQ(intelSlmAllocation(device("pvc"), 16385), 24576);  // PVC has a 24 KiB step
  EXPECT_EQ(intelSlmAllocation(device("dg2"), 16385), 32768);  // DG2 has powers of two
  EXPECT_EQ(intelSlmAllocation(device("pvc"), 131072), 131072);
  EXPECT_EQ(intelSlmAllocation(device("pvc"), 131073), -1);
  EXPECT_EQ(intelSlmAllocation(device("dg2"), 65537), -1);  // 64 KiB per work-group on DG2
}

TEST(IntelModel, LargeGrfHalvesTheThreadsAndSmallGrfIsTheNextStep) {
  const IntelOccupancy o = computeIntelOccupancy(device("pvc"), {256, 32, 256, 0, 0});
  EXPECT_EQ(o.threads_per_eu, 4);
  EXPECT_EQ(o.work_groups_per_xe_core, 4);  // 32 slots / 8 threads
  EXPECT_DOUBLE_EQ(o.fraction, 0.5);
  EXPECT_EQ(o.limiter, Limiter::ThreadSlots);
  ASSERT_TRUE(o.next);
  EXPECT_EQ(o.next->work_groups_per_xe_core, 5);
  EXPECT_EQ(o.next->threads_per_xe_core, 40);
  EXPECT_TRUE(o.next->small_grf);
  EXPECT_EQ(o.next->slm_bytes_to_free, 0);
  // In small GRF mode the same work-groups fill the Xe-core.
  const IntelOccupancy small = computeIntelOccupancy(device("pvc"), {128, 32, 256, 0, 0});
  EXPECT_EQ(small.work_groups_per_xe_core, 8);
  EXPECT_DOUBLE_EQ(small.fraction, 1.0);
  EXPECT_EQ(small.limiter, Limiter::None);  // every thread slot used
  EXPECT_FALSE(small.next);
}

TEST(IntelModel, SlmLimitsAndSaysHowMuchToFree) {
  // 40 KiB rounds up to 48 KiB: 128 / 48 = 2 work-groups. Three need the 32 KiB step.
  const IntelOccupancy o = computeIntelOccupancy(device("pvc"), {128, 32, 256, 40 * 1024, 1});
  EXPECT_EQ(o.slm_allocated, 48 * 1024);
  EXPECT_EQ(o.by_slm, 2);
  EXPECT_EQ(o.by_threads, 8);
  EXPECT_EQ(o.by_barriers, 32);
  EXPECT_EQ(o.work_groups_per_xe_core, 2);
  EXPECT_EQ(o.limiter, Limiter::Slm);
  ASSERT_TRUE(o.next);
  EXPECT_EQ(o.next->work_groups_per_xe_core, 3);
  EXPECT_EQ(o.next->slm_bytes_to_free, 8 * 1024);
  EXPECT_FALSE(o.next->small_grf);
}

TEST(IntelModel, BarrierSlotsLimitSmallWorkGroups) {
  // One thread per work-group: 64 fit by threads, 32 by barrier registers.
  const IntelOccupancy o = computeIntelOccupancy(device("pvc"), {128, 32, 32, 0, 1});
  EXPECT_EQ(o.by_threads, 64);
  EXPECT_EQ(o.by_barriers, 32);
  EXPECT_EQ(o.work_groups_per_xe_core, 32);
  EXPECT_EQ(o.limiter, Limiter::Barriers);
  EXPECT_FALSE(o.next);  // barrier registers are the hardware's
  // Two named barriers take two registers each work-group.
  EXPECT_EQ(computeIntelOccupancy(device("pvc"), {128, 32, 32, 0, 2}).work_groups_per_xe_core, 16);
  // Without a barrier the work-group slots are the cap.
  const IntelOccupancy free = computeIntelOccupancy(device("pvc"), {128, 32, 32, 0, 0});
  EXPECT_EQ(free.work_groups_per_xe_core, 64);
  EXPECT_DOUBLE_EQ(free.fraction, 1.0);
}

TEST(IntelModel, WorkGroupsThatCannotRun) {
  using Invalid = IntelOccupancy::Invalid;
  const IntelDevice &pvc = device("pvc");
  const IntelOccupancy big = computeIntelOccupancy(pvc, {256, 16, 1024, 0, 0});
  EXPECT_EQ(big.limiter, Limiter::Invalid);  // 64 threads, 32 slots in large GRF mode
  EXPECT_EQ(big.invalid, Invalid::ThreadsPerWorkGroup);
  EXPECT_EQ(big.threads_per_work_group, 64);
  EXPECT_EQ(computeIntelOccupancy(pvc, {128, 16, 1024, 0, 0}).work_groups_per_xe_core, 1);
  EXPECT_EQ(computeIntelOccupancy(pvc, {128, 32, 2048, 0, 0}).invalid, Invalid::WorkGroupSize);
  EXPECT_EQ(computeIntelOccupancy(pvc, {128, 8, 256, 0, 0}).invalid, Invalid::Simd);
  EXPECT_EQ(computeIntelOccupancy(pvc, {128, 32, 256, 200 * 1024, 0}).invalid, Invalid::Slm);
  EXPECT_EQ(computeIntelOccupancy(pvc, {512, 32, 256, 0, 0}).invalid, Invalid::GrfCount);
  EXPECT_EQ(computeIntelOccupancy(device("tgllp"), {256, 32, 256, 0, 0}).invalid, Invalid::GrfCount);
  EXPECT_EQ(computeIntelOccupancy(device("tgllp"), {256, 32, 256, 0, 0}).limiter, Limiter::Invalid);
}

TEST(IntelModel, Dg2AndTgllpRows) {
  const IntelOccupancy dg2 = computeIntelOccupancy(device("dg2"), {128, 32, 256, 64 * 1024, 1});
  EXPECT_EQ(dg2.max_thread_slots, 128);       // 16 EUs x 8 threads
  EXPECT_EQ(dg2.work_groups_per_xe_core, 2);  // 128 KiB / 64 KiB
  EXPECT_DOUBLE_EQ(dg2.fraction, 16.0 / 128);
  EXPECT_EQ(dg2.limiter, Limiter::Slm);
  const IntelOccupancy tgl = computeIntelOccupancy(device("tgllp"), {128, 16, 256, 0, 0});
  EXPECT_EQ(tgl.max_thread_slots, 112);  // 16 EUs x 7 threads
  EXPECT_EQ(tgl.work_groups_per_xe_core, 7);
  EXPECT_DOUBLE_EQ(tgl.fraction, 1.0);
}

TEST(IntelModel, DevicesByOclocNameAliasAndProduct) {
  EXPECT_EQ(findIntelDevice("pvc")->name, "pvc");
  EXPECT_EQ(findIntelDevice("PVC")->name, "pvc");
  EXPECT_EQ(findIntelDevice("Max 1550")->name, "pvc");
  EXPECT_EQ(findIntelDevice("acm-g10")->name, "dg2");
  EXPECT_EQ(findIntelDevice("dg2-g11")->name, "dg2");
  EXPECT_EQ(findIntelDevice("adl-p")->name, "tgllp");
  EXPECT_EQ(findIntelDevice("skl"), nullptr);
  EXPECT_EQ(findIntelDevice("gfx90a"), nullptr);
  const std::string known = knownIntelDeviceList();
  for (const char *name : {"pvc (Max 1100/Max 1450/Max 1550)", "dg2 (", "dg2-g10", "tgllp (", "adl-p"})
    EXPECT_NE(known.find(name), std::string::npos) << known;
  EXPECT_THROW(requireIntelDevice("bogus"), Error);
  // What ocloc's -device gets: its own names as they are, products as the row.
  EXPECT_EQ(oclocDeviceName("acm-g10"), "acm-g10");
  EXPECT_EQ(oclocDeviceName("PVC"), "pvc");
  EXPECT_EQ(oclocDeviceName("Max 1550"), "pvc");
  EXPECT_EQ(oclocDeviceName("Arc A770"), "dg2");
}

TEST(IntelModel, TargetNamesCarryTheGrfMode) {
  EXPECT_EQ(intelTargetName({"pvc", GrfMode::Small}), "pvc");
  EXPECT_EQ(intelTargetName({"pvc", GrfMode::Large}), "pvc:large-grf");
  EXPECT_EQ(intelTargetName({"dg2-g10", GrfMode::Auto}), "dg2-g10:auto-grf");
  for (GrfMode mode : {GrfMode::Small, GrfMode::Large, GrfMode::Auto}) {
    const IntelTarget back = parseIntelTarget(intelTargetName({"acm-g10", mode}));
    EXPECT_EQ(back.device, "acm-g10");
    EXPECT_EQ(back.grf, mode);
    EXPECT_EQ(grfModeByName(grfModeName(mode)), mode);
  }
  EXPECT_EQ(std::string(grfModeOption(GrfMode::Large)), "-cl-intel-256-GRF-per-thread");
  EXPECT_EQ(std::string(grfModeOption(GrfMode::Small)), "");
}

TEST(IntelModel, RecommendationFollowsIntelsRule) {
  EXPECT_EQ(recommendGrfMode(device("pvc"), 1792).mode, GrfMode::Large);
  EXPECT_EQ(recommendGrfMode(device("pvc"), 1792).reason, GrfReason::SmallSpills);
  EXPECT_EQ(recommendGrfMode(device("pvc"), 0).mode, GrfMode::Small);
  EXPECT_EQ(recommendGrfMode(device("pvc"), 0).reason, GrfReason::SmallDoesNotSpill);
  EXPECT_EQ(recommendGrfMode(device("tgllp"), 5000).mode, GrfMode::Small);
  EXPECT_EQ(recommendGrfMode(device("tgllp"), 5000).reason, GrfReason::NoLargeMode);
}

// IGC's own per-kernel choice (-cl-intel-enable-auto-large-GRF-mode) on the
// probe is the rule's: 256 GRF exactly for the kernels that spill with 128.
TEST(IntelModel, RecommendationAgreesWithIgcsAutoMode) {
  const IntelDevice &pvc = device("pvc");
  const std::vector<KernelFacts> small = parseOclocLog(test::fixture("ocloc-22.43/probe.pvc.small.log"), "pvc");
  const std::vector<KernelFacts> autos = parseZeInfo(test::fixture("ocloc-22.43/probe.pvc.auto.ze_info.yaml"), "pvc");
  ASSERT_EQ(autos.size(), 6u);
  for (const KernelFacts &k : autos) {
    std::int64_t spill = 0;
    for (const KernelFacts &w : small)
      if (w.name == k.name) spill = *w.get(Field::SpillGrfs) * pvc.grf_bytes;
    const GrfMode igc = k.get(Field::GrfCount) == 256 ? GrfMode::Large : GrfMode::Small;
    EXPECT_EQ(recommendGrfMode(pvc, spill).mode, igc) << k.name;
  }
}

TEST(IntelModel, RecordsThroughTheModelStage) {
  KernelRecord r;
  r.vendor = Vendor::Intel;
  auto set = [&](Field f, std::int64_t v) { r.values[static_cast<std::size_t>(f)] = v; };
  EXPECT_EQ(intelSpillBytes(device("pvc"), r), 0);
  set(Field::SpillGrfs, 28);
  EXPECT_EQ(intelSpillBytes(device("pvc"), r), 28 * 64);  // 64-byte GRFs
  EXPECT_EQ(intelSpillBytes(device("dg2"), r), 28 * 32);  // 32-byte GRFs
  set(Field::SpillBytes, 1800);
  EXPECT_EQ(intelSpillBytes(device("pvc"), r), 1800);  // a byte count wins
  set(Field::GrfCount, 256);
  set(Field::SimdSize, 16);
  set(Field::SlmBytes, 4224);
  set(Field::Barriers, 1);
  set(Field::ScratchPerThread, 2048);
  const IntelTarget large{"pvc", GrfMode::Large};
  ModelledKernel m = modelIntelKernel(r, device("pvc"), large, {});
  const IntelKernelModel *intel = std::get_if<IntelKernelModel>(&m.model);
  ASSERT_NE(intel, nullptr);
  EXPECT_EQ(intel->resources.grf_count, 256);
  EXPECT_EQ(intel->resources.simd, 16);
  EXPECT_EQ(intel->resources.work_group_size, 256);  // no required size: the default
  EXPECT_EQ(m.launch.source, BlockSizeSource::Default);
  EXPECT_EQ(intel->resources.slm_bytes, 4224);
  EXPECT_EQ(intel->resources.barriers, 1);
  EXPECT_EQ(intel->spill_bytes, 1800);
  // 256 GRF: 32 slots / 16 threads = 2 work-groups, 32 of 64 threads.
  EXPECT_EQ(m.summary.vendor, Vendor::Intel);
  EXPECT_EQ(m.summary.level, 32);
  EXPECT_EQ(m.summary.max_level, 64);
  EXPECT_EQ(m.summary.registers, 256);
  EXPECT_EQ(m.summary.spills, 1800);
  EXPECT_EQ(m.summary.scratch_bytes, 2048 / 16);  // per lane
  EXPECT_EQ(m.summary.limiter, Limiter::ThreadSlots);
  LaunchOverrides launch;
  launch.block_size = 512;
  launch.dynamic_slm = 1000;
  m = modelIntelKernel(r, device("pvc"), large, launch);
  EXPECT_EQ(std::get<IntelKernelModel>(m.model).resources.work_group_size, 512);
  EXPECT_EQ(std::get<IntelKernelModel>(m.model).resources.slm_bytes, 5224);
  EXPECT_EQ(m.launch.source, BlockSizeSource::Flag);
  set(Field::MaxWorkgroupSize, 128);  // reqd_work_group_size: the only size it launches with
  m = modelIntelKernel(r, device("pvc"), large, launch);
  EXPECT_EQ(std::get<IntelKernelModel>(m.model).resources.work_group_size, 128);
  EXPECT_EQ(m.launch.source, BlockSizeSource::RequiredWorkGroupSize);
}

}  // namespace
}  // namespace regscope
