// Parses kernel-resource-usage remarks printed as text on stderr.
#include <charconv>
#include <regex>
#include <string>

#include "regscope/collect/collect.h"
#include "regscope/collect/mc_expr.h"
#include "regscope/target/amdgpu.h"
#include "remark_labels.h"

namespace regscope {

std::optional<std::int64_t> parseRemarkValue(std::string_view value) {
  if (value == "True") return 1;
  if (value == "False") return 0;
  std::int64_t number = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (ec != std::errc() || end != value.data() + value.size()) return std::nullopt;
  return number;
}

void setRemarkValue(KernelFacts &facts, Field field, std::string_view value) {
  if (auto number = parseRemarkValue(value)) facts.set(field, *number);
  else if (auto evaluated = evaluateMcExpr(value, {}, findAmdArch(facts.arch))) facts.set(field, *evaluated);
  else facts.unresolved.push_back(field);
}

FactSet parseRemarkText(std::string_view text, const std::string &arch) {
  // [remark: ]FILE:LINE:COL: [remark: ]   LABEL: VALUE[ [-Rpass-analysis=...]]
  static const std::regex line_re(
      R"(^(?:remark: )?(.+?):(\d+):(\d+): (?:remark: )?\s*([A-Za-z][A-Za-z /\[\]]*?): (.+?)(?: \[-Rpass-analysis=kernel-resource-usage\])?\s*$)");
  FactSet set{"remarks", {}};
  KernelFacts *current = nullptr;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    std::string line(text.substr(pos, eol - pos));
    pos = eol + 1;
    if (line.find(": ") == std::string::npos) continue;  // cheap pre-filter
    std::smatch m;
    if (!std::regex_match(line, m, line_re)) continue;
    const std::string label = m[4];
    const std::string value = m[5];
    for (const RemarkLabel &known : kRemarkLabels) {
      if (known.text != label) continue;
      if (!known.field) {  // "Function Name" opens a block
        if (current) markDeviceFunction(*current);
        KernelFacts facts;
        facts.name = value;
        facts.arch = arch;
        facts.file = m[1];
        facts.line = std::stoi(m[2]);
        set.kernels.push_back(std::move(facts));
        current = &set.kernels.back();
      } else if (current) {
        setRemarkValue(*current, *known.field, value);
      }
      break;
    }
  }
  if (current) markDeviceFunction(*current);
  return set;
}

}  // namespace regscope
