#include "regscope/source/launch_sites.h"

#include <clang/Basic/LangOptions.h>
#include <clang/Lex/Lexer.h>
#include <clang/Lex/Token.h>

#include <map>

#include <optional>
#include <set>
#include <vector>

namespace regscope {
namespace {

using clang::tok::TokenKind;

struct Tok {
  TokenKind kind;
  std::string text;
  bool line_start;
};

std::vector<Tok> lex(std::string_view source) {
  clang::LangOptions lang;
  lang.CPlusPlus = lang.CPlusPlus11 = lang.CPlusPlus14 = lang.CPlusPlus17 = true;
  lang.CUDA = lang.HIP = true;  // `<<<` and `>>>` are tokens
  const char *begin = source.data();
  clang::Lexer lexer(clang::SourceLocation::getFromRawEncoding(1), lang, begin, begin, begin + source.size());
  std::vector<Tok> tokens;
  clang::Token token;
  for (bool last = false; !last;) {
    last = lexer.LexFromRawLexer(token);
    if (token.is(clang::tok::eof)) break;
    const std::size_t offset = token.getLocation().getRawEncoding() - 1;
    tokens.push_back({token.getKind(), std::string(source.substr(offset, token.getLength())), token.isAtStartOfLine()});
  }
  return tokens;
}

}  // namespace

bool definesKernels(std::string_view source) {
  const std::vector<Tok> tokens = lex(source);
  bool directive = false;  // on a `#` line
  for (const Tok &t : tokens) {
    if (t.line_start) directive = t.kind == clang::tok::hash;
    if (!directive && t.kind == clang::tok::raw_identifier && (t.text == "__global__" || t.text == "__kernel"))
      return true;
  }
  return false;
}

namespace {

std::optional<long> integer(const std::string &text) {
  std::string digits;
  for (char c : text) {
    if (c == '\'') continue;
    if (c == 'u' || c == 'U' || c == 'l' || c == 'L') break;  // suffixes
    if (c < '0' || c > '9') return std::nullopt;
    digits += c;
  }
  if (digits.empty() || digits.size() > 9) return std::nullopt;
  return std::stol(digits);
}

// NAME -> value for `#define NAME 256` and `const[expr] ... NAME = 256;`.
std::map<std::string, long> constants(const std::vector<Tok> &t) {
  std::map<std::string, long> values;
  std::set<std::string> ambiguous;
  auto define = [&](const std::string &name, long value) {
    auto [it, inserted] = values.try_emplace(name, value);
    if (!inserted && it->second != value) ambiguous.insert(name);
  };
  bool in_const_statement = false;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i].kind == clang::tok::hash && t[i].line_start && i + 3 < t.size() && t[i + 1].text == "define" &&
        t[i + 2].kind == clang::tok::raw_identifier && !t[i + 3].line_start)
      if (std::optional<long> v = integer(t[i + 3].text)) {
        if (i + 4 >= t.size() || t[i + 4].line_start) define(t[i + 2].text, *v);
      }
    if (t[i].kind == clang::tok::raw_identifier && (t[i].text == "const" || t[i].text == "constexpr"))
      in_const_statement = true;
    if (t[i].kind == clang::tok::semi || t[i].kind == clang::tok::l_brace || t[i].kind == clang::tok::r_brace)
      in_const_statement = false;
    if (in_const_statement && t[i].kind == clang::tok::raw_identifier && i + 3 < t.size() &&
        t[i + 1].kind == clang::tok::equal && t[i + 3].kind == clang::tok::semi)
      if (std::optional<long> v = integer(t[i + 2].text)) define(t[i].text, *v);
  }
  // dim3 NAME(x, y, z);  dim3 NAME = dim3(x, y, z);  dim3 NAME{x, y, z};  dim3 NAME = x;
  for (std::size_t i = 0; i + 2 < t.size(); ++i) {
    if (t[i].text != "dim3" || t[i + 1].kind != clang::tok::raw_identifier) continue;
    std::size_t at = i + 2;
    if (t[at].kind == clang::tok::equal) {
      ++at;
      if (at < t.size() && t[at].text == "dim3") ++at;
    }
    if (at >= t.size()) continue;
    long product = 1;
    bool ok = true;
    std::size_t end = at;
    if (t[at].kind == clang::tok::l_paren || t[at].kind == clang::tok::l_brace) {
      const TokenKind close = t[at].kind == clang::tok::l_paren ? clang::tok::r_paren : clang::tok::r_brace;
      for (end = at + 1; end < t.size() && t[end].kind != close; ++end) {
        if (t[end].kind == clang::tok::comma) continue;
        std::optional<long> v = t[end].kind == clang::tok::numeric_constant ? integer(t[end].text)
                                : values.count(t[end].text)                 ? std::optional<long>(values[t[end].text])
                                                                            : std::nullopt;
        if (!v)
          ok = false;
        else
          product *= *v;
      }
      ++end;
    } else {
      std::optional<long> v = integer(t[at].text);
      if (!v && values.count(t[at].text)) v = values[t[at].text];
      ok = v.has_value();
      if (ok) product = *v;
      end = at + 1;
    }
    if (ok && end < t.size() && t[end].kind == clang::tok::semi) define(t[i + 1].text, product);
  }
  for (const std::string &name : ambiguous) values.erase(name);
  return values;
}

