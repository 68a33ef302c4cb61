// Parses kernel-resource-usage remarks printed as text on stderr.
#include <charconv>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "figure_notes.h"
#include "regscope/backends/amd/collect.h"
#include "regscope/backends/amd/mc_expr.h"
#include "regscope/collect/collect.h"
#include "regscope/collect/scan.h"
#include "regscope/support/error.h"
#include "regscope/support/llvm_compat.h"
#include "regscope/target/amdgpu.h"
#include "remark_labels.h"

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
    // ": " as clang prints it; ":<TAB>" as a log reformatted by a tool may hold it.
    if (!startsWith(s.substr(end), ": ") && !startsWith(s.substr(end), ":\t")) continue;
    const StringRef value = s.substr(end + 2).ltrim(" \t");
    if (value.empty()) continue;
    StringRef trimmed = value.rtrim(" \t\r\n\f\v");
    if (trimmed.empty()) trimmed = value.take_front(1);  // all whitespace: the regex kept one character
    if (endsWith(trimmed, kPass) && trimmed.size() > kPass.size()) trimmed = trimmed.drop_back(kPass.size());
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
    if (col_digits == 0 || col_digits == StringRef::npos || !startsWith(col.substr(col_digits), ": ")) continue;
    if (!matchLabelAndValue(col.substr(col_digits + 2), out)) continue;
    out.file = body.take_front(colon);
    out.line = s.take_front(line_digits);
    return true;
  }
  return false;
}

bool matchRemarkLine(StringRef line, RemarkLine &out) {
  if (startsWith(line, "remark: ") && matchLocated(line.drop_front(8), out)) return true;
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
  noteUnresolved(facts.notes, field, value, evaluated.problem, evaluated.symbol);
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
      open_[key_] = set_.kernels.size() - 1;  // a previous block at this place is complete
    } else if (auto it = open_.find(key_); it != open_.end()) {
      setRemarkValue(set_.kernels[it->second], *known.field, scan::view(m.value));
    } else {
      // A location no "Function Name" line opened (the line is missing, or the
      // log was cut): the figures belong to no kernel, never to the one
      // printed before them.
      ++orphans_[m.file.str() + ":" + m.line.str()];
    }
    break;
  }
}

FactSet RemarkTextParser::finish() {
  for (KernelFacts &facts : set_.kernels) markDeviceFunction(facts);
  for (const auto &[where, count] : orphans_)
    set_.warnings.push_back(std::to_string(count) + " resource remark" + (count == 1 ? "" : "s") + " at " + where +
                            " belong to no kernel (no \"Function Name\" remark opens a block there): ignored");
  open_.clear();
  orphans_.clear();
  return std::move(set_);
}

FactSet parseRemarkText(std::string_view text, const std::string &arch) {
  RemarkTextParser parser(arch);
  scan::forEachLine(text, [&](StringRef line) { parser.line(scan::view(line)); });
  return parser.finish();
}

}  // namespace regscope

namespace regscope {
namespace {

// `line` without ANSI colour sequences (ESC [ ... letter), which clang writes
// under -fcolor-diagnostics.
std::string withoutColour(StringRef line) {
  std::string out;
  out.reserve(line.size());
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\x1b' && i + 1 < line.size() && line[i + 1] == '[') {
      i += 2;
      while (i < line.size() && !scan::isLetter(line[i])) ++i;
      continue;
    }
    out += line[i];
  }
  return out;
}

bool isResourceRemark(const std::string &plain) {
  RemarkLine m;
  return plain.find("[-Rpass-analysis=kernel-resource-usage]") != std::string::npos && matchRemarkLine(plain, m);
}

// Clang's caret line under a snippet: spaces, '~' and at least one '^'.
bool isCaretLine(const std::string &plain) {
  StringRef s = scan::trim(plain);
  return !s.empty() && s.contains('^') && s.find_first_not_of("^~ ") == StringRef::npos;
}

}  // namespace

std::string splitResourceRemarks(std::string_view diagnostics, std::string &remarks) {
  // Lines with their '\n', so that what is kept is byte for byte what was printed.
  std::vector<std::string_view> lines;
  for (std::size_t at = 0; at < diagnostics.size();) {
    const std::size_t end = diagnostics.find('\n', at);
    const std::size_t next = end == std::string_view::npos ? diagnostics.size() : end + 1;
    lines.push_back(diagnostics.substr(at, next - at));
    at = next;
  }
  // Under -fcolor-diagnostics a line may open with the reset that ends the
  // line before it (clang writes it after a caret line): it goes with that line.
  static constexpr std::string_view kReset = "\x1b[0m";
  auto owed = [](std::string_view line) { return line.substr(0, line.rfind(kReset, 0) == 0 ? kReset.size() : 0); };
  std::string kept;
  bool previous_kept = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string plain = withoutColour(scan::ref(lines[i]));
    if (!isResourceRemark(plain)) {
      kept.append(previous_kept || i == 0 ? lines[i] : lines[i].substr(owed(lines[i]).size()));
      previous_kept = true;
      continue;
    }
    if (previous_kept) kept.append(owed(lines[i]));
    previous_kept = false;
    remarks += plain;
    if (remarks.empty() || remarks.back() != '\n') remarks += '\n';
    if (i + 2 < lines.size() && isCaretLine(withoutColour(scan::ref(lines[i + 2])))) i += 2;  // its snippet
  }
  return kept;
}

}  // namespace regscope
