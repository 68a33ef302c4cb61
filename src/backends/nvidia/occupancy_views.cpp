// `regscope occupancy` and `regscope table` for NVIDIA targets: one
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
            {"vendor", vendorName(Vendor::Nvidia)},
            {"arch", arch_.name},
            {"resources",
             {{"registers", r_.registers},
              {"shared_bytes", r_.static_shared},
              {"dynamic_shared_bytes", r_.dynamic_shared},
              {"block_size", r_.block_size}}},
            {"occupancy", cudaOccupancyToJson(occ_, arch_, r_)}};
  }

 private:
  CudaArch arch_;
  CudaResources r_;
  CudaOccupancy occ_;
};

class CudaArchTableView : public View {
 public:
  CudaArchTableView(const CudaArch &arch, int block_size) : arch_(arch), block_size_(block_size) {}

  Document document() const override {
    Document doc;
    doc.line(Line(std::string(arch_.name) + " (CC " + std::to_string(arch_.major) + "." + std::to_string(arch_.minor) +
                  "): warps per SM by registers per thread, blocks of " + std::to_string(block_size_) + " threads"));
    Table table;
    table.columns = {{"REGISTERS", "registers", true, Show::Text},
                     {"", "min_registers", true, Show::Data},
                     {"", "max_registers", true, Show::Data},
                     {"BLOCKS/SM", "blocks_per_sm", true},
                     {"WARPS/SM", "warps_per_sm", true}};
    for (const CudaTableRow &row : cudaRegisterTable(arch_, block_size_))
      table.add({std::to_string(row.min_registers) + "-" + std::to_string(row.max_registers),
                 Cell::count(row.min_registers), Cell::count(row.max_registers), Cell::count(row.blocks_per_sm),
                 Cell::count(row.warps_per_sm)});
    return doc.table(std::move(table));
  }

  nlohmann::json toJson() const override {
    json rows = json::array();
    for (const CudaTableRow &row : cudaRegisterTable(arch_, block_size_))
      rows.push_back({{"min_registers", row.min_registers},
                      {"max_registers", row.max_registers},
                      {"blocks_per_sm", row.blocks_per_sm},
                      {"warps_per_sm", row.warps_per_sm}});
    return {{"schema_version", kSchemaVersion}, {"vendor", vendorName(Vendor::Nvidia)},       {"arch", arch_.name},
            {"block_size", block_size_},        {"max_warps_per_sm", arch_.max_warps_per_sm}, {"rows", rows}};
  }

 private:
  CudaArch arch_;
  int block_size_;
};

}  // namespace

std::unique_ptr<View> cudaCalculatorView(const CudaArch &arch, const CudaResources &resources,
                                         const CudaOccupancy &occ) {
  return std::make_unique<CudaCalculatorView>(arch, resources, occ);
}

std::unique_ptr<View> cudaArchTableView(const CudaArch &arch, int block_size) {
  return std::make_unique<CudaArchTableView>(arch, block_size);
}

}  // namespace regscope
