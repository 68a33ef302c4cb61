// The terminal: aligned tables, optional colour, notes under the tables.
#include <algorithm>
#include <functional>
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

// A kernel name or a path cut shorter than these says little.
constexpr std::size_t kNarrowestName = 24;
constexpr std::size_t kNarrowestPath = 14;

// A path as the reader's working directory sees it: relative below it.
std::string relativeTo(const std::string &path, const std::string &directory) {
  if (directory.empty() || path.size() <= directory.size() + 1 || path.compare(0, directory.size(), directory) != 0 ||
      path[directory.size()] != '/')
    return path;
  return path.substr(directory.size() + 1);
}

// The end of a path in `width` characters, from a directory boundary where
// one is kept: ".../lbm_restrict_g14.hip:5". The file and line tell rows
// apart; the directories are in --wide, JSON and CSV.
std::string cutPath(const std::string &path, std::size_t width) {
  if (path.size() <= width || width < 8) return path;
  std::string tail = path.substr(path.size() - (width - 3));
  // From a directory boundary, unless only the file name would follow "...".
  if (const std::size_t slash = tail.find('/');
      slash != std::string::npos && slash + 1 < tail.size() && slash != tail.rfind('/'))
    return "..." + tail.substr(slash);
  // No directory boundary kept: the file name alone, whole, where it fits.
  const std::size_t slash = path.rfind('/');
  if (slash != std::string::npos && path.size() - slash - 1 <= width) return path.substr(slash + 1);
  return "..." + tail;
}

