// The occupancy model against the published gfx90a table, LLVM's rules and
// the compile-sweep LDS tables (../shared/research).
#include <gtest/gtest.h>

#include "regscope/backends/amd/amdgpu_occupancy.h"
#include "regscope/support/error.h"
#include "regscope/target/amdgpu.h"

namespace regscope {
namespace {

const AmdArch &gfx90a() { return *findAmdArch("gfx90a"); }

// Seed 000, Table 1 (and LLVM's D138443 dump): every step of the VGPR table.
TEST(VgprTerm, EveryStepOfTheGfx90aTable) {
  struct Step {
    int low, high, waves;
  };
  const Step table[] = {{1, 64, 8},   {65, 72, 7},   {73, 80, 6},   {81, 96, 5},
                        {97, 128, 4}, {129, 168, 3}, {169, 256, 2}, {257, 512, 1}};
  for (const Step &s : table) {
    EXPECT_EQ(wavesByVgprs(gfx90a(), s.low), s.waves) << s.low;
    EXPECT_EQ(wavesByVgprs(gfx90a(), s.high), s.waves) << s.high;
    EXPECT_EQ(maxVgprsForWaves(gfx90a(), s.waves), s.high);
  }
  std::vector<VgprTableRow> rows = vgprTable(gfx90a());
  ASSERT_EQ(rows.size(), 8u);
  EXPECT_EQ(rows.front().min_vgprs, 0);
  EXPECT_EQ(rows.front().max_vgprs, 64);
  EXPECT_EQ(rows.back().min_vgprs, 257);
  EXPECT_EQ(rows.back().waves_per_simd, 1);
}

TEST(VgprTerm, Gfx908TableFromTheSweep) {
  const AmdArch &gfx908 = *findAmdArch("MI100");
  // vgpr_thresholds.txt: <=24:10 <=28:9 <=32:8 <=36:7 <=40:6 <=48:5 <=64:4 <=84:3 <=128:2 <=256:1
  const int limits[][2] = {{24, 10}, {28, 9}, {32, 8}, {36, 7}, {40, 6}, {48, 5}, {64, 4}, {84, 3}, {128, 2}, {256, 1}};
  for (auto [vgprs, waves] : limits) {
    EXPECT_EQ(wavesByVgprs(gfx908, vgprs), waves) << vgprs;
    if (waves > 1) EXPECT_EQ(wavesByVgprs(gfx908, vgprs + 1), waves - 1) << vgprs + 1;
  }
}

TEST(AgprRule, UnifiedFileOnGfx90aSeparateOnGfx908) {
  // 70 VGPRs + 64 AGPRs: aligned to 72 + 64 = 136 in the unified file -> 3 waves, not 7.
  EXPECT_EQ(totalVgprs(gfx90a(), 70, 64), 136);
  KernelResources r;
  r.vgprs = 70;
  r.agprs = 64;
  EXPECT_EQ(computeOccupancy(gfx90a(), r).waves_per_simd, 3);
  EXPECT_EQ(totalVgprs(gfx90a(), 5, 65), 73);  // research note: total 73, occupancy 6
  EXPECT_EQ(wavesByVgprs(gfx90a(), 73), 6);
  EXPECT_EQ(totalVgprs(gfx90a(), 256, 256), 512);
  EXPECT_EQ(wavesByVgprs(gfx90a(), 512), 1);
  EXPECT_EQ(totalVgprs(gfx90a(), 70, 0), 70);                 // no AGPRs: no alignment
  EXPECT_EQ(totalVgprs(*findAmdArch("gfx908"), 64, 37), 64);  // max(v, a)
}

TEST(SgprTerm, Gfx9CountsGranulesOf16OutOf800) {
  // The hardware: 800 SGPRs per SIMD, allocated in granules of 16 (AMDGPUBaseInfo
  // getTotalNumSGPRs, getSGPRAllocGranule; llvm-project #201342's closed form without the trap
  // handler's reserve, as ROCm's runtime counts).
  EXPECT_EQ(wavesBySgprs(gfx90a(), 96), 8);  // 8 is also gfx90a's wave cap
  EXPECT_EQ(wavesBySgprs(gfx90a(), 97), 7);  // 112 allocated: 800 / 112 = 7
  EXPECT_EQ(wavesBySgprs(gfx90a(), 100), 7);
  EXPECT_EQ(wavesBySgprs(gfx90a(), 108), 7);
  const AmdArch &gfx906 = *findAmdArch("gfx906");
  EXPECT_EQ(wavesBySgprs(gfx906, 80), 10);
  EXPECT_EQ(wavesBySgprs(gfx906, 81), 8);  // 96 allocated
  EXPECT_EQ(wavesBySgprs(gfx906, 96), 8);
  EXPECT_EQ(wavesBySgprs(gfx906, 97), 7);
}

TEST(SgprTerm, Gfx9CompilersCountByTheirStepTable) {
  // LLVM 15-22's getOccupancyWithNumSGPRs, which the compilers print.
  for (TermRule rule : {TermRule::Llvm15, TermRule::Llvm16}) {
    EXPECT_EQ(wavesBySgprs(gfx90a(), 100, rule), 8);
    EXPECT_EQ(wavesBySgprs(gfx90a(), 101, rule), 7);
    const AmdArch &gfx906 = *findAmdArch("gfx906");
    EXPECT_EQ(wavesBySgprs(gfx906, 80, rule), 10);
    EXPECT_EQ(wavesBySgprs(gfx906, 81, rule), 9);
    EXPECT_EQ(wavesBySgprs(gfx906, 88, rule), 9);
    EXPECT_EQ(wavesBySgprs(gfx906, 89, rule), 8);
    EXPECT_EQ(wavesBySgprs(gfx906, 101, rule), 7);
  }
}

TEST(SgprTerm, TheDescriptorsAllocationCountsWhereItExceedsTheUse) {
  KernelResources r;
  r.vgprs = 32;
  r.sgprs = 23;
  r.workgroup_size = 256;
  EXPECT_EQ(computeOccupancy(gfx90a(), r).waves_per_simd, 8);
  r.sgprs_allocated = 112;  // Triton's waves_per_eu padding: 96 + 6 = 102, in granules of 16
  const Occupancy padded = computeOccupancy(gfx90a(), r);
  EXPECT_EQ(padded.waves_per_simd, 7);
  EXPECT_EQ(padded.sgprs_total, 112);
  EXPECT_EQ(padded.limiter, Limiter::Sgpr);
  // The compiler's own figure counts the use.
  EXPECT_EQ(computeOccupancyAs(gfx90a(), r, CompilerModel::Llvm15).waves_per_simd, 8);
  EXPECT_EQ(computeOccupancyAs(gfx90a(), r, CompilerModel::Llvm19).sgprs_total, 23);
  // An allocation below the use (not read: 0) never lowers the count.
  r.sgprs_allocated = 16;
  EXPECT_EQ(computeOccupancy(gfx90a(), r).sgprs_total, 23);
  // A step the SGPRs allow frees none of them, though the allocation (112) exceeds the most a
  // compiler reports (108): Triton's matmul of fixtures/triton/cache-gfx942, 512 VGPRs, 106 SGPRs.
  KernelResources matmul;
  matmul.vgprs_total = 512;
  matmul.sgprs = 106;
  matmul.sgprs_allocated = 112;
  matmul.workgroup_size = 256;
  const Occupancy one = computeOccupancy(gfx90a(), matmul);
  EXPECT_EQ(one.waves_per_simd, 1);
  ASSERT_TRUE(one.next);
  EXPECT_EQ(one.next->sgprs_to_free, 0);
  EXPECT_EQ(one.headroom.sgprs, 0);
}

TEST(LdsTerm, HardwareSpreadsWavesOverSimds) {
  // The example: 40 KiB and the default 1024-thread workgroup.
  EXPECT_EQ(wavesByLds(gfx90a(), 40960, 1024), 4);
  EXPECT_EQ(wavesByLds(gfx90a(), 40960, 1024, TermRule::Llvm15), 8);
  // lds_tables.md, LLVM 19 gfx90a (the hardware rule) ...
  EXPECT_EQ(wavesByLds(gfx90a(), 4096, 64), 4);
  EXPECT_EQ(wavesByLds(gfx90a(), 6144, 128), 5);
  EXPECT_EQ(wavesByLds(gfx90a(), 16384, 256), 4);
  EXPECT_EQ(wavesByLds(gfx90a(), 32769, 1024), 4);
  EXPECT_EQ(wavesByLds(gfx90a(), 20480, 512), 6);
  EXPECT_EQ(wavesByLds(gfx90a(), 65536, 64), 1);
  EXPECT_EQ(wavesByLds(gfx90a(), 0, 1024), 8);
  // ... and LLVM 15 gfx90a.
  EXPECT_EQ(wavesByLds(gfx90a(), 10240, 64, TermRule::Llvm15), 6);
  EXPECT_EQ(wavesByLds(gfx90a(), 20480, 128, TermRule::Llvm15), 6);
  EXPECT_EQ(wavesByLds(gfx90a(), 32769, 256, TermRule::Llvm15), 4);
  // Workgroup slots alone: gfx906 with 1024 threads is 8 of 10 (D139468).
  EXPECT_EQ(wavesByLds(*findAmdArch("gfx906"), 0, 1024), 8);
}

TEST(Occupancy, LbmOriginalNeedsSixFewerVgprs) {
  // The seed's step (102 -> 96 VGPRs for 5 waves) is a step of small
  // workgroups: at 256 threads (4 waves, one per SIMD) 96 VGPRs allow 5 waves
  // per SIMD = 20 per CU = 5 whole workgroups = 5 waves/SIMD.
  KernelResources r;
  r.vgprs = 102;
  r.sgprs = 98;
  r.workgroup_size = 256;
  Occupancy occ = computeOccupancy(gfx90a(), r);
  EXPECT_EQ(occ.waves_per_simd, 4);
  EXPECT_EQ(occ.max_waves_per_simd, 8);
  EXPECT_EQ(occ.limiter, Limiter::Vgpr);
  EXPECT_EQ(occ.by_vgpr, 4);
  EXPECT_EQ(occ.by_sgpr, 7);  // 98 SGPRs: seven granules of 16, 800 / 112 = 7
  EXPECT_EQ(occ.by_lds, 8);
  ASSERT_TRUE(occ.next.has_value());
  EXPECT_EQ(occ.next->waves_per_simd, 5);
  EXPECT_EQ(occ.next->vgprs_to_free, 6);
  EXPECT_EQ(occ.next->sgprs_to_free, 0);
  EXPECT_EQ(occ.headroom.vgprs, 26);  // up to 128 keeps 4 waves
  // At 4 waves SGPRs never limit: the headroom is up to the most a compiler reports, 108 on gfx9
  // (AMDGPUBaseInfo getAddressableNumSGPRs: 102, plus getNumExtraSGPRs' at most 6 for VCC and flat
  // scratch): 108 - 98 = 10. A literal, not the arch row's max_sgprs (issue 26: no self-derived figure).
  EXPECT_EQ(occ.headroom.sgprs, 10);
  EXPECT_FALSE(occ.headroom.sgprs_can_limit);

  // At the compiler's default 1024 threads (16 waves, 4 per SIMD) 5 waves per
  // SIMD hold one workgroup only: the next step a whole workgroup can take is
  // two workgroups, 8 waves/SIMD, at 512 / 8 = 64 VGPRs: 38 fewer.
  r.workgroup_size = 1024;
  occ = computeOccupancy(gfx90a(), r);
  EXPECT_EQ(occ.waves_per_simd, 4);
  ASSERT_TRUE(occ.next.has_value());
  EXPECT_EQ(occ.next->waves_per_simd, 8);
  EXPECT_EQ(occ.next->vgprs_to_free, 102 - 64);
  EXPECT_EQ(occ.headroom.vgprs, 26);  // 128 VGPRs = 4 waves/SIMD = one workgroup still
}

// A CU runs a workgroup only when all its waves fit (issue 22 item 9). The
// expected figures are worked by hand from gfx90a's rules: 512 VGPRs per SIMD
// lane in granules of 8, 4 SIMDs, 8 waves/SIMD, 64-lane waves. Independent
// source for the rule: AMD's Radeon Compute Profiler
// (CLCUInfoSI::ComputeNumActiveWaves: register-limited waves per CU, floored
// to whole workgroups). LLVM's remark does not apply it (see the last check).
// A workgroup whose waves need more slots per SIMD than its registers leave
// can never be resident: 1024 threads are 16 waves, 4 on every SIMD; 130
// VGPRs (136 allocated on gfx90a) allow 3. 128 allow 4; 768 threads (3 a SIMD) fit.
TEST(WholeWorkgroups, AWorkgroupTheRegistersCannotHoldIsNeverResident) {
  KernelResources r;
  r.workgroup_size = 1024;
  r.vgprs = 130;
  const std::string why = workgroupNotResident(gfx90a(), r);
  EXPECT_NE(why.find("130 VGPRs allow 3 per SIMD"), std::string::npos) << why;
  r.vgprs = 128;
  EXPECT_EQ(workgroupNotResident(gfx90a(), r), "");
  r.vgprs = 130;
  r.workgroup_size = 768;
  EXPECT_EQ(workgroupNotResident(gfx90a(), r), "");
  r.vgprs = 1;  // SGPRs: GFX9's 800 per SIMD, 102 a wave at most: a 16-wave group always fits
  r.sgprs = 102;
  r.workgroup_size = 1024;
  EXPECT_EQ(workgroupNotResident(gfx90a(), r), "");
}

TEST(WholeWorkgroups, RegisterLimitCountsWholeWorkgroups) {
  KernelResources r;
  r.vgprs = 90;  // 96 allocated: 512 / 96 = 5 waves/SIMD, 20 per CU
  struct Case {
    int threads, waves;
  };
  const Case cases[] = {
      {1024, 4},  // 16 waves a group: 20 / 16 = 1 group = 16 waves = 4/SIMD (not 5)
      {768, 3},   // 12 waves: 1 group = 12 waves = 3/SIMD
      {640, 5},   // 10 waves: 2 groups = 20 waves = 5/SIMD
      {512, 4},   // 8 waves: 2 groups = 16 waves = 4/SIMD
      {256, 5},   // 4 waves: 5 groups = 20 waves = 5/SIMD
      {64, 5},    // 1 wave: 20 groups = 20 waves = 5/SIMD
  };
  for (const Case &c : cases) {
    r.workgroup_size = c.threads;
    const Occupancy occ = computeOccupancy(gfx90a(), r);
    EXPECT_EQ(occ.waves_per_simd, c.waves) << c.threads;
    EXPECT_EQ(occ.by_vgpr, c.waves) << c.threads;
    EXPECT_EQ(occ.limiter, Limiter::Vgpr) << c.threads;
  }
  // Fewer waves than SIMDs count per CU: 192 threads = 3 waves a group; 20
  // VGPR-limited slots hold 6 groups = 18 waves/CU (not 20).
  r.workgroup_size = 192;
  const Occupancy small = computeOccupancy(gfx90a(), r);
  EXPECT_TRUE(small.counts_per_cu);
  EXPECT_EQ(small.waves_per_cu, 18);
  // 1024 threads at 90 VGPRs: the next step is 2 groups = 8 waves/SIMD at 64 VGPRs.
  r.workgroup_size = 1024;
  const Occupancy big = computeOccupancy(gfx90a(), r);
  ASSERT_TRUE(big.next);
  EXPECT_EQ(big.next->waves_per_simd, 8);
  EXPECT_EQ(big.next->vgprs_to_free, 90 - 64);
  // 768 threads: 2 groups are 24 waves = 6/SIMD, at 512 / 6 = 85 -> 80 VGPRs.
  r.workgroup_size = 768;
  const Occupancy mid = computeOccupancy(gfx90a(), r);
  ASSERT_TRUE(mid.next);
  EXPECT_EQ(mid.next->waves_per_simd, 6);
  EXPECT_EQ(mid.next->vgprs_to_free, 90 - 80);
  EXPECT_EQ(mid.headroom.vgprs, 168 - 90);  // 3 waves/SIMD = 12 slots still hold one 12-wave group
  // SGPRs count the same way (gfx906: 89 SGPRs allow 8 waves/SIMD = 32 slots;
  // 1024 threads: 2 groups = 32 = 8; 768 threads: 2 groups = 24 = 6/SIMD).
  KernelResources s;
  s.vgprs = 16;
  s.sgprs = 89;
  s.workgroup_size = 768;
  EXPECT_EQ(computeOccupancy(*findAmdArch("gfx906"), s).waves_per_simd, 6);
  EXPECT_EQ(computeOccupancy(*findAmdArch("gfx906"), s).limiter, Limiter::Sgpr);
  // LLVM's remark keeps the per-SIMD figure: clang-19 -mcpu=gfx90a prints
  // "Occupancy [waves/SIMD]: 5" for 90 VGPRs at amdgpu_flat_work_group_size(1024, 1024)
  // (and at 768, 640, 512, 192); the compiler models reproduce that.
  r.workgroup_size = 1024;
  EXPECT_EQ(computeOccupancyAs(gfx90a(), r, CompilerModel::Llvm19).waves_per_simd, 5);
  EXPECT_EQ(computeOccupancyAs(gfx90a(), r, CompilerModel::Llvm15).waves_per_simd, 5);
}

TEST(Occupancy, LimitersAndNextSteps) {
  KernelResources r;
  r.vgprs = 40;
  r.sgprs = 101;
  r.workgroup_size = 256;  // 4 waves, one per SIMD: 7 waves/SIMD = 28 slots = 7 workgroups
  Occupancy by_sgpr = computeOccupancy(gfx90a(), r);
  EXPECT_EQ(by_sgpr.waves_per_simd, 7);
  EXPECT_EQ(by_sgpr.limiter, Limiter::Sgpr);
  ASSERT_TRUE(by_sgpr.next);
  EXPECT_EQ(by_sgpr.next->sgprs_to_free, 5);  // 96, six granules: 8 waves
  // At 1024 threads (16 waves) 28 slots hold one workgroup: 4 waves/SIMD; five
  // SGPRs fewer (96: 8 waves/SIMD = 32 slots) hold two: 8.
  r.workgroup_size = 1024;
  by_sgpr = computeOccupancy(gfx90a(), r);
  EXPECT_EQ(by_sgpr.waves_per_simd, 4);
  EXPECT_EQ(by_sgpr.limiter, Limiter::Sgpr);
  ASSERT_TRUE(by_sgpr.next);
  EXPECT_EQ(by_sgpr.next->sgprs_to_free, 5);
  EXPECT_EQ(by_sgpr.next->waves_per_simd, 8);

  r = {};
  r.vgprs = 10;
  r.lds_bytes = 40960;
  Occupancy by_lds = computeOccupancy(gfx90a(), r);
  EXPECT_EQ(by_lds.limiter, Limiter::Lds);
  ASSERT_TRUE(by_lds.next);
  EXPECT_EQ(by_lds.next->lds_bytes_to_free, 40960 - 32768);  // two groups must fit
  // ...and two groups are 8 waves/SIMD, not 5: the step says what freeing the LDS reaches.
  // Consistency (not a model test): the step's level is what the model gives at the freed size...
  r.lds_bytes -= by_lds.next->lds_bytes_to_free;
  EXPECT_EQ(by_lds.next->waves_per_simd, computeOccupancy(gfx90a(), r).waves_per_simd);
  // ...and the model test: 32768 B is 2 workgroups of 16 waves per 64 KiB CU = 8 waves/SIMD.
  EXPECT_EQ(by_lds.next->waves_per_simd, 8);

  r = {};
  r.vgprs = 10;
  Occupancy at_max = computeOccupancy(gfx90a(), r);
  EXPECT_EQ(at_max.limiter, Limiter::None);
  EXPECT_FALSE(at_max.next);

  Occupancy capped = computeOccupancy(*findAmdArch("gfx908"), r);  // 1024 threads on 10-wave SIMDs
  EXPECT_EQ(capped.waves_per_simd, 8);
  EXPECT_EQ(capped.limiter, Limiter::Workgroup);
  EXPECT_FALSE(capped.next);
}

// vgpr_thresholds.txt (LLVM 19 compile sweep): the largest VGPR count for each step.
void expectThresholds(const AmdArch &arch, std::vector<std::pair<int, int>> steps) {
  for (auto [vgprs, waves] : steps) {
    EXPECT_EQ(wavesByVgprs(arch, vgprs), waves) << arch.name << " wave" << arch.wave_size << " " << vgprs;
    EXPECT_EQ(maxVgprsForWaves(arch, waves), vgprs) << arch.name << " wave" << arch.wave_size << " " << waves;
  }
}

TEST(Rdna, VgprStepsPerWaveSize) {
  const AmdArch &gfx1030 = *findAmdArch("gfx1030");
  expectThresholds(gfx1030, {{64, 16}, {80, 12}, {96, 10}, {112, 9}, {128, 8}, {144, 7}, {160, 6}, {192, 5}, {256, 4}});
  expectThresholds(configureArch(gfx1030, 64, false),
                   {{32, 16}, {40, 12}, {48, 10}, {56, 9}, {64, 8}, {72, 7}, {80, 6}, {96, 5}, {128, 4}, {168, 3}});
  // The 1.5x register file of gfx1100 and gfx1200.
  const AmdArch &gfx1100 = *findAmdArch("RX 7900 XTX");
  expectThresholds(gfx1100, {{96, 16}, {120, 12}, {144, 10}, {168, 9}, {192, 8}, {216, 7}, {240, 6}, {256, 5}});
  expectThresholds(configureArch(gfx1100, 64, false),
                   {{48, 16}, {60, 12}, {72, 10}, {84, 9}, {96, 8}, {108, 7}, {120, 6}, {144, 5}, {192, 4}, {252, 3}});
  expectThresholds(*findAmdArch("gfx1200"), {{96, 16}, {120, 12}, {240, 6}, {256, 5}});
  expectThresholds(*findAmdArch("gfx1102"), {{64, 16}, {80, 12}, {192, 5}, {256, 4}});
}

TEST(Rdna, SgprsNeverLimit) { EXPECT_EQ(wavesBySgprs(*findAmdArch("gfx1030"), 106), 16); }

TEST(Rdna, LdsInWgpAndCuMode) {
  // lds_tables.md, LLVM 19 gfx1030 (the hardware rule): WGP mode, 128 KiB.
  const AmdArch &wave32 = *findAmdArch("gfx1030");
  EXPECT_EQ(wavesByLds(wave32, 6144, 64), 11);
  EXPECT_EQ(wavesByLds(wave32, 10240, 128), 12);
  EXPECT_EQ(wavesByLds(wave32, 32769, 512), 12);
  EXPECT_EQ(wavesByLds(wave32, 49152, 1024), 16);
  const AmdArch wave64 = configureArch(wave32, 64, false);
  EXPECT_EQ(wavesByLds(wave64, 4096, 64), 8);
  EXPECT_EQ(wavesByLds(wave64, 32769, 1024), 12);
  EXPECT_EQ(wavesByLds(wave64, 65536, 128), 1);
  // LLVM 15 (lds_tables.md): 64 KiB, waves not spread over SIMDs.
  EXPECT_EQ(wavesByLds(wave32, 10240, 64, TermRule::Llvm15), 12);
  EXPECT_EQ(wavesByLds(wave64, 6144, 64, TermRule::Llvm15), 10);
  // CU mode: 2 SIMDs, 64 KiB, 16 workgroup slots.
  const AmdArch cu = configureArch(wave32, 0, true);
  EXPECT_EQ(cu.simds_per_cu, 2);
  EXPECT_EQ(cu.lds_per_cu, 65536);
  EXPECT_EQ(wavesByLds(cu, 32768, 64), 2);  // 2 groups of 2 waves over 2 SIMDs
}

TEST(Rdna, ConfigureRejectsWhatTheTargetLacks) {
  EXPECT_THROW(configureArch(*findAmdArch("gfx90a"), 32, false), Error);
  EXPECT_THROW(configureArch(*findAmdArch("gfx90a"), 0, true), Error);
  EXPECT_NO_THROW(configureArch(*findAmdArch("gfx90a"), 64, false));
  EXPECT_EQ(configureArch(*findAmdArch("gfx1030"), 32, false).vgpr_file, 1024);
}

TEST(ArchTable, LookupByNameProductAndTargetId) {
  EXPECT_EQ(findAmdArch("MI250X"), findAmdArch("gfx90a"));
  EXPECT_EQ(findAmdArch("mi210"), findAmdArch("gfx90a"));
  EXPECT_EQ(findAmdArch("gfx90a:xnack+"), findAmdArch("gfx90a"));
  EXPECT_EQ(findAmdArch("gfx1234"), nullptr);
  EXPECT_NE(knownArchList().find("gfx90a (MI210/MI250/MI250X)"), std::string::npos);
}

}  // namespace
}  // namespace regscope
