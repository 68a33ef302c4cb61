// A source line as a line table names it: the isa stage finds one (a spill's),
// the collect stage carries it in a kernel's record.
#pragma once

#include <string>

namespace regscope {

struct SourcePlace {
  std::string file;  // as the line table names it
  int line = 0;      // 0: none
};

}  // namespace regscope
