// regscope wrap's sidecars and collect (include/regscope/pipeline/sidecar.h).
#include "regscope/pipeline/sidecar.h"
#include "regscope/cache/cache.h"
#include "regscope/pipeline/launch_cache.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "jobs.h"
#include "regscope/cache/cache.h"
#include "regscope/collect/collect.h"
#include "regscope/source/flags.h"
#include "regscope/source/launch_sites.h"
#include "regscope/support/error.h"
#include "regscope/support/files.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct Stamp {
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
  bool exists = false;
};

Stamp stampOf(const std::string &path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return {};
  return {static_cast<std::uint64_t>(st.st_size),
          static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec, true};
}

std::optional<std::string> readSource(const std::string &path) {
  try {
    return readFileIfExists(path);
  } catch (const Error &) {
    return std::nullopt;  // a directory or an unreadable file: no declaration line
  }
}

std::string absoluteIn(const std::string &path, const std::string &cwd) {
  return (fs::path(path).is_absolute() ? fs::path(path) : fs::path(cwd) / path).lexically_normal().string();
}

}  // namespace

std::string sidecarPath(const std::string &object) { return object + std::string(kSidecarSuffix); }

std::string sidecarToText(const Sidecar &s) {
  json records = json::array();
  for (const KernelRecord &r : s.records) records.push_back(recordToJson(r));
  json sites = json::object();
  for (const auto &[kernel, size] : s.launch_sites) sites[kernel] = size;
  json shared = json::object();
  for (const auto &[kernel, at] : s.launch_shared)
    shared[kernel] = {{"bytes", at.bytes}, {"from_attribute", at.from_attribute}};
  const json unread = {{"block", s.launch_block_unread}, {"dynamic", s.launch_dynamic_unread}};
  const json doc = {{"regscope_sidecar", kSidecarVersion},
                    {"source", s.source},
                    {"object", {{"path", s.object}, {"size", s.object_size}, {"mtime_ns", s.object_mtime_ns}}},
                    {"archs", s.archs},
                    {"compiler", {{"command", s.compiler}, {"producer", s.producer}}},
                    {"launch_sites", sites},
                    {"launch_shared", shared},
                    {"launch_unread", unread},
                    {"notes", s.notes},
                    {"optimisation", s.optimisation ? optimisationToJson(*s.optimisation) : json(nullptr)},
                    {"records", records}};
  return doc.dump(1) + "\n";
}

Sidecar sidecarFromText(std::string_view text, const std::string &path) {
  try {
    const json doc = json::parse(text.begin(), text.end());
    if (!doc.is_object() || !doc.contains("regscope_sidecar")) throw Error("not a regscope sidecar");
    const int version = doc.at("regscope_sidecar").get<int>();
    if (version != kSidecarVersion)
      throw Error("sidecar version " + std::to_string(version) + ", this regscope reads " +
                  std::to_string(kSidecarVersion) + " (rebuild with the launcher)");
    Sidecar s;
    s.source = doc.at("source").get<std::string>();
    s.object = doc.at("object").at("path").get<std::string>();
    s.object_size = doc.at("object").at("size").get<std::uint64_t>();
    s.object_mtime_ns = doc.at("object").at("mtime_ns").get<std::int64_t>();
    s.archs = doc.at("archs").get<std::vector<std::string>>();
    s.compiler = doc.at("compiler").at("command").get<std::string>();
    s.producer = doc.at("compiler").at("producer").get<std::string>();
    for (const auto &[kernel, size] : doc.at("launch_sites").items()) s.launch_sites[kernel] = size.get<int>();
    if (doc.contains("launch_shared"))
      for (const auto &[kernel, at] : doc.at("launch_shared").items()) {
        const long bytes = at.at("bytes").get<long>();
        if (bytes < 0 || bytes > kMaxDynamicSharedRead) throw Error("launch_shared of " + kernel + " out of range");
        s.launch_shared[kernel] = {bytes, at.at("from_attribute").get<bool>()};
      }
    if (doc.contains("launch_unread")) {
      s.launch_block_unread = doc.at("launch_unread").at("block").get<std::map<std::string, int>>();
      s.launch_dynamic_unread = doc.at("launch_unread").at("dynamic").get<std::map<std::string, int>>();
    }
    s.notes = doc.at("notes").get<std::vector<std::string>>();
    if (doc.contains("optimisation") && !doc.at("optimisation").is_null())
      s.optimisation = optimisationFromJson(doc.at("optimisation"));
    for (const json &r : doc.at("records")) s.records.push_back(recordFromJson(r));
    if (s.source.empty() || s.object.empty()) throw Error("no source or object named");
    return s;
  } catch (const Error &e) {
    throw Error(path + ": " + e.what());
  } catch (const std::exception &e) {  // nlohmann's parse and type errors, an unknown field
    throw Error(path + ": not a readable regscope sidecar (" + std::string(e.what()) + ")");
  }
}

