// Baseline files: every kernel's figures, sorted, one stable JSON document.
#include <algorithm>
#include <nlohmann/json.hpp>
#include <tuple>

#include "regscope/error.h"
#include "regscope/gate.h"

namespace regscope {
namespace {

using nlohmann::ordered_json;

constexpr int kBaselineMajor = 1;
constexpr const char *kBaselineVersion = "1.0";

// Field name -> member, so reading and writing cannot drift apart.
struct IntMember {
  const char *key;
  int BaselineEntry::*member;
};
constexpr IntMember kIntMembers[] = {
    {"vgprs", &BaselineEntry::vgprs},
    {"agprs", &BaselineEntry::agprs},
    {"vgprs_total", &BaselineEntry::vgprs_total},
    {"sgprs", &BaselineEntry::sgprs},
    {"scratch_bytes", &BaselineEntry::scratch_bytes},
    {"vgpr_spills", &BaselineEntry::vgpr_spills},
    {"sgpr_spills", &BaselineEntry::sgpr_spills},
    {"lds_bytes", &BaselineEntry::lds_bytes},
    {"waves_per_simd", &BaselineEntry::waves_per_simd},
    {"waves_by_vgpr", &BaselineEntry::waves_by_vgpr},
};

auto sortKey(const BaselineEntry &e) { return std::tie(e.file, e.name, e.arch); }

}  // namespace

BaselineEntry baselineEntry(const KernelReport &k) {
  const KernelRecord &r = k.record;
  BaselineEntry e;
  e.file = k.display_file;
  e.name = r.name;
  e.demangled = r.demangled;
  e.arch = r.arch;
  e.vgprs = static_cast<int>(r.value(Field::Vgprs));
  e.agprs = static_cast<int>(r.value(Field::Agprs));
  e.vgprs_total = k.occupancy.vgprs_total;
  e.sgprs = static_cast<int>(r.value(Field::Sgprs));
  e.scratch_bytes = static_cast<int>(r.value(Field::ScratchBytes));
  e.vgpr_spills = static_cast<int>(r.value(Field::VgprSpills));
  e.sgpr_spills = static_cast<int>(r.value(Field::SgprSpills));
  e.lds_bytes = static_cast<int>(r.value(Field::LdsBytes));
  e.waves_per_simd = k.occupancy.waves_per_simd;
  e.waves_by_vgpr = k.occupancy.by_vgpr;
  return e;
}

Baseline baselineFromReport(const Report &report) {
  Baseline baseline;
  for (const KernelReport &k : report.kernels) baseline.push_back(baselineEntry(k));
  std::sort(baseline.begin(), baseline.end(),
            [](const BaselineEntry &a, const BaselineEntry &b) { return sortKey(a) < sortKey(b); });
  return baseline;
}

std::string baselineToText(const Baseline &baseline) {
  ordered_json kernels = ordered_json::array();
  for (const BaselineEntry &e : baseline) {
    ordered_json k = {{"file", e.file}, {"name", e.name}, {"demangled", e.demangled}, {"arch", e.arch}};
    for (const IntMember &m : kIntMembers) k[m.key] = e.*m.member;
    kernels.push_back(std::move(k));
  }
  ordered_json doc = {{"regscope_baseline", kBaselineVersion}, {"kernels", kernels}};
  return doc.dump(2) + "\n";
}

Baseline baselineFromText(const std::string &text, const std::string &path) {
  ordered_json doc;
  try {
    doc = ordered_json::parse(text);
  } catch (const ordered_json::parse_error &) {
    throw Error(path + ": not a regscope baseline (invalid JSON)");
  }
  if (!doc.is_object() || !doc.contains("regscope_baseline") || !doc["regscope_baseline"].is_string())
    throw Error(path + ": not a regscope baseline (no 'regscope_baseline' version)");
  const std::string version = doc["regscope_baseline"];
  if (std::atoi(version.c_str()) != kBaselineMajor)
    throw Error(path + ": baseline version " + version + " is not supported (this regscope reads 1.x)");
  if (!doc.contains("kernels") || !doc["kernels"].is_array())
    throw Error(path + ": baseline has no 'kernels' array");
  Baseline baseline;
  for (const ordered_json &k : doc["kernels"]) {
    auto text_of = [&](const char *key) {
      if (!k.contains(key) || !k[key].is_string()) throw Error(path + ": kernel entry lacks '" + key + "'");
      return k[key].get<std::string>();
    };
    BaselineEntry e;
    e.file = text_of("file");
    e.name = text_of("name");
    e.demangled = k.value("demangled", e.name);
    e.arch = text_of("arch");
    for (const IntMember &m : kIntMembers) {
      if (!k.contains(m.key) || !k[m.key].is_number_integer())
        throw Error(path + ": kernel " + e.name + " lacks integer '" + m.key + "'");
      e.*m.member = k[m.key].get<int>();
    }
    baseline.push_back(std::move(e));
  }
  return baseline;
}

}  // namespace regscope
