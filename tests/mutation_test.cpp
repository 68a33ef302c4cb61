// Issue 21, item 13: every committed compiler output in fixtures/ with each
// line (or metadata key) that carries a figure removed or corrupted, one at a
// time, run through the parsers and the model in-process. Each kernel's
// result must be the original figure, unknown, invalid ("cannot launch"), or
// the whole input an error (exit 2): never a different figure with a
// success. A kernel may only vanish when the report says why.
//
// Mutations of a text line: delete it, zero each of its numbers, negate it,
// add 2^32, make it non-numeric, duplicate the line. In a binary (a code
// object's msgpack metadata, a zebin's .ze_info) the bytes keep their length:
// a key is renamed (deleted), a value zeroed, negated or made a string.
//
// Replacing a figure by another plausible one (0 for 68) where the file says
// it only once cannot be told from the compiler's own output; a "zero" mutant
// that changes a figure is counted and printed, not asserted. Where the file
// says a figure twice (a .s: comment, metadata and descriptor) the two
// readings disagree and the figure is unknown, which passes as such.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "regscope/backends/intel/collect.h"
#include "regscope/backends/nvidia/collect.h"
#include "regscope/collect/collect.h"
#include "regscope/pipeline/analyze.h"
#include "regscope/report/report.h"
#include "regscope/support/error.h"
#include "test_util.h"

namespace regscope {
namespace {

enum class Kind { Delete, Zero, Negate, Wrap, NonNumeric, Duplicate };
const char *kindName(Kind k) {
  switch (k) {
    case Kind::Delete:
      return "delete";
    case Kind::Zero:
      return "zero";
    case Kind::Negate:
      return "negate";
    case Kind::Wrap:
      return "2^32+x";
    case Kind::NonNumeric:
      return "non-numeric";
    case Kind::Duplicate:
      return "duplicate";
  }
  return "?";
}

struct Mutant {
  Kind kind;
  std::string text;
  std::string what;  // for the failure message
};

struct KernelOutcome {
  std::array<std::optional<std::int64_t>, kFieldCount> figures;  // known figures only
  std::optional<int> level;                                      // none: unknown, invalid or unresolved
  bool invalid = false;
};

struct Outcome {
  bool error = false;
  std::string message;
  std::map<std::string, KernelOutcome> kernels;  // "name [arch]"
  std::vector<std::string> warnings;
};

Outcome outcomeOf(const Report &report) {
  Outcome out;
  out.warnings = report.warnings;
  for (const KernelReport &k : report.kernels) {
    KernelOutcome o;
    for (const FieldInfo &info : fieldTable())
      if (k.record.has(info.field) && std::find(k.unknown.begin(), k.unknown.end(), info.field) == k.unknown.end())
        o.figures[static_cast<std::size_t>(info.field)] = k.record.value(info.field);
    o.invalid = !k.impossible.empty() || k.summary.limiter == Limiter::Invalid;
    const Limiter l = k.summary.limiter;
    if (l != Limiter::Unknown && l != Limiter::Invalid && l != Limiter::Unresolved) o.level = k.summary.level;
    out.kernels[k.record.name + " [" + k.record.arch + "]"] = o;
  }
  return out;
}

using Runner = std::function<Report(const std::string &bytes)>;

Outcome run(const Runner &runner, const std::string &bytes) {
  try {
    return outcomeOf(runner(bytes));
  } catch (const Error &e) {
    Outcome out;
    out.error = true;
    out.message = e.what();
    return out;
  }
}

Runner amdParse(const std::string &name, const std::string &arch) {
  return [name, arch](const std::string &bytes) {
    Artifact a = collectArtifact(bytes, name, arch);
    Report report;
    addKernels(report, a.records);
    report.warnings.insert(report.warnings.end(), a.warnings.begin(), a.warnings.end());
    return report;
  };
}

Runner ptxas(const std::string &arch) {
  return [arch](const std::string &bytes) {
    Report report;
    addKernels(report, mergeFacts({parsePtxas(bytes, arch)}));
    return report;
  };
}

Runner zeInfo(const std::string &arch) {
  return [arch](const std::string &bytes) {
    Report report;
    addKernels(report, mergeFacts({FactSet{".ze_info", parseZeInfo(bytes, arch), {}}}));
    return report;
  };
}

Runner zebin(const std::string &arch) {
  return [arch](const std::string &bytes) {
    Report report;
    addKernels(report, mergeFacts({FactSet{"zebin", parseZebin(bytes, arch), {}}}));
    return report;
  };
}

// ---- text mutants ----

std::vector<std::string> splitLines(const std::string &text) {
  std::vector<std::string> lines;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return lines;
}

std::string join(const std::vector<std::string> &lines) {
  std::string text;
  for (const std::string &l : lines) text += l + '\n';
  return text;
}

bool isWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '['; }

// The numbers of `line` from `from` on that stand alone (not in a name,
// "sm_80", "cmem[0]" or "file:4:0").
std::vector<std::pair<std::size_t, std::size_t>> numbers(const std::string &line, std::size_t from) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t i = from; i < line.size();) {
    if (!std::isdigit(static_cast<unsigned char>(line[i]))) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < line.size() && std::isdigit(static_cast<unsigned char>(line[end]))) ++end;
    const bool before = i > 0 && (isWordChar(line[i - 1]) || line[i - 1] == ':' || line[i - 1] == '-');
    const bool after = end < line.size() && (isWordChar(line[end]) || line[end] == ':' || line[end] == ']');
    if (!before && !after && end - i <= 12) out.push_back({i, end});
    i = end;
  }
  return out;
}

