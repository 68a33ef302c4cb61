#include "regscope/cache/cache.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/SHA256.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "regscope/support/files.h"
#include "regscope/support/version.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr int kCacheFormat = 5;  // bump when entries or collectors change meaning

std::string sha256(const std::string &data) {
  llvm::SHA256 hash;
  hash.update(llvm::StringRef(data));
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

struct FileStamp {
  long long size = -1, mtime_ns = -1;
};

FileStamp stampOf(const std::string &path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return {};
  return {static_cast<long long>(st.st_size),
          static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec};
}


}  // namespace

// Values are stored by field key (fields.def), never by position: a field
// added or moved cannot mislabel a cached figure.
json recordToJson(const KernelRecord &r) {
  json values = json::object();
  for (const FieldInfo &info : fieldTable())
    if (r.has(info.field)) values[info.key] = r.value(info.field);
  json unresolved = json::array();
  for (Field f : r.unresolved) unresolved.push_back(fieldKey(f));
  return {{"name", r.name}, {"demangled", r.demangled}, {"arch", r.arch}, {"vendor", vendorName(r.vendor)},
          {"file", r.file}, {"line", r.line}, {"values", values}, {"unresolved", unresolved},
          {"sources", r.sources}, {"warnings", r.warnings}};
}

static Field fieldNamed(const std::string &key) {
  if (std::optional<Field> f = fieldByKey(key)) return *f;
  throw std::runtime_error("unknown field " + key);  // written by another build: a miss
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
  r.line = j.at("line");
  for (const auto &[key, value] : j.at("values").items())
    r.values[static_cast<std::size_t>(fieldNamed(key))] = value.get<std::int64_t>();
  for (const json &key : j.at("unresolved")) r.unresolved.push_back(fieldNamed(key.get<std::string>()));
  r.sources = j.at("sources").get<std::vector<std::string>>();
  r.warnings = j.at("warnings").get<std::vector<std::string>>();
  return r;
}


std::string ResultCache::defaultDirectory() {
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::string(xdg) + "/regscope";
  if (const char *home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/regscope";
  return "";
}

std::string ResultCache::keyFor(const CompileJob &job) const {
  std::error_code ec;
  const std::string compiler = fs::canonical(job.compiler, ec).string();
  const FileStamp stamp = stampOf(compiler);
  // regscope's own build is part of the key: a rebuilt collector must not be
  // served results of the old one.
  static const FileStamp self = stampOf(fs::canonical("/proc/self/exe", ec).string());
  json key = {{"format", kCacheFormat}, {"regscope", {kRegscopeVersion, self.size, self.mtime_ns}},
              {"compiler", {compiler, stamp.size, stamp.mtime_ns}},
              {"archs", job.archs}, {"flags", job.extra_flags}, {"source", job.source}};
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
    CachedResult result;
    result.producer = entry.at("producer");
    for (const json &dep : entry.at("dependencies")) result.dependencies.push_back(dep.at("path"));
    for (const json &r : entry.at("records")) result.records.push_back(recordFromJson(r));
    return result;
  } catch (const std::exception &) {
    return std::nullopt;  // a damaged entry is a miss; the next store replaces it
  }
}

void ResultCache::store(const std::string &key, const CachedResult &result,
                        const std::vector<std::string> &dependencies) const {
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
    json entry = {{"format", kCacheFormat}, {"producer", result.producer}, {"dependencies", deps}, {"records", records}};
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
