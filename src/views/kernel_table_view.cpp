// The kernel table: analyze, parse and kernels analyze. One row per (kernel,
// arch), a table per vendor, then notes on what a figure alone does not say.
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

class KernelTableView : public View {
 public:
  KernelTableView(const Report &report, std::string title) : report_(report), title_(std::move(title)) {}

  Document document() const override {
    Document doc;
    if (report_.kernels.empty()) return doc.line(Line("no kernels found"));
    std::vector<const KernelReport *> cuda, amd;
    for (const KernelReport &k : report_.kernels) (k.cuda() ? cuda : amd).push_back(&k);
    if (!cuda.empty()) doc.table(cudaTable(cuda)).notes(cudaNotes(cuda));
    if (amd.empty()) return doc;
    if (!cuda.empty()) doc.line(Line(""));
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
