#include "inline_sites.h"

#include <llvm/BinaryFormat/ELF.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/DebugInfo/DIContext.h>
#include <llvm/DebugInfo/DWARF/DWARFContext.h>
#include <llvm/DebugInfo/DWARF/DWARFDebugLine.h>
#include <llvm/DebugInfo/DWARF/DWARFDie.h>
#include <llvm/DebugInfo/DWARF/DWARFUnit.h>
#include <llvm/MC/MCAsmBackend.h>
#if LLVM_VERSION_MAJOR < 19
#include <llvm/MC/MCAsmLayout.h>  // folded into MCAssembler in LLVM 19
#endif
#include <llvm/MC/MCAssembler.h>
#include <llvm/MC/MCCodeEmitter.h>
#include <llvm/MC/MCELFObjectWriter.h>
#include <llvm/MC/MCELFStreamer.h>
#include <llvm/MC/MCObjectWriter.h>
#include <llvm/MC/MCParser/MCAsmParser.h>
#include <llvm/MC/MCParser/MCTargetAsmParser.h>
#include <llvm/MC/MCSection.h>
#include <llvm/MC/MCSymbol.h>
#include <llvm/MC/MCTargetOptions.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Support/FormattedStream.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include <map>
#include <tuple>

#include "regscope/support/plural.h"

namespace regscope::isa_detail {
namespace {

// An ELF streamer that puts a temporary label before every instruction, so
// the assembler's layout gives each instruction's offset.
class LabellingStreamer final : public llvm::MCELFStreamer {
 public:
  using MCELFStreamer::MCELFStreamer;
  void emitInstruction(const llvm::MCInst &inst, const llvm::MCSubtargetInfo &sti) override {
    llvm::MCSymbol *label = getContext().createTempSymbol();
    emitLabel(label);
    labels.push_back(label);
    MCELFStreamer::emitInstruction(inst, sti);
  }
  std::vector<llvm::MCSymbol *> labels;
};

// One DW_TAG_inlined_subroutine: where its code lies and where it was called.
struct InlinedRange {
  std::vector<llvm::DWARFAddressRange> ranges;
  CallSite call;
  int parent = -1;  // the enclosing inlined subroutine
  int depth = 0;
  bool contains(std::uint64_t address, std::uint64_t section) const {
    for (const llvm::DWARFAddressRange &r : ranges)
      if (address >= r.LowPC && address < r.HighPC &&
          (r.SectionIndex == section || r.SectionIndex == llvm::object::SectionedAddress::UndefSection ||
           section == llvm::object::SectionedAddress::UndefSection))
        return true;
    return false;
  }
};

// Every inlined subroutine of every unit, read from the DIEs' own attributes
// (ranges, call file and line) without following references between DIEs:
// LLVM 15's name and variable lookups crash on a damaged tree, and so does its
// verifier.
std::vector<InlinedRange> inlineTree(llvm::DWARFContext &dwarf) {
  std::vector<InlinedRange> tree;
  for (const std::unique_ptr<llvm::DWARFUnit> &unit : dwarf.compile_units()) {
    const llvm::DWARFDebugLine::LineTable *lines = dwarf.getLineTableForUnit(unit.get());
    const char *dir = unit->getCompilationDir();
    const llvm::StringRef comp_dir = dir ? dir : "";
    // Iterative walk: (DIE, the enclosing inlined subroutine).
    std::vector<std::pair<llvm::DWARFDie, int>> work{{unit->getUnitDIE(false), -1}};
    std::size_t visited = 0;
    while (!work.empty() && ++visited < 1000000) {
      auto [die, parent] = work.back();
      work.pop_back();
      if (!die.isValid()) continue;
      int self = parent;
      if (die.getTag() == llvm::dwarf::DW_TAG_inlined_subroutine) {
        InlinedRange node;
        llvm::Expected<llvm::DWARFAddressRangesVector> ranges = die.getAddressRanges();
        if (ranges)
          node.ranges = std::move(*ranges);
        else
          llvm::consumeError(ranges.takeError());
        node.call.line = static_cast<int>(llvm::dwarf::toUnsigned(die.find(llvm::dwarf::DW_AT_call_line), 0));
        std::string file;
        if (lines &&
            lines->getFileNameByIndex(llvm::dwarf::toUnsigned(die.find(llvm::dwarf::DW_AT_call_file), 0), comp_dir,
                                      llvm::DILineInfoSpecifier::FileLineInfoKind::AbsoluteFilePath, file))
          node.call.file = file;
        node.parent = parent;
        node.depth = parent >= 0 ? tree[parent].depth + 1 : 1;
        self = static_cast<int>(tree.size());
        tree.push_back(std::move(node));
      }
      for (llvm::DWARFDie child = die.getFirstChild(); child.isValid() && child.getTag() != 0;
           child = child.getSibling())
        work.emplace_back(child, self);
    }
  }
  return tree;
}

}  // namespace

bool readCallSites(const AmdgpuTarget &target, std::string_view text, std::vector<std::vector<CallSite>> &sites,
                   std::string &why) {
  llvm::SourceMgr sources;
  sources.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(text.data(), text.size()), "asm"),
                             llvm::SMLoc());
  int errors = 0;
  sources.setDiagHandler([](const llvm::SMDiagnostic &, void *count) { ++*static_cast<int *>(count); }, &errors);
  amdgpu_mc::AsmContext made = amdgpu_mc::makeAsmContext(target, sources);
  llvm::MCContext &context = *made.context;
  context.setDiagnosticHandler([&errors](const llvm::SMDiagnostic &, bool, const llvm::SourceMgr &,
                                         std::vector<const llvm::MDNode *> &) { ++errors; });

  llvm::MCTargetOptions options;
  llvm::SmallVector<char, 0> bytes;
  llvm::raw_svector_ostream bytes_os(bytes);
  std::unique_ptr<llvm::MCAsmBackend> backend(target.target->createMCAsmBackend(*target.sti, *target.mri, options));
  std::unique_ptr<llvm::MCCodeEmitter> emitter(target.target->createMCCodeEmitter(*target.mii, context));
  if (!backend || !emitter) {
    why = std::string(amdgpu_mc::kLinkedLlvm) + " has no AMDGPU assembler backend";
    return false;
  }
  std::unique_ptr<llvm::MCObjectWriter> writer = backend->createObjectWriter(bytes_os);
  // The AMDGPU directives (.amdhsa_kernel, .amdgpu_metadata) go to an asm
  // target streamer writing nowhere: the kernel descriptors do not matter here. Its own null stream,
  // not the process-wide llvm::nulls(), which threads reading other files would share.
  llvm::raw_null_ostream nowhere;
  llvm::formatted_raw_ostream formatted(nowhere);
  LabellingStreamer streamer(context, std::move(backend), std::move(writer), std::move(emitter));
  amdgpu_mc::AsmParser parsing = amdgpu_mc::makeAsmParser(target, sources, context, streamer, formatted);
  if (!parsing.target_parser) {
    why = std::string(amdgpu_mc::kLinkedLlvm) + " has no AMDGPU asm parser";
    return false;
  }
  llvm::MCAsmParser *parser = parsing.parser.get();
  // The AMDGPU ELF target streamer would set e_flags' machine; without one the
  // object reads as an unknown arch and LLVM's DWARF reader cannot apply its
  // AMDGPU relocations. Any amdgcn machine value will do for that.
  // (LLVM 19 keeps the flags in the ELF object writer, LLVM 15 in the assembler.)
