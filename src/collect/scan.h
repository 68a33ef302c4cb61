// Line scanning for the text parsers. Compiler output and build logs are
// untrusted and unbounded (one CI log line can hold megabytes), so the
// parsers match with llvm::StringRef operations: each line is scanned a
// constant number of times, with no backtracking and no recursion.
#pragma once

#include <llvm/ADT/StringRef.h>

#include <cstdint>
#include <optional>
#include <string_view>

namespace regscope::scan {

inline llvm::StringRef ref(std::string_view s) { return llvm::StringRef(s.data(), s.size()); }
inline std::string_view view(llvm::StringRef s) { return std::string_view(s.data(), s.size()); }

// Calls fn(line) for each line of `text`, without its '\n'.
template <typename Fn>
void forEachLine(std::string_view text, Fn fn) {
  llvm::StringRef rest = ref(text);
  while (!rest.empty()) {
    auto [line, tail] = rest.split('\n');
    fn(line);
    rest = tail;
  }
}

// ECMAScript's \s, which the parsers' former regular expressions used.
inline bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }
inline bool isDigit(char c) { return c >= '0' && c <= '9'; }
inline bool isLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
inline llvm::StringRef trim(llvm::StringRef s) { return s.trim(" \t\r\n\f\v"); }
inline llvm::StringRef ltrim(llvm::StringRef s) { return s.ltrim(" \t\r\n\f\v"); }

// Removes leading whitespace; true if there was any.
inline bool consumeSpaces(llvm::StringRef &s) {
  const std::size_t before = s.size();
  s = ltrim(s);
  return s.size() != before;
}

// The decimal number at the front of `s`, consumed: nullopt when `s` does not
// start with a digit. `overflow` is set (and the digits consumed) when it
// does not fit 64 bits.
inline std::optional<std::int64_t> consumeNumber(llvm::StringRef &s, bool &overflow) {
  if (s.empty() || !isDigit(s.front())) return std::nullopt;
  std::int64_t v = 0;
  overflow = false;
  while (!s.empty() && isDigit(s.front())) {
    if (!overflow && (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, s.front() - '0', &v)))
      overflow = true;
    s = s.drop_front();
  }
  return v;
}

}  // namespace regscope::scan
