#include "regscope/source/launch_sites.h"

#include <clang/Basic/LangOptions.h>
#include <clang/Lex/Lexer.h>
#include <clang/Lex/Token.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "launch_tally.h"
#include "regscope/source/flags.h"

namespace regscope {
namespace {

using clang::tok::TokenKind;

struct Tok {
  TokenKind kind;
  std::string text;
  bool line_start;
  std::size_t offset;  // in the source: for the launch's line
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
    tokens.push_back(
        {token.getKind(), std::string(source.substr(offset, token.getLength())), token.isAtStartOfLine(), offset});
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

// sizeof of the built-in types a launch's shared-memory size is written with.
std::optional<long> sizeOfBuiltin(std::string type) {
  static const std::map<std::string, long> sizes = {
      {"char", 1},     {"bool", 1},    {"short", 2},    {"half", 2},     {"__half", 2},   {"int", 4},
      {"unsigned", 4}, {"float", 4},   {"uint", 4},     {"int32_t", 4},  {"uint32_t", 4}, {"long", 8},
      {"double", 8},   {"int64_t", 8}, {"uint64_t", 8}, {"size_t", 8},   {"float2", 8},   {"int2", 8},
      {"float4", 16},  {"int4", 16},   {"double2", 16}, {"int8_t", 1},   {"uint8_t", 1},  {"int16_t", 2},
      {"uint16_t", 2}, {"uchar", 1},   {"uchar4", 4},   {"long long", 8}};
  for (const char *prefix : {"unsigned ", "signed ", "const "})
    if (type.rfind(prefix, 0) == 0) type = type.substr(std::string(prefix).size());
  if (type == "long int" || type == "long long int") type = "long";
  if (type == "short int") type = "short";
  auto it = sizes.find(type);
  return it == sizes.end() ? std::nullopt : std::optional<long>(it->second);
}

// Integer arithmetic on a token range: + - * / % and parentheses over
// literals, the file's constants, sizeof(built-in type) and dim3(x[, y[, z]])
// (or dim3{...}: the product, the threads of a block). No value when anything
// else is there, on a division by 0, or past kMaxEvaluated (checked at each step).
class Evaluator {
 public:
  static constexpr long kMaxEvaluated = 1L << 40;
  Evaluator(const std::vector<Tok> &t, const std::map<std::string, long> &consts) : t_(t), consts_(consts) {}

  std::optional<long> evaluate(std::size_t begin, std::size_t end) {
    at_ = begin;
    end_ = end;
    depth_ = 0;
    if (begin >= end) return std::nullopt;
    std::optional<long> v = sum();
    if (at_ != end_) return std::nullopt;
    return v;
  }

 private:
  bool is(TokenKind k) const { return at_ < end_ && t_[at_].kind == k; }
  static std::optional<long> checked(long v) {
    if (v < -kMaxEvaluated || v > kMaxEvaluated) return std::nullopt;
    return v;
  }

  std::optional<long> sum() {
    std::optional<long> v = product();
    while (v && (is(clang::tok::plus) || is(clang::tok::minus))) {
      const bool plus = t_[at_++].kind == clang::tok::plus;
      std::optional<long> r = product();
      if (!r) return std::nullopt;
      v = checked(plus ? *v + *r : *v - *r);
    }
    return v;
  }

  std::optional<long> product() {
    std::optional<long> v = unary();
    while (v && (is(clang::tok::star) || is(clang::tok::slash) || is(clang::tok::percent))) {
      const TokenKind op = t_[at_++].kind;
      std::optional<long> r = unary();
      if (!r) return std::nullopt;
      if (op == clang::tok::star) {
        long out = 0;
        if (__builtin_mul_overflow(*v, *r, &out)) return std::nullopt;
        v = checked(out);
      } else {
        if (*r == 0) return std::nullopt;
        v = op == clang::tok::slash ? *v / *r : *v % *r;
      }
    }
    return v;
  }

