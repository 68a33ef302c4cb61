// advise: the original's figures, every candidate tried with its measured
// before/after and its diff, the ones with no gain, the hints, then the
// greedy combination step by step and what all confirmed edits do together.
#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include "html_page.h"
#include "phrases.h"
#include "regscope/support/plural.h"
#include "regscope/support/version.h"
#include "regscope/views/views.h"

namespace regscope {
namespace {

using nlohmann::json;

// ---- figures as cells ----

// A figure before and after: "102 -> 100", or "102" when it did not change;
// the text for people, the two numbers for data.
void addChange(std::vector<Cell> &row, int before, int after) {
  row.push_back(before == after ? Cell(std::to_string(after))
                                : Cell(std::to_string(before) + " -> " + std::to_string(after)));
  row.push_back(Cell::count(before));
  row.push_back(Cell::count(after));
}

std::string spillsText(const KernelFigures &k) {
  return std::to_string(k.vgpr_spills) + "/" + std::to_string(k.sgpr_spills);
}
std::string wavesText(const KernelFigures &k) {
  return std::to_string(k.waves_per_simd) + "/" + std::to_string(k.max_waves_per_simd);
}

// The figure columns: each as text ("102 -> 100") and as before/after data.
std::vector<Column> changeColumns() {
  std::vector<Column> columns;
  auto add = [&](const char *header, const std::string &key) {
    columns.push_back({header, key, true, Show::Text});
    columns.push_back({"", key + "_before", true, Show::Data});
    columns.push_back({"", key, true, Show::Data});
  };
  add("VGPR", "vgprs");
  add("AGPR", "agprs");
  add("SGPR", "sgprs");
  columns.push_back({"SPILL V/S", "spills", true, Show::Text});
  columns.push_back({"", "vgpr_spills", true, Show::Data});
  columns.push_back({"", "sgpr_spills", true, Show::Data});
  add("SCRATCH", "scratch_bytes");
  columns.push_back({"OCCUPANCY", "occupancy", true, Show::Text});
  columns.push_back({"", "waves_per_simd_before", true, Show::Data});
  columns.push_back({"", "waves_per_simd", true, Show::Data});
  return columns;
}

// Cells for changeColumns(); `after` null: nothing measured ("-").
std::vector<Cell> changeCells(const KernelFigures &before, const KernelFigures *after) {
  std::vector<Cell> row;
  if (!after) {
    for (std::size_t i = 0; i < changeColumns().size(); ++i) row.push_back(Cell("-"));
    return row;
  }
  addChange(row, before.vgprs, after->vgprs);
  addChange(row, before.agprs, after->agprs);
  addChange(row, before.sgprs, after->sgprs);
  const std::string spills_before = spillsText(before), spills_after = spillsText(*after);
  row.push_back(spills_before == spills_after ? spills_after : spills_before + " -> " + spills_after);
  row.push_back(Cell::count(after->vgpr_spills));
  row.push_back(Cell::count(after->sgpr_spills));
  addChange(row, before.scratch_bytes, after->scratch_bytes);
  const std::string waves_before = wavesText(before), waves_after = wavesText(*after);
  row.push_back(waves_before == waves_after ? waves_after : waves_before + " -> " + waves_after);
  row.push_back(Cell::count(before.waves_per_simd));
  row.push_back(Cell::count(after->waves_per_simd));
  return row;
}

const KernelFigures *matchedAt(const Measurement &m, const std::vector<int> &matched, std::size_t i) {
  return i < matched.size() && matched[i] >= 0 ? &m.kernels[matched[i]] : nullptr;
}

bool sameFigures(const KernelFigures &a, const KernelFigures &b) {
  return a.vgprs == b.vgprs && a.agprs == b.agprs && a.vgprs_total == b.vgprs_total && a.sgprs == b.sgprs &&
         a.vgpr_spills == b.vgpr_spills && a.sgpr_spills == b.sgpr_spills && a.loop_spills == b.loop_spills &&
         a.scratch_bytes == b.scratch_bytes && a.waves_per_simd == b.waves_per_simd;
}

// ---- JSON ----

json figuresJson(const KernelFigures &k) {
  return {{"kernel", k.mangled},
          {"demangled", k.demangled},
          {"arch", k.arch},
          {"file", k.file},
          {"line", k.line},
          {"vgprs", k.vgprs},
          {"agprs", k.agprs},
          {"vgprs_total", k.vgprs_total},
          {"sgprs", k.sgprs},
          {"vgpr_spills", k.vgpr_spills},
          {"sgpr_spills", k.sgpr_spills},
          {"scratch_bytes", k.scratch_bytes},
          {"loop_spills", k.loop_spills ? json(*k.loop_spills) : json(nullptr)},
          {"lds_bytes", k.lds_bytes},
          {"waves_per_simd", k.waves_per_simd},
          {"max_waves_per_simd", k.max_waves_per_simd},
          {"next_waves", k.next_waves ? json(*k.next_waves) : json(nullptr)},
          {"limiter", limiterName(k.limiter)}};
}

json measurementJson(const Measurement &m) {
  if (!m.ok) return nullptr;
  json list = json::array();
  for (const KernelFigures &k : m.kernels) list.push_back(figuresJson(k));
  return list;
}

json gainJson(const Gain &g) {
  return {{"waves", g.waves},   {"loop_spills", g.loop_spills},
          {"spills", g.spills}, {"scratch_bytes", g.scratch_bytes},
          {"vgprs", g.vgprs},   {"sgprs", g.sgprs}};
}

json orNull(const std::string &s) { return s.empty() ? json(nullptr) : json(s); }

// ---- HTML ----

// A unified diff's body as numbered lines; the ---/+++ headers are dropped and
// each @@ hunk header restarts the two line counters.
std::vector<DiffLine> diffLines(const std::string &diff) {
  std::vector<DiffLine> lines;
  int old_line = 0, new_line = 0;
  std::size_t begin = 0;
  while (begin < diff.size()) {
    std::size_t end = diff.find('\n', begin);
    if (end == std::string::npos) end = diff.size();
    const std::string line = diff.substr(begin, end - begin);
    begin = end + 1;
    if (line.rfind("---", 0) == 0 || line.rfind("+++", 0) == 0 || line.empty()) continue;
    if (line.rfind("@@", 0) == 0) {
      // "@@ -12,7 +12,8 @@": the first line number of each side.
      const std::size_t minus = line.find('-'), plus = line.find('+');
      if (minus != std::string::npos) old_line = std::atoi(line.c_str() + minus + 1);
      if (plus != std::string::npos) new_line = std::atoi(line.c_str() + plus + 1);
      continue;
    }
    const std::string text = line.substr(1);
    if (line[0] == '-')
      lines.push_back({DiffKind::Removed, old_line++, 0, text});
    else if (line[0] == '+')
      lines.push_back({DiffKind::Added, 0, new_line++, text});
    else if (line[0] == ' ')
      lines.push_back({DiffKind::Context, old_line++, new_line++, text});
  }
  return lines;
}

// One figure before and after; `more_is_better` for waves, fewer for the rest.
EditFigure figure(const std::string &label, long long before, long long after, bool more_is_better = false) {
  const bool better = more_is_better ? after > before : after < before;
  const bool worse = more_is_better ? after < before : after > before;
  return {label, std::to_string(before), std::to_string(after), better, worse};
}

std::vector<EditFigure> editFigures(const KernelFigures &b, const KernelFigures &a) {
  std::vector<EditFigure> figures = {figure("VGPRs", b.vgprs, a.vgprs), figure("AGPRs", b.agprs, a.agprs),
                                     figure("SGPRs", b.sgprs, a.sgprs),
                                     figure("spills", b.vgpr_spills + b.sgpr_spills, a.vgpr_spills + a.sgpr_spills)};
  if (b.loop_spills && a.loop_spills) figures.push_back(figure("spills in loops", *b.loop_spills, *a.loop_spills));
  figures.push_back(figure("scratch bytes", b.scratch_bytes, a.scratch_bytes));
  figures.push_back(figure("waves/SIMD", b.waves_per_simd, a.waves_per_simd, true));
  return figures;
}

class AdviseView : public View {
 public:
  explicit AdviseView(const AdviseResult &r) : r_(r) {
    for (std::size_t i = 0; i < r_.found.candidates.size(); ++i) index_[r_.found.candidates[i].id] = i;
  }

