// A device code object back to assembly text (code_object_text.h): LLVM's
// Object library for the ELF and its function symbols, the AMDGPU
// disassembler and instruction printer of the one MC setup (mc_target.h),
// and DWARFContext's line table for the .file/.loc directives. Branch
// targets become labels, so that the isa reader finds the same blocks as in
// the compiler's .s; each kernel gets the framing that reader looks for
// (.type @function, .size, an .amdhsa_kernel block).
#include "regscope/backends/amd/code_object_text.h"

#include <llvm/BinaryFormat/ELF.h>
#include <llvm/DebugInfo/DWARF/DWARFContext.h>
#include <llvm/MC/MCDisassembler/MCDisassembler.h>
#include <llvm/MC/MCExpr.h>
#include <llvm/MC/MCInst.h>
#include <llvm/MC/MCInstPrinter.h>
#include <llvm/MC/MCInstrDesc.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Object/ELFObjectFile.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>
#include <vector>

#include "mc_target.h"
#include "regscope/support/error.h"
#include "regscope/support/llvm_compat.h"

namespace regscope {
namespace {

struct Function {
  std::string name;
  std::uint64_t address = 0, size = 0;
  llvm::object::SectionRef section;
};

std::string quoted(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string label(std::uint64_t address) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << ".Lrs_" << llvm::format_hex_no_prefix(address, 1);
  return os.str();
}

// An MFMA whose C and D are VGPRs (bit 15 of its encoding, acc_cd, clear):
// LLVM 15 decodes gfx940's as AGPRs ("a[0:15]"), which would count the
// accumulator as AGPRs and leave its VGPRs unwritten; gfx90a's it decodes
// right. The printed D (first operand) and C (last) are put back as VGPRs.
std::string mfmaOperands(std::string text, std::uint32_t word) {
  if (word & (1u << 15)) return text;
  const std::size_t space = text.find(' ');
  if (space == std::string::npos) return text;
  const std::size_t d = text.find_first_not_of(' ', space);
  const std::size_t c = text.rfind(", ");
  const auto isAgpr = [&](std::size_t at) {
    return at + 1 < text.size() && text[at] == 'a' &&
           (text[at + 1] == '[' || (text[at + 1] >= '0' && text[at + 1] <= '9'));
  };
  if (d == std::string::npos || !isAgpr(d)) return text;
  text[d] = 'v';
  if (c != std::string::npos && isAgpr(c + 2)) text[c + 2] = 'v';
  return text;
}

}  // namespace

std::optional<std::string> assemblyOfCodeObject(std::string_view bytes, const std::string &arch) {
  if (bytes.substr(0, 4) != std::string_view("\x7f"
                                             "ELF",
                                             4))
    return std::nullopt;
  llvm::MemoryBufferRef buffer(llvm::StringRef(bytes.data(), bytes.size()), "code object");
  auto object = llvm::object::ObjectFile::createELFObjectFile(buffer);
  if (!object) throw Error("not a readable ELF file: " + llvm::toString(object.takeError()));
  auto *elf = llvm::dyn_cast<llvm::object::ELF64LEObjectFile>(object->get());
  if (!elf || elf->getELFFile().getHeader().e_machine != llvm::ELF::EM_AMDGPU) return std::nullopt;

  bool has_lines = false;
  for (const llvm::object::SectionRef &section : elf->sections()) {
    auto name = section.getName();
    if (!name) {
      llvm::consumeError(name.takeError());
      continue;
    }
    if (*name == ".debug_line" && section.getSize() > 0) has_lines = true;
  }
  if (!has_lines) return std::nullopt;

  // The functions: STT_FUNC symbols with a size, inside an executable section of the file.
  std::vector<Function> functions;
  for (const llvm::object::ELFSymbolRef symbol : elf->symbols()) {
    if (symbol.getELFType() != llvm::ELF::STT_FUNC || symbol.getSize() == 0) continue;
    auto name = symbol.getName();
    auto address = symbol.getAddress();
    auto section = symbol.getSection();
    if (!name || !address || !section || *section == elf->section_end()) {
      if (!name) llvm::consumeError(name.takeError());
      if (!address) llvm::consumeError(address.takeError());
      if (!section) llvm::consumeError(section.takeError());
      continue;
    }
    const llvm::object::SectionRef text = **section;
    if (!text.isText() || *address < text.getAddress() || *address - text.getAddress() > text.getSize() ||
        symbol.getSize() > text.getSize() - (*address - text.getAddress()))
      continue;
    functions.push_back({name->str(), *address, symbol.getSize(), text});
  }
  std::sort(functions.begin(), functions.end(),
            [](const Function &a, const Function &b) { return a.address < b.address; });

  // The kernels: those with a kernel descriptor symbol "<name>.kd".
  std::set<std::string> kernels;
  for (const llvm::object::ELFSymbolRef symbol : elf->symbols()) {
    auto name = symbol.getName();
    if (!name) {
      llvm::consumeError(name.takeError());
      continue;
    }
    if (endsWith(*name, ".kd")) kernels.insert(name->drop_back(3).str());
  }

  amdgpu_mc::McTarget target;
  std::string error;
  if (amdgpu_mc::makeMcTarget(arch, /*with_features=*/false, target, error) != amdgpu_mc::McStatus::Ready)
    throw Error(std::string(amdgpu_mc::kLinkedLlvm) + " cannot disassemble " + arch +
                (error.empty() ? "" : ": " + error));
  std::unique_ptr<llvm::MCContext> context = amdgpu_mc::makeContext(target);
  std::unique_ptr<llvm::MCDisassembler> disassembler(target.target->createMCDisassembler(*target.sti, *context));
  std::unique_ptr<llvm::MCInstPrinter> printer(
      target.target->createMCInstPrinter(llvm::Triple(target.triple), 0, *target.mai, *target.mii, *target.mri));
  if (!disassembler || !printer)
    throw Error(std::string(amdgpu_mc::kLinkedLlvm) + " has no AMDGPU disassembler for " + arch);

  auto ignore = [](llvm::Error e) { llvm::consumeError(std::move(e)); };
  std::unique_ptr<llvm::DWARFContext> dwarf = llvm::DWARFContext::create(
      *elf, llvm::DWARFContext::ProcessDebugRelocations::Process, nullptr, "", ignore, ignore);
  const llvm::DILineInfoSpecifier spec(llvm::DILineInfoSpecifier::FileLineInfoKind::AbsoluteFilePath,
                                       llvm::DILineInfoSpecifier::FunctionNameKind::None);

  std::string out;
  llvm::raw_string_ostream os(out);
  os << "\t.text\n";
  std::map<std::string, int> files;  // path -> .file number
  int function_index = 0;
  for (const Function &f : functions) {
    llvm::StringRef contents;
    if (auto c = f.section.getContents())
      contents = *c;
    else {
      llvm::consumeError(c.takeError());
      continue;
    }
    const std::uint64_t begin = f.address - f.section.getAddress();
    if (begin > contents.size() || f.size > contents.size() - begin) continue;
    const llvm::ArrayRef<std::uint8_t> body(reinterpret_cast<const std::uint8_t *>(contents.data() + begin), f.size);

    // First pass: decode, and collect the branch targets.
    struct Decoded {
      std::uint64_t address;
      std::uint64_t length;
      llvm::MCInst inst;
      bool ok;
      std::uint32_t word;  // the first 32 bits of its encoding
    };
    std::vector<Decoded> decoded;
    std::set<std::uint64_t> targets;
    llvm::raw_null_ostream comments;  // this thread's own: llvm::nulls() is shared by every thread
    for (std::uint64_t at = 0; at < body.size();) {
      Decoded d{f.address + at, 0, {}, false, 0};
      for (int b = 0; b < 4 && at + b < body.size(); ++b) d.word |= std::uint32_t(body[at + b]) << (8 * b);
      const auto status = disassembler->getInstruction(d.inst, d.length, body.slice(at), d.address, comments);
      d.ok = status == llvm::MCDisassembler::Success && d.length > 0;
      if (!d.ok) d.length = std::min<std::uint64_t>(4, body.size() - at);
      if (d.ok) {
        const llvm::MCInstrDesc &desc = target.mii->get(d.inst.getOpcode());
        // SOPP branches: a signed 16-bit dword offset from the next instruction.
        if (desc.isBranch() && !desc.isIndirectBranch() && d.inst.getNumOperands() > 0 &&
            d.inst.getOperand(0).isImm()) {
          const auto offset = static_cast<std::int16_t>(d.inst.getOperand(0).getImm() & 0xffff);
          const std::uint64_t to = d.address + 4 + static_cast<std::int64_t>(offset) * 4;
          targets.insert(to);
          d.inst.getOperand(0) = llvm::MCOperand::createExpr(
              llvm::MCSymbolRefExpr::create(context->getOrCreateSymbol(label(to)), *context));
        }
      }
      at += d.length;
      decoded.push_back(std::move(d));
    }

    const bool kernel = kernels.count(f.name) > 0;
    os << "\t.globl\t" << f.name << "\n\t.p2align\t8\n\t.type\t" << f.name << ",@function\n" << f.name << ":\n";
    std::tuple<int, std::uint32_t, std::uint32_t> where{-1, 0, 0};
    for (Decoded &d : decoded) {
      if (targets.count(d.address)) os << label(d.address) << ":\n";
      const llvm::DILineInfo line = dwarf->getLineInfoForAddress({d.address, f.section.getIndex()}, spec);
      if (line.FileName != llvm::DILineInfo::BadString) {
        auto [slot, fresh] = files.try_emplace(line.FileName, static_cast<int>(files.size()) + 1);
        if (fresh) {
          const std::filesystem::path path(line.FileName);
          os << "\t.file\t" << slot->second << " " << quoted(path.parent_path().string()) << " "
             << quoted(path.filename().string()) << "\n";
        }
        const std::tuple<int, std::uint32_t, std::uint32_t> now{slot->second, line.Line, line.Column};
        if (now != where) os << "\t.loc\t" << slot->second << " " << line.Line << " " << line.Column << "\n";
        where = now;
      }
      if (!d.ok) {
        os << "\t; " << llvm::format_hex(d.address, 1) << ": bytes the disassembler does not decode\n";
        continue;
      }
      std::string text;
      llvm::raw_string_ostream is(text);
      printer->printInst(&d.inst, d.address, "", *target.sti, is);
      is.flush();
      const std::size_t first = text.find_first_not_of(" \t");
      text = first == std::string::npos ? text : text.substr(first);
      if (startsWith(target.mii->getName(d.inst.getOpcode()), "V_MFMA")) text = mfmaOperands(text, d.word);
      os << "\t" << text << "\n";
    }
    const std::string end = ".Lrs_func_end" + std::to_string(function_index++);
    os << end << ":\n\t.size\t" << f.name << ", " << end << "-" << f.name << "\n";
    if (kernel) {
      // The isa reader knows a kernel by its .amdhsa_kernel line; it reads no
      // figure from the block. The values below are placeholders that LLVM's
      // parser requires to accept the block (regscope reads a code object's
      // figures from its metadata note, code_object.cpp).
      os << "\t.section\t.rodata,\"a\",@progbits\n\t.p2align\t6, 0x0\n\t.amdhsa_kernel " << f.name
         << "\n\t\t.amdhsa_next_free_vgpr 256\n\t\t.amdhsa_next_free_sgpr 96\n";
      if (target.sti->checkFeatures("+gfx90a-insts")) os << "\t\t.amdhsa_accum_offset 256\n";
      os << "\t.end_amdhsa_kernel\n\t.text\n";
    }
  }
  os.flush();
  return out;
}

}  // namespace regscope
