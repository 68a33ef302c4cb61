// Where inlined code was called from. A .loc names only the innermost
// location: the body of pow() in __clang_hip_math.h, not the kernel line that
// called pow. -gline-tables-only also writes the inline tree
// (DW_TAG_inlined_subroutine with its call file and line) into .debug_info, so
// the .s is assembled in memory with LLVM's ELF streamer and each
// instruction's address is looked up with LLVM's DWARF reader.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "mc_reader.h"

namespace regscope::isa_detail {

struct CallSite {
  std::string file;  // absolute path as DWARF names it; empty: unknown
  int line = 0;
};

// One entry per instruction of the assembly, in input order: the call sites of
// the subroutines its code was inlined from, innermost first (empty: not
// inlined). The instruction's own location is its .loc. Returns false, with
// `why`, when the text cannot be assembled or carries no debug information.
bool readCallSites(const AmdgpuTarget &target, std::string_view text, std::vector<std::vector<CallSite>> &sites,
                   std::string &why);

}  // namespace regscope::isa_detail
