// The report's per-file errors as the user reads them: the same error for
// many files said once, with the files it hit; each other failing file once,
// with its path and the compiler's first error; then how many files failed.
#pragma once

#include <string>
#include <vector>

#include "regscope/report/report.h"

namespace regscope {

// One message per error line ("regscope: error: " is the caller's); empty
// when the report has no errors.
std::vector<std::string> errorMessages(const Report &report);

}  // namespace regscope
