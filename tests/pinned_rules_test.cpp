// Rules that no other test pinned (issue 26): each case sits at an input where the rule changes the
// answer, and every expected figure is a literal derived by hand from a source outside regscope (the
// derivation is written beside it). None is computed by the code under test.
//
//   Pinned.Lds*       the AMD LDS allocation granule, per arch family
//   Pinned.Cuda*      NVIDIA's register allocation unit, on every sm regscope knows
//   Pinned.Tie*       the limiter named on a tie, per vendor (docs/testing.md "Limiter ties")
//   Pinned.Sarif*     the SARIF level of every rule
//   Pinned.Gfx942*    gfx942's wave cap and VGPR steps without clang 19
//   and the rules the first mutation run found unheld (docs/testing.md, "Mutation testing")
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "regscope/backends/amd/amdgpu_occupancy.h"
#include "regscope/backends/intel/intel_occupancy.h"
#include "regscope/backends/nvidia/collect.h"
#include "regscope/backends/nvidia/cuda_occupancy.h"
#include "regscope/collect/collect.h"
#include "regscope/gate/findings.h"
#include "regscope/gate/gate.h"
#include "regscope/gate/rules.h"
#include "regscope/support/process.h"
#include "regscope/support/symbols.h"
#include "regscope/target/amdgpu.h"
#include "regscope/target/cuda.h"
#include "regscope/target/intel.h"
#include "regscope/views/view.h"
#include "test_util.h"

