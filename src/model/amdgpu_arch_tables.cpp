// AMD GPU targets as data. Sources for the numbers:
//  [BaseInfo] llvm/lib/Target/AMDGPU/Utils/AMDGPUBaseInfo.cpp (LLVM 15-19):
//             getMaxWavesPerEU, getVGPRAllocGranule, getTotalNumVGPRs,
//             getOccupancyWithNumSGPRs, getAddressableNumSGPRs, getMaxWorkGroupsPerCU
//  [D138443]  LLVM's unit-test dump of the gfx90a/gfx940 VGPR table
//  [CDNA2]    AMD, "Register pressure in AMD CDNA2 GPUs": 4 SIMDs/CU, 8 waves/SIMD
//  [sweep]    compile sweep with hipcc 5.2.3 and clang 19 (docs/design.md)
// Adding a target is adding a row; nothing else in regscope branches on names.
#include <algorithm>
#include <cctype>

#include "arch_list.h"
#include "regscope/arch.h"

namespace regscope {
namespace {

// VI..GFX9 SGPR -> waves steps [BaseInfo getOccupancyWithNumSGPRs]. The input
// is the SGPR count including VCC / XNACK / flat-scratch extras.
const std::vector<SgprStep> kGfx9SgprSteps = {{80, 10}, {88, 9}, {100, 8}, {102, 7}};

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

const std::vector<AmdArch> &amdArchs() {
  static const std::vector<AmdArch> archs = {
      // GCN5 / CDNA1: 10 waves/SIMD, 256 VGPRs per lane, granule 4 [BaseInfo].
      {"gfx906", {"MI50", "MI60", "Radeon VII"}, "GCN5", 64, 10, 4, 256, 4, 256,
       AgprMode::None, 102, kGfx9SgprSteps, 65536, 65536, 16},
      {"gfx908", {"MI100"}, "CDNA1", 64, 10, 4, 256, 4, 256,
       AgprMode::Separate, 102, kGfx9SgprSteps, 65536, 65536, 16},
      // CDNA2: unified 512-entry VGPR+AGPR file, granule 8, 8 waves/SIMD
      // [BaseInfo, D138443, CDNA2].
      {"gfx90a", {"MI210", "MI250", "MI250X"}, "CDNA2", 64, 8, 4, 512, 8, 256,
       AgprMode::Unified, 102, kGfx9SgprSteps, 65536, 65536, 16},
      // CDNA3: same register rules as CDNA2 [BaseInfo, sweep].
      {"gfx940", {}, "CDNA3", 64, 8, 4, 512, 8, 256,
       AgprMode::Unified, 102, kGfx9SgprSteps, 65536, 65536, 16},
      {"gfx941", {}, "CDNA3", 64, 8, 4, 512, 8, 256,
       AgprMode::Unified, 102, kGfx9SgprSteps, 65536, 65536, 16},
      {"gfx942", {"MI300X", "MI300A"}, "CDNA3", 64, 8, 4, 512, 8, 256,
       AgprMode::Unified, 102, kGfx9SgprSteps, 65536, 65536, 16},
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

std::string knownArchList() { return formatArchList(amdArchs()); }

}  // namespace regscope
