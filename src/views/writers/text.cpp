// The terminal: aligned tables, optional colour, notes under the tables.
#include <algorithm>
#include <sstream>

#include "../phrases.h"
#include "regscope/support/escape.h"
#include "text_table.h"
#include "writers.h"

namespace regscope {
namespace {

void writeLine(const Line &line, std::ostream &out, bool color) {
  for (const Span &span : line.spans) {
    const char *on = !color || span.style == Style::Plain ? "" : span.style == Style::Bad ? "\033[31m" : "\033[32m";
    out << on << escape::terminal(span.text) << (*on ? "\033[0m" : "");
  }
  out << '\n';
}

constexpr int kDefaultNameWidth = 48;
constexpr int kNarrowestName = 24;

// How wide the elided columns may be: as asked, else what the terminal leaves, else the default.
std::size_t nameWidth(const Table &table, const std::vector<bool> &shown, const RenderOptions &options) {
  if (options.name_width >= 0) return static_cast<std::size_t>(options.name_width);
  if (options.terminal_width <= 0) return kDefaultNameWidth;
  std::size_t others = 0, elided = 0;
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    if (!shown[c]) continue;
    std::size_t width = table.columns[c].header.size();
    for (const std::vector<Cell> &row : table.rows)
      if (c < row.size()) width = std::max(width, escape::terminal(row[c].text).size());  // as printed
    (table.columns[c].elide ? elided : others) += width + 2;
  }
  if (others + elided <= static_cast<std::size_t>(options.terminal_width)) return 0;  // everything fits
  const int left = options.terminal_width - static_cast<int>(others);
  return static_cast<std::size_t>(std::max(left, kNarrowestName));
}

void writeTable(const Table &table, std::ostream &out, const RenderOptions &options) {
  if (table.as_line) {
    for (const std::vector<Cell> &row : table.rows) writeLine(table.as_line(row), out, options.color);
    return;
  }
  std::vector<std::string> headers;
  std::vector<bool> right, shown;
  for (const Column &c : table.columns) {
    shown.push_back(c.show != Show::Data);
    if (!shown.back()) continue;
    headers.push_back(escape::terminal(c.header));
    right.push_back(c.right);
  }
  const std::size_t width = nameWidth(table, shown, options);
  // Elided columns are shortened as a whole, so that siblings (template
  // instantiations of one kernel) stay distinct.
  std::vector<std::vector<std::string>> shortened(table.columns.size());
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    if (!shown[c] || !table.columns[c].elide) continue;
    std::vector<std::string> names;
    for (const std::vector<Cell> &row : table.rows)
      names.push_back(c < row.size() ? escape::terminal(row[c].text) : "");
    shortened[c] = shortenNames(names, width);
  }
  TextTable text(headers, right);
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    const std::vector<Cell> &row = table.rows[r];
    std::vector<std::string> cells;
    for (std::size_t i = 0; i < row.size() && i < table.columns.size(); ++i)
      if (shown[i]) cells.push_back(table.columns[i].elide ? shortened[i][r] : escape::terminal(row[i].text));
    text.addRow(std::move(cells));
  }
  text.print(out, options.color);
}

// Indented; a diff's added and removed lines in colour.
void writeCode(const Code &code, std::ostream &out, bool color) {
  std::istringstream lines(code.text);
  for (std::string line; std::getline(lines, line);) {
    Style style = Style::Plain;
    if (code.language == "diff" && line.rfind("+++", 0) != 0 && line.rfind("---", 0) != 0 && !line.empty())
      style = line[0] == '+' ? Style::Good : line[0] == '-' ? Style::Bad : Style::Plain;
    // Source lines keep their tabs; everything else in them is made visible.
    const char *on = !color || style == Style::Plain ? "" : style == Style::Bad ? "\033[31m" : "\033[32m";
    out << on << "    " << escape::terminalLines(line) << (*on ? "\033[0m" : "") << '\n';
  }
}

}  // namespace

void writeText(const Document &doc, std::ostream &out, const RenderOptions &options) {
  for (const Block &block : doc.blocks) {
    if (const Line *line = std::get_if<Line>(&block))
      writeLine(*line, out, options.color);
    else if (const Table *table = std::get_if<Table>(&block))
      writeTable(*table, out, options);
    else if (const Code *code = std::get_if<Code>(&block))
      writeCode(*code, out, options.color);
    else if (const Notes *notes = std::get_if<Notes>(&block); notes && !notes->items.empty()) {
      out << "\nnotes:\n";
      for (const std::string &item : notes->items) out << "  " << escape::terminal(item) << '\n';
    }
  }
}

}  // namespace regscope
