#include "regscope/cache/cache.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/SHA256.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "regscope/source/flags.h"
#include "regscope/support/files.h"
#include "regscope/support/version.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Bump when entries or collectors change meaning. 7 (issue 30): each entry
// carries `digest`, a SHA-256 over its key and content; an entry without one
// (format 6 and before) or whose content does not give it is a miss. 9: AMD
// gfx9 records carry the descriptor's SGPR allocation (`sgprs_allocated`).
constexpr int kCacheFormat = 9;

// Entries found edited after regscope wrote them, this run, by key: a miss is
// looked up again after the fill claim, and is one entry (said once, at the end).
std::mutex edited_mutex;
std::set<std::string> edited_entries;

std::string sha256(const std::string &data) {
  llvm::SHA256 hash;
  hash.update(llvm::StringRef(data));
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

// An entry's digest: its key (an entry copied under another key does not
// match) and every field but the digest, as JSON (objects sort their keys, so
// the entry as written and as read back dump alike). The cache may be shared
// between machines: a figure edited by hand (scratch 144 -> 0) must not pass a gate.
std::string entryDigest(const std::string &key, const json &entry) {
  json content = entry;
  content.erase("digest");
  return sha256(key + "\n" + content.dump(-1, ' ', false, json::error_handler_t::replace));
}

struct FileStamp {
  long long size = -1, mtime_ns = -1;
};

// A regular file's stamp; none for anything else (a device or FIFO named as a
// dependency is not a file to hash: /dev/zero would be read forever).
FileStamp stampOf(const std::string &path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return {};
  return {static_cast<long long>(st.st_size),
          static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec};
}

// Environment variables that change what the compilers compile, read from
// their drivers: hipcc's hipcc.pl/hipvars.pm (Debian's ROCm 5.2), clang's
// driver and preprocessor, nvcc (and the variables its nvcc.profile sets,
// which the environment overrides), Intel's IGC. A compile under other
// values is another compile.
constexpr const char *kCompilerEnvironment[] = {
    // hipcc
    "HIPCC_COMPILE_FLAGS_APPEND",
    "HIPCC_LINK_FLAGS_APPEND",
    "HIP_PLATFORM",
    "HIP_COMPILER",
    "HIP_RUNTIME",
    "HIP_PATH",
    "ROCM_PATH",
    "HIP_CLANG_PATH",
    "HSA_PATH",
    "HIP_LIB_PATH",
    "HIP_ROCCLR_HOME",
    "DEVICE_LIB_PATH",
    "HIP_DEVICE_LIB_PATH",
    "HIP_CLANG_HCC_COMPAT_MODE",
    "HIP_COMPILE_CXX_AS_HIP",
    "HCC_AMDGPU_TARGET",
    "HCC_EXTRA_LIBRARIES",
    "CUDA_PATH",
    // clang's driver and preprocessor
    "CPATH",
    "C_INCLUDE_PATH",
    "CPLUS_INCLUDE_PATH",
    "OBJC_INCLUDE_PATH",
    "CCC_OVERRIDE_OPTIONS",
    "COMPILER_PATH",
    "SOURCE_DATE_EPOCH",
    // nvcc
    "NVCC_PREPEND_FLAGS",
    "NVCC_APPEND_FLAGS",
    "NVCC_CCBIN",
    "CUDAFE_FLAGS",
    "PTXAS_FLAGS",
    "CICC_PATH",
    "NVVMIR_LIBRARY_DIR",
    "INCLUDES",
    "SYSTEM_INCLUDES",
};
// Every variable with one of these prefixes is part of the key too (Intel's
// graphics compiler reads hundreds of IGC_ settings).
constexpr const char *kCompilerEnvironmentPrefixes[] = {"IGC_", "NEO_"};

json compilerEnvironment() {
  json values = json::object();
  for (const char *name : kCompilerEnvironment)
    if (const char *value = std::getenv(name)) values[name] = value;
  for (char **entry = environ; *entry; ++entry) {
    const std::string text = *entry;
    for (const char *prefix : kCompilerEnvironmentPrefixes)
      if (text.rfind(prefix, 0) == 0) {
        const std::size_t eq = text.find('=');
        if (eq != std::string::npos) values[text.substr(0, eq)] = text.substr(eq + 1);
      }
  }
  return values;
}

// The compilers a driver runs, as it finds them: hipcc runs clang++ from
// $HIP_CLANG_PATH, $ROCM_PATH/llvm/bin, $HIP_PATH/bin or PATH; nvcc runs cicc
// and ptxas beside it. Each one found (resolved) is stamped into the key, so
// an upgraded clang under an unchanged hipcc script is another compiler.
json compilerIdentity(const std::string &compiler) {
  std::error_code ec;
  const std::string resolved = fs::canonical(compiler, ec).string();
  const FileStamp stamp = stampOf(resolved);
  json identity = json::array({json::array({resolved, stamp.size, stamp.mtime_ns})});
  std::vector<std::string> dirs = {fs::path(resolved).parent_path().string(),
                                   (fs::path(resolved).parent_path() / ".." / "nvvm" / "bin").string()};
  for (const char *variable : {"HIP_CLANG_PATH", "HIP_PATH", "ROCM_PATH", "CUDA_PATH"})
    if (const char *value = std::getenv(variable); value && *value) {
      dirs.push_back(value);
      dirs.push_back(std::string(value) + "/bin");
      dirs.push_back(std::string(value) + "/llvm/bin");
    }
  if (const char *path = std::getenv("PATH")) {
    std::stringstream entries(path);
    for (std::string dir; std::getline(entries, dir, ':');) dirs.push_back(dir.empty() ? "." : dir);
  }
  std::set<std::string> seen = {resolved};
  for (const char *tool : {"clang++", "clang", "cicc", "ptxas"})
    for (const std::string &dir : dirs) {
      const std::string found = fs::canonical(fs::path(dir) / tool, ec).string();
      if (ec || found.empty()) continue;
      if (seen.insert(found).second) {
        const FileStamp s = stampOf(found);
        identity.push_back(json::array({found, s.size, s.mtime_ns}));
      }
      break;  // the first one on the search is the one run
    }
  return identity;
}

std::vector<std::string> splitPathList(const char *list) {
  std::vector<std::string> dirs;
  if (!list) return dirs;
  std::stringstream entries(list);
  for (std::string dir; std::getline(entries, dir, ':');)
    if (!dir.empty()) dirs.push_back(dir);
  return dirs;
}

// The paths that were absent when an entry was stored and must still be:
// for each header read from a directory of the include search, the same
// name in every other directory of it (a header created there now would
// shadow the one that was read, or be read by #include_next); for a header
// from elsewhere (the system's), its last one and two path components under
// each directory of the search.
std::vector<std::string> shadowCandidates(const std::vector<std::string> &dependencies,
                                          const std::vector<std::string> &search) {
  std::vector<fs::path> dirs;
  for (const std::string &d : search) dirs.push_back(fs::path(d).lexically_normal());
  std::set<std::string> absent;
  std::error_code ec;
  auto consider = [&](const fs::path &candidate, const fs::path &dependency) {
    const fs::path normal = candidate.lexically_normal();
    if (normal != dependency && !fs::exists(normal, ec)) absent.insert(normal.string());
  };
  for (const std::string &dep : dependencies) {
    const fs::path d = fs::path(dep).lexically_normal();
    bool under_search = false;
    for (const fs::path &t : dirs) {
      const fs::path rel = d.lexically_relative(t);
      if (rel.empty() || *rel.begin() == "..") continue;
      under_search = true;
      for (const fs::path &other : dirs) consider(other / rel, d);
    }
    if (under_search) continue;
    const fs::path name = d.filename(), parent = d.parent_path().filename();
    for (const fs::path &other : dirs) {
      consider(other / name, d);
      if (!parent.empty()) consider(other / parent / name, d);
    }
  }
  return {absent.begin(), absent.end()};
}

}  // namespace