  std::optional<long> unary() {
    if (at_ >= end_) return std::nullopt;
    const Tok &tok = t_[at_];
    if (tok.kind == clang::tok::minus) {
      if (++depth_ > kMaxDepth) return std::nullopt;
      ++at_;
      std::optional<long> v = unary();
      --depth_;
      return v ? std::optional<long>(-*v) : std::nullopt;
    }
    if (tok.kind == clang::tok::plus) {
      if (++depth_ > kMaxDepth) return std::nullopt;
      ++at_;
      std::optional<long> v = unary();
      --depth_;
      return v;
    }
    if (tok.kind == clang::tok::l_paren) {
      // Bounded depth (docs/reliability.md): a crafted source's 100000 `(` is no size, not a crash.
      if (++depth_ > kMaxDepth) return std::nullopt;
      ++at_;
      std::optional<long> v = sum();
      --depth_;
      if (!v || !is(clang::tok::r_paren)) return std::nullopt;
      ++at_;
      return v;
    }
    if (tok.kind == clang::tok::numeric_constant) {
      ++at_;
      return integer(tok.text);
    }
    if (tok.kind != clang::tok::raw_identifier) return std::nullopt;
    ++at_;
    if (tok.text == "sizeof") {
      if (!is(clang::tok::l_paren)) return std::nullopt;
      std::string type;
      for (++at_; at_ < end_ && !is(clang::tok::r_paren); ++at_) type += (type.empty() ? "" : " ") + t_[at_].text;
      if (!is(clang::tok::r_paren)) return std::nullopt;
      ++at_;
      return sizeOfBuiltin(type);
    }
    if (tok.text == "dim3") {
      if (!is(clang::tok::l_paren) && !is(clang::tok::l_brace)) return std::nullopt;
      const TokenKind close = is(clang::tok::l_paren) ? clang::tok::r_paren : clang::tok::r_brace;
      if (++depth_ > kMaxDepth) return std::nullopt;
      ++at_;
      long threads = 1;
      for (int dims = 0;; ++dims) {
        std::optional<long> v = sum();
        if (!v || dims == 3) return std::nullopt;
        if (__builtin_mul_overflow(threads, *v, &threads) || !checked(threads)) return std::nullopt;
        if (is(close)) break;
        if (!is(clang::tok::comma)) return std::nullopt;
        ++at_;
      }
      ++at_;
      --depth_;
      return threads;
    }
    if (auto it = consts_.find(tok.text); it != consts_.end()) return it->second;
    return std::nullopt;
  }

