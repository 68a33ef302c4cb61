// Intel: ocloc's log, the zebin's .ze_info and IGC's shader-dump headers ->
// KernelFacts. The zebin is read with LLVM's object library and .ze_info with
// LLVM's YAML parser; the two text forms are scanned line by line.
#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Object/ELFObjectFile.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/YAMLParser.h>
#include <algorithm>

#include <map>
#include <set>

#include "regscope/backends/intel/collect.h"
#include "regscope/collect/scan.h"
#include "regscope/collect/yaml_input.h"
#include "regscope/support/error.h"
#include "regscope/support/llvm_compat.h"

namespace regscope {
namespace {

// Intel GT's ELF machine; LLVM 15 still calls it EM_INTEL205 (EM_INTELGT later).
constexpr unsigned kEmIntelGt = 205;

// IGC lists a pseudo-kernel that carries the program's symbol table when the
// program has program-scope variables (BabelStream's `constant TYPE scalar`).
constexpr llvm::StringLiteral kSymbolTableKernel = "Intel_Symbol_Table_Void_Program";

KernelFacts intelFacts(const std::string &name, const std::string &arch) {
  KernelFacts facts;
  facts.name = name;
  facts.arch = arch;
  facts.vendor = Vendor::Intel;
  facts.is_kernel = name != kSymbolTableKernel;
  return facts;
}

// ---- ocloc's log ----

// A decimal number at the front of `s`, which it consumes; nullopt if none.
std::optional<std::int64_t> takeNumber(llvm::StringRef &s) {
  std::size_t n = 0;
  while (n < s.size() && s[n] >= '0' && s[n] <= '9') ++n;
  std::int64_t value;
  if (n == 0 || s.substr(0, n).getAsInteger(10, value)) return std::nullopt;
  s = s.drop_front(n);
  return value;
}

// "compiled SIMD32 allocated 128 regs and spilled around 874"
bool parseSpillTail(llvm::StringRef tail, KernelFacts &facts) {
  if (!tail.consume_front("compiled SIMD")) return false;
  const auto simd = takeNumber(tail);
  if (!simd || !tail.consume_front(" allocated ")) return false;
  const auto grf = takeNumber(tail);
  if (!grf || !tail.consume_front(" regs and spilled around ")) return false;
  const auto spill = takeNumber(tail);
  if (!spill) return false;
  facts.set(Field::SimdSize, *simd);
  facts.set(Field::GrfCount, *grf);
  facts.set(Field::SpillGrfs, *spill);
  return true;
}

std::optional<KernelFacts> parseSpillWarning(llvm::StringRef line, const std::string &default_arch) {
  line = line.trim();
  std::string arch = default_arch;
  if (startsWith(line, "[")) {  // a multi-target build names the target first
    const std::size_t close = line.find(']');
    if (close == llvm::StringRef::npos) return std::nullopt;
    arch = line.substr(1, close - 1).str();
    line = line.drop_front(close + 1).ltrim();
  }
  if (!line.consume_front("warning:")) return std::nullopt;
  line = line.ltrim();
  llvm::StringRef name, tail;
  if (line.consume_front("in kernel '")) {  // newer IGC: in kernel 'NAME': compiled ...
    const std::size_t end = line.find("':");
    if (end == llvm::StringRef::npos) return std::nullopt;
    name = line.substr(0, end);
    tail = line.drop_front(end + 2).ltrim();
  } else if (line.consume_front("kernel ")) {  // 22.43: kernel NAME  compiled ... (one or two spaces)
    const std::size_t end = line.rfind(" compiled SIMD");
    if (end == llvm::StringRef::npos) return std::nullopt;
    name = line.substr(0, end).trim();
    tail = line.drop_front(end + 1);
  } else {
    return std::nullopt;
  }
  if (name.empty()) return std::nullopt;
  KernelFacts facts = intelFacts(name.str(), arch);
  if (!parseSpillTail(tail, facts)) return std::nullopt;
  return facts;
}

// ---- .ze_info ----

std::string scalarText(llvm::yaml::Node *node) {
  auto *scalar = llvm::dyn_cast_or_null<llvm::yaml::ScalarNode>(node);
  if (!scalar) return "";
  llvm::SmallString<32> storage;
  return scalar->getValue(storage).str();
}

std::optional<std::int64_t> scalarNumber(llvm::yaml::Node *node) {
  const std::string text = scalarText(node);
  if (text == "true") return 1;
  if (text == "false") return 0;
  std::int64_t value;
  if (text.empty() || llvm::StringRef(text).getAsInteger(0, value)) return std::nullopt;
  return value;
}

// Calls `fn(key, value)` for each entry of a mapping node.
template <typename Fn>
void forEachEntry(llvm::yaml::Node *node, Fn fn) {
  auto *map = llvm::dyn_cast_or_null<llvm::yaml::MappingNode>(node);
  if (!map) return;
  for (llvm::yaml::KeyValueNode &kv : *map) {
    const std::string key = scalarText(kv.getKey());
    fn(key, kv.getValue());
  }
}

template <typename Fn>
void forEachItem(llvm::yaml::Node *node, Fn fn) {
  auto *seq = llvm::dyn_cast_or_null<llvm::yaml::SequenceNode>(node);
  if (!seq) return;
  for (llvm::yaml::Node &item : *seq) fn(&item);
}

void readExecutionEnv(llvm::yaml::Node *env, KernelFacts &facts) {
  static const std::map<std::string, Field> kFields = {{"grf_count", Field::GrfCount},
                                                       {"simd_size", Field::SimdSize},
                                                       {"slm_size", Field::SlmBytes},
                                                       {"barrier_count", Field::Barriers},
                                                       {"has_stack_calls", Field::HasStackCalls},
                                                       {"private_size", Field::PrivateBytes},
                                                       {"spill_size", Field::SpillBytes},
                                                       {"eu_thread_count", Field::EuThreadCount}};
  forEachEntry(env, [&](const std::string &key, llvm::yaml::Node *value) {
    if (auto it = kFields.find(key); it != kFields.end()) {
      if (auto number = scalarNumber(value)) facts.set(it->second, *number);
    } else if (key == "required_work_group_size") {
      std::int64_t product = 1;
      forEachItem(value, [&](llvm::yaml::Node *item) {
        const std::optional<std::int64_t> n = scalarNumber(item);
        if (!n) throw Error("malformed .ze_info: required_work_group_size holds a value that is not a number");
        if (__builtin_mul_overflow(product, *n, &product))
          throw Error("malformed .ze_info: required_work_group_size does not fit 64 bits");
      });
      if (product > 1) facts.set(Field::MaxWorkgroupSize, product);
    }
  });
}

// Sizes are per hardware thread, except a global buffer marked is_simt_thread,
// which holds one copy per work-item: SIMD width times as much per thread.
void readMemoryBuffers(llvm::yaml::Node *buffers, KernelFacts &facts) {
  std::int64_t scratch = 0, global = 0;
  bool any_scratch = false, any_global = false, simd_unknown = false;
  forEachItem(buffers, [&](llvm::yaml::Node *buffer) {
    std::string type;
    std::int64_t size = 0;
    bool simt = false;
    forEachEntry(buffer, [&](const std::string &key, llvm::yaml::Node *value) {
      if (key == "type")
        type = scalarText(value);
      else if (key == "size")
        size = scalarNumber(value).value_or(0);
      else if (key == "is_simt_thread")
        simt = scalarNumber(value).value_or(0) != 0;
    });
    bool overflow = false;
    if (type == "scratch") {
      overflow = __builtin_add_overflow(scratch, size, &scratch);
      any_scratch = true;
    } else if (type == "global") {
      std::int64_t copies = size;
      // One copy per work-item: without the SIMD width the size per thread is unknown, never one copy.
      if (simt && !facts.get(Field::SimdSize)) simd_unknown = true;
      overflow = (simt && __builtin_mul_overflow(size, facts.get(Field::SimdSize).value_or(1), &copies)) ||
                 __builtin_add_overflow(global, copies, &global);
      any_global = true;
    }
    if (overflow) throw Error("malformed .ze_info: per_thread_memory_buffers sizes do not fit 64 bits");
  });
  if (any_scratch) facts.set(Field::ScratchPerThread, scratch);
  if (simd_unknown)
    facts.missing.push_back(Field::GlobalPrivatePerThread);
  else if (any_global)
    facts.set(Field::GlobalPrivatePerThread, global);
}

KernelFacts readKernel(llvm::yaml::Node *kernel, const std::string &arch) {
  KernelFacts facts = intelFacts("", arch);
  forEachEntry(kernel, [&](const std::string &key, llvm::yaml::Node *value) {
    if (key == "name") {
      facts.name = scalarText(value);
      facts.is_kernel = facts.name != kSymbolTableKernel;
    } else if (key == "execution_env")
      readExecutionEnv(value, facts);
    else if (key == "per_thread_memory_buffers")
      readMemoryBuffers(value, facts);
  });
  // .ze_info lists every buffer a kernel needs: none listed is none needed.
  for (Field f : {Field::ScratchPerThread, Field::GlobalPrivatePerThread})
    if (!facts.get(f) && std::find(facts.missing.begin(), facts.missing.end(), f) == facts.missing.end())
      facts.set(f, 0);
  return facts;
}

// IGC's .ze_info nests four levels. LLVM's YAML scanner revisits a simple-key
// candidate of every open flow collection at each token, so 64K nested '['
// took seconds (time growing with size times depth): deeper flow nesting than
// this is refused before LLVM reads the text. Brackets inside quoted scalars
// count too, which no .ze_info has 64 of.
constexpr int kMaxZeInfoFlowNesting = 64;

void checkFlowNesting(std::string_view yaml) {
  checkYamlBytes(yaml, "malformed .ze_info");
  int depth = 0;
  for (char c : yaml) {
    if ((c == '[' || c == '{') && ++depth > kMaxZeInfoFlowNesting)
      throw Error("malformed .ze_info: nested deeper than " + std::to_string(kMaxZeInfoFlowNesting) + " levels");
    if ((c == ']' || c == '}') && depth > 0) --depth;
  }
}

// ---- IGC's shader dump ----

// The retry a dump file belongs to: "OCL_asm<hash>_1_simd32_entry_0002.asm"
// is IGC's first recompile of that kernel, "OCL_asm<hash>_simd32_..." the first try.
int retryOf(llvm::StringRef file) {
  const std::size_t simd = file.rfind("_simd");
  if (simd == llvm::StringRef::npos) return 0;
  llvm::StringRef head = file.substr(0, simd);
  const std::size_t cut = head.rfind('_');
  int retry = 0;
  if (cut == llvm::StringRef::npos || head.drop_front(cut + 1).getAsInteger(10, retry)) return 0;
  return retry;
}

std::optional<KernelFacts> parseDumpHeader(llvm::StringRef text, const std::string &arch) {
  KernelFacts facts = intelFacts("", arch);
  facts.set(Field::SpillBytes, 0);    // the header says "//.spill size" only when it spills
  facts.set(Field::PrivateBytes, 0);  // and "//.private memory size" only when there is some
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    text = rest;
    line = line.rtrim();
    if (!line.consume_front("//.")) break;  // the header ends at the first instruction
    std::int64_t value;
    if (line.consume_front("kernel ")) {
      facts.name = line.trim().str();
      facts.is_kernel = facts.name != kSymbolTableKernel;
    } else if (line.consume_front("thread_config numGRF=")) {
      if (auto grf = takeNumber(line)) facts.set(Field::GrfCount, *grf);
    } else if (line.consume_front("spill size ") && !line.trim().getAsInteger(10, value)) {
      facts.set(Field::SpillBytes, value);
    } else if (line.consume_front("private memory size ") && !line.trim().getAsInteger(10, value)) {
      facts.set(Field::PrivateBytes, value);
    }
  }
  if (facts.name.empty()) return std::nullopt;
  return facts;
}

}  // namespace

