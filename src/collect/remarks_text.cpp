// Parses kernel-resource-usage remarks printed as text on stderr.
#include <charconv>
#include <map>
#include <utility>
#include <string>

#include "regscope/collect/collect.h"
#include "regscope/collect/mc_expr.h"
#include "regscope/support/error.h"
#include "regscope/target/amdgpu.h"
#include "figure_notes.h"
#include "remark_labels.h"
#include "scan.h"

namespace regscope {
namespace {

using llvm::StringRef;

struct RemarkLine {
  StringRef file, line, label, value;
};

bool isLabelChar(char c) { return scan::isLetter(c) || c == ' ' || c == '/' || c == '[' || c == ']'; }

// "[remark: ]   LABEL: VALUE[ [-Rpass-analysis=kernel-resource-usage]]" after
// the location. The label runs up to the first ": "; the value is the rest,
// less the pass name and trailing whitespace.
bool matchLabelAndValue(StringRef rest, RemarkLine &out) {
  static constexpr StringRef kPass = " [-Rpass-analysis=kernel-resource-usage]";
  for (const bool prefixed : {true, false}) {
    StringRef s = rest;
    if (prefixed && !s.consume_front("remark: ")) continue;
    s = scan::ltrim(s);
    if (s.empty() || !scan::isLetter(s.front())) continue;
    std::size_t end = 1;
    while (end < s.size() && isLabelChar(s[end])) ++end;
    if (!s.substr(end).startswith(": ")) continue;
    const StringRef value = s.substr(end + 2);
    if (value.empty()) continue;
    StringRef trimmed = value.rtrim(" \t\r\n\f\v");
    if (trimmed.empty()) trimmed = value.take_front(1);  // all whitespace: the regex kept one character
    if (trimmed.endswith(kPass) && trimmed.size() > kPass.size()) trimmed = trimmed.drop_back(kPass.size());
    out.label = s.take_front(end);
    out.value = trimmed;
    return true;
  }
  return false;
}

// "FILE:LINE:COL: " followed by a label and value. FILE may itself hold
// colons ("C:\x.hip"): the first ":LINE:COL: " after which a label follows ends it.
bool matchLocated(StringRef body, RemarkLine &out) {
  for (std::size_t colon = body.find(':', 1); colon != StringRef::npos; colon = body.find(':', colon + 1)) {
    StringRef s = body.substr(colon + 1);
    const std::size_t line_digits = s.find_if_not(scan::isDigit);
    if (line_digits == 0 || line_digits == StringRef::npos || s[line_digits] != ':') continue;
    StringRef col = s.substr(line_digits + 1);
    const std::size_t col_digits = col.find_if_not(scan::isDigit);
    if (col_digits == 0 || col_digits == StringRef::npos || !col.substr(col_digits).startswith(": ")) continue;
    if (!matchLabelAndValue(col.substr(col_digits + 2), out)) continue;
    out.file = body.take_front(colon);
    out.line = s.take_front(line_digits);
    return true;
  }
  return false;
}

bool matchRemarkLine(StringRef line, RemarkLine &out) {
  if (line.startswith("remark: ") && matchLocated(line.drop_front(8), out)) return true;
  return matchLocated(line, out);
}

int lineNumber(StringRef digits) {
  int line = 0;
  auto [end, ec] = std::from_chars(digits.begin(), digits.end(), line);
  if (ec != std::errc() || end != digits.end())
    throw Error("a remark names source line " + digits.str() + ", which is out of range");
  return line;
}

}  // namespace

std::optional<std::int64_t> parseRemarkValue(std::string_view value) {
  if (value == "True") return 1;
  if (value == "False") return 0;
  std::int64_t number = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (ec != std::errc() || end != value.data() + value.size()) return std::nullopt;
  return number;
}

void setRemarkValue(KernelFacts &facts, Field field, std::string_view value) {
  if (auto number = parseRemarkValue(value)) {
    facts.set(field, *number);
    return;
  }
  const McExprValue evaluated = McExprEvaluator({}, findAmdArch(facts.arch)).evaluate(value);
  if (evaluated.value) return facts.set(field, *evaluated.value);
  facts.unresolved.push_back(field);
  noteUnresolved(facts.notes, field, value, evaluated.problem);
}

RemarkTextParser::RemarkTextParser(std::string arch) : arch_(std::move(arch)) {}

// A parallel build (make -j, ninja) interleaves the remark blocks of
// different files, so a value line belongs to the block opened at its own
// FILE:LINE, never simply to the last block printed. Indices, not pointers:
// the vector grows. The keys are copies: a line read in chunks is gone once
// the next chunk is read.
void RemarkTextParser::line(std::string_view text) {
  RemarkLine m;
  if (!scan::containsColonSpace(text) || !matchRemarkLine(scan::ref(text), m)) return;  // warnings, source snippets
  for (const RemarkLabel &known : kRemarkLabels) {
    if (known.text != scan::view(m.label)) continue;
    key_.assign(m.file.data(), m.file.size()).push_back('\n');  // no line holds a '\n'
    key_.append(m.line.data(), m.line.size());
    if (!known.field) {  // "Function Name" opens a block
      KernelFacts facts;
      facts.name = m.value.str();
      facts.arch = arch_;
      facts.file = m.file.str();
      facts.line = lineNumber(m.line);
      set_.kernels.push_back(std::move(facts));
      last_ = set_.kernels.size() - 1;
      open_[key_] = *last_;  // a previous block at this place is complete
    } else if (auto it = open_.find(key_); it != open_.end()) {
      setRemarkValue(set_.kernels[it->second], *known.field, scan::view(m.value));
    } else if (last_) {  // a location no block opened at: the text's order is all there is
      setRemarkValue(set_.kernels[*last_], *known.field, scan::view(m.value));
    }
    break;
  }
}

FactSet RemarkTextParser::finish() {
  for (KernelFacts &facts : set_.kernels) markDeviceFunction(facts);
  open_.clear();
  last_.reset();
  return std::move(set_);
}

FactSet parseRemarkText(std::string_view text, const std::string &arch) {
  RemarkTextParser parser(arch);
  scan::forEachLine(text, [&](StringRef line) { parser.line(scan::view(line)); });
  return parser.finish();
}

}  // namespace regscope