std::string joined(const std::vector<std::string> &items) {
  std::string out;
  for (const std::string &item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

// `text` broken at spaces into lines of at most `width` (a word longer than
// that stays whole), the first after `lead`, the rest after `indent`.
void writeWrapped(const std::string &text, std::size_t width, const std::string &lead, const std::string &indent,
                  std::ostream &out) {
  std::string line = lead;
  std::size_t at = 0;
  bool first_word = true;
  while (at <= text.size()) {
    std::size_t space = text.find(' ', at);
    if (space == std::string::npos) space = text.size();
    const std::string word = text.substr(at, space - at);
    if (!first_word && width > 0 && line.size() + 1 + word.size() > width) {
      out << line << '\n';
      line = indent + word;
    } else {
      line += (first_word ? "" : " ") + word;
    }
    first_word = false;
    at = space + 1;
  }
  out << line << '\n';
}

// `text` in lines of at most `width` characters, broken at spaces (a word
// longer than the width is a line of its own).
std::vector<std::string> wrapWords(const std::string &text, std::size_t width) {
  // A source line's indentation stays on its first line.
  std::size_t at = std::min(text.find_first_not_of(' '), text.size());
  std::vector<std::string> lines{text.substr(0, at)};
  while (at <= text.size()) {
    std::size_t space = text.find(' ', at);
    if (space == std::string::npos) space = text.size();
    const std::string word = text.substr(at, space - at);
    const bool fresh = lines.back().find_first_not_of(' ') == std::string::npos;  // no word yet
    if (!fresh && lines.back().size() + 1 + word.size() > width)
      lines.push_back(word);
    else
      lines.back() += (fresh ? "" : " ") + word;
    at = space + 1;
  }
  return lines;
}

// The grid at the width the options give (docs/output.md, "Fitting the
// terminal"): every column at its natural width when that fits; else the
// columns whose every row holds one value are said once under the grid, then
// LOCATION and the kernel names are cut (names at identifier and template
// boundaries, keeping what tells siblings apart; paths keeping their end),
// then the columns a table marks as least needed are left out, and named.
// Numbers are never cut.
void writeTable(const Table &table, std::ostream &out, const RenderOptions &options) {
  if (table.as_line) {
    for (const std::vector<Cell> &row : table.rows) writeLine(table.as_line(row), out, options.color);
    return;
  }
  std::vector<std::size_t> columns;  // the shown ones
  for (std::size_t c = 0; c < table.columns.size(); ++c)
    if (table.columns[c].show != Show::Data) columns.push_back(c);
  // cells[j][r]: column j's text in row r, as printed before any cut
  std::vector<std::vector<std::string>> cells(columns.size());
  std::vector<std::size_t> width(columns.size());
  for (std::size_t j = 0; j < columns.size(); ++j) {
    const Column &column = table.columns[columns[j]];
    width[j] = escape::terminal(column.header).size();
    for (const std::vector<Cell> &row : table.rows) {
      std::string text = columns[j] < row.size() ? escape::terminal(row[columns[j]].text) : "";
      if (column.path) text = relativeTo(text, options.working_directory);
      width[j] = std::max(width[j], text.size());
      cells[j].push_back(std::move(text));
    }
  }
  const std::vector<std::size_t> natural = width;
  std::vector<bool> kept(columns.size(), true);
  auto total = [&] {
    std::size_t sum = 0, shown = 0;
    for (std::size_t j = 0; j < columns.size(); ++j)
      if (kept[j]) sum += width[j] + (shown++ ? 2 : 0);
    return sum;
  };
  const std::size_t limit = options.terminal_width > 0 ? static_cast<std::size_t>(options.terminal_width) : 0;
  auto over = [&] { return limit > 0 && total() > limit; };
  if (options.name_width > 0)
    for (std::size_t j = 0; j < columns.size(); ++j)
      if (table.columns[columns[j]].elide)
        width[j] = std::min(width[j], std::max(static_cast<std::size_t>(options.name_width),
                                               escape::terminal(table.columns[columns[j]].header).size()));
  // Column j cut to its width: names as a whole, so that siblings (template
  // instantiations of one kernel) stay distinct; then as wide as what it shows.
  // shown[j] is empty while column j shows its cells whole.
  std::vector<std::vector<std::string>> shown(columns.size());
  std::vector<bool> numbered(columns.size(), false);  // names that read alike cut, told apart by "~N"
  auto cutTo = [&](std::size_t j) {
    const Column &column = table.columns[columns[j]];
    if (!column.elide && !column.path) return;
    shown[j].clear();
    numbered[j] = false;
    if (width[j] >= natural[j]) return;  // room for it whole again
    if (column.elide) {
      bool tagged = false;
      shown[j] = shortenNames(cells[j], width[j], &tagged);
      numbered[j] = tagged;
    } else {
      for (const std::string &cell : cells[j]) shown[j].push_back(cutPath(cell, width[j]));
    }
    std::size_t widest = escape::terminal(column.header).size();
    for (const std::string &text : shown[j]) widest = std::max(widest, text.size());
    width[j] = widest;
  };
  std::vector<std::string> said_once, left_out;
  for (std::size_t j = 0; j < columns.size() && over(); ++j) {
    if (!table.columns[columns[j]].fold) continue;
    if (std::any_of(cells[j].begin(), cells[j].end(), [&](const std::string &t) { return t != cells[j].front(); }))
      continue;
    kept[j] = false;
    said_once.push_back(escape::terminal(table.columns[columns[j]].header) + " " + cells[j].front());
  }
  for (const bool paths : {true, false}) {
    for (std::size_t j = 0; j < columns.size() && over(); ++j) {
      const Column &column = table.columns[columns[j]];
      if (!kept[j] || (paths ? !column.path : !column.elide || options.name_width >= 0)) continue;
      const std::size_t narrowest =
          std::max(paths ? kNarrowestPath : kNarrowestName, escape::terminal(column.header).size());
      if (width[j] <= narrowest) continue;
      width[j] = std::max(narrowest, width[j] - std::min(width[j], total() - limit));
    }
  }
  for (std::size_t j = 0; j < columns.size(); ++j) cutTo(j);
  std::vector<std::size_t> by_drop;
  for (std::size_t j = 0; j < columns.size(); ++j)
    if (table.columns[columns[j]].drop > 0) by_drop.push_back(j);
  std::stable_sort(by_drop.begin(), by_drop.end(), [&](std::size_t a, std::size_t b) {
    return table.columns[columns[a]].drop > table.columns[columns[b]].drop;
  });
  for (std::size_t j : by_drop) {
    if (!over()) break;
    if (!kept[j]) continue;
    kept[j] = false;
    left_out.push_back(escape::terminal(table.columns[columns[j]].header));
  }
  // A column left out while the names and paths were at their narrowest
  // comes back where what they show left room (the last left out first).
  for (auto it = left_out.rbegin(); it != left_out.rend();) {
    const auto j = std::find_if(by_drop.begin(), by_drop.end(), [&](std::size_t c) {
      return !kept[c] && escape::terminal(table.columns[columns[c]].header) == *it;
    });
    kept[*j] = true;
    if (over()) {
      kept[*j] = false;
      ++it;
      continue;
    }
    it = std::make_reverse_iterator(left_out.erase(std::next(it).base()));
  }
  // What the left-out columns freed goes back to the cut paths and names.
  for (const bool paths : {true, false})
    for (std::size_t j = 0; j < columns.size(); ++j) {
      const Column &column = table.columns[columns[j]];
      if (!kept[j] || width[j] >= natural[j] || (paths ? !column.path : !column.elide || options.name_width >= 0) ||
          total() >= limit)
        continue;
      width[j] += std::min(natural[j] - width[j], limit - total());
      cutTo(j);
    }
  std::vector<std::string> headers;
  std::vector<bool> right;
  for (std::size_t j = 0; j < columns.size(); ++j)
    if (kept[j]) {
      headers.push_back(escape::terminal(table.columns[columns[j]].header));
      right.push_back(table.columns[columns[j]].right);
    }
  // The last column's text (NEXT STEP, a gate's message) wraps under itself
  // at the width instead of running past it: its further lines are rows of
  // their own that hold only its words (issue 32: "cannot launch: ..." was 212
  // columns wide at 100).
  std::size_t last = columns.size(), start = 0;
  for (std::size_t j = 0; j < columns.size(); ++j)
    if (kept[j]) {
      if (last != columns.size()) start += width[last] + 2;
      last = j;
    }
  constexpr std::size_t kNarrowestWrap = 10;  // "waves/SIMD", "at maximum": narrower splits their words
  const bool wrap = last != columns.size() && limit >= start + kNarrowestWrap && !table.columns[columns[last]].right;
  // Each printed row to `line`: a table row, and the further lines of its
  // wrapped last column. Run twice, to measure and to print, so the rows are
  // never held as text.
  auto eachLine = [&](const std::function<void(const std::vector<std::string> &)> &line) {
    std::vector<std::string> row;
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
      row.clear();
      for (std::size_t j = 0; j < columns.size(); ++j)
        if (kept[j]) row.push_back(shown[j].empty() ? cells[j][r] : shown[j][r]);
      if (!wrap || row.back().size() <= limit - start) {
        line(row);
        continue;
      }
      const std::vector<std::string> pieces = wrapWords(row.back(), limit - start);
      row.back() = pieces.front();
      line(row);
      for (std::size_t i = 1; i < pieces.size(); ++i) {
        std::vector<std::string> more(headers.size());
        more.back() = pieces[i];
        line(more);
      }
    }
  };
  TextTable text(headers, right);
  eachLine([&](const std::vector<std::string> &row) { text.measure(row); });
  text.printHeader(out, options.color);
  eachLine([&](const std::vector<std::string> &row) { text.printRow(out, row); });
  if (!said_once.empty()) writeWrapped("every row: " + joined(said_once), limit, "", "  ", out);
  for (std::size_t j = 0; j < columns.size(); ++j)
    if (kept[j] && numbered[j])
      writeWrapped(escape::terminal(table.columns[columns[j]].header) +
                       ": names that read alike at this width end in ~1, ~2, ... in the order of their whole "
                       "names (--wide shows them whole)",
                   limit, "", "  ", out);
  if (!left_out.empty())
    writeWrapped(
        "not shown at " + std::to_string(limit) + " columns: " + joined(left_out) + " (--wide shows every column)",
        limit, "", "  ", out);
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
      const std::size_t width = options.terminal_width > 0 ? static_cast<std::size_t>(options.terminal_width) : 0;
      for (const std::string &item : notes->items) writeWrapped(escape::terminal(item), width, "  ", "    ", out);
    }
  }
}

}  // namespace regscope
