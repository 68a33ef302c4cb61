// Architecture facts as data: one row per target, each number with its source
// in amdgpu_arch_tables.cpp. The occupancy model reads only these rows.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace regscope {

// How accumulation registers share the VGPR budget.
enum class AgprMode {
  None,      // no AGPRs
  Separate,  // gfx908: own 256-entry file; occupancy follows max(v, a)
  Unified,   // gfx90a+: one 512-entry file; total = alignTo(v, 4) + a
};

// A step of the SGPR -> waves table: up to `max_sgprs`, at most `waves`.
struct SgprStep {
  int max_sgprs;
  int waves;
};

struct AmdArch {
  std::string_view name;                   // "gfx90a"
  std::vector<std::string_view> products;  // "MI210", "MI250", ...
  std::string_view family;                 // "CDNA2"
  int wave_size;
  int max_waves_per_simd;
  int simds_per_cu;
  int vgpr_file;        // VGPRs per SIMD lane available to waves (TotalNumVGPRs)
  int vgpr_granule;     // allocation granule
  int max_arch_vgprs;   // addressable v0..v255
  AgprMode agprs;
  int max_sgprs;        // addressable SGPRs incl. extras
  std::vector<SgprStep> sgpr_steps;  // empty: SGPRs never limit occupancy
  int lds_per_cu;       // bytes shared by the workgroups resident on a CU (a WGP on RDNA)
  int max_lds_per_workgroup;
  int max_workgroups_per_cu;  // barrier / workgroup-slot limit for multi-wave groups
  // RDNA: the other wave size (0: none) with its register file, and whether
  // the target has CU mode (-mcumode: half a WGP's LDS and SIMDs).
  int alt_wave_size = 0;
  int alt_vgpr_file = 0;
  int alt_vgpr_granule = 0;
  bool has_cu_mode = false;
  // The 1.5x VGPR file (gfx1100/1101/1200), which LLVM 15 did not model.
  bool vgpr_file_1_5x = false;
};

// The known targets, in table order.
const std::vector<AmdArch> &amdArchs();

// Looks a target up by name ("gfx90a") or product ("MI250X", case-insensitive).
const AmdArch *findAmdArch(std::string_view name_or_product);

// "gfx906 gfx908 gfx90a ..." for error messages.
std::string knownArchList();

// The row as a kernel runs on it: `wave_size` (0: the default) picks the
// register file; `cu_mode` halves a WGP into a CU (2 SIMDs, half the LDS and
// workgroup slots). Throws regscope::Error for a wave size or mode the
// target does not have.
AmdArch configureArch(const AmdArch &arch, int wave_size, bool cu_mode);

}  // namespace regscope
