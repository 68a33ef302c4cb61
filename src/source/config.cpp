// .regscope.json: archs, compiler flags, per-kernel launch sizes, thresholds.
#include "regscope/source/config.h"
#include "regscope/source/config_source_map.h"

#include <fnmatch.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "regscope/source/flags.h"
#include "regscope/support/error.h"
#include "regscope/support/files.h"
#include "regscope/support/symbols.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char *kConfigName = ".regscope.json";

void rejectUnknownKeys(const json &object, std::initializer_list<const char *> known, const std::string &where) {
  for (auto it = object.begin(); it != object.end(); ++it) {
    bool ok = false;
    for (const char *k : known) ok |= it.key() == k;
    if (!ok) throw Error(where + ": unknown key '" + it.key() + "'");
  }
}

std::optional<int> optionalCount(const json &object, const char *key, const std::string &where, int low = 0) {
  if (!object.contains(key)) return std::nullopt;
  const json &v = object[key];
  const bool in_range = v.is_number_unsigned()
                            ? v.get<std::uint64_t>() <= INT_MAX
                            : v.is_number_integer() && v.get<std::int64_t>() >= low && v.get<std::int64_t>() <= INT_MAX;
  if (!in_range)
    throw Error(where + ": '" + key + "' must be " +
                (low == 0 ? std::string("a non-negative integer") : "an integer of at least " + std::to_string(low)) +
                " (at most " + std::to_string(INT_MAX) + ")");
  return static_cast<int>(v.get<std::int64_t>());
}

Thresholds readThresholds(const json &object, const std::string &where) {
  Thresholds t;
  // "min_occupancy": 4 (the vendor's unit) or "50%" (of the device's maximum).
  if (object.contains("min_occupancy") && object["min_occupancy"].is_string()) {
    try {
      t.min_occupancy_percent = occupancyPercent(object["min_occupancy"].get<std::string>());
    } catch (const Error &e) {
      throw Error(where + ": 'min_occupancy' " + e.what());
    }
    if (!t.min_occupancy_percent)
      throw Error(where + ": 'min_occupancy' must be a whole number of at least 1 or a percent such as \"50%\"");
  } else {
    t.min_occupancy = optionalCount(object, "min_occupancy", where);
  }
  t.max_spills = optionalCount(object, "max_spills", where);
  t.max_scratch = optionalCount(object, "max_scratch", where);
  t.max_loop_spills = optionalCount(object, "max_loop_spills", where);
  return t;
}

std::vector<std::string> readStrings(const json &object, const char *key, const std::string &where) {
  std::vector<std::string> out;
  if (!object.contains(key)) return out;
  if (!object[key].is_array()) throw Error(where + ": '" + key + "' must be an array of strings");
  for (const json &v : object[key]) {
    if (!v.is_string()) throw Error(where + ": '" + key + "' must be an array of strings");
    out.push_back(v.get<std::string>());
  }
  return out;
}

bool globMatches(const std::string &pattern, const std::string &text) {
  return fnmatch(pattern.c_str(), text.c_str(), 0) == 0;
}

// Whether the file belongs to the user running regscope, as git's
// safe.directory judges a repository: owned by the effective user; when that
// is root, by root or by the user who ran sudo ($SUDO_UID).
bool ownedByUser(uid_t owner) {
  const uid_t me = geteuid();
  if (owner == me) return true;
  if (me != 0) return false;
  const char *sudo_uid = std::getenv("SUDO_UID");
  if (!sudo_uid || !*sudo_uid) return false;
  char *end = nullptr;
  errno = 0;
  const unsigned long uid = std::strtoul(sudo_uid, &end, 10);
  return errno == 0 && *end == '\0' && uid == owner;
}

// Why regscope may not obey the file, or nothing: it, and the link that leads
// to it if it is one, must belong to the user; the file must not be writable
// by group or others.
std::optional<std::string> untrusted(const fs::path &file) {
  struct stat link {};
  if (lstat(file.c_str(), &link) != 0) return "cannot stat it";
  if (S_ISLNK(link.st_mode) && !ownedByUser(link.st_uid))
    return "it is a symbolic link owned by another user (uid " + std::to_string(link.st_uid) + ")";
  struct stat st {};
  if (stat(file.c_str(), &st) != 0) return "cannot stat it";
  const std::string what = S_ISLNK(link.st_mode) ? "the file it links to" : "it";
  if (!ownedByUser(st.st_uid)) return what + " is owned by another user (uid " + std::to_string(st.st_uid) + ")";
  if (st.st_mode & (S_IWGRP | S_IWOTH)) return "others may write " + (S_ISLNK(link.st_mode) ? what : "it");
  return std::nullopt;
}

}  // namespace

std::optional<int> occupancyPercent(const std::string &text) {
  if (text.empty() || text.back() != '%') return std::nullopt;
  const std::string digits = text.substr(0, text.size() - 1);
  int n = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || n < 1 || n > 100)
    throw Error("must be a percent from 1% to 100% of the device's maximum occupancy, not '" + text + "'");
  return n;
}

bool KernelSettings::matches(const std::string &mangled, const std::string &demangled,
                             const std::string &base_name) const {
  if (globMatches(match, mangled) || globMatches(match, demangled) || globMatches(match, base_name)) return true;
  for (const std::string &name : kernelNames(mangled))  // "ns::scale<float>", "scale<float>", ...
    if (globMatches(match, name)) return true;
  return false;
}

