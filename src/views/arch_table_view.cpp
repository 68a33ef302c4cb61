// `regscope table`: an arch's register -> occupancy steps.
#include "regscope/backends/intel/intel_occupancy.h"
#include "regscope/backends/nvidia/cuda_occupancy.h"
#include "regscope/support/version.h"
#include "regscope/views/views.h"

namespace regscope {
namespace {

using nlohmann::json;

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

class CudaArchTableView : public View {
 public:
  CudaArchTableView(const CudaArch &arch, int block_size, std::vector<CudaTableRow> rows)
      : arch_(arch), block_size_(block_size), rows_(std::move(rows)) {}

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
    for (const CudaTableRow &row : rows_)
      table.add({std::to_string(row.min_registers) + "-" + std::to_string(row.max_registers),
                 Cell::count(row.min_registers), Cell::count(row.max_registers), Cell::count(row.blocks_per_sm),
                 Cell::count(row.warps_per_sm)});
    return doc.table(std::move(table));
  }

  nlohmann::json toJson() const override {
    json rows = json::array();
    for (const CudaTableRow &row : rows_)
      rows.push_back({{"min_registers", row.min_registers},
                      {"max_registers", row.max_registers},
                      {"blocks_per_sm", row.blocks_per_sm},
                      {"warps_per_sm", row.warps_per_sm}});
    return {{"schema_version", kSchemaVersion}, {"vendor", vendorName(arch_.vendor)},         {"arch", arch_.name},
            {"block_size", block_size_},        {"max_warps_per_sm", arch_.max_warps_per_sm}, {"rows", rows}};
  }

 private:
  CudaArch arch_;
  int block_size_;
  std::vector<CudaTableRow> rows_;
};

class IntelArchTableView : public View {
 public:
  IntelArchTableView(const IntelDevice &device, int work_group_size, std::vector<IntelTableRow> rows)
      : device_(device), work_group_size_(work_group_size), rows_(std::move(rows)) {}

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
    for (const IntelTableRow &row : rows_) {
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
    for (const IntelTableRow &row : rows_)
      rows.push_back({{"grf_count", row.grf_count},
                      {"simd_size", row.simd},
                      {"slm_bytes", row.slm_kib * 1024},
                      {"threads_per_eu", row.occupancy.threads_per_eu},
                      {"work_groups_per_xe_core", row.occupancy.work_groups_per_xe_core},
                      {"threads_per_xe_core", row.occupancy.threads_per_xe_core},
                      {"fraction", row.occupancy.fraction},
                      {"limiter", limiterName(row.occupancy.limiter)}});
    return {{"schema_version", kSchemaVersion},
            {"vendor", vendorName(device_.vendor)},
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
  std::vector<IntelTableRow> rows_;
};

}  // namespace

std::unique_ptr<View> amdArchTableView(const AmdArch &arch) { return std::make_unique<AmdArchTableView>(arch); }

std::unique_ptr<View> cudaArchTableView(const CudaArch &arch, int block_size, std::vector<CudaTableRow> rows) {
  return std::make_unique<CudaArchTableView>(arch, block_size, std::move(rows));
}

std::unique_ptr<View> intelArchTableView(const IntelDevice &device, int work_group_size,
                                         std::vector<IntelTableRow> rows) {
  return std::make_unique<IntelArchTableView>(device, work_group_size, std::move(rows));
}

}  // namespace regscope
