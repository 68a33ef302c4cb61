// The NVIDIA backend's isa reader: nvdisasm's liveness joined with its line
// table (include/regscope/isa/isa.h has the report).
#pragma once

#include <string_view>

#include "regscope/backends/nvidia/driver.h"
#include "regscope/isa/isa.h"

namespace regscope {

// NVIDIA: joins `nvdisasm -plr` (any --life-range-mode) with `nvdisasm -g` or
// `-gi` of the same cubin, per function, by instruction offset (by position
// when -plr printed no offsets). Either text may hold several functions.
// Throws regscope::Error when the two disagree on the instructions.
IsaReport joinNvdisasm(std::string_view life_ranges, std::string_view line_info);

// One nvdisasm listing (`-c -gi`, `-c -g` or plain `-c`) read alone: each
// function's instructions with their lines and loop depths, and its spill
// sites (STL/LDL), ranked (IsaFunction::spills, spill_totals); no liveness.
IsaReport readNvdisasmListing(std::string_view listing);

// A cubin's listings (driver.h) as explain reads them: joined, or the line
// table alone with a note when -plr failed.
IsaReport readCubinListing(const CubinListing &listing);

}  // namespace regscope
