// Compile databases: the entries a backend compiles (DatabaseEntries), and their flags made safe to run
// from regscope's private temporary directory.
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/JSONCompilationDatabase.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "regscope/source/flags.h"
#include "regscope/source/source.h"
#include "regscope/support/error.h"
#include "regscope/support/files.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

std::string absolute(const std::string &path, const std::string &directory) {
  if (path.empty() || fs::path(path).is_absolute()) return path;
  return (fs::path(directory) / path).lexically_normal().string();
}

// nvcc's target options: regscope passes its own -gencode for --cuda-arch.
std::vector<std::string> dropNvccTargets(const std::vector<std::string> &flags) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < flags.size(); ++i) {
    const std::string &f = flags[i];
    bool separate = false, joined = false;
    for (const char *option : {"-gencode", "--generate-code", "-arch", "--gpu-architecture", "-code", "--gpu-code"}) {
      const std::string o = option;
      separate |= f == o;
      joined |= f.rfind(o + "=", 0) == 0;
    }
    if (separate)
      ++i;
    else if (!joined)
      out.push_back(f);
  }
  return out;
}

}  // namespace

std::vector<std::string> cleanCompileFlags(const std::vector<std::string> &argv, const std::string &directory,
                                           const std::string &source, std::vector<std::string> &archs) {
  // argv[0] is the compiler; the source itself is compiled by regscope.
  std::vector<std::string> flags;
  const std::string source_abs = absolute(source, directory);
  for (std::size_t i = 1; i < argv.size(); ++i)
    if (absolute(argv[i], directory) != source_abs) flags.push_back(argv[i]);
  std::vector<std::string> kept = resolvePathFlags(dropOutputFlags(dropNvccTargets(flags), archs), directory);
  // --offload-arch=gfx90a,gfx908 (as Makefiles write it) is two targets.
  std::vector<std::string> split;
  for (const std::string &arch : archs)
    for (std::string &one : splitArchList(arch)) split.push_back(std::move(one));
  archs = split;
  return kept;
}

std::vector<SourceJob> jobsForFiles(const std::vector<std::string> &files) {
  std::vector<SourceJob> jobs;
  for (const std::string &file : files) {
    if (file.empty()) throw Error("an input file name is empty");
    SourceJob job;
    job.file = file;
    job.path = fs::absolute(file).lexically_normal().string();
    jobs.push_back(std::move(job));
  }
  return jobs;
}

