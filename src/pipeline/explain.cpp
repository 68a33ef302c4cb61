// explain and analyze --lines: analyzeJobs keeping the .s, then the isa stage.
#include "regscope/pipeline/explain.h"

#include <filesystem>
#include <optional>
#include <set>
#include <sstream>

#include "jobs.h"
#include "regscope/support/error.h"
#include "regscope/support/files.h"
#include "regscope/support/plural.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> splitLines(const std::string &text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The path as the user reads it: the kernel's own file as the report shows
// it, others relative to the working directory when below it.
std::string displayOf(const std::string &path, const KernelReport &kernel) {
  std::error_code ec;
  if (fs::equivalent(path, kernel.record.file, ec)) return kernel.display_file;
  fs::path rel = fs::path(path).lexically_relative(fs::current_path(ec));
  if (!ec && !rel.empty() && *rel.begin() != "..") return rel.string();
  return path;
}

}  // namespace

// The source files the function's lines name, read once each, and the file
// most of its instructions count for (jobs.h: explain_cubin.cpp reads them too).
std::vector<int> readSourceFiles(KernelIsa &kernel, const std::function<std::string(const std::string &)> &display) {
  const IsaFunction &function = *kernel.get();
  std::map<int, int> instructions;
  std::vector<int> order;
  for (const LinePressure &line : function.lines) {
    if (line.file < 0) continue;
    instructions[line.file] += line.instructions;
    if (kernel.sources.count(line.file)) continue;
    const std::string path = kernel.isa->files[line.file].path();
    SourceText &text = kernel.sources[line.file];
    text.display = display(path);
    order.push_back(line.file);
    try {
      text.lines = splitLines(readFileIfExists(path).value_or(""));
    } catch (const Error &) {
      // a directory or an unreadable header: its lines without their text
    }
  }
  int most = 0;
  for (const auto &[file, count] : instructions)
    if (count > most) most = count, kernel.main_file = file;
  return order;
}

void readSources(KernelIsa &kernel, const KernelReport &report_kernel) {
  const std::vector<int> order =
      readSourceFiles(kernel, [&](const std::string &path) { return displayOf(path, report_kernel); });
  std::error_code ec;
  for (int file : order)
    if (fs::equivalent(kernel.isa->files[file].path(), report_kernel.record.file, ec)) kernel.kernel_file = file;
}

namespace {

// The arch's .s (AMD) or cubin (NVIDIA) read once, shared by its kernels; one
// that cannot be read is a note.
struct ReadAssembly {
  std::shared_ptr<const IsaReport> isa;
  std::string error;
};

// The isa stage over one arch's kept output, through its backend (AMD: the
// .s through LLVM's MC layer; NVIDIA: the cubin through nvdisasm). A tool the
// backend looks for on the first arch is kept for the others.
ReadAssembly readArch(const ArchOutput &output, const Backend &backend, const AnalyzeOptions &options,
                      std::optional<std::string> &tool) {
  ReadAssembly read;
  try {
    read.isa = std::make_shared<const IsaReport>(
        backend.readIsa(output, IsaRequest{options.compiler, options.timeout_seconds, &tool}));
  } catch (const Error &e) {
    read.error = e.what();
  }
  return read;
}

}  // namespace

