// Which kernels a report shows: --kernel REGEX, --exclude REGEX (on the
// demangled name) and --top N (the N that hurt most). Applied to the Report
// once, before any view, so that every format shows the same kernels.
#pragma once

#include <string>

#include "regscope/report/report.h"

namespace regscope {

struct KernelSelection {
  std::string kernel;   // ECMAScript regex a kernel's demangled name must contain a match of; empty: all
  std::string exclude;  // ... must not; empty: none excluded
  int top = 0;          // keep the N that hurt most (0: all)
  bool any() const { return !kernel.empty() || !exclude.empty() || top > 0; }
};

// Throws regscope::Error (one line naming the option) for a regex that does not compile.
void checkSelection(const KernelSelection &selection);

// Keeps the selected kernels of `report` (ranked by harm when top > 0, else
// in their order) and adds a note saying how many were hidden ("showing 8 of 78 kernels").
void selectKernels(Report &report, const KernelSelection &selection);

// One note per shared library the report read kernels from (a wheel's or a
// conda env's lib*.so): "LIB: N kernels, M archs (gfx90a, sm_90)".
void addLibrarySummaries(Report &report);

// The harm order --top uses: a kernel that cannot launch; then spills or
// scratch (local memory), most first; then the lowest occupancy fraction;
// then the most registers. A figure not read ranks after every read one.
bool hurtsMore(const KernelReport &a, const KernelReport &b);

}  // namespace regscope