  const std::vector<Tok> &t_;
  const std::map<std::string, long> &consts_;
  std::size_t at_ = 0, end_ = 0;
  static constexpr int kMaxDepth = 256;
  int depth_ = 0;
};

// NAME -> value for the names the file gives exactly one value and never
// changes: `#define NAME EXPR`, `[const|constexpr] T NAME = EXPR;`, a
// member or local assigned once (`blockSize = 8;`), `dim3 NAME(x, y)`,
// EXPR as Evaluator reads it (in terms of other such names). A name given two
// values, changed (`+=`, `++`, `>>`), or whose address is taken (`&name`, as a
// command-line parser is handed it) has none: the launch that uses it is
// unknown, never the first value read.
std::map<std::string, long> constants(const std::vector<Tok> &t, const std::map<std::string, long> &given = {}) {
  std::map<std::string, std::vector<std::pair<std::size_t, std::size_t>>> definitions;  // name -> value ranges
  std::set<std::string> changed;
  auto ident = [&](std::size_t i) { return i < t.size() && t[i].kind == clang::tok::raw_identifier; };
  auto statementEnd = [&](std::size_t from) {
    int depth = 0;
    for (std::size_t j = from; j < t.size(); ++j) {
      const TokenKind k = t[j].kind;
      if (k == clang::tok::l_paren || k == clang::tok::l_brace || k == clang::tok::l_square) ++depth;
      if (k == clang::tok::r_paren || k == clang::tok::r_brace || k == clang::tok::r_square) --depth;
      if (depth < 0) return t.size();
      if (depth == 0 && (k == clang::tok::semi || k == clang::tok::comma)) return j;
    }
    return t.size();
  };
  for (std::size_t i = 0; i < t.size(); ++i) {
    const TokenKind k = t[i].kind;
    if (k == clang::tok::hash && t[i].line_start && ident(i + 1) && t[i + 1].text == "define" && ident(i + 2) &&
        !t[i + 2].line_start && i + 3 < t.size() && !t[i + 3].line_start && t[i + 3].kind != clang::tok::l_paren) {
      std::size_t end = i + 3;
      while (end < t.size() && !t[end].line_start) ++end;
      definitions[t[i + 2].text].push_back({i + 3, end});
      i = end - 1;
      continue;
    }
    if (!ident(i)) continue;
    const std::string &name = t[i].text;
    const TokenKind next = i + 1 < t.size() ? t[i + 1].kind : clang::tok::eof;
    const TokenKind before = i > 0 ? t[i - 1].kind : clang::tok::eof;
    if (next == clang::tok::equal && before != clang::tok::period) {
      // `NAME = EXPR;` (a declaration or an assignment); `a.NAME = ` is another object's.
      const std::size_t end = statementEnd(i + 2);
      if (end < t.size())
        definitions[name].push_back({i + 2, end});
      else  // no `;` before a closing bracket: a for loop's `bs = bs * 2)` (HeCBench's convolution1D) changes it
        changed.insert(name);
    } else if (next == clang::tok::plusequal || next == clang::tok::minusequal || next == clang::tok::starequal ||
               next == clang::tok::slashequal || next == clang::tok::plusplus || next == clang::tok::minusminus ||
               before == clang::tok::plusplus || before == clang::tok::minusminus || before == clang::tok::amp ||
               before == clang::tok::greatergreater) {
      changed.insert(name);
    } else if (i > 0 && t[i - 1].text == "dim3" && (next == clang::tok::l_paren || next == clang::tok::l_brace)) {
      // dim3 NAME(x, y, z) / dim3 NAME{x, y, z}: the value is dim3(...) from the bracket on.
      const std::size_t end = statementEnd(i + 1);
      if (end < t.size()) definitions[name].push_back({i + 1, end});
    }
  }
  // Names defined in terms of others: evaluate until nothing more resolves.
  // The headers' constants hold where the source neither assigns nor changes them.
  std::map<std::string, long> values;
  for (const auto &[name, value] : given)
    if (!definitions.count(name) && !changed.count(name)) values[name] = value;
  std::set<std::string> ambiguous = changed;
  // At most kPasses rounds: a chain of names deeper than that is not read
  // (unknown), and the time stays linear in the file.
  constexpr int kPasses = 16;
  for (int pass = 0, progress = 1; progress && pass < kPasses; ++pass) {
    progress = 0;
    for (const auto &[name, ranges] : definitions) {
      if (values.count(name) || ambiguous.count(name)) continue;
      std::optional<long> value;
      bool all = true;
      for (const auto &[begin, end] : ranges) {
        // dim3 NAME(...): evaluate as dim3(...).
        std::vector<Tok> expr;
        if (t[begin].kind == clang::tok::l_paren || t[begin].kind == clang::tok::l_brace)
          expr.push_back({clang::tok::raw_identifier, "dim3", false, 0});
        expr.insert(expr.end(), t.begin() + begin, t.begin() + end);
        std::optional<long> v = Evaluator(expr, values).evaluate(0, expr.size());
        if (!v) {
          all = false;
          break;
        }
        if (value && *value != *v) {
          ambiguous.insert(name);
          all = false;
          break;
        }
        value = v;
      }
      if (all && value) {
        values[name] = *value;
        progress = 1;
      }
    }
  }
  // A name with a definition that never resolved may hold anything: not a constant.
  for (const auto &[name, ranges] : definitions)
    if (!values.count(name)) ambiguous.insert(name);
  for (const std::string &name : ambiguous) values.erase(name);
  return values;
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

namespace launch_detail {

void LaunchTally::record(std::map<std::string, Seen> &into, const std::string &kernel, std::optional<long> v,
                         int line) {
  if (kernel.empty()) return;
  auto [it, inserted] = into.try_emplace(kernel);
  Seen &seen = it->second;
  if (inserted) seen.first_line = line;
  if (seen.unread_line) return;
  if (!v || (!inserted && seen.value != v))
    seen.unread_line = line;
  else
    seen.value = v;
}

LaunchesRead LaunchTally::finish() const {
  LaunchesRead read;
  for (const auto &[kernel, seen] : block_) {
    if (!seen.unread_line && seen.value && *seen.value >= 1 && *seen.value <= 1024)
      read.block_sizes[kernel] = static_cast<int>(*seen.value);
    else  // not a constant, two that differ, or no block size at all (0, over 1024): the launch is unknown
      read.block_unread_line[kernel] = seen.unread_line ? seen.unread_line : seen.first_line;
  }
  auto bytes = [](const Seen &seen) -> std::optional<long> {
    if (seen.unread_line || !seen.value || *seen.value < 0 || *seen.value > kMaxDynamicSharedRead) return std::nullopt;
    return seen.value;
  };
  for (const auto &[kernel, seen] : at_launch_) {
    if (std::optional<long> b = bytes(seen)) {
      read.dynamic_shared[kernel] = {*b, false};  // a launch's own constant wins over any attribute
      continue;
    }
    auto attribute = by_attribute_.find(kernel);
    if (attribute != by_attribute_.end() && bytes(attribute->second))
      read.dynamic_shared[kernel] = {*bytes(attribute->second), true};  // the most it may be launched with
    else
      read.dynamic_unread_line[kernel] = seen.unread_line ? seen.unread_line : seen.first_line;
  }
  for (const auto &[kernel, seen] : by_attribute_)  // an attribute but no launch in the file
    if (!at_launch_.count(kernel) && bytes(seen)) read.dynamic_shared[kernel] = {*bytes(seen), true};
  return read;
}

bool spellsLaunches(std::string_view source) {
  static const std::set<std::string> calls = {"hipLaunchKernelGGL",  "hipLaunchKernel",    "cudaLaunchKernel",
                                              "hipLaunchKernelEx",   "cudaLaunchKernelEx", "hipFuncSetAttribute",
                                              "cudaFuncSetAttribute"};
  for (const Tok &t : lex(source))
    if (t.kind == clang::tok::lesslessless || (t.kind == clang::tok::raw_identifier && calls.count(t.text)))
      return true;
  return false;
}

LaunchesRead readLaunchesLexed(std::string_view source, std::string_view headers) {
  const std::vector<Tok> t = lex(source);
  const std::map<std::string, long> consts =
      constants(t, headers.empty() ? std::map<std::string, long>{} : constants(lex(headers)));
  Evaluator evaluate(t, consts);
  std::vector<std::size_t> newlines;  // offsets, for a launch's line by binary search
  for (std::size_t at = source.find('\n'); at != std::string_view::npos; at = source.find('\n', at + 1))
    newlines.push_back(at);
  auto lineOf = [&](std::size_t token) {
    return 1 + static_cast<int>(std::lower_bound(newlines.begin(), newlines.end(), t[token].offset) - newlines.begin());
  };
  LaunchTally tally;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i].kind == clang::tok::lesslessless) {
      auto args = arguments(t, i + 1, clang::tok::greatergreatergreater);
      const std::string kernel = kernelBefore(t, i);
      if (args.size() >= 2) tally.block(kernel, evaluate.evaluate(args[1].first, args[1].second), lineOf(i));
      if (args.size() >= 3)
        tally.dynamic(kernel, evaluate.evaluate(args[2].first, args[2].second), lineOf(i));
      else if (args.size() == 2)
        tally.dynamic(kernel, 0, lineOf(i));
    } else if (t[i].kind == clang::tok::raw_identifier && i + 1 < t.size() && t[i + 1].kind == clang::tok::l_paren) {
      const std::string &call = t[i].text;
      if (call != "hipLaunchKernelGGL" && call != "hipFuncSetAttribute" && call != "cudaFuncSetAttribute") continue;
      auto args = arguments(t, i + 2, clang::tok::r_paren);
      if (call == "hipLaunchKernelGGL" && args.size() >= 5) {
        const std::string kernel = kernelIn(t, args[0].first, args[0].second);
        tally.block(kernel, evaluate.evaluate(args[2].first, args[2].second), lineOf(i));
        tally.dynamic(kernel, evaluate.evaluate(args[3].first, args[3].second), lineOf(i));
      } else if (call != "hipLaunchKernelGGL" && args.size() == 3) {
        bool max_dynamic = false;
        for (std::size_t j = args[1].first; j < args[1].second; ++j)
          max_dynamic = max_dynamic || t[j].text.find("MaxDynamicSharedMemorySize") != std::string::npos;
        if (max_dynamic)
          tally.attribute(kernelIn(t, args[0].first, args[0].second), evaluate.evaluate(args[2].first, args[2].second),
                          lineOf(i));
      }
    }
  }
  return tally.finish();
}

}  // namespace launch_detail

LaunchesRead readLaunches(std::string_view source, std::string_view headers) {
  return launch_detail::readLaunchesLexed(source, headers);
}

std::map<std::string, int> findLaunchBlockSizes(std::string_view source) { return readLaunches(source).block_sizes; }

std::map<std::string, DynamicSharedAt> findLaunchDynamicShared(std::string_view source) {
  return readLaunches(source).dynamic_shared;
}

std::string quotedIncludes(const std::string &path, std::string_view source, const std::vector<std::string> &flags) {
  namespace fs = std::filesystem;
  std::vector<fs::path> search = {fs::path(path).parent_path()};
  for (const std::string &dir : includeSearchDirectories(flags)) search.emplace_back(dir);
  const std::vector<Tok> t = lex(source);
  std::string text;
  std::set<std::string> read;
  constexpr std::uintmax_t kMaxHeader = 1 << 20;
  for (std::size_t i = 0; i + 2 < t.size(); ++i) {
    if (t[i].kind != clang::tok::hash || !t[i].line_start || t[i + 1].text != "include" ||
        t[i + 2].kind != clang::tok::string_literal || t[i + 2].text.size() < 3)
      continue;
    const std::string name = t[i + 2].text.substr(1, t[i + 2].text.size() - 2);
    for (const fs::path &dir : search) {
      std::error_code ec;
      const fs::path candidate = dir / name;
      if (!fs::is_regular_file(candidate, ec) || fs::file_size(candidate, ec) > kMaxHeader || ec) continue;
      if (read.insert(fs::weakly_canonical(candidate, ec).string()).second) {
        std::ifstream in(candidate, std::ios::binary);
        text.append(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        text += "\n";
      }
      break;
    }
  }
  return text;
}

nlohmann::json launchesToJson(const LaunchesRead &read) {
  nlohmann::json shared = nlohmann::json::object();
  for (const auto &[kernel, at] : read.dynamic_shared)
    shared[kernel] = {{"bytes", at.bytes}, {"from_attribute", at.from_attribute}};
  return {{"block_sizes", read.block_sizes},
          {"dynamic_shared", shared},
          {"block_unread_line", read.block_unread_line},
          {"dynamic_unread_line", read.dynamic_unread_line},
          {"notes", read.notes}};
}

LaunchesRead launchesFromJson(const nlohmann::json &j) {
  LaunchesRead read;
  read.block_sizes = j.at("block_sizes").get<std::map<std::string, int>>();
  for (const auto &[kernel, at] : j.at("dynamic_shared").items())
    read.dynamic_shared[kernel] = {at.at("bytes").get<long>(), at.at("from_attribute").get<bool>()};
  read.block_unread_line = j.at("block_unread_line").get<std::map<std::string, int>>();
  read.dynamic_unread_line = j.at("dynamic_unread_line").get<std::map<std::string, int>>();
  read.notes = j.at("notes").get<std::vector<std::string>>();
  return read;
}

}  // namespace regscope
