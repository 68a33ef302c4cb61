// What a view says, as plain data: lines, tables of typed cells, and notes.
// Writers (text, CSV, markdown) render any Document; no writer knows which
// command or vendor built it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace regscope {

// A cell: the text people read ("64 KiB", "4/8") and, where the cell is one
// figure, the figure itself (65536), which CSV prints.
struct Cell {
  std::string text;
  std::optional<std::int64_t> number;

  Cell() = default;
  Cell(std::string t) : text(std::move(t)) {}  // NOLINT: cells are built from text freely
  Cell(const char *t) : text(t) {}             // NOLINT
  Cell(std::string t, std::int64_t n) : text(std::move(t)), number(n) {}
  static Cell count(std::int64_t n) { return {std::to_string(n), n}; }
};

// How a stretch of text is shown where the writer has colour.
enum class Style { Plain, Bad, Good };
struct Span {
  std::string text;
  Style style = Style::Plain;
};

// One line of text; an empty line is a blank line.
struct Line {
  std::vector<Span> spans;
  Line() = default;
  Line(std::string text) : spans{{std::move(text), Style::Plain}} {}  // NOLINT
  Line(std::vector<Span> s) : spans(std::move(s)) {}                  // NOLINT
};

// Where a column appears: everywhere; only where people read (text,
// markdown: "4/8" in one column); or only in data (CSV: the two figures in
// columns of their own).
enum class Show { Everywhere, Text, Data };

struct Column {
  std::string header;  // "SPILL V/S" (text, markdown)
  std::string key;     // "vgpr_spills" (CSV)
  bool right = false;  // right-aligned in text
  Show show = Show::Everywhere;
  // A long signature the terminal may shorten ("kernel(...)"); every other
  // format prints it in full.
  bool elide = false;
  // Markdown shows the cells as inline code (a kernel's signature).
  bool code = false;
  // How the terminal fits a table wider than its width (docs/output.md):
  // a `fold` column whose every row holds one value leaves the grid and is
  // said once under it ("every row: ARCH gfx90a"); a `path` column (LOCATION)
  // is cut keeping its end (the file and line); then columns are left out,
  // the highest `drop` first (0: never), and named under the table.
  bool fold = false;
  bool path = false;
  int drop = 0;
};

struct Table {
  std::vector<Column> columns;
  std::vector<std::vector<Cell>> rows;
  // Where the terminal reads a row better as one line (compiler-style
  // "file:line: kernel: rule: message"), the text writer prints this instead
  // of the aligned grid; CSV and markdown still print the table.
  std::function<Line(const std::vector<Cell> &)> as_line;

  void add(std::vector<Cell> row) { rows.push_back(std::move(row)); }
};

// "notes:" and its items, under a table; nothing at all when there are none.
struct Notes {
  std::vector<std::string> items;
};

// Text shown as it is (a unified diff): indented in the terminal, fenced in
// markdown, left out of CSV. `language` names it for the fence ("diff").
struct Code {
  std::string language;
  std::string text;
};

using Block = std::variant<Line, Table, Notes, Code>;

struct Document {
  std::vector<Block> blocks;

  Document &line(Line l) {
    blocks.emplace_back(std::move(l));
    return *this;
  }
  Document &table(Table t) {
    blocks.emplace_back(std::move(t));
    return *this;
  }
  Document &notes(Notes n) {
    blocks.emplace_back(std::move(n));
    return *this;
  }
  Document &code(Code c) {
    blocks.emplace_back(std::move(c));
    return *this;
  }
};

}  // namespace regscope
