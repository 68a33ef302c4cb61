// Reads AMDGPU assembly with LLVM 15's MC layer: the AMDGPU asm parser drives a
// recording MCStreamer (as llvm-mca's CodeRegionGenerator does) that keeps each
// instruction with its current .loc, the labels before it, and splits the
// stream into functions.
#pragma once

#include <llvm/MC/MCAsmInfo.h>
#include <llvm/MC/MCContext.h>
#include <llvm/MC/MCInst.h>
#include <llvm/MC/MCInstPrinter.h>
#include <llvm/MC/MCInstrAnalysis.h>
#include <llvm/MC/MCInstrInfo.h>
#include <llvm/MC/MCObjectFileInfo.h>
#include <llvm/MC/MCRegisterInfo.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/Support/SourceMgr.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "mc_target.h"
#include "regscope/isa/isa.h"

namespace llvm {
class Target;
}

namespace regscope::isa_detail {

// LLVM's description of one AMDGPU target (triple amdgcn-amd-amdhsa).
// The shared MC setup (mc_target.h) with the target id's features, and what
// the .s reader adds: the instruction analysis and printer.
struct AmdgpuTarget : amdgpu_mc::McTarget {
  std::unique_ptr<llvm::MCInstrAnalysis> mia;
  std::unique_ptr<llvm::MCInstPrinter> printer;

  // Throws regscope::Error when LLVM 15 does not know the arch.
  explicit AmdgpuTarget(std::string_view arch);
  std::string print(const llvm::MCInst &inst) const;
  llvm::StringRef opcodeName(const llvm::MCInst &inst) const { return mii->getName(inst.getOpcode()); }
};

struct RawInstruction {
  llvm::MCInst inst;
  int asm_line = 0;
  int file = -1;  // index into AsmModule::files; the .loc, then the inline frame in the function's file
  int line = 0;
  int leaf_file = -1;  // the .loc
  int leaf_line = 0;
  std::vector<std::string> labels;  // labels directly before it
};

struct RawFunction {
  std::string name;
  bool is_kernel = false;
  std::vector<RawInstruction> instructions;
  int unknown_instructions = 0;  // lines the parser refused inside the function
  // ... of them, those whose mnemonic could branch or reach private memory
  // (mayBranchOrReachPrivate): the CFG and the spill sites may then miss them.
  int unknown_branch_or_private = 0;
  std::vector<std::string> notes;
};

// The parsed file. Owns the MCContext: the MCInsts' expression operands
// (branch targets) point into it, so it must outlive every use of them.
struct AsmModule {
  llvm::SourceMgr source_manager;
  std::unique_ptr<llvm::MCObjectFileInfo> object_file_info;
  std::unique_ptr<llvm::MCContext> context;
  std::vector<SourceFile> files;
  std::vector<RawFunction> functions;
  std::vector<std::string> notes;
  int diagnostics = 0;  // errors reported by the parser, in and outside functions
  // Errors other than unknown .amdhsa_*/.amdgpu_* directives (which clang 19
  // writes and LLVM 15 does not know): text that is not what a compiler wrote.
  int foreign_errors = 0;
};

// Never throws for bad text: what LLVM cannot parse becomes a note.
std::unique_ptr<AsmModule> readAssembly(const AmdgpuTarget &target, std::string_view text);

}  // namespace regscope::isa_detail