// A predicate: where the figure part of a line starts, or npos when the line carries none.
using FigureLine = std::function<std::size_t(const std::string &line)>;

std::vector<Mutant> textMutants(const std::string &text, const FigureLine &figure_at) {
  std::vector<Mutant> mutants;
  const std::vector<std::string> lines = splitLines(text);
  for (std::size_t n = 0; n < lines.size(); ++n) {
    const std::size_t from = figure_at(lines[n]);
    if (from == std::string::npos) continue;
    const std::string where = "line " + std::to_string(n + 1) + " '" + lines[n].substr(0, 100) + "'";
    std::vector<std::string> copy = lines;
    copy.erase(copy.begin() + static_cast<long>(n));
    mutants.push_back({Kind::Delete, join(copy), where});
    copy = lines;
    copy.insert(copy.begin() + static_cast<long>(n), lines[n]);
    mutants.push_back({Kind::Duplicate, join(copy), where});
    for (auto [b, e] : numbers(lines[n], from)) {
      const std::string digits = lines[n].substr(b, e - b);
      const long long v = std::stoll(digits);
      auto with = [&](Kind kind, const std::string &replacement) {
        copy = lines;
        copy[n] = lines[n].substr(0, b) + replacement + lines[n].substr(e);
        mutants.push_back({kind, join(copy), where + " number " + digits + " -> " + replacement});
      };
      if (v != 0) with(Kind::Zero, "0");
      with(Kind::Negate, "-" + (v == 0 ? std::string("1") : digits));
      with(Kind::Wrap, std::to_string((1LL << 32) + v));
      with(Kind::NonNumeric, "x" + digits);
    }
  }
  return mutants;
}

std::string trimmed(const std::string &line) {
  std::size_t b = line.find_first_not_of(" \t");
  return b == std::string::npos ? "" : line.substr(b);
}

bool startsWithKey(const std::string &t, const std::set<std::string> &keys, std::size_t &end) {
  for (const std::string &k : keys)
    if (t.rfind(k, 0) == 0 && t.size() > k.size() &&
        (t[k.size()] == ':' || t[k.size()] == ' ' || t[k.size()] == '\t' || t[k.size()] == '=' || t[k.size()] == ',')) {
      end = k.size();
      return true;
    }
  return false;
}

// The code-object metadata's figure keys (in a .s and in a code object's note).
const std::vector<std::string> kMetadataKeys = {".sgpr_count",
                                                ".vgpr_count",
                                                ".agpr_count",
                                                ".sgpr_spill_count",
                                                ".vgpr_spill_count",
                                                ".private_segment_fixed_size",
                                                ".group_segment_fixed_size",
                                                ".max_flat_workgroup_size",
                                                ".wavefront_size",
                                                ".uses_dynamic_stack"};