Sidecar sidecarFor(const WrappedCompile &compile, const std::vector<std::string> &argv, const std::string &remarks,
                   const std::string &cwd) {
  Sidecar s;
  s.source = absoluteIn(compile.source, cwd);
  s.object = absoluteIn(compile.object, cwd);
  s.archs = compile.archs;
  s.compiler = argv.at(compile.compiler);
  const Stamp stamp = stampOf(s.object);
  if (!stamp.exists) throw Error(compile.object + ": the compiler wrote no object there");
  s.object_size = stamp.size;
  s.object_mtime_ns = stamp.mtime_ns;
  const std::string object = readFile(s.object);
  CollectedRun run;
  try {
    run = backendFor(compile.vendor).collectObject(remarks, object, compile.archs, s.source, readSource);
  } catch (const Error &e) {
    throw Error(compile.object + ": " + e.what());
  }
  s.producer = run.producer;
  s.records = std::move(run.records);
  const std::vector<std::string> flags(argv.begin() + static_cast<std::ptrdiff_t>(compile.compiler) + 1, argv.end());
  // As analyze finds them: in the source's own text and the headers it includes with quotes.
  if (std::optional<std::string> text = readSource(s.source)) {
    // Through Clang's AST with the compile's own include and macro flags, made absolute as its cwd reads them.
    std::vector<std::string> absolute = flags;
    try {
      absolute = resolvePathFlags(flags, cwd);
    } catch (const Error &) {  // an unreadable response file: the compile itself said so
    }
    // Kept in the user's result cache (launch_cache.h): a rebuild does not parse again.
    LaunchesRead launches = readLaunchSitesCached(
        ResultCache::defaultDirectory(), s.source, compile.source, *text, absolute,
        commandCompilesCuda(compile.source,
                            {argv.begin() + static_cast<std::ptrdiff_t>(compile.compiler), argv.end()}));
    s.notes.insert(s.notes.end(), launches.notes.begin(), launches.notes.end());
    s.launch_sites = std::move(launches.block_sizes);
    s.launch_shared = std::move(launches.dynamic_shared);
    s.launch_block_unread = std::move(launches.block_unread_line);
    s.launch_dynamic_unread = std::move(launches.dynamic_unread_line);
  }
  // The build's own compile: no level is added (a plain clang's device code is then -O0).
  s.optimisation = backendFor(compile.vendor).optimisation(s.compiler, flags, false);
  return s;
}

void writeSidecar(const Sidecar &sidecar) { writeFileAtomically(sidecarPath(sidecar.object), sidecarToText(sidecar)); }

