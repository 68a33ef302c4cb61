// regscope wrap [--show-remarks] -- [LAUNCHER...] COMPILER ARGS...
// A compiler launcher (CMAKE_HIP_COMPILER_LAUNCHER and the like): runs the
// build's own compile with the resource remarks added, passes the compiler's
// output and exit status through as they would be without regscope, and
// writes the translation unit's kernel records next to the object
// (OBJ.regscope.json) for `regscope collect`. Anything that is not a device
// compile is exec'd as it is; nvcc compiles get -Xptxas -v (pipeline/wrap.h).
#include <cstdlib>

#include "commands.h"
#include "regscope/pipeline/wrap.h"

namespace regscope {

Command addWrapCommand(CLI::App &root, const std::vector<std::string> &command) {
  auto show_remarks = std::make_shared<bool>(false);
  CLI::App *app = root.add_subcommand(
      "wrap",
      "Compiler launcher: run the build's compile, and write its kernels' figures next to the object "
      "(OBJ.regscope.json) for regscope collect");
  app->add_flag("--show-remarks", *show_remarks,
                "Also print the resource remarks regscope adds into the build log (or set REGSCOPE_SHOW_REMARKS=1)");
  app->footer(
      "Usage: regscope wrap -- [ccache] hipcc ARGS...   e.g. cmake -DCMAKE_HIP_COMPILER_LAUNCHER='regscope;wrap;--'");
  return {app, [show_remarks, &command] {
            return runWrappedCompile(command, *show_remarks || truthy(std::getenv("REGSCOPE_SHOW_REMARKS")),
                                     stderrMessages());
          }};
}

}  // namespace regscope
