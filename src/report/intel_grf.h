// Intel's GRF rule across a report's records (internal to the report stage).
#pragma once

#include <cstddef>
#include <vector>

#include "regscope/report/report.h"

namespace regscope {

// Where a kernel was compiled in both small and large GRF mode for one device
// (--grf both), both records get Intel's recommendation, read from the
// small-GRF record's spills. Looks at kernels[first...].
void recommendGrfModes(std::vector<KernelReport> &kernels, std::size_t first);

}  // namespace regscope
