// Finds the line that declares a kernel, given the line of its opening brace.
// Uses Clang's raw lexer so names inside comments and strings are not matched.
#include <clang/Basic/LangOptions.h>
#include <clang/Lex/Lexer.h>
#include <clang/Lex/Token.h>

#include <vector>

#include "regscope/collect/collect.h"

namespace regscope {

int findDeclarationLine(std::string_view source, int brace_line, const std::string &base_name) {
  if (brace_line <= 0 || base_name.empty()) return brace_line;

  // Byte offset at which each line starts.
  std::vector<std::size_t> line_starts{0};
  for (std::size_t i = 0; i < source.size(); ++i)
    if (source[i] == '\n') line_starts.push_back(i + 1);
  if (static_cast<std::size_t>(brace_line) > line_starts.size()) return brace_line;
  auto lineOf = [&](std::size_t offset) {
    return static_cast<int>(std::upper_bound(line_starts.begin(), line_starts.end(), offset) - line_starts.begin());
  };
  const std::size_t limit = brace_line < static_cast<int>(line_starts.size())
                                ? line_starts[brace_line]  // end of the brace line
                                : source.size();

  clang::LangOptions lang;
  lang.CPlusPlus = lang.CPlusPlus11 = lang.CPlusPlus14 = lang.CPlusPlus17 = true;
  lang.CUDA = lang.HIP = true;
  const char *begin = source.data();
  clang::Lexer lexer(clang::SourceLocation::getFromRawEncoding(1), lang, begin, begin, begin + source.size());

  // The last "NAME (" before the end of the brace line is the declaration.
  int found = brace_line;
  clang::Token token, previous;
  previous.startToken();
  while (!lexer.LexFromRawLexer(token)) {
    std::size_t offset = token.getLocation().getRawEncoding() - 1;
    if (offset >= limit) break;
    if (token.is(clang::tok::l_paren) && previous.is(clang::tok::raw_identifier) &&
        previous.getRawIdentifier() == base_name)
      found = lineOf(previous.getLocation().getRawEncoding() - 1);
    previous = token;
  }
  return found;
}

}  // namespace regscope
