// The AMD occupancy model. Each resource gives a waves-per-SIMD limit
// (target/amdgpu.h's rules); the smallest wins. Inverse questions (how many
// VGPRs for one more wave) are answered by searching the monotone forward
// rules, so each rule is written once.
#include <algorithm>
#include <charconv>
#include <cstdlib>

#include "regscope/model/amdgpu_occupancy.h"
#include "regscope/support/search.h"

namespace regscope {
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
  if (w == arch.max_waves_per_simd) occ.limiter = Limiter::None;
  else if (occ.by_vgpr == w) occ.limiter = Limiter::Vgpr;
  else if (occ.by_sgpr == w) occ.limiter = Limiter::Sgpr;
  else if (occ.by_workgroup == w) occ.limiter = Limiter::Workgroup;
  else occ.limiter = Limiter::Lds;

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
  int major = 0;  // digits out of range leave 0: an unknown generation
  std::from_chars(version.data() + at + 8, version.data() + version.size(), major);
  if (major == 15) return CompilerModel::Llvm15;
  if (major >= 16 && major <= 20) return CompilerModel::Llvm19;
  return CompilerModel::Hardware;
}

}  // namespace regscope