// .s: the "; Kernel info" comments, the descriptor, the metadata, LLVM 20's .set.
std::size_t asmFigure(const std::string &line) {
  static const std::set<std::string> comments = {
      "NumSgprs", "NumVgprs", "NumAgprs", "ScratchSize", "LDSByteSize", "NumVGPRsForWavesPerEU", "Occupancy"};
  static const std::set<std::string> keys = [] {
    std::set<std::string> k = {".amdhsa_group_segment_fixed_size", ".amdhsa_private_segment_fixed_size",
                               ".amdhsa_uses_dynamic_stack",       ".amdhsa_wavefront_size32",
                               ".amdhsa_workgroup_processor_mode", ".set"};
    k.insert(kMetadataKeys.begin(), kMetadataKeys.end());
    return k;
  }();
  std::string t = trimmed(line);
  const std::size_t lead = line.size() - t.size();
  std::size_t end = 0;
  if (t.rfind("; ", 0) == 0) {
    const std::string rest = t.substr(2);
    if (startsWithKey(rest, comments, end)) return lead + 2 + end;
    return std::string::npos;
  }
  std::size_t dash = 0;
  if (t.rfind("- ", 0) == 0) dash = 2, t = t.substr(2);
  if (startsWithKey(t, keys, end)) return lead + dash + end;
  return std::string::npos;
}

// Remark text (clang's "remark: F:L:C: ..." lines, lld's "F:L:C: ..."): the value after the label.
std::size_t remarkFigure(const std::string &line) {
  static const std::vector<std::string> labels = {"Function Name: ",
                                                  "SGPRs: ",
                                                  "VGPRs: ",
                                                  "AGPRs: ",
                                                  "ScratchSize [bytes/lane]: ",
                                                  "Dynamic Stack: ",
                                                  "Occupancy [waves/SIMD]: ",
                                                  "SGPRs Spill: ",
                                                  "VGPRs Spill: ",
                                                  "LDS Size [bytes/block]: "};
  for (const std::string &l : labels) {
    const std::size_t at = line.find(l);
    if (at != std::string::npos) return at + l.size();
  }
  return std::string::npos;
}

// .opt.yaml: "  - NumVGPR: '70'" and the FunctionName argument.
std::size_t yamlFigure(const std::string &line) {
  static const std::set<std::string> keys = {"NumSGPR",   "NumVGPR",   "NumAGPR",   "ScratchSize", "DynamicStack",
                                             "Occupancy", "SGPRSpill", "VGPRSpill", "BytesLDS",    "FunctionName"};
  std::string t = trimmed(line);
  if (t.rfind("- ", 0) != 0) return std::string::npos;
  std::size_t end = 0;
  if (startsWithKey(t.substr(2), keys, end)) return line.size() - t.size() + 2 + end;
  return std::string::npos;
}

// ptxas -v: the register line, the frame line, smem/stack.
std::size_t ptxasFigure(const std::string &line) {
  if (line.find("Used ") != std::string::npos || line.find("bytes stack frame") != std::string::npos ||
      line.find("bytes smem") != std::string::npos)
    return 0;
  return std::string::npos;
}

std::size_t zeInfoFigure(const std::string &line) {
  static const std::set<std::string> keys = {"grf_count",     "simd_size",       "slm_size",
                                             "barrier_count", "has_stack_calls", "private_size",
                                             "spill_size",    "eu_thread_count", "required_work_group_size"};
  const std::string t = trimmed(line);
  std::size_t end = 0;
  if (startsWithKey(t, keys, end)) return line.size() - t.size() + end;
  return std::string::npos;
}

// ---- binary mutants, the length kept ----

