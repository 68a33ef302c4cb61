// `regscope occupancy` and `regscope table` for Intel targets: one
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

class IntelCalculatorView : public View {
 public:
  IntelCalculatorView(const IntelDevice &device, const IntelResources &r, const IntelOccupancy &occ)
      : device_(device), r_(r), occ_(occ) {}

  Document document() const override {
    Document doc;
    doc.line(Line(std::string(device_.name) + " (" + std::string(device_.family) +
                  "): " + std::to_string(occ_.work_groups_per_xe_core) + " work-groups/Xe-core, " +
                  std::to_string(occ_.threads_per_xe_core) + "/" + std::to_string(occ_.max_thread_slots) +
                  " threads/Xe-core (" + std::to_string(static_cast<int>(occ_.fraction * 100 + 0.5)) +
                  "%), limited by " + limiterName(occ_.limiter)));
    Table table;
    table.columns = {{"RESOURCE", "resource"}, {"USED", "used", true}, {"WORK-GROUPS/XE-CORE", "work_groups", true}};
    table.add({"threads (work-group of " + std::to_string(r_.work_group_size) + " at SIMD" + std::to_string(r_.simd) +
                   "; " + std::to_string(occ_.thread_slots) + " slots with " + std::to_string(r_.grf_count) + " GRF)",
               Cell::count(occ_.threads_per_work_group), Cell::count(occ_.by_threads)});
    table.add({"SLM bytes (allocated " + bytesText(std::max(occ_.slm_allocated, 0)) + ")", Cell::count(r_.slm_bytes),
               Cell::count(occ_.by_slm)});
    table.add({"barriers", Cell::count(r_.barriers), Cell::count(occ_.by_barriers)});
    table.add({"work-group slots", Cell::count(1), Cell::count(occ_.by_work_group_slots)});
    doc.table(std::move(table));
    doc.line(Line("threads per EU: " + std::to_string(occ_.threads_per_eu) + " with " + std::to_string(r_.grf_count) +
                  " GRF, " + std::to_string(device_.eus_per_xe_core) + " EUs per Xe-core"));
    return doc.line(Line("next step: " + intelNextStepText(occ_, device_, r_)));
  }

  nlohmann::json toJson() const override {
    return {{"schema_version", kSchemaVersion},
            {"regscope_version", kRegscopeVersion},
            {"vendor", vendorName(Vendor::Intel)},
            {"arch", device_.name},
            {"resources",
             {{"grf_count", r_.grf_count},
              {"simd_size", r_.simd},
              {"work_group_size", r_.work_group_size},
              {"slm_bytes", r_.slm_bytes},
              {"barriers", r_.barriers}}},
            {"occupancy", intelOccupancyToJson(occ_, device_, r_)}};
  }

 private:
  IntelDevice device_;
  IntelResources r_;
  IntelOccupancy occ_;
};

class IntelArchTableView : public View {
 public:
  IntelArchTableView(const IntelDevice &device, int work_group_size)
      : device_(device), work_group_size_(work_group_size) {}

  Document document() const override {
    Document doc;
    doc.line(Line(std::string(device_.name) + " (" + std::string(device_.family) + ", " +
                  std::to_string(device_.eus_per_xe_core) +
                  " EUs per Xe-core): work-groups per Xe-core by GRF mode, SIMD width and SLM per work-group, "
                  "work-groups of " +
                  std::to_string(work_group_size_) + " work-items, no barrier"));
    Table table;
    table.columns = {{"GRF", "grf_count", true},
                     {"SIMD", "simd_size", true},
                     {"SLM", "slm_bytes", true},
                     {"THR/EU", "threads_per_eu", true},
                     {"WG/XE", "work_groups_per_xe_core", true},
                     {"THREADS/XE", "threads_per_xe_core", true},
                     {"OCC", "occupancy_percent", true},
                     {"LIMITER", "limiter"}};
    for (const IntelTableRow &row : intelOccupancyTable(device_, work_group_size_, false)) {
      const IntelOccupancy &o = row.occupancy;
      const int percent = static_cast<int>(o.fraction * 100 + 0.5);
      table.add({Cell::count(row.grf_count), Cell::count(row.simd),
                 Cell(row.slm_kib ? std::to_string(row.slm_kib) + " KiB" : "0", row.slm_kib * 1024),
                 Cell::count(o.threads_per_eu), Cell::count(o.work_groups_per_xe_core),
                 Cell::count(o.threads_per_xe_core), Cell(std::to_string(percent) + "%", percent),
                 limiterName(o.limiter)});
    }
    return doc.table(std::move(table));
  }

  nlohmann::json toJson() const override {
    json rows = json::array();
    for (const IntelTableRow &row : intelOccupancyTable(device_, work_group_size_, false))
      rows.push_back({{"grf_count", row.grf_count},
                      {"simd_size", row.simd},
                      {"slm_bytes", row.slm_kib * 1024},
                      {"threads_per_eu", row.occupancy.threads_per_eu},
                      {"work_groups_per_xe_core", row.occupancy.work_groups_per_xe_core},
                      {"threads_per_xe_core", row.occupancy.threads_per_xe_core},
                      {"fraction", row.occupancy.fraction},
                      {"limiter", limiterName(row.occupancy.limiter)}});
    return {{"schema_version", kSchemaVersion},
            {"vendor", vendorName(Vendor::Intel)},
            {"arch", device_.name},
            {"family", device_.family},
            {"work_group_size", work_group_size_},
            {"eus_per_xe_core", device_.eus_per_xe_core},
            {"max_thread_slots", device_.eus_per_xe_core * device_.threads_per_eu},
            {"grf_bytes", device_.grf_bytes},
            {"rows", rows}};
  }

 private:
  IntelDevice device_;
  int work_group_size_;
};

}  // namespace

std::unique_ptr<View> intelCalculatorView(const IntelDevice &device, const IntelResources &resources,
                                          const IntelOccupancy &occ) {
  return std::make_unique<IntelCalculatorView>(device, resources, occ);
}

std::unique_ptr<View> intelArchTableView(const IntelDevice &device, int work_group_size) {
  return std::make_unique<IntelArchTableView>(device, work_group_size);
}

}  // namespace regscope