// The value of a block-size expression: a literal, a constant, or dim3(x[, y[, z]]).
std::optional<long> blockSize(const std::vector<Tok> &t, std::size_t begin, std::size_t end,
                              const std::map<std::string, long> &consts) {
  auto scalar = [&](std::size_t i) -> std::optional<long> {
    if (t[i].kind == clang::tok::numeric_constant) return integer(t[i].text);
    if (t[i].kind == clang::tok::raw_identifier)
      if (auto it = consts.find(t[i].text); it != consts.end()) return it->second;
    return std::nullopt;
  };
  if (end == begin + 1) return scalar(begin);
  // dim3(a), dim3(a, b), dim3(a, b, c): each a single scalar token.
  if (end - begin >= 4 && t[begin].text == "dim3" && t[begin + 1].kind == clang::tok::l_paren &&
      t[end - 1].kind == clang::tok::r_paren) {
    long product = 1;
    for (std::size_t i = begin + 2; i < end - 1; i += 2) {
      std::optional<long> v = scalar(i);
      if (!v || (t[i + 1].kind != clang::tok::comma && i + 1 != end - 1)) return std::nullopt;
      product *= *v;
    }
    return product;
  }
  return std::nullopt;
}

// sizeof of the built-in types a launch's shared-memory size is written with.
std::optional<long> sizeOfBuiltin(const std::string &type) {
  static const std::map<std::string, long> sizes = {
      {"char", 1},     {"bool", 1},    {"short", 2},   {"half", 2},     {"__half", 2},  {"int", 4},    {"unsigned", 4},
      {"float", 4},    {"uint", 4},    {"int32_t", 4}, {"uint32_t", 4}, {"long", 8},    {"double", 8}, {"int64_t", 8},
      {"uint64_t", 8}, {"size_t", 8},  {"float2", 8},  {"int2", 8},     {"float4", 16}, {"int4", 16},  {"double2", 16},
      {"int8_t", 1},   {"uint8_t", 1}, {"int16_t", 2}, {"uint16_t", 2}};
  auto it = sizes.find(type);
  return it == sizes.end() ? std::nullopt : std::optional<long>(it->second);
}

// The value of a byte-count expression: factors joined by `*`, each a literal,
// a constant, or sizeof(built-in type). None when anything else is there, or
// when it exceeds kMaxDynamicSharedRead (no overflow: checked at each step).
std::optional<long> byteCount(const std::vector<Tok> &t, std::size_t begin, std::size_t end,
                              const std::map<std::string, long> &consts) {
  if (begin >= end) return std::nullopt;
  long product = 1;
  for (std::size_t i = begin; i < end;) {
    std::optional<long> factor;
    if (t[i].kind == clang::tok::numeric_constant) {
      factor = integer(t[i].text);
      ++i;
    } else if (t[i].kind == clang::tok::raw_identifier && t[i].text == "sizeof" && i + 3 < end + 1 && i + 1 < end &&
               t[i + 1].kind == clang::tok::l_paren) {
      std::string type;
      std::size_t j = i + 2;
      for (; j < end && t[j].kind != clang::tok::r_paren; ++j) type += (type.empty() ? "" : " ") + t[j].text;
      if (j >= end) return std::nullopt;
      if (type.rfind("unsigned ", 0) == 0) type = type.substr(9);
      factor = sizeOfBuiltin(type);
      i = j + 1;
    } else if (t[i].kind == clang::tok::raw_identifier) {
      if (auto it = consts.find(t[i].text); it != consts.end()) factor = it->second;
      ++i;
    } else {
      return std::nullopt;
    }
    if (!factor || *factor < 0 || *factor > kMaxDynamicSharedRead) return std::nullopt;
    product *= *factor;
    if (product > kMaxDynamicSharedRead) return std::nullopt;
    if (i < end) {
      if (t[i].kind != clang::tok::star) return std::nullopt;
      ++i;
      if (i == end) return std::nullopt;
    }
  }
  return product;
}

// The arguments of a call or launch, split at top-level commas: [first, last) pairs.
std::vector<std::pair<std::size_t, std::size_t>> arguments(const std::vector<Tok> &t, std::size_t begin,
                                                           TokenKind close) {
  std::vector<std::pair<std::size_t, std::size_t>> args;
  int depth = 0;
  std::size_t start = begin;
  for (std::size_t i = begin; i < t.size(); ++i) {
    const TokenKind k = t[i].kind;
    if (depth == 0 && (k == close || k == clang::tok::comma)) {
      args.emplace_back(start, i);
      if (k == close) return args;
      start = i + 1;
      continue;
    }
    if (k == clang::tok::l_paren || k == clang::tok::l_square || k == clang::tok::l_brace) ++depth;
    if (k == clang::tok::r_paren || k == clang::tok::r_square || k == clang::tok::r_brace) --depth;
    if (depth < 0) break;
  }
  return {};
}

