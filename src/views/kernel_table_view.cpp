// The kernel table: analyze, parse and kernels analyze. One row per (kernel,
// arch), a table per vendor, then notes on what a figure alone does not say,
// each said once with the kernels it covers.
#include <algorithm>
#include <map>

#include "html_page.h"
#include "phrases.h"
#include "regscope/support/version.h"
#include "regscope/views/views.h"
#include "report_json.h"

namespace regscope {
namespace {

using nlohmann::json;

// A figure for the table: "?" where no source could resolve it (LLVM 20+) or
// none gave it (ModelledKernel::unknown); 0 only where a source said 0 or the
// figure is one a compiler leaves out when it is 0.
bool missing(const KernelReport &k, Field f) {
  return k.record.isUnresolved(f) || std::find(k.unknown.begin(), k.unknown.end(), f) != k.unknown.end();
}
Cell figure(const KernelReport &k, Field f) {
  if (missing(k, f)) return "?";
  return Cell::count(k.record.value(f));
}
Cell bytesFigure(const KernelReport &k, Field f) {
  if (missing(k, f)) return "?";
  return Cell(bytesText(k.record.value(f)), k.record.value(f));
}
std::string pairText(const KernelReport &k, Field a, Field b) {
  auto one = [&](Field f) { return missing(k, f) ? std::string("?") : std::to_string(k.record.value(f)); };
  return one(a) + "/" + one(b);
}
// "unknown: vgprs, sgprs not read" for a kernel without an occupancy.
std::string unknownText(const KernelReport &k) {
  std::string fields;
  for (Field f : k.unknown) fields += (fields.empty() ? "" : ", ") + std::string(fieldKey(f));
  return "unknown: " + fields + " not read";
}

std::string who(const KernelReport &k) { return shortKernelName(k.record.demangled) + " [" + k.record.arch + "]"; }

// Notes in first-said order; a message several kernels share is said once.
class NoteList {
 public:
  void add(const KernelReport &k, std::string message) {
    auto [it, inserted] = index_.try_emplace(message, notes_.size());
    if (inserted) notes_.push_back({std::move(message), {}});
    notes_[it->second].kernels.push_back(who(k));
  }
  void addLine(std::string line) { lines_.push_back(std::move(line)); }

  Notes build() const {
    Notes notes;
    for (const Note &note : notes_) {
      constexpr std::size_t kNamed = 4;
      std::string kernels;
      for (std::size_t i = 0; i < note.kernels.size() && i < kNamed; ++i) kernels += (i ? ", " : "") + note.kernels[i];
      if (note.kernels.size() > kNamed) kernels += " and " + std::to_string(note.kernels.size() - kNamed) + " more";
      notes.items.push_back(kernels + ": " + note.message);
    }
    notes.items.insert(notes.items.end(), lines_.begin(), lines_.end());
    return notes;
  }

