// What the views print of an AMD kernel: its kernel-table section and notes,
// its JSON object, its next step and register cliff in words.
#include "regscope/backends/amd/describe.h"

#include <algorithm>

#include "allocation.h"
#include "regscope/backends/amd/amdgpu_occupancy.h"
#include "regscope/backends/amd/phrases.h"
#include "regscope/describe/phrases.h"

namespace regscope {

using nlohmann::json;

json amdOccupancyJson(const Occupancy &occ, std::optional<int> compiler_reported) {
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

namespace {

// The LDS a workgroup gets: the kernel's static LDS, and the dynamic LDS its
// launch passes after a "+" ("0+32K"; "0+?" when the launch was not read).
// The number (CSV, lds_bytes) stays the static figure the compiler wrote.
Cell ldsCell(const KernelReport &k) {
  Cell cell = bytesCell(k, Field::LdsBytes);
  if (cell.text != "?")
    cell.text = staticPlusDynamic(k.record.value(Field::LdsBytes), k.launch.dynamic_shared,
                                  !k.launch.dynamic_unread_at.empty());
  return cell;
}

std::string headroomText(const KernelReport &k, const Occupancy &occ) {
  std::string text = "+" + std::to_string(occ.headroom.vgprs) + " VGPRs";
  if (k.record.value(Field::LdsBytes) > 0 || occ.limiter == Limiter::Lds)
    text += ", +" + bytesText(occ.headroom.lds_bytes) + " LDS";
  if (occ.limiter == Limiter::Sgpr || (occ.headroom.sgprs_can_limit && occ.headroom.sgprs < occ.headroom.vgprs))
    text += ", +" + std::to_string(occ.headroom.sgprs) + " SGPRs";
  return text;
}

// Why occupancy counts more VGPRs than the architectural count: the AGPRs
// beside them, and the padding the compiler added to the descriptor's
// allocation (amdgpu-waves-per-eu), each said with its figures.
std::string allocationText(const KernelRecord &r, int counted) {
  std::string text = "occupancy counts " + std::to_string(counted) + " VGPRs, ";
  const bool padded = paddedFrom(r).has_value();
  std::string uses = "the code uses " + (r.has(Field::VgprsUsed) ? std::to_string(r.value(Field::VgprsUsed)) : "?");
  if (r.value(Field::Agprs) > 0)
    uses += " (" + (r.has(Field::Vgprs) ? std::to_string(r.value(Field::Vgprs)) : "?") + " VGPRs and " +
            std::to_string(r.value(Field::Agprs)) + " AGPRs" +
            (r.has(Field::AccumOffset) ? ", from v" + std::to_string(r.value(Field::AccumOffset)) : "") + ")";
  if (padded) {
    // The figure once: "counts the 264 VGPRs the kernel descriptor allocates", and the descriptor's
    // own figure beside it only where the count differs (the hardware's granule on top).
    const std::int64_t allocated = r.value(Field::VgprsTotal);
    return "occupancy counts the " + std::to_string(counted) + " VGPRs the kernel descriptor allocates" +
           (allocated != counted ? " (" + std::to_string(allocated) + " before the hardware's granule)" : "") + "; " +
           uses +
           ": the compiler padded the allocation to the limit amdgpu-waves-per-eu sets (Triton's waves_per_eu), " +
           "and the hardware allocates the padding too";
  }
  if (r.has(Field::VgprsTotal) || r.has(Field::VgprsUsed)) return text + "the allocation; " + uses;
  return text + "the allocation of its VGPRs and AGPRs in one file";
}

// A figure only some sources give (gfx9's SGPR allocation): unknown where not read, never 0.
Cell readCell(const KernelRecord &r, Field f) { return r.has(f) ? Cell::count(r.value(f)) : Cell("?"); }

// Why occupancy counts more SGPRs than the code uses (gfx9): the descriptor's
// allocation, and what made it larger.
std::string sgprAllocationText(const KernelRecord &r, SgprAllocation why, int counted) {
  const int granules = (counted + kGfx9SgprGranule - 1) / kGfx9SgprGranule;
  return "occupancy counts the " + std::to_string(counted) + " SGPRs the kernel descriptor allocates" +
         (counted % kGfx9SgprGranule ? ", " + std::to_string(granules * kGfx9SgprGranule) +
                                           " in the hardware's granules of " + std::to_string(kGfx9SgprGranule)
                                     : std::string()) +
         "; the code uses " + std::to_string(r.value(Field::Sgprs)) +
         (why == SgprAllocation::Padded
              ? ": the compiler padded the allocation to the limit amdgpu-waves-per-eu sets (Triton's waves_per_eu)"
              : ": the assembler reserves SGPRs (VCC, XNACK, flat scratch) beside the compiler's count");
}

// The next step of a modelled kernel. When the compiler padded the allocation
// and the VGPRs limit, freeing VGPRs in the code changes nothing: the padding
// is what to lower, and the step says what the code's own use would give.
std::string amdStep(const KernelRecord &r, const AmdKernelModel &m) {
  const std::optional<std::int64_t> used = paddedFrom(r);
  if (!used || m.occupancy.limiter != Limiter::Vgpr) return nextStepText(m.occupancy);
  KernelResources unpadded = m.resources;
  unpadded.vgprs_total = static_cast<int>(*used);
  const int waves = computeOccupancy(m.arch, unpadded).waves_per_simd;
  if (waves <= m.occupancy.waves_per_simd) return nextStepText(m.occupancy);
  return "lower the waves-per-eu padding: " + std::to_string(*used) + " VGPRs used -> " + std::to_string(waves) +
         " waves/SIMD";
}

Table amdTable(const std::vector<const KernelReport *> &kernels) {
  Table table = kernelTable({{"VGPR", fieldKey(Field::Vgprs), true},
                             {"", fieldKey(Field::VgprsTotal), true, Show::Data},
                             {"AGPR", fieldKey(Field::Agprs), true},
                             {"SGPR", fieldKey(Field::Sgprs), true},
                             {"", fieldKey(Field::SgprsAllocated), true, Show::Data},
                             {"", fieldKey(Field::SgprsRequested), true, Show::Data},
                             {"SCRATCH", fieldKey(Field::ScratchBytes), true},
                             {"SPILL V/S", "spills", true, Show::Text},
                             {"", fieldKey(Field::VgprSpills), true, Show::Data},
                             {"", fieldKey(Field::SgprSpills), true, Show::Data},
                             {"LDS", fieldKey(Field::LdsBytes), true},
                             {"WAVES", "occupancy", true, Show::Text},  // waves/SIMD (or /CU), as "4/8"
                             {"", "waves_per_simd", true, Show::Data},
                             {"", "max_waves_per_simd", true, Show::Data},
                             {"", "waves_per_cu", true, Show::Data},
                             {"LIMITER", "limiter"},
                             {"NEXT STEP", "next_step"},
                             {"HEADROOM", "headroom"}});
  // Fitting the terminal: LIMITER is left out last, NEXT STEP names the same resource.
  fitColumns(table, {"AGPR", "SCRATCH", "SPILL V/S", "LDS"}, {"HEADROOM", "AGPR", "SCRATCH", "SGPR", "LIMITER"});
  for (const KernelReport *k : kernels) {
    const KernelRecord &r = k->record;
    const AmdKernelModel &m = std::get<AmdKernelModel>(k->model);
    const Occupancy &occ = m.occupancy;
    const bool invalid = occ.limiter == Limiter::Invalid;
    // No occupancy: figures open until link, one not read, or one the target cannot have.
    const bool none = m.unresolved || invalid || occ.limiter == Limiter::Unknown;
    // Code objects with AGPRs record only the allocation, not the arch count.
    Cell vgpr = readCell(r, Field::Vgprs);
    if (!none && (!r.has(Field::Vgprs) || occ.vgprs_total != r.value(Field::Vgprs)))
      vgpr.text += " (" + std::to_string(occ.vgprs_total) + ")";
    Cell sgpr = figureCell(*k, Field::Sgprs);
    if (!none && shownSgprAllocation(r, m.arch)) sgpr.text += " (" + std::to_string(occ.sgprs_total) + ")";
    const std::string waves = none ? "?" : std::to_string(occ.waves_per_simd);
    std::string next = m.unresolved                        ? "unresolved until link"
                       : invalid && !k->impossible.empty() ? "cannot launch: " + k->impossible
                       : invalid                           ? "cannot launch: " + amdInvalidText(m, k->launch)
                       : occ.limiter == Limiter::Unknown && k->unknown.empty()
                           ? "unknown: the dynamic LDS its launch passes"
                       : occ.limiter == Limiter::Unknown ? unknownText(*k)
                                                         : amdStep(r, m);
    // A block size its launch passes but regscope could not evaluate: the
    // occupancy is modelled at the assumed size and marked (the note says which launch).
    const char *assumed = !none && !k->launch.block_size_unread_at.empty() ? "*" : "";
    addKernelRow(
        table, *k,
        {vgpr, none ? readCell(r, Field::VgprsTotal) : Cell::count(occ.vgprs_total),
         r.has(Field::Agprs) ? Cell::count(r.value(Field::Agprs)) : figureCell(*k, Field::Agprs), sgpr,
         readCell(r, Field::SgprsAllocated), readCell(r, Field::SgprsRequested), figureCell(*k, Field::ScratchBytes),
         figurePair(*k, Field::VgprSpills, Field::SgprSpills), figureCell(*k, Field::VgprSpills),
         figureCell(*k, Field::SgprSpills), ldsCell(*k), waves + "/" + std::to_string(occ.max_waves_per_simd) + assumed,
         none ? Cell("?") : Cell::count(occ.waves_per_simd), Cell::count(occ.max_waves_per_simd),
         none ? Cell("?") : Cell::count(occ.waves_per_cu), limiterName(occ.limiter), next,
         none ? "-" : headroomText(*k, occ)});
  }
  return table;
}

Notes amdNotes(const std::vector<const KernelReport *> &kernels, const std::string &compiler_version) {
  NoteList notes;
  for (const KernelReport *k : kernels) {
    const KernelRecord &r = k->record;
    const AmdKernelModel &m = std::get<AmdKernelModel>(k->model);
    const bool modelled =
        !m.unresolved && m.occupancy.limiter != Limiter::Invalid && m.occupancy.limiter != Limiter::Unknown;
    if (modelled && (!r.has(Field::Vgprs) || m.occupancy.vgprs_total != r.value(Field::Vgprs)))
      notes.add(*k, allocationText(r, m.occupancy.vgprs_total));
    if (const std::optional<SgprAllocation> why = shownSgprAllocation(r, m.arch); modelled && why)
      notes.add(*k, sgprAllocationText(r, *why, m.occupancy.sgprs_total));
    if (r.value(Field::VgprSpills) || r.value(Field::SgprSpills)) notes.add(*k, "spills registers to scratch memory");
    if (m.unresolved) {
      std::string fields;
      for (Field f : r.unresolved) fields += (fields.empty() ? "" : ", ") + std::string(fieldKey(f));
      notes.add(*k, fields +
                        " depend on functions in other translation units (LLVM 20+ expressions): the linked code "
                        "object has them (regscope parse app)");
    }
    if (m.hidden_agpr_spills)
      notes.add(*k,
                "parks " + std::to_string(r.value(Field::Agprs)) + " VGPRs in AGPRs with no MFMA in the kernel (" +
                    std::to_string(r.value(Field::AgprCopies)) +
                    " v_accvgpr copies): a spill the compiler reports as 0; occupancy follows max(VGPRs, AGPRs) = " +
                    std::to_string(m.occupancy.vgprs_total));
    if (r.value(Field::DynamicStack)) notes.add(*k, "uses a dynamic stack; its scratch size is a guess");
    if (std::string why = compilerExplanation(m, compiler_version); !why.empty()) notes.add(*k, why);
    if (m.occupancy.limiter == Limiter::Invalid)
      notes.add(*k, "cannot launch: " + (k->impossible.empty() ? amdInvalidText(m, k->launch) : k->impossible));
    else if (m.occupancy.limiter == Limiter::Unknown && k->unknown.empty())
      notes.add(*k, "occupancy unknown: " + launchUnknown(k->launch, "--dynamic-lds"));
    else if (m.occupancy.limiter == Limiter::Unknown)
      notes.add(*k, "occupancy unknown: " + unknownText(*k).substr(9) + " (the compiler's output lacks them)");
    else if (m.occupancy.counts_per_cu && !m.unresolved &&
             m.occupancy.waves_per_cu < m.occupancy.max_waves_per_cu)  // slots left idle: say so
      notes.add(
          *k, "fills " + waveSlotsText(m.occupancy, (k->launch.block_size + m.arch.wave_size - 1) / m.arch.wave_size));
    const bool launch_matters = m.occupancy.limiter == Limiter::Lds || m.occupancy.limiter == Limiter::Workgroup ||
                                m.occupancy.counts_per_cu || !m.not_resident.empty();
    if (k->record.triton)
      notes.add(*k, tritonNote(*k, bytesText(static_cast<int>(k->record.triton->shared)) + " of dynamic LDS"));
    else if (!k->launch.block_size_unread_at.empty() && m.occupancy.limiter != Limiter::Unknown)
      notes.add(*k, "occupancy marked * is an assumption: " + launchUnknown(k->launch, "--dynamic-lds"));
    else if (launch_matters || k->launch.source == BlockSizeSource::Config ||
             k->launch.source == BlockSizeSource::LaunchSite)
      notes.add(*k, launchNote(k->launch));
    if (std::string note = dynamicSharedNote(k->launch, "LDS"); !note.empty()) notes.add(*k, note);
  }
  return notes.build();
}

// "1 more VGPR lowers", "3 more VGPRs lower"
std::string more(int count, const char *what) {
  return std::to_string(count) + " more " + what + (count == 1 ? " lowers" : "s lower");
}

}  // namespace

KernelSection amdKernelSection(const std::vector<const KernelReport *> &kernels, const std::string &compiler_version) {
  return {amdTable(kernels), amdNotes(kernels, compiler_version)};
}

namespace {

// No occupancy although every figure was read: a launch's size was not (a
// dynamic LDS regscope could not evaluate). The occupancy object says where,
// with no figure in it; with a figure unknown or unresolved it is null.
json launchOnlyJson(const KernelReport &k, const AmdKernelModel &m, const json &occ) {
  if (m.unresolved || !k.unknown.empty() || k.launch.dynamic_unread_at.empty()) return nullptr;
  json j = {{"waves_per_simd", nullptr}, {"max_waves_per_simd", occ["max_waves_per_simd"]}, {"limiter", "unknown"}};
  for (const char *key : {"workgroup_size", "workgroup_size_source", "dynamic_lds_bytes", "dynamic_lds_source",
                          "block_size_unread_at", "dynamic_lds_unread_at"})
    j[key] = occ[key];
  j["dynamic_lds_bytes"] = nullptr;  // not read: unknown, never 0
  return j;
}

}  // namespace

json amdKernelJson(const KernelReport &k, const std::string &compiler_version) {
  const KernelRecord &r = k.record;
  const AmdKernelModel &m = std::get<AmdKernelModel>(k.model);
  json occ = amdOccupancyJson(m.occupancy, m.compiler ? std::optional<int>(m.compiler->printed) : std::nullopt);
  occ["workgroup_size"] = k.launch.block_size;
  occ["workgroup_size_source"] = blockSizeSourceName(k.launch.source);
  occ["dynamic_lds_bytes"] = k.launch.dynamic_shared;
  occ["dynamic_lds_source"] = dynamicSharedSourceName(k.launch.dynamic_source);
  // "FILE:LINE" of a launch whose size regscope could not evaluate, or null.
  occ["block_size_unread_at"] =
      k.launch.block_size_unread_at.empty() ? json(nullptr) : json(k.launch.block_size_unread_at);
  occ["dynamic_lds_unread_at"] = k.launch.dynamic_unread_at.empty() ? json(nullptr) : json(k.launch.dynamic_unread_at);
  if (std::string why = compilerExplanation(m, compiler_version); !why.empty()) occ["explanation"] = why;
  if (m.occupancy.limiter == Limiter::Invalid)
    occ["invalid_reason"] = k.impossible.empty() ? amdInvalidText(m, k.launch) : k.impossible;
  const bool unknown_agprs = std::find(k.unknown.begin(), k.unknown.end(), Field::Agprs) != k.unknown.end();
  const bool no_occupancy = m.unresolved || k.summary.limiter == Limiter::Unknown;
  // The allocation the model counted; a launch over the kernel's bound counted none: the record's.
  const bool counted = !no_occupancy && !(m.occupancy.limiter == Limiter::Invalid && m.occupancy.vgprs_total == 0);
  json unresolved = json::array();
  for (Field f : r.unresolved) unresolved.push_back(fieldKey(f));
  json kernel = kernelJsonBase(k);
  kernel.update({
      {fieldKey(Field::Vgprs), figureJson(r, Field::Vgprs)},
      {fieldKey(Field::Agprs), r.has(Field::Agprs) || unknown_agprs ? figureJson(r, Field::Agprs) : json(0)},
      {fieldKey(Field::VgprsTotal), counted ? json(m.occupancy.vgprs_total) : figureJson(r, Field::VgprsTotal)},
      {fieldKey(Field::VgprsUsed), figureJson(r, Field::VgprsUsed)},
      {fieldKey(Field::AccumOffset), figureJson(r, Field::AccumOffset)},
      {fieldKey(Field::Sgprs), figureJson(r, Field::Sgprs)},
      {fieldKey(Field::SgprsAllocated), figureJson(r, Field::SgprsAllocated)},
      {fieldKey(Field::SgprsRequested), figureJson(r, Field::SgprsRequested)},
      {fieldKey(Field::ScratchBytes), figureJson(r, Field::ScratchBytes)},
      {fieldKey(Field::VgprSpills), figureJson(r, Field::VgprSpills)},
      {fieldKey(Field::SgprSpills), figureJson(r, Field::SgprSpills)},
      {fieldKey(Field::LoopSpills), figureJson(r, Field::LoopSpills)},
      {"loop_spill_site", loopSpillSiteJson(r)},
      {fieldKey(Field::LdsBytes), figureJson(r, Field::LdsBytes)},
      {fieldKey(Field::MaxWorkgroupSize), figureJson(r, Field::MaxWorkgroupSize)},
      {fieldKey(Field::WaveSize), figureJson(r, Field::WaveSize)},
      {fieldKey(Field::DynamicStack), r.value(Field::DynamicStack) != 0},
      {fieldKey(Field::AgprCopies), figureJson(r, Field::AgprCopies)},
      {fieldKey(Field::MfmaInstructions), figureJson(r, Field::MfmaInstructions)},
      {"hidden_agpr_spills", m.hidden_agpr_spills},
      {"unresolved", unresolved},
      {"occupancy", no_occupancy ? launchOnlyJson(k, m, occ) : occ},
  });
  return kernel;
}

std::string amdNextStep(const KernelReport &k) {
  const AmdKernelModel &m = std::get<AmdKernelModel>(k.model);
  if (m.unresolved) return "unresolved until link";
  if (m.occupancy.limiter == Limiter::Invalid) return "cannot launch: " + amdInvalidText(m, k.launch);
  return amdStep(k.record, m);
}

std::optional<std::string> amdRegisterCliff(const KernelReport &k, int registers) {
  const AmdKernelModel &amd = std::get<AmdKernelModel>(k.model);
  const Headroom &h = amd.occupancy.headroom;
  if (amd.occupancy.limiter == Limiter::Invalid) return std::nullopt;
  const int unit = amd.occupancy.counts_per_cu ? amd.occupancy.waves_per_cu : amd.occupancy.waves_per_simd;
  const std::string where = std::to_string(unit) + (amd.occupancy.counts_per_cu ? " waves/CU" : " waves/SIMD");
  if (h.vgprs < registers && amd.occupancy.waves_per_simd > 1)
    return more(h.vgprs + 1, "VGPR") + " the occupancy from " + where;
  if (h.sgprs_can_limit && h.sgprs < registers) return more(h.sgprs + 1, "SGPR") + " the occupancy from " + where;
  return std::nullopt;
}

std::optional<std::string> amdHiddenSpills(const KernelReport &k) {
  if (!std::get<AmdKernelModel>(k.model).hidden_agpr_spills) return std::nullopt;
  return std::to_string(k.record.value(Field::Agprs)) + " VGPRs parked in AGPRs without MFMA (" +
         std::to_string(k.record.value(Field::AgprCopies)) + " copies); the compiler reports 0 spills";
}

KernelFigures amdMeasuredFigures(const KernelReport &k) {
  const AmdKernelModel *amd = &std::get<AmdKernelModel>(k.model);
  const KernelRecord &r = k.record;
  const Occupancy &occ = amd->occupancy;
  KernelFigures f;
  f.mangled = r.name;
  f.demangled = r.demangled;
  f.arch = r.arch;
  f.file = k.display_file;
  f.line = r.line;
  f.vgprs = static_cast<int>(r.value(Field::Vgprs));
  f.agprs = static_cast<int>(r.value(Field::Agprs));
  f.vgprs_total = occ.vgprs_total ? occ.vgprs_total : static_cast<int>(r.value(Field::VgprsTotal));
  f.sgprs = static_cast<int>(r.value(Field::Sgprs));
  f.vgpr_spills = static_cast<int>(r.value(Field::VgprSpills));
  f.sgpr_spills = static_cast<int>(r.value(Field::SgprSpills));
  f.scratch_bytes = static_cast<int>(r.value(Field::ScratchBytes));
  if (r.has(Field::LoopSpills)) f.loop_spills = static_cast<int>(r.value(Field::LoopSpills));
  f.lds_bytes = static_cast<int>(r.value(Field::LdsBytes));
  f.waves_per_simd = occ.waves_per_simd;
  f.max_waves_per_simd = occ.max_waves_per_simd;
  if (occ.next) f.next_waves = occ.next->waves_per_simd;
  f.limiter = occ.limiter;
  f.workgroup_size = amd->resources.workgroup_size;
  if (occ.next && occ.next->lds_bytes_to_free > 0) {
    f.next_lds_bytes = amd->resources.lds_bytes - occ.next->lds_bytes_to_free;
    f.next_vgprs_to_free = occ.next->vgprs_to_free;
    f.next_sgprs_to_free = occ.next->sgprs_to_free;
  }
  return f;
}

}  // namespace regscope