  Document document() const override {
    Document doc;
    const std::size_t tried = std::count_if(r_.trials.begin(), r_.trials.end(),
                                            [](const Trial &t) { return t.verdict != TrialVerdict::NotTried; });
    const std::size_t hints = r_.found.candidates.size() - tried;
    std::string archs;
    for (const std::string &a : r_.archs) archs += (archs.empty() ? "" : ", ") + a;
    // A template is one kernel in the source and one compiled kernel per instantiation.
    std::set<std::string> compiled;
    for (const KernelFigures &k : r_.baseline.kernels) compiled.insert(k.mangled);
    const std::string instances = compiled.size() > r_.found.kernels.size()
                                      ? " (" + plural(compiled.size(), "instantiation", "instantiations") + ")"
                                      : "";
    doc.line(Line(r_.display_path + ": " + plural(r_.found.kernels.size(), "kernel", "kernels") + instances + " on " +
                  archs + "; " + plural(r_.found.candidates.size(), "candidate", "candidates") + " (" +
                  plural(tried, "edit", "edits") + " tried, " + plural(hints, "hint", "hints") + "); " +
                  plural(r_.compiles, "compile", "compiles")));
    doc.line(Line(""));
    doc.table(baselineTable());
    if (!r_.not_register_limited.empty()) {
      doc.line(Line(""));
      for (const std::string &text : r_.not_register_limited) doc.line(Line(text));
    }
    if (r_.found.candidates.empty()) {
      doc.line(Line(""));
      doc.line(Line("no candidates: no rule found anything to try in " + r_.display_path));
      doc.notes(notes());
      return doc;
    }
    changedSection(doc);
    unchangedSection(doc);
    hintSection(doc);
    combinationSection(doc);
    doc.notes(notes());
    return doc;
  }

