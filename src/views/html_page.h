// The HTML page's data document: what the templates in writers/html/ render
// (docs/html.md describes every key). The views build it from the report and
// the model's occupancy curves; this file only places figures on the page
// (SVG coordinates, bar widths) and never computes one. Internal to the views.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "regscope/describe/document.h"
#include "regscope/model/occupancy_curves.h"
#include "regscope/report/report.h"

namespace regscope {

// The Document's lines, tables and notes as "blocks" (real HTML tables).
nlohmann::json documentBlocks(const Document &doc);

// A page with a title and the document's blocks: every view's HTML unless it
// says more.
nlohmann::json documentPage(const Document &doc, const std::string &title);

// Lets a view add what it knows about one kernel on one arch to that arch's
// entry ("source" and "mix" for explain).
using ArchEntryHook = std::function<void(const KernelReport &, nlohmann::json &arch_entry)>;

// "summary", "limiters" and "kernels" (each kernel with its archs side by
// side, each arch with its figures, limit bars and occupancy charts) of `report`.
nlohmann::json reportSections(const Report &report, const ArchEntryHook &hook = {});

// One chart: the curve placed in SVG coordinates, the kernel's point, the next
// step and the headroom, and its text equivalent. `id` must be unique in the page.
nlohmann::json chartEntry(const OccupancyCurve &curve, const OccupancyChart &chart, const std::string &id);

// ---- for explain (per-line register pressure) ----
// One source line with its live registers at its peak instruction. Explain's
// view fills these from the isa stage; hand-made in html_test.cpp until then.
struct HeatLine {
  int number = 0;
  std::string text;  // the source line as it is in the file (escaped by the template)
  int vgprs = 0, sgprs = 0, agprs = 0;
  int spills = 0;       // spill stores and reloads the line produced
  int spill_depth = 0;  // the deepest loop among them
};
// "source": {"file", "peak_line", "max_vgprs", "lines": [{number, text, vgprs, sgprs, agprs, heat (0-100),
// level (0-9), peak}], "hot": the `hot` lines with the most VGPRs, most first}.
nlohmann::json sourceHeat(const std::string &file, const std::vector<HeatLine> &lines, std::size_t hot = 5);

struct MixEntry {
  std::string kind;  // "VALU", "SALU", "VMEM", "SMEM", "LDS", "MFMA", "branch", ...
  int count = 0;
};
// "mix": [{kind, count, percent, width}] in the order given.
nlohmann::json instructionMix(const std::vector<MixEntry> &mix);

// ---- for advise (measured source edits) ----
enum class DiffKind { Context, Removed, Added };
struct DiffLine {
  DiffKind kind = DiffKind::Context;
  int old_line = 0, new_line = 0;  // 0: none on that side
  std::string text;
};
struct EditFigure {
  std::string label;          // "VGPRs", "waves/SIMD"
  std::string before, after;  // as printed
  bool better = false, worse = false;
};
// One entry of the page's "edits": {title, file, kernel, arch, figures: [{label, before, after, better, worse}],
// lines: [{kind: "context"|"removed"|"added", sign, old_line, new_line, text}]}.
nlohmann::json editEntry(const std::string &title, const std::string &file, const std::string &kernel,
                         const std::string &arch, const std::vector<EditFigure> &figures,
                         const std::vector<DiffLine> &lines);

}  // namespace regscope
