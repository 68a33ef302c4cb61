// The JSON documents, described in docs/json-schema.md. Numbers are integers.
#include "report_json.h"

#include <climits>

#include "phrases.h"
#include "regscope/support/version.h"

namespace regscope {

using nlohmann::json;

json occupancyToJson(const Occupancy &occ, std::optional<int> compiler_reported) {
  json j = {
      {"waves_per_simd", occ.waves_per_simd},
      {"max_waves_per_simd", occ.max_waves_per_simd},
      {"limiter", limiterName(occ.limiter)},
      {"compiler_reported", compiler_reported ? json(*compiler_reported) : json(nullptr)},
      {"by_resource",
       {{"vgpr", occ.by_vgpr}, {"sgpr", occ.by_sgpr}, {"lds", occ.by_lds}, {"workgroup", occ.by_workgroup}}},
      {"headroom",
       {{"vgprs", occ.headroom.vgprs}, {"sgprs", occ.headroom.sgprs}, {"lds_bytes", occ.headroom.lds_bytes}}},
      {"next", nullptr},
  };
  if (occ.next)
    j["next"] = {{"waves_per_simd", occ.next->waves_per_simd},
                 {"vgprs_to_free", occ.next->vgprs_to_free},
                 {"sgprs_to_free", occ.next->sgprs_to_free},
                 {"lds_bytes_to_free", occ.next->lds_bytes_to_free}};
  return j;
}

json cudaOccupancyToJson(const CudaOccupancy &occ, const CudaArch &arch, const CudaResources &r) {
  json j = {
      {"blocks_per_sm", occ.blocks_per_sm},
      {"warps_per_sm", occ.warps_per_sm},
      {"max_warps_per_sm", occ.max_warps_per_sm},
      {"fraction", occ.fraction},
      {"limiter", limiterName(occ.limiter)},
      {"by_resource",
       {{"warps", occ.by_warps},
        {"blocks", occ.by_blocks},
        {"registers", occ.by_registers == INT_MAX ? json(nullptr) : json(occ.by_registers)},
        {"shared", occ.by_shared == INT_MAX ? json(nullptr) : json(occ.by_shared)},
        {"barriers", occ.by_barriers == INT_MAX ? json(nullptr) : json(occ.by_barriers)}}},
      {"largest_block_same_occupancy", occ.largest_block_same_occupancy},
      {"next", nullptr},
  };
  if (occ.next)
    j["next"] = {{"blocks_per_sm", occ.next->blocks_per_sm},
                 {"registers_to_free", occ.next->registers_to_free},
                 {"shared_to_free", occ.next->shared_to_free}};
  if (occ.limiter == Limiter::Invalid) j["invalid_reason"] = cudaInvalidText(occ, arch, r);
  return j;
}

namespace {

json nvidiaKernelToJson(const KernelReport &k) {
  const KernelRecord &r = k.record;
  const CudaKernelModel &m = *k.cuda();
  json occ = cudaOccupancyToJson(m.occupancy, m.arch, m.resources);
  occ["block_size"] = k.launch.block_size;
  occ["block_size_source"] = blockSizeSourceName(k.launch.source);
  occ["dynamic_shared_bytes"] = k.launch.dynamic_shared;
  auto optional = [&](Field f) { return r.has(f) ? json(r.value(f)) : json(nullptr); };
  return {{"vendor", vendorName(r.vendor)},
          {"name", r.name},
          {"demangled", r.demangled},
          {"arch", r.arch},
          {"file", k.display_file},
          {"line", r.line},
          {"registers", r.value(Field::Registers)},
          {"spill_store_bytes", r.value(Field::SpillStoreBytes)},
          {"spill_load_bytes", r.value(Field::SpillLoadBytes)},
          {"stack_bytes", r.value(Field::StackBytes)},
          {"shared_bytes", r.value(Field::SharedBytes)},
          {"constant_bytes", optional(Field::ConstantBytes)},
          {"barriers", optional(Field::Barriers)},
          {"max_threads_per_block", optional(Field::MaxThreadsPerBlock)},
          {"min_blocks_per_sm", optional(Field::MinBlocksPerSm)},
          {"occupancy", occ},
          {"sources", r.sources},
          {"warnings", r.warnings}};
}

}  // namespace

json reportToJson(const Report &report) {
  json kernels = json::array();
  for (const KernelReport &k : report.kernels) {
    if (k.cuda()) {
      kernels.push_back(nvidiaKernelToJson(k));
      continue;
    }
    const KernelRecord &r = k.record;
    const AmdKernelModel &m = *k.amd();
    json occ = occupancyToJson(m.occupancy, m.compiler ? std::optional<int>(m.compiler->printed) : std::nullopt);
    occ["workgroup_size"] = k.launch.block_size;
    occ["workgroup_size_source"] = blockSizeSourceName(k.launch.source);
    if (std::string why = compilerExplanation(m, report.compiler_version); !why.empty()) occ["explanation"] = why;
    kernels.push_back({
        {"vendor", vendorName(r.vendor)},
        {"name", r.name},
        {"demangled", r.demangled},
        {"arch", r.arch},
        {"file", k.display_file},
        {"line", r.line},
        {"vgprs", r.has(Field::Vgprs) ? json(r.value(Field::Vgprs)) : json(nullptr)},
        {"agprs", r.value(Field::Agprs)},
        {"vgprs_total", m.occupancy.vgprs_total},
        {"sgprs", r.value(Field::Sgprs)},
        {"scratch_bytes", r.value(Field::ScratchBytes)},
        {"vgpr_spills", r.value(Field::VgprSpills)},
        {"sgpr_spills", r.value(Field::SgprSpills)},
        {"lds_bytes", r.value(Field::LdsBytes)},
        {"max_workgroup_size", r.has(Field::MaxWorkgroupSize) ? json(r.value(Field::MaxWorkgroupSize)) : json(nullptr)},
        {"wave_size", r.has(Field::WaveSize) ? json(r.value(Field::WaveSize)) : json(nullptr)},
        {"dynamic_stack", r.value(Field::DynamicStack) != 0},
        {"agpr_copies", r.has(Field::AgprCopies) ? json(r.value(Field::AgprCopies)) : json(nullptr)},
        {"mfma_instructions", r.has(Field::MfmaInstructions) ? json(r.value(Field::MfmaInstructions)) : json(nullptr)},
        {"hidden_agpr_spills", m.hidden_agpr_spills},
        {"unresolved",
         [&] {
           json fields = json::array();
           for (Field f : r.unresolved) fields.push_back(fieldKey(f));
           return fields;
         }()},
        {"occupancy", m.unresolved ? json(nullptr) : occ},
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

}  // namespace regscope
