// A count and its noun in agreement ("1 kernel", "3 kernels"): the one way
// every message says how many (issue 32: "1 other files").
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace regscope {

inline std::string plural(std::size_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

}  // namespace regscope