SidecarJobs readSidecarJobs(const std::string &build_dir, const AnalyzeOptions &options) {
  std::error_code ec;
  if (!fs::is_directory(build_dir, ec))
    throw Error(build_dir + (fs::exists(build_dir, ec) ? ": not a directory (collect reads a build directory)"
                                                       : ": no such directory"));
  std::vector<std::string> paths;
  for (fs::recursive_directory_iterator it(build_dir, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() > kSidecarSuffix.size() &&
        name.compare(name.size() - kSidecarSuffix.size(), kSidecarSuffix.size(), kSidecarSuffix) == 0 &&
        it->is_regular_file(ec))
      paths.push_back(it->path().string());
  }
  if (paths.empty())
    throw Error(build_dir +
                ": no regscope sidecars (*.regscope.json): build with the launcher, e.g. cmake "
                "-DCMAKE_HIP_COMPILER_LAUNCHER=regscope;wrap;-- (or CMAKE_CXX_COMPILER_LAUNCHER with hipcc)");
  std::sort(paths.begin(), paths.end());

  std::vector<Sidecar> sidecars;
  SidecarJobs read;
  Report &report = read.preamble;
  for (const std::string &path : paths) {
    try {
      Sidecar s = sidecarFromText(readFile(path), path);
      // The object beside the sidecar, wherever the build directory now is.
      const std::string object = path.substr(0, path.size() - kSidecarSuffix.size());
      const Stamp now = stampOf(object);
      // Its object's figures are then unknown: an error naming it (exit 2; a
      // gate cannot pass what it did not read), and the others are still reported.
      if (!now.exists) {
        report.errors.push_back(
            {path, "", path + ": its object " + object + " is gone, so its kernels' figures are unknown"});
        continue;
      }
      if (now.size != s.object_size || now.mtime_ns != s.object_mtime_ns) {
        report.errors.push_back({path, "",
                                 path + ": its object was rebuilt without the launcher since the sidecar was "
                                        "written, so its kernels' figures are unknown (rebuild it with the launcher)"});
        continue;
      }
      sidecars.push_back(std::move(s));
    } catch (const Error &e) {
      report.errors.push_back({path, "", e.what()});
    }
  }
  // In source order, as a database lists its entries; a source compiled
  // into several objects is a variant of its own, as in analyze -p.
  std::stable_sort(sidecars.begin(), sidecars.end(),
                   [](const Sidecar &a, const Sidecar &b) { return a.source < b.source; });
  std::map<std::string, int> variants;
  for (Sidecar &s : sidecars) {
    SourceJob job;
    job.path = s.source;
    const fs::path rel = fs::path(s.source).lexically_relative(fs::current_path(ec));
    job.file = !ec && !rel.empty() && *rel.begin() != ".." ? rel.string() : s.source;
    if (const int n = variants[s.source]++; n > 0) job.variant = n + 1;
    JobResult result;
    result.records = std::move(s.records);
    result.producer = s.producer;
    result.notes = s.notes;
    result.optimisation = s.optimisation;
    if (report.compiler_path.empty()) report.compiler_path = s.compiler;
    read.jobs.push_back(std::move(job));
    read.results.push_back(std::move(result));
    UnreadLaunches unread;  // named as analyze names them: FILE:LINE
    for (const auto &[kernel, line] : s.launch_block_unread)
      unread.block_size[kernel] = s.source + ":" + std::to_string(line);
    for (const auto &[kernel, line] : s.launch_dynamic_unread)
      unread.dynamic_shared[kernel] = s.source + ":" + std::to_string(line);
    read.launches.push_back(launchesFor(options.launch.block_size ? std::map<std::string, int>{} : s.launch_sites,
                                        options, s.launch_shared, std::move(unread)));
  }
  return read;
}

Report collectSidecars(const std::string &build_dir, const AnalyzeOptions &options) {
  SidecarJobs read = readSidecarJobs(build_dir, options);
  Report report = std::move(read.preamble);
  for (std::size_t i = 0; i < read.jobs.size(); ++i)
    addJobResult(report, read.jobs[i], read.results[i], read.launches[i]);
  return report;
}

}  // namespace regscope
