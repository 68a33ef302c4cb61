// AMD targets as data, and the per-resource rules over them. One row per
// target, each number with its source in amdgpu_targets.cpp; the rules in
// amdgpu_rules.cpp are LLVM's IsaInfo functions keyed by the row, never by the
// target's name. The occupancy model and the .s expression evaluator both
// read these, as AMDGPUMCExpr and GCNSubtarget share IsaInfo in LLVM.
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

// How SGPRs limit waves on a target whose SIMDs share an SGPR file (gfx9).
// The hardware allocates a wave's SGPRs in granules, out of `per_simd`; the
// compilers before LLVM 23 print a step table instead, which counts in 8s
// (81-88 SGPRs: 9 waves where granules of 16 leave room for 8). Empty steps:
// SGPRs never limit occupancy (gfx10+ gives every wave its SGPRs).
struct SgprFile {
  std::vector<SgprStep> steps;  // the compilers' table (LLVM 15-22)
  int per_simd = 0;             // SGPRs a SIMD holds (0: the steps stand for the hardware too)
  int granule = 0;              // the allocation granule
};

// The ISA generation where a rule differs by it (SGPR extras, SGPR limits).
enum class AmdGeneration { Gfx9, Gfx10Plus };

// The target regscope assumes when none is given.
inline constexpr const char *kDefaultAmdArch = "gfx90a";

struct AmdArch {
  std::string_view name;                   // "gfx90a"
  std::vector<std::string_view> products;  // "MI210", "MI250", ...
  std::string_view family;                 // "CDNA2"
  AmdGeneration generation;
  bool architected_flat_scratch;  // gfx940+: flat scratch is always set up (6 extra SGPRs)
  int wave_size;
  int max_waves_per_simd;
  int simds_per_cu;
  int vgpr_file;       // VGPRs per SIMD lane available to waves (TotalNumVGPRs)
  int vgpr_granule;    // allocation granule
  int max_arch_vgprs;  // addressable v0..v255
  AgprMode agprs;
  int max_sgprs;   // the most a compiler reports: addressable SGPRs + VCC/XNACK/flat-scratch extras
  SgprFile sgprs;  // how SGPRs limit waves (none on gfx10+)
  int lds_per_cu;  // bytes shared by the workgroups resident on a CU (a WGP on RDNA)
  int max_lds_per_workgroup;
  int lds_granule;            // a workgroup's LDS is allocated in blocks of this many bytes
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

// A target id as the compiler wants it: a product name mapped to its target,
// features kept ("MI250X:xnack+" -> "gfx90a:xnack+"). Throws like requireAmdArch.
std::string canonicalAmdTarget(std::string_view name_or_product);

// findAmdArch, or regscope::Error "unknown arch 'X'; known: ..." listing them.
const AmdArch &requireAmdArch(std::string_view name_or_product);

// "gfx906, gfx908 (MI100), ..." for error messages.
std::string knownArchList();

// The row as a kernel runs on it: `wave_size` (0: the default) picks the
// register file; `cu_mode` halves a WGP into a CU (2 SIMDs, half the LDS and
// workgroup slots). Throws regscope::Error for a wave size or mode the
// target does not have.
AmdArch configureArch(const AmdArch &arch, int wave_size, bool cu_mode);

// ---- The per-resource rules (amdgpu_rules.cpp) ----

// Whose rule a term follows. The hardware spreads a workgroup's waves over the
// CU's SIMDs, allocates LDS in granules and SGPRs in granules of 16. LLVM 16-22
// spread but do not round LDS, and count SGPRs by a step table; LLVM 15 did
// not spread either, and overstates LDS-bound kernels. The older rules are
// kept so regscope can explain the figures those compilers printed.
enum class TermRule { Hardware, Llvm16, Llvm15 };

// The unified VGPR count that decides occupancy on `arch`.
int totalVgprs(const AmdArch &arch, int vgprs, int agprs);

// Waves per SIMD allowed by each resource alone.
int wavesByVgprs(const AmdArch &arch, int vgprs_total);
int wavesBySgprs(const AmdArch &arch, int sgprs, TermRule rule = TermRule::Hardware);
// The SGPRs a wave of `sgprs` is allocated: whole granules of the SGPR file (gfx9);
// `sgprs` itself where SGPRs are not allocated from a shared file (gfx10+).
int allocatedSgprsOf(const AmdArch &arch, int sgprs);
int wavesByLds(const AmdArch &arch, int lds_bytes, int workgroup_size, TermRule rule = TermRule::Hardware);

// Workgroups resident on a CU (a WGP on RDNA): the slot limit and the LDS they share.
int workgroupsPerCu(const AmdArch &arch, int lds_bytes, int workgroup_size, TermRule rule = TermRule::Hardware);

// IsaInfo::getNumWavesPerEUWithNumVGPRs with its inputs spelled out, as the
// .s occupancy() expression passes them.
int wavesByVgprsWith(int max_waves, int granule, int file, int vgprs_total);

// IsaInfo::getNumExtraSGPRs: the VCC, XNACK and flat-scratch SGPRs a kernel
// adds to its numbered ones.
int extraSgprs(const AmdArch &arch, bool vcc_used, bool flat_scratch_used, bool xnack_used);

// The largest VGPR total that still allows `waves` (0 if none does).
int maxVgprsForWaves(const AmdArch &arch, int waves);

// One row of an arch's VGPR table: totals in [min_vgprs, max_vgprs] give
// waves_per_simd (registers alone; seed 000's Table 1 for gfx90a).
struct VgprTableRow {
  int min_vgprs, max_vgprs, waves_per_simd;
};
std::vector<VgprTableRow> vgprTable(const AmdArch &arch);

}  // namespace regscope
