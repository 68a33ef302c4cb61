// Parses ptxas -v / nvlink resource lines and PTX launch bounds.
#include <string>

#include "regscope/backends/nvidia/collect.h"
#include "regscope/collect/collect.h"
#include "regscope/collect/scan.h"
#include "regscope/support/error.h"
#include "regscope/support/llvm_compat.h"

namespace regscope {
namespace {

using llvm::StringRef;

// The number at the front of `s` (consumed); nullopt without one. A figure
// beyond 64 bits is not something ptxas prints: the input is broken.
std::optional<std::int64_t> number(StringRef &s) {
  bool overflow = false;
  std::optional<std::int64_t> n = scan::consumeNumber(s, overflow);
  if (overflow) throw Error("a figure in ptxas output does not fit 64 bits");
  return n;
}

// `item` is exactly PREFIX N SUFFIX.
std::optional<std::int64_t> figure(StringRef item, StringRef prefix, StringRef suffix) {
  if (!item.consume_front(prefix)) return std::nullopt;
  std::optional<std::int64_t> n = number(item);
  if (!n || item != suffix) return std::nullopt;
  return n;
}

// The comma-separated figures after "Used N registers" (ptxas) or
// "used N registers" (nvlink), in any order and any subset.
void readUsage(StringRef list, KernelFacts &k) {
  while (!list.empty()) {
    auto [raw, rest] = list.split(',');
    list = rest;
    const StringRef item = scan::trim(raw);
    if (auto n = figure(item, "Used ", " registers"))
      k.set(Field::Registers, *n);
    else if (auto n = figure(item, "used ", " registers"))
      k.set(Field::Registers, *n);
    else if (auto n = figure(item, "used ", " barriers"))
      k.set(Field::Barriers, *n);
    else if (auto n = figure(item, "", " bytes cumulative stack size"))
      k.set(Field::StackBytes, *n);
    else if (auto n = figure(item, "", " stack"))
      k.set(Field::StackBytes, *n);
    else if (auto n = figure(item, "", " bytes smem"))
      k.set(Field::SharedBytes, *n);
    else if (auto n = figure(item, "", " bytes cmem[0]"))
      k.set(Field::ConstantBytes, *n);
  }
}

// What follows "ptxas info    : " or "nvlink info    : " anywhere in the line.
std::optional<StringRef> infoMessage(StringRef line) {
  for (StringRef tool : {"ptxas info", "nvlink info"}) {
    const std::size_t at = line.find(tool);
    if (at == StringRef::npos) continue;
    StringRef rest = scan::ltrim(line.substr(at + tool.size()));
    if (rest.consume_front(": ")) return rest;
  }
  return std::nullopt;
}

// "Compiling entry function 'NAME' for 'ARCH'"
bool compilingEntry(StringRef line, std::string &entry, std::string &arch) {
  static constexpr StringRef kLead = "Compiling entry function '";
  const std::size_t at = line.find(kLead);
  if (at == StringRef::npos) return false;
  StringRef rest = line.substr(at + kLead.size());
  const std::size_t name_end = rest.find('\'');
  if (name_end == 0 || name_end == StringRef::npos) return false;
  StringRef after = rest.substr(name_end);
  if (!after.consume_front("' for '")) return false;
  const std::size_t arch_end = after.find('\'');
  if (arch_end == 0 || arch_end == StringRef::npos) return false;
  entry = rest.take_front(name_end).str();
  arch = after.take_front(arch_end).str();
  return true;
}

// "Function properties for [']NAME[']:" (the message after "ptxas info : ")
std::optional<StringRef> propertiesFor(StringRef message) {
  if (!message.consume_front("Function properties for ")) return std::nullopt;
  message.consume_front("'");
  const std::size_t end = message.find_if([](char c) { return c == '\'' || c == ':' || scan::isSpace(c); });
  const StringRef name = message.take_front(end);
  StringRef tail = message.substr(name.size());
  tail.consume_front("'");
  tail.consume_front(":");
  if (name.empty() || !scan::trim(tail).empty()) return std::nullopt;
  return name;
}

// "N bytes stack frame, N bytes spill stores, N bytes spill loads" anywhere in the line.
bool stackFrame(StringRef line, std::int64_t (&figures)[3]) {
  static constexpr StringRef kParts[] = {" bytes stack frame, ", " bytes spill stores, ", " bytes spill loads"};
  for (std::size_t at = line.find(kParts[0]); at != StringRef::npos; at = line.find(kParts[0], at + 1)) {
    std::size_t digits = at;
    while (digits > 0 && scan::isDigit(line[digits - 1])) --digits;
    // "-1 bytes stack frame" is no figure ptxas prints: not read (so unknown), never 1.
    if (digits == at || (digits > 0 && !scan::isSpace(line[digits - 1]))) continue;
    StringRef rest = line.substr(digits);
    int matched = 0;
    for (; matched < 3; ++matched) {
      std::optional<std::int64_t> n = number(rest);
      if (!n || !rest.consume_front(kParts[matched])) break;
      figures[matched] = *n;
    }
    if (matched == 3) return true;
  }
  return false;
}

}  // namespace

FactSet parsePtxas(std::string_view text, const std::string &default_arch) {
  FactSet set{"ptxas", {}, {}};
  std::string arch = default_arch;
  std::string entry;  // the entry function ptxas announced last
  KernelFacts *current = nullptr;
  auto open = [&](const std::string &name, bool is_kernel) {
    KernelFacts k;
    k.name = name;
    k.arch = arch;
    k.vendor = Vendor::Nvidia;
    k.is_kernel = is_kernel;
    set.kernels.push_back(std::move(k));
    current = &set.kernels.back();
  };

  scan::forEachLine(text, [&](StringRef line) {
    if (compilingEntry(line, entry, arch)) return;
    const std::optional<StringRef> message = infoMessage(line);
    if (message && scan::isDigit(message->empty() ? ' ' : message->front())) {
      StringRef rest = *message;
      if (number(rest) && startsWith(rest, " bytes gmem")) {  // a new arch block (nvlink: no arch named)
        entry.clear();
        current = nullptr;
        return;
      }
    }
    if (message) {
      if (std::optional<StringRef> name = propertiesFor(*message)) {
        // ptxas announces kernels first; nvlink lists only kernels.
        open(name->str(), *name == StringRef(entry) || startsWith(line, "nvlink"));
        return;
      }
    }
    std::int64_t frame[3];
    if (current && stackFrame(line, frame)) {
      current->set(Field::StackBytes, frame[0]);
      current->set(Field::SpillStoreBytes, frame[1]);
      current->set(Field::SpillLoadBytes, frame[2]);
      // No spill bytes: no spill in a loop either (the stack frame's accesses are local arrays).
      if (frame[1] == 0 && frame[2] == 0) current->set(Field::LoopSpills, 0);
      return;
    }
    if (current && message && (startsWith(*message, "Used ") || startsWith(*message, "used "))) {
      StringRef count = message->drop_front(5);
      if (!number(count) || !startsWith(count, " registers")) return;
      readUsage(*message, *current);
      if (startsWith(line, "nvlink")) {  // nvlink reports no spill bytes; lmem is local memory
        current->set(Field::SpillStoreBytes, 0);
        current->set(Field::SpillLoadBytes, 0);
      }
    }
  });
  return set;
}

namespace {

bool isPtxNameChar(char c) { return scan::isLetter(c) || scan::isDigit(c) || c == '_' || c == '$' || c == '.'; }

// ".entry NAME (" anywhere in the line.
std::optional<StringRef> ptxEntry(StringRef line) {
  for (std::size_t at = line.find(".entry"); at != StringRef::npos; at = line.find(".entry", at + 1)) {
    StringRef rest = line.substr(at + 6);
    if (!scan::consumeSpaces(rest)) continue;
    const std::size_t end = rest.find_if_not(isPtxNameChar);
    if (end == 0) continue;
    StringRef tail = scan::ltrim(rest.substr(end == StringRef::npos ? rest.size() : end));
    if (startsWith(tail, "(")) return rest.take_front(end);
  }
  return std::nullopt;
}

// ".maxntid X[, Y[, Z]]": the block's size, X * Y * Z.
std::optional<std::int64_t> maxntid(StringRef line) {
  StringRef s = scan::ltrim(line);
  if (!s.consume_front(".maxntid") || !scan::consumeSpaces(s)) return std::nullopt;
  std::int64_t threads = 1;
  for (int dim = 0; dim < 3; ++dim) {
    if (dim > 0) {
      s = scan::ltrim(s);
      if (!s.consume_front(",")) break;
      s = scan::ltrim(s);
    }
    std::optional<std::int64_t> n = number(s);
    if (!n) return std::nullopt;
    if (__builtin_mul_overflow(threads, *n, &threads)) throw Error(".maxntid does not fit 64 bits");
  }
  return threads;
}

std::optional<std::int64_t> minnctapersm(StringRef line) {
  StringRef s = scan::ltrim(line);
  if (!s.consume_front(".minnctapersm") || !scan::consumeSpaces(s)) return std::nullopt;
  return number(s);
}

}  // namespace

FactSet parsePtxLaunchBounds(std::string_view ptx, const std::string &arch) {
  FactSet set{"ptx", {}, {}};
  KernelFacts *current = nullptr;
  bool in_header = false;  // between ".entry name(" and the body's "{"
  scan::forEachLine(ptx, [&](StringRef line) {
    if (std::optional<StringRef> name = ptxEntry(line)) {
      KernelFacts k;
      k.name = name->str();
      k.arch = arch;
      k.vendor = Vendor::Nvidia;
      set.kernels.push_back(std::move(k));
      current = &set.kernels.back();
      in_header = true;
      return;
    }
    if (!in_header || !current) return;
    if (line.contains('{')) {
      in_header = false;
      return;
    }
    if (std::optional<std::int64_t> threads = maxntid(line))
      current->set(Field::MaxThreadsPerBlock, *threads);
    else if (std::optional<std::int64_t> blocks = minnctapersm(line))
      current->set(Field::MinBlocksPerSm, *blocks);
  });
  return set;
}

}  // namespace regscope
