#include "regscope/isa/summary.h"

#include <algorithm>
#include <map>

namespace regscope::isa_detail {

void summarizeLines(IsaFunction &f) {
  std::map<std::pair<int, int>, LinePressure> by_line;
  for (const IsaInstruction &i : f.instructions) {
    LinePressure &l = by_line[{i.file, i.line}];
    l.file = i.file;
    l.line = i.line;
    ++l.instructions;
    l.peak_vgprs = std::max(l.peak_vgprs, i.live_vgprs);
    l.peak_agprs = std::max(l.peak_agprs, i.live_agprs);
    l.peak_sgprs = std::max(l.peak_sgprs, i.live_sgprs);
    f.max_vgprs = std::max(f.max_vgprs, i.live_vgprs);
    f.max_agprs = std::max(f.max_agprs, i.live_agprs);
    f.max_sgprs = std::max(f.max_sgprs, i.live_sgprs);
  }
  f.lines.clear();
  for (auto &entry : by_line) f.lines.push_back(entry.second);
}

int peakInstruction(const IsaFunction &f) {
  int best = -1;
  for (int i = 0; i < static_cast<int>(f.instructions.size()); ++i)
    if (best < 0 || f.instructions[i].live_vgprs > f.instructions[best].live_vgprs) best = i;
  return best;
}

}  // namespace regscope::isa_detail
