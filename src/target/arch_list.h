// "gfx90a (MI210/MI250/MI250X), sm_90 (H100/H200)": the known targets of a
// table, for error messages. Works on any row type with `name` and `products`.
#pragma once

#include <string>
#include <vector>

namespace regscope {

template <typename Arch>
std::string formatArchList(const std::vector<Arch> &archs) {
  std::string list;
  for (const Arch &arch : archs) {
    if (!list.empty()) list += ", ";
    list += arch.name;
    for (std::size_t i = 0; i < arch.products.size(); ++i) {
      list += i == 0 ? " (" : "/";
      list += arch.products[i];
    }
    if (!arch.products.empty()) list += ")";
  }
  return list;
}

}  // namespace regscope
