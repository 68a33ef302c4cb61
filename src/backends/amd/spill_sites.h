// Where a function's spills are: each spill store and reload in the final
// code, and each other private-memory access (docs/explain.md, "Spill sites").
#pragma once

#include <string_view>
#include <vector>

#include "instr_semantics.h"
#include "mc_reader.h"
#include "regscope/isa/isa.h"

namespace regscope::isa_detail {

// `comments[i]`: the comment the compiler wrote after instruction i (the text
// after `;` on its line of the .s; empty when none). AMD's compiler marks its
// spills there: "4-byte Folded Spill" / "Folded Reload" on scratch accesses and
// "Reload Reuse" on the v_accvgpr_write/read that keep a VGPR in an AGPR. SGPRs
// spilled into VGPR lanes carry no comment: a v_writelane_b32 of an SGPR into a
// constant lane is one, and a v_readlane_b32 of a constant lane into an SGPR
// reloads it when a write of the function fills that lane number (the lane
// VGPR may itself be spilled and come back in another VGPR).
// Loop depths are left 0: rankSpills (isa/summary.h) sets them.
std::vector<SpillSite> findSpillSites(const AmdgpuTarget &target, const RawFunction &raw,
                                      const std::vector<InstrFacts> &facts,
                                      const std::vector<std::string_view> &comments);

}  // namespace regscope::isa_detail
