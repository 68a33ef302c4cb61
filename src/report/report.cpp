// Builds the report: each merged record through its vendor's model.
#include "regscope/report/report.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <tuple>
#include <type_traits>

#include "regscope/support/error.h"
#include "regscope/support/escape.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

// The record through its backend's model, or a warning when the arch has no table.
std::optional<ModelledKernel> model(const KernelRecord &record, const LaunchOverrides &launch, const Report &report,
                                    std::string &warning) {
  return modelRecord(record, launch, report.compiler_version, warning);
}

// A kernel of an arch with no occupancy table: one warning per arch, with how
// many kernels it holds (mixbench built for gfx803 printed the 600-character
// line 166 times), worded "ARCH: cause" so that warnings grouped by cause
// never run two archs' lines together.
void noteWithoutTable(Report &report, const KernelRecord &record, const std::string &warning) {
  const int count = ++report.kernels_without_table[record.arch];
  static const std::string kKnown = "; known: ";
  const std::size_t known_at = warning.find(kKnown);
  const std::string known = known_at == std::string::npos ? "" : warning.substr(known_at);
  auto line = [&](const std::string &first) {
    return record.arch + ": no occupancy table (" +
           (count == 1 ? "kernel " + first : std::to_string(count) + " kernels, the first " + first) +
           "): not listed, no occupancy can be modelled" + known;
  };
  auto at = report.without_table_warning.find(record.arch);
  if (at == report.without_table_warning.end()) {
    report.without_table_warning[record.arch] = report.warnings.size();
    report.warnings.push_back(line(record.demangled));
    return;
  }
  std::string &said = report.warnings[at->second];
  const std::size_t open = said.find(count == 2 ? " (kernel " : ", the first ");
  const std::size_t close = said.find("): not listed");
  if (open == std::string::npos || close == std::string::npos || close < open) return;
  const std::size_t name = open + (count == 2 ? 9 : 12);
  said = line(said.substr(name, close - name));
}

}  // namespace

void addNotesOnce(Report &report, const std::vector<std::string> &notes) {
  for (const std::string &note : notes)
    if (std::find(report.notes.begin(), report.notes.end(), note) == report.notes.end()) report.notes.push_back(note);
}

std::string optimisationText(const Optimisation &o) {
  switch (o.source) {
    case OptimisationSource::Flags:
      return o.level + ", as the flags ask" +
             (o.level == "-O0" ? ": unoptimised, the figures are not those of an optimised build" : "");
    case OptimisationSource::Regscope:
      return o.level + ", which regscope adds: the flags give no -O, and " + o.compiler +
             " alone compiles device code at -O0 (a build with these flags, which `collect` reads, is unoptimised)";
    case OptimisationSource::CompilerDefault:
      if (o.level == "-O0")
        return "-O0, " + o.compiler + "'s default for device code when the build's flags give no -O: unoptimised, " +
               "with spills and scratch an optimised build does not have (`analyze -p` adds -O3; give the build an "
               "-O, e.g. CMAKE_BUILD_TYPE=Release)";
      return o.level + ", " + o.compiler + "'s default (the flags give no -O)";
  }
  return o.level;
}

std::vector<std::string> optimisationNotes(const Report &report) {
  std::map<std::string, std::vector<std::string>> files_by_text;  // ordered: the same notes every run
  for (std::size_t i = 0; i < report.input_paths.size(); ++i)
    if (auto it = report.optimisation.find(report.input_paths[i]); it != report.optimisation.end())
      files_by_text[optimisationText(it->second)].push_back(i < report.inputs.size() ? report.inputs[i]
                                                                                     : report.input_paths[i]);
  std::vector<std::string> notes;
  const bool one = files_by_text.size() == 1 && files_by_text.begin()->second.size() == report.input_paths.size();
  for (const auto &[text, files] : files_by_text) {
    if (one) {
      notes.push_back("figures at " + text);
      continue;
    }
    std::string list;
    for (std::size_t f = 0; f < files.size() && f < 3; ++f) list += (f ? ", " : "") + files[f];
    if (files.size() > 3) list += " and " + std::to_string(files.size() - 3) + " more";
    notes.push_back("figures at " + text + ": " + list);
  }
  return notes;
}

