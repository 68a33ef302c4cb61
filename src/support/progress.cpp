#include "regscope/support/progress.h"

#include <unistd.h>

#include <cstdlib>

namespace regscope {

bool progressWanted(const std::string &setting) {
  const bool quiet_env = std::getenv("CI") || std::getenv("PRE_COMMIT") || std::getenv("GITHUB_ACTIONS");
  return setting == "always" || (setting == "auto" && isatty(STDERR_FILENO) && !quiet_env);
}

}  // namespace regscope
