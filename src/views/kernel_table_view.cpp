// The kernel table: analyze, parse and kernels analyze. One row per (kernel,
// arch), a table per vendor, then notes on what a figure alone does not say.
#include <algorithm>

#include "phrases.h"
#include "regscope/gate/findings.h"
#include "regscope/support/version.h"
#include "regscope/views/views.h"
#include "report_json.h"

namespace regscope {
namespace {

using nlohmann::json;

// A figure for the table: "?" where no source could resolve it (LLVM 20+).
Cell figure(const KernelRecord &r, Field f) {
  if (r.isUnresolved(f)) return "?";
  return Cell::count(r.value(f));
}

std::string who(const KernelReport &k) { return shortKernelName(k.record.demangled) + " [" + k.record.arch + "]"; }

std::string headroomText(const KernelReport &k, const Occupancy &occ) {
  std::string text = "+" + std::to_string(occ.headroom.vgprs) + " VGPRs";
  if (k.record.value(Field::LdsBytes) > 0 || occ.limiter == Limiter::Lds)
    text += ", +" + bytesText(occ.headroom.lds_bytes) + " LDS";
  if (occ.limiter == Limiter::Sgpr) text += ", +" + std::to_string(occ.headroom.sgprs) + " SGPRs";
  return text;
}

Table cudaTable(const std::vector<const KernelReport *> &kernels) {
  Table table;
  table.columns = {{"KERNEL", "", false, Show::Text},
                   {"", "kernel", false, Show::Data},
                   {"", "name", false, Show::Data},
                   {"ARCH", "arch"},
                   {"LOCATION", "", false, Show::Text},
                   {"", "file", false, Show::Data},
                   {"", "line", true, Show::Data},
                   {"REGS", "registers", true},
                   {"SPILL ST/LD", "spills", true, Show::Text},
                   {"", "spill_store_bytes", true, Show::Data},
                   {"", "spill_load_bytes", true, Show::Data},
                   {"STACK", "stack_bytes", true},
                   {"SMEM", "shared_bytes", true},
                   {"BLOCK", "block_size", true},
                   {"BLOCKS/SM", "blocks_per_sm", true},
                   {"WARPS/SM", "warps", true, Show::Text},
                   {"", "warps_per_sm", true, Show::Data},
                   {"", "max_warps_per_sm", true, Show::Data},
                   {"LIMITER", "limiter"},
                   {"NEXT STEP", "next_step"}};
  for (const KernelReport *k : kernels) {
    const KernelRecord &r = k->record;
    const CudaKernelModel &m = *k->cuda();
    const CudaOccupancy &occ = m.occupancy;
    table.add({shortKernelName(r.demangled),
               r.demangled,
               r.name,
               r.arch,
               locationText(k->display_file, r.line),
               k->display_file,
               Cell::count(r.line),
               Cell::count(r.value(Field::Registers)),
               std::to_string(r.value(Field::SpillStoreBytes)) + "/" + std::to_string(r.value(Field::SpillLoadBytes)),
               Cell::count(r.value(Field::SpillStoreBytes)),
               Cell::count(r.value(Field::SpillLoadBytes)),
               Cell::count(r.value(Field::StackBytes)),
               Cell(bytesText(r.value(Field::SharedBytes)), r.value(Field::SharedBytes)),
               Cell::count(k->launch.block_size),
               Cell::count(occ.blocks_per_sm),
               std::to_string(occ.warps_per_sm) + "/" + std::to_string(occ.max_warps_per_sm),
               Cell::count(occ.warps_per_sm),
               Cell::count(occ.max_warps_per_sm),
               limiterName(occ.limiter),
               cudaNextStepText(occ, m.arch, m.resources)});
  }
  return table;
}

Notes cudaNotes(const std::vector<const KernelReport *> &kernels) {
  Notes notes;
  bool assumed = false;
  for (const KernelReport *k : kernels) {
    if (k->record.value(Field::SpillStoreBytes))
      notes.items.push_back(who(*k) + ": spills " + std::to_string(k->record.value(Field::SpillStoreBytes)) +
                            " bytes to local memory");
    assumed |= k->launch.source == BlockSizeSource::Default;
  }
  if (assumed)
    notes.items.push_back("BLOCK is the kernel's __launch_bounds__, else an assumed " +
                          std::to_string(kernels.front()->launch.block_size) +
                          " threads: pass --block-size for your launch");
  if (kernels.front()->launch.dynamic_shared)
    notes.items.push_back("with " + std::to_string(kernels.front()->launch.dynamic_shared) +
                          " bytes of dynamic shared memory per block");
  return notes;
}

Table amdTable(const std::vector<const KernelReport *> &kernels) {
  Table table;
  table.columns = {{"KERNEL", "", false, Show::Text},
                   {"", "kernel", false, Show::Data},
                   {"", "name", false, Show::Data},
                   {"ARCH", "arch"},
                   {"LOCATION", "", false, Show::Text},
                   {"", "file", false, Show::Data},
                   {"", "line", true, Show::Data},
                   {"VGPR", "vgprs", true},
                   {"", "vgprs_total", true, Show::Data},
                   {"AGPR", "agprs", true},
                   {"SGPR", "sgprs", true},
                   {"SCRATCH", "scratch_bytes", true},
                   {"SPILL V/S", "spills", true, Show::Text},
                   {"", "vgpr_spills", true, Show::Data},
                   {"", "sgpr_spills", true, Show::Data},
                   {"LDS", "lds_bytes", true},
                   {"OCCUPANCY", "occupancy", true, Show::Text},
                   {"", "waves_per_simd", true, Show::Data},
                   {"", "max_waves_per_simd", true, Show::Data},
                   {"LIMITER", "limiter"},
                   {"NEXT STEP", "next_step"},
                   {"HEADROOM", "headroom"}};
  for (const KernelReport *k : kernels) {
    const KernelRecord &r = k->record;
    const AmdKernelModel &m = *k->amd();
    const Occupancy &occ = m.occupancy;
    // Code objects with AGPRs record only the allocation, not the arch count.
    Cell vgpr = r.has(Field::Vgprs) ? Cell::count(r.value(Field::Vgprs)) : Cell("?");
    if (!m.unresolved && (!r.has(Field::Vgprs) || occ.vgprs_total != r.value(Field::Vgprs)))
      vgpr.text += " (" + std::to_string(occ.vgprs_total) + ")";
    const std::string waves = m.unresolved ? "?" : std::to_string(occ.waves_per_simd);
    table.add({shortKernelName(r.demangled),
               r.demangled,
               r.name,
               r.arch,
               locationText(k->display_file, r.line),
               k->display_file,
               Cell::count(r.line),
               vgpr,
               m.unresolved ? Cell("?") : Cell::count(occ.vgprs_total),
               figure(r, Field::Agprs),
               figure(r, Field::Sgprs),
               figure(r, Field::ScratchBytes),
               std::to_string(r.value(Field::VgprSpills)) + "/" + std::to_string(r.value(Field::SgprSpills)),
               Cell::count(r.value(Field::VgprSpills)),
               Cell::count(r.value(Field::SgprSpills)),
               Cell(bytesText(r.value(Field::LdsBytes)), r.value(Field::LdsBytes)),
               waves + "/" + std::to_string(occ.max_waves_per_simd),
               m.unresolved ? Cell("?") : Cell::count(occ.waves_per_simd),
               Cell::count(occ.max_waves_per_simd),
               limiterName(occ.limiter),
               m.unresolved ? "unresolved until link" : nextStepText(occ),
               m.unresolved ? "-" : headroomText(*k, occ)});
  }
  return table;
}

Notes amdNotes(const std::vector<const KernelReport *> &kernels, const std::string &compiler_version) {
  Notes notes;
  for (const KernelReport *k : kernels) {
    const KernelRecord &r = k->record;
    const AmdKernelModel &m = *k->amd();
    const std::string w = who(*k);
    if (r.has(Field::Vgprs) && m.occupancy.vgprs_total != r.value(Field::Vgprs))
      notes.items.push_back(w + ": occupancy counts " + std::to_string(m.occupancy.vgprs_total) +
                            " VGPRs (the allocation: AGPRs in the unified file, or padding the compiler added)");
    if (r.value(Field::VgprSpills) || r.value(Field::SgprSpills))
      notes.items.push_back(w + ": spills registers to scratch memory");
    if (m.unresolved) {
      std::string fields;
      for (Field f : r.unresolved) fields += (fields.empty() ? "" : ", ") + std::string(fieldKey(f));
      notes.items.push_back(w + ": " + fields +
                            " depend on functions in other translation units (LLVM 20+ expressions): the linked "
                            "code object has them (regscope parse app)");
    }
    if (m.hidden_agpr_spills)
      notes.items.push_back(w + ": parks " + std::to_string(r.value(Field::Agprs)) +
                            " VGPRs in AGPRs with no MFMA in the kernel (" +
                            std::to_string(r.value(Field::AgprCopies)) +
                            " v_accvgpr copies): a spill the compiler reports as 0; occupancy follows max(VGPRs, "
                            "AGPRs) = " +
                            std::to_string(m.occupancy.vgprs_total));
    if (r.value(Field::DynamicStack)) notes.items.push_back(w + ": uses a dynamic stack; its scratch size is a guess");
    if (std::string why = compilerExplanation(m, compiler_version); !why.empty()) notes.items.push_back(w + ": " + why);
    if (m.occupancy.limiter == Limiter::Lds || m.occupancy.limiter == Limiter::Workgroup)
      notes.items.push_back(w + ": assumes workgroups of " + std::to_string(k->launch.block_size) + " threads (" +
                            (k->launch.source == BlockSizeSource::Default
                                 ? "HIP's default maximum; set __launch_bounds__"
                                 : "the kernel's max flat workgroup size") +
                            ")");
  }
  return notes;
}

// ---- Intel ----

std::string percentText(double fraction) { return std::to_string(static_cast<int>(fraction * 100 + 0.5)) + "%"; }

Table intelTable(const std::vector<const KernelReport *> &kernels) {
  const bool rule = std::any_of(kernels.begin(), kernels.end(),
                                [](const KernelReport *k) { return k->intel()->grf_recommendation.has_value(); });
  Table table;
  table.columns = {{"KERNEL", "", false, Show::Text},
                   {"", "kernel", false, Show::Data},
                   {"", "name", false, Show::Data},
                   {"ARCH", "arch"},
                   {"LOCATION", "", false, Show::Text},
                   {"", "file", false, Show::Data},
                   {"", "line", true, Show::Data},
                   {"SIMD", "simd_size", true},
                   {"GRF", "grf_count", true},
                   {"SPILL", "spill_bytes", true},
                   {"SCRATCH", "scratch_per_thread", true},
                   {"SLM", "slm_bytes", true},
                   {"BAR", "barriers", true},
                   {"WG", "work_group_size", true},
                   {"THR/EU", "threads_per_eu", true},
                   {"WG/XE", "work_groups_per_xe_core", true},
                   {"THREADS/XE", "threads", true, Show::Text},
                   {"", "threads_per_xe_core", true, Show::Data},
                   {"", "max_thread_slots", true, Show::Data},
                   {"OCC", "occupancy_percent", true},
                   {"LIMITER", "limiter"},
                   {"NEXT STEP", "next_step"}};
  if (rule) table.columns.push_back({"GRF RULE", "grf_recommendation"});
  for (const KernelReport *k : kernels) {
    const KernelRecord &r = k->record;
    const IntelKernelModel &m = *k->intel();
    const IntelOccupancy &occ = m.occupancy;
    std::vector<Cell> row = {shortKernelName(r.demangled),
                             r.demangled,
                             r.name,
                             r.arch,
                             locationText(k->display_file, r.line),
                             k->display_file,
                             Cell::count(r.line),
                             Cell::count(m.resources.simd),
                             Cell::count(m.resources.grf_count),
                             Cell(bytesText(m.spill_bytes), m.spill_bytes),
                             Cell(bytesText(r.value(Field::ScratchPerThread)), r.value(Field::ScratchPerThread)),
                             Cell(bytesText(r.value(Field::SlmBytes)), r.value(Field::SlmBytes)),
                             Cell::count(m.resources.barriers),
                             Cell::count(m.resources.work_group_size),
                             Cell::count(occ.threads_per_eu),
                             Cell::count(occ.work_groups_per_xe_core),
                             std::to_string(occ.threads_per_xe_core) + "/" + std::to_string(occ.max_thread_slots),
                             Cell::count(occ.threads_per_xe_core),
                             Cell::count(occ.max_thread_slots),
                             Cell(percentText(occ.fraction), static_cast<int>(occ.fraction * 100 + 0.5)),
                             limiterName(occ.limiter),
                             intelNextStepText(occ, m.device, m.resources)};
    if (rule) row.push_back(m.grf_recommendation ? grfModeName(m.grf_recommendation->mode) : "");
    table.add(std::move(row));
  }
  return table;
}

// ": with 256 GRF it spills 0 bytes, at 18 instead of 36 threads/Xe-core": the
// large-GRF record of the same kernel against the small one, `k`.
std::string largeGrfTrade(const KernelReport &k, const std::vector<const KernelReport *> &kernels) {
  const IntelKernelModel &small = *k.intel();
  for (const KernelReport *other : kernels) {
    const IntelKernelModel &large = *other->intel();
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
  Notes notes;
  int assumed = 0;  // the work-group size assumed for kernels without a required one
  for (const KernelReport *k : kernels) {
    const KernelRecord &r = k->record;
    const IntelKernelModel &m = *k->intel();
    const std::string w = who(*k);
    if (m.spill_bytes > 0) {
      std::string note = w + ": spills " + std::to_string(m.spill_bytes) + " bytes per thread";
      if (r.has(Field::SpillGrfs)) note += " (" + std::to_string(r.value(Field::SpillGrfs)) + " GRF)";
      note += " to scratch memory";
      if (m.target.grf == GrfMode::Small && m.device.threads_per_eu_large > 0 && !m.grf_recommendation)
        note += "; --grf both compares large GRF mode (" + std::to_string(m.device.grf_large) + " per thread)";
      notes.items.push_back(note);
    } else if (r.value(Field::ScratchPerThread) > 0) {
      notes.items.push_back(w + ": " + std::to_string(r.value(Field::ScratchPerThread)) +
                            " bytes of scratch per thread without spills: private memory (arrays the compiler "
                            "could not keep in registers)");
    }
    if (m.grf_recommendation && m.target.grf == GrfMode::Small && m.grf_recommendation->mode == GrfMode::Large)
      notes.items.push_back(w + ": Intel's GRF rule picks large GRF mode: " + grfReasonText(*m.grf_recommendation) +
                            largeGrfTrade(*k, kernels));
    if (r.value(Field::HasStackCalls)) notes.items.push_back(w + ": makes stack calls; scratch holds their frames");
    if (k->launch.source == BlockSizeSource::Default) assumed = k->launch.block_size;
  }
  if (std::any_of(kernels.begin(), kernels.end(), [](const KernelReport *k) { return k->intel()->grf_recommendation; }))
    notes.items.push_back("GRF RULE is Intel's choice between the modes: large GRF where small GRF spills, else small "
                          "for its threads per EU");
  if (assumed)
    notes.items.push_back("WG is the kernel's reqd_work_group_size, else an assumed " + std::to_string(assumed) +
                          " work-items: pass --block-size for your launch");
  if (kernels.front()->launch.dynamic_shared)
    notes.items.push_back("with " + std::to_string(kernels.front()->launch.dynamic_shared) +
                          " bytes of dynamic SLM per work-group");
  return notes;
}

class KernelTableView : public View {
 public:
  KernelTableView(const Report &report, std::string title) : report_(report), title_(std::move(title)) {}

  Document document() const override {
    Document doc;
    if (report_.kernels.empty()) return doc.line(Line("no kernels found"));
    std::vector<const KernelReport *> cuda, amd, intel;
    for (const KernelReport &k : report_.kernels) (k.cuda() ? cuda : k.intel() ? intel : amd).push_back(&k);
    if (!cuda.empty()) doc.table(cudaTable(cuda)).notes(cudaNotes(cuda));
    if (!intel.empty()) {
      if (!cuda.empty()) doc.line(Line(""));
      doc.table(intelTable(intel)).notes(intelNotes(intel));
    }
    if (amd.empty()) return doc;
    if (!cuda.empty() || !intel.empty()) doc.line(Line(""));
    return doc.table(amdTable(amd)).notes(amdNotes(amd, report_.compiler_version));
  }

  nlohmann::json toJson() const override { return reportToJson(report_); }

  std::optional<CiReport> ci() const override { return ciReport(report_, title_, analysisFindings(report_)); }

 private:
  const Report &report_;
  std::string title_;
};

}  // namespace

CiReport ciReport(const Report &report, std::string title, std::vector<Verdict> findings) {
  CiReport ci;
  ci.title = std::move(title);
  ci.findings = std::move(findings);
  ci.compiler_path = report.compiler_path;
  ci.compiler_version = report.compiler_version;
  ci.summary.columns = {{"kernel", "kernel"},
                        {"arch", "arch"},
                        {"location", "location"},
                        {"registers", "registers", true},
                        {"spills", "spills", true},
                        {"scratch", "scratch", true},
                        {"occupancy", "occupancy", true},
                        {"limiter", "limiter"}};
  for (const KernelReport &k : report.kernels) {
    const KernelRecord &r = k.record;
    const OccupancySummary &s = k.summary;
    ci.cases.push_back({k.display_file, r.line, r.demangled, r.arch});
    ci.summary.add({"`" + shortKernelName(r.demangled) + "`", r.arch, k.display_file + ":" + std::to_string(r.line),
                    Cell::count(s.registers), Cell::count(s.spills), Cell::count(s.scratch_bytes),
                    std::to_string(s.level) + "/" + std::to_string(s.max_level) + " " + occupancyUnit(s.vendor),
                    limiterName(s.limiter)});
  }
  return ci;
}

std::unique_ptr<View> kernelTableView(const Report &report, std::string title) {
  return std::make_unique<KernelTableView>(report, std::move(title));
}

}  // namespace regscope
