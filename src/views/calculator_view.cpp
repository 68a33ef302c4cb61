// `regscope occupancy`: one calculation, a row per resource.
#include <algorithm>
#include <climits>

#include "phrases.h"
#include "regscope/backends/amd/describe.h"
#include "regscope/backends/intel/describe.h"
#include "regscope/backends/nvidia/describe.h"
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
        {"occupancy", amdOccupancyJson(occ_, std::nullopt)},
    };
  }

 private:
  AmdArch arch_;
  KernelResources r_;
  Occupancy occ_;
};

class CudaCalculatorView : public View {
 public:
  CudaCalculatorView(const CudaArch &arch, const CudaResources &r, const CudaOccupancy &occ)
      : arch_(arch), r_(r), occ_(occ) {}

  Document document() const override {
    Document doc;
    doc.line(Line(std::string(arch_.name) + " (CC " + std::to_string(arch_.major) + "." + std::to_string(arch_.minor) +
                  "): " + std::to_string(occ_.blocks_per_sm) + " blocks/SM, " + std::to_string(occ_.warps_per_sm) +
                  "/" + std::to_string(occ_.max_warps_per_sm) + " warps/SM (" +
                  std::to_string(static_cast<int>(occ_.fraction * 100 + 0.5)) + "%), limited by " +
                  limiterName(occ_.limiter)));
    auto limit = [](int v) { return v == INT_MAX ? Cell("-") : Cell::count(v); };
    Table table;
    table.columns = {{"RESOURCE", "resource"}, {"USED", "used", true}, {"BLOCKS/SM", "blocks_per_sm", true}};
    table.add({"warps (block of " + std::to_string(r_.block_size) + ")", Cell::count((r_.block_size + 31) / 32),
               limit(occ_.by_warps)});
    table.add({"block slots", Cell::count(1), limit(occ_.by_blocks)});
    table.add({"registers/thread", Cell::count(r_.registers), limit(occ_.by_registers)});
    table.add({"shared bytes (+" + std::to_string(arch_.shared_reserved_per_block) + " reserved)",
               Cell::count(std::int64_t{r_.static_shared} + r_.dynamic_shared), limit(occ_.by_shared)});
    table.add({"barriers", Cell::count(r_.barriers), limit(occ_.by_barriers)});
    doc.table(std::move(table));
    doc.line(Line("next step: " + cudaNextStepText(occ_, arch_, r_)));
    return doc.line(
        Line("largest block size with as many warps/SM: " + std::to_string(occ_.largest_block_same_occupancy)));
  }

  nlohmann::json toJson() const override {
    return {{"schema_version", kSchemaVersion},
            {"regscope_version", kRegscopeVersion},
            {"vendor", vendorName(arch_.vendor)},
            {"arch", arch_.name},
            {"resources",
             {{"registers", r_.registers},
              {"shared_bytes", r_.static_shared},
              {"dynamic_shared_bytes", r_.dynamic_shared},
              {"block_size", r_.block_size}}},
            {"occupancy", cudaOccupancyJson(occ_, arch_, r_)}};
  }

 private:
  CudaArch arch_;
  CudaResources r_;
  CudaOccupancy occ_;
};

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
            {"vendor", vendorName(device_.vendor)},
            {"arch", device_.name},
            {"resources",
             {{"grf_count", r_.grf_count},
              {"simd_size", r_.simd},
              {"work_group_size", r_.work_group_size},
              {"slm_bytes", r_.slm_bytes},
              {"barriers", r_.barriers}}},
            {"occupancy", intelOccupancyJson(occ_, device_, r_)}};
  }

 private:
  IntelDevice device_;
  IntelResources r_;
  IntelOccupancy occ_;
};

}  // namespace

std::unique_ptr<View> amdCalculatorView(const AmdArch &arch, const KernelResources &resources, const Occupancy &occ) {
  return std::make_unique<AmdCalculatorView>(arch, resources, occ);
}

std::unique_ptr<View> cudaCalculatorView(const CudaArch &arch, const CudaResources &resources,
                                         const CudaOccupancy &occ) {
  return std::make_unique<CudaCalculatorView>(arch, resources, occ);
}

std::unique_ptr<View> intelCalculatorView(const IntelDevice &device, const IntelResources &resources,
                                          const IntelOccupancy &occ) {
  return std::make_unique<IntelCalculatorView>(device, resources, occ);
}

}  // namespace regscope