// The kernel named by the tokens before `<<<` ending at `end`: skip template arguments back to the name.
std::string kernelBefore(const std::vector<Tok> &t, std::size_t end) {
  std::size_t i = end;
  if (i > 0 && t[i - 1].kind == clang::tok::greater) {
    int depth = 0;
    while (i > 0) {
      --i;
      if (t[i].kind == clang::tok::greater) ++depth;
      if (t[i].kind == clang::tok::less && --depth == 0) break;
    }
  }
  return i > 0 && t[i - 1].kind == clang::tok::raw_identifier ? t[i - 1].text : "";
}

// The kernel of hipLaunchKernelGGL's first argument: `k`, `k<T>`, `(k<T>)`, `HIP_KERNEL_NAME(k<T>)`.
std::string kernelIn(const std::vector<Tok> &t, std::size_t begin, std::size_t end) {
  // Also `(const void *)k` and `reinterpret_cast<const void *>(k)`, as hip/cudaFuncSetAttribute take it.
  static const std::set<std::string> not_names = {"HIP_KERNEL_NAME", "const", "void", "reinterpret_cast",
                                                  "static_cast"};
  for (std::size_t i = begin; i < end; ++i)
    if (t[i].kind == clang::tok::raw_identifier && !not_names.count(t[i].text)) return t[i].text;
  return "";
}

}  // namespace

std::map<std::string, int> findLaunchBlockSizes(std::string_view source) {
  const std::vector<Tok> t = lex(source);
  const std::map<std::string, long> consts = constants(t);
  std::map<std::string, std::optional<long>> sizes;  // nullopt: launched with sizes that differ or are not constant
  auto record = [&](const std::string &kernel, std::optional<long> size) {
    if (kernel.empty()) return;
    auto [it, inserted] = sizes.try_emplace(kernel, size);
    if (!inserted && it->second != size) it->second = std::nullopt;
  };
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i].kind == clang::tok::lesslessless) {
      auto args = arguments(t, i + 1, clang::tok::greatergreatergreater);
      if (args.size() >= 2) record(kernelBefore(t, i), blockSize(t, args[1].first, args[1].second, consts));
    } else if (t[i].kind == clang::tok::raw_identifier && t[i].text == "hipLaunchKernelGGL" && i + 1 < t.size() &&
               t[i + 1].kind == clang::tok::l_paren) {
      auto args = arguments(t, i + 2, clang::tok::r_paren);
      if (args.size() >= 3)
        record(kernelIn(t, args[0].first, args[0].second), blockSize(t, args[2].first, args[2].second, consts));
    }
  }
  std::map<std::string, int> found;
  for (const auto &[kernel, size] : sizes)
    if (size && *size >= 1 && *size <= 1024) found[kernel] = static_cast<int>(*size);
  return found;
}

std::map<std::string, DynamicSharedAt> findLaunchDynamicShared(std::string_view source) {
  const std::vector<Tok> t = lex(source);
  const std::map<std::string, long> consts = constants(t);
  // nullopt: launched with values that differ or are not constant; absent: no launch gives one.
  std::map<std::string, std::optional<long>> at_launch, by_attribute;
  auto record = [](std::map<std::string, std::optional<long>> &into, const std::string &kernel,
                   std::optional<long> bytes) {
    if (kernel.empty()) return;
    auto [it, inserted] = into.try_emplace(kernel, bytes);
    if (!inserted && it->second != bytes) it->second = std::nullopt;
  };
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i].kind == clang::tok::lesslessless) {
      auto args = arguments(t, i + 1, clang::tok::greatergreatergreater);
      if (args.size() >= 3)
        record(at_launch, kernelBefore(t, i), byteCount(t, args[2].first, args[2].second, consts));
      else if (args.size() == 2)
        record(at_launch, kernelBefore(t, i), 0);
    } else if (t[i].kind == clang::tok::raw_identifier && i + 1 < t.size() && t[i + 1].kind == clang::tok::l_paren) {
      const std::string &call = t[i].text;
      auto args = arguments(t, i + 2, clang::tok::r_paren);
      if (call == "hipLaunchKernelGGL" && args.size() >= 5) {
        record(at_launch, kernelIn(t, args[0].first, args[0].second),
               byteCount(t, args[3].first, args[3].second, consts));
      } else if ((call == "hipFuncSetAttribute" || call == "cudaFuncSetAttribute") && args.size() == 3) {
        bool max_dynamic = false;
        for (std::size_t j = args[1].first; j < args[1].second; ++j)
          max_dynamic = max_dynamic || t[j].text.find("MaxDynamicSharedMemorySize") != std::string::npos;
        if (max_dynamic)
          record(by_attribute, kernelIn(t, args[0].first, args[0].second),
                 byteCount(t, args[2].first, args[2].second, consts));
      }
    }
  }
  std::map<std::string, DynamicSharedAt> found;
  for (const auto &[kernel, bytes] : at_launch)
    if (bytes) found[kernel] = {*bytes, false};
  for (const auto &[kernel, bytes] : by_attribute)
    if (bytes && (!at_launch.count(kernel) || !at_launch.at(kernel))) found[kernel] = {*bytes, true};
  return found;
}

}  // namespace regscope
