// What every backend says about a record whose target has no row: the
// report's warning (analyze) and parse's error, in one wording.
#pragma once

#include <string>

#include "regscope/collect/kernel_record.h"

namespace regscope {

// "no occupancy table for gfx1xyz (kernel k); known: ..."
inline std::string noOccupancyTable(const KernelRecord &record, const std::string &known) {
  return "no occupancy table for " + record.arch + " (kernel " + record.demangled + "); known: " + known;
}

// "unknown arch 'gfx1xyz' (kernel k); known: ..." (`what`: "arch", "Intel device")
inline std::string unknownTargetOf(const KernelRecord &record, const std::string &what, const std::string &known) {
  return "unknown " + what + " '" + record.arch + "' (kernel " + record.demangled + "); known: " + known;
}

}  // namespace regscope