std::vector<std::string> ResultCache::includeSearch(const CompileJob &job) {
  std::vector<std::string> dirs = {fs::path(job.source).parent_path().string()};  // quoted includes' first place
  for (std::string &dir : includeSearchDirectories(job.extra_flags)) dirs.push_back(std::move(dir));
  for (const char *variable : {"CPATH", "CPLUS_INCLUDE_PATH", "C_INCLUDE_PATH"})
    for (std::string &dir : splitPathList(std::getenv(variable))) dirs.push_back(std::move(dir));
  return dirs;
}

// Values are stored by field key (fields.def), never by position: a field
// added or moved cannot mislabel a cached figure.
json recordToJson(const KernelRecord &r) {
  json values = json::object();
  for (const FieldInfo &info : fieldTable())
    if (r.has(info.field)) values[info.key] = r.value(info.field);
  json unresolved = json::array();
  for (Field f : r.unresolved) unresolved.push_back(fieldKey(f));
  json j = {{"name", r.name},       {"demangled", r.demangled}, {"arch", r.arch},   {"vendor", vendorName(r.vendor)},
            {"file", r.file},       {"line", r.line},           {"values", values}, {"unresolved", unresolved},
            {"sources", r.sources}, {"warnings", r.warnings}};
  if (r.loop_spill_site.line > 0)
    j["loop_spill_site"] = {{"file", r.loop_spill_site.file}, {"line", r.loop_spill_site.line}};
  return j;
}

