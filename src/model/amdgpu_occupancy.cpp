// The AMD occupancy model. Each resource gives a waves-per-SIMD limit; the
// smallest wins. The VGPR and SGPR terms are LLVM's own (AMDGPUBaseInfo.cpp);
// the LDS/workgroup term follows the hardware: a workgroup's waves are spread
// over the CU's SIMDs and the CU's LDS is shared by its resident workgroups.
// Inverse questions (how many VGPRs for one more wave) are answered by
// searching the monotone forward functions, so each rule is written once.
#include <algorithm>
#include <cstdlib>

#include "regscope/occupancy.h"

namespace regscope {
namespace {

int alignTo(int value, int granule) { return (value + granule - 1) / granule * granule; }
int divideCeil(int a, int b) { return (a + b - 1) / b; }

// Largest x in [lo, hi] with pred(x) true, assuming pred is true at lo and
// monotone (true ... true false ... false). Returns lo - 1 if pred(lo) fails.
template <typename Pred>
int largestWhere(int lo, int hi, Pred pred) {
  if (!pred(lo)) return lo - 1;
  while (lo < hi) {
    int mid = lo + (hi - lo + 1) / 2;
    if (pred(mid)) lo = mid; else hi = mid - 1;
  }
  return lo;
}

}  // namespace

int totalVgprs(const AmdArch &arch, int vgprs, int agprs) {
  switch (arch.agprs) {
    case AgprMode::Unified:  return agprs > 0 ? alignTo(vgprs, 4) + agprs : vgprs;
    case AgprMode::Separate: return std::max(vgprs, agprs);
    case AgprMode::None:     return vgprs;
  }
  return vgprs;
}

int wavesByVgprs(const AmdArch &arch, int vgprs_total) {
  // IsaInfo::getNumWavesPerEUWithNumVGPRs.
  if (vgprs_total < arch.vgpr_granule) return arch.max_waves_per_simd;
  int waves = arch.vgpr_file / alignTo(vgprs_total, arch.vgpr_granule);
  return std::clamp(waves, 1, arch.max_waves_per_simd);
}

int wavesBySgprs(const AmdArch &arch, int sgprs) {
  if (arch.sgpr_steps.empty()) return arch.max_waves_per_simd;
  for (const SgprStep &step : arch.sgpr_steps)
    if (sgprs <= step.max_sgprs) return std::min(step.waves, arch.max_waves_per_simd);
  return std::min(arch.sgpr_steps.back().waves, arch.max_waves_per_simd);
}

int wavesByLds(const AmdArch &arch, int lds_bytes, int workgroup_size, LdsRule rule) {
  int waves_per_group = divideCeil(std::max(workgroup_size, 1), arch.wave_size);
  int wave_slots = arch.max_waves_per_simd * arch.simds_per_cu;
  int max_groups;
  if (rule == LdsRule::Llvm15)  // getMaxWorkGroupsPerCU in LLVM 15: 40 wave slots
    max_groups = waves_per_group == 1 ? 40 : std::min(40 / waves_per_group, 16);
  else
    max_groups = waves_per_group == 1 ? wave_slots
                                      : std::min(wave_slots / waves_per_group, arch.max_workgroups_per_cu);
  // LLVM 15 knew no WGP: 64 KiB per CU whatever the target.
  const int lds_per_cu = rule == LdsRule::Llvm15 ? std::min(arch.lds_per_cu, 65536) : arch.lds_per_cu;
  int groups = lds_bytes > 0 ? std::min(max_groups, lds_per_cu / lds_bytes) : max_groups;
  if (groups <= 0) return 1;  // as LLVM does; larger-than-CU LDS is rejected before this
  int waves = rule == LdsRule::Llvm15 ? groups * waves_per_group
                                      : divideCeil(groups * waves_per_group, arch.simds_per_cu);
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

Occupancy computeOccupancy(const AmdArch &arch, const KernelResources &r, LdsRule rule) {
  Occupancy occ;
  occ.max_waves_per_simd = arch.max_waves_per_simd;
  occ.vgprs_total = r.vgprs_total > 0 ? r.vgprs_total : totalVgprs(arch, r.vgprs, r.agprs);
  occ.by_vgpr = wavesByVgprs(arch, occ.vgprs_total);
  occ.by_sgpr = wavesBySgprs(arch, r.sgprs);
  occ.by_lds = wavesByLds(arch, r.lds_bytes, r.workgroup_size, rule);
  occ.by_workgroup = wavesByLds(arch, 0, r.workgroup_size, rule);
  occ.waves_per_simd = std::min({occ.by_vgpr, occ.by_sgpr, occ.by_lds, arch.max_waves_per_simd});

  // The limiter: registers first (the usual story), then LDS, then slots.
  const int w = occ.waves_per_simd;
  if (w == arch.max_waves_per_simd) occ.limiter = "none";
  else if (occ.by_vgpr == w) occ.limiter = "vgpr";
  else if (occ.by_sgpr == w) occ.limiter = "sgpr";
  else if (occ.by_workgroup == w) occ.limiter = "workgroup";
  else occ.limiter = "lds";

  // The most of each resource that still allows `waves`.
  auto sgprCap = [&](int waves) {
    return largestWhere(1, arch.max_sgprs, [&](int s) { return wavesBySgprs(arch, s) >= waves; });
  };
  auto ldsCap = [&](int waves) {
    return largestWhere(0, arch.max_lds_per_workgroup,
                        [&](int l) { return wavesByLds(arch, l, r.workgroup_size, rule) >= waves; });
  };

  // Headroom: what can grow before the occupancy drops below w.
  occ.headroom.vgprs = std::max(0, maxVgprsForWaves(arch, w) - occ.vgprs_total);
  occ.headroom.sgprs = std::max(0, sgprCap(w) - r.sgprs);
  occ.headroom.lds_bytes = std::max(0, ldsCap(w) - r.lds_bytes);

  // Next step: one wave more, if every resource can get there.
  if (w < arch.max_waves_per_simd && occ.by_workgroup > w) {
    const int target = w + 1;
    const int vgpr_cap = maxVgprsForWaves(arch, target);
    const int sgpr_cap = sgprCap(target);
    const int lds_cap = ldsCap(target);
    if (vgpr_cap >= 1 && sgpr_cap >= 1 && lds_cap >= 0) {
      NextStep next;
      next.waves_per_simd = target;
      next.vgprs_to_free = std::max(0, occ.vgprs_total - vgpr_cap);
      next.sgprs_to_free = std::max(0, r.sgprs - sgpr_cap);
      next.lds_bytes_to_free = std::max(0, r.lds_bytes - lds_cap);
      occ.next = next;
    }
  }
  return occ;
}

}  // namespace regscope

namespace regscope {

Occupancy computeOccupancyAs(const AmdArch &arch, const KernelResources &r, CompilerModel model) {
  if (model != CompilerModel::Llvm15) return computeOccupancy(arch, r);  // LLVM 16-20 print the hardware figure
  AmdArch as15 = arch;
  if (arch.vgpr_file_1_5x) {  // LLVM 15 treats gfx11 like gfx10.3
    as15.vgpr_file = arch.vgpr_file * 2 / 3;
    as15.vgpr_granule = arch.vgpr_granule * 2 / 3;
  }
  return computeOccupancy(as15, r, LdsRule::Llvm15);
}

CompilerModel compilerModelFor(const std::string &version) {
  const std::size_t at = version.find("version ");
  if (at == std::string::npos) return CompilerModel::Hardware;
  const int major = std::atoi(version.c_str() + at + 8);
  if (major == 15) return CompilerModel::Llvm15;
  if (major >= 16 && major <= 20) return CompilerModel::Llvm19;
  return CompilerModel::Hardware;
}

}  // namespace regscope
