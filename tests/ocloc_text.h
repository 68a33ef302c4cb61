// What ocloc printed and what its zebin says, read by simple scans of the
// text (not by regscope's parsers), for the Intel tests to check against.
#pragma once

#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <utility>

namespace regscope::test {

struct Printed {
  int simd, grf, spill;
};

// What ocloc printed: its warning lines, read with sscanf.
inline std::map<std::string, Printed> printedWarnings(const std::string &log) {
  std::map<std::string, Printed> out;
  std::istringstream in(log);
  for (std::string line; std::getline(in, line);) {
    char name[256];
    Printed p{};
    if (std::sscanf(line.c_str(), "warning: kernel %255s compiled SIMD%d allocated %d regs and spilled around %d", name,
                    &p.simd, &p.grf, &p.spill) == 4)
      out[name] = p;
  }
  return out;
}

// What the zebin says: grf_count and simd_size under each "  - name:" of the
// .ze_info's kernels list, read line by line.
inline std::map<std::string, std::pair<int, int>> zebinSays(const std::string &ze_info) {
  std::map<std::string, std::pair<int, int>> out;
  std::istringstream in(ze_info);
  std::string kernel;
  bool in_kernels = false;
  auto after = [](const std::string &line, const std::string &key) {
    return std::stoi(line.substr(line.find(key) + key.size()));
  };
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] != ' ') in_kernels = line == "kernels:";
    if (!in_kernels) continue;
    if (line.rfind("  - name:", 0) == 0)
      kernel = line.substr(line.find_first_not_of(' ', 9));
    else if (line.find(" grf_count:") != std::string::npos)
      out[kernel].first = after(line, "grf_count:");
    else if (line.find(" simd_size:") != std::string::npos)
      out[kernel].second = after(line, "simd_size:");
  }
  return out;
}

}  // namespace regscope::test
