// The rule catalogue, and the reduction of analyze and gate results to findings.
#include "regscope/findings.h"

#include "regscope/printers.h"

namespace regscope {

const std::vector<RuleInfo> &ruleCatalog() {
  static const std::vector<RuleInfo> rules = {
      {"RS001", "occupancy", "Kernel occupancy and what limits it",
       "Shows waves per SIMD, the limiting resource and what to free for the next step. To raise occupancy, "
       "cut the limiting resource: set __launch_bounds__, move definitions next to their uses, avoid pow() "
       "and other inlined library calls, limit unrolling.", "note"},
      {"RS002", "spills", "Kernel spills registers to scratch memory",
       "Spilled registers go to scratch memory, which is backed by global memory and much slower than registers. "
       "Reduce register pressure, or relax __launch_bounds__ so the compiler may use more registers.", "warning"},
      {"RS003", "scratch", "Kernel uses scratch memory",
       "Private arrays indexed at run time, large by-value arguments, recursion and spills use scratch memory. "
       "Keep per-thread arrays small and indexed by constants, or move them to LDS.", "note"},
      {"RS101", "min-occupancy", "Occupancy is below the configured minimum",
       "The kernel runs fewer waves per SIMD than --min-occupancy or .regscope.json allows. The message names "
       "the limiting resource; see regscope analyze for how much to free.", "error"},
      {"RS102", "max-spills", "More spilled registers than allowed",
       "The kernel spills more registers than --max-spills or .regscope.json allows.", "error"},
      {"RS103", "max-scratch", "More scratch memory than allowed",
       "The kernel uses more scratch bytes per lane than --max-scratch or .regscope.json allows.", "error"},
      {"RS201", "occupancy-regression", "Occupancy dropped against the baseline",
       "The kernel runs fewer waves per SIMD than in the baseline. If the change is intended, accept it with "
       "regscope gate --baseline FILE --update-baseline.", "error"},
      {"RS202", "vgpr-step-regression", "VGPRs crossed into a lower occupancy step",
       "The VGPR count now allows fewer waves per SIMD than in the baseline. Another resource limits the kernel "
       "today, but once that is relieved the VGPRs will cap it lower than before.", "error"},
      {"RS203", "spill-regression", "New or more spills against the baseline",
       "The kernel spills registers it did not spill in the baseline, or more of them.", "error"},
      {"RS204", "scratch-regression", "Scratch memory grew against the baseline",
       "The kernel's scratch size per lane grew compared with the baseline.", "error"},
      {"RS301", "improved", "A kernel improved against the baseline",
       "Occupancy, spills, scratch or VGPRs improved. Record it with --update-baseline.", "note"},
      {"RS302", "added", "A kernel is not in the baseline",
       "The kernel is new since the baseline was recorded.", "note"},
      {"RS303", "removed", "A baseline kernel was not found",
       "The kernel is in the baseline but no longer in the analysed files.", "note"},
      {"RS304", "unresolved", "Figures unresolved until link",
       "LLVM 20+ writes a kernel's register counts as expressions over its callees. A callee in another "
       "translation unit leaves them open until link: analyse the linked code object with regscope parse.",
       "warning"},
  };
  return rules;
}

const RuleInfo *findRule(const std::string &name) {
  for (const RuleInfo &rule : ruleCatalog())
    if (name == rule.name) return &rule;
  return nullptr;
}

std::vector<Verdict> analysisFindings(const Report &report) {
  std::vector<Verdict> findings;
  for (const KernelReport &k : report.kernels) {
    if (k.unresolved) {
      findings.push_back({k.display_file, k.record.line, k.record.demangled, k.record.arch, "unresolved",
                          "figures unresolved until link", "warning"});
      continue;
    }
    auto add = [&](const char *rule, std::string message, const char *level) {
      findings.push_back({k.display_file, k.record.line, k.record.demangled, k.record.arch, rule, std::move(message), level});
    };
    const OccupancySummary &s = k.summary;
    std::string message = std::to_string(s.level) + "/" + std::to_string(s.max_level) + " " + s.unit +
                          ", limited by " + s.limiter + " (" + std::to_string(s.registers) + " registers)";
    if (k.occupancy.next && k.occupancy.next->vgprs_to_free)
      message += "; free " + std::to_string(k.occupancy.next->vgprs_to_free) + " VGPRs for " +
                 std::to_string(k.occupancy.next->waves_per_simd) + " waves/SIMD";
    if (k.cuda && k.cuda->next && k.cuda->next->registers_to_free)
      message += "; free " + std::to_string(k.cuda->next->registers_to_free) + " registers for " +
                 std::to_string(k.cuda->next->blocks_per_sm) + " blocks/SM";
    add("occupancy", message, "note");
    if (s.spills > 0)
      add("spills", std::to_string(s.spills) + " " + s.spills_unit + " to scratch memory", "warning");
    if (k.hidden_agpr_spills)
      add("spills", std::to_string(k.record.value(Field::Agprs)) + " VGPRs parked in AGPRs without MFMA (" +
                        std::to_string(k.record.value(Field::AgprCopies)) + " copies); the compiler reports 0 spills",
          "warning");
    else if (s.scratch_bytes > 0)
      add("scratch", std::to_string(s.scratch_bytes) + " bytes of scratch per lane", "note");
  }
  return findings;
}

std::vector<Verdict> gateFindings(const GateResult &result) {
  std::vector<Verdict> findings = result.failures;
  for (const auto *list : {&result.improvements, &result.added, &result.removed, &result.unchecked})
    findings.insert(findings.end(), list->begin(), list->end());
  return findings;
}

}  // namespace regscope