 private:
  struct Note {
    std::string message;
    std::vector<std::string> kernels;
  };
  std::vector<Note> notes_;
  std::map<std::string, std::size_t> index_;
  std::vector<std::string> lines_;
};

// Where the assumed block size came from, and how to give the real one.
std::string launchNote(const LaunchAssumption &launch) {
  const std::string size = std::to_string(launch.block_size) + " threads";
  switch (launch.source) {
    case BlockSizeSource::Flag:
      return "assumes workgroups of " + size + " (--block-size)";
    case BlockSizeSource::Config:
      return "assumes workgroups of " + size + " (.regscope.json)";
    case BlockSizeSource::LaunchSite:
      return "assumes workgroups of " + size + ", the size its launches in the file use";
    case BlockSizeSource::TritonMetadata:
      return "";  // Triton's launch: the kernel's Triton note says it
    case BlockSizeSource::MaxFlatWorkgroupSize:
    case BlockSizeSource::LaunchBounds:
    case BlockSizeSource::RequiredWorkGroupSize:
    case BlockSizeSource::Default:
      break;
  }
  return "assumes workgroups of " + size +
         ", the most it was compiled for (__launch_bounds__, else HIP's default): give the real size with "
         "--block-size, .regscope.json's \"block_size\" or __launch_bounds__";
}

// Where the dynamic LDS counted came from, when regscope read it in the source.
std::string dynamicSharedNote(const LaunchAssumption &launch, const char *what) {
  const std::string bytes = "counts " + bytesText(launch.dynamic_shared) + " of dynamic " + what;
  if (launch.dynamic_source == DynamicSharedSource::LaunchSite)
    return bytes + ", the size its launches in the file give";
  if (launch.dynamic_source == DynamicSharedSource::FuncAttribute)
    return bytes +
           ", the MaxDynamicSharedMemorySize its hip/cudaFuncSetAttribute in the file sets (its launches' own "
           "size is not a constant)";
  return "";
}

std::string headroomText(const KernelReport &k, const Occupancy &occ) {
  std::string text = "+" + std::to_string(occ.headroom.vgprs) + " VGPRs";
  if (k.record.value(Field::LdsBytes) > 0 || occ.limiter == Limiter::Lds)
    text += ", +" + bytesText(occ.headroom.lds_bytes) + " LDS";
  if (occ.limiter == Limiter::Sgpr || (occ.headroom.sgprs_can_limit && occ.headroom.sgprs < occ.headroom.vgprs))
    text += ", +" + std::to_string(occ.headroom.sgprs) + " SGPRs";
  return text;
}

// The columns that say which kernel a row is, first in every vendor's table:
// the full signature (the terminal may elide it), its symbol, the arch and where.
std::vector<Column> identityColumns() {
  return {{"KERNEL", "kernel", false, Show::Everywhere, /*elide=*/true},
          {"", "name", false, Show::Data},
          {"ARCH", "arch"},
          {"LOCATION", "", false, Show::Text},
          {"", "file", false, Show::Data},
          {"", "line", true, Show::Data}};
}

std::vector<Cell> identityCells(const KernelReport &k) {
  const KernelRecord &r = k.record;
  return {r.demangled, r.name, r.arch, locationText(k.display_file, r.line), k.display_file, Cell::count(r.line)};
}

// `table` with the identity columns first, then `columns`; a row, likewise.
void setColumns(Table &table, std::vector<Column> columns) {
  table.columns = identityColumns();
  table.columns.insert(table.columns.end(), columns.begin(), columns.end());
}
void addRow(Table &table, const KernelReport &k, std::vector<Cell> cells) {
  std::vector<Cell> row = identityCells(k);
  row.insert(row.end(), std::make_move_iterator(cells.begin()), std::make_move_iterator(cells.end()));
  table.add(std::move(row));
}

Table cudaTable(const std::vector<const KernelReport *> &kernels) {
  Table table;
  setColumns(table, {{"REGS", fieldKey(Field::Registers), true},
                     {"SPILL ST/LD", "spills", true, Show::Text},
                     {"", fieldKey(Field::SpillStoreBytes), true, Show::Data},
                     {"", fieldKey(Field::SpillLoadBytes), true, Show::Data},
                     {"STACK", fieldKey(Field::StackBytes), true},
                     {"SMEM", fieldKey(Field::SharedBytes), true},
                     {"BLOCK", "block_size", true},
                     {"BLOCKS/SM", "blocks_per_sm", true},
                     {"WARPS/SM", "warps", true, Show::Text},
                     {"", "warps_per_sm", true, Show::Data},
                     {"", "max_warps_per_sm", true, Show::Data},
                     {"LIMITER", "limiter"},
                     {"NEXT STEP", "next_step"}});
  for (const KernelReport *k : kernels) {
    const KernelRecord &r = k->record;
    const CudaKernelModel &m = *k->cuda();
    const CudaOccupancy &occ = m.occupancy;
    const bool unknown = occ.limiter == Limiter::Unknown;
    const bool none = unknown || !k->impossible.empty();
    addRow(
        table, *k,
        {figure(*k, Field::Registers), pairText(*k, Field::SpillStoreBytes, Field::SpillLoadBytes),
         figure(*k, Field::SpillStoreBytes), figure(*k, Field::SpillLoadBytes), figure(*k, Field::StackBytes),
         Cell(bytesText(r.value(Field::SharedBytes)), r.value(Field::SharedBytes)), Cell::count(k->launch.block_size),
         none ? Cell("?") : Cell::count(occ.blocks_per_sm),
         (none ? std::string("?") : std::to_string(occ.warps_per_sm)) + "/" + std::to_string(occ.max_warps_per_sm),
         none ? Cell("?") : Cell::count(occ.warps_per_sm), Cell::count(occ.max_warps_per_sm), limiterName(occ.limiter),
         unknown                  ? unknownText(*k)
         : !k->impossible.empty() ? "cannot launch: " + k->impossible
                                  : cudaNextStepText(occ, m.arch, m.resources, k->launch.max_block_size)});
  }
  return table;
}

// A Triton kernel's launch and options, as its cache entry's metadata says.
std::string tritonNote(const KernelReport &k) {
  const TritonInfo &t = *k.record.triton;
  std::string note = "Triton" + (t.version.empty() ? std::string() : " " + t.version) + " @triton.jit " + t.function;
  if (!t.python_file.empty()) {
    const std::size_t slash = t.python_file.rfind('/');
    note += " (" + t.python_file.substr(slash == std::string::npos ? 0 : slash + 1) + ":" +
            std::to_string(t.python_line) + ")";
  }
  const bool amd = t.backend == "hip";
  note += ": launched as num_warps " + std::to_string(t.num_warps) + " x " + std::to_string(t.warp_size) + " = " +
          std::to_string(t.blockSize()) + " threads with " + bytesText(static_cast<int>(t.shared)) + " of dynamic " +
          (amd ? "LDS" : "shared memory");
  if (!amd && t.shared > 48 * 1024) note += " (over 48 KiB: Triton sets the opt-in)";
  note += "; num_stages " + std::to_string(t.num_stages);
  if (t.num_ctas > 1) note += ", num_ctas " + std::to_string(t.num_ctas);
  if (t.waves_per_eu && *t.waves_per_eu > 0)
    note += ", waves_per_eu " + std::to_string(*t.waves_per_eu) + " (asks the compiler to fit " +
            std::to_string(*t.waves_per_eu) + " waves/SIMD)";
  if (t.matrix_instr_nonkdim && *t.matrix_instr_nonkdim > 0)
    note += ", matrix_instr_nonkdim " + std::to_string(*t.matrix_instr_nonkdim);
  if (t.kpack && *t.kpack != 1) note += ", kpack " + std::to_string(*t.kpack);
  if (t.maxnreg) note += ", maxnreg " + std::to_string(*t.maxnreg);
  return note;
}

Notes cudaNotes(const std::vector<const KernelReport *> &kernels) {
  NoteList notes;
  bool assumed = false;
  for (const KernelReport *k : kernels) {
    if (k->record.value(Field::SpillStoreBytes))
      notes.add(*k, "spills " + std::to_string(k->record.value(Field::SpillStoreBytes)) + " bytes to local memory");
    assumed |= k->launch.source == BlockSizeSource::Default;
    if (k->record.triton) notes.add(*k, tritonNote(*k));
    if (k->launch.source == BlockSizeSource::Config || k->launch.source == BlockSizeSource::LaunchSite)
      notes.add(*k, launchNote(k->launch));
    if (std::string note = dynamicSharedNote(k->launch, "shared memory"); !note.empty()) notes.add(*k, note);
  }
  if (assumed)
    notes.addLine("BLOCK is the kernel's __launch_bounds__, else an assumed " +
                  std::to_string(kernels.front()->launch.block_size) + " threads: pass --block-size for your launch");
  if (kernels.front()->launch.dynamic_shared && kernels.front()->launch.dynamic_source == DynamicSharedSource::Flag)
    notes.addLine("with " + std::to_string(kernels.front()->launch.dynamic_shared) +
                  " bytes of dynamic shared memory per block");
  return notes.build();
}

Table amdTable(const std::vector<const KernelReport *> &kernels) {
  Table table;
  setColumns(table, {{"VGPR", fieldKey(Field::Vgprs), true},
                     {"", fieldKey(Field::VgprsTotal), true, Show::Data},
                     {"AGPR", fieldKey(Field::Agprs), true},
                     {"SGPR", fieldKey(Field::Sgprs), true},
                     {"SCRATCH", fieldKey(Field::ScratchBytes), true},
                     {"SPILL V/S", "spills", true, Show::Text},
                     {"", fieldKey(Field::VgprSpills), true, Show::Data},
                     {"", fieldKey(Field::SgprSpills), true, Show::Data},
                     {"LDS", fieldKey(Field::LdsBytes), true},
                     {"OCCUPANCY", "occupancy", true, Show::Text},
                     {"", "waves_per_simd", true, Show::Data},
                     {"", "max_waves_per_simd", true, Show::Data},
                     {"", "waves_per_cu", true, Show::Data},
                     {"LIMITER", "limiter"},
                     {"NEXT STEP", "next_step"},
                     {"HEADROOM", "headroom"}});
  for (const KernelReport *k : kernels) {
    const KernelRecord &r = k->record;
    const AmdKernelModel &m = *k->amd();
    const Occupancy &occ = m.occupancy;
    const bool invalid = occ.limiter == Limiter::Invalid;
    // No occupancy: figures open until link, one not read, or one the target cannot have.
    const bool none = m.unresolved || invalid || occ.limiter == Limiter::Unknown;
    // Code objects with AGPRs record only the allocation, not the arch count.
    Cell vgpr = r.has(Field::Vgprs) ? Cell::count(r.value(Field::Vgprs)) : Cell("?");
    if (!none && (!r.has(Field::Vgprs) || occ.vgprs_total != r.value(Field::Vgprs)))
      vgpr.text += " (" + std::to_string(occ.vgprs_total) + ")";
    const std::string waves = none ? "?" : std::to_string(occ.waves_per_simd);
    std::string next = m.unresolved                        ? "unresolved until link"
                       : invalid && !k->impossible.empty() ? "cannot launch: " + k->impossible
                       : invalid                           ? "cannot launch: " + amdLaunchInvalidText(k->launch)
                       : occ.limiter == Limiter::Unknown   ? unknownText(*k)
                                                           : nextStepText(occ);
    addRow(
        table, *k,
        {vgpr,
         none ? (r.has(Field::VgprsTotal) ? Cell::count(r.value(Field::VgprsTotal)) : Cell("?"))
              : Cell::count(occ.vgprs_total),
         r.has(Field::Agprs) ? Cell::count(r.value(Field::Agprs)) : figure(*k, Field::Agprs), figure(*k, Field::Sgprs),
         figure(*k, Field::ScratchBytes), pairText(*k, Field::VgprSpills, Field::SgprSpills),
         figure(*k, Field::VgprSpills), figure(*k, Field::SgprSpills), bytesFigure(*k, Field::LdsBytes),
         waves + "/" + std::to_string(occ.max_waves_per_simd), none ? Cell("?") : Cell::count(occ.waves_per_simd),
         Cell::count(occ.max_waves_per_simd), none ? Cell("?") : Cell::count(occ.waves_per_cu),
         limiterName(occ.limiter), next, none ? "-" : headroomText(*k, occ)});
  }
  return table;
}

Notes amdNotes(const std::vector<const KernelReport *> &kernels, const std::string &compiler_version) {
  NoteList notes;
  for (const KernelReport *k : kernels) {
    const KernelRecord &r = k->record;
    const AmdKernelModel &m = *k->amd();
    const bool modelled =
        !m.unresolved && m.occupancy.limiter != Limiter::Invalid && m.occupancy.limiter != Limiter::Unknown;
    if (modelled && r.has(Field::Vgprs) && m.occupancy.vgprs_total != r.value(Field::Vgprs))
      notes.add(*k, "occupancy counts " + std::to_string(m.occupancy.vgprs_total) +
                        " VGPRs (the allocation: AGPRs in the unified file, or padding the compiler added)");
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
      notes.add(*k, "cannot launch: " + (k->impossible.empty() ? amdLaunchInvalidText(k->launch) : k->impossible));
    else if (m.occupancy.limiter == Limiter::Unknown)
      notes.add(*k, "occupancy unknown: " + unknownText(*k).substr(9) + " (the compiler's output lacks them)");
    else if (m.occupancy.counts_per_cu && !m.unresolved)
      notes.add(
          *k, "fills " + waveSlotsText(m.occupancy, (k->launch.block_size + m.arch.wave_size - 1) / m.arch.wave_size));
    const bool launch_matters =
        m.occupancy.limiter == Limiter::Lds || m.occupancy.limiter == Limiter::Workgroup || m.occupancy.counts_per_cu;
    if (k->record.triton)
      notes.add(*k, tritonNote(*k));
    else if (launch_matters || k->launch.source == BlockSizeSource::Config ||
             k->launch.source == BlockSizeSource::LaunchSite)
      notes.add(*k, launchNote(k->launch));
    if (std::string note = dynamicSharedNote(k->launch, "LDS"); !note.empty()) notes.add(*k, note);
  }
  return notes.build();
}

// ---- Intel ----

std::string percentText(double fraction) { return std::to_string(static_cast<int>(fraction * 100 + 0.5)) + "%"; }

Table intelTable(const std::vector<const KernelReport *> &kernels) {
  const bool rule = std::any_of(kernels.begin(), kernels.end(),
                                [](const KernelReport *k) { return k->intel()->grf_recommendation.has_value(); });
  Table table;
  setColumns(table, {{"SIMD", fieldKey(Field::SimdSize), true},
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
  for (const KernelReport *k : kernels) {
    const KernelRecord &r = k->record;
    const IntelKernelModel &m = *k->intel();
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
    addRow(table, *k, std::move(row));
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
  NoteList notes;
  int assumed = 0;  // the work-group size assumed for kernels without a required one
  for (const KernelReport *k : kernels) {
    const KernelRecord &r = k->record;
    const IntelKernelModel &m = *k->intel();
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
  if (std::any_of(kernels.begin(), kernels.end(), [](const KernelReport *k) { return k->intel()->grf_recommendation; }))
    notes.addLine(
        "GRF RULE is Intel's choice between the modes: large GRF where small GRF spills, else small for its "
        "threads per EU");
  if (assumed)
    notes.addLine("WG is the kernel's reqd_work_group_size, else an assumed " + std::to_string(assumed) +
                  " work-items: pass --block-size for your launch");
  if (kernels.front()->launch.dynamic_shared && kernels.front()->launch.dynamic_source == DynamicSharedSource::Flag)
    notes.addLine("with " + std::to_string(kernels.front()->launch.dynamic_shared) +
                  " bytes of dynamic SLM per work-group");
  return notes.build();
}

class KernelTableView : public View {
 public:
  KernelTableView(const Report &report, std::string title, std::vector<Verdict> findings)
      : report_(report), title_(std::move(title)), findings_(std::move(findings)) {}

  Document document() const override {
    Document doc;
    if (report_.kernels.empty()) {
      if (!report_.errors.empty()) return doc;  // every input failed: stderr says why
      doc.line(Line("no kernels found"));
      if (!report_.notes.empty()) doc.notes({report_.notes});
      return doc;
    }
    std::vector<const KernelReport *> cuda, amd, intel;
    for (const KernelReport &k : report_.kernels) (k.cuda() ? cuda : k.intel() ? intel : amd).push_back(&k);
    bool first = true;
    auto section = [&](Table table, Notes notes) {
      if (!first) doc.line(Line(""));
      first = false;
      doc.table(std::move(table)).notes(std::move(notes));
    };
    if (!cuda.empty()) section(cudaTable(cuda), cudaNotes(cuda));
    if (!intel.empty()) section(intelTable(intel), intelNotes(intel));
    if (!amd.empty()) section(amdTable(amd), amdNotes(amd, report_.compiler_version));
    if (!report_.notes.empty()) doc.notes({report_.notes});
    return doc;
  }

  nlohmann::json toJson() const override { return reportToJson(report_); }

  std::optional<CiReport> ci() const override { return ciReport(report_, title_, findings_); }

  nlohmann::json page() const override {
    json page = reportSections(report_);
    page.update(documentPage(document(), title_));
    return page;
  }

 private:
  const Report &report_;
  std::string title_;
  std::vector<Verdict> findings_;
};

}  // namespace

CiReport ciReport(const Report &report, std::string title, std::vector<Verdict> findings) {
  CiReport ci;
  ci.title = std::move(title);
  ci.findings = std::move(findings);
  ci.compiler_path = report.compiler_path;
  ci.compiler_version = report.compiler_version;
  for (const InputError &e : report.errors) ci.errors.push_back({e.file, e.arch, e.message});
  ci.summary.columns = {{"kernel", "kernel", false, Show::Everywhere, false, true},
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
    ci.summary.add({r.demangled, r.arch, k.display_file + ":" + std::to_string(r.line), Cell::count(s.registers),
                    Cell::count(s.spills), Cell::count(s.scratch_bytes),
                    (s.limiter == Limiter::Unknown ? std::string("?") : std::to_string(s.level)) + "/" +
                        std::to_string(s.max_level) + " " + occupancyUnit(s.vendor),
                    limiterName(s.limiter)});
  }
  return ci;
}

std::unique_ptr<View> kernelTableView(const Report &report, std::string title, std::vector<Verdict> findings) {
  return std::make_unique<KernelTableView>(report, std::move(title), std::move(findings));
}

}  // namespace regscope
