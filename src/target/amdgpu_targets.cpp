// AMD GPU targets as data. Sources for the numbers:
//  [BaseInfo] llvm/lib/Target/AMDGPU/Utils/AMDGPUBaseInfo.cpp (LLVM 15-19):
//             getMaxWavesPerEU, getVGPRAllocGranule, getTotalNumVGPRs,
//             getOccupancyWithNumSGPRs, getAddressableNumSGPRs, getMaxWorkGroupsPerCU
//  [D138443]  LLVM's unit-test dump of the gfx90a/gfx940 VGPR table
//  [CDNA2]    AMD, "Register pressure in AMD CDNA2 GPUs": 4 SIMDs/CU, 8 waves/SIMD
//  [sweep]    compile sweep with hipcc 5.2.3 and clang 19 (docs/design.md)
//  [LdsGranule] AMDGPUUsage.rst, COMPUTE_PGM_RSRC2.LDS_SIZE: LDS is allocated to a
//             workgroup in 128-dword (512-byte) blocks on GFX7-GFX12; llvm-project
//             #205637 rounds to it in the occupancy (LLVM 23), #208046 gives gfx950's 1280
//  [ExtraSGPR] IsaInfo::getNumExtraSGPRs; gfx940+ have FeatureArchitectedFlatScratch
//             (GCNProcessors.td / AMDGPU.td), so flat scratch always counts there
// Adding a target is adding a row; nothing else in regscope branches on names.
#include <algorithm>
#include <cctype>

#include "arch_list.h"
#include "regscope/support/error.h"
#include "regscope/target/amdgpu.h"
#include "regscope/target/cuda.h"
#include "regscope/target/intel.h"

