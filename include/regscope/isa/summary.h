// Per-function figures both vendors derive the same way from per-instruction
// live counts.
#pragma once

#include "regscope/isa/isa.h"

namespace regscope::isa_detail {

// Fills function.lines and max_* from function.instructions.
void summarizeLines(IsaFunction &function);

// The instruction of most live VGPRs (general registers on NVIDIA); the first
// of ties. -1 for a function without instructions.
int peakInstruction(const IsaFunction &function);

// Sets each spill site's loop depth from its instruction's, sums them into
// spill_totals and ranks them (IsaFunction::spills). Instructions' loop_depth
// must be set.
void rankSpills(IsaFunction &function);

}  // namespace regscope::isa_detail
