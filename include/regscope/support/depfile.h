// Make-style dependency files, as compilers write them with -MD -MF.
#pragma once

#include <string>
#include <vector>

namespace regscope {

// Files named in a dependency file ("out.o: a.hip b.h \\ ..."), escapes undone.
std::vector<std::string> parseDependencyFile(const std::string &text);

}  // namespace regscope
