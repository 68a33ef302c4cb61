// The HTML page's data document (docs/html.md). Figures come from the
// report and the model's curves; this file only places them: SVG
// coordinates, bar widths, the order of sections.
#include "html_page.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "phrases.h"
#include "regscope/support/version.h"
#include "regscope/target/vendor_words.h"
#include "regscope/views/view.h"

namespace regscope {
namespace {

using nlohmann::json;

// The chart's frame, in SVG user units; the SVG scales with the page.
constexpr double kWidth = 360, kHeight = 200, kLeft = 46, kRight = 14, kTop = 14, kBottom = 38;

std::string fixed1(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", v);
  return text;
}

json spansJson(const Line &line) {
  json spans = json::array();
  for (const Span &s : line.spans)
    spans.push_back({{"text", s.text}, {"bad", s.style == Style::Bad}, {"good", s.style == Style::Good}});
  return spans;
}

// Every block sets all three kinds, so a template section never falls through
// to a key of the same name further up (Mustache looks up the context stack).
json blockJson(const Block &block) {
  json b = {{"is_line", false}, {"is_table", false}, {"is_notes", false}};
  if (const auto *line = std::get_if<Line>(&block)) {
    b["is_line"] = true;
    b["spans"] = spansJson(*line);
  } else if (const auto *table = std::get_if<Table>(&block)) {
    b["is_table"] = true;
    json headers = json::array(), rows = json::array();
    std::vector<std::size_t> shown;
    for (std::size_t i = 0; i < table->columns.size(); ++i) {
      const Column &c = table->columns[i];
      if (c.show == Show::Data) continue;
      shown.push_back(i);
      headers.push_back({{"text", c.header}, {"right", c.right}});
    }
    for (const std::vector<Cell> &row : table->rows) {
      json cells = json::array();
      for (std::size_t i : shown)
        cells.push_back({{"text", i < row.size() ? row[i].text : ""}, {"right", table->columns[i].right}});
      rows.push_back({{"cells", cells}});
    }
    b["headers"] = headers;
    b["rows"] = rows;
  } else if (const auto *notes = std::get_if<Notes>(&block)) {
    if (notes->items.empty()) return nullptr;
    b["is_notes"] = true;
    b["items"] = notes->items;
  }
  return b;
}

// ---- per vendor: what the axes and figures are called ----

// The chart's axis in its vendor's words (target/vendor_words.h).
const AxisWords &axisWords(Vendor vendor, CurveAxis axis) {
  const VendorWords &words = vendorWords(vendor);
  switch (axis) {
    case CurveAxis::Registers:
      return words.registers_axis;
    case CurveAxis::BlockSize:
      return words.block_size_axis;
    case CurveAxis::Shared:
      break;
  }
  return words.shared_axis;
}

std::string amount(CurveAxis axis, int x, const AxisWords &words) {
  return axis == CurveAxis::Shared ? bytesText(x) + (x % 1024 || x == 0 ? " bytes" : "")
                                   : std::to_string(x) + " " + words.unit;
}

// "waves/SIMD" -> "8 waves/SIMD"
std::string levelText(int level, Vendor vendor) { return std::to_string(level) + " " + occupancyUnit(vendor); }

std::string describe(const OccupancyCurve &c, const OccupancyChart &chart, const AxisWords &w) {
  std::string text = "At " + amount(c.axis, c.kernel_x, w) + ": " + levelText(c.kernel_level, chart.vendor) + " (of " +
                     std::to_string(chart.max_level) + ").";
  if (c.next)
    text += " Next step: " + levelText(c.next->level, chart.vendor) + " at " + amount(c.axis, c.next->x_to, w) +
            " or less (" + std::to_string(c.kernel_x - c.next->x_to) + " fewer).";
  if (c.headroom_to && *c.headroom_to > c.kernel_x)
    text += " Headroom: up to " + amount(c.axis, *c.headroom_to, w) + " keeps " +
            levelText(c.kernel_level, chart.vendor) + " (+" + std::to_string(*c.headroom_to - c.kernel_x) + ").";
  else if (c.headroom_to)
    text += " No headroom: " + amount(c.axis, c.kernel_x, w) + " is the most that keeps " +
            levelText(c.kernel_level, chart.vendor) + ".";
  return text;
}

// ---- the summary's words for each arch entry ----

json archEntry(const KernelReport &k, std::size_t kernel_index) {
  const OccupancySummary &s = k.summary;
  const OccupancyChart chart = occupancyChart(k);
  const bool no_level =
      s.limiter == Limiter::Unresolved || s.limiter == Limiter::Invalid || s.limiter == Limiter::Unknown;
  json e;
  e["arch"] = k.record.arch;
  e["vendor"] = vendorName(s.vendor);
  e["limiter"] = limiterName(s.limiter);
  e["level"] = s.level;
  e["max_level"] = s.max_level;
  e["occupancy"] = no_level
                       ? std::string("-")
                       : std::to_string(s.level) + "/" + std::to_string(s.max_level) + " " + occupancyUnit(s.vendor);
  e["at_max"] = s.limiter == Limiter::None;
  e["spills"] = s.spills_known && s.spills > 0;
  e["next_step"] = kernelNextStep(k);
  // A figure that was not read is "?", never its 0.
  e["figures"] = json::array({
      {{"label", vendorWords(s.vendor).registers_label},
       {"value", s.registers_known ? std::to_string(s.registers) : "?"}},
      {{"label", "Spills"},
       {"value", s.spills_known ? std::to_string(s.spills) + " " + spillsUnit(s.vendor) : std::string("?")}},
      {{"label", "Scratch"}, {"value", s.scratch_known ? bytesText(s.scratch_bytes) : "?"}},
      {{"label", axisWords(s.vendor, CurveAxis::Shared).title}, {"value", bytesText(sharedMemoryBytes(k))}},
      {{"label", axisWords(s.vendor, CurveAxis::BlockSize).title},
       {"value", std::to_string(k.launch.block_size) + " (" + blockSizeSourceName(k.launch.source) + ")"}},
  });
  json limits = json::array();
  for (const ResourceLimit &l : chart.limits) {
    const int level = std::min(l.level, chart.max_level);
    limits.push_back({{"resource", limiterName(l.resource)},
                      {"level", level},
                      {"width", chart.max_level ? fixed1(100.0 * level / chart.max_level) : "0"},
                      {"limiting", l.resource == chart.limiter}});
  }
  e["limits"] = limits;
  json charts = json::array();
  const std::string id = "k" + std::to_string(kernel_index) + "-" + k.record.arch;
  for (const OccupancyCurve &c : chart.curves) {
    json entry = chartEntry(c, chart, id);
    entry["limiting"] = charts.empty() && chart.limiter != Limiter::None;
    charts.push_back(std::move(entry));
  }
  e["charts"] = charts;
  e["no_chart"] = no_level ? json(e["next_step"]) : json(false);
  e["source"] = false;  // explain's hook sets these
  e["mix"] = false;
  return e;
}

// A stable id for a page anchor: the arch names are [a-z0-9_:+-] but checked anyway.
std::string idPart(const std::string &text) {
  std::string id;
  for (char c : text) id += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return id;
}

}  // namespace

json documentBlocks(const Document &doc) {
  json blocks = json::array();
  for (const Block &b : doc.blocks)
    if (json j = blockJson(b); !j.is_null()) blocks.push_back(std::move(j));
  return blocks;
}

json documentPage(const Document &doc, const std::string &title) {
  return {{"title", title}, {"version", kRegscopeVersion}, {"blocks", documentBlocks(doc)}};
}

json View::page() const { return documentPage(document(), "regscope"); }

json chartEntry(const OccupancyCurve &c, const OccupancyChart &chart, const std::string &id) {
  const AxisWords &words = axisWords(chart.vendor, c.axis);
  int x_max = std::max(1, c.steps.empty() ? c.kernel_x : c.steps.back().x_to);
  int y_max = std::max(1, chart.max_level);
  for (const CurveStep &s : c.steps) y_max = std::max(y_max, s.level);
  const double plot_w = kWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;
  auto X = [&](double x) { return kLeft + plot_w * x / x_max; };
  auto Y = [&](double y) { return kTop + plot_h * (1 - y / y_max); };
  std::string path;
  json steps = json::array();
  for (const CurveStep &s : c.steps) {
    path += (path.empty() ? "M" + fixed1(X(s.x_from)) + " " : "V") + fixed1(Y(s.level)) + "H" + fixed1(X(s.x_to));
    steps.push_back({{"range", s.x_from == s.x_to ? std::to_string(s.x_from)
                                                  : std::to_string(s.x_from) + "-" + std::to_string(s.x_to)},
                     {"level", s.level},
                     {"current", c.kernel_x >= s.x_from && c.kernel_x <= s.x_to}});
  }
  json x_ticks = json::array(), y_ticks = json::array();
  for (int i = 0; i <= 4; ++i) {
    const int x = static_cast<int>(std::lround(static_cast<double>(x_max) * i / 4));
    x_ticks.push_back(
        {{"pos", fixed1(X(x))}, {"label", c.axis == CurveAxis::Shared ? bytesText(x) : std::to_string(x)}});
  }
  const int y_step = std::max(1, (y_max + 7) / 8);
  for (int y = 0; y <= y_max; y += y_step) y_ticks.push_back({{"pos", fixed1(Y(y))}, {"label", std::to_string(y)}});
  const std::string axis = curveAxisName(c.axis);
  json entry = {
      {"id", idPart(id + "-" + axis)},
      {"axis", axis},
      {"title", words.title},
      {"x_label", std::string(words.title) + (c.axis == CurveAxis::Shared ? " (bytes)" : "")},
      {"y_label", occupancyUnit(chart.vendor)},
      {"width", fixed1(kWidth)},
      {"height", fixed1(kHeight)},
      {"left", fixed1(kLeft)},
      {"right", fixed1(kWidth - kRight)},
      {"top", fixed1(kTop)},
      {"bottom", fixed1(kHeight - kBottom)},
      {"tick_end", fixed1(kHeight - kBottom + 4)},
      {"x_label_y", fixed1(kHeight - 6)},
      {"x_mid", fixed1(kLeft + plot_w / 2)},
      {"y_mid", fixed1(kTop + plot_h / 2)},
      {"path", path},
      {"x_ticks", x_ticks},
      {"y_ticks", y_ticks},
      {"point",
       {{"cx", fixed1(X(c.kernel_x))},
        {"cy", fixed1(Y(c.kernel_level))},
        {"x", c.kernel_x},
        {"level", c.kernel_level}}},
      {"next", false},
      {"headroom", false},
      {"text", describe(c, chart, words)},
      {"steps", steps},
  };
  if (c.next)
    entry["next"] = {{"cx", fixed1(X(c.next->x_to))},
                     {"cy", fixed1(Y(c.next->level))},
                     {"x", c.next->x_to},
                     {"level", c.next->level}};
  if (c.headroom_to && *c.headroom_to > c.kernel_x)
    entry["headroom"] = {{"x1", fixed1(X(c.kernel_x))},
                         {"x2", fixed1(X(*c.headroom_to))},
                         {"y", fixed1(Y(c.kernel_level) - 5)},
                         {"w", fixed1(X(*c.headroom_to) - X(c.kernel_x))},
                         {"to", *c.headroom_to}};
  return entry;
}

json reportSections(const Report &report, const ArchEntryHook &hook) {
  // Kernels in first-seen order, each with its archs side by side.
  std::vector<std::pair<std::string, std::string>> order;
  std::map<std::pair<std::string, std::string>, std::vector<const KernelReport *>> groups;
  std::set<std::string> archs;
  std::map<std::string, int> limiters;
  int spilling = 0;
  for (const KernelReport &k : report.kernels) {
    // One kernel per translation unit and symbol; parsed artifacts (no
    // translation unit) by symbol, so the .s files of one kernel's archs share a card.
    auto key = std::make_pair(k.source, k.record.name);
    auto &group = groups[key];
    if (group.empty()) order.push_back(key);
    group.push_back(&k);
    archs.insert(k.record.arch);
    ++limiters[limiterName(k.summary.limiter)];
    spilling += k.summary.spills_known && k.summary.spills > 0;
  }
  json kernels = json::array();
  for (std::size_t i = 0; i < order.size(); ++i) {
    const std::vector<const KernelReport *> &group = groups[order[i]];
    const KernelReport &first = *group.front();
    json entry = {{"id", "k" + std::to_string(i)},
                  {"name", first.record.demangled.empty() ? first.record.name : first.record.demangled},
                  {"symbol", first.record.name},
                  {"location", locationText(first.display_file, first.record.line)},
                  {"archs", json::array()}};
    for (const KernelReport *k : group) {
      json arch = archEntry(*k, i);
      const std::string location = locationText(k->display_file, k->record.line);
      arch["location"] = location == entry["location"] ? json(false) : json(location);
      if (hook) hook(*k, arch);
      entry["archs"].push_back(std::move(arch));
    }
    entry["arch_count"] = group.size();
    kernels.push_back(std::move(entry));
  }
  json limiter_list = json::array();
  for (const auto &[name, count] : limiters) limiter_list.push_back({{"name", name}, {"count", count}});
  std::stable_sort(limiter_list.begin(), limiter_list.end(),
                   [](const json &a, const json &b) { return a["count"].get<int>() > b["count"].get<int>(); });
  std::string arch_list;
  for (const std::string &a : archs) arch_list += (arch_list.empty() ? "" : ", ") + a;
  json summary = json::array({
      {{"label", "Files"}, {"value", std::to_string(report.inputs.size())}},
      {{"label", "Kernels"}, {"value", std::to_string(order.size())}},
      {{"label", "Archs"}, {"value", arch_list.empty() ? "-" : arch_list}},
      {{"label", "Kernels x archs"}, {"value", std::to_string(report.kernels.size())}},
      {{"label", "Spilling"}, {"value", std::to_string(spilling)}, {"bad", spilling > 0}},
      {{"label", "Inputs that failed"},
       {"value", std::to_string(report.errors.size())},
       {"bad", !report.errors.empty()}},
  });
  json errors = json::array();
  for (const InputError &e : report.errors)
    errors.push_back({{"file", e.file}, {"arch", e.arch}, {"message", e.message}});
  return {{"summary", summary},
          {"limiters", limiter_list},
          {"kernels", kernels},
          {"errors", errors},
          {"compiler", report.compiler_version},
          {"warnings", report.warnings}};
}

json sourceHeat(const std::string &file, const std::vector<HeatLine> &lines, std::size_t hot) {
  int max_vgprs = 0, peak_line = 0;
  for (const HeatLine &l : lines)
    if (l.vgprs > max_vgprs) max_vgprs = l.vgprs, peak_line = l.number;
  json out = json::array();
  for (const HeatLine &l : lines) {
    const double share = max_vgprs ? static_cast<double>(l.vgprs) / max_vgprs : 0;
    out.push_back({{"number", l.number},
                   {"text", l.text},
                   {"vgprs", l.vgprs},
                   {"sgprs", l.sgprs},
                   {"agprs", l.agprs},
                   {"heat", fixed1(100 * share)},
                   {"level", std::min(9, static_cast<int>(share * 10))},
                   {"peak", l.number == peak_line && max_vgprs > 0},
                   {"spills", l.spills},
                   {"spill_depth", l.spill_depth},
                   {"spilled", l.spills > 0}});
  }
  json hottest = out;
  std::stable_sort(hottest.begin(), hottest.end(),
                   [](const json &a, const json &b) { return a["vgprs"].get<int>() > b["vgprs"].get<int>(); });
  if (hottest.size() > hot) hottest.erase(hottest.begin() + static_cast<std::ptrdiff_t>(hot), hottest.end());
  return {{"file", file}, {"peak_line", peak_line}, {"max_vgprs", max_vgprs}, {"lines", out}, {"hot", hottest}};
}

json instructionMix(const std::vector<MixEntry> &mix) {
  int total = 0;
  for (const MixEntry &m : mix) total += m.count;
  json out = json::array();
  for (const MixEntry &m : mix)
    out.push_back({{"kind", m.kind},
                   {"count", m.count},
                   {"percent", total ? fixed1(100.0 * m.count / total) : "0"},
                   {"width", total ? fixed1(100.0 * m.count / total) : "0"}});
  return out;
}

json editEntry(const std::string &title, const std::string &file, const std::string &kernel, const std::string &arch,
               const std::vector<EditFigure> &figures, const std::vector<DiffLine> &lines) {
  json figs = json::array(), diff = json::array();
  for (const EditFigure &f : figures)
    figs.push_back(
        {{"label", f.label}, {"before", f.before}, {"after", f.after}, {"better", f.better}, {"worse", f.worse}});
  for (const DiffLine &l : lines) {
    const char *kind = l.kind == DiffKind::Added ? "added" : l.kind == DiffKind::Removed ? "removed" : "context";
    const char *sign = l.kind == DiffKind::Added ? "+" : l.kind == DiffKind::Removed ? "-" : " ";
    diff.push_back({{"kind", kind},
                    {"sign", sign},
                    {"old_line", l.old_line ? json(l.old_line) : json("")},
                    {"new_line", l.new_line ? json(l.new_line) : json("")},
                    {"text", l.text}});
  }
  return {{"title", title}, {"file", file}, {"kernel", kernel}, {"arch", arch}, {"figures", figs}, {"lines", diff}};
}

}  // namespace regscope
