// The AMD occupancy model. Each resource gives a waves-per-SIMD limit
// (target/amdgpu.h's rules); the smallest wins. Inverse questions (how many
// VGPRs for one more wave) are answered by searching the monotone forward
// rules, so each rule is written once.
#include <algorithm>
#include <charconv>
#include <cstdlib>

#include "regscope/backends/amd/amdgpu_occupancy.h"
#include "regscope/support/search.h"

namespace regscope {
namespace {

int divideCeil(int a, int b) { return (a + b - 1) / b; }

// The figure that counts for `r`: waves per SIMD, or per CU when a workgroup
// has fewer waves than the CU has SIMDs (the per-SIMD figure rounds up there
// and hides idle SIMDs). Each resource alone, and all together.
//
// The hardware dispatches whole workgroups: a CU takes a workgroup only when
// all its waves fit. So each register limit (waves per SIMD) becomes wave
// slots per CU, whole workgroups of those, and the waves of those workgroups
// (AMD's Radeon Compute Profiler, CLCUInfoSI::ComputeNumActiveWaves, counts
// the same way). LLVM's remark does not: its register terms stay per SIMD
// (GCNSubtarget::computeOccupancy), so the compiler models keep that rule.
class Levels {
 public:
  Levels(const AmdArch &arch, const KernelResources &r, TermRule rule)
      : arch_(arch),
        r_(r),
        rule_(rule),
        waves_per_group_(divideCeil(std::max(r.workgroup_size, 1), arch.wave_size)),
        per_cu_(waves_per_group_ < arch.simds_per_cu),
        whole_groups_(rule == TermRule::Hardware) {}

  bool perCu() const { return per_cu_; }
  int max() const { return per_cu_ ? arch_.max_waves_per_simd * arch_.simds_per_cu : arch_.max_waves_per_simd; }
  int byVgprs(int vgprs_total) const { return registers(wavesByVgprs(arch_, vgprs_total)); }
  int bySgprs(int sgprs) const { return registers(wavesBySgprs(arch_, sgprs, rule_)); }
  int byLds(int lds_bytes) const {
    if (!per_cu_) return wavesByLds(arch_, lds_bytes, r_.workgroup_size, rule_);
    return std::max(workgroupsPerCu(arch_, lds_bytes, r_.workgroup_size, rule_), 1) * waves_per_group_;
  }
  int all(int vgprs_total, int sgprs, int lds_bytes) const {
    return std::min({byVgprs(vgprs_total), bySgprs(sgprs), byLds(lds_bytes), max()});
  }
  // Waves per SIMD that whole workgroups reach under a per-SIMD register limit.
  int perSimdOfRegisters(int per_simd) const {
    if (!whole_groups_) return per_simd;
    return std::min(divideCeil(groupsOf(per_simd) * waves_per_group_, arch_.simds_per_cu), per_simd);
  }

 private:
  // Whole workgroups that `per_simd` register-limited waves on every SIMD
  // hold; at least one: a workgroup the registers cannot hold at all cannot
  // launch (workgroupNotResident, checked by the model and the calculator
  // first), and the curves and inverse searches sample past it.
  int groupsOf(int per_simd) const { return std::max(per_simd * arch_.simds_per_cu / waves_per_group_, 1); }
  // Registers are per SIMD: a CU holds the SIMDs' waves, in whole workgroups.
  int registers(int per_simd) const {
    if (per_cu_) return whole_groups_ ? groupsOf(per_simd) * waves_per_group_ : per_simd * arch_.simds_per_cu;
    return perSimdOfRegisters(per_simd);
  }