nlohmann::json optimisationToJson(const Optimisation &o) {
  return {{"level", o.level}, {"source", optimisationSourceName(o.source)}, {"compiler", o.compiler}};
}

Optimisation optimisationFromJson(const nlohmann::json &j) {
  Optimisation o;
  o.level = j.at("level").get<std::string>();
  o.compiler = j.at("compiler").get<std::string>();
  if (!parseOptimisationSource(j.at("source").get<std::string>(), o.source))
    throw Error("unknown optimisation source '" + j.at("source").get<std::string>() + "'");
  return o;
}

void tellTwinsApart(Report &report) {
  std::map<std::tuple<std::string, std::string, std::string>, std::vector<KernelReport *>> alike;
  for (KernelReport &k : report.kernels) {
    const KernelRecord &r = k.record;
    // Where the table says the kernel is (describe's LOCATION): a Triton kernel at its Python line.
    const bool python = r.triton && !r.triton->python_file.empty();
    const std::string place = python ? r.triton->python_file + ":" + std::to_string(r.triton->python_line)
                                     : k.display_file + ":" + std::to_string(r.line);
    k.twin.clear();
    alike[{r.demangled, r.arch, place}].push_back(&k);
  }
  for (auto &group : alike) {
    // A named reference, not a structured binding: C++17 lets no lambda capture a binding (clang
    // refuses it; GCC lets it through).
    std::vector<KernelReport *> &twins = group.second;
    if (twins.size() < 2) continue;
    // The first reading that differs for every one of them: the Triton entry's cache directory (its
    // first 6 characters, more while two share them), the file's name, its path, the compile
    // database's entry; else the order.
    auto distinct = [&](const std::function<std::string(const KernelReport &)> &tag) {
      std::set<std::string> seen;
      for (const KernelReport *k : twins)
        if (tag(*k).empty() || !seen.insert(tag(*k)).second) return false;
      for (KernelReport *k : twins) k->twin = tag(*k);
      return true;
    };
    auto entry = [](const KernelReport &k) {
      return k.record.triton ? fs::path(k.record.file).parent_path().filename().string() : std::string();
    };
    bool told = false;
    for (std::size_t length = 6; !told && length <= 64; length += 2)
      told = distinct([&](const KernelReport &k) { return entry(k).empty() ? "" : "@" + entry(k).substr(0, length); });
    if (told ||
        distinct([](const KernelReport &k) { return "(" + fs::path(k.display_file).filename().string() + ")"; }) ||
        distinct([](const KernelReport &k) { return "(" + k.display_file + ")"; }) ||
        distinct([](const KernelReport &k) {
          const std::size_t hash = k.source.rfind('#');
          return hash == std::string::npos ? std::string("(entry 1)") : "(entry " + k.source.substr(hash + 1) + ")";
        }))
      continue;
    for (std::size_t i = 0; i < twins.size(); ++i) twins[i]->twin = "#" + std::to_string(i + 1);
  }
}

void addKernels(Report &report, const std::vector<KernelRecord> &records, const LaunchOverrides &launch) {
  addKernels(report, records, [&](const KernelRecord &) { return launch; });
}