static Field fieldNamed(const std::string &key) {
  if (std::optional<Field> f = fieldByKey(key)) return *f;
  throw std::runtime_error("unknown field " + key);  // written by another build: a miss
}

// An integer the entry must hold; anything else (a float, 1e92, a string) is a miss, never a cast.
std::int64_t integerIn(const json &j, std::int64_t lo, std::int64_t hi) {
  if (j.is_number_unsigned() && j.get<std::uint64_t>() <= static_cast<std::uint64_t>(hi)) return j.get<std::int64_t>();
  if (j.is_number_integer() && !j.is_number_unsigned() && j.get<std::int64_t>() >= lo && j.get<std::int64_t>() <= hi)
    return j.get<std::int64_t>();
  throw std::runtime_error("not an integer in range");
}

KernelRecord recordFromJson(const json &j) {
  KernelRecord r;
  r.name = j.at("name");
  r.demangled = j.at("demangled");
  r.arch = j.at("arch");
  std::optional<Vendor> vendor = vendorByName(j.at("vendor").get<std::string>());
  if (!vendor) throw std::runtime_error("unknown vendor");
  r.vendor = *vendor;
  r.file = j.at("file");
  r.line = static_cast<int>(integerIn(j.at("line"), 0, INT_MAX));
  for (const auto &[key, value] : j.at("values").items())
    r.values[static_cast<std::size_t>(fieldNamed(key))] =
        integerIn(value, std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max());
  for (const json &key : j.at("unresolved")) r.unresolved.push_back(fieldNamed(key.get<std::string>()));
  r.sources = j.at("sources").get<std::vector<std::string>>();
  r.warnings = j.at("warnings").get<std::vector<std::string>>();
  if (const auto site = j.find("loop_spill_site"); site != j.end()) {
    r.loop_spill_site.file = site->at("file").get<std::string>();
    r.loop_spill_site.line = static_cast<int>(integerIn(site->at("line"), 1, INT_MAX));
  }
  return r;
}

std::size_t ResultCache::editedEntriesSeen() {
  const std::lock_guard<std::mutex> lock(edited_mutex);
  return edited_entries.size();
}