ExplainedReport explainJobs(const std::vector<SourceJob> &jobs, AnalyzeOptions options) {
  options.keep_assembly = true;  // and line tables: compileJobFor adds the vendor's flag
  KeptAssembly kept;
  ExplainedReport out;
  out.report = analyzeJobs(jobs, options, &kept);
  std::map<std::pair<std::size_t, std::string>, ReadAssembly> read;  // (job, arch)
  std::optional<std::string> tool;
  for (std::size_t k = 0; k < out.report.kernels.size(); ++k) {
    const KernelRecord &record = out.report.kernels[k].record;
    const Backend &backend = backendFor(record.vendor);
    KernelIsa kernel;
    if (std::string why = backend.noLineFigures(); !why.empty()) {
      kernel.missing = std::move(why);
      out.kernels.push_back(std::move(kernel));
      continue;
    }
    const std::size_t job = k < kept.kernel_job.size() ? kept.kernel_job[k] : 0;
    const std::vector<ArchOutput> &archs = job < kept.per_job.size() ? kept.per_job[job] : std::vector<ArchOutput>{};
    const ArchOutput *output = nullptr;
    for (const ArchOutput &a : archs)
      if (a.arch == record.arch || (!output && archs.size() == 1)) output = &a;
    auto [slot, fresh] = read.try_emplace({job, output ? output->arch : record.arch});
    if (fresh && output) slot->second = readArch(*output, backend, options, tool);
    kernel.isa = slot->second.isa;
    if (kernel.isa)
      for (std::size_t f = 0; f < kernel.isa->functions.size(); ++f)
        if (kernel.isa->functions[f].name == record.name) kernel.function = static_cast<int>(f);
    const char *what = backend.assemblyName();
    if (kernel.get()) {
      readSources(kernel, out.report.kernels[k]);
    } else {
      kernel.missing = !slot->second.error.empty()
                           ? std::string("its ") + what + " could not be read: " + slot->second.error
                       : output ? std::string("its ") + what + " has no function " + record.name
                                : std::string("the compile kept no ") + what + " for " + record.arch;
    }
    out.kernels.push_back(std::move(kernel));
  }
  return out;
}

namespace {

// Whether `path` is `from` or lies under it, component-wise ("/tmp/a" is not under "/tmp/ab").
bool underPrefix(const std::string &path, const std::string &from) {
  if (path.compare(0, from.size(), from) != 0) return false;
  return path.size() == from.size() || from.back() == '/' || path[from.size()] == '/';
}

}  // namespace

std::string SourceMap::apply(const std::string &path) const {
  const std::pair<std::string, std::string> *best = nullptr;
  for (const auto &rule : prefixes)
    if (underPrefix(path, rule.first) && (!best || rule.first.size() > best->first.size())) best = &rule;
  if (!best) return path;
  std::string rest = path.substr(best->first.size());
  if (!best->second.empty() && best->second.back() == '/' && !rest.empty() && rest.front() == '/') rest.erase(0, 1);
  if (best->second.empty() && !rest.empty() && rest.front() == '/') rest.erase(0, 1);  // FROM= : relative
  return best->second + rest;
}

SourceMap parseSourceMap(const std::vector<std::string> &values) {
  SourceMap map;
  for (const std::string &value : values) {
    const std::size_t eq = value.find('=');
    if (eq == std::string::npos || eq == 0)
      throw Error("--source-map '" + value + "': expected FROM=TO (as clang's -fdebug-prefix-map), FROM not empty");
    map.prefixes.emplace_back(value.substr(0, eq), value.substr(eq + 1));
  }
  return map;
}

std::vector<std::string> mapSources(ExplainedReport &explained, const SourceMap &map) {
  std::set<std::string> used, absent;  // FROMs that matched; line-table paths found nowhere
  for (KernelIsa &kernel : explained.kernels) {
    if (!kernel.get()) continue;
    for (auto &[file, text] : kernel.sources) {
      const std::string path = kernel.isa->files[file].path();
      const std::string mapped = map.apply(path);
      if (mapped != path) {
        for (const auto &rule : map.prefixes)
          if (underPrefix(path, rule.first)) used.insert(rule.first);
        text.display = mapped;
        text.lines.clear();
        try {
          text.lines = splitLines(readFileIfExists(mapped).value_or(""));
        } catch (const Error &) {
          // a directory or an unreadable file: its lines without their text
        }
      }
      std::error_code ec;
      if (file == kernel.main_file && text.lines.empty() && !fs::exists(mapped, ec))
        absent.insert(mapped == path ? path : mapped + " (" + path + " in the line table)");
    }
  }
  std::vector<std::string> warnings;
  for (const auto &rule : map.prefixes)
    if (!used.count(rule.first))
      warnings.push_back("--source-map " + rule.first + "=" + rule.second + " matched no path the line tables name");
  if (!absent.empty()) {
    std::string names;
    std::size_t shown = 0;
    for (const std::string &name : absent) names += (shown++ ? ", " : "") + name;
    warnings.push_back(plural(absent.size(), "source file", "source files") + " the line tables name " +
                       (absent.size() == 1 ? "is" : "are") +
                       " not on this machine, so their lines are shown without text: " + names +
                       (map.prefixes.empty() ? " (built elsewhere? --source-map FROM=TO reads them from here)" : ""));
  }
  return warnings;
}

}  // namespace regscope
