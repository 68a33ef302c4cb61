// The rule catalogue.
#include "regscope/gate/rules.h"

namespace regscope {

const std::vector<RuleInfo> &ruleCatalog() {
  static const std::vector<RuleInfo> rules = {
      // in Rule order
      {Rule::Occupancy, "RS001", "occupancy", "Kernel occupancy and what limits it",
       "Shows waves per SIMD, the limiting resource and what to free for the next step. To raise occupancy, "
       "cut the limiting resource: set __launch_bounds__, move definitions next to their uses, avoid pow() "
       "and other inlined library calls, limit unrolling.",
       Level::Note},
      {Rule::Spills, "RS002", "spills", "Kernel spills registers to scratch memory",
       "Spilled registers go to scratch memory, which is backed by global memory and much slower than registers. "
       "Reduce register pressure, or relax __launch_bounds__ so the compiler may use more registers.",
       Level::Warning},
      {Rule::Scratch, "RS003", "scratch", "Kernel uses scratch memory",
       "Private arrays indexed at run time, large by-value arguments, recursion and spills use scratch memory. "
       "Keep per-thread arrays small and indexed by constants, or move them to LDS.",
       Level::Note},
      {Rule::Cliff, "RS004", "occupancy-cliff", "Kernel is a few registers from losing occupancy",
       "A small change (an inlined call, a new variable live across a loop) will add the registers that lower the "
       "occupancy a step. Keep the headroom in mind, or cut registers now.",
       Level::Note},
      {Rule::MinOccupancy, "RS101", "min-occupancy", "Occupancy is below the configured minimum",
       "The kernel runs fewer waves per SIMD than --min-occupancy or .regscope.json allows. The message names "
       "the limiting resource; see regscope analyze for how much to free.",
       Level::Error},
      {Rule::MaxSpills, "RS102", "max-spills", "More spilled registers than allowed",
       "The kernel spills more registers than --max-spills or .regscope.json allows.", Level::Error},
      {Rule::MaxScratch, "RS103", "max-scratch", "More scratch memory than allowed",
       "The kernel uses more scratch bytes per lane than --max-scratch or .regscope.json allows.", Level::Error},
      {Rule::OccupancyRegression, "RS201", "occupancy-regression", "Occupancy dropped against the baseline",
       "The kernel runs fewer waves per SIMD than in the baseline. If the change is intended, accept it with "
       "regscope gate --baseline FILE --update-baseline.",
       Level::Error},
      {Rule::VgprStepRegression, "RS202", "vgpr-step-regression", "VGPRs crossed into a lower occupancy step",
       "The VGPR count now allows fewer waves per SIMD than in the baseline. Another resource limits the kernel "
       "today, but once that is relieved the VGPRs will cap it lower than before.",
       Level::Error},
      {Rule::SpillRegression, "RS203", "spill-regression", "New or more spills against the baseline",
       "The kernel spills registers it did not spill in the baseline, or more of them.", Level::Error},
      {Rule::ScratchRegression, "RS204", "scratch-regression", "Scratch memory grew against the baseline",
       "The kernel's scratch size per lane grew compared with the baseline.", Level::Error},
      {Rule::Improved, "RS301", "improved", "A kernel improved against the baseline",
       "Occupancy, spills, scratch or VGPRs improved. Record it with --update-baseline.", Level::Note},
      {Rule::Added, "RS302", "added", "A kernel is not in the baseline",
       "The kernel is new since the baseline was recorded.", Level::Note},
      {Rule::Removed, "RS303", "removed", "A baseline kernel was not found",
       "The kernel is in the baseline but no longer in the analysed files.", Level::Note},
      {Rule::Unresolved, "RS304", "unresolved", "Figures unresolved until link",
       "LLVM 20+ writes a kernel's register counts as expressions over its callees. A callee in another "
       "translation unit leaves them open until link: analyse the linked code object with regscope parse.",
       Level::Warning},
      {Rule::Ignored, "RS305", "ignored", "A kernel the config's ignore list exempts",
       "The kernel matches an entry of .regscope.json's 'ignore' list: the gate lists it with the entry's reason "
       "and does not judge it. Remove the entry to gate it again.",
       Level::Note},
      {Rule::CannotJudge, "RS306", "cannot-judge", "A kernel's figures could not be read or cannot be",
       "A figure the rules need was missing from the compiler's output (a damaged or truncated log, .s or code "
       "object), or is impossible on the target. The gate does not pass what it cannot judge: it exits 2, unless "
       "--allow-unknown lists such kernels and judges the rest.",
       Level::Error},
      {Rule::CannotLaunch, "RS104", "cannot-launch", "Kernel can never be resident at its launch",
       "At the launch modelled (its block size, its LDS or shared memory), the kernel's registers or memory do not "
       "fit one workgroup on a CU/SM: the launch fails. The gate fails it whatever thresholds are set: give the "
       "real launch (--block-size, --dynamic-lds) or cut the registers.",
       Level::Error},
      {Rule::MaxLoopSpills, "RS105", "max-loop-spills", "More spill accesses inside loops than allowed",
       "A spill store or reload inside a loop runs on every iteration; one outside runs once. The kernel has more "
       "spill accesses inside loops than --max-loop-spills or .regscope.json allows: regscope explain lists each at "
       "its source line and loop depth.",
       Level::Error},
      {Rule::LoopSpillRegression, "RS205", "loop-spill-regression",
       "More spill accesses inside loops than the baseline",
       "Spills moved into a loop, or more of them run there, even when the kernel's spill count did not grow. "
       "regscope explain lists each at its source line and loop depth.",
       Level::Error},
  };
  return rules;
}

const RuleInfo &ruleInfo(Rule rule) {
  for (const RuleInfo &info : ruleCatalog())
    if (info.rule == rule) return info;
  return ruleCatalog().front();  // every Rule has a row; see the test of the catalogue
}

const char *levelName(Level level) {
  switch (level) {
    case Level::Error:
      return "error";
    case Level::Warning:
      return "warning";
    case Level::Note:
      return "note";
  }
  return "note";
}

}  // namespace regscope