  // The default page (the document's blocks) and "edits": each candidate that
  // helps, on each kernel whose figures it changed, then all confirmed edits together.
  json page() const override {
    json page = documentPage(document(), "regscope advise");
    json edits = json::array();
    for (std::size_t i = 0; i < r_.trials.size(); ++i) {
      const Candidate &c = r_.found.candidates[i];
      const Trial &trial = r_.trials[i];
      if (trial.verdict != TrialVerdict::Helps || !trial.measured.ok) continue;
      for (std::size_t k : rowsOf(c, trial.measured, trial.matched))
        if (const KernelFigures *after = matchedAt(trial.measured, trial.matched, k)) {
          const KernelFigures &before = r_.baseline.kernels[k];
          edits.push_back(editEntry(where(c) + ": " + adviseRuleId(c.rule) + ": " + c.description, r_.display_path,
                                    before.demangled, before.arch, editFigures(before, *after), diffLines(trial.diff)));
        }
    }
    if (!r_.steps.empty() && !r_.combined_diff.empty())
      for (std::size_t k = 0; k < r_.baseline.kernels.size(); ++k)
        if (const KernelFigures *after = matchedAt(r_.combined_measured, r_.combined_matched, k)) {
          const KernelFigures &before = r_.baseline.kernels[k];
          if (sameFigures(before, *after) && r_.baseline.kernels.size() > 1) continue;
          edits.push_back(editEntry("all confirmed edits together", r_.display_path, before.demangled, before.arch,
                                    editFigures(before, *after), diffLines(r_.combined_diff)));
        }
    page["edits"] = std::move(edits);
    return page;
  }

  json toJson() const override {
    json kernels = json::array();
    for (const KernelRef &k : r_.found.kernels)
      kernels.push_back({{"name", k.name},
                         {"mangled", k.mangled},
                         {"demangled", k.demangled},
                         {"file", r_.display_path},
                         {"line", k.line}});
    json candidates = json::array();
    for (std::size_t i = 0; i < r_.found.candidates.size(); ++i) {
      const Candidate &c = r_.found.candidates[i];
      const Trial &t = r_.trials[i];
      json j = {{"id", c.id},
                {"rule", adviseRuleId(c.rule)},
                {"seed", adviseRuleSeed(c.rule)},
                {"kernel", c.kernel.mangled.empty() ? c.kernel.name : c.kernel.mangled},
                {"device_function", !c.kernel.is_kernel},
                {"file", r_.display_path},
                {"line", c.line},
                {"column", c.column},
                {"description", c.description},
                {"assumption", orNull(c.assumption)},
                {"hint", c.hint_only},
                {"verdict", trialVerdictName(t.verdict)},
                {"measured", c.hint_only ? json(nullptr) : measurementJson(t.measured)},
                {"gain", c.hint_only ? json(nullptr) : gainJson(t.gain)},
                {"note", orNull(t.note)},
                {"diff", orNull(t.diff)}};
      if (c.rule == AdviseRule::ScratchArray) j["array_bytes"] = c.array_bytes;
      candidates.push_back(std::move(j));
    }
    json steps = json::array();
    for (const CombinationStep &s : r_.steps)
      steps.push_back({{"candidate", s.candidate_id},
                       {"kept", s.kept},
                       {"compiled", s.compiled},
                       {"reason", orNull(s.reason)},
                       {"measured", measurementJson(s.measured)}});
    json conflicts = json::array();
    for (const auto &[refused, with] : r_.combined.conflicts) conflicts.push_back({refused, with});
    return {{"schema_version", kSchemaVersion},
            {"regscope_version", kRegscopeVersion},
            {"command", "advise"},
            {"compiler", {{"path", r_.compiler_path}, {"version", r_.compiler_version}}},
            {"frontend", {{"version", r_.found.frontend_version}, {"arch", r_.found.frontend_arch}}},
            {"input", r_.display_path},
            {"archs", r_.archs},
            {"kernels", kernels},
            {"baseline", measurementJson(r_.baseline)},
            {"candidates", candidates},
            {"combination",
             {{"steps", steps},
              {"applied", r_.combined.applied},
              {"conflicts", conflicts},
              {"measured", measurementJson(r_.combined_measured)},
              {"diff", r_.combined_diff}}},
            {"compiles", r_.compiles},
            {"warnings", r_.warnings},
            {"not_register_limited", r_.not_register_limited}};
  }

