// The isa stage's vendor-neutral part: the names of the instruction kinds,
// source paths, and the hottest lines of a function, whichever backend read it.
#include <algorithm>
#include <tuple>

#include "regscope/isa/isa.h"

namespace regscope {

const char *instrKindKey(InstrKind kind) {
  switch (kind) {
    case InstrKind::Valu:
      return "valu";
    case InstrKind::Salu:
      return "salu";
    case InstrKind::VmemLoad:
      return "vmem_load";
    case InstrKind::VmemStore:
      return "vmem_store";
    case InstrKind::Smem:
      return "smem";
    case InstrKind::Lds:
      return "lds";
    case InstrKind::Mfma:
      return "mfma";
    case InstrKind::Branch:
      return "branch";
    case InstrKind::Waitcnt:
      return "waitcnt";
    case InstrKind::Scratch:
      return "scratch";
    case InstrKind::AccvgprCopy:
      return "accvgpr_copy";
    case InstrKind::Unknown:
      return "unknown";
  }
  return "unknown";
}

const char *spillMediumKey(SpillMedium medium) {
  switch (medium) {
    case SpillMedium::Scratch:
      return "scratch";
    case SpillMedium::Agpr:
      return "agpr";
    case SpillMedium::VgprLane:
      return "vgpr_lane";
    case SpillMedium::Local:
      return "local";
  }
  return "?";
}

std::string SourceFile::path() const {
  if (directory.empty() || (!name.empty() && name.front() == '/')) return name;
  return directory + "/" + name;
}

std::vector<LinePressure> hottestLines(const IsaFunction &function, std::size_t n) {
  std::vector<LinePressure> lines;
  for (const LinePressure &l : function.lines)
    if (l.file >= 0 && l.line > 0) lines.push_back(l);
  std::stable_sort(lines.begin(), lines.end(), [](const LinePressure &a, const LinePressure &b) {
    return std::tie(b.peak_vgprs, b.peak_agprs, b.peak_sgprs, b.instructions) <
           std::tie(a.peak_vgprs, a.peak_agprs, a.peak_sgprs, a.instructions);
  });
  if (lines.size() > n) lines.resize(n);
  return lines;
}

SourcePlace firstLoopSpill(const IsaReport &report, const IsaFunction &function) {
  for (const SpillSite &site : function.spills) {
    if (!site.spill || site.loop_depth == 0) break;  // ranked: spills in loops come first
    const IsaInstruction &at = function.instructions[site.instruction];
    if (at.file >= 0 && at.line > 0) return {report.files.at(at.file).path(), at.line};
  }
  return {};
}

}  // namespace regscope
