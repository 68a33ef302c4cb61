// Finds the line that declares a kernel, given the line of its opening brace,
// and resolves the records' source paths (every backend's collect step).
// Uses Clang's raw lexer so names inside comments and strings are not matched.
#include <clang/Basic/LangOptions.h>
#include <clang/Lex/Lexer.h>
#include <clang/Lex/Token.h>

#include <filesystem>
#include <map>
#include <vector>

#include "regscope/collect/collect.h"
#include "regscope/support/symbols.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

// Remark paths are as the compiler's debug info spelled them: absolute, or
// relative to a directory we cannot see (the compile ran elsewhere). Resolve
// a relative one against the source's directory and its parents.
std::string resolveSourcePath(const std::string &path, const std::string &compiled_source,
                              std::map<std::string, std::optional<std::string>> &texts, const SourceReader &read) {
  if (path.empty() || fs::path(path).is_absolute()) return path;
  for (fs::path dir = fs::path(compiled_source).parent_path(); !dir.empty(); dir = dir.parent_path()) {
    const std::string candidate = (dir / path).lexically_normal().string();
    auto [it, inserted] = texts.try_emplace(candidate);
    if (inserted) it->second = read(candidate);
    if (it->second) return candidate;
    if (dir == dir.root_path()) break;
  }
  return path;
}

}  // namespace

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

void resolveDeclarations(std::vector<KernelRecord> &records, const std::string &compiled_source,
                         const SourceReader &read) {
  std::map<std::string, std::optional<std::string>> texts;  // path -> text, read once
  for (KernelRecord &record : records) {
    record.file = resolveSourcePath(record.file, compiled_source, texts, read);
    if (record.file.empty() || record.line <= 0) continue;
    auto [it, inserted] = texts.try_emplace(record.file);
    if (inserted) it->second = read(record.file);
    record.line = findDeclarationLine(it->second.value_or(""), record.line, functionBaseName(record.demangled));
  }
}

}  // namespace regscope