std::vector<KernelFacts> parseOclocLog(std::string_view log, const std::string &arch) {
  std::vector<KernelFacts> kernels;
  std::map<std::pair<std::string, std::string>, std::size_t> index;  // the last warning of a kernel wins
  llvm::StringRef text(log.data(), log.size());
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    text = rest;
    std::optional<KernelFacts> facts = parseSpillWarning(line, arch);
    if (!facts) continue;
    auto [it, inserted] = index.try_emplace({facts->name, facts->arch}, kernels.size());
    if (inserted)
      kernels.push_back(std::move(*facts));
    else
      kernels[it->second] = std::move(*facts);
  }
  return kernels;
}

std::vector<KernelFacts> parseZeInfo(std::string_view yaml, const std::string &arch) {
  checkFlowNesting(yaml);
  QuietYamlStream quiet(yaml);
  std::vector<KernelFacts> kernels;
  bool versioned = false;
  for (llvm::yaml::Document &document : quiet.stream()) {
    forEachEntry(document.getRoot(), [&](const std::string &key, llvm::yaml::Node *value) {
      if (key == "version")
        versioned = !scalarText(value).empty();
      else if (key == "kernels")
        forEachItem(value, [&](llvm::yaml::Node *kernel) {
          KernelFacts facts = readKernel(kernel, arch);
          if (!facts.name.empty()) kernels.push_back(std::move(facts));
        });
    });
  }
  quiet.throwIfFailed("malformed .ze_info");
  if (!versioned) throw Error("not a .ze_info document (no version key)");
  return kernels;
}

