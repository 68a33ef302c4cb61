// Markdown: a document's lines, tables and notes; for views with findings,
// the PR-comment summary (a verdict line, the kernel table, the findings).
#include "regscope/support/escape.h"
#include "writers.h"

namespace regscope {
namespace {

std::string location(const Verdict &v) {
  return escape::markdown(v.file + (v.line > 0 ? ":" + std::to_string(v.line) : ""));
}

void writeTable(const Table &table, std::ostream &out) {
  auto shown = [&](std::size_t i) { return i < table.columns.size() && table.columns[i].show != Show::Data; };
  out << '|';
  for (std::size_t i = 0; i < table.columns.size(); ++i)
    if (shown(i)) out << ' ' << escape::markdown(table.columns[i].header) << " |";
  out << "\n|";
  for (std::size_t i = 0; i < table.columns.size(); ++i)
    if (shown(i)) out << (table.columns[i].right ? "---:|" : "---|");
  out << '\n';
  for (const std::vector<Cell> &row : table.rows) {
    out << '|';
    for (std::size_t i = 0; i < row.size(); ++i)
      if (shown(i))
        out << ' ' << (table.columns[i].code ? escape::markdownCode(row[i].text) : escape::markdown(row[i].text))
            << " |";
    out << '\n';
  }
}

}  // namespace

void writeMarkdown(const Document &doc, std::ostream &out) {
  for (const Block &block : doc.blocks) {
    if (const Line *line = std::get_if<Line>(&block)) {
      for (const Span &span : line->spans) out << escape::markdown(span.text);
      out << '\n';
    } else if (const Table *table = std::get_if<Table>(&block)) {
      out << '\n';
      writeTable(*table, out);
      out << '\n';
    } else if (const Code *code = std::get_if<Code>(&block)) {
      // A fence longer than any backtick run inside.
      std::string fence = "```";
      while (escape::terminalLines(code->text).find(fence) != std::string::npos) fence += '`';
      const std::string text = escape::terminalLines(code->text);
      out << '\n' << fence << code->language << '\n' << text;
      if (!text.empty() && text.back() != '\n') out << '\n';
      out << fence << "\n\n";
    } else if (const Notes *notes = std::get_if<Notes>(&block); notes && !notes->items.empty()) {
      out << "**notes:**\n\n";
      for (const std::string &item : notes->items) out << "- " << escape::markdown(item) << '\n';
    }
  }
}

void writeCiMarkdown(const CiReport &ci, std::ostream &out) {
  std::size_t errors = 0;
  for (const Verdict &v : ci.findings) errors += v.level == Level::Error;
  std::string verdict = errors ? "❌ " + std::to_string(errors) + " failing" : std::string("✅ pass");
  if (!ci.errors.empty())
    verdict = "❌ " + std::to_string(ci.errors.size()) + " not analysed" + (errors ? ", " + verdict.substr(4) : "");
  out << "### " << escape::markdown(ci.title) << ": " << verdict << "\n\n";
  for (const CiError &e : ci.errors)
    out << "- **not analysed** " << escape::markdown(e.file)
        << (e.arch.empty() ? "" : " [" + escape::markdown(e.arch) + "]") << ": "
        << escape::markdown(e.message.substr(0, e.message.find('\n'))) << "\n";
  if (!ci.errors.empty()) out << "\n";
  writeTable(ci.summary, out);
  std::string notes;
  for (const Verdict &v : ci.findings)
    if (v.rule != Rule::Occupancy)
      notes += "- **" + std::string(ruleName(v.rule)) + "** " + escape::markdownCode(v.kernel) + " [" +
               escape::markdown(v.arch) + "] (" + location(v) + "): " + escape::markdown(v.message) + "\n";
  if (!notes.empty()) out << "\n" << notes;
}

}  // namespace regscope
