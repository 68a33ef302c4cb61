// The control-flow graph of one function and backward register liveness over
// it, solved to a fixed point.
#pragma once

#include <string>
#include <vector>

#include "instr_semantics.h"

namespace regscope::isa_detail {

struct Block {
  int first = 0;  // instruction indices [first, end)
  int end = 0;
  std::string label;
  std::vector<int> successors;
  std::vector<int> predecessors;
  bool unknown_exit = false;  // ends in an indirect branch or a branch out of the function
  bool in_loop = false;
  int loop_depth = 0;  // how many natural loops hold it
};

struct Cfg {
  std::vector<Block> blocks;
  std::vector<int> block_of;       // instruction -> block
  std::vector<std::string> notes;  // where control flow is not known
};

// Blocks start at the first instruction, at labels that a branch of the
// function targets, and after branches, s_endpgm and s_setpc. Loop blocks are
// those on a cycle closed by a back edge of a depth-first walk from the entry;
// a block's loop depth counts the natural loops (one per header) that hold it.
Cfg buildCfg(const std::vector<RawInstruction> &instructions, const std::vector<InstrFacts> &facts);

struct Liveness {
  std::vector<SlotSet> live_in;  // per instruction
  std::vector<SlotSet> live_out;
  std::vector<std::string> notes;  // where the result is conservative
};

// Backward liveness. The rules (docs/explain.md): a write kills a register's
// value only if it covers all of it, it is not SDWA, and, for VGPRs and AGPRs,
// exec is known to be full (a write under a partial exec leaves the other
// lanes' values live). A register is live only where it may have been written
// before (or set at launch): this keeps non-killing writes from stretching a
// value back to the kernel's entry. Calls read everything written so far;
// indirect branches leave everything written so far live.
Liveness solveLiveness(const Cfg &cfg, const std::vector<InstrFacts> &facts, const RegisterSlots &slots);

// Definitions of `slot` that reach instruction `at` (a backward search over
// the CFG, passing through writes that do not kill). Empty: set at launch.
std::vector<int> reachingDefinitions(const Cfg &cfg, const std::vector<InstrFacts> &facts, int at, std::size_t slot);

}  // namespace regscope::isa_detail
