// The built-in reference kernels (kernels/): the seeds' cases as data.
#pragma once

#include <string>
#include <vector>

namespace regscope {

struct ReferenceCase {
  const char *family;  // "laplacian"
  const char *name;    // "laplacian_k5": also the runner's case name
  const char *file;    // relative to the kernels directory
  const char *kernel;  // the kernel's function name in that file
  const char *description;
};

const std::vector<ReferenceCase> &referenceCases();

// Where the kernel sources are: $REGSCOPE_KERNELS_DIR, else the installed
// share/regscope/kernels beside the executable, else the source tree this
// regscope was built from. Throws regscope::Error when none exists.
std::string kernelsDirectory();

// The cases a NAME or FAMILY selects (all for an empty selector). Throws
// regscope::Error listing the known ones when nothing matches.
std::vector<ReferenceCase> selectCases(const std::string &selector);

}  // namespace regscope
