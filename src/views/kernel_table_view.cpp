// The kernel table: analyze, parse and kernels analyze. One row per (kernel,
// arch), a table per vendor, then notes on what a figure alone does not say,
// each said once with the kernels it covers: each backend's section, as its
// describe.cpp builds it (Backend::kernelSection), printed here.
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
    std::vector<KernelSection> sections = kernelSections(report_.kernels, report_.compiler_version);
    // The run's notes (the optimisation level, a default arch) join the last
    // table's: one "notes:" block under it, not two.
    std::vector<std::string> run_notes = optimisationNotes(report_);
    run_notes.insert(run_notes.end(), report_.notes.begin(), report_.notes.end());
    if (sections.empty()) sections.emplace_back();
    std::vector<std::string> &last = sections.back().notes.items;
    last.insert(last.end(), run_notes.begin(), run_notes.end());
    bool first = true;
    for (KernelSection &section : sections) {
      if (!first) doc.line(Line(""));
      first = false;
      doc.table(std::move(section.table)).notes(std::move(section.notes));
    }
    return doc;
  }

  nlohmann::json toJson() const override { return reportToJson(report_); }
  void writeJson(std::ostream &out) const override { writeReportJson(report_, out); }

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
    // A figure that was not read is "?", never its 0.
    auto known = [](bool is_known, int n) { return is_known ? Cell::count(n) : Cell("?"); };
    ci.summary.add({r.demangled, r.arch, locationText(k.display_file, r.line), known(s.registers_known, s.registers),
                    known(s.spills_known, s.spills), known(s.scratch_known, s.scratch_bytes),
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