namespace {

// addKernels' two forms: a const vector's records are copied into the
// report, a vector given up (&&) has each record moved in.
template <typename Records>
void addRecords(Report &report, Records &records, const LaunchFor &launch) {
  for (const KernelRecord &record : records) {
    for (const std::string &w : record.warnings)
      report.warnings.push_back(record.demangled + " [" + record.arch + "]: sources disagree on " + w);
    for (const std::string &note : record.notes)
      report.warnings.push_back(record.demangled + " [" + record.arch + "]: unresolved " + note);
  }
  const std::size_t first = report.kernels.size();
  // Room for them at once (a library's 100,000 at the size they take, not
  // the doubling's up to twice that), growing geometrically over many calls.
  if (const std::size_t needed = first + records.size(); needed > report.kernels.capacity())
    report.kernels.reserve(std::max(needed, 2 * report.kernels.capacity()));
  for (auto &record : records) {
    std::string warning;
    std::optional<ModelledKernel> modelled;
    try {
      modelled = model(record, launch(record), report, warning);
    } catch (const Error &e) {  // the kernel's figures do not fit its target: say which kernel (callers add the file)
      throw Error("kernel " + escape::terminal(record.demangled) + " [" + escape::terminal(record.arch) +
                  "]: " + e.what());
    }
    if (!modelled) {
      noteWithoutTable(report, record, warning);
      continue;
    }
    const std::string where = record.file.empty() ? std::string() : " in " + record.file;
    if (!modelled->impossible.empty())
      report.warnings.push_back("kernel " + record.demangled + " [" + record.arch + "]" + where +
                                " cannot launch: " + modelled->impossible);
    // A cubin never records spill bytes: its reader says so once for the file, not here per kernel.
    const bool only_cubin_spills =
        !record.sources.empty() &&
        std::all_of(record.sources.begin(), record.sources.end(), [](const std::string &s) { return s == "cubin"; }) &&
        std::all_of(modelled->unknown.begin(), modelled->unknown.end(),
                    [](Field f) { return f == Field::SpillStoreBytes || f == Field::SpillLoadBytes; });
    if (!modelled->unknown.empty() && !only_cubin_spills) {
      // A figure the sources gave differently was said above ("sources disagree on"); the rest no source gave.
      auto disputed = [&](Field f) {
        const std::string key = std::string(fieldKey(f)) + ":";
        return std::any_of(record.warnings.begin(), record.warnings.end(),
                           [&](const std::string &w) { return w.rfind(key, 0) == 0; });
      };
      std::string fields;
      std::size_t count = 0;
      for (Field f : modelled->unknown)
        if (!disputed(f)) fields += (count++ ? ", " : "") + std::string(fieldKey(f));
      const char *occupancy = modelled->summary.limiter == Limiter::Unknown ? ": occupancy unknown" : "";
      if (count)
        report.warnings.push_back("kernel " + record.demangled + " [" + record.arch + "]" + where + ": " + fields +
                                  " unknown (no source gave " + (count == 1 ? "it" : "them") + ")" + occupancy);
      else if (*occupancy)
        report.warnings.push_back("kernel " + record.demangled + " [" + record.arch + "]" + where + occupancy +
                                  " (its sources disagree, above)");
    }
    KernelReport k;
    static_cast<ModelledKernel &>(k) = std::move(*modelled);
    if constexpr (std::is_const_v<Records>)
      k.record = record;
    else
      k.record = std::move(record);
    report.kernels.push_back(std::move(k));
  }
  relateKernels(report.kernels, first);  // Intel: the GRF rule over a kernel's two modes
  // Each kernel's archs side by side, kernels in the order first seen.
  std::map<std::string, std::size_t> rank;
  for (std::size_t k = first; k < report.kernels.size(); ++k)
    rank.try_emplace(report.kernels[k].record.name, rank.size());
  std::stable_sort(
      report.kernels.begin() + first, report.kernels.end(),
      [&](const KernelReport &a, const KernelReport &b) { return rank[a.record.name] < rank[b.record.name]; });
}

}  // namespace

void addKernels(Report &report, const std::vector<KernelRecord> &records, const LaunchFor &launch) {
  addRecords(report, records, launch);
}

void addKernels(Report &report, std::vector<KernelRecord> &&records, const LaunchFor &launch) {
  addRecords(report, records, launch);
  records.clear();  // each was moved into its KernelReport
}

}  // namespace regscope