// Each msgpack key (fixstr) in `bytes` from `keys`, with its value: renamed,
// zeroed, negated, made a string.
std::vector<Mutant> msgpackMutants(const std::string &bytes, const std::vector<std::string> &keys) {
  std::vector<Mutant> mutants;
  for (const std::string &key : keys) {
    const std::string needle = std::string(1, static_cast<char>(0xa0 | key.size())) + key;
    for (std::size_t at = bytes.find(needle); at != std::string::npos; at = bytes.find(needle, at + 1)) {
      const std::size_t value = at + needle.size();
      if (value >= bytes.size()) break;
      const std::string where = key + " at byte " + std::to_string(at);
      std::string m = bytes;
      m[at + needle.size() - 1] = 'X';  // an unknown key: the figure is gone
      mutants.push_back({Kind::Delete, m, where});
      const auto tag = static_cast<unsigned char>(bytes[value]);
      std::size_t width = 0;  // bytes after the tag
      if (tag <= 0x7f)
        width = 0;
      else if (tag == 0xcc || tag == 0xd0)
        width = 1;
      else if (tag == 0xcd || tag == 0xd1)
        width = 2;
      else if (tag == 0xce || tag == 0xd2)
        width = 4;
      else
        continue;  // not an integer (a string, a list)
      const std::size_t digits = 0;
      (void)digits;
      m = bytes;
      if (tag <= 0x7f) {
        if (tag != 0) {
          m[value] = 0;
          mutants.push_back({Kind::Zero, m, where});
        }
        m = bytes;
        m[value] = static_cast<char>(0xff);  // -1
        mutants.push_back({Kind::Negate, m, where});
        m = bytes;
        m[value] = static_cast<char>(0xc0);  // nil
        mutants.push_back({Kind::NonNumeric, m, where});
      } else {
        for (std::size_t i = 1; i <= width; ++i) m[value + i] = 0;
        mutants.push_back({Kind::Zero, m, where});
        m = bytes;
        m[value] = static_cast<char>(width == 1 ? 0xd0 : width == 2 ? 0xd1 : 0xd2);  // signed: -1
        for (std::size_t i = 1; i <= width; ++i) m[value + i] = static_cast<char>(0xff);
        mutants.push_back({Kind::Negate, m, where});
        m = bytes;
        m[value] = static_cast<char>(0xa0 | width);  // a string of the same bytes
        for (std::size_t i = 1; i <= width; ++i) m[value + i] = 'x';
        mutants.push_back({Kind::NonNumeric, m, where});
      }
    }
  }
  return mutants;
}

// The zebin's .ze_info is YAML text in the ELF: lines are blanked or edited in place.
std::vector<Mutant> zebinMutants(const std::string &bytes) {
  std::vector<Mutant> mutants;
  static const std::vector<std::string> keys = {
      "grf_count:", "simd_size:", "slm_size:", "barrier_count:", "private_size:", "spill_size:", "has_stack_calls:"};
  for (const std::string &key : keys)
    for (std::size_t at = bytes.find(key); at != std::string::npos; at = bytes.find(key, at + 1)) {
      const std::size_t eol = bytes.find('\n', at);
      if (eol == std::string::npos) break;
      const std::string where = key + " at byte " + std::to_string(at);
      std::string m = bytes;
      for (std::size_t i = at; i < eol; ++i) m[i] = ' ';
      m[at] = '#';
      mutants.push_back({Kind::Delete, m, where});
      std::size_t v = at + key.size();
      while (v < eol && bytes[v] == ' ') ++v;
      if (v >= eol || !std::isdigit(static_cast<unsigned char>(bytes[v]))) continue;
      std::size_t end = v;
      while (end < eol && std::isdigit(static_cast<unsigned char>(bytes[end]))) ++end;
      auto with = [&](Kind kind, const std::string &value) {
        if (value.size() > end - v) return;
        m = bytes;
        for (std::size_t i = v; i < end; ++i) m[i] = ' ';
        m.replace(v, value.size(), value);
        mutants.push_back({kind, m, where + " -> " + value});
      };
      if (bytes.substr(v, end - v) != "0") with(Kind::Zero, "0");
      with(Kind::Negate, "-1");
      with(Kind::NonNumeric, "x");
    }
  return mutants;
}

// ---- the check ----

struct Tally {
  int mutants = 0, errors = 0, unchanged = 0, unknown = 0, undetectable = 0;
  std::vector<std::string> violations;
};

// A code object says its VGPR allocation twice: what the code uses (.vgpr_count)
// and the kernel descriptor's granulated count (COMPUTE_PGM_RSRC1). Unpadded,
// regscope reports the former; with it gone, the descriptor's, which is the
// same allocation in the hardware's granules (AMDGPUUsage.rst: 8 VGPRs on
// gfx90a, 4 on gfx908): the same figure, not another one.
bool sameAllocation(const std::string &key, Field f, const KernelOutcome &o, const KernelOutcome &k) {
  if (f != Field::VgprsTotal || k.figures[static_cast<std::size_t>(Field::VgprsUsed)]) return false;
  const long granule = key.find("[gfx90a]") != std::string::npos   ? 8
                       : key.find("[gfx908]") != std::string::npos ? 4
                                                                   : 0;
  const long original = *o.figures[static_cast<std::size_t>(f)];
  return granule &&
         *k.figures[static_cast<std::size_t>(f)] == (std::max(original, 1L) + granule - 1) / granule * granule;
}

