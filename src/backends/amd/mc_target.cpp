// The one LLVM MC setup for AMDGPU (mc_target.h).
#include "mc_target.h"

#include <llvm/Config/llvm-config.h>
#include <llvm/MC/MCTargetOptions.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/TargetSelect.h>

#include <mutex>

namespace regscope::amdgpu_mc {
namespace {

// "gfx90a:xnack-:sramecc+" -> cpu "gfx90a", features "-xnack,+sramecc".
void splitTargetId(std::string_view arch, std::string &cpu, std::string &features) {
  std::size_t colon = arch.find(':');
  cpu = std::string(arch.substr(0, colon));
  while (colon != std::string_view::npos) {
    std::size_t next = arch.find(':', colon + 1);
    std::string_view feature = arch.substr(colon + 1, next == std::string_view::npos ? next : next - colon - 1);
    if (feature.size() > 1 && (feature.back() == '+' || feature.back() == '-')) {
      if (!features.empty()) features += ',';
      features += feature.back();
      features += feature.substr(0, feature.size() - 1);
    }
    colon = next;
  }
}

}  // namespace

void initialize() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmParser();
    LLVMInitializeAMDGPUDisassembler();
    LLVMInitializeAMDGPUTargetMCA();
  });
}

McStatus makeMcTarget(std::string_view arch, bool with_features, McTarget &t, std::string &error) {
  initialize();
  std::string features;
  splitTargetId(arch, t.cpu, features);
  if (with_features) t.features = features;
  if (t.cpu.empty()) return McStatus::NoArch;
  t.target = llvm::TargetRegistry::lookupTarget(t.triple, error);
  if (!t.target) return McStatus::NoTarget;
  t.mri.reset(t.target->createMCRegInfo(t.triple));
  llvm::MCTargetOptions options;
  if (t.mri) t.mai.reset(t.target->createMCAsmInfo(*t.mri, t.triple, options));
  t.mii.reset(t.target->createMCInstrInfo());
  std::unique_ptr<llvm::MCSubtargetInfo> generic(t.target->createMCSubtargetInfo(t.triple, "", ""));
  if (!generic || !generic->isCPUStringValid(t.cpu)) return McStatus::UnknownArch;
  t.sti.reset(t.target->createMCSubtargetInfo(t.triple, t.cpu, t.features));
  return t.mri && t.mai && t.mii && t.sti ? McStatus::Ready : McStatus::Incomplete;
}

std::unique_ptr<llvm::MCContext> makeContext(const McTarget &t) {
  return std::make_unique<llvm::MCContext>(llvm::Triple(t.triple), t.mai.get(), t.mri.get(), t.sti.get());
}

AsmContext makeAsmContext(const McTarget &t, llvm::SourceMgr &sources) {
  AsmContext out;
  out.context =
      std::make_unique<llvm::MCContext>(llvm::Triple(t.triple), t.mai.get(), t.mri.get(), t.sti.get(), &sources);
  out.context->setDwarfVersion(5);
  out.object_file_info.reset(t.target->createMCObjectFileInfo(*out.context, /*PIC=*/false));
  out.context->setObjectFileInfo(out.object_file_info.get());
  return out;
}

AsmParser makeAsmParser(const McTarget &t, llvm::SourceMgr &sources, llvm::MCContext &context,
                        llvm::MCStreamer &streamer, llvm::formatted_raw_ostream &nowhere) {
  // LLVM 19 dropped the IsVerboseAsm argument (the streamer here prints nothing).
#if LLVM_VERSION_MAJOR >= 19
  t.target->createAsmTargetStreamer(streamer, nowhere, nullptr);
#else
  t.target->createAsmTargetStreamer(streamer, nowhere, nullptr, /*IsVerboseAsm=*/false);
#endif
  AsmParser out;
  out.parser.reset(llvm::createMCAsmParser(sources, context, streamer, *t.mai));
  llvm::MCTargetOptions options;
  out.target_parser.reset(t.target->createMCAsmParser(*t.sti, *out.parser, *t.mii, options));
  if (out.target_parser) out.parser->setTargetParser(*out.target_parser);
  return out;
}

}  // namespace regscope::amdgpu_mc
