// Baseline files: every kernel's figures, sorted, one stable JSON document.
#include <algorithm>
#include <charconv>
#include <climits>
#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <tuple>

#include "regscope/gate/gate.h"
#include "regscope/support/error.h"
#include "regscope/support/escape.h"
#include "regscope/support/files.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;
using nlohmann::ordered_json;

constexpr int kBaselineMajor = 1;
// 1.1 added "source"; a 1.0 reader ignores it, and 1.0 entries read as their own source.
// 1.2 added "dependencies" (source -> the headers below the root it read); older readers ignore it.
// 1.3: "spills" may be null (a count not read: a cubin records none); a 1.2 reader refuses such an
// entry ("lacks a count") rather than read it as 0.
// 1.4: "loop_spills" (spill accesses inside loops; null when not read; entries without it are
// not compared on it), and a Triton key tells entries alike but for a constexpr apart by a digest
// of their IR (" ir=..."), where 1.3 named their cache hash. A 1.3 file is read, and its Triton
// kernels that no longer match are said (gate) and replaced (baseline).
// 1.5: gfx9 occupancy counts SGPRs as the hardware allocates them (granules of 16 of 800, the
// descriptor's allocation where larger), where 1.4 used LLVM's step table. A 1.4 entry is compared
// with the kernel's level under the old rule (OccupancySummary::level_before_baseline_1_5); kept
// in a 1.5 file unrecorded, it says so ("sgpr_rule": "llvm-table").
constexpr const char *kBaselineVersion = "1.5";
constexpr int kTritonIrKeysMinor = 4;
constexpr int kSgprGranulesMinor = 5;

// Field name -> member, so reading and writing cannot drift apart.
struct IntMember {
  const char *key;
  int BaselineEntry::*member;
};
constexpr IntMember kIntMembers[] = {
    {"occupancy", &BaselineEntry::occupancy},
    {"occupancy_by_registers", &BaselineEntry::occupancy_by_registers},
    {"registers", &BaselineEntry::registers},
    {"spills", &BaselineEntry::spills},
    {"scratch_bytes", &BaselineEntry::scratch_bytes},
};

auto sortKey(const BaselineEntry &e) { return std::tie(e.source, e.file, e.name, e.arch); }

void sortBaseline(Baseline &baseline) {
  std::sort(baseline.begin(), baseline.end(),
            [](const BaselineEntry &a, const BaselineEntry &b) { return sortKey(a) < sortKey(b); });
}

}  // namespace

std::string baselineRoot(const std::string &baseline_path) {
  std::error_code ec;
  // The repository the baseline is named in, before any link is resolved: a
  // baseline that is a link to a shared file elsewhere, or that is reached
  // through a linked directory, keeps the keys of that repository. Canonical,
  // as the sources' paths are when they are keyed.
  const fs::path named = fs::absolute(baseline_path, ec).lexically_normal().parent_path();
  for (fs::path at = named; !at.empty(); at = at.parent_path()) {
    if (fs::exists(at / ".git", ec)) return fs::weakly_canonical(at, ec).string();
    if (at == at.root_path()) break;
  }
  const std::string dir = fs::weakly_canonical(fs::absolute(baseline_path, ec), ec).parent_path().string();
  return repositoryRoot(dir).value_or(dir);
}

std::string baselineKey(const std::string &path, const std::string &root) {
  if (root.empty() || path.empty()) return path;
  std::error_code ec;
  const fs::path absolute = fs::weakly_canonical(fs::absolute(path, ec), ec);
  const fs::path relative = absolute.lexically_relative(root);
  if (!relative.empty() && *relative.begin() != "..") return relative.generic_string();
  return absolute.generic_string();
}

BaselineEntry baselineEntry(const KernelReport &k, const std::string &root) {
  BaselineEntry e;
  const std::string &kernel_file = root.empty() || k.record.file.empty() ? k.display_file : k.record.file;
  e.file = baselineKey(kernel_file, root);
  e.source = k.source.empty() ? e.file : baselineKey(k.source, root);
  // A Triton kernel is itself across recompiles, not its cache directory (named
  // by a hash that every Triton upgrade changes): its key is its Python file's
  // name, function and specialisation (TritonInfo::key); the arch is the entry's.
  if (k.record.triton && !k.record.triton->key.empty()) e.file = e.source = k.record.triton->key;
  e.name = k.record.name;
  e.demangled = k.record.demangled;
  e.arch = k.record.arch;
  e.occupancy = k.summary.level;
  e.occupancy_by_registers = k.summary.level_by_registers;
  e.registers = k.summary.registers;
  e.spills = k.summary.spills;
  e.spills_known = spillsRead(k);
  e.scratch_bytes = k.summary.scratch_bytes;
  if (k.record.has(Field::LoopSpills)) e.loop_spills = static_cast<int>(k.record.value(Field::LoopSpills));
  return e;
}