// What a mutant did to the original's kernels: every figure the same or
// unknown, or the kernel invalid; a vanished kernel only with a warning.
void judge(const std::string &file, const Outcome &original, const Mutant &m, const Outcome &mutant, Tally &t) {
  ++t.mutants;
  if (mutant.error) {
    ++t.errors;
    return;
  }
  std::vector<std::string> wrong;
  bool any_unknown = false;
  for (const auto &[key, o] : original.kernels) {
    auto it = mutant.kernels.find(key);
    if (it == mutant.kernels.end()) {
      if (mutant.warnings.empty())
        wrong.push_back(key + " vanished without a word");
      else
        any_unknown = true;
      continue;
    }
    const KernelOutcome &k = it->second;
    if (k.invalid && !o.invalid) {
      any_unknown = true;
      continue;
    }
    for (std::size_t i = 0; i < kFieldCount; ++i) {
      if (!o.figures[i]) continue;
      if (!k.figures[i]) {
        any_unknown = true;
        continue;
      }
      if (*k.figures[i] != *o.figures[i] && !sameAllocation(key, static_cast<Field>(i), o, k))
        wrong.push_back(key + " " + fieldKey(static_cast<Field>(i)) + " " + std::to_string(*o.figures[i]) + " -> " +
                        std::to_string(*k.figures[i]));
    }
    if (o.level && !k.level) any_unknown = true;
    if (o.level && k.level && *o.level != *k.level)
      wrong.push_back(key + " occupancy " + std::to_string(*o.level) + " -> " + std::to_string(*k.level));
  }
  if (wrong.empty()) {
    (any_unknown ? t.unknown : t.unchanged)++;
    return;
  }
  if (m.kind == Kind::Zero) {  // a plausible figure for another: see the file comment
    ++t.undetectable;
    return;
  }
  std::string line = file + ": " + kindName(m.kind) + " " + m.what + ": ";
  for (const std::string &w : wrong) line += w + "; ";
  t.violations.push_back(line);
}

struct Case {
  std::string file;  // under fixtures/
  Runner runner;
  std::function<std::vector<Mutant>(const std::string &)> mutants;
};

std::vector<Case> cases() {
  auto text = [](FigureLine f) { return [f](const std::string &t) { return textMutants(t, f); }; };
  auto amd = [&](const std::string &file, const std::string &arch, FigureLine f) {
    return Case{file, amdParse(file, arch), text(f)};
  };
  auto object = [&](const std::string &file) {
    return Case{file, amdParse(file, ""), [](const std::string &b) { return msgpackMutants(b, kMetadataKeys); }};
  };
  return {
      amd("hipcc-5.2.3/probe-gfx90a.s", "", asmFigure),
      amd("hipcc-5.2.3/probe-gfx908.s", "", asmFigure),
      amd("hipcc-5.2.3/lbm-gfx90a.s", "", asmFigure),
      amd("hipcc-5.2.3/lbm-gfx908.s", "", asmFigure),
      amd("clang-19/probe-gfx90a.s", "", asmFigure),
      amd("clang-19/lbm-gfx90a.s", "", asmFigure),
      amd("llvm20/k.s", "", asmFigure),
      amd("hipcc-5.2.3/probe.remarks.txt", "gfx90a", remarkFigure),
      amd("hipcc-5.2.3/probe.remarks-nosavetemps.txt", "gfx90a", remarkFigure),
      amd("hipcc-5.2.3/lbm.remarks.txt", "gfx90a", remarkFigure),
      amd("hipcc-5.2.3/lbm.remarks-nosavetemps.txt", "gfx90a", remarkFigure),
      amd("clang-19/probe.remarks.txt", "gfx90a", remarkFigure),
      amd("clang-19/lbm.remarks.txt", "gfx90a", remarkFigure),
      amd("llvm20/k.remarks.txt", "gfx90a", remarkFigure),
      amd("lld-rdc/link.log", "gfx90a", remarkFigure),
      amd("hipcc-5.2.3/probe-gfx90a.opt.yaml", "gfx90a", yamlFigure),
      amd("hipcc-5.2.3/probe-gfx908.opt.yaml", "gfx908", yamlFigure),
      amd("hipcc-5.2.3/lbm-gfx90a.opt.yaml", "gfx90a", yamlFigure),
      object("hipcc-5.2.3/probe-gfx90a.hsaco"),
      object("hipcc-5.2.3/probe-host.o"),
      Case{"nvcc-13.0/cuda_probe.ptxas.txt", ptxas("sm_90"), text(ptxasFigure)},
      Case{"nvcc-13.0/cuda_probe.rdc-dlink-sm_80.txt", ptxas("sm_80"), text(ptxasFigure)},
      Case{"ptxas-11.8/kernels.ptxas.txt", ptxas("sm_80"), text(ptxasFigure)},
      Case{"ocloc-22.43/probe.pvc.small.ze_info.yaml", zeInfo("pvc"), text(zeInfoFigure)},
      Case{"ocloc-22.43/probe.pvc.large.ze_info.yaml", zeInfo("pvc"), text(zeInfoFigure)},
      Case{"ocloc-22.43/probe.dg2-g10.small.ze_info.yaml", zeInfo("dg2-g10"), text(zeInfoFigure)},
      Case{"ocloc-22.43/globals.pvc.small.ze_info.yaml", zeInfo("pvc"), text(zeInfoFigure)},
      Case{"ocloc-newer/newer.ze_info.yaml", zeInfo("pvc"), text(zeInfoFigure)},
      Case{"ocloc-22.43/probe.pvc.small.zebin", zebin("pvc"), zebinMutants},
  };
}

