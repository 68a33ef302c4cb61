#include "mc_reader.h"

#include <llvm/Config/llvm-config.h>
#include <llvm/MC/MCParser/MCAsmLexer.h>
#include <llvm/MC/MCParser/MCAsmParser.h>
#include <llvm/MC/MCParser/MCTargetAsmParser.h>
#include <llvm/MC/MCSection.h>
#include <llvm/MC/MCStreamer.h>
#include <llvm/MC/MCSymbol.h>
#include <llvm/MC/MCTargetOptions.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/FormattedStream.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>

#include "regscope/support/error.h"

namespace regscope::isa_detail {
namespace {

// Whether a refused instruction could change what the CFG or the spill sites
// see, judged by its mnemonic: the parser that refused it has nothing else to
// say. Branches, calls and returns (s_branch, s_cbranch_*, s_setpc_b64,
// s_swappc_b64, s_call_b64, s_endpgm*) and the instructions that can reach
// private memory (scratch_*, buffer_*, flat_*). A newer arch's new instructions
// (gfx950's MFMAs, conversions, ds_read_*_tr_*) are none of these.
bool mayBranchOrReachPrivate(std::string_view instruction) {
  const std::string_view mnemonic = instruction.substr(0, instruction.find_first_of(" \t"));
  auto starts = [&](std::string_view prefix) { return mnemonic.substr(0, prefix.size()) == prefix; };
  for (std::string_view prefix :
       {"s_branch", "s_cbranch", "s_setpc", "s_swappc", "s_call", "s_endpgm", "scratch_", "buffer_", "flat_"})
    if (starts(prefix)) return true;
  return false;
}

}  // namespace

AmdgpuTarget::AmdgpuTarget(std::string_view arch) {
  std::string error;
  switch (amdgpu_mc::makeMcTarget(arch, /*with_features=*/true, *this, error)) {
    case amdgpu_mc::McStatus::Ready:
      break;
    case amdgpu_mc::McStatus::NoArch:
      throw Error("no AMDGPU arch given for the assembly");
    case amdgpu_mc::McStatus::NoTarget:
      throw Error(std::string(amdgpu_mc::kLinkedLlvm) + " has no AMDGPU target: " + error);
    case amdgpu_mc::McStatus::UnknownArch:
      throw Error(std::string(amdgpu_mc::kLinkedLlvm) + " does not know the AMDGPU arch '" + cpu + "'");
    case amdgpu_mc::McStatus::Incomplete:
      throw Error(std::string(amdgpu_mc::kLinkedLlvm) + "'s AMDGPU target is incomplete");
  }
  mia.reset(target->createMCInstrAnalysis(mii.get()));
  printer.reset(target->createMCInstPrinter(llvm::Triple(triple), mai->getAssemblerDialect(), *mai, *mii, *mri));
  if (!printer) throw Error(std::string(amdgpu_mc::kLinkedLlvm) + "'s AMDGPU target is incomplete");
}

std::string AmdgpuTarget::print(const llvm::MCInst &inst) const {
  std::string text;
  llvm::raw_string_ostream os(text);
  printer->printInst(&inst, 0, "", *sti, os);
  os.flush();
  std::size_t begin = text.find_first_not_of(" \t");
  return begin == std::string::npos ? std::string() : text.substr(begin);
}

namespace {

std::string_view trimLeft(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

// Collects what the streamer sees into functions.
class Recorder {
 public:
  Recorder(AsmModule &module, const llvm::SourceMgr &sources) : module_(module), sources_(sources) {}

  void setLexer(const llvm::MCAsmLexer *lexer) { lexer_ = lexer; }

  void markFunction(const llvm::MCSymbol *symbol) { function_symbols_.insert(symbol->getName().str()); }

  void label(const llvm::MCSymbol *symbol) {
    std::string name = symbol->getName().str();
    if (function_symbols_.count(name)) {
      startFunction(name);
      return;
    }
    pending_labels_.push_back(std::move(name));
  }

  void endFunction(const llvm::MCSymbol *symbol) {
    if (current_ >= 0 && module_.functions[current_].name == symbol->getName()) finishFunction();
  }

  void leaveText() { finishFunction(); }

  void instruction(const llvm::MCInst &inst) {
    if (current_ < 0) startImplicitFunction();
    RawInstruction raw;
    raw.inst = inst;
    raw.asm_line = currentAsmLine();
    raw.file = file_;
    raw.line = line_;
    raw.labels = std::move(pending_labels_);
    pending_labels_.clear();
    module_.functions[current_].instructions.push_back(std::move(raw));
  }

  void location(unsigned file_number, unsigned line) {
    auto it = file_numbers_.find(file_number);
    file_ = it == file_numbers_.end() ? -1 : it->second;
    line_ = static_cast<int>(line);
  }

  // One index per file, however the .file directives spell it: clang's DWARF 5
  // line table names the main file twice when the compile's directory and the
  // source share a prefix beyond "/" (.file 0 "/tmp/regscope-x" "/tmp/p/k.hip"
  // and .file 1 "/tmp" "p/k.hip": a source under /tmp, as regscope compiles in
  // /tmp), and code inlined from the file then counted as another file's.
  void file(unsigned file_number, llvm::StringRef directory, llvm::StringRef name) {
    SourceFile f{directory.str(), name.str()};
    auto normal = [](const SourceFile &file) {
      llvm::SmallString<256> p(file.path());
      llvm::sys::path::remove_dots(p, /*remove_dot_dot=*/true);
      return std::string(p.str());
    };
    const std::string path = normal(f);
    int index = -1;
    for (std::size_t i = 0; i < module_.files.size() && index < 0; ++i)
      if (normal(module_.files[i]) == path) index = static_cast<int>(i);
    if (index < 0) {
      index = static_cast<int>(module_.files.size());
      module_.files.push_back(std::move(f));
    }
    file_numbers_[file_number] = index;
  }

  // A parser diagnostic. Errors on an instruction line inside a function count
  // as unknown instructions there; the rest are counted for one file-level note.
  void diagnostic(const llvm::SMDiagnostic &d) {
    if (d.getKind() != llvm::SourceMgr::DK_Error) return;
    ++module_.diagnostics;
    const std::string contents = d.getLineContents().str();
    std::string_view text = trimLeft(contents);
    text = text.substr(0, text.find(';'));
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
    std::string where =
        "line " + std::to_string(d.getLineNo()) + " (`" + std::string(text) + "`): " + d.getMessage().str();
    bool directive = !text.empty() && text.front() == '.';
    // A newer LLVM's descriptor fields end LLVM 15's .amdhsa_kernel block early, so
    // its closing .end_amdhsa_kernel is then unknown too: compiler output all the same.
    if (text.substr(0, 8) != ".amdhsa_" && text.substr(0, 8) != ".amdgpu_" && text != ".end_amdhsa_kernel")
      ++module_.foreign_errors;
    if (current_ >= 0 && !directive) {
      RawFunction &f = module_.functions[current_];
      if (mayBranchOrReachPrivate(text)) ++f.unknown_branch_or_private;
      if (f.unknown_instructions++ < kMaxExamples)
        f.notes.push_back(std::string(amdgpu_mc::kLinkedLlvm) + " cannot read " + where);
      return;
    }
    if (skipped_++ < kMaxExamples) skipped_examples_.push_back(where);
  }

  // Data inside a function body: never compiler output, and text that LLVM
  // 15's assembler can fail to lay out (see inline_sites.cpp).
  void data() {
    if (current_ >= 0) ++module_.foreign_errors;
  }

  void finish() {
    finishFunction();
    if (skipped_ == 0) return;
    std::string note = std::string(amdgpu_mc::kLinkedLlvm) + " skipped " + std::to_string(skipped_) + " line" +
                       (skipped_ == 1 ? "" : "s") + " outside instructions (directives of a newer LLVM), first ";
    for (std::size_t i = 0; i < skipped_examples_.size(); ++i) note += (i ? "; " : "") + skipped_examples_[i];
    module_.notes.push_back(note);
  }

 private:
  static constexpr int kMaxExamples = 3;

  void startFunction(const std::string &name) {
    finishFunction();
    RawFunction f;
    f.name = name;
    module_.functions.push_back(std::move(f));
    current_ = static_cast<int>(module_.functions.size()) - 1;
    pending_labels_.clear();
    file_ = -1;
    line_ = 0;
  }

  // Instructions outside any .type @function symbol (hand-written text): they
  // form a function named after the last label.
  void startImplicitFunction() {
    std::vector<std::string> labels = std::move(pending_labels_);
    startFunction(labels.empty() ? "(no function)" : labels.back());
    pending_labels_ = std::move(labels);
  }

  void finishFunction() {
    current_ = -1;
    pending_labels_.clear();
  }

  // The lexer stands on the first token after the instruction's statement;
  // the instruction is the last line before it that is neither blank nor a
  // comment (compiler output writes one statement per line).
  int currentAsmLine() const {
    if (!lexer_) return 0;
    const char *at = lexer_->getLoc().getPointer();
    const llvm::MemoryBuffer *buffer = sources_.getMemoryBuffer(sources_.getMainFileID());
    const char *begin = buffer->getBufferStart();
    if (!at || at < begin || at > buffer->getBufferEnd()) return 0;
    const char *p = at;
    while (p > begin && p[-1] != '\n') --p;  // start of the token's line
    while (p > begin) {
      const char *end = p - 1;  // the '\n' ending the previous line
      const char *start = end;
      while (start > begin && start[-1] != '\n') --start;
      std::string_view line = trimLeft(std::string_view(start, static_cast<std::size_t>(end - start)));
      if (!line.empty() && line.front() != ';' && line.front() != '\r') {
        return static_cast<int>(sources_.getLineAndColumn(llvm::SMLoc::getFromPointer(start)).first);
      }
      p = start;
    }
    return 0;
  }

  AsmModule &module_;
  const llvm::SourceMgr &sources_;
  const llvm::MCAsmLexer *lexer_ = nullptr;
  std::set<std::string> function_symbols_;
  std::map<unsigned, int> file_numbers_;
  std::vector<std::string> pending_labels_;
  int current_ = -1;
  int skipped_ = 0;
  std::vector<std::string> skipped_examples_;
  int file_ = -1;
  int line_ = 0;
};

// MCStreamer's hooks below changed parameter types between the two LLVMs
// regscope links (CMake's REGSCOPE_LLVM): LLVM 16 took std::optional for
// llvm::Optional in the DWARF file hooks and llvm::Align for the alignment of
// common and zero-filled symbols; LLVM 19 numbers a subsection instead of
// taking an expression. One alias each, so each hook is written once.
#if LLVM_VERSION_MAJOR >= 19
template <typename T>
using McOptional = std::optional<T>;
using McAlignment = llvm::Align;
using McSubsection = std::uint32_t;
// LLVM 19: a section says whether it is code itself; the context's symbol
// table holds a value with the symbol in it.
bool isText(const llvm::MCSection &section) { return section.isText(); }
const llvm::MCSymbol *tableSymbol(const llvm::MCSymbolTableValue &value) { return value.Symbol; }
#else
template <typename T>
using McOptional = llvm::Optional<T>;
using McAlignment = unsigned;
using McSubsection = const llvm::MCExpr *;
bool isText(const llvm::MCSection &section) { return section.getKind().isText(); }
const llvm::MCSymbol *tableSymbol(const llvm::MCSymbol *symbol) { return symbol; }
#endif

class RecordingStreamer final : public llvm::MCStreamer {
 public:
  RecordingStreamer(llvm::MCContext &context, Recorder &recorder) : MCStreamer(context), recorder_(recorder) {}

  void emitInstruction(const llvm::MCInst &inst, const llvm::MCSubtargetInfo &) override {
    recorder_.instruction(inst);
  }
  void emitLabel(llvm::MCSymbol *symbol, llvm::SMLoc loc) override {
    MCStreamer::emitLabel(symbol, loc);
    recorder_.label(symbol);
  }
  bool emitSymbolAttribute(llvm::MCSymbol *symbol, llvm::MCSymbolAttr attribute) override {
    if (attribute == llvm::MCSA_ELF_TypeFunction) recorder_.markFunction(symbol);
    return true;
  }
  void emitELFSize(llvm::MCSymbol *symbol, const llvm::MCExpr *) override { recorder_.endFunction(symbol); }
  void changeSection(llvm::MCSection *section, McSubsection subsection) override {
    MCStreamer::changeSection(section, subsection);
    if (!isText(*section)) recorder_.leaveText();
  }
  void emitDwarfLocDirective(unsigned file_number, unsigned line, unsigned column, unsigned flags, unsigned isa,
                             unsigned discriminator, llvm::StringRef file_name) override {
    MCStreamer::emitDwarfLocDirective(file_number, line, column, flags, isa, discriminator, file_name);
    recorder_.location(file_number, line);
  }
  llvm::Expected<unsigned> tryEmitDwarfFileDirective(unsigned file_number, llvm::StringRef directory,
                                                     llvm::StringRef file_name,
                                                     McOptional<llvm::MD5::MD5Result> checksum,
                                                     McOptional<llvm::StringRef> source, unsigned cu_id) override {
    auto result = MCStreamer::tryEmitDwarfFileDirective(file_number, directory, file_name, checksum, source, cu_id);
    if (result) recorder_.file(*result, directory, file_name);
    return result;
  }
  void emitDwarfFile0Directive(llvm::StringRef directory, llvm::StringRef file_name,
                               McOptional<llvm::MD5::MD5Result> checksum, McOptional<llvm::StringRef> source,
                               unsigned cu_id) override {
    MCStreamer::emitDwarfFile0Directive(directory, file_name, checksum, source, cu_id);
    recorder_.file(0, directory, file_name);
  }
  void emitBytes(llvm::StringRef data) override {
    MCStreamer::emitBytes(data);
    recorder_.data();
  }
  void emitValueImpl(const llvm::MCExpr *value, unsigned size, llvm::SMLoc loc) override {
    MCStreamer::emitValueImpl(value, size, loc);
    recorder_.data();
  }
  void emitFill(const llvm::MCExpr &bytes, uint64_t value, llvm::SMLoc loc) override {
    MCStreamer::emitFill(bytes, value, loc);
    recorder_.data();
  }
  void emitFill(const llvm::MCExpr &count, int64_t size, int64_t value, llvm::SMLoc loc) override {
    MCStreamer::emitFill(count, size, value, loc);
    recorder_.data();
  }
  void emitULEB128Value(const llvm::MCExpr *value) override {
    MCStreamer::emitULEB128Value(value);
    recorder_.data();
  }
  void emitSLEB128Value(const llvm::MCExpr *value) override {
    MCStreamer::emitSLEB128Value(value);
    recorder_.data();
  }
  // Data, not code: nothing to record.
  void emitCommonSymbol(llvm::MCSymbol *, uint64_t, McAlignment) override {}
  void emitZerofill(llvm::MCSection *, llvm::MCSymbol *, uint64_t, McAlignment, llvm::SMLoc) override {}

 private:
  Recorder &recorder_;
};

// The kernels: the functions an .amdhsa_kernel directive describes. Read from
// the directive lines themselves, because a descriptor block that LLVM 15
// cannot finish (clang 19 adds fields it does not know) never reaches a
// streamer.
std::set<std::string> kernelNames(std::string_view text) {
  std::set<std::string> names;
  const std::string_view directive = ".amdhsa_kernel";
  while (!text.empty()) {
    std::size_t end = text.find('\n');
    std::string_view line = trimLeft(text.substr(0, end));
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    if (line.substr(0, directive.size()) != directive || line.size() == directive.size()) continue;
    if (line[directive.size()] != ' ' && line[directive.size()] != '\t') continue;
    std::string_view name = trimLeft(line.substr(directive.size()));
    name = name.substr(0, name.find_first_of(" \t\r;"));
    if (!name.empty()) names.insert(std::string(name));
  }
  return names;
}

}  // namespace

std::unique_ptr<AsmModule> readAssembly(const AmdgpuTarget &target, std::string_view text) {
  auto module = std::make_unique<AsmModule>();
  llvm::SourceMgr &sources = module->source_manager;
  sources.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(text.data(), text.size()), "asm"),
                             llvm::SMLoc());
  Recorder recorder(*module, sources);
  sources.setDiagHandler(
      [](const llvm::SMDiagnostic &d, void *context) { static_cast<Recorder *>(context)->diagnostic(d); }, &recorder);

