// Errors the user can act on. Each becomes one line on stderr and exit code 2.
#pragma once

#include <stdexcept>
#include <string>

namespace regscope {

// Exit codes, documented in README.md.
enum ExitCode : int {
  kExitOk = 0,
  kExitFindings = 1,  // gate: a rule failed or a kernel regressed
  kExitError = 2,     // bad input, compiler missing or failing, internal error
  kExitNoGpu = 3,     // kernels run: no GPU on this machine
  kExitInterrupted = 130,
};

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace regscope
