// Compile databases: which entries are HIP, and their flags made safe to run
// from regscope's private temporary directory.
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/JSONCompilationDatabase.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "regscope/support/error.h"
#include "regscope/support/files.h"
#include "regscope/source/source.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

std::string absolute(const std::string &path, const std::string &directory) {
  if (path.empty() || fs::path(path).is_absolute()) return path;
  return (fs::path(directory) / path).lexically_normal().string();
}

bool startsWith(const std::string &s, const std::string &prefix) { return s.rfind(prefix, 0) == 0; }

// Flags whose value is a path (separate "-I dir" or joined "-Idir").
const char *const kPathFlags[] = {"-I", "-isystem", "-iquote", "-idirafter", "-include", "-imacros",
                                  "--include-directory", "-isysroot", "--rocm-path", "--hip-path"};
// Flags that write files or change what is written: regscope sets its own.
const std::set<std::string> kDropAlone = {"-c", "-S", "-E", "-MD", "-MMD", "-MP", "-M", "-MM",
                                          "--save-temps", "-save-temps", "-fsave-optimization-record"};
const std::set<std::string> kDropWithValue = {"-o", "-MF", "-MT", "-MQ"};

bool isHipEntry(const clang::tooling::CompileCommand &command) {
  const std::string ext = fs::path(command.Filename).extension().string();
  if (ext == ".hip") return true;
  for (std::size_t i = 0; i < command.CommandLine.size(); ++i) {
    const std::string &a = command.CommandLine[i];
    if (a == "-xhip" || (a == "-x" && i + 1 < command.CommandLine.size() && command.CommandLine[i + 1] == "hip"))
      return true;
    if (i == 0 && fs::path(a).filename().string().find("hipcc") != std::string::npos) return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> cleanCompileFlags(const std::vector<std::string> &argv, const std::string &directory,
                                           const std::string &source, std::vector<std::string> &archs) {
  std::vector<std::string> flags;
  const std::string source_abs = absolute(source, directory);
  for (std::size_t i = 1; i < argv.size(); ++i) {  // argv[0] is the compiler
    const std::string &a = argv[i];
    if (startsWith(a, "--offload-arch=") || startsWith(a, "-offload-arch=")) {
      archs.push_back(a.substr(a.find('=') + 1));
      continue;
    }
    if ((a == "--offload-arch" || a == "-offload-arch") && i + 1 < argv.size()) {
      archs.push_back(argv[++i]);
      continue;
    }
    if (kDropWithValue.count(a)) {  // "-o out.o", "-MF deps.d"
      ++i;
      continue;
    }
    if (kDropAlone.count(a) || startsWith(a, "-save-temps=") || startsWith(a, "--save-temps=") ||
        startsWith(a, "-foptimization-record-") || startsWith(a, "-MF") || startsWith(a, "-MT") ||
        startsWith(a, "-MQ") || (startsWith(a, "-o") && a.size() > 2) ||  // joined forms
        startsWith(a, "--driver-mode="))  // added by Clang's database loader; our compiler picks its mode
      continue;
    if (absolute(a, directory) == source_abs) continue;  // the source itself

    bool handled = false;
    for (const char *flag : kPathFlags) {
      const std::string f = flag;
      if (a == f && i + 1 < argv.size()) {
        flags.push_back(a);
        flags.push_back(absolute(argv[++i], directory));
        handled = true;
      } else if (startsWith(a, f) && a.size() > f.size() && f.size() == 2) {  // -Idir
        flags.push_back(f + absolute(a.substr(2), directory));
        handled = true;
      } else if (startsWith(a, f + "=")) {  // --rocm-path=dir
        flags.push_back(f + "=" + absolute(a.substr(f.size() + 1), directory));
        handled = true;
      }
      if (handled) break;
    }
    if (!handled) flags.push_back(a);
  }
  return flags;
}

std::vector<SourceJob> jobsForFiles(const std::vector<std::string> &files) {
  std::vector<SourceJob> jobs;
  for (const std::string &file : files)
    jobs.push_back({file, fs::absolute(file).lexically_normal().string(), {}, {}, ""});
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
    if (!doc[i].is_object()) throw Error(path + ": not a compile database (entry " + std::to_string(i) + " is not an object)");
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
                                const std::vector<std::string> &files) {
  std::set<std::string> wanted;
  for (const std::string &file : files) wanted.insert(fs::absolute(file).lexically_normal().string());
  std::set<std::string> seen;
  std::vector<SourceJob> jobs;
  for (const clang::tooling::CompileCommand &command : db.getAllCompileCommands()) {
    if (!isHipEntry(command)) continue;
    const std::string path = absolute(command.Filename, command.Directory);
    if ((!wanted.empty() && !wanted.count(path)) || !seen.insert(path).second) continue;
    SourceJob job;
    job.path = path;
    std::error_code rel_ec;
    fs::path rel = fs::path(path).lexically_relative(fs::current_path(rel_ec));
    job.file = !rel_ec && !rel.empty() && *rel.begin() != ".." ? rel.string() : path;
    if (!command.CommandLine.empty()) {
      const std::string compiler = command.CommandLine.front();
      if (fs::path(compiler).filename().string().find("hipcc") != std::string::npos ||
          fs::path(compiler).filename().string().find("clang") != std::string::npos)
        job.compiler = compiler;
    }
    job.flags = cleanCompileFlags(command.CommandLine, command.Directory, command.Filename, job.archs);
    jobs.push_back(std::move(job));
  }
  if (jobs.empty() && wanted.empty()) throw Error(database + ": the compile database has no HIP entries");
  for (const std::string &file : wanted)
    if (!seen.count(file)) throw Error(file + ": not a HIP entry of the compile database");
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
                                            const std::vector<std::string> &files) {
  const std::string canonical = canonicalJson(text, path);
  return jobsFrom(*loadDatabase(canonical, path), path, files);
}

std::vector<SourceJob> jobsFromDatabase(const std::string &database, const std::vector<std::string> &files) {
  std::error_code ec;
  if (fs::is_regular_file(database, ec)) return jobsFromDatabaseText(readFile(database), database, files);
  if (!fs::is_directory(database, ec)) throw Error(database + ": no such file or directory");
  if (const std::string found = findDatabaseFile(database); !found.empty()) {
    // As Clang's directory plugin loads it: response files expanded, driver modes inferred.
    const std::string canonical = canonicalJson(readFile(found), found);
    auto db = clang::tooling::inferTargetAndDriverMode(
        clang::tooling::expandResponseFiles(loadDatabase(canonical, found), llvm::vfs::getRealFileSystem()));
    return jobsFrom(*db, found, files);
  }
  std::string error;
  std::unique_ptr<clang::tooling::CompilationDatabase> db =
      clang::tooling::CompilationDatabase::autoDetectFromDirectory(fs::absolute(database).string(), error);
  if (!db) throw Error("no compile database at or above " + database + " (looked for compile_commands.json)");
  return jobsFrom(*db, database, files);
}

}  // namespace regscope
