// The JSON documents, described in docs/json-schema.md. Numbers are integers.
#include "report_json.h"

#include <algorithm>
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
      // Per CU: the exact figure when a workgroup has fewer waves than the CU has SIMDs.
      {"waves_per_cu", occ.waves_per_cu},
      {"max_waves_per_cu", occ.max_waves_per_cu},
      {"counts_per_cu", occ.counts_per_cu},
      {"next", nullptr},
  };
  if (occ.next)
    j["next"] = {{"waves_per_simd", occ.next->waves_per_simd},
                 {"waves_per_cu", occ.next->waves_per_cu},
                 {"vgprs_to_free", occ.next->vgprs_to_free},
                 {"sgprs_to_free", occ.next->sgprs_to_free},
                 {"lds_bytes_to_free", occ.next->lds_bytes_to_free}};
  return j;
}

json cudaOccupancyToJson(const CudaOccupancy &occ, const CudaArch &arch, const CudaResources &r, int bound) {
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
  if (occ.limiter == Limiter::Invalid) j["invalid_reason"] = cudaInvalidText(occ, arch, r, bound);
  return j;
}

json intelOccupancyToJson(const IntelOccupancy &occ, const IntelDevice &device, const IntelResources &r) {
  json j = {
      {"threads_per_eu", occ.threads_per_eu},
      {"thread_slots", occ.thread_slots},
      {"max_thread_slots", occ.max_thread_slots},
      {"threads_per_work_group", occ.threads_per_work_group},
      {"slm_allocated", occ.slm_allocated},
      {"work_groups_per_xe_core", occ.work_groups_per_xe_core},
      {"threads_per_xe_core", occ.threads_per_xe_core},
      {"fraction", occ.fraction},
      {"limiter", limiterName(occ.limiter)},
      {"by_resource",
       {{"threads", occ.by_threads},
        {"slm", occ.by_slm},
        {"barriers", occ.by_barriers},
        {"workgroup", occ.by_work_group_slots}}},
      {"next", nullptr},
  };
  if (occ.next)
    j["next"] = {{"work_groups_per_xe_core", occ.next->work_groups_per_xe_core},
                 {"threads_per_xe_core", occ.next->threads_per_xe_core},
                 {"slm_bytes_to_free", occ.next->slm_bytes_to_free},
                 {"small_grf", occ.next->small_grf}};
  if (occ.limiter == Limiter::Invalid) j["invalid_reason"] = intelInvalidText(occ, device, r);
  return j;
}