// "source_map": ["FROM=TO", ...], as explain's --source-map: where the sources
// of a build made elsewhere are here. A relative TO is against the file's directory.
static std::vector<std::string> readSourceMap(const json &doc, const std::string &path) {
  std::error_code ec;
  const fs::path dir = fs::absolute(path, ec).parent_path();
  std::vector<std::string> map;
  for (const std::string &entry : readStrings(doc, "source_map", path)) {
    const std::size_t eq = entry.find('=');
    if (eq == std::string::npos || eq == 0)
      throw Error(path + ": source_map '" + entry +
                  "': expected FROM=TO (as clang's -fdebug-prefix-map), FROM not empty");
    const fs::path to = entry.substr(eq + 1);
    map.push_back(entry.substr(0, eq + 1) + (to.empty() || to.is_absolute() ? to.string() : (dir / to).string()));
  }
  return map;
}

std::vector<std::string> configSourceMap(const std::string &path, bool allow_code_loading) {
  loadConfig(path, allow_code_loading);  // the whole file checked, as every command checks it
  return readSourceMap(json::parse(readFile(path)), path);
}

Config loadConfig(const std::string &path, bool allow_code_loading) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) throw Error(path + ": no such config file");
  return configFromText(readFile(path), path, allow_code_loading);
}

Config configFromText(const std::string &text, const std::string &path, bool allow_code_loading) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception &e) {  // parse_error, and out_of_range for a number like 1e999
    throw Error(path + ": not valid JSON (" + std::string(e.what()) + ")");
  }
  if (!doc.is_object()) throw Error(path + ": must be a JSON object");
  rejectUnknownKeys(doc, {"version", "defaults", "kernels", "ignore", "archs", "compiler_flags", "source_map"}, path);
  if (doc.contains("version") && doc["version"] != 1)
    throw Error(path + ": unsupported config version" +
                (doc["version"].is_primitive() ? " " + doc["version"].dump() : "") + " (this regscope reads 1)");

  Config config;
  config.path = path;
  if (doc.contains("defaults")) {
    if (!doc["defaults"].is_object()) throw Error(path + ": 'defaults' must be an object");
    rejectUnknownKeys(doc["defaults"], {"min_occupancy", "max_spills", "max_scratch", "max_loop_spills"},
                      path + ": defaults");
    config.defaults = readThresholds(doc["defaults"], path + ": defaults");
  }
  if (doc.contains("kernels")) {
    if (!doc["kernels"].is_array()) throw Error(path + ": 'kernels' must be an array");
    for (std::size_t i = 0; i < doc["kernels"].size(); ++i) {
      const json &entry = doc["kernels"][i];
      // The entry by its place: printing it would recurse over whatever nesting it holds.
      const std::string where = path + ": kernels entry " + std::to_string(i + 1);
      if (!entry.is_object() || !entry.contains("match") || !entry["match"].is_string())
        throw Error(where + ": needs a string 'match'");
      rejectUnknownKeys(
          entry,
          {"match", "min_occupancy", "max_spills", "max_scratch", "max_loop_spills", "block_size", "dynamic_lds"},
          where);
      KernelSettings settings{entry["match"].get<std::string>(), readThresholds(entry, where),
                              optionalCount(entry, "block_size", where, 1), optionalCount(entry, "dynamic_lds", where)};
      if (settings.block_size && *settings.block_size > 1024)
        throw Error(where + ": 'block_size' must be at most 1024");
      config.kernels.push_back(std::move(settings));
    }
  }
  if (doc.contains("ignore")) {
    if (!doc["ignore"].is_array()) throw Error(path + ": 'ignore' must be an array");
    for (std::size_t i = 0; i < doc["ignore"].size(); ++i) {
      const json &entry = doc["ignore"][i];
      const std::string where = path + ": ignore entry " + std::to_string(i + 1);
      if (!entry.is_object() || !entry.contains("match") || !entry["match"].is_string())
        throw Error(where + ": needs a string 'match'");
      rejectUnknownKeys(entry, {"match", "reason"}, where);
      if (!entry.contains("reason") || !entry["reason"].is_string() || entry["reason"].get<std::string>().empty())
        throw Error(where + ": needs a 'reason' (why the gate may pass over these kernels)");
      config.ignore.push_back({entry["match"].get<std::string>(), entry["reason"].get<std::string>()});
    }
  }
  config.archs = readStrings(doc, "archs", path);
  // Paths in the file's flags are relative to the file, as clang-tidy reads its config.
  std::error_code ec;
  const std::string dir = fs::absolute(path, ec).parent_path().string();
  config.compiler_flags = resolvePathFlags(readStrings(doc, "compiler_flags", path), dir);
  readSourceMap(doc, path);  // checked for every command; explain uses it (configSourceMap)
  if (!allow_code_loading) {
    const std::vector<std::string> loading = codeLoadingFlags(config.compiler_flags);
    if (!loading.empty())
      throw Error(path + ": compiler_flags: " + loading.front() +
                  "; a config file may not choose code for the compiler to run unless the command line says "
                  "--allow-config-plugins");
  }
  return config;
}

ConfigSearch findConfig(const std::string &dir) {
  ConfigSearch search;
  std::error_code ec;
  const char *home_env = std::getenv("HOME");
  const fs::path home = home_env && *home_env ? fs::weakly_canonical(home_env, ec) : fs::path();
  for (fs::path at = fs::weakly_canonical(fs::absolute(dir, ec), ec); !at.empty(); at = at.parent_path()) {
    const fs::path candidate = at / kConfigName;
    if (fs::is_regular_file(candidate, ec)) {
      if (std::optional<std::string> why = untrusted(candidate)) {
        search.warnings.push_back("ignoring " + candidate.string() + ": " + *why);
      } else {
        search.path = candidate.string();
        return search;
      }
    }
    // The repository's top level, the user's home and / end the search.
    if (fs::exists(at / ".git", ec) || (!home.empty() && at == home) || at == at.root_path()) break;
  }
  return search;
}

}  // namespace regscope
