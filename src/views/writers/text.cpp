// The terminal: aligned tables, optional colour, notes under the tables.
#include "text_table.h"
#include "writers.h"

namespace regscope {
namespace {

void writeLine(const Line &line, std::ostream &out, bool color) {
  for (const Span &span : line.spans) {
    const char *on = !color || span.style == Style::Plain ? "" : span.style == Style::Bad ? "\033[31m" : "\033[32m";
    out << on << span.text << (*on ? "\033[0m" : "");
  }
  out << '\n';
}

void writeTable(const Table &table, std::ostream &out, bool color) {
  if (table.as_line) {
    for (const std::vector<Cell> &row : table.rows) writeLine(table.as_line(row), out, color);
    return;
  }
  std::vector<std::string> headers;
  std::vector<bool> right;
  for (const Column &c : table.columns) {
    if (c.show == Show::Data) continue;
    headers.push_back(c.header);
    right.push_back(c.right);
  }
  TextTable text(headers, right);
  for (const std::vector<Cell> &row : table.rows) {
    std::vector<std::string> cells;
    for (std::size_t i = 0; i < row.size() && i < table.columns.size(); ++i)
      if (table.columns[i].show != Show::Data) cells.push_back(row[i].text);
    text.addRow(std::move(cells));
  }
  text.print(out, color);
}

}  // namespace

void writeText(const Document &doc, std::ostream &out, bool color) {
  for (const Block &block : doc.blocks) {
    if (const Line *line = std::get_if<Line>(&block))
      writeLine(*line, out, color);
    else if (const Table *table = std::get_if<Table>(&block))
      writeTable(*table, out, color);
    else if (const Notes *notes = std::get_if<Notes>(&block); notes && !notes->items.empty()) {
      out << "\nnotes:\n";
      for (const std::string &item : notes->items) out << "  " << item << '\n';
    }
  }
}

}  // namespace regscope