 private:
  const Candidate &candidate(const std::string &id) const { return r_.found.candidates.at(index_.at(id)); }

  std::string where(const Candidate &c) const {
    return locationText(r_.display_path, c.line) + ":" + std::to_string(c.column);
  }

  Table baselineTable() const {
    Table t;
    t.columns = {{"KERNEL", "kernel", false, Show::Everywhere, true},
                 {"", "name", false, Show::Data},
                 {"ARCH", "arch"},
                 {"VGPR", "vgprs", true},
                 {"AGPR", "agprs", true},
                 {"SGPR", "sgprs", true},
                 {"SPILL V/S", "spills", true, Show::Text},
                 {"", "vgpr_spills", true, Show::Data},
                 {"", "sgpr_spills", true, Show::Data},
                 {"SCRATCH", "scratch_bytes", true},
                 {"OCCUPANCY", "occupancy", true, Show::Text},
                 {"", "waves_per_simd", true, Show::Data},
                 {"", "max_waves_per_simd", true, Show::Data}};
    for (const KernelFigures &k : r_.baseline.kernels)
      t.add({k.demangled, k.mangled, k.arch, Cell::count(k.vgprs), Cell::count(k.agprs), Cell::count(k.sgprs),
             spillsText(k), Cell::count(k.vgpr_spills), Cell::count(k.sgpr_spills), Cell::count(k.scratch_bytes),
             wavesText(k), Cell::count(k.waves_per_simd), Cell::count(k.max_waves_per_simd)});
    return t;
  }

  // The baseline kernels a trial's row shows: those whose figures changed,
  // else the kernel the edit is in.
  std::vector<std::size_t> rowsOf(const Candidate &c, const Measurement &m, const std::vector<int> &matched) const {
    std::vector<std::size_t> rows, own;
    for (std::size_t i = 0; i < r_.baseline.kernels.size(); ++i) {
      const KernelFigures &k = r_.baseline.kernels[i];
      const KernelFigures *after = m.ok ? matchedAt(m, matched, i) : nullptr;
      if (m.ok && (!after || !sameFigures(k, *after))) rows.push_back(i);
      if (k.mangled == c.kernel.mangled) own.push_back(i);
    }
    return rows.empty() ? own : rows;
  }

