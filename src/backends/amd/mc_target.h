// The one LLVM MC setup for AMDGPU, shared by every reader of AMD machine
// code: the .s through the asm parser (mc_reader.cpp, inline_sites.cpp) and
// code objects through the disassembler (code_object.cpp). Target lookup,
// MCRegisterInfo, MCAsmInfo, MCInstrInfo and MCSubtargetInfo for one arch,
// the MCContext an assembly is read in, and the asm parser on a streamer.
#pragma once

#include <llvm/Config/llvm-config.h>
#include <llvm/MC/MCAsmInfo.h>
#include <llvm/MC/MCContext.h>
#include <llvm/MC/MCInstrInfo.h>
#include <llvm/MC/MCObjectFileInfo.h>
#include <llvm/MC/MCParser/MCAsmParser.h>
#include <llvm/MC/MCParser/MCTargetAsmParser.h>
#include <llvm/MC/MCRegisterInfo.h>
#include <llvm/MC/MCStreamer.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/Support/FormattedStream.h>
#include <llvm/Support/SourceMgr.h>

#include <memory>
#include <string>
#include <string_view>

namespace llvm {
class Target;
}

namespace regscope::amdgpu_mc {

// The linked LLVM as messages name it ("LLVM 15", or "LLVM 19" built with
// -DREGSCOPE_LLVM=19): what cannot be read is said of the LLVM that tried.
#define REGSCOPE_LINKED_LLVM_STR2(x) #x
#define REGSCOPE_LINKED_LLVM_STR(x) REGSCOPE_LINKED_LLVM_STR2(x)
inline constexpr const char *kLinkedLlvm = "LLVM " REGSCOPE_LINKED_LLVM_STR(LLVM_VERSION_MAJOR);

// LLVM's AMDGPU target: info, MC, asm parser, disassembler and MCA, once.
void initialize();

// The MC layer's description of one AMDGPU arch.
struct McTarget {
  const llvm::Target *target = nullptr;
  std::string triple = "amdgcn-amd-amdhsa";
  std::string cpu;       // "gfx90a"
  std::string features;  // "-xnack,+sramecc"
  std::unique_ptr<llvm::MCRegisterInfo> mri;
  std::unique_ptr<llvm::MCAsmInfo> mai;
  std::unique_ptr<llvm::MCInstrInfo> mii;
  std::unique_ptr<llvm::MCSubtargetInfo> sti;
};

enum class McStatus {
  Ready,
  NoArch,       // the target id names no CPU
  NoTarget,     // LLVM has no AMDGPU target (`error` says why)
  UnknownArch,  // the linked LLVM does not know the CPU
  Incomplete,   // a part of the target could not be made
};

// Fills `t` for the target id `arch` ("gfx90a:xnack-:sramecc+": the CPU, and
// with `with_features` its features, "-xnack,+sramecc"). A generic subtarget
// is asked first: an unknown CPU asked for directly makes LLVM warn on stderr.
McStatus makeMcTarget(std::string_view arch, bool with_features, McTarget &t, std::string &error);

// An MCContext for reading machine code of `t` (no source: the disassembler).
std::unique_ptr<llvm::MCContext> makeContext(const McTarget &t);

// An MCContext for reading an assembly held by `sources`: DWARF 5 line tables
// (hipcc and clang write them, ".file 0" with MD5 sums; earlier forms read
// the same under version 5) and the target's object file info.
struct AsmContext {
  std::unique_ptr<llvm::MCObjectFileInfo> object_file_info;
  std::unique_ptr<llvm::MCContext> context;
};
AsmContext makeAsmContext(const McTarget &t, llvm::SourceMgr &sources);

// The asm parser over `sources` into `streamer`, with the AMDGPU asm target
// streamer attached and writing to `nowhere` (directives such as
// .amdhsa_kernel go to it; without one they crash the parser, which is why
// llvm-mca attaches one too). `target_parser` is null when LLVM has no AMDGPU
// asm parser; the parser is then not ready to run.
struct AsmParser {
  std::unique_ptr<llvm::MCAsmParser> parser;
  std::unique_ptr<llvm::MCTargetAsmParser> target_parser;
};
AsmParser makeAsmParser(const McTarget &t, llvm::SourceMgr &sources, llvm::MCContext &context,
                        llvm::MCStreamer &streamer, llvm::formatted_raw_ostream &nowhere);

}  // namespace regscope::amdgpu_mc
