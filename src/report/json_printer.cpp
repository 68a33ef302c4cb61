// The JSON view, documented in docs/json-schema.md. Numbers are integers.
#include "regscope/printers.h"

namespace regscope {

using nlohmann::json;

json occupancyToJson(const Occupancy &occ, std::optional<int> compiler_reported) {
  json j = {
      {"waves_per_simd", occ.waves_per_simd},
      {"max_waves_per_simd", occ.max_waves_per_simd},
      {"limiter", occ.limiter},
      {"compiler_reported", compiler_reported ? json(*compiler_reported) : json(nullptr)},
      {"by_resource", {{"vgpr", occ.by_vgpr}, {"sgpr", occ.by_sgpr}, {"lds", occ.by_lds},
                       {"workgroup", occ.by_workgroup}}},
      {"headroom", {{"vgprs", occ.headroom.vgprs}, {"sgprs", occ.headroom.sgprs},
                    {"lds_bytes", occ.headroom.lds_bytes}}},
      {"next", nullptr},
  };
  if (occ.next)
    j["next"] = {{"waves_per_simd", occ.next->waves_per_simd},
                 {"vgprs_to_free", occ.next->vgprs_to_free},
                 {"sgprs_to_free", occ.next->sgprs_to_free},
                 {"lds_bytes_to_free", occ.next->lds_bytes_to_free}};
  return j;
}

json reportToJson(const Report &report) {
  json kernels = json::array();
  for (const KernelReport &k : report.kernels) {
    const KernelRecord &r = k.record;
    json occ = occupancyToJson(k.occupancy, k.compiler_reported);
    occ["workgroup_size"] = k.workgroup_size;
    occ["workgroup_size_source"] = k.workgroup_size_source;
    if (!k.explanation.empty()) occ["explanation"] = k.explanation;
    kernels.push_back({
        {"name", r.name},
        {"demangled", r.demangled},
        {"arch", r.arch},
        {"file", k.display_file},
        {"line", r.line},
        {"vgprs", r.value(Field::Vgprs)},
        {"agprs", r.value(Field::Agprs)},
        {"vgprs_total", k.occupancy.vgprs_total},
        {"sgprs", r.value(Field::Sgprs)},
        {"scratch_bytes", r.value(Field::ScratchBytes)},
        {"vgpr_spills", r.value(Field::VgprSpills)},
        {"sgpr_spills", r.value(Field::SgprSpills)},
        {"lds_bytes", r.value(Field::LdsBytes)},
        {"max_workgroup_size", r.has(Field::MaxWorkgroupSize) ? json(r.value(Field::MaxWorkgroupSize)) : json(nullptr)},
        {"wave_size", r.has(Field::WaveSize) ? json(r.value(Field::WaveSize)) : json(nullptr)},
        {"dynamic_stack", r.value(Field::DynamicStack) != 0},
        {"occupancy", occ},
        {"sources", r.sources},
        {"warnings", r.warnings},
    });
  }
  return {
      {"schema_version", kSchemaVersion},
      {"regscope_version", kRegscopeVersion},
      {"compiler", {{"path", report.compiler_path}, {"version", report.compiler_version}}},
      {"inputs", report.inputs},
      {"kernels", kernels},
      {"warnings", report.warnings},
  };
}

json occupancyCalculationToJson(const AmdArch &arch, const KernelResources &r, const Occupancy &occ) {
  return {
      {"schema_version", kSchemaVersion},
      {"regscope_version", kRegscopeVersion},
      {"arch", arch.name},
      {"resources", {{"vgprs", r.vgprs}, {"agprs", r.agprs}, {"vgprs_total", occ.vgprs_total},
                     {"sgprs", r.sgprs}, {"lds_bytes", r.lds_bytes}, {"workgroup_size", r.workgroup_size}}},
      {"occupancy", occupancyToJson(occ, std::nullopt)},
  };
}

json vgprTableToJson(const AmdArch &arch) {
  json rows = json::array();
  for (const VgprTableRow &row : vgprTable(arch))
    rows.push_back({{"min_vgprs", row.min_vgprs}, {"max_vgprs", row.max_vgprs},
                    {"waves_per_simd", row.waves_per_simd}});
  return {{"schema_version", kSchemaVersion}, {"arch", arch.name}, {"family", arch.family},
          {"vgpr_file", arch.vgpr_file}, {"vgpr_granule", arch.vgpr_granule},
          {"max_waves_per_simd", arch.max_waves_per_simd}, {"rows", rows}};
}

}  // namespace regscope