namespace regscope {
namespace {

// VI..GFX9 SGPRs. The compilers' steps [BaseInfo getOccupancyWithNumSGPRs,
// LLVM 15-22], over the SGPR count including VCC / XNACK / flat-scratch extras;
// the hardware's 800 SGPRs per SIMD in granules of 16 [BaseInfo
// getTotalNumSGPRs, getSGPRAllocGranule; ROCm CLR's occupancy:
// sgprsPerSimd / alignUp(sgprs, 16); llvm-project #201342, LLVM 23].
const SgprFile kGfx9Sgprs = {{{80, 10}, {88, 9}, {100, 8}, {102, 7}}, 800, 16};

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

const std::vector<AmdArch> &amdArchs() {
  // name, products, family,
  //   generation, architected flat scratch,
  //   wave size, waves/SIMD, SIMDs/CU, VGPR file, granule, max arch VGPRs,
  //   AGPRs, max SGPRs, SGPR file, LDS/CU, LDS/workgroup, LDS granule, workgroups/CU,
  //   [RDNA: other wave size, its VGPR file and granule, CU mode, 1.5x file]
  // Max SGPRs is the largest count a compiler reports: the addressable SGPRs
  // (102 on GFX9, 106 on GFX10+) plus the VCC/XNACK/flat-scratch extras [BaseInfo, ExtraSGPR].
  static const std::vector<AmdArch> archs = {
      // GCN5 / CDNA1: 10 waves/SIMD, 256 VGPRs per lane, granule 4 [BaseInfo].
      {"gfx906",
       {"MI50", "MI60", "Radeon VII"},
       "GCN5",
       AmdGeneration::Gfx9,
       false,
       64,
       10,
       4,
       256,
       4,
       256,
       AgprMode::None,
       108,
       kGfx9Sgprs,
       65536,
       65536,
       512,
       16},
      {"gfx908",
       {"MI100"},
       "CDNA1",
       AmdGeneration::Gfx9,
       false,
       64,
       10,
       4,
       256,
       4,
       256,
       AgprMode::Separate,
       108,
       kGfx9Sgprs,
       65536,
       65536,
       512,
       16},
      // CDNA2: unified 512-entry VGPR+AGPR file, granule 8, 8 waves/SIMD
      // [BaseInfo, D138443, CDNA2].
      {"gfx90a",
       {"MI210", "MI250", "MI250X"},
       "CDNA2",
       AmdGeneration::Gfx9,
       false,
       64,
       8,
       4,
       512,
       8,
       256,
       AgprMode::Unified,
       108,
       kGfx9Sgprs,
       65536,
       65536,
       512,
       16},
      // CDNA3: same register rules as CDNA2 [BaseInfo, sweep].
      {"gfx940",
       {},
       "CDNA3",
       AmdGeneration::Gfx9,
       true,
       64,
       8,
       4,
       512,
       8,
       256,
       AgprMode::Unified,
       108,
       kGfx9Sgprs,
       65536,
       65536,
       512,
       16},
      {"gfx941",
       {},
       "CDNA3",
       AmdGeneration::Gfx9,
       true,
       64,
       8,
       4,
       512,
       8,
       256,
       AgprMode::Unified,
       108,
       kGfx9Sgprs,
       65536,
       65536,
       512,
       16},
      {"gfx942",
       {"MI300X", "MI300A", "MI325X"},
       "CDNA3",
       AmdGeneration::Gfx9,
       true,
       64,
       8,
       4,
       512,
       8,
       256,
       AgprMode::Unified,
       108,
       kGfx9Sgprs,
       65536,
       65536,
       512,
       16},
      // CDNA4: CDNA3's registers, 160 KiB of LDS per CU in a 1280-byte granule
      // [LDS160: llvm-project #116309; granule: #208046; occupancy-levels.ll's gfx950 rows].
      {"gfx950",
       {"MI350X", "MI355X"},
       "CDNA4",
       AmdGeneration::Gfx9,
       true,
       64,
       8,
       4,
       512,
       8,
       256,
       AgprMode::Unified,
       108,
       kGfx9Sgprs,
       163840,
       163840,
       1280,
       16},
      // RDNA (gfx10.3+): 16 waves/SIMD, SGPRs never limit, wave32 by default
      // with wave64 available, a WGP of 4 SIMDs sharing 128 KiB of LDS, 32
      // workgroup slots (WGP mode, the default) [BaseInfo, D139468, sweep].
      // gfx1030: 1024 VGPRs per lane in wave32 (granule 16), 512 in wave64 (8).
      {"gfx1030", {"RX 6900 XT", "RX 6800 XT", "RX 6800"},
       "RDNA2",   AmdGeneration::Gfx10Plus,
       false,     32,
       16,        4,
       1024,      16,
       256,       AgprMode::None,
       108,       {},
       131072,    65536,
       512,       32,
       64,        512,
       8,         true},
      // gfx1100/1101 (and gfx1151, gfx1200/1201): the 1.5x register file, 1536
      // (granule 24) in wave32 and 768 (12) in wave64; LLVM 15 still models them
      // as gfx1030. gfx1102 and gfx1150/1152 have the 1024 file [occupancy-levels.ll's
      // RUN lines: GFX1100 vs GFX1030 prefixes; #113163].
      {"gfx1100", {"RX 7900 XTX", "RX 7900 XT", "W7900"},
       "RDNA3",   AmdGeneration::Gfx10Plus,
       false,     32,
       16,        4,
       1536,      24,
       256,       AgprMode::None,
       108,       {},
       131072,    65536,
       512,       32,
       64,        768,
       12,        true,
       true},
      {"gfx1101", {"RX 7800 XT", "RX 7700 XT"},
       "RDNA3",   AmdGeneration::Gfx10Plus,
       false,     32,
       16,        4,
       1536,      24,
       256,       AgprMode::None,
       108,       {},
       131072,    65536,
       512,       32,
       64,        768,
       12,        true,
       true},
      {"gfx1102", {"RX 7600"}, "RDNA3", AmdGeneration::Gfx10Plus,
       false,     32,          16,      4,
       1024,      16,          256,     AgprMode::None,
       108,       {},          131072,  65536,
       512,       32,          64,      512,
       8,         true},
      // RDNA3.5: gfx1150 (Strix Point), gfx1151 (Strix Halo, the 1.5x file), gfx1152 (Krackan Point).
      {"gfx1150", {"Radeon 890M"},
       "RDNA3.5", AmdGeneration::Gfx10Plus,
       false,     32,
       16,        4,
       1024,      16,
       256,       AgprMode::None,
       108,       {},
       131072,    65536,
       512,       32,
       64,        512,
       8,         true},
      {"gfx1151", {"Radeon 8060S"},
       "RDNA3.5", AmdGeneration::Gfx10Plus,
       false,     32,
       16,        4,
       1536,      24,
       256,       AgprMode::None,
       108,       {},
       131072,    65536,
       512,       32,
       64,        768,
       12,        true,
       true},
      {"gfx1152", {"Radeon 860M"},
       "RDNA3.5", AmdGeneration::Gfx10Plus,
       false,     32,
       16,        4,
       1024,      16,
       256,       AgprMode::None,
       108,       {},
       131072,    65536,
       512,       32,
       64,        512,
       8,         true},
      // RDNA4 [#96272 "Set total VGPRs to 1536 for gfx12"].
      {"gfx1200", {"RX 9060 XT"},
       "RDNA4",   AmdGeneration::Gfx10Plus,
       false,     32,
       16,        4,
       1536,      24,
       256,       AgprMode::None,
       108,       {},
       131072,    65536,
       512,       32,
       64,        768,
       12,        true,
       true},
      {"gfx1201", {"RX 9070 XT", "RX 9070"},
       "RDNA4",   AmdGeneration::Gfx10Plus,
       false,     32,
       16,        4,
       1536,      24,
       256,       AgprMode::None,
       108,       {},
       131072,    65536,
       512,       32,
       64,        768,
       12,        true,
       true},
  };
  return archs;
}

const AmdArch *findAmdArch(std::string_view name_or_product) {
  // Accept target-id features as clang prints them: "gfx90a:xnack+".
  std::string_view base = name_or_product.substr(0, name_or_product.find(':'));
  for (const AmdArch &arch : amdArchs()) {
    if (equalsIgnoreCase(arch.name, base)) return &arch;
    for (std::string_view product : arch.products)
      if (equalsIgnoreCase(product, base)) return &arch;
  }
  return nullptr;
}

AmdArch configureArch(const AmdArch &arch, int wave_size, bool cu_mode) {
  AmdArch configured = arch;
  if (wave_size != 0 && wave_size != arch.wave_size) {
    if (wave_size != arch.alt_wave_size)
      throw Error(std::string(arch.name) + " has no wave" + std::to_string(wave_size) + " (it runs wave" +
                  std::to_string(arch.wave_size) +
                  (arch.alt_wave_size ? " or wave" + std::to_string(arch.alt_wave_size) : std::string()) + ")");
    configured.wave_size = arch.alt_wave_size;
    configured.vgpr_file = arch.alt_vgpr_file;
    configured.vgpr_granule = arch.alt_vgpr_granule;
    configured.alt_wave_size = arch.wave_size;
    configured.alt_vgpr_file = arch.vgpr_file;
    configured.alt_vgpr_granule = arch.vgpr_granule;
  }
  if (cu_mode) {
    if (!arch.has_cu_mode) throw Error(std::string(arch.name) + " has no CU mode (it is not an RDNA target)");
    configured.simds_per_cu /= 2;
    configured.lds_per_cu /= 2;
    configured.max_workgroups_per_cu /= 2;
  }
  return configured;
}

const AmdArch &requireAmdArch(std::string_view name_or_product) {
  if (const AmdArch *arch = findAmdArch(name_or_product)) return *arch;
  throw Error("unknown arch '" + std::string(name_or_product) + "'; known: " + knownArchList() +
              "; NVIDIA: " + knownCudaArchList() + "; Intel: " + formatArchList(intelDevices()));
}

std::string canonicalAmdTarget(std::string_view name_or_product) {
  const std::size_t colon = name_or_product.find(':');
  const AmdArch &arch = requireAmdArch(name_or_product.substr(0, colon));
  return std::string(arch.name) + std::string(colon == std::string_view::npos ? "" : name_or_product.substr(colon));
}

std::string knownArchList() { return formatArchList(amdArchs()); }

}  // namespace regscope
