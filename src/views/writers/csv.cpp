// CSV (RFC 4180 quoting, LF line ends; no control character from the data, see support/escape.h): every table of the
// document, each headed by its column keys, tables separated by a blank line. Cells that are one figure print the
// figure ("65536", not "64 KiB"). Lines and notes are for people and are left out.
#include "regscope/support/escape.h"
#include "writers.h"

namespace regscope {
namespace {

void writeRow(const std::vector<std::string> &cells, std::ostream &out) {
  for (std::size_t i = 0; i < cells.size(); ++i) out << (i ? "," : "") << escape::csv(cells[i]);
  out << '\n';
}

}  // namespace

void writeCsv(const Document &doc, std::ostream &out) {
  bool first = true;
  for (const Block &block : doc.blocks) {
    const Table *table = std::get_if<Table>(&block);
    if (!table) continue;
    if (!first) out << '\n';
    first = false;
    std::vector<std::string> keys;
    for (const Column &c : table->columns)
      if (c.show != Show::Text) keys.push_back(c.key);
    writeRow(keys, out);
    for (const std::vector<Cell> &row : table->rows) {
      std::vector<std::string> cells;
      for (std::size_t i = 0; i < row.size() && i < table->columns.size(); ++i)
        if (table->columns[i].show != Show::Text)
          // "?" (a figure unknown or unresolved) is an empty field: CSV's null.
          cells.push_back(row[i].number ? std::to_string(*row[i].number) : row[i].text == "?" ? "" : row[i].text);
      writeRow(cells, out);
    }
  }
}

}  // namespace regscope