std::vector<std::string> baselineDependencies(const Report &report, const std::string &source,
                                              const std::string &root) {
  std::set<std::string> keys;
  auto found = report.dependencies.find(source);
  if (found == report.dependencies.end()) return {};
  const std::string own = baselineKey(source.substr(0, source.find('#')), root);
  for (const std::string &path : found->second) {
    const std::string key = baselineKey(path, root);
    if (!key.empty() && !fs::path(key).is_absolute() && key != own) keys.insert(key);
  }
  return {keys.begin(), keys.end()};
}

std::optional<std::vector<std::string>> sourcesIncluding(const Baseline &baseline, const std::string &header,
                                                         const std::string &root) {
  const std::string key = baselineKey(header, root);
  bool any_recorded = false;
  std::set<std::string> sources;
  for (const BaselineEntry &e : baseline) {
    any_recorded |= e.dependencies_recorded;
    if (std::find(e.dependencies.begin(), e.dependencies.end(), key) != e.dependencies.end()) sources.insert(e.source);
  }
  if (!any_recorded) return std::nullopt;
  return std::vector<std::string>(sources.begin(), sources.end());
}

Baseline baselineFromReport(const Report &report, const std::string &root) {
  Baseline baseline;
  // One entry per key: a file named twice (`baseline k.hip ./k.hip`) is one translation unit.
  std::set<std::tuple<std::string, std::string, std::string>> keys;
  std::map<std::string, std::vector<std::string>> deps;  // by input path
  for (const KernelReport &k : report.kernels) {
    BaselineEntry e = baselineEntry(k, root);
    if (!keys.emplace(e.source, e.name, e.arch).second) continue;
    baseline.push_back(std::move(e));
    if (k.source.empty() || !report.dependencies.count(k.source)) continue;
    if (!deps.count(k.source)) deps[k.source] = baselineDependencies(report, k.source, root);
    baseline.back().dependencies_recorded = true;
    baseline.back().dependencies = deps[k.source];
  }
  sortBaseline(baseline);
  return baseline;
}

Baseline updatedBaseline(const Baseline &old, const Report &report, const std::string &root) {
  Baseline now = baselineFromReport(judgedReport(report), root);
  std::set<std::string> analysed;
  for (const BaselineEntry &e : now) analysed.insert(e.source);
  for (const std::string &path : report.input_paths) analysed.insert(baselineKey(path, root));
  std::set<std::tuple<std::string, std::string, std::string>> written, unjudged;
  for (const BaselineEntry &e : now) written.emplace(e.source, e.name, e.arch);
  for (const KernelReport &k : report.kernels)
    if (!cannotJudge(k).empty() || cannotLaunch(k)) {
      const BaselineEntry e = baselineEntry(k, root);
      unjudged.emplace(e.source, e.name, e.arch);
    }
  // Triton kernels recorded now replace an older regscope's entries of the
  // same kernel and arch, whose keys (source) no longer match any.
  std::set<std::pair<std::string, std::string>> triton_written;
  for (const KernelReport &k : report.kernels)
    if (k.record.triton) triton_written.emplace(k.record.name, k.record.arch);
  for (const BaselineEntry &e : old) {
    if (e.triton_key_before_1_4 && triton_written.count({e.name, e.arch})) continue;
    const auto key = std::make_tuple(e.source, e.name, e.arch);
    if (!analysed.count(e.source) || (unjudged.count(key) && !written.count(key))) now.push_back(e);
  }
  sortBaseline(now);
  return now;
}

