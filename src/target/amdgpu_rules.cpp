// The per-resource rules of AMD targets: LLVM's IsaInfo functions
// (llvm/lib/Target/AMDGPU/Utils/AMDGPUBaseInfo.cpp) over an arch row, and the
// hardware's LDS/workgroup rule. Each gives a waves-per-SIMD limit for one
// resource; the model (src/model/) combines them.
#include <algorithm>

#include "regscope/support/search.h"
#include "regscope/target/amdgpu.h"

namespace regscope {
namespace {

int alignTo(int value, int granule) { return (value + granule - 1) / granule * granule; }
int divideCeil(int a, int b) { return (a + b - 1) / b; }

}  // namespace

int totalVgprs(const AmdArch &arch, int vgprs, int agprs) {
  switch (arch.agprs) {
    case AgprMode::Unified:
      return agprs > 0 ? alignTo(vgprs, 4) + agprs : vgprs;
    case AgprMode::Separate:
      return std::max(vgprs, agprs);
    case AgprMode::None:
      return vgprs;
  }
  return vgprs;
}

int wavesByVgprsWith(int max_waves, int granule, int file, int vgprs_total) {
  if (vgprs_total < granule) return max_waves;
  const int waves = file / alignTo(vgprs_total, granule);
  return std::clamp(waves, 1, max_waves);
}

int wavesByVgprs(const AmdArch &arch, int vgprs_total) {
  return wavesByVgprsWith(arch.max_waves_per_simd, arch.vgpr_granule, arch.vgpr_file, vgprs_total);
}

int allocatedSgprsOf(const AmdArch &arch, int sgprs) {
  return arch.sgprs.granule ? alignTo(sgprs, arch.sgprs.granule) : sgprs;
}

int wavesBySgprs(const AmdArch &arch, int sgprs, TermRule rule) {
  const SgprFile &file = arch.sgprs;
  if (file.steps.empty()) return arch.max_waves_per_simd;
  // The hardware: whole granules out of the SIMD's file. (LLVM 23 also counts
  // the trap handler's 16 on amdhsa; ROCm's runtime does not, nor does this.)
  if (rule == TermRule::Hardware && file.per_simd > 0)
    return std::min(arch.max_waves_per_simd, file.per_simd / allocatedSgprsOf(arch, std::max(sgprs, 1)));
  for (const SgprStep &step : file.steps)
    if (sgprs <= step.max_sgprs) return std::min(step.waves, arch.max_waves_per_simd);
  return std::min(file.steps.back().waves, arch.max_waves_per_simd);
}

int extraSgprs(const AmdArch &arch, bool vcc_used, bool flat_scratch_used, bool xnack_used) {
  int extra = vcc_used ? 2 : 0;
  if (arch.generation == AmdGeneration::Gfx10Plus) return extra;
  if (xnack_used) extra = 4;
  if (flat_scratch_used || arch.architected_flat_scratch) extra = 6;
  return extra;
}

int workgroupsPerCu(const AmdArch &arch, int lds_bytes, int workgroup_size, TermRule rule) {
  const int waves_per_group = divideCeil(std::max(workgroup_size, 1), arch.wave_size);
  const int wave_slots = arch.max_waves_per_simd * arch.simds_per_cu;
  int max_groups;
  if (rule == TermRule::Llvm15)  // getMaxWorkGroupsPerCU in LLVM 15: 40 wave slots
    max_groups = waves_per_group == 1 ? 40 : std::min(40 / waves_per_group, 16);
  else
    max_groups = waves_per_group == 1 ? wave_slots : std::min(wave_slots / waves_per_group, arch.max_workgroups_per_cu);
  // LLVM 15 knew no WGP: 64 KiB per CU whatever the target.
  const int lds_per_cu = rule == TermRule::Llvm15 ? std::min(arch.lds_per_cu, 65536) : arch.lds_per_cu;
  // The hardware allocates whole granules; the compilers before LLVM 23 divided the bytes.
  const int allocated = rule == TermRule::Hardware ? alignTo(lds_bytes, arch.lds_granule) : lds_bytes;
  return allocated > 0 ? std::min(max_groups, lds_per_cu / allocated) : max_groups;
}

int wavesByLds(const AmdArch &arch, int lds_bytes, int workgroup_size, TermRule rule) {
  const int waves_per_group = divideCeil(std::max(workgroup_size, 1), arch.wave_size);
  const int groups = workgroupsPerCu(arch, lds_bytes, workgroup_size, rule);
  if (groups <= 0) return 1;  // as LLVM does; larger-than-CU LDS is rejected before this
  const int waves =
      rule == TermRule::Llvm15 ? groups * waves_per_group : divideCeil(groups * waves_per_group, arch.simds_per_cu);
  return std::min(waves, arch.max_waves_per_simd);
}

int maxVgprsForWaves(const AmdArch &arch, int waves) {
  int file = arch.agprs == AgprMode::Unified ? arch.vgpr_file : arch.max_arch_vgprs;
  return largestWhere(1, file, [&](int v) { return wavesByVgprs(arch, v) >= waves; });
}

std::vector<VgprTableRow> vgprTable(const AmdArch &arch) {
  std::vector<VgprTableRow> rows;
  int low = 0;
  for (int waves = arch.max_waves_per_simd; waves >= 1; --waves) {
    int high = maxVgprsForWaves(arch, waves);
    if (high <= low) continue;  // no VGPR count gives exactly this many waves
    rows.push_back({low == 0 ? 0 : low + 1, high, waves});
    low = high;
  }
  return rows;
}

}  // namespace regscope