namespace {

// Canonical JSON for Clang's loader, or regscope::Error with nlohmann's
// one-line reason (its parser is iterative: no depth limit is needed).
std::string canonicalJson(std::string_view text, const std::string &path) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::exception &e) {  // parse_error, and out_of_range for 1e999
    throw Error(path + ": not a compile database (invalid JSON: " + e.what() + ")");
  }
  if (!doc.is_array()) throw Error(path + ": not a compile database (not a JSON array)");
  // Entries are objects of strings and string arrays: anything deeper is not
  // one (and would recurse in dump below, and in Clang's YAML reader).
  for (std::size_t i = 0; i < doc.size(); ++i) {
    if (!doc[i].is_object())
      throw Error(path + ": not a compile database (entry " + std::to_string(i) + " is not an object)");
    for (const auto &[key, value] : doc[i].items()) {
      bool flat = value.is_primitive();
      if (value.is_array())
        flat = std::all_of(value.begin(), value.end(), [](const nlohmann::json &v) { return v.is_primitive(); });
      if (!flat)
        throw Error(path + ": not a compile database (entry " + std::to_string(i) + ": '" + key +
                    "' holds an object or nested array)");
    }
  }
  // One entry per line, "key": value: the JSON subset LLVM's YAML parser reads.
  return doc.dump(1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// compile_commands.json in `dir` or the nearest parent that has one, as
// Clang's autoDetectFromDirectory looks for it (empty: none).
std::string findDatabaseFile(const std::string &dir) {
  std::error_code ec;
  for (fs::path at = fs::absolute(dir, ec); !at.empty(); at = at.parent_path()) {
    if (fs::is_regular_file(at / "compile_commands.json", ec)) return (at / "compile_commands.json").string();
    if (fs::exists(at / "compile_flags.txt", ec) || at == at.root_path()) break;  // Clang's other plugin answers first
  }
  return "";
}

std::vector<SourceJob> jobsFrom(const clang::tooling::CompilationDatabase &db, const std::string &database,
                                const std::vector<std::string> &files, const DatabaseEntries &entries) {
  std::set<std::string> wanted;
  for (const std::string &file : files) wanted.insert(fs::absolute(file).lexically_normal().string());
  std::set<std::string> seen;
  std::set<std::pair<std::string, std::vector<std::string>>> compiled;
  std::map<std::string, int> variants;
  std::vector<SourceJob> jobs;
  for (const clang::tooling::CompileCommand &command : db.getAllCompileCommands()) {
    if (!entries.compiles(command.Filename, command.CommandLine)) continue;
    const std::string path = absolute(command.Filename, command.Directory);
    if (!wanted.empty() && !wanted.count(path)) continue;
    seen.insert(path);
    SourceJob job;
    job.path = path;
    std::error_code rel_ec;
    fs::path rel = fs::path(path).lexically_relative(fs::current_path(rel_ec));
    job.file = !rel_ec && !rel.empty() && *rel.begin() != ".." ? rel.string() : path;
    if (!command.CommandLine.empty()) {
      const std::string compiler = command.CommandLine.front();
      if (isHipCompilerName(compiler) || fs::path(compiler).filename().string().find("clang") != std::string::npos)
        job.compiler = compiler;
    }
    job.flags = cleanCompileFlags(command.CommandLine, command.Directory, command.Filename, job.archs);
    // The same file with other flags (-include kernel2.hpp, -DVARIANT=2) is another job; the same flags, a duplicate.
    if (!compiled.insert({path, job.flags}).second) continue;
    if (const int n = variants[path]++; n > 0) job.variant = n + 1;
    jobs.push_back(std::move(job));
  }
  if (jobs.empty() && wanted.empty())
    throw Error(database + ": the compile database has no " + entries.kind + " entries" + entries.when_none);
  for (const std::string &file : wanted)
    if (!seen.count(file)) throw Error(file + ": not a " + entries.kind + " entry of the compile database");
  return jobs;
}

// Clang's loader over checked text. The buffer must outlive the database.
std::unique_ptr<clang::tooling::CompilationDatabase> loadDatabase(const std::string &canonical,
                                                                  const std::string &path) {
  std::string error;
  auto db = clang::tooling::JSONCompilationDatabase::loadFromBuffer(canonical, error,
                                                                    clang::tooling::JSONCommandLineSyntax::AutoDetect);
  if (!db) throw Error(path + ": not a compile database (" + error + ")");
  return db;
}

}  // namespace

std::vector<SourceJob> jobsFromDatabaseText(std::string_view text, const std::string &path,
                                            const std::vector<std::string> &files, const DatabaseEntries &entries) {
  const std::string canonical = canonicalJson(text, path);
  return jobsFrom(*loadDatabase(canonical, path), path, files, entries);
}

std::vector<SourceJob> jobsFromDatabase(const std::string &database, const std::vector<std::string> &files,
                                        const DatabaseEntries &entries) {
  std::error_code ec;
  if (fs::is_regular_file(database, ec)) return jobsFromDatabaseText(readFile(database), database, files, entries);
  if (!fs::is_directory(database, ec)) throw Error(database + ": no such file or directory");
  if (const std::string found = findDatabaseFile(database); !found.empty()) {
    // As Clang's directory plugin loads it: response files expanded, driver modes inferred.
    const std::string canonical = canonicalJson(readFile(found), found);
    auto db = clang::tooling::inferTargetAndDriverMode(
        clang::tooling::expandResponseFiles(loadDatabase(canonical, found), llvm::vfs::getRealFileSystem()));
    return jobsFrom(*db, found, files, entries);
  }
  std::string error;
  std::unique_ptr<clang::tooling::CompilationDatabase> db =
      clang::tooling::CompilationDatabase::autoDetectFromDirectory(fs::absolute(database).string(), error);
  if (!db) throw Error("no compile database at or above " + database + " (looked for compile_commands.json)");
  return jobsFrom(*db, database, files, entries);
}

}  // namespace regscope
