#include "regscope/support/symbols.h"

#include <llvm/Demangle/Demangle.h>

namespace regscope {

std::string demangle(const std::string &mangled) { return llvm::demangle(mangled); }

std::string functionBaseName(const std::string &demangled) {
  // The parameter list starts at the first '(' outside template arguments.
  int depth = 0;
  std::size_t paren = std::string::npos;
  for (std::size_t i = 0; i < demangled.size(); ++i) {
    char c = demangled[i];
    if (c == '<')
      ++depth;
    else if (c == '>')
      --depth;
    else if (c == '(' && depth == 0) {
      paren = i;
      break;
    }
  }
  std::string head = demangled.substr(0, paren);
  // Drop trailing template arguments: "scale<float>" -> "scale".
  if (!head.empty() && head.back() == '>') {
    int d = 0;
    for (std::size_t i = head.size(); i-- > 0;) {
      if (head[i] == '>')
        ++d;
      else if (head[i] == '<' && --d == 0) {
        head.resize(i);
        break;
      }
    }
  }
  // Drop return type and qualifiers: "void ns::scale" -> "scale".
  std::size_t cut = head.find_last_of(" :");
  return cut == std::string::npos ? head : head.substr(cut + 1);
}

}  // namespace regscope
