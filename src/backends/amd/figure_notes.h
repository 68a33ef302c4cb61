// Why a figure stays unresolved, when the reason is not "until link": the
// note travels with the kernel's facts into the report's warnings.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "regscope/backends/amd/mc_expr.h"
#include "regscope/collect/kernel_record.h"

namespace regscope {

inline void noteUnresolved(std::vector<std::string> &notes, Field field, std::string_view text, McExprProblem problem,
                           std::string_view symbol = {}) {
  std::string why = mcExprProblemText(problem);
  if (!symbol.empty()) why += ": symbol '" + std::string(symbol.substr(0, 60)) + "'";
  if (why.empty()) return;
  constexpr std::size_t kShown = 60;  // the text can be a whole line of a hostile file
  std::string shown(text.substr(0, kShown));
  if (text.size() > kShown) shown += "...";
  notes.push_back(std::string(fieldKey(field)) + ": '" + shown + "' " + why);
}

}  // namespace regscope