  amdgpu_mc::AsmContext made = amdgpu_mc::makeAsmContext(target, sources);
  module->object_file_info = std::move(made.object_file_info);
  module->context = std::move(made.context);
  llvm::MCContext &context = *module->context;
  context.setDiagnosticHandler([&recorder](const llvm::SMDiagnostic &d, bool, const llvm::SourceMgr &,
                                           std::vector<const llvm::MDNode *> &) { recorder.diagnostic(d); });

  // The target streamer writes nowhere; declared before the streamer, which owns it. Its own null
  // stream, not llvm::nulls(): formatted_raw_ostream takes over its stream's buffer, and files are
  // read on several threads at once (a shared one was a double free under load).
  llvm::raw_null_ostream nowhere;
  llvm::formatted_raw_ostream formatted(nowhere);
  RecordingStreamer streamer(context, recorder);
  amdgpu_mc::AsmParser parser = amdgpu_mc::makeAsmParser(target, sources, context, streamer, formatted);
  if (!parser.target_parser) throw Error(std::string(amdgpu_mc::kLinkedLlvm) + " has no AMDGPU asm parser");
  recorder.setLexer(&parser.parser->getLexer());
  parser.parser->Run(/*NoInitialTextSection=*/false, /*NoFinalize=*/true);
  recorder.finish();

  // A label used but never defined (a line lost from the text) would make the
  // in-memory assembly of inline_sites.cpp abort or loop: count it as an error.
  for (const auto &entry : context.getSymbols())
    if (const llvm::MCSymbol *symbol = tableSymbol(entry.second))
      if (symbol->isUndefined() && !symbol->isVariable() && symbol->isTemporary()) ++module->foreign_errors;

  std::set<std::string> kernels = kernelNames(text);
  for (RawFunction &f : module->functions) f.is_kernel = kernels.count(f.name) > 0;
  return module;
}

}  // namespace regscope::isa_detail