namespace {

bool missing(const KernelReport &k, Field f) {
  return std::find(k.unknown.begin(), k.unknown.end(), f) != k.unknown.end();
}

// The figures this kernel must have that were not read (null above).
json unknownFields(const KernelReport &k) {
  json fields = json::array();
  for (Field f : k.unknown) fields.push_back(fieldKey(f));
  return fields;
}

json nvidiaKernelToJson(const KernelReport &k) {
  const KernelRecord &r = k.record;
  const CudaKernelModel &m = *k.cuda();
  json occ = cudaOccupancyToJson(m.occupancy, m.arch, m.resources, k.launch.max_block_size);
  if (!k.impossible.empty()) occ["invalid_reason"] = k.impossible;
  occ["block_size"] = k.launch.block_size;
  occ["block_size_source"] = blockSizeSourceName(k.launch.source);
  occ["dynamic_shared_bytes"] = k.launch.dynamic_shared;
  occ["dynamic_shared_source"] = dynamicSharedSourceName(k.launch.dynamic_source);
  auto optional = [&](Field f) { return r.has(f) ? json(r.value(f)) : json(nullptr); };
  json kernel = {{"vendor", vendorName(r.vendor)},
                 {"name", r.name},
                 {"demangled", r.demangled},
                 {"arch", r.arch},
                 {"file", k.display_file},
                 {"line", r.line},
                 {fieldKey(Field::Registers), optional(Field::Registers)},
                 {fieldKey(Field::SpillStoreBytes), optional(Field::SpillStoreBytes)},
                 {fieldKey(Field::SpillLoadBytes), optional(Field::SpillLoadBytes)},
                 {fieldKey(Field::StackBytes), optional(Field::StackBytes)},
                 {fieldKey(Field::SharedBytes), r.value(Field::SharedBytes)},
                 {fieldKey(Field::ConstantBytes), optional(Field::ConstantBytes)},
                 {fieldKey(Field::Barriers), optional(Field::Barriers)},
                 {fieldKey(Field::MaxThreadsPerBlock), optional(Field::MaxThreadsPerBlock)},
                 {fieldKey(Field::MinBlocksPerSm), optional(Field::MinBlocksPerSm)},
                 {"unknown", unknownFields(k)},
                 {"occupancy", k.summary.limiter == Limiter::Unknown ? json(nullptr) : occ},
                 {"sources", r.sources},
                 {"warnings", r.warnings}};
  // Only where a source read it (a cubin's EIATTR_REQNTID: Triton's kernels)
  if (r.has(Field::RequiredBlockSize)) kernel[fieldKey(Field::RequiredBlockSize)] = r.value(Field::RequiredBlockSize);
  return kernel;
}

json intelKernelToJson(const KernelReport &k) {
  const KernelRecord &r = k.record;
  const IntelKernelModel &m = *k.intel();
  json occ = intelOccupancyToJson(m.occupancy, m.device, m.resources);
  if (!k.impossible.empty()) occ["invalid_reason"] = k.impossible;
  occ["work_group_size"] = k.launch.block_size;
  occ["work_group_size_source"] = blockSizeSourceName(k.launch.source);
  occ["dynamic_slm_bytes"] = k.launch.dynamic_shared;
  auto optional = [&](Field f) { return r.has(f) ? json(r.value(f)) : json(nullptr); };
  json rule = nullptr;
  if (m.grf_recommendation)
    rule = {{"mode", grfModeName(m.grf_recommendation->mode)},
            {"reason", grfReasonName(m.grf_recommendation->reason)},
            {"small_grf_spill_bytes", m.grf_recommendation->small_grf_spill_bytes}};
  return {{"vendor", vendorName(r.vendor)},
          {"name", r.name},
          {"demangled", r.demangled},
          {"arch", r.arch},
          {"device", m.target.device},
          {"grf_mode", grfModeName(m.target.grf)},
          {"file", k.display_file},
          {"line", r.line},
          {fieldKey(Field::GrfCount), optional(Field::GrfCount)},
          {fieldKey(Field::SimdSize), optional(Field::SimdSize)},
          {"spill_bytes", m.spill_known ? nlohmann::json(m.spill_bytes) : nlohmann::json()},
          {fieldKey(Field::SpillGrfs), optional(Field::SpillGrfs)},
          {fieldKey(Field::ScratchPerThread), r.value(Field::ScratchPerThread)},
          {fieldKey(Field::GlobalPrivatePerThread), r.value(Field::GlobalPrivatePerThread)},
          {fieldKey(Field::PrivateBytes), optional(Field::PrivateBytes)},
          {fieldKey(Field::SlmBytes), r.value(Field::SlmBytes)},
          {fieldKey(Field::Barriers), r.value(Field::Barriers)},
          {"required_work_group_size", optional(Field::MaxWorkgroupSize)},
          {fieldKey(Field::HasStackCalls), r.value(Field::HasStackCalls) != 0},
          {fieldKey(Field::EuThreadCount), optional(Field::EuThreadCount)},
          {"unknown", unknownFields(k)},
          {"occupancy", k.summary.limiter == Limiter::Unknown ? json(nullptr) : occ},
          {"grf_recommendation", rule},
          {"sources", r.sources},
          {"warnings", r.warnings}};
}

}  // namespace

// A Triton cache entry's metadata as read (docs/json-schema.md, "triton").
static json tritonToJson(const TritonInfo &t) {
  auto optional = [](const std::optional<int> &v) { return v ? json(*v) : json(nullptr); };
  return {{"function", t.function},
          {"version", t.version.empty() ? json(nullptr) : json(t.version)},
          {"backend", t.backend},
          {"target_arch", t.target},
          {"warp_size", t.warp_size},
          {"num_warps", t.num_warps},
          {"num_stages", t.num_stages},
          {"num_ctas", t.num_ctas},
          {"shared", t.shared},
          {"waves_per_eu", optional(t.waves_per_eu)},
          {"matrix_instr_nonkdim", optional(t.matrix_instr_nonkdim)},
          {"kpack", optional(t.kpack)},
          {"maxnreg", optional(t.maxnreg)},
          {"python_file", t.python_file.empty() ? json(nullptr) : json(t.python_file)},
          {"python_line", t.python_line ? json(t.python_line) : json(nullptr)},
          {"hash", t.hash.empty() ? json(nullptr) : json(t.hash)},
          {"key", t.key}};
}

