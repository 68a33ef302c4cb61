// Natural loops of a control-flow graph, for both vendors' machine code: the
// AMD CFG of LLVM's MC instructions and the NVIDIA CFG of nvdisasm's listing.
#pragma once

#include <vector>

namespace regscope::isa_detail {

// For each block (0 is the entry), how many natural loops hold it. A back edge
// is an edge of a depth-first walk from the entry to a block on the walk's
// stack; each header's natural loop is the header and every block that reaches
// one of its back edges' tails without passing the header (back edges to one
// header make one loop, as LLVM's LoopInfo has it). Compiler output is
// reducible (the AMDGPU structurizer and ptxas make it so), so loops either
// nest or are disjoint, and the count is the nesting depth. Blocks the entry
// does not reach have depth 0.
std::vector<int> naturalLoopDepths(const std::vector<std::vector<int>> &successors);

}  // namespace regscope::isa_detail