  // Tried candidates whose figures changed (or that did not compile): in
  // order of verdict, then gain, each with its figures, then its diff.
  void changedSection(Document &doc) const {
    static const TrialVerdict kOrder[] = {TrialVerdict::Helps, TrialVerdict::Mixed, TrialVerdict::Worse,
                                          TrialVerdict::CompileError};
    std::vector<std::size_t> shown;
    for (TrialVerdict verdict : kOrder) {
      std::vector<std::size_t> these;
      for (std::size_t i = 0; i < r_.trials.size(); ++i)
        if (r_.trials[i].verdict == verdict) these.push_back(i);
      std::stable_sort(these.begin(), these.end(), [&](std::size_t a, std::size_t b) {
        const Gain &x = r_.trials[a].gain, &y = r_.trials[b].gain;
        return std::tie(x.waves, x.loop_spills, x.spills, x.scratch_bytes, x.vgprs, x.sgprs) >
               std::tie(y.waves, y.loop_spills, y.spills, y.scratch_bytes, y.vgprs, y.sgprs);
      });
      shown.insert(shown.end(), these.begin(), these.end());
    }
    if (shown.empty()) return;
    doc.line(Line(""));
    doc.line(Line("tried, measured:"));
    Table t;
    t.columns = {{"LOCATION", "location"},
                 {"", "id", false, Show::Data},
                 {"RULE", "rule"},
                 {"KERNEL", "kernel", false, Show::Everywhere, true},
                 {"ARCH", "arch"}};
    for (Column &c : changeColumns()) t.columns.push_back(std::move(c));
    t.columns.push_back({"VERDICT", "verdict"});
    for (std::size_t i : shown) {
      const Candidate &c = r_.found.candidates[i];
      const Trial &trial = r_.trials[i];
      for (std::size_t k : rowsOf(c, trial.measured, trial.matched)) {
        const KernelFigures &before = r_.baseline.kernels[k];
        std::vector<Cell> row = {where(c), c.id, adviseRuleId(c.rule), before.demangled, before.arch};
        const KernelFigures *after = trial.measured.ok ? matchedAt(trial.measured, trial.matched, k) : nullptr;
        for (Cell &cell : changeCells(before, after)) row.push_back(std::move(cell));
        row.push_back(trialVerdictName(trial.verdict));
        t.add(std::move(row));
      }
    }
    doc.table(std::move(t));
    for (std::size_t i : shown) {
      const Candidate &c = r_.found.candidates[i];
      const Trial &trial = r_.trials[i];
      const Style style = trial.verdict == TrialVerdict::Helps   ? Style::Good
                          : trial.verdict == TrialVerdict::Mixed ? Style::Plain
                                                                 : Style::Bad;
      doc.line(Line(""));
      doc.line(Line({{where(c) + ": " + adviseRuleId(c.rule) + " (seed " + adviseRuleSeed(c.rule) + "): "},
                     {trialVerdictName(trial.verdict), style},
                     {": " + c.description}}));
      if (!c.assumption.empty()) doc.line(Line("  assumes " + c.assumption));
      if (trial.verdict == TrialVerdict::CompileError) doc.code({"", trial.note});
      doc.code({"diff", trial.diff});
    }
  }

  void unchangedSection(Document &doc) const {
    Table t;
    t.columns = {{"LOCATION", "location"},
                 {"", "id", false, Show::Data},
                 {"RULE", "rule"},
                 {"KERNEL", "kernel", false, Show::Everywhere, true},
                 {"EDIT", "description"}};
    for (std::size_t i = 0; i < r_.trials.size(); ++i) {
      if (r_.trials[i].verdict != TrialVerdict::NoGain) continue;
      const Candidate &c = r_.found.candidates[i];
      t.add({where(c), c.id, adviseRuleId(c.rule), c.kernel.demangled.empty() ? c.kernel.name : c.kernel.demangled,
             c.description});
    }
    if (t.rows.empty()) return;
    doc.line(Line(""));
    doc.line(Line("tried, no gain (" + std::to_string(t.rows.size()) +
                  "): no change in occupancy, spills, scratch or VGPRs on any kernel and arch (see each note)"));
    doc.table(std::move(t));
  }

  void hintSection(Document &doc) const {
    Table t;
    t.columns = {{"LOCATION", "location"},
                 {"", "id", false, Show::Data},
                 {"RULE", "rule"},
                 {"KERNEL", "kernel", false, Show::Everywhere, true},
                 {"HINT", "description"}};
    for (const Candidate &c : r_.found.candidates)
      if (c.hint_only)
        t.add({where(c), c.id, adviseRuleId(c.rule), c.kernel.demangled.empty() ? c.kernel.name : c.kernel.demangled,
               c.description});
    if (t.rows.empty()) return;
    doc.line(Line(""));
    doc.line(Line("hints, not tried (no mechanical edit):"));
    doc.table(std::move(t));
  }

