// Parses ptxas -v / nvlink resource lines and PTX launch bounds.
#include <regex>
#include <string>

#include "regscope/collect/collect.h"

namespace regscope {
namespace {

// Calls `fn` on each line of `text`.
template <typename Fn>
void forEachLine(std::string_view text, Fn fn) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    fn(std::string(text.substr(pos, eol - pos)));
    pos = eol + 1;
  }
}

// The comma-separated figures after "Used N registers" (ptxas) or
// "used N registers" (nvlink), in any order and any subset.
void readUsage(const std::string &list, KernelFacts &k) {
  static const std::regex item_re(
      R"((?:[Uu]sed (\d+) registers)|(?:used (\d+) barriers)|(?:(\d+) bytes cumulative stack size)|(?:(\d+) stack\b)|(?:(\d+) bytes smem)|(?:(\d+) bytes cmem\[0\]))");
  for (std::sregex_iterator it(list.begin(), list.end(), item_re), end; it != end; ++it) {
    const std::smatch &m = *it;
    if (m[1].matched) k.set(Field::Registers, std::stoll(m[1]));
    if (m[2].matched) k.set(Field::Barriers, std::stoll(m[2]));
    if (m[3].matched) k.set(Field::StackBytes, std::stoll(m[3]));
    if (m[4].matched) k.set(Field::StackBytes, std::stoll(m[4]));
    if (m[5].matched) k.set(Field::SharedBytes, std::stoll(m[5]));
    if (m[6].matched) k.set(Field::ConstantBytes, std::stoll(m[6]));
  }
}

}  // namespace

FactSet parsePtxas(std::string_view text, const std::string &default_arch) {
  static const std::regex entry_re(R"(Compiling entry function '([^']+)' for '([^']+)')");
  static const std::regex props_re(R"((?:ptxas|nvlink) info\s*: Function properties for '?([^':\s]+)'?:?\s*$)");
  static const std::regex frame_re(
      R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  static const std::regex used_re(R"((?:ptxas|nvlink) info\s*: ([Uu]sed \d+ registers.*)$)");
  static const std::regex header_re(R"((?:ptxas|nvlink) info\s*: \d+ bytes gmem)");

  FactSet set{"ptxas", {}};
  std::string arch = default_arch;
  std::string entry;       // the entry function ptxas announced last
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

  forEachLine(text, [&](const std::string &line) {
    std::smatch m;
    if (std::regex_search(line, m, entry_re)) {
      entry = m[1];
      arch = m[2];
      return;
    }
    if (std::regex_search(line, m, header_re)) {  // a new arch block (nvlink: no arch named)
      entry.clear();
      current = nullptr;
      return;
    }
    if (std::regex_search(line, m, props_re)) {
      const std::string name = m[1];
      // ptxas announces kernels first; nvlink lists only kernels.
      const bool is_kernel = name == entry || line.rfind("nvlink", 0) == 0;
      open(name, is_kernel);
      return;
    }
    if (current && std::regex_search(line, m, frame_re)) {
      current->set(Field::StackBytes, std::stoll(m[1]));
      current->set(Field::SpillStoreBytes, std::stoll(m[2]));
      current->set(Field::SpillLoadBytes, std::stoll(m[3]));
      return;
    }
    if (current && std::regex_search(line, m, used_re)) {
      readUsage(m[1], *current);
      if (line.rfind("nvlink", 0) == 0) {  // nvlink reports no spill bytes; lmem is local memory
        current->set(Field::SpillStoreBytes, 0);
        current->set(Field::SpillLoadBytes, 0);
      }
    }
  });
  return set;
}

FactSet parsePtxLaunchBounds(std::string_view ptx, const std::string &arch) {
  static const std::regex entry_re(R"(\.entry\s+([A-Za-z0-9_$.]+)\s*\()");
  static const std::regex maxntid_re(R"(^\s*\.maxntid\s+(\d+)\s*,\s*(\d+)\s*,\s*(\d+))");
  static const std::regex minncta_re(R"(^\s*\.minnctapersm\s+(\d+))");
  FactSet set{"ptx", {}};
  KernelFacts *current = nullptr;
  bool in_header = false;  // between ".entry name(" and the body's "{"
  forEachLine(ptx, [&](const std::string &line) {
    std::smatch m;
    if (std::regex_search(line, m, entry_re)) {
      KernelFacts k;
      k.name = m[1];
      k.arch = arch;
      k.vendor = Vendor::Nvidia;
      set.kernels.push_back(std::move(k));
      current = &set.kernels.back();
      in_header = true;
      return;
    }
    if (!in_header || !current) return;
    if (line.find('{') != std::string::npos) {
      in_header = false;
      return;
    }
    if (std::regex_search(line, m, maxntid_re))
      current->set(Field::MaxThreadsPerBlock, std::stoll(m[1]) * std::stoll(m[2]) * std::stoll(m[3]));
    else if (std::regex_search(line, m, minncta_re))
      current->set(Field::MinBlocksPerSm, std::stoll(m[1]));
  });
  return set;
}

}  // namespace regscope