  const AmdArch &arch_;
  const KernelResources &r_;
  TermRule rule_;
  int waves_per_group_;
  bool per_cu_;
  bool whole_groups_;
};

}  // namespace

int allocatedVgprs(const AmdArch &arch, const KernelResources &r) {
  return r.vgprs_total > 0 ? r.vgprs_total : totalVgprs(arch, r.vgprs, r.agprs);
}

int allocatedSgprs(const KernelResources &r) { return std::max(r.sgprs, r.sgprs_allocated); }

std::string workgroupNotResident(const AmdArch &arch, const KernelResources &r) {
  const int waves = divideCeil(std::max(r.workgroup_size, 1), arch.wave_size);
  const int per_simd = divideCeil(waves, arch.simds_per_cu);  // a workgroup's waves spread over the SIMDs
  const int vgprs_total = allocatedVgprs(arch, r);
  auto cannot = [&](int allowed, const std::string &what) {
    return "a workgroup of " + std::to_string(r.workgroup_size) + " threads is " + std::to_string(waves) + " waves, " +
           std::to_string(per_simd) + " per SIMD, but " + what + " allow " + std::to_string(allowed) +
           " per SIMD: it can never be resident on a CU";
  };
  if (const int allowed = wavesByVgprs(arch, vgprs_total); allowed < per_simd)
    return cannot(allowed, std::to_string(vgprs_total) + " VGPRs");
  if (const int sgprs = allocatedSgprs(r); wavesBySgprs(arch, sgprs) < per_simd)
    return cannot(wavesBySgprs(arch, sgprs), std::to_string(sgprs) + " SGPRs");
  return "";
}

Occupancy computeOccupancy(const AmdArch &arch, const KernelResources &r, TermRule rule) {
  Occupancy occ;
  occ.max_waves_per_simd = arch.max_waves_per_simd;
  occ.max_waves_per_cu = arch.max_waves_per_simd * arch.simds_per_cu;
  occ.vgprs_total = allocatedVgprs(arch, r);
  // The hardware counts the descriptor's SGPR allocation; a compiler's figure, its own count.
  const int sgprs = rule == TermRule::Hardware ? allocatedSgprs(r) : r.sgprs;
  occ.sgprs_total = sgprs;
  occ.sgprs_from_descriptor = rule == TermRule::Hardware && r.sgprs_allocated > 0;
  const Levels levels(arch, r, rule);
  occ.by_vgpr = levels.perSimdOfRegisters(wavesByVgprs(arch, occ.vgprs_total));
  occ.by_sgpr = levels.perSimdOfRegisters(wavesBySgprs(arch, sgprs, rule));
  occ.by_lds = wavesByLds(arch, r.lds_bytes, r.workgroup_size, rule);
  occ.by_workgroup = wavesByLds(arch, 0, r.workgroup_size, rule);
  occ.waves_per_simd = std::min({occ.by_vgpr, occ.by_sgpr, occ.by_lds, arch.max_waves_per_simd});
  occ.counts_per_cu = levels.perCu();
  occ.waves_per_cu =
      occ.counts_per_cu ? levels.all(occ.vgprs_total, sgprs, r.lds_bytes) : occ.waves_per_simd * arch.simds_per_cu;

  // The limiter, in the unit that counts. On a tie the first of: vgpr, sgpr, workgroup (the level with
  // no LDS is the same, so LDS is not what limits), lds (docs/testing.md "Limiter ties"; pinned by
  // tests/pinned_rules_test.cpp Pinned.TieAmd*).
  const int now = levels.all(occ.vgprs_total, sgprs, r.lds_bytes);
  if (now == levels.max()) occ.limiter = Limiter::None;
  // A register term whose whole workgroups are no fewer than with the fewest
  // registers is the slot limit showing through, not the registers.
  else if (levels.byVgprs(occ.vgprs_total) == now && now < levels.byVgprs(1))
    occ.limiter = Limiter::Vgpr;
  else if (levels.bySgprs(sgprs) == now && now < levels.bySgprs(0))
    occ.limiter = Limiter::Sgpr;
  else if (levels.byLds(0) == now)
    occ.limiter = Limiter::Workgroup;
  else
    occ.limiter = Limiter::Lds;

  // The most of each resource that, alone, still allows `target`.
  auto vgprCap = [&](int target) {
    // Addressable VGPRs bound the search: 256 arch VGPRs, or the unified file with AGPRs.
    const int addressable = arch.agprs == AgprMode::Unified ? arch.vgpr_file : arch.max_arch_vgprs;
    return largestWhere(1, addressable, [&](int v) { return levels.byVgprs(v) >= target; });
  };
  // The search reaches the count itself: an allocation in whole granules (112 on gfx9) may exceed
  // the most a compiler reports (108).
  const int most_sgprs = std::max(arch.max_sgprs, sgprs);
  auto sgprCap = [&](int target) {
    return largestWhere(0, most_sgprs, [&](int s) { return levels.bySgprs(s) >= target; });
  };
  auto ldsCap = [&](int target) {
    return largestWhere(0, arch.max_lds_per_workgroup, [&](int b) { return levels.byLds(b) >= target; });
  };

  // Headroom: what can grow before the occupancy drops below where it is.
  occ.headroom.vgprs = std::max(0, vgprCap(now) - occ.vgprs_total);
  occ.headroom.sgprs = std::max(0, sgprCap(now) - sgprs);
  occ.headroom.lds_bytes = std::max(0, ldsCap(now) - r.lds_bytes);
  occ.headroom.sgprs_can_limit = sgprCap(now) < most_sgprs;

  // Next step: the least that must go for one more wave (per SIMD, or per CU
  // for small workgroups), and the level that is then actually reached:
  // freeing LDS can admit a whole workgroup and jump several waves.
  if (now < levels.max()) {
    const int target = now + 1;
    const int vgpr_cap = vgprCap(target), sgpr_cap = sgprCap(target), lds_cap = ldsCap(target);
    if (vgpr_cap >= 1 && sgpr_cap >= 0 && lds_cap >= 0) {
      NextStep next;
      next.vgprs_to_free = std::max(0, occ.vgprs_total - vgpr_cap);
      next.sgprs_to_free = std::max(0, sgprs - sgpr_cap);
      next.lds_bytes_to_free = std::max(0, r.lds_bytes - lds_cap);
      const int vgprs = occ.vgprs_total - next.vgprs_to_free, fewer_sgprs = sgprs - next.sgprs_to_free,
                lds = r.lds_bytes - next.lds_bytes_to_free;
      next.waves_per_simd = std::min({levels.perSimdOfRegisters(wavesByVgprs(arch, vgprs)),
                                      levels.perSimdOfRegisters(wavesBySgprs(arch, fewer_sgprs, rule)),
                                      wavesByLds(arch, lds, r.workgroup_size, rule), arch.max_waves_per_simd});
      next.waves_per_cu =
          occ.counts_per_cu ? levels.all(vgprs, fewer_sgprs, lds) : next.waves_per_simd * arch.simds_per_cu;
      occ.next = next;
    }
  }
  return occ;
}

}  // namespace regscope

namespace regscope {

Occupancy computeOccupancyAs(const AmdArch &arch, const KernelResources &r, CompilerModel model) {
  if (model == CompilerModel::Hardware) return computeOccupancy(arch, r);
  if (model == CompilerModel::Llvm19) return computeOccupancy(arch, r, TermRule::Llvm16);  // no LDS granule
  AmdArch as15 = arch;
  if (arch.vgpr_file_1_5x) {  // LLVM 15 treats gfx11 like gfx10.3
    as15.vgpr_file = arch.vgpr_file * 2 / 3;
    as15.vgpr_granule = arch.vgpr_granule * 2 / 3;
  }
  return computeOccupancy(as15, r, TermRule::Llvm15);
}

CompilerModel compilerModelFor(const std::string &version) {
  const std::size_t at = version.find("version ");
  if (at == std::string::npos) return CompilerModel::Hardware;
  int major = 0;  // digits out of range leave 0: an unknown generation
  std::from_chars(version.data() + at + 8, version.data() + version.size(), major);
  if (major == 15) return CompilerModel::Llvm15;
  if (major >= 16 && major <= 22) return CompilerModel::Llvm19;
  return CompilerModel::Hardware;
}

}  // namespace regscope
