// --progress: whether a run draws its progress line on stderr.
#pragma once

#include <string>

namespace regscope {

// "always"; "auto": stderr is a terminal and the run is not under CI or
// pre-commit (CI, PRE_COMMIT, GITHUB_ACTIONS unset); "never" (or anything else).
bool progressWanted(const std::string &setting);

}  // namespace regscope
