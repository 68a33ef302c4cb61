// `regscope occupancy` and `regscope table` for AMD targets: one
// calculation, a row per resource; an arch's table. Vendor-specific views,
// compiled into the views library until wip/backends gives each backend its own.
#include <algorithm>
#include <climits>

#include "phrases.h"
#include "regscope/model/cuda_occupancy.h"
#include "regscope/model/intel_occupancy.h"
#include "regscope/support/version.h"
#include "regscope/views/views.h"
#include "report_json.h"

namespace regscope {
namespace {

using nlohmann::json;

class AmdCalculatorView : public View {
 public:
  AmdCalculatorView(const AmdArch &arch, const KernelResources &r, const Occupancy &occ)
      : arch_(arch), r_(r), occ_(occ) {}

  Document document() const override {
    Document doc;
    std::string headline = std::string(arch_.name) + " (" + std::string(arch_.family) +
                           "): " + std::to_string(occ_.waves_per_simd) + "/" + std::to_string(occ_.max_waves_per_simd) +
                           " waves/SIMD";
    if (occ_.counts_per_cu)
      headline += ", " + waveSlotsText(occ_, (r_.workgroup_size + arch_.wave_size - 1) / arch_.wave_size);
    doc.line(Line(headline + ", limited by " + limiterName(occ_.limiter)));
    Table table;
    table.columns = {{"RESOURCE", "resource"},
                     {"USED", "used", true},
                     {"WAVES/SIMD", "waves_per_simd", true},
                     {"HEADROOM", "headroom", true}};
    table.add(
        {"VGPR (total)", Cell::count(occ_.vgprs_total), Cell::count(occ_.by_vgpr), Cell::count(occ_.headroom.vgprs)});
    table.add({"SGPR", Cell::count(r_.sgprs), Cell::count(occ_.by_sgpr), Cell::count(occ_.headroom.sgprs)});
    table.add({"LDS bytes", Cell::count(r_.lds_bytes), Cell::count(occ_.by_lds), Cell::count(occ_.headroom.lds_bytes)});
    table.add({"workgroup", Cell::count(r_.workgroup_size), Cell::count(occ_.by_workgroup), ""});
    doc.table(std::move(table));
    return doc.line(Line("next step: " + nextStepText(occ_)));
  }

  nlohmann::json toJson() const override {
    return {
        {"schema_version", kSchemaVersion},
        {"regscope_version", kRegscopeVersion},
        {"arch", arch_.name},
        {"resources",
         {{"vgprs", r_.vgprs},
          {"agprs", r_.agprs},
          {"vgprs_total", occ_.vgprs_total},
          {"sgprs", r_.sgprs},
          {"lds_bytes", r_.lds_bytes},
          {"workgroup_size", r_.workgroup_size}}},
        {"occupancy", occupancyToJson(occ_, std::nullopt)},
    };
  }

 private:
  AmdArch arch_;
  KernelResources r_;
  Occupancy occ_;
};

class AmdArchTableView : public View {
 public:
  explicit AmdArchTableView(const AmdArch &arch) : arch_(arch) {}

  Document document() const override {
    Document doc;
    doc.line(Line(std::string(arch_.name) + " (" + std::string(arch_.family) + ", wave" +
                  std::to_string(arch_.wave_size) + "): waves per SIMD by VGPRs per lane" +
                  (arch_.agprs == AgprMode::Unified ? " (arch VGPRs aligned to 4 + AGPRs)" : "")));
    Table table;
    table.columns = {{"VGPRS", "vgprs", true, Show::Text},
                     {"", "min_vgprs", true, Show::Data},
                     {"", "max_vgprs", true, Show::Data},
                     {"WAVES/SIMD", "waves_per_simd", true}};
    for (const VgprTableRow &row : vgprTable(arch_))
      table.add({std::to_string(row.min_vgprs) + "-" + std::to_string(row.max_vgprs), Cell::count(row.min_vgprs),
                 Cell::count(row.max_vgprs), Cell::count(row.waves_per_simd)});
    return doc.table(std::move(table));
  }

  nlohmann::json toJson() const override {
    json rows = json::array();
    for (const VgprTableRow &row : vgprTable(arch_))
      rows.push_back(
          {{"min_vgprs", row.min_vgprs}, {"max_vgprs", row.max_vgprs}, {"waves_per_simd", row.waves_per_simd}});
    return {{"schema_version", kSchemaVersion},
            {"arch", arch_.name},
            {"family", arch_.family},
            {"wave_size", arch_.wave_size},
            {"vgpr_file", arch_.vgpr_file},
            {"vgpr_granule", arch_.vgpr_granule},
            {"max_waves_per_simd", arch_.max_waves_per_simd},
            {"rows", rows}};
  }

 private:
  AmdArch arch_;
};

}  // namespace

std::unique_ptr<View> amdCalculatorView(const AmdArch &arch, const KernelResources &resources, const Occupancy &occ) {
  return std::make_unique<AmdCalculatorView>(arch, resources, occ);
}

std::unique_ptr<View> amdArchTableView(const AmdArch &arch) { return std::make_unique<AmdArchTableView>(arch); }

}  // namespace regscope