std::string ResultCache::defaultDirectory() {
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::string(xdg) + "/regscope";
  if (const char *home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/regscope";
  return "";
}

std::string ResultCache::keyFor(const CompileJob &job) const {
  std::error_code ec;
  // regscope's own build is part of the key: a rebuilt collector must not be
  // served results of the old one.
  static const FileStamp self = stampOf(fs::canonical("/proc/self/exe", ec).string());
  json key = {{"format", kCacheFormat},
              {"regscope", {kRegscopeVersion, self.size, self.mtime_ns}},
              {"compiler", compilerIdentity(job.compiler)},
              {"environment", compilerEnvironment()},
              {"archs", job.archs},
              {"flags", job.extra_flags},
              {"source", job.source}};
  return sha256(key.dump());
}

std::string ResultCache::keyForArtifacts(const std::string &what) const {
  std::error_code ec;
  static const FileStamp self = stampOf(fs::canonical("/proc/self/exe", ec).string());
  const json key = {
      {"format", kCacheFormat}, {"regscope", {kRegscopeVersion, self.size, self.mtime_ns}}, {"artifacts", what}};
  return sha256(key.dump());
}

namespace {

// A cache directory or entry regscope may trust: ours (or root's), and
// writable by no one else. Anything else could have been planted.
bool trusted(const std::string &path) {
  struct stat st {};
  if (lstat(path.c_str(), &st) != 0) return false;
  if (st.st_uid != getuid() && st.st_uid != 0) return false;
  return (st.st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

}  // namespace

std::optional<CachedResult> ResultCache::lookup(const std::string &key) const {
  if (directory_.empty() || !trusted(directory_)) return std::nullopt;
  const std::string entry_path = directory_ + "/" + key + ".json";
  if (!trusted(entry_path)) return std::nullopt;
  try {
    const std::optional<std::string> text = readFileIfExists(entry_path);
    if (!text) return std::nullopt;
    json entry = json::parse(*text);
    if (entry.at("format") != kCacheFormat) return std::nullopt;
    if (!entry.contains("digest") || entry.at("digest") != entryDigest(key, entry)) {
      const std::lock_guard<std::mutex> lock(edited_mutex);
      edited_entries.insert(key);
      return std::nullopt;  // edited (or damaged) after regscope wrote it: recompiled, and said once
    }
    // store() never writes an entry it could not verify later: one without
    // dependencies was not written by it.
    if (!entry.at("dependencies").is_array() || entry.at("dependencies").empty()) return std::nullopt;
    for (const json &dep : entry.at("dependencies")) {
      const std::string path = dep.at("path");
      const FileStamp now = stampOf(path);
      if (now.size < 0) return std::nullopt;  // gone
      if (now.size == dep.at("size") && now.mtime_ns == dep.at("mtime_ns")) continue;
      if (sha256(readFile(path)) != dep.at("sha256")) return std::nullopt;  // touched and changed
    }
    // A header that would now shadow one the compile read: another compile.
    for (const json &path : entry.at("absent")) {
      struct stat st {};
      if (lstat(path.get<std::string>().c_str(), &st) == 0) return std::nullopt;
    }
    CachedResult result;
    result.producer = entry.at("producer");
    for (const json &dep : entry.at("dependencies")) result.dependencies.push_back(dep.at("path"));
    for (const json &r : entry.at("records")) result.records.push_back(recordFromJson(r));
    if (entry.contains("payload")) result.payload = entry.at("payload");
    return result;
  } catch (const std::exception &) {
    return std::nullopt;  // a damaged entry is a miss; the next store replaces it
  }
}

void ResultCache::store(const std::string &key, const CachedResult &result,
                        const std::vector<std::string> &dependencies,
                        const std::vector<std::string> &include_search) const {
  if (directory_.empty() || dependencies.empty()) return;  // no dependency list: cannot verify later
  try {
    json deps = json::array();
    for (const std::string &path : dependencies) {
      const FileStamp stamp = stampOf(path);
      if (stamp.size < 0) return;
      deps.push_back(
          {{"path", path}, {"size", stamp.size}, {"mtime_ns", stamp.mtime_ns}, {"sha256", sha256(readFile(path))}});
    }
    json records = json::array();
    for (const KernelRecord &r : result.records) records.push_back(recordToJson(r));
    json entry = {{"format", kCacheFormat},
                  {"producer", result.producer},
                  {"dependencies", deps},
                  {"absent", shadowCandidates(dependencies, include_search)},
                  {"records", records}};
    if (!result.payload.is_null()) entry["payload"] = result.payload;
    entry["digest"] = entryDigest(key, entry);
    // The directory is private (0700) whatever the umask, and so is each entry.
    std::error_code ec;
    fs::create_directories(fs::path(directory_).parent_path(), ec);
    if (mkdir(directory_.c_str(), 0700) == 0) chmod(directory_.c_str(), 0700);
    if (!trusted(directory_)) return;
    writeFileAtomically(directory_ + "/" + key + ".json", entry.dump(), 0600);
  } catch (const std::exception &) {
    // An unreadable dependency or an unwritable cache only costs speed.
  }
}

}  // namespace regscope
