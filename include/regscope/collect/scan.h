// Line scanning for the text parsers. Compiler output and build logs are
// untrusted and unbounded (one CI log line can hold megabytes), so the
// parsers match with llvm::StringRef operations: each line is scanned a
// constant number of times, with no backtracking and no recursion.
#pragma once

#include <llvm/ADT/StringRef.h>

#include <cstdint>
#include <cstring>
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

// Whether `s` holds ": " (the separator of every remark line). memchr for the
// colon: StringRef::find(": ") was a fifth of a large build log's parse.
inline bool containsColonSpace(std::string_view s) {
  const char *at = s.data(), *end = s.data() + s.size();
  while (at < end) {
    const void *colon = std::memchr(at, ':', static_cast<std::size_t>(end - at));
    if (!colon) return false;
    at = static_cast<const char *>(colon) + 1;
    if (at < end && *at == ' ') return true;
  }
  return false;
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

// LLVM 15's YAML parser calls SequenceNode::increment() once more, nested,
// for each empty entry of a flow sequence ("[,,,"): 17,812 commas in a row
// overflowed the stack (found by the remark_yaml fuzz target). No compiler
// writes more than a few in a row; the offset of a longer run, if any.
inline constexpr std::size_t kMaxEmptyFlowEntries = 256;
inline std::optional<std::size_t> longRunOfEmptyFlowEntries(std::string_view yaml) {
  std::size_t run = 0;
  for (std::size_t i = 0; i < yaml.size(); ++i) {
    if (yaml[i] == ',') {
      if (++run > kMaxEmptyFlowEntries) return i;
    } else if (!isSpace(yaml[i])) {
      run = 0;
    }
  }
  return std::nullopt;
}

}  // namespace regscope::scan