std::string baselineToText(const Baseline &baseline) {
  ordered_json kernels = ordered_json::array();
  ordered_json dependencies = ordered_json::object();  // once per source, not per kernel
  for (const BaselineEntry &e : baseline) {
    if (e.dependencies_recorded) dependencies[e.source] = e.dependencies;
    ordered_json k = {{"file", e.file}};
    if (e.source != e.file) k["source"] = e.source;
    k["name"] = e.name;
    k["demangled"] = e.demangled;
    k["arch"] = e.arch;
    for (const IntMember &m : kIntMembers) k[m.key] = e.*m.member;
    if (!e.spills_known) k["spills"] = nullptr;
    k["loop_spills"] = e.loop_spills ? ordered_json(*e.loop_spills) : ordered_json(nullptr);
    if (e.sgprs_by_table) k["sgpr_rule"] = "llvm-table";
    kernels.push_back(std::move(k));
  }
  ordered_json doc = {{"regscope_baseline", kBaselineVersion}, {"kernels", kernels}};
  if (!dependencies.empty()) doc["dependencies"] = std::move(dependencies);
  // Kernel names are bytes from the user's files: invalid UTF-8 becomes U+FFFD, not an exception.
  return doc.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

Baseline baselineFromText(const std::string &text, const std::string &path) {
  ordered_json doc;
  try {
    doc = ordered_json::parse(text);
  } catch (const ordered_json::exception &) {  // parse_error, and out_of_range for a number like 1e999
    throw Error(path + ": not a regscope baseline (invalid JSON)");
  }
  if (!doc.is_object() || !doc.contains("regscope_baseline") || !doc["regscope_baseline"].is_string())
    throw Error(path + ": not a regscope baseline (no 'regscope_baseline' version)");
  const std::string version = doc["regscope_baseline"];
  int major = -1;  // the digits before the first '.'; none or too many: not ours
  std::from_chars(version.data(), version.data() + version.size(), major);
  int minor = -1;
  if (const std::size_t dot = version.find('.'); dot != std::string::npos)
    std::from_chars(version.data() + dot + 1, version.data() + version.size(), minor);
  if (major != kBaselineMajor)
    throw Error(path + ": baseline version " + escape::terminal(version) +
                " is not supported (this regscope reads 1.x)");
  if (!doc.contains("kernels") || !doc["kernels"].is_array()) throw Error(path + ": baseline has no 'kernels' array");
  std::map<std::string, std::vector<std::string>> dependencies;
  if (doc.contains("dependencies")) {
    const ordered_json &deps = doc["dependencies"];
    if (!deps.is_object()) throw Error(path + ": baseline 'dependencies' is not an object");
    for (const auto &[source, files] : deps.items()) {
      if (!files.is_array())
        throw Error(path + ": baseline dependencies of " + escape::terminal(source) + " are not a list");
      std::vector<std::string> &list = dependencies[source];
      for (const ordered_json &f : files) {
        if (!f.is_string())
          throw Error(path + ": baseline dependencies of " + escape::terminal(source) + " hold a non-string");
        list.push_back(f.get<std::string>());
      }
    }
  }
  Baseline baseline;
  // One entry per (source, kernel, arch): with two, whichever is read last would
  // be compared with, and the other's regression would pass unseen.
  std::map<std::tuple<std::string, std::string, std::string>, std::size_t> seen;
  for (const ordered_json &k : doc["kernels"]) {
    if (!k.is_object()) throw Error(path + ": a kernel entry is not an object");
    auto text_of = [&](const char *key) {
      if (!k.contains(key) || !k[key].is_string()) throw Error(path + ": kernel entry lacks a string '" + key + "'");
      return k[key].get<std::string>();
    };
    BaselineEntry e;
    e.file = text_of("file");
    e.source = k.contains("source") ? text_of("source") : e.file;
    e.name = text_of("name");
    e.demangled = k.contains("demangled") ? text_of("demangled") : e.name;
    e.arch = text_of("arch");
    for (const IntMember &m : kIntMembers) {
      if (m.member == &BaselineEntry::spills && k.contains(m.key) && k[m.key].is_null()) {
        e.spills_known = false;  // recorded as not read: compared as unknown
        continue;
      }
      // A figure outside 0..INT_MAX is no count regscope wrote.
      const bool in_range =
          k.contains(m.key) &&
          (k[m.key].is_number_unsigned() ? k[m.key].get<std::uint64_t>() <= INT_MAX
                                         : k[m.key].is_number_integer() && k[m.key].get<std::int64_t>() >= 0 &&
                                               k[m.key].get<std::int64_t>() <= INT_MAX);
      if (!in_range)
        throw Error(path + ": kernel " + escape::terminal(e.name) + " lacks a count (0.." + std::to_string(INT_MAX) +
                    ") '" + m.key + "'");
      e.*m.member = static_cast<int>(k[m.key].get<std::int64_t>());
    }
    if (k.contains("loop_spills") && !k["loop_spills"].is_null()) {
      const ordered_json &v = k["loop_spills"];
      if (!v.is_number_integer() || v.get<std::int64_t>() < 0 || v.get<std::int64_t>() > INT_MAX)
        throw Error(path + ": kernel " + escape::terminal(e.name) + " has a 'loop_spills' that is no count (0.." +
                    std::to_string(INT_MAX) + ")");
      e.loop_spills = static_cast<int>(v.get<std::int64_t>());
    }
    if (!seen.emplace(std::make_tuple(e.source, e.name, e.arch), baseline.size()).second)
      throw Error(path + ": two entries for kernel " + escape::terminal(e.name) + " (" + escape::terminal(e.arch) +
                  ") of " + escape::terminal(e.source) +
                  "; keep one of them, or delete the file and record it again with regscope baseline");
    e.triton_key_before_1_4 = minor < kTritonIrKeysMinor && e.source.rfind("triton:", 0) == 0;
    e.sgprs_by_table = minor < kSgprGranulesMinor || (k.contains("sgpr_rule") && k["sgpr_rule"] == "llvm-table");
    if (auto found = dependencies.find(e.source); found != dependencies.end()) {
      e.dependencies_recorded = true;
      e.dependencies = found->second;
    }
    baseline.push_back(std::move(e));
  }
  return baseline;
}

Baseline updateBaselineFile(const std::string &path, const std::function<Baseline(const Baseline &)> &update) {
  // The lock is held from the read to the rename: a concurrent update waits
  // and then reads this one's entries, so none is lost.
  const FileLock lock(path);
  std::error_code ec;
  Baseline old;
  if (fs::exists(path, ec)) {  // a link to a file not made yet is a new baseline
    if (!fs::is_regular_file(path, ec)) throw Error(path + ": not a regular file, so not a baseline");
    old = baselineFromText(readFile(path), path);
  }
  Baseline updated = update(old);
  writeFileAtomically(path, baselineToText(updated));
  return updated;
}

}  // namespace regscope