#if LLVM_VERSION_MAJOR >= 19
  streamer.getWriter().setELFHeaderEFlags(llvm::ELF::EF_AMDGPU_MACH_AMDGCN_FIRST);
#else
  streamer.getAssembler().setELFHeaderEFlags(llvm::ELF::EF_AMDGPU_MACH_AMDGCN_FIRST);
#endif
  // Finished by hand: the parser skips finishing after any error, and clang
  // 19's directives that LLVM 15 does not know are errors that do not matter here.
  parser->Run(/*NoInitialTextSection=*/false, /*NoFinalize=*/true);
  streamer.finish();
  if (bytes.empty()) {
    why = "the assembly could not be assembled (" + plural(errors, "error", "errors") + ")";
    return false;
  }

  auto object = llvm::object::ObjectFile::createObjectFile(
      llvm::MemoryBufferRef(llvm::StringRef(bytes.data(), bytes.size()), "asm.o"));
  if (!object) {
    llvm::consumeError(object.takeError());
    why = "the assembled object could not be read";
    return false;
  }
  std::unique_ptr<llvm::DWARFContext> dwarf = llvm::DWARFContext::create(
      **object, llvm::DWARFContext::ProcessDebugRelocations::Process, nullptr, "",
      [](llvm::Error e) { llvm::consumeError(std::move(e)); }, [](llvm::Error e) { llvm::consumeError(std::move(e)); });
  if (dwarf->getNumCompileUnits() == 0) {
    why = "no .debug_info in the assembly";
    return false;
  }
  std::vector<InlinedRange> tree = inlineTree(*dwarf);
  std::map<std::string, std::uint64_t> section_index;
  for (const llvm::object::SectionRef &section : (*object)->sections()) {
    llvm::Expected<llvm::StringRef> name = section.getName();
    if (name)
      section_index[name->str()] = section.getIndex();
    else
      llvm::consumeError(name.takeError());
  }

  // The offsets of the finished layout (LLVM 19: the assembler's own).
#if LLVM_VERSION_MAJOR >= 19
  const llvm::MCAssembler &layout = streamer.getAssembler();
#else
  llvm::MCAsmLayout layout(streamer.getAssembler());
#endif
  sites.clear();
  sites.reserve(streamer.labels.size());
  for (llvm::MCSymbol *label : streamer.labels) {
    std::vector<CallSite> chain;
    std::uint64_t offset = 0;
    if (label->isInSection() && layout.getSymbolOffset(*label, offset)) {
      auto index = section_index.find(label->getSection().getName().str());
      std::uint64_t section =
          index == section_index.end() ? llvm::object::SectionedAddress::UndefSection : index->second;
      // The deepest inlined subroutine around the address, then its parents.
      int node = -1;
      for (std::size_t n = 0; n < tree.size(); ++n)
        if (tree[n].contains(offset, section) && (node < 0 || tree[n].depth > tree[node].depth))
          node = static_cast<int>(n);
      for (int steps = 0; node >= 0 && steps < 256; node = tree[node].parent, ++steps) chain.push_back(tree[node].call);
    }
    sites.push_back(std::move(chain));
  }
  return true;
}

}  // namespace regscope::isa_detail