namespace regscope {
namespace {

// ---------------------------------------------------------------------------------------------
// AMD: LDS is allocated to a workgroup in whole granules.
// Source: LLVM's AMDGPUUsage.rst, COMPUTE_PGM_RSRC2.LDS_SIZE: "roundup(lds-size / (128 * 4))" on
// GFX7-GFX12 (512 B), "roundup(lds-size / (320 * 4))" on GFX950 (1280 B); llvm-project #205637 rounds
// LDS to that granule before the occupancy division (AMDGPUSubtarget::getOccupancyWithWorkGroupSizes),
// #208046 gives gfx950's 1280. LDS per CU: AMDGPUBaseInfo getLocalMemorySize / GCNSubtarget: 64 KiB on
// gfx9, 160 KiB on gfx950 (#116309), 128 KiB per WGP on gfx10.3+ (64 KiB in CU mode, D139468).
// Waves per SIMD from LDS = workgroups per CU x waves per workgroup / SIMDs per CU, capped at the
// arch's waves per SIMD (shared/research/amdgpu-occupancy.md §1.4-1.5).
//
// Each case has one wave per SIMD per workgroup (256 threads of wave64 on 4 SIMDs, 128 of wave32 on a
// 4-SIMD WGP, 64 of wave32 on a 2-SIMD CU), so the figure is the workgroups per CU, whichever way whole
// workgroups are counted, and the LDS size sits between granule boundaries so that rounding changes it.
// ---------------------------------------------------------------------------------------------

int ldsWaves(const char *arch, int lds, int block, int vgprs = 10, int wave = 0, bool cu_mode = false) {
  const AmdArch configured = configureArch(*findAmdArch(arch), wave, cu_mode);
  KernelResources r;
  r.vgprs = vgprs;
  r.sgprs = 16;
  r.lds_bytes = lds;
  r.workgroup_size = block;
  return computeOccupancy(configured, r).waves_per_simd;
}

TEST(Pinned, LdsGranuleGfx9Family512) {
  // 13000 B -> ceil(13000 / 512) = 26 granules = 13312 B; 65536 / 13312 = 4.92 -> 4 workgroups of
  // 4 waves on 4 SIMDs = 4 waves/SIMD. Unrounded: 65536 / 13000 = 5.04 -> 5 (the mutant's answer).
  EXPECT_EQ(ldsWaves("gfx90a", 13000, 256), 4);
  EXPECT_EQ(ldsWaves("gfx942", 13000, 256), 4);
  EXPECT_EQ(ldsWaves("gfx940", 13000, 256), 4);
  // gfx906/gfx908 (10 waves/SIMD, 64 KiB, 512 B): the same 4.
  EXPECT_EQ(ldsWaves("gfx906", 13000, 256), 4);
  EXPECT_EQ(ldsWaves("gfx908", 13000, 256), 4);
  // Exactly on a granule boundary nothing rounds: 13312 B is still 4, 13311 B is 4, 12800 B is
  // 65536 / 12800 = 5.12 -> 5.
  EXPECT_EQ(ldsWaves("gfx90a", 12800, 256), 5);
  EXPECT_EQ(ldsWaves("gfx90a", 12801, 256), 4);  // 12801 -> 13312
}

TEST(Pinned, LdsGranuleGfx950Is1280) {
  // 26881 B: ceil(26881 / 1280) = 22 granules = 28160 B; 163840 / 28160 = 5.82 -> 5 waves/SIMD.
  // A 512 B granule would give 27136 B -> 6.04 -> 6; no rounding 163840 / 26881 = 6.09 -> 6.
  EXPECT_EQ(ldsWaves("gfx950", 26881, 256), 5);
  EXPECT_EQ(ldsWaves("gfx950", 26880, 256), 6);  // exactly 21 granules: 163840 / 26880 = 6.09 -> 6
  // 13000 B on gfx950: 11 granules = 14080 B; 163840 / 14080 = 11.6 -> 11 workgroups, capped at 8.
  EXPECT_EQ(ldsWaves("gfx950", 13000, 256), 8);
}

TEST(Pinned, LdsGranuleRdnaWgpAndCuMode) {
  // gfx1030/gfx1100/gfx1200 wave32, WGP mode (128 KiB), 128 threads = 4 waves, one per SIMD:
  // 8720 B -> 9216 B (18 x 512, also a multiple of 1024); 131072 / 9216 = 14.2 -> 14 waves/SIMD.
  // Unrounded: 131072 / 8720 = 15.03 -> 15.
  for (const char *arch : {"gfx1030", "gfx1100", "gfx1102", "gfx1151", "gfx1200"}) {
    EXPECT_EQ(ldsWaves(arch, 8720, 128), 14) << arch;
    EXPECT_EQ(ldsWaves(arch, 8192, 128), 16) << arch;  // 131072 / 8192 = 16: on a boundary
  }
  // CU mode: 2 SIMDs, 64 KiB; 64 threads of wave32 = 2 waves, one per SIMD:
  // 5000 B -> 5120 B (10 x 512); 65536 / 5120 = 12.8 -> 12. Unrounded: 65536 / 5000 = 13.1 -> 13.
  for (const char *arch : {"gfx1030", "gfx1100", "gfx1200"})
    EXPECT_EQ(ldsWaves(arch, 5000, 64, 10, 0, true), 12) << arch;
  // wave64 in WGP mode: 256 threads = 4 waves of 64, one per SIMD: 8720 B -> 14, as in wave32.
  EXPECT_EQ(ldsWaves("gfx1030", 8720, 256, 10, 64), 14);
}

TEST(Pinned, LdsGranuleThroughTheCalculator) {
  // The command, end to end: `regscope occupancy --arch gfx90a --vgprs 10 --lds 13000
  // --block-size 256` says 4 waves/SIMD, limited by LDS.
  TempDir cwd, tmp, cache;
  const test::RunResult r = test::runRegscope(
      {"occupancy", "--arch", "gfx90a", "--vgprs", "10", "--lds", "13000", "--block-size", "256", "--format", "json"},
      cwd.path(), tmp.path(), cache.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  const auto &j = doc.contains("occupancy") ? doc["occupancy"] : doc;
  EXPECT_EQ(j["waves_per_simd"], 4) << r.out;
  EXPECT_EQ(j["limiter"], "lds") << r.out;
  const test::RunResult text =
      test::runRegscope({"occupancy", "--arch", "gfx950", "--vgprs", "10", "--lds", "26881", "--block-size", "256"},
                        cwd.path(), tmp.path(), cache.path());
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("5/8 waves/SIMD, limited by lds"), std::string::npos) << text.out;
}

// ---------------------------------------------------------------------------------------------
// NVIDIA: registers are allocated per warp in units of 256 (every CC 7.5-12.0), per sub-partition
// (4 per SM). Sources: NVIDIA's CUDA Occupancy Calculator ("Register allocation unit size" 256,
// "Register allocation granularity: warp"), cuda_occupancy.h (__occRegAllocationGranularity = 256,
// cudaOccSubPartitionsPerMultiprocessor = 4), the CUDA C Programming Guide's "Compute Capabilities"
// table for max warps and blocks per SM; shared/research/nvidia-intel.md §2.2. The rule:
//   registers per warp  = ceil(registers x 32 / 256) x 256
//   warps per SM        = floor(65536 / 4 / registers per warp) x 4
//   blocks by registers = floor(warps per SM / warps per block)
// and the answer is the smallest of that and floor(max warps / warps per block) and max blocks.
// Each count below straddles an allocation unit: with a 128-register unit the answer differs.
// ---------------------------------------------------------------------------------------------

CudaOccupancy cuda(const char *arch, int registers, int block) {
  CudaResources r;
  r.registers = registers;
  r.block_size = block;
  return computeCudaOccupancy(*findCudaArch(arch), r);
}

struct CudaCase {
  const char *arch;
  int registers, block, blocks, warps;
};

TEST(Pinned, CudaRegisterAllocationUnitOnEverySm) {
  const CudaCase cases[] = {
      // sm_80/90/100/103 (64 warps, 32 blocks per SM): 33 registers x 32 = 1056 -> 1280 per warp;
      // 16384 / 1280 = 12.8 -> 12 warps per sub-partition -> 48 warps; 256 threads = 8 warps -> 6 blocks.
      // (Unit 128: 1152 -> 14 -> 56 warps -> 7 blocks.) Warps allow 64 / 8 = 8, slots 32.
      {"sm_80", 33, 256, 6, 48},
      {"sm_90", 33, 256, 6, 48},
      {"sm_100", 33, 256, 6, 48},
      {"sm_103", 33, 256, 6, 48},
      // sm_75 (32 warps, 16 blocks): 81 x 32 = 2592 -> 2816; 16384 / 2816 = 5.8 -> 5 -> 20 warps;
      // 128 threads = 4 warps -> 5 blocks. (Unit 128: 2688 -> 6 -> 24 warps -> 6 blocks.) Warps allow 8.
      {"sm_75", 81, 128, 5, 20},
      // sm_86/89/120 (48 warps; 16, 24, 24 blocks): 41 x 32 = 1312 -> 1536; 16384 / 1536 = 10.7 -> 10
      // -> 40 warps; 4 warps a block -> 10 blocks. (Unit 128: 1408 -> 11 -> 44 warps -> 11.) Warps allow 12.
      {"sm_86", 41, 128, 10, 40},
      {"sm_89", 41, 128, 10, 40},
      {"sm_120", 41, 128, 10, 40},
      // sm_87, sm_110, sm_121 (48 warps; 16, 24, 24 blocks; Nsight Compute's get_gpu_data): as sm_86.
      {"sm_87", 41, 128, 10, 40},
      {"sm_110", 41, 128, 10, 40},
      {"sm_121", 41, 128, 10, 40},
  };
  for (const CudaCase &c : cases) {
    const CudaOccupancy occ = cuda(c.arch, c.registers, c.block);
    EXPECT_EQ(occ.blocks_per_sm, c.blocks) << c.arch;
    EXPECT_EQ(occ.warps_per_sm, c.warps) << c.arch;
    EXPECT_EQ(occ.limiter, Limiter::Registers) << c.arch;
  }
  // Every sm the tool knows has a case above.
  EXPECT_EQ(cudaArchs().size(), std::size(cases)) << "a new sm needs its straddling case here";
}

TEST(Pinned, CudaRegisterUnitThroughTheCalculator) {
  TempDir cwd, tmp, cache;
  const test::RunResult r = test::runRegscope(
      {"occupancy", "--arch", "sm_80", "--registers", "33", "--block-size", "256", "--format", "json"}, cwd.path(),
      tmp.path(), cache.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string out = r.out;
  const auto j = nlohmann::json::parse(out);
  const auto &occ = j.contains("occupancy") ? j["occupancy"] : j;
  EXPECT_EQ(occ["blocks_per_sm"], 6) << out;
  EXPECT_EQ(occ["warps_per_sm"], 48) << out;
}

// ---------------------------------------------------------------------------------------------
// Limiter ties (docs/testing.md "Limiter ties"): when several resources give the same, smallest
// level, the limiter named is the first in the vendor's order:
//   AMD:    vgpr, sgpr, workgroup (the level with no LDS is the same), lds
//   NVIDIA: registers, shared, warps, blocks, barriers
//   Intel:  threads (the GRF mode), slm, barriers, workgroup (docs/intel.md)
// ---------------------------------------------------------------------------------------------

TEST(Pinned, TieAmdVgprBeforeSgpr) {
  // gfx90a: 72 VGPRs -> 512 / 72 = 7.1 -> 7 waves (Table 1 of the CDNA2 post: 65-72 -> 7);
  // 101 SGPRs -> 7 (gfx9's hardware: 800 / 112). Both limit at 7.
  KernelResources r;
  r.vgprs = 72;
  r.sgprs = 101;
  r.workgroup_size = 256;
  const Occupancy occ = computeOccupancy(*findAmdArch("gfx90a"), r);
  EXPECT_EQ(occ.by_vgpr, 7);
  EXPECT_EQ(occ.by_sgpr, 7);
  EXPECT_EQ(occ.waves_per_simd, 7);
  EXPECT_EQ(occ.limiter, Limiter::Vgpr);
  // The next step frees both: 72 -> 64 VGPRs and 101 -> 96 SGPRs (six granules of 16) for 8 waves.
  ASSERT_TRUE(occ.next);
  EXPECT_EQ(occ.next->vgprs_to_free, 8);
  EXPECT_EQ(occ.next->sgprs_to_free, 5);
  EXPECT_EQ(occ.next->waves_per_simd, 8);
}

TEST(Pinned, TieAmdSgprBeforeLdsAndWorkgroupBeforeLds) {
  // gfx90a: 101 SGPRs -> 7; LDS 9216 B (18 granules) -> 65536 / 9216 = 7.1 -> 7 workgroups of 4 waves
  // on 4 SIMDs -> 7. Tie sgpr/lds: sgpr.
  KernelResources r;
  r.vgprs = 10;
  r.sgprs = 101;
  r.lds_bytes = 9216;
  r.workgroup_size = 256;
  Occupancy occ = computeOccupancy(*findAmdArch("gfx90a"), r);
  EXPECT_EQ(occ.by_sgpr, 7);
  EXPECT_EQ(occ.by_lds, 7);
  EXPECT_EQ(occ.limiter, Limiter::Sgpr);
  // VGPRs and LDS: gfx1030 wave32, 80 VGPRs -> 1024 / 80 = 12.8 -> 12 (vgpr_thresholds.txt: <= 80 -> 12);
  // 10240 B -> 131072 / 10240 = 12.8 -> 12 workgroups of 4 waves on 4 SIMDs. Tie: vgpr.
  r = {};
  r.vgprs = 80;
  r.lds_bytes = 10240;
  r.workgroup_size = 128;
  occ = computeOccupancy(*findAmdArch("gfx1030"), r);
  EXPECT_EQ(occ.by_vgpr, 12);
  EXPECT_EQ(occ.by_lds, 12);
  EXPECT_EQ(occ.limiter, Limiter::Vgpr);
  // gfx908, 1024 threads (16 waves): 40 wave slots / 16 = 2 workgroups -> 8 waves/SIMD (D139468);
  // 16384 B of LDS would allow 4 workgroups, so the slots limit, not LDS: workgroup.
  r = {};
  r.vgprs = 10;
  r.lds_bytes = 16384;
  r.workgroup_size = 1024;
  occ = computeOccupancy(*findAmdArch("gfx908"), r);
  EXPECT_EQ(occ.waves_per_simd, 8);
  EXPECT_EQ(occ.limiter, Limiter::Workgroup);
}

TEST(Pinned, TieAmdThroughTheCalculator) {
  // The command (default block size): VGPRs and SGPRs limit at the same level; vgpr is named.
  TempDir cwd, tmp, cache;
  for (const char *block : {"1024", "256"}) {
    const test::RunResult r = test::runRegscope(
        {"occupancy", "--arch", "gfx90a", "--vgprs", "72", "--sgprs", "101", "--block-size", block, "--format", "json"},
        cwd.path(), tmp.path(), cache.path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    const auto &j = doc.contains("occupancy") ? doc["occupancy"] : doc;
    EXPECT_EQ(j["limiter"], "vgpr") << block << ": " << r.out;
    if (std::string(block) == "256") {  // one wave per SIMD a workgroup: 7 and 7, as the model test says
      EXPECT_EQ(j["by_resource"]["vgpr"], 7) << r.out;
      EXPECT_EQ(j["by_resource"]["sgpr"], 7) << r.out;
    }
  }
}

TEST(Pinned, TieCudaRegistersSharedWarpsBlocks) {
  // sm_80, 64 registers, 256 threads: 2048 per warp; 16384 / 2048 = 8 per sub-partition -> 32 warps
  // -> 4 blocks. Shared 40000 B + 1024 reserved = 41024 -> 41088 (128 B granule); 167936 / 41088 =
  // 4.09 -> 4. Tie registers/shared: registers.
  CudaResources r;
  r.registers = 64;
  r.block_size = 256;
  r.static_shared = 40000;
  CudaOccupancy occ = computeCudaOccupancy(*findCudaArch("sm_80"), r);
  EXPECT_EQ(occ.by_registers, 4);
  EXPECT_EQ(occ.by_shared, 4);
  EXPECT_EQ(occ.limiter, Limiter::Registers);
  // (A tie is below the SM's cap: at 100 % the limiter is none.)
  // sm_80, 32 registers, 640 threads (20 warps): registers 1024 per warp -> 16 per sub-partition -> 64
  // warps -> 64 / 20 = 3 blocks; warps 64 / 20 = 3 (60 of 64 warps). Tie registers/warps: registers.
  r = {};
  r.registers = 32;
  r.block_size = 640;
  occ = computeCudaOccupancy(*findCudaArch("sm_80"), r);
  EXPECT_EQ(occ.by_registers, 3);
  EXPECT_EQ(occ.by_warps, 3);
  EXPECT_EQ(occ.warps_per_sm, 60);
  EXPECT_EQ(occ.limiter, Limiter::Registers);
  // sm_86 (48 warps, 100 KiB), 16 registers, 640 threads: warps 48 / 20 = 2 (40 warps); shared
  // 40000 + 1024 = 41024 -> 41088; 102400 / 41088 = 2.49 -> 2. Tie shared/warps: shared.
  r = {};
  r.registers = 16;
  r.block_size = 640;
  r.dynamic_shared = 40000;
  occ = computeCudaOccupancy(*findCudaArch("sm_86"), r);
  EXPECT_EQ(occ.by_warps, 2);
  EXPECT_EQ(occ.by_shared, 2);
  EXPECT_EQ(occ.warps_per_sm, 40);
  EXPECT_EQ(occ.limiter, Limiter::Shared);
  // sm_90, 32 threads, 2 barriers: 32 block slots; barriers 32 x 2 / 2 = 32 (cuda_occupancy.h, CC 9.0);
  // 32 warps of 64. Tie blocks/barriers: blocks.
  r = {};
  r.registers = 16;
  r.block_size = 32;
  r.barriers = 2;
  occ = computeCudaOccupancy(*findCudaArch("sm_90"), r);
  EXPECT_EQ(occ.by_blocks, 32);
  EXPECT_EQ(occ.by_barriers, 32);
  EXPECT_EQ(occ.limiter, Limiter::Blocks);
}

TEST(Pinned, TieIntelThreadsBeforeSlmBeforeBarriers) {
  // pvc, 256 GRF (4 threads/EU x 8 EUs = 32 slots), SIMD32, 256 work-items = 8 threads: 32 / 8 = 4;
  // SLM 32 KiB (a step): 128 KiB / 32 KiB = 4 (Intel's calculator, PvcTableWorkGroup256 row
  // "256 GRF, SIMD32, 32 KiB" = 4). Tie threads/slm: threads.
  const IntelDevice &pvc = *findIntelDevice("pvc");
  IntelOccupancy o = computeIntelOccupancy(pvc, {256, 32, 256, 32768, 0});
  EXPECT_EQ(o.by_threads, 4);
  EXPECT_EQ(o.by_slm, 4);
  EXPECT_EQ(o.limiter, Limiter::ThreadSlots);
  // pvc, 128 GRF, SIMD32, 32 work-items = 1 thread: 64 by threads; one barrier: 32 barrier registers;
  // SLM 4 KiB: 128 / 4 = 32. Tie slm/barriers: slm.
  o = computeIntelOccupancy(pvc, {128, 32, 32, 4096, 1});
  EXPECT_EQ(o.by_slm, 32);
  EXPECT_EQ(o.by_barriers, 32);
  EXPECT_EQ(o.limiter, Limiter::Slm);
}

// ---------------------------------------------------------------------------------------------
// SARIF levels: the level of every rule (docs/testing.md "SARIF levels"; docs/formats.md).
// GitHub code scanning shows error and warning results by default and hides notes behind a filter,
// so what a user must see is warning or error: spills (RS002) and unresolved figures (RS304) are
// warnings, every gate failure an error, the informational findings notes.
// ---------------------------------------------------------------------------------------------

struct RuleLevel {
  Rule rule;
  const char *id, *name, *level;
};
const RuleLevel kRuleLevels[] = {
    {Rule::Occupancy, "RS001", "occupancy", "note"},
    {Rule::Spills, "RS002", "spills", "warning"},
    {Rule::Scratch, "RS003", "scratch", "note"},
    {Rule::Cliff, "RS004", "occupancy-cliff", "note"},
    {Rule::MinOccupancy, "RS101", "min-occupancy", "error"},
    {Rule::MaxSpills, "RS102", "max-spills", "error"},
    {Rule::MaxScratch, "RS103", "max-scratch", "error"},
    {Rule::OccupancyRegression, "RS201", "occupancy-regression", "error"},
    {Rule::VgprStepRegression, "RS202", "vgpr-step-regression", "error"},
    {Rule::SpillRegression, "RS203", "spill-regression", "error"},
    {Rule::ScratchRegression, "RS204", "scratch-regression", "error"},
    {Rule::Improved, "RS301", "improved", "note"},
    {Rule::Added, "RS302", "added", "note"},
    {Rule::Removed, "RS303", "removed", "note"},
    {Rule::Unresolved, "RS304", "unresolved", "warning"},
    {Rule::Ignored, "RS305", "ignored", "note"},                 // listed with its reason, not judged (issue 22)
    {Rule::CannotJudge, "RS306", "cannot-judge", "error"},       // the gate never passes it (issue 21)
    {Rule::CannotLaunch, "RS104", "cannot-launch", "error"},     // a kernel that cannot launch never passes (issue 30)
    {Rule::MaxLoopSpills, "RS105", "max-loop-spills", "error"},  // issue 33
    {Rule::LoopSpillRegression, "RS205", "loop-spill-regression", "error"},  // issue 33
};

// The CI writers' input: findings only.
class Findings : public View {
 public:
  explicit Findings(std::vector<Verdict> findings) : findings_(std::move(findings)) {}
  Document document() const override { return {}; }
  nlohmann::json toJson() const override { return {}; }
  std::optional<CiReport> ci() const override {
    CiReport ci;
    ci.title = "regscope";
    ci.findings = findings_;
    return ci;
  }

 private:
  std::vector<Verdict> findings_;
};

TEST(Pinned, SarifLevelOfEveryRule) {
  ASSERT_EQ(ruleCatalog().size(), std::size(kRuleLevels)) << "a new rule needs its level here";
  KernelReport k;
  k.display_file = "k.hip";
  k.record.line = 3;
  k.record.demangled = "k(float*)";
  k.record.arch = "gfx90a";
  std::vector<Verdict> verdicts;
  for (const RuleLevel &e : kRuleLevels) {
    EXPECT_STREQ(ruleInfo(e.rule).id, e.id);
    EXPECT_STREQ(ruleInfo(e.rule).name, e.name);
    EXPECT_STREQ(levelName(ruleInfo(e.rule).level), e.level) << e.id;
    verdicts.push_back(verdictFor(k, e.rule, "m"));  // a finding takes its rule's level
  }
  const auto sarif = nlohmann::json::parse(render(Findings(verdicts), Format::Sarif));
  const auto &run = sarif["runs"][0];
  const auto &rules = run["tool"]["driver"]["rules"];
  ASSERT_EQ(rules.size(), std::size(kRuleLevels));
  ASSERT_EQ(run["results"].size(), std::size(kRuleLevels));
  for (std::size_t i = 0; i < std::size(kRuleLevels); ++i) {
    const RuleLevel &e = kRuleLevels[i];
    const auto &result = run["results"][i];
    EXPECT_EQ(result["ruleId"], e.id);
    EXPECT_EQ(result["level"], e.level) << e.id;
    const auto &rule = rules[result["ruleIndex"].get<int>()];
    EXPECT_EQ(rule["id"], e.id);
    EXPECT_EQ(rule["defaultConfiguration"]["level"], e.level) << e.id;
  }
  // GitHub's workflow commands: error -> ::error, warning -> ::warning, note -> ::notice.
  const std::string github = render(Findings({verdicts[1], verdicts[0], verdicts[4]}), Format::Github);
  EXPECT_EQ(github.rfind("::warning ", 0), 0u) << github;
  EXPECT_NE(github.find("\n::notice "), std::string::npos) << github;
  EXPECT_NE(github.find("\n::error "), std::string::npos) << github;
}

// ---------------------------------------------------------------------------------------------
// gfx942 (MI300): 8 waves/SIMD, a 512-entry unified VGPR file in granules of 8, as gfx90a
// (AMDGPUBaseInfo getMaxWavesPerEU: 8 on gfx90a+, getVGPRAllocGranule: 8 with 512 VGPRs;
// vgpr_thresholds.txt "gfx90a/gfx940/gfx942: <=64:8 <=72:7 <=80:6 <=96:5 <=128:4 <=168:3 <=256:2";
// the remark on gfx942 for 181 VGPRs -> 184 -> 2 waves, shared/research/frontier.md). Architected flat
// scratch: 6 extra SGPRs always (GCNProcessors.td FeatureArchitectedFlatScratch).
// ---------------------------------------------------------------------------------------------

TEST(Pinned, Gfx942WaveCapAndVgprSteps) {
  const AmdArch &gfx942 = *findAmdArch("gfx942");
  const int steps[][2] = {{1, 8},   {64, 8},  {65, 7},  {72, 7},  {73, 6},  {80, 6},  {81, 5},  {96, 5}, {97, 4},
                          {128, 4}, {129, 3}, {168, 3}, {169, 2}, {181, 2}, {256, 2}, {257, 1}, {512, 1}};
  for (auto [vgprs, waves] : steps) EXPECT_EQ(wavesByVgprs(gfx942, vgprs), waves) << vgprs;
  KernelResources r;
  r.vgprs = 8;
  r.workgroup_size = 256;
  const Occupancy occ = computeOccupancy(gfx942, r);
  EXPECT_EQ(occ.max_waves_per_simd, 8);
  EXPECT_EQ(occ.waves_per_simd, 8);
  EXPECT_EQ(occ.limiter, Limiter::None);
  EXPECT_EQ(extraSgprs(gfx942, false, false, false), 6);
  EXPECT_EQ(extraSgprs(*findAmdArch("gfx90a"), false, false, false), 0);
}

// ---------------------------------------------------------------------------------------------
// Mutants the first full run left alive (docs/testing.md, "Mutation testing"), and rules held by a
// single test before (issue 26): each pinned at an input where the rule changes the answer.
// ---------------------------------------------------------------------------------------------

TEST(Pinned, CudaWarpAndBlockCapsOnEverySm) {
  // The CUDA C Programming Guide's "Technical Specifications per Compute Capability": resident warps
  // per SM 32 (7.5), 64 (8.0, 9.0, 10.x), 48 (8.6, 8.9, 12.0); resident blocks per SM 16 (7.5, 8.6),
  // 32 (8.0, 9.0, 10.x), 24 (8.9, and 12.0 as cuda_occupancy.h of CUDA 13.0 computes it).
  // 16 registers never limit (512 per warp: 32 warps per sub-partition); 32 threads = 1 warp a block,
  // so the blocks are the block slots; 256 threads = 8 warps, so the warps are max warps / 8 x 8.
  struct Caps {
    const char *arch;
    int warps, blocks;
  };
  const Caps caps[] = {{"sm_75", 32, 16},
                       {"sm_80", 64, 32},
                       {"sm_86", 48, 16},
                       {"sm_89", 48, 24},
                       {"sm_90", 64, 32},
                       {"sm_100", 64, 32},
                       {"sm_103", 64, 32},
                       {"sm_120", 48, 24},
                       // Not in the guide's table of 2025: Nsight Compute 2025.3.1's get_gpu_data (run on the
                       // H200 host, 2026-11-29) gives 8.7 48/16, 11.0 48/24, 12.1 48/24.
                       {"sm_87", 48, 16},
                       {"sm_110", 48, 24},
                       {"sm_121", 48, 24}};
  ASSERT_EQ(cudaArchs().size(), std::size(caps)) << "a new sm needs its caps here";
  for (const Caps &c : caps) {
    const CudaOccupancy one_warp = cuda(c.arch, 16, 32);
    EXPECT_EQ(one_warp.blocks_per_sm, c.blocks) << c.arch;
    const CudaOccupancy eight = cuda(c.arch, 16, 256);
    EXPECT_EQ(eight.max_warps_per_sm, c.warps) << c.arch;
    EXPECT_EQ(eight.blocks_per_sm, c.warps / 8) << c.arch;
    EXPECT_EQ(eight.warps_per_sm, c.warps) << c.arch;
  }
}

TEST(Pinned, CompilerGenerationOfThePrintedOccupancy) {
  // LLVM 16 (D139468, Dec 2022) spread a workgroup's waves over the SIMDs and gave WGP mode its 128 KiB;
  // LLVM 15 did not; LLVM 23 (#205637) rounds LDS to its granule, as the hardware does.
  EXPECT_EQ(compilerModelFor("Debian clang version 15.0.6"), CompilerModel::Llvm15);
  EXPECT_EQ(compilerModelFor("clang version 16.0.0"), CompilerModel::Llvm19);
  EXPECT_EQ(compilerModelFor("Ubuntu clang version 19.1.7"), CompilerModel::Llvm19);
  EXPECT_EQ(compilerModelFor("AMD clang version 22.0.0git"), CompilerModel::Llvm19);
  EXPECT_EQ(compilerModelFor("clang version 23.0.0"), CompilerModel::Hardware);
  EXPECT_EQ(compilerModelFor("no version here"), CompilerModel::Hardware);
}

TEST(Pinned, PtxasSpillStoresAndLoadsAreNotSwapped) {
  // fixtures/nvcc-13.0/spill_asym-sm_90.ptxas.txt (CUDA 13.0's ptxas, fixtures/regenerate.sh):
  // "192 bytes stack frame, 224 bytes spill stores, 280 bytes spill loads", "Used 24 registers".
  const FactSet set = parsePtxas(test::fixture("nvcc-13.0/spill_asym-sm_90.ptxas.txt"), "");
  const KernelFacts *k = test::find(set, "_Z10spill_asymPKfPfi");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->arch, "sm_90");
  EXPECT_EQ(k->get(Field::StackBytes), 192);
  EXPECT_EQ(k->get(Field::SpillStoreBytes), 224);
  EXPECT_EQ(k->get(Field::SpillLoadBytes), 280);
  EXPECT_EQ(k->get(Field::Registers), 24);
  // CUDA 13 also prints "192 bytes cumulative stack size", which sets the stack too; CUDA 11.8 prints
  // the stack frame alone (fixtures/ptxas-11.8, written by hand from the research notes, see its
  // README): "24 bytes stack frame, 20 bytes spill stores, 20 bytes spill loads" for fib.
  const FactSet old = parsePtxas(test::fixture("ptxas-11.8/kernels.ptxas.txt"), "");
  const KernelFacts *fib = test::find(old, "_Z3fibi");
  ASSERT_NE(fib, nullptr);
  EXPECT_EQ(fib->get(Field::StackBytes), 24);
  EXPECT_EQ(fib->get(Field::SpillStoreBytes), 20);
}

TEST(Pinned, KernelBaseNamesOfTemplateInstantiations) {
  // A second holder of the base-name rule (the first: Names.BaseName). The parameter list starts at
  // the first '(' outside template arguments, so a template argument in parentheses (ggml's
  // `mul_mat_vec_q<(ggml_type)2, 1, true, false>`, issue 22) stays inside; trailing template
  // arguments go.
  EXPECT_EQ(functionBaseName("void mul_mat_vec_q<(ggml_type)2, 1, true, false>(void const*, float*)"), "mul_mat_vec_q");
  EXPECT_EQ(functionBaseName("void ns::lbm_step<double>(double*)"), "lbm_step");
  EXPECT_EQ(functionBaseName("plain_c_kernel"), "plain_c_kernel");
}

TEST(Pinned, BaselineScratchAndSpillDirections) {
  // A second holder of the baseline's scratch comparison (the first: Baseline.RegressionsImprovements
  // AddedRemoved): more scratch is a regression, less an improvement, the same nothing.
  auto kernel = [](const std::string &name, int spills, int scratch) {
    KernelReport k;
    k.record.name = name;
    k.record.demangled = name + "(float*)";
    k.record.arch = "gfx90a";
    k.display_file = "k.hip";
    AmdKernelModel amd{*findAmdArch("gfx90a"), {}, std::nullopt, false, false};
    amd.occupancy.waves_per_simd = 4;
    amd.occupancy.limiter = Limiter::Vgpr;
    k.model = amd;
    k.summary = {Vendor::Amd, 4, 8, 4, 100, spills, scratch, Limiter::Vgpr};
    return k;
  };
  Report before, now;
  before.kernels = {kernel("grows", 0, 32), kernel("shrinks", 4, 64), kernel("same", 2, 16)};
  now.kernels = {kernel("grows", 0, 64), kernel("shrinks", 2, 32), kernel("same", 2, 16)};
  GateResult result;
  compareWithBaseline(now, baselineFromReport(before, ""), "", result);
  ASSERT_EQ(result.failures.size(), 1u);
  EXPECT_EQ(result.failures[0].rule, Rule::ScratchRegression);
  EXPECT_EQ(result.failures[0].kernel, "grows(float*)");
  EXPECT_EQ(result.failures[0].message, "scratch 32 -> 64 bytes/lane");
  ASSERT_EQ(result.improvements.size(), 2u);  // spills 4 -> 2 and scratch 64 -> 32
  for (const Verdict &v : result.improvements) EXPECT_EQ(v.kernel, "shrinks(float*)");
}

TEST(Pinned, CliffNoteAtFourRegistersOrFewer) {
  // The occupancy-cliff note (RS004) fires when fewer than 4 more VGPRs lower the occupancy
  // (src/gate/findings.cpp kCliffRegisters; docs/testing.md). gfx90a's 4-wave step is 97-128 VGPRs (Table 1):
  // at 125, 4 more (129) give 3 waves: a cliff; at 124 it takes 5: none.
  auto findingsFor = [](int vgprs, int sgprs = 0) {
    KernelReport k;
    k.record.name = "k";
    k.record.demangled = "k(float*)";
    k.record.arch = "gfx90a";
    k.display_file = "k.hip";
    KernelResources r;
    r.vgprs = vgprs;
    r.sgprs = sgprs;
    r.workgroup_size = 256;
    AmdKernelModel amd{*findAmdArch("gfx90a"), computeOccupancy(*findAmdArch("gfx90a"), r), std::nullopt, false, false};
    amd.resources = r;
    k.model = amd;
    k.summary = {Vendor::Amd, amd.occupancy.waves_per_simd, 8, amd.occupancy.by_vgpr, vgprs, 0, 0, Limiter::Vgpr};
    Report report;
    report.kernels = {k};
    std::vector<std::string> cliffs;
    for (const Verdict &v : analysisFindings(report))
      if (v.rule == Rule::Cliff) cliffs.push_back(v.message);
    return cliffs;
  };
  EXPECT_EQ(findingsFor(125), std::vector<std::string>{"4 more VGPRs lower the occupancy from 4 waves/SIMD"});
  EXPECT_EQ(findingsFor(128), std::vector<std::string>{"1 more VGPR lowers the occupancy from 4 waves/SIMD"});
  EXPECT_TRUE(findingsFor(124).empty());
  // SGPRs: gfx9's hardware allows 8 waves up to 96 SGPRs (six granules of 16 of its 800), 7 at
  // 97-112. At 10 VGPRs (no VGPR cliff) and 94 SGPRs, 3 more lower the occupancy; at 91, 6 do: no note.
  EXPECT_EQ(findingsFor(10, 94), std::vector<std::string>{"3 more SGPRs lower the occupancy from 8 waves/SIMD"});
  EXPECT_TRUE(findingsFor(10, 91).empty());
}

}  // namespace
}  // namespace regscope