// A log of two archs (--offload-arch=A,B) that parse refuses as a whole: its
// first arch's blocks, up to the first kernel's second "Function Name".
std::string firstArchOf(const std::string &log) {
  const std::string label = "Function Name: ";
  const std::size_t first = log.find(label);
  if (first == std::string::npos) return log;
  const std::size_t end = log.find(' ', first + label.size());
  const std::string name_line = log.substr(first, end - first);
  const std::size_t again = log.find(name_line, first + 1);
  if (again == std::string::npos) return log;
  return log.substr(0, log.rfind('\n', again) + 1);
}

TEST(Mutation, EveryFigureOfEveryFixtureIsOriginalUnknownOrAnError) {
  Tally all;
  std::map<std::string, int> per_kind;
  for (const Case &c : cases()) {
    std::string bytes = test::fixture(c.file);
    Outcome original = run(c.runner, bytes);
    if (original.error && original.message.find("more than one arch") != std::string::npos) {
      bytes = firstArchOf(bytes);
      original = run(c.runner, bytes);
    }
    ASSERT_FALSE(original.error) << c.file << ": " << original.message;
    ASSERT_FALSE(original.kernels.empty()) << c.file;
    const std::vector<Mutant> mutants = c.mutants(bytes);
    EXPECT_FALSE(mutants.empty()) << c.file << ": no line carries a figure?";
    Tally t;
    for (const Mutant &m : mutants) {
      ++per_kind[kindName(m.kind)];
      judge(c.file, original, m, run(c.runner, m.text), t);
    }
    std::cout << c.file << ": " << t.mutants << " mutants: " << t.errors << " errors, " << t.unknown
              << " unknown or invalid, " << t.unchanged << " unchanged, " << t.undetectable
              << " zeroed single-source figures\n";
    all.mutants += t.mutants;
    all.errors += t.errors;
    all.unknown += t.unknown;
    all.unchanged += t.unchanged;
    all.undetectable += t.undetectable;
    all.violations.insert(all.violations.end(), t.violations.begin(), t.violations.end());
  }
  std::cout << "all: " << all.mutants << " mutants: " << all.errors << " errors, " << all.unknown
            << " unknown or invalid, " << all.unchanged << " unchanged, " << all.undetectable
            << " zeroed single-source figures, " << all.violations.size() << " wrong figures\n";
  for (const auto &[kind, n] : per_kind) std::cout << "  " << kind << ": " << n << "\n";
  EXPECT_GT(all.mutants, 1000);
  constexpr std::size_t kShown = 40;
  std::string shown;
  for (std::size_t i = 0; i < all.violations.size() && i < kShown; ++i) shown += all.violations[i] + "\n";
  EXPECT_TRUE(all.violations.empty()) << all.violations.size() << " mutants gave a different figure:\n" << shown;
}

}  // namespace
}  // namespace regscope
