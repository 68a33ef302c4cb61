#include "regscope/support/depfile.h"

namespace regscope {

std::vector<std::string> parseDependencyFile(const std::string &text) {
  std::vector<std::string> files;
  std::size_t colon = text.find(": ");
  if (colon == std::string::npos) return files;
  std::string current;
  for (std::size_t i = colon + 2; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\\' && i + 1 < text.size() && (text[i + 1] == '\n' || text[i + 1] == '\r')) continue;  // line join
    if (c == '\\' && i + 1 < text.size() && text[i + 1] == ' ') {
      current += ' ';
      ++i;
      continue;
    }  // escaped space
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      if (!current.empty()) files.push_back(std::move(current));
      current.clear();
      continue;
    }
    current += c;
  }
  if (!current.empty()) files.push_back(std::move(current));
  return files;
}

}  // namespace regscope
