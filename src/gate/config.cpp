// .regscope.json: defaults, per-kernel overrides, archs, compiler flags.
#include <fnmatch.h>

#include <climits>
#include <cstdint>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "regscope/support/files.h"
#include "regscope/support/symbols.h"
#include "regscope/support/error.h"
#include "regscope/gate/gate.h"

namespace regscope {
namespace {

using nlohmann::json;

void rejectUnknownKeys(const json &object, std::initializer_list<const char *> known, const std::string &where) {
  for (auto it = object.begin(); it != object.end(); ++it) {
    bool ok = false;
    for (const char *k : known) ok |= it.key() == k;
    if (!ok) throw Error(where + ": unknown key '" + it.key() + "'");
  }
}

std::optional<int> optionalCount(const json &object, const char *key, const std::string &where) {
  if (!object.contains(key)) return std::nullopt;
  const json &v = object[key];
  const bool in_range = v.is_number_unsigned() ? v.get<std::uint64_t>() <= INT_MAX
                                               : v.is_number_integer() && v.get<std::int64_t>() >= 0 &&
                                                     v.get<std::int64_t>() <= INT_MAX;
  if (!in_range) throw Error(where + ": '" + key + "' must be a non-negative integer (at most " + std::to_string(INT_MAX) + ")");
  return static_cast<int>(v.get<std::int64_t>());
}

Thresholds readThresholds(const json &object, const std::string &where) {
  return {optionalCount(object, "min_occupancy", where), optionalCount(object, "max_spills", where),
          optionalCount(object, "max_scratch", where)};
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

void overlay(Thresholds &base, const Thresholds &over) {
  if (over.min_occupancy) base.min_occupancy = over.min_occupancy;
  if (over.max_spills) base.max_spills = over.max_spills;
  if (over.max_scratch) base.max_scratch = over.max_scratch;
}

bool globMatches(const std::string &pattern, const std::string &text) {
  return fnmatch(pattern.c_str(), text.c_str(), 0) == 0;
}

}  // namespace

GateConfig loadConfig(const std::string &path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw Error(path + ": no such config file");
  return configFromText(readFile(path), path);
}

GateConfig configFromText(const std::string &text, const std::string &path) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception &e) {  // parse_error, and out_of_range for a number like 1e999
    throw Error(path + ": not valid JSON (" + std::string(e.what()) + ")");
  }
  if (!doc.is_object()) throw Error(path + ": must be a JSON object");
  rejectUnknownKeys(doc, {"version", "defaults", "kernels", "archs", "compiler_flags"}, path);
  if (doc.contains("version") && doc["version"] != 1)
    throw Error(path + ": unsupported config version" +
                (doc["version"].is_primitive() ? " " + doc["version"].dump() : "") + " (this regscope reads 1)");

  GateConfig config;
  config.path = path;
  if (doc.contains("defaults")) {
    if (!doc["defaults"].is_object()) throw Error(path + ": 'defaults' must be an object");
    rejectUnknownKeys(doc["defaults"], {"min_occupancy", "max_spills", "max_scratch"}, path + ": defaults");
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
      rejectUnknownKeys(entry, {"match", "min_occupancy", "max_spills", "max_scratch"}, where);
      config.kernels.push_back({entry["match"].get<std::string>(), readThresholds(entry, where)});
    }
  }
  config.archs = readStrings(doc, "archs", path);
  config.compiler_flags = readStrings(doc, "compiler_flags", path);
  return config;
}

std::optional<std::string> findConfig(const std::string &dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  for (fs::path at = fs::absolute(dir, ec); !at.empty(); at = at.parent_path()) {
    fs::path candidate = at / ".regscope.json";
    if (fs::is_regular_file(candidate, ec)) return candidate.string();
    if (at == at.root_path()) break;
  }
  return std::nullopt;
}

Thresholds thresholdsFor(const GateConfig &config, const KernelRecord &record) {
  Thresholds t = config.defaults;
  const std::string base = functionBaseName(record.demangled);
  for (const KernelRule &rule : config.kernels)
    if (globMatches(rule.match, record.name) || globMatches(rule.match, record.demangled) ||
        globMatches(rule.match, base))
      overlay(t, rule.thresholds);
  return t;
}

}  // namespace regscope
