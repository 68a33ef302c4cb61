#include "regscope/cache.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/SHA256.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "regscope/report.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr int kCacheFormat = 4;  // bump when entries or collectors change meaning

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

json recordToJson(const KernelRecord &r) {
  json values = json::array();
  for (const auto &v : r.values) values.push_back(v ? json(*v) : json(nullptr));
  return {{"name", r.name}, {"demangled", r.demangled}, {"arch", r.arch}, {"vendor", r.vendor},
          {"file", r.file}, {"line", r.line},
          {"values", values}, {"sources", r.sources}, {"warnings", r.warnings}};
}

KernelRecord recordFromJson(const json &j) {
  KernelRecord r;
  r.name = j.at("name");
  r.demangled = j.at("demangled");
  r.arch = j.at("arch");
  r.vendor = j.at("vendor");
  r.file = j.at("file");
  r.line = j.at("line");
  const json &values = j.at("values");
  if (values.size() != kFieldCount) throw std::runtime_error("field count");
  for (std::size_t i = 0; i < kFieldCount; ++i)
    if (!values[i].is_null()) r.values[i] = values[i].get<std::int64_t>();
  r.sources = j.at("sources").get<std::vector<std::string>>();
  r.warnings = j.at("warnings").get<std::vector<std::string>>();
  return r;
}

}  // namespace

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

std::optional<CachedResult> ResultCache::lookup(const std::string &key) const {
  if (directory_.empty()) return std::nullopt;
  const std::string text = readFile(directory_ + "/" + key + ".json");
  if (text.empty()) return std::nullopt;
  try {
    json entry = json::parse(text);
    if (entry.at("format") != kCacheFormat) return std::nullopt;
    for (const json &dep : entry.at("dependencies")) {
      const std::string path = dep.at("path");
      const FileStamp now = stampOf(path);
      if (now.size < 0) return std::nullopt;  // gone
      if (now.size == dep.at("size") && now.mtime_ns == dep.at("mtime_ns")) continue;
      if (sha256(readFile(path)) != dep.at("sha256")) return std::nullopt;  // touched and changed
    }
    CachedResult result;
    result.producer = entry.at("producer");
    for (const json &r : entry.at("records")) result.records.push_back(recordFromJson(r));
    return result;
  } catch (const std::exception &) {
    return std::nullopt;  // a damaged entry is a miss; the next store replaces it
  }
}

void ResultCache::store(const std::string &key, const CachedResult &result,
                        const std::vector<std::string> &dependencies) const {
  if (directory_.empty() || dependencies.empty()) return;  // no dependency list: cannot verify later
  json deps = json::array();
  for (const std::string &path : dependencies) {
    const FileStamp stamp = stampOf(path);
    if (stamp.size < 0) return;
    deps.push_back({{"path", path}, {"size", stamp.size}, {"mtime_ns", stamp.mtime_ns}, {"sha256", sha256(readFile(path))}});
  }
  json records = json::array();
  for (const KernelRecord &r : result.records) records.push_back(recordToJson(r));
  json entry = {{"format", kCacheFormat}, {"producer", result.producer}, {"dependencies", deps}, {"records", records}};
  try {
    std::error_code ec;
    fs::create_directories(directory_, ec);
    writeFileAtomically(directory_ + "/" + key + ".json", entry.dump());
  } catch (const std::exception &) {
    // An unwritable cache only costs speed.
  }
}

std::vector<std::string> parseDependencyFile(const std::string &text) {
  std::vector<std::string> files;
  std::size_t colon = text.find(": ");
  if (colon == std::string::npos) return files;
  std::string current;
  for (std::size_t i = colon + 2; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\\' && i + 1 < text.size() && (text[i + 1] == '\n' || text[i + 1] == '\r')) continue;  // line join
    if (c == '\\' && i + 1 < text.size() && text[i + 1] == ' ') { current += ' '; ++i; continue; }  // escaped space
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      if (!current.empty()) files.push_back(std::move(current));
      current.clear();
      continue;
    }
    current += c;
  }
  if (!current.empty()) files.push_back(std::move(current));
  return files;
}

}  // namespace regscope