std::string zeInfoSection(std::string_view zebin) {
  llvm::MemoryBufferRef buffer(llvm::StringRef(zebin.data(), zebin.size()), "zebin");
  auto object = llvm::object::ObjectFile::createELFObjectFile(buffer);
  if (!object) throw Error("not a zebin (an ELF file): " + llvm::toString(object.takeError()));
  auto *elf = llvm::dyn_cast<llvm::object::ELF64LEObjectFile>(object->get());
  if (!elf || elf->getELFFile().getHeader().e_machine != kEmIntelGt)
    throw Error("not a zebin: an ELF, but not for Intel GT (machine 0xcd)");
  for (const llvm::object::SectionRef &section : elf->sections()) {
    auto name = section.getName();
    if (!name) {
      llvm::consumeError(name.takeError());
      continue;
    }
    if (*name != ".ze_info") continue;
    auto contents = section.getContents();
    if (!contents) throw Error("unreadable .ze_info section: " + llvm::toString(contents.takeError()));
    return contents->str();
  }
  throw Error("not a zebin: no .ze_info section");
}

std::optional<int> zebinProductFamily(std::string_view zebin) {
  llvm::MemoryBufferRef buffer(llvm::StringRef(zebin.data(), zebin.size()), "zebin");
  auto object = llvm::object::ObjectFile::createELFObjectFile(buffer);
  if (!object) {
    llvm::consumeError(object.takeError());
    return std::nullopt;
  }
  auto *elf = llvm::dyn_cast<llvm::object::ELF64LEObjectFile>(object->get());
  if (!elf) return std::nullopt;
  const llvm::object::ELF64LEFile &file = elf->getELFFile();
  auto sections = file.sections();
  if (!sections) {
    llvm::consumeError(sections.takeError());
    return std::nullopt;
  }
  for (const auto &section : *sections) {
    auto name = file.getSectionName(section);
    if (!name) {
      llvm::consumeError(name.takeError());
      continue;
    }
    if (*name != ".note.intelgt.compat") continue;
    llvm::Error error = llvm::Error::success();
    std::optional<int> family;
    for (const auto &note : file.notes(section, error)) {
      const llvm::ArrayRef<uint8_t> desc = noteDesc(note, section);
      if (note.getName() == "IntelGT" && note.getType() == 1 && desc.size() == 4)
        family = static_cast<int>(desc[0] | desc[1] << 8 | desc[2] << 16 | static_cast<uint32_t>(desc[3]) << 24);
    }
    if (error) {
      llvm::consumeError(std::move(error));
      return std::nullopt;
    }
    return family;
  }
  return std::nullopt;
}

std::vector<KernelFacts> parseShaderDump(const std::vector<ShaderDumpFile> &files, const std::string &arch) {
  std::vector<KernelFacts> kernels;
  std::map<std::string, std::pair<int, std::size_t>> best;  // kernel -> (retry, index)
  for (const ShaderDumpFile &file : files) {
    std::optional<KernelFacts> facts = parseDumpHeader(file.text, arch);
    if (!facts) continue;
    const int retry = retryOf(file.name);
    auto it = best.find(facts->name);
    if (it == best.end()) {
      best[facts->name] = {retry, kernels.size()};
      kernels.push_back(std::move(*facts));
    } else if (retry > it->second.first) {
      it->second.first = retry;
      kernels[it->second.second] = std::move(*facts);
    }
  }
  return kernels;
}

}  // namespace regscope
