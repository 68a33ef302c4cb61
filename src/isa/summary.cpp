#include "regscope/isa/summary.h"

#include <algorithm>
#include <map>
#include <tuple>

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

void rankSpills(IsaFunction &f) {
  SpillTotals t;
  t.loops_known = f.spill_totals.loops_known;  // the CFG's, set before
  for (SpillSite &site : f.spills) {
    site.loop_depth = f.instructions[site.instruction].loop_depth;
    if (!site.spill) {
      ++t.private_accesses;
      t.private_in_loops += site.loop_depth > 0;
      continue;
    }
    ++t.accesses;
    t.in_loops += site.loop_depth > 0;
    t.max_depth = std::max(t.max_depth, site.loop_depth);
    (site.store ? t.store_bytes : t.load_bytes) += site.bytes;
    if (!site.store) continue;
    ++t.stores;
    if (site.medium == SpillMedium::VgprLane)
      ++t.lane_stores;
    else
      t.store_dwords += (site.bytes + 3) / 4;
  }
  f.spill_totals = t;
  // Spills before other private accesses; the deepest loop first, then the
  // most bytes, then code order (stable).
  std::stable_sort(f.spills.begin(), f.spills.end(), [](const SpillSite &a, const SpillSite &b) {
    return std::make_tuple(!a.spill, -a.loop_depth, -a.bytes) < std::make_tuple(!b.spill, -b.loop_depth, -b.bytes);
  });
}

}  // namespace regscope::isa_detail
