// regscope wrap, the compiler launcher (docs/design.md): runs a build's
// compile with the resource remarks added and writes its kernels' records
// next to the object (pipeline/sidecar.h). Anything that is not a device
// compile is exec'd as it is.
#pragma once

#include <string>
#include <vector>

#include "regscope/support/messages.h"

namespace regscope {

// Runs `command` (launchers included) as the build would, passes its stderr
// on (the added remarks taken out unless `show_remarks` or the command asked
// for them) and returns its exit status; re-raises a signal that killed it.
// regscope's own failure is a warning, never the build's. Throws
// regscope::Error for an empty command.
int runWrappedCompile(const std::vector<std::string> &command, bool show_remarks, const Messages &say);

// An environment switch is on: set, not empty, not "0" (REGSCOPE_SHOW_REMARKS).
bool truthy(const char *value);

}  // namespace regscope