  void combinationSection(Document &doc) const {
    doc.line(Line(""));
    if (r_.steps.empty()) {
      doc.line(Line("no edit helps: none improves occupancy, spills, scratch or VGPRs anywhere without a loss"));
      return;
    }
    doc.line(Line("combined greedily, largest gain first; each kept only if the combination so far improves:"));
    Table t;
    t.columns = {{"STEP", "step", true},
                 {"CANDIDATE", "candidate"},
                 {"KEPT", "kept"},
                 {"KERNEL", "kernel", false, Show::Everywhere, true},
                 {"ARCH", "arch"}};
    for (Column &c : changeColumns()) t.columns.push_back(std::move(c));
    t.columns.push_back({"WHY NOT", "reason"});
    for (std::size_t s = 0; s < r_.steps.size(); ++s) {
      const CombinationStep &step = r_.steps[s];
      const Candidate &c = candidate(step.candidate_id);
      for (std::size_t k : rowsOf(c, step.measured, step.matched)) {
        const KernelFigures &before = r_.baseline.kernels[k];
        std::vector<Cell> row = {Cell::count(static_cast<std::int64_t>(s + 1)), step.candidate_id,
                                 step.kept ? "yes" : "no", before.demangled, before.arch};
        const KernelFigures *after = step.measured.ok ? matchedAt(step.measured, step.matched, k) : nullptr;
        for (Cell &cell : changeCells(before, after)) row.push_back(std::move(cell));
        row.push_back(step.reason.empty() ? "-" : step.reason);
        t.add(std::move(row));
      }
    }
    doc.table(std::move(t));
    summaryLines(doc);
    if (!r_.combined_diff.empty()) doc.code({"diff", r_.combined_diff});
  }

  // "all confirmed edits together: 102 -> 94 VGPRs, 4 -> 5 waves/SIMD, 98 -> 84 SGPRs".
  void summaryLines(Document &doc) const {
    const bool one = r_.baseline.kernels.size() == 1;
    for (std::size_t i = 0; i < r_.baseline.kernels.size(); ++i) {
      const KernelFigures &b = r_.baseline.kernels[i];
      const KernelFigures *a = matchedAt(r_.combined_measured, r_.combined_matched, i);
      if (!a || (!one && sameFigures(b, *a))) continue;  // another kernel, untouched
      // "102 -> 94 VGPRs", or "44 VGPRs" where the figure did not move.
      auto change = [](int before, int after, const char *unit) {
        return (before == after ? "" : std::to_string(before) + " -> ") + std::to_string(after) + unit;
      };
      std::string text = change(b.vgprs, a->vgprs, " VGPRs, ");
      if (b.vgpr_spills + b.sgpr_spills != a->vgpr_spills + a->sgpr_spills)
        text += std::to_string(b.vgpr_spills + b.sgpr_spills) + " -> " +
                std::to_string(a->vgpr_spills + a->sgpr_spills) + " spills, ";
      if (b.loop_spills && a->loop_spills && *b.loop_spills != *a->loop_spills)
        text += std::to_string(*b.loop_spills) + " -> " + std::to_string(*a->loop_spills) + " spills in loops, ";
      if (b.scratch_bytes != a->scratch_bytes)
        text += std::to_string(b.scratch_bytes) + " -> " + std::to_string(a->scratch_bytes) + " B scratch, ";
      text += change(b.waves_per_simd, a->waves_per_simd, " waves/SIMD");
      // An SGPR-only gain (a __restrict__ that frees scalar registers) is a gain too.
      if (b.sgprs != a->sgprs) text += ", " + std::to_string(b.sgprs) + " -> " + std::to_string(a->sgprs) + " SGPRs";
      const std::string who = one ? "" : shortKernelName(b.demangled) + " [" + b.arch + "]: ";
      doc.line(
          Line({{"all confirmed edits together: " + who}, {text, sameFigures(b, *a) ? Style::Plain : Style::Good}}));
    }
  }

  Notes notes() const {
    Notes n;
    for (const std::string &id : r_.combined.applied) {
      const Candidate &c = candidate(id);
      if (!c.assumption.empty()) n.items.push_back("the combination assumes, for " + id + ": " + c.assumption);
    }
    for (const auto &[refused, with] : r_.combined.conflicts)
      n.items.push_back(refused + " overlaps " + with + "'s edit: not combined");
    for (const std::string &w : r_.warnings) n.items.push_back("warning: " + w);
    if (!r_.combined_diff.empty())
      n.items.push_back("--patch FILE writes the combined diff (git apply FILE); the source itself is never modified");
    return n;
  }

  const AdviseResult &r_;
  std::map<std::string, std::size_t> index_;
};

}  // namespace

std::unique_ptr<View> adviseView(const AdviseResult &result) { return std::make_unique<AdviseView>(result); }

}  // namespace regscope