json reportToJson(const Report &report) {
  json kernels = json::array();
  for (const KernelReport &k : report.kernels) {
    if (k.cuda()) {
      kernels.push_back(nvidiaKernelToJson(k));
      continue;
    }
    if (k.intel()) {
      kernels.push_back(intelKernelToJson(k));
      continue;
    }
    const KernelRecord &r = k.record;
    const AmdKernelModel &m = *k.amd();
    json occ = occupancyToJson(m.occupancy, m.compiler ? std::optional<int>(m.compiler->printed) : std::nullopt);
    occ["workgroup_size"] = k.launch.block_size;
    occ["workgroup_size_source"] = blockSizeSourceName(k.launch.source);
    occ["dynamic_lds_bytes"] = k.launch.dynamic_shared;
    occ["dynamic_lds_source"] = dynamicSharedSourceName(k.launch.dynamic_source);
    if (std::string why = compilerExplanation(m, report.compiler_version); !why.empty()) occ["explanation"] = why;
    if (m.occupancy.limiter == Limiter::Invalid)
      occ["invalid_reason"] = k.impossible.empty() ? amdLaunchInvalidText(k.launch) : k.impossible;
    auto optional = [&](Field f) { return r.has(f) ? json(r.value(f)) : json(nullptr); };
    kernels.push_back({
        {"vendor", vendorName(r.vendor)},
        {"name", r.name},
        {"demangled", r.demangled},
        {"arch", r.arch},
        {"file", k.display_file},
        {"line", r.line},
        {fieldKey(Field::Vgprs), optional(Field::Vgprs)},
        {fieldKey(Field::Agprs), r.has(Field::Agprs) || missing(k, Field::Agprs) ? optional(Field::Agprs) : json(0)},
        {fieldKey(Field::VgprsTotal), m.unresolved || k.summary.limiter == Limiter::Unknown
                                          ? optional(Field::VgprsTotal)
                                          : json(m.occupancy.vgprs_total)},
        {fieldKey(Field::Sgprs), optional(Field::Sgprs)},
        {fieldKey(Field::ScratchBytes), optional(Field::ScratchBytes)},
        {fieldKey(Field::VgprSpills), optional(Field::VgprSpills)},
        {fieldKey(Field::SgprSpills), optional(Field::SgprSpills)},
        {fieldKey(Field::LdsBytes), optional(Field::LdsBytes)},
        {fieldKey(Field::MaxWorkgroupSize),
         r.has(Field::MaxWorkgroupSize) ? json(r.value(Field::MaxWorkgroupSize)) : json(nullptr)},
        {fieldKey(Field::WaveSize), r.has(Field::WaveSize) ? json(r.value(Field::WaveSize)) : json(nullptr)},
        {fieldKey(Field::DynamicStack), r.value(Field::DynamicStack) != 0},
        {fieldKey(Field::AgprCopies), r.has(Field::AgprCopies) ? json(r.value(Field::AgprCopies)) : json(nullptr)},
        {fieldKey(Field::MfmaInstructions),
         r.has(Field::MfmaInstructions) ? json(r.value(Field::MfmaInstructions)) : json(nullptr)},
        {"hidden_agpr_spills", m.hidden_agpr_spills},
        {"unresolved",
         [&] {
           json fields = json::array();
           for (Field f : r.unresolved) fields.push_back(fieldKey(f));
           return fields;
         }()},
        {"unknown", unknownFields(k)},
        {"occupancy", m.unresolved || k.summary.limiter == Limiter::Unknown ? json(nullptr) : occ},
        {"sources", r.sources},
        {"warnings", r.warnings},
    });
  }
  for (std::size_t k = 0; k < report.kernels.size(); ++k)  // one entry per kernel, in order
    if (report.kernels[k].record.triton) kernels[k]["triton"] = tritonToJson(*report.kernels[k].record.triton);
  return {
      {"schema_version", kSchemaVersion},
      {"regscope_version", kRegscopeVersion},
      {"compiler", {{"path", report.compiler_path}, {"version", report.compiler_version}}},
      {"inputs", report.inputs},
      {"config", report.config.empty() ? json(nullptr) : json(report.config)},
      {"kernels", kernels},
      {"warnings", report.warnings},
      {"notes", report.notes},
      {"errors",
       [&] {
         json errors = json::array();
         for (const InputError &e : report.errors)
           errors.push_back(
               {{"file", e.file}, {"arch", e.arch.empty() ? json(nullptr) : json(e.arch)}, {"message", e.message}});
         return errors;
       }()},
  };
}

}  // namespace regscope
