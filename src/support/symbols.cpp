#include "regscope/support/symbols.h"

#include <llvm/Demangle/Demangle.h>

#include <algorithm>
#include <cstdlib>

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

std::vector<std::string> kernelNames(const std::string &mangled) {
  std::vector<std::string> names = {mangled};
  llvm::ItaniumPartialDemangler parts;
  if (parts.partialDemangle(mangled.c_str()) || !parts.isFunction()) return names;
  auto take = [](char *text) {
    std::string out = text ? text : "";
    std::free(text);
    return out;
  };
  std::size_t size = 0;
  const std::string qualified = take(parts.getFunctionName(nullptr, &size));  // ns::scale<float>
  size = 0;
  const std::string base = take(parts.getFunctionBaseName(nullptr, &size));  // scale
  size = 0;
  const std::string context = take(parts.getFunctionDeclContextName(nullptr, &size));  // ns
  const std::string unqualified = context.empty() || qualified.size() <= context.size() + 2
                                      ? qualified
                                      : qualified.substr(context.size() + 2);      // scale<float>
  const std::string untemplated = context.empty() ? base : context + "::" + base;  // ns::scale
  for (const std::string &name : {llvm::demangle(mangled), qualified, unqualified, untemplated, base})
    if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  return names;
}

bool namesKernel(const std::string &wanted, const std::string &mangled) {
  const std::vector<std::string> names = kernelNames(mangled);
  return std::find(names.begin(), names.end(), wanted) != names.end();
}

}  // namespace regscope
