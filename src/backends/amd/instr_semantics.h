// What one AMDGPU MCInst reads, writes and is, from LLVM's target description:
// operand roles from MCInstrDesc (defs, uses, implicit and tied operands),
// registers from MCRegisterInfo (register units, so v[4:7] is four VGPRs),
// classes from the instruction's TSFlags (SIInstrFlags) and a few opcode
// names where LLVM 15's real (encoded) opcodes carry no flag at all.
#pragma once

#include <llvm/MC/MCInst.h>

#include <bitset>
#include <cstdint>
#include <string>
#include <vector>

#include "mc_reader.h"
#include "regscope/isa/isa.h"

namespace regscope::isa_detail {

// Register slots: one per 32-bit VGPR, AGPR and SGPR (s0..s105 and vcc_lo/hi).
// EXEC, M0, SCC, flat_scratch, ttmp and trap registers are not counted.
inline constexpr std::size_t kMaxSlots = 768;
using SlotSet = std::bitset<kMaxSlots>;

enum class RegFile { Vgpr, Agpr, Sgpr };

class RegisterSlots {
 public:
  explicit RegisterSlots(const llvm::MCRegisterInfo &mri);

  // Slots a register touches, and those it covers entirely (a write of them
  // kills the old value; a write of part of a slot does not).
  void slotsOf(unsigned reg, SlotSet &touched, SlotSet &covered) const;
  bool isExec(unsigned reg) const;

  RegFile file(std::size_t slot) const;
  std::string name(std::size_t slot) const;
  std::size_t size() const { return files_.size(); }
  const SlotSet &mask(RegFile f) const { return masks_[static_cast<int>(f)]; }
  const SlotSet &sgprMask() const { return mask(RegFile::Sgpr); }

 private:
  struct RegSlots {
    bool known = false;
    SlotSet touched, covered;
  };
  const llvm::MCRegisterInfo &mri_;
  std::vector<int> unit_slot_;  // register unit -> slot, -1: not counted
  std::vector<std::vector<unsigned>> slot_units_;
  std::vector<RegFile> files_;
  std::vector<std::string> names_;
  std::vector<bool> exec_units_;
  SlotSet masks_[3];
  mutable std::vector<RegSlots> cache_;  // by register number
};

// Control flow of one instruction.
enum class Flow {
  None,
  Branch,             // s_branch: only the target follows
  ConditionalBranch,  // s_cbranch_*: the target and the next instruction
  EndProgram,         // s_endpgm: nothing follows
  Indirect,           // s_setpc_b64 (indirect jump or return): successors unknown
  Call,               // s_swappc_b64, s_call_b64: the callee may read anything
};

// How an instruction treats exec (for the partial-exec rule).
enum class ExecEffect {
  None,
  SaveAndMask,  // s_*_saveexec: sdst = old exec, exec narrowed
  Restore,      // s_or exec, exec, sX / s_mov exec, sX: full again if sX holds a full copy
  Copy,         // s_mov sX, exec
  Other,        // any other write of exec: assume partial from here
};

struct InstrFacts {
  InstrKind kind = InstrKind::Unknown;
  Flow flow = Flow::None;
  ExecEffect exec = ExecEffect::None;
  SlotSet uses, defs, full_defs;  // full_defs: written entirely (candidates to kill)
  bool vector_write = false;      // writes VGPRs/AGPRs: masked by exec
  bool partial_write = false;     // SDWA: the untouched bits survive
  std::string branch_target;      // symbol of a branch operand, if any
  std::vector<unsigned> sources;  // explicit source registers
  std::vector<unsigned> sdst;     // explicit destination registers
  bool sets_all_lanes = false;    // s_mov exec, -1
  // Writes exec in a way that may turn lanes back on (everything but
  // s_and_saveexec, s_and/s_andn2 exec, exec, x and v_cmpx): lanes that were
  // off resume here and read what is live after it.
  bool exec_resume = false;
};

InstrFacts describe(const AmdgpuTarget &target, const RegisterSlots &slots, const llvm::MCInst &inst);

}  // namespace regscope::isa_detail
