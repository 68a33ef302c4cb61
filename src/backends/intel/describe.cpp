// What the views print of an Intel kernel: its kernel-table section and
// notes, its JSON object and its next step in words; and Intel's GRF rule
// over a report's small and large GRF records of a kernel.
#include "regscope/backends/intel/describe.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#include "regscope/backends/intel/phrases.h"
#include "regscope/describe/phrases.h"

namespace regscope {

using nlohmann::json;

json intelOccupancyJson(const IntelOccupancy &occ, const IntelDevice &device, const IntelResources &r) {
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

std::string percentText(double fraction) { return std::to_string(static_cast<int>(fraction * 100 + 0.5)) + "%"; }

Table intelTable(const std::vector<const KernelReport *> &kernels) {
  const bool rule = std::any_of(kernels.begin(), kernels.end(), [](const KernelReport *k) {
    return std::get<IntelKernelModel>(k->model).grf_recommendation.has_value();
  });
  Table table = kernelTable({{"SIMD", fieldKey(Field::SimdSize), true},
                             {"GRF", fieldKey(Field::GrfCount), true},
                             {"SPILL", fieldKey(Field::SpillBytes), true},
                             {"SCRATCH", fieldKey(Field::ScratchPerThread), true},
                             {"SLM", fieldKey(Field::SlmBytes), true},
                             {"BAR", fieldKey(Field::Barriers), true},
                             {"WG", "work_group_size", true},
                             {"THR/EU", "threads_per_eu", true},
                             {"WG/XE", "work_groups_per_xe_core", true},
                             {"THREADS/XE", "threads", true, Show::Text},
                             {"", "threads_per_xe_core", true, Show::Data},
                             {"", "max_thread_slots", true, Show::Data},
                             {"OCC", "occupancy_percent", true},
                             {"LIMITER", "limiter"},
                             {"NEXT STEP", "next_step"}});
  if (rule) table.columns.push_back({"GRF RULE", "grf_recommendation"});
  // Fitting the terminal: LIMITER is left out last, NEXT STEP names the same resource.
  fitColumns(table, {"SIMD", "SLM", "WG", "SCRATCH", "BAR"}, {"BAR", "SCRATCH", "THR/EU", "LIMITER"});
  for (const KernelReport *k : kernels) {
    const KernelRecord &r = k->record;
    const IntelKernelModel &m = std::get<IntelKernelModel>(k->model);
    const IntelOccupancy &occ = m.occupancy;
    const bool none = occ.limiter == Limiter::Unknown || !k->impossible.empty();
    std::vector<Cell> row = {
        r.has(Field::SimdSize) ? Cell::count(r.value(Field::SimdSize)) : Cell("?"),
        r.has(Field::GrfCount) ? Cell::count(r.value(Field::GrfCount)) : Cell("?"),
        m.spill_known ? Cell(bytesText(m.spill_bytes), m.spill_bytes) : Cell("?"),
        Cell(bytesText(r.value(Field::ScratchPerThread)), r.value(Field::ScratchPerThread)),
        Cell(bytesText(r.value(Field::SlmBytes)), r.value(Field::SlmBytes)),
        Cell::count(m.resources.barriers),
        Cell::count(m.resources.work_group_size),
        none ? Cell("?") : Cell::count(occ.threads_per_eu),
        none ? Cell("?") : Cell::count(occ.work_groups_per_xe_core),
        (none ? std::string("?") : std::to_string(occ.threads_per_xe_core)) + "/" +
            std::to_string(occ.max_thread_slots),
        none ? Cell("?") : Cell::count(occ.threads_per_xe_core),
        Cell::count(occ.max_thread_slots),
        none ? Cell("?") : Cell(percentText(occ.fraction), static_cast<int>(occ.fraction * 100 + 0.5)),
        limiterName(occ.limiter),
        occ.limiter == Limiter::Unknown ? unknownText(*k)
        : !k->impossible.empty()        ? "cannot launch: " + k->impossible
                                        : intelNextStepText(occ, m.device, m.resources)};
    if (rule) row.push_back(m.grf_recommendation ? grfModeName(m.grf_recommendation->mode) : "");
    addKernelRow(table, *k, std::move(row));
  }
  return table;
}

// ": with 256 GRF it spills 0 bytes, at 18 instead of 36 threads/Xe-core": the
// large-GRF record of the same kernel against the small one, `k`.
std::string largeGrfTrade(const KernelReport &k, const std::vector<const KernelReport *> &kernels) {
  const IntelKernelModel &small = std::get<IntelKernelModel>(k.model);
  for (const KernelReport *other : kernels) {
    const IntelKernelModel &large = std::get<IntelKernelModel>(other->model);
    if (other->record.name != k.record.name || other->record.file != k.record.file ||
        large.target.device != small.target.device || large.target.grf != GrfMode::Large)
      continue;
    return "; with " + std::to_string(large.resources.grf_count) + " GRF it spills " +
           std::to_string(large.spill_bytes) + ", at " + std::to_string(large.occupancy.threads_per_xe_core) +
           " instead of " + std::to_string(small.occupancy.threads_per_xe_core) + " threads/Xe-core";
  }
  return "";
}

Notes intelNotes(const std::vector<const KernelReport *> &kernels) {
  NoteList notes;
  int assumed = 0;  // the work-group size assumed for kernels without a required one
  for (const KernelReport *k : kernels) {
    const KernelRecord &r = k->record;
    const IntelKernelModel &m = std::get<IntelKernelModel>(k->model);
    if (m.spill_bytes > 0) {
      std::string note = "spills " + std::to_string(m.spill_bytes) + " bytes per thread";
      if (r.has(Field::SpillGrfs)) note += " (" + std::to_string(r.value(Field::SpillGrfs)) + " GRF)";
      note += " to scratch memory";
      if (m.target.grf == GrfMode::Small && m.device.threads_per_eu_large > 0 && !m.grf_recommendation)
        note += "; --grf both compares large GRF mode (" + std::to_string(m.device.grf_large) + " per thread)";
      notes.add(*k, note);
    } else if (m.spill_known && r.value(Field::ScratchPerThread) > 0) {
      notes.add(*k, std::to_string(r.value(Field::ScratchPerThread)) +
                        " bytes of scratch per thread without spills: private memory (arrays the compiler could not "
                        "keep in registers)");
    }
    if (m.grf_recommendation && m.target.grf == GrfMode::Small && m.grf_recommendation->mode == GrfMode::Large)
      notes.add(*k, "Intel's GRF rule picks large GRF mode: " + grfReasonText(*m.grf_recommendation) +
                        largeGrfTrade(*k, kernels));
    if (r.value(Field::HasStackCalls)) notes.add(*k, "makes stack calls; scratch holds their frames");
    if (k->launch.source == BlockSizeSource::Default) assumed = k->launch.block_size;
    if (k->launch.source == BlockSizeSource::Config || k->launch.source == BlockSizeSource::LaunchSite)
      notes.add(*k, launchNote(k->launch));
  }
  if (std::any_of(kernels.begin(), kernels.end(),
                  [](const KernelReport *k) { return std::get<IntelKernelModel>(k->model).grf_recommendation; }))
    notes.addLine(
        "GRF RULE is Intel's choice between the modes: large GRF where small GRF spills, else small for its "
        "threads per EU");
  if (assumed)
    notes.addLine("WG is the kernel's reqd_work_group_size, else an assumed " + std::to_string(assumed) +
                  " work-items: pass --block-size for your launch");
  if (std::string line = dynamicSharedFlagLine(kernels.front()->launch, "SLM per work-group"); !line.empty())
    notes.addLine(line);
  return notes.build();
}

}  // namespace

KernelSection intelKernelSection(const std::vector<const KernelReport *> &kernels) {
  return {intelTable(kernels), intelNotes(kernels)};
}

json intelKernelJson(const KernelReport &k) {
  const KernelRecord &r = k.record;
  const IntelKernelModel &m = std::get<IntelKernelModel>(k.model);
  json occ = intelOccupancyJson(m.occupancy, m.device, m.resources);
  if (!k.impossible.empty()) occ["invalid_reason"] = k.impossible;
  occ["work_group_size"] = k.launch.block_size;
  occ["work_group_size_source"] = blockSizeSourceName(k.launch.source);
  occ["dynamic_slm_bytes"] = k.launch.dynamic_shared;
  json rule = nullptr;
  if (m.grf_recommendation)
    rule = {{"mode", grfModeName(m.grf_recommendation->mode)},
            {"reason", grfReasonName(m.grf_recommendation->reason)},
            {"small_grf_spill_bytes", m.grf_recommendation->small_grf_spill_bytes}};
  json kernel = kernelJsonBase(k);
  kernel.update({{"device", m.target.device},
                 {"grf_mode", grfModeName(m.target.grf)},
                 {fieldKey(Field::GrfCount), figureJson(r, Field::GrfCount)},
                 {fieldKey(Field::SimdSize), figureJson(r, Field::SimdSize)},
                 {"spill_bytes", m.spill_known ? nlohmann::json(m.spill_bytes) : nlohmann::json()},
                 {fieldKey(Field::SpillGrfs), figureJson(r, Field::SpillGrfs)},
                 {fieldKey(Field::ScratchPerThread), r.value(Field::ScratchPerThread)},
                 {fieldKey(Field::GlobalPrivatePerThread), r.value(Field::GlobalPrivatePerThread)},
                 {fieldKey(Field::PrivateBytes), figureJson(r, Field::PrivateBytes)},
                 {fieldKey(Field::SlmBytes), r.value(Field::SlmBytes)},
                 {fieldKey(Field::Barriers), r.value(Field::Barriers)},
                 {"required_work_group_size", figureJson(r, Field::MaxWorkgroupSize)},
                 {fieldKey(Field::HasStackCalls), r.value(Field::HasStackCalls) != 0},
                 {fieldKey(Field::EuThreadCount), figureJson(r, Field::EuThreadCount)},
                 {"occupancy", k.summary.limiter == Limiter::Unknown ? json(nullptr) : occ},
                 {"grf_recommendation", rule}});
  return kernel;
}

std::string intelNextStep(const KernelReport &k) {
  const IntelKernelModel &m = std::get<IntelKernelModel>(k.model);
  return intelNextStepText(m.occupancy, m.device, m.resources);
}

void recommendGrfModes(const std::vector<KernelReport *> &kernels) {
  // (file, kernel, device) -> the small and large GRF records
  std::map<std::tuple<std::string, std::string, std::string>, std::pair<KernelReport *, KernelReport *>> pairs;
  for (KernelReport *k : kernels) {
    const IntelKernelModel *intel = &std::get<IntelKernelModel>(k->model);
    if (intel->target.grf == GrfMode::Auto) continue;
    auto &pair = pairs[{k->record.file, k->record.name, intel->target.device}];
    (intel->target.grf == GrfMode::Small ? pair.first : pair.second) = k;
  }
  for (auto &[key, pair] : pairs) {
    if (!pair.first || !pair.second) continue;
    const IntelKernelModel &small = std::get<IntelKernelModel>(pair.first->model);
    if (!small.spill_known) continue;  // no rule on a spill figure nobody gave
    const GrfRecommendation rule = recommendGrfMode(small.device, small.spill_bytes);
    for (KernelReport *k : {pair.first, pair.second}) std::get<IntelKernelModel>(k->model).grf_recommendation = rule;
  }
}

}  // namespace regscope
