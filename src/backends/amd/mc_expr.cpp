// A recursive-descent evaluator for AMDGPUMCExpr as printed: integers, names,
// unary - ~ !, binary * / % + - << >> & ^ | with C precedence, and the
// functions max, min, or, alignto, totalnumvgprs, extrasgprs and occupancy
// (their meaning from llvm/lib/Target/AMDGPU/MCTargetDesc/AMDGPUMCExpr.cpp).
#include "regscope/backends/amd/mc_expr.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <vector>

#include "regscope/target/amdgpu.h"

namespace regscope {

namespace {

struct Failure {  // thrown through the recursion; caught at the top
  McExprProblem problem;
  std::string symbol;  // Cycle: which symbol
};
[[noreturn]] void fail(McExprProblem problem, std::string symbol = {}) { throw Failure{problem, std::move(symbol)}; }

// A register or wave count as the rules take it; anything larger is no count.
int narrow(std::int64_t v) {
  if (v < 0 || v > (1 << 20)) fail(McExprProblem::Invalid);
  return static_cast<int>(v);
}

std::int64_t checkedAdd(std::int64_t a, std::int64_t b) {
  std::int64_t r;
  if (__builtin_add_overflow(a, b, &r)) fail(McExprProblem::Overflow);
  return r;
}
std::int64_t checkedSub(std::int64_t a, std::int64_t b) {
  std::int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) fail(McExprProblem::Overflow);
  return r;
}
std::int64_t checkedMul(std::int64_t a, std::int64_t b) {
  std::int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) fail(McExprProblem::Overflow);
  return r;
}
std::int64_t checkedDivide(std::int64_t a, std::int64_t b, bool remainder) {
  if (b == 0) fail(McExprProblem::DivisionByZero);
  if (a == std::numeric_limits<std::int64_t>::min() && b == -1) fail(McExprProblem::Overflow);
  return remainder ? a % b : a / b;
}
// LLVM's MCExpr shifts left as uint64_t and right arithmetically; a count
// outside 0..63 is undefined there, so no value here.
std::int64_t checkedShift(std::int64_t a, std::int64_t count, bool left) {
  if (count < 0 || count > 63) fail(McExprProblem::Overflow);
  if (left) return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) << count);
  return a >> count;  // arithmetic on every compiler regscope supports (and defined in C++20)
}

}  // namespace

// One pass over one text; symbols recurse through the evaluator, which
// remembers their values and counts the nesting.
class McExprParser {
 public:
  McExprParser(std::string_view text, McExprEvaluator &evaluator) : text_(text), eval_(evaluator) {}

  std::int64_t parseAll() {
    std::int64_t v = parseBinary(0);
    skipSpace();
    if (pos_ != text_.size()) fail(McExprProblem::Invalid);
    return v;
  }

 private:
  // Counts one level of nesting for as long as it lives.
  struct Nest {
    explicit Nest(int &depth) : depth_(depth) {
      if (++depth_ > kMcExprMaxNesting) {
        --depth_;
        fail(McExprProblem::TooDeep);
      }
    }
    ~Nest() { --depth_; }
    int &depth_;
  };

  void skipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool accept(std::string_view token) {
    skipSpace();
    if (text_.substr(pos_, token.size()) != token) return false;
    pos_ += token.size();
    return true;
  }
  void expect(char c) {
    if (!accept(std::string_view(&c, 1))) fail(McExprProblem::Invalid);
  }

  // Binary operators by precedence, lowest first.
  static int precedence(std::string_view op) {
    if (op == "|") return 1;
    if (op == "^") return 2;
    if (op == "&") return 3;
    if (op == "<<" || op == ">>") return 4;
    if (op == "+" || op == "-") return 5;
    if (op == "*" || op == "/" || op == "%") return 6;
    return 0;
  }
  std::string_view peekOperator() {
    skipSpace();
    for (std::string_view op : {"<<", ">>", "|", "^", "&", "+", "-", "*", "/", "%"})
      if (text_.substr(pos_, op.size()) == op) return op;
    return {};
  }
  static std::int64_t apply(std::string_view op, std::int64_t lhs, std::int64_t rhs) {
    if (op == "|") return lhs | rhs;
    if (op == "^") return lhs ^ rhs;
    if (op == "&") return lhs & rhs;
    if (op == "<<") return checkedShift(lhs, rhs, true);
    if (op == ">>") return checkedShift(lhs, rhs, false);
    if (op == "+") return checkedAdd(lhs, rhs);
    if (op == "-") return checkedSub(lhs, rhs);
    if (op == "*") return checkedMul(lhs, rhs);
    return checkedDivide(lhs, rhs, op == "%");
  }
  // Precedence climbing: operators of one level loop, only a tighter one recurses
  // (at most six levels per parenthesis).
  std::int64_t parseBinary(int min_precedence) {
    std::int64_t lhs = parseUnary();
    while (true) {
      std::string_view op = peekOperator();
      const int p = op.empty() ? 0 : precedence(op);
      if (p == 0 || p <= min_precedence) return lhs;
      pos_ += op.size();
      lhs = apply(op, lhs, parseBinary(p));
    }
  }
  std::int64_t parseUnary() {
    skipSpace();
    if (pos_ < text_.size() && (text_[pos_] == '-' || text_[pos_] == '~' || text_[pos_] == '!')) {
      const char op = text_[pos_++];
      Nest nest(eval_.depth_);
      const std::int64_t v = parseUnary();
      if (op == '-') return checkedSub(0, v);
      return op == '~' ? ~v : !v;
    }
    return parsePrimary();
  }
  std::int64_t parseNumber() {
    std::int64_t v = 0;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_])))
      v = checkedAdd(checkedMul(v, 10), text_[pos_++] - '0');
    return v;
  }
  std::int64_t parsePrimary() {
    skipSpace();
    if (accept("(")) {
      Nest nest(eval_.depth_);
      std::int64_t v = parseBinary(0);
      expect(')');
      return v;
    }
    if (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) return parseNumber();
    const std::size_t start = pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_' ||
                                   text_[pos_] == '.' || text_[pos_] == '$'))
      ++pos_;
    const std::string_view name = text_.substr(start, pos_ - start);
    if (name.empty()) fail(McExprProblem::Invalid);
    Nest nest(eval_.depth_);
    if (accept("(")) return call(name);
    return symbol(name);
  }
  std::vector<std::int64_t> arguments() {
    std::vector<std::int64_t> args;
    if (accept(")")) return args;
    do args.push_back(parseBinary(0));
    while (accept(","));
    expect(')');
    return args;
  }
  std::int64_t call(std::string_view name) {
    std::vector<std::int64_t> a = arguments();
    auto need = [&](std::size_t n) {
      if (a.size() != n) fail(McExprProblem::Invalid);
    };
    if (name == "max" && !a.empty()) return *std::max_element(a.begin(), a.end());
    if (name == "min" && !a.empty()) return *std::min_element(a.begin(), a.end());
    if (name == "or") {
      std::int64_t v = 0;
      for (std::int64_t x : a) v |= x;
      return v;
    }
    if (name == "alignto") {  // alignTo(Value, Align) over unsigned figures
      need(2);
      if (a[0] < 0 || a[1] <= 0) fail(McExprProblem::Invalid);
      return checkedMul(checkedDivide(checkedAdd(a[0], a[1] - 1), a[1], false), a[1]);
    }
    const AmdArch *target = eval_.target_;
    if (!target) fail(McExprProblem::Invalid);  // the rest depend on the target
    if (name == "totalnumvgprs") {              // (NumAGPR, NumVGPR)
      need(2);
      return totalVgprs(*target, narrow(a[1]), narrow(a[0]));
    }
    if (name == "extrasgprs") {  // (VCCUsed, FlatScrUsed, XNACKUsed)
      need(3);
      // LLVM writes these flags as 0 or 1; anything else is damage, not "used".
      for (int i = 0; i < 3; ++i)
        if (a[i] != 0 && a[i] != 1) fail(McExprProblem::Invalid);
      return extraSgprs(*target, a[0] != 0, a[1] != 0, a[2] != 0);
    }
    if (name == "occupancy") {  // (MaxWaves, Granule, TotalNumVGPRs, Generation, InitOcc, NumSGPRs, NumVGPRs)
      need(7);
      const int max_waves = narrow(a[0]), granule = narrow(a[1]), file = narrow(a[2]);
      std::int64_t occ = a[4];
      const int sgprs = narrow(a[5]), vgprs = narrow(a[6]);
      if (sgprs) occ = std::min<std::int64_t>(occ, std::min(wavesBySgprs(*target, sgprs), max_waves));
      if (vgprs && granule) occ = std::min<std::int64_t>(occ, wavesByVgprsWith(max_waves, granule, file, vgprs));
      return occ;
    }
    fail(McExprProblem::Invalid);
  }
  std::int64_t symbol(std::string_view name) {
    if (auto known = eval_.memo_.find(name); known != eval_.memo_.end()) {
      if (known->second.value) return *known->second.value;
      fail(known->second.problem, known->second.symbol);
    }
    auto definition = eval_.symbols_.find(std::string(name));
    if (definition == eval_.symbols_.end()) fail(McExprProblem::Undefined);
    if (eval_.active_.count(name)) fail(McExprProblem::Cycle, std::string(name));  // no link can resolve it
    eval_.active_.emplace(name);
    McExprValue result;
    try {
      result.value = McExprParser(definition->second, eval_).parseAll();
    } catch (const Failure &f) {
      result.problem = f.problem;
      result.symbol = f.symbol;
    }
    eval_.active_.erase(eval_.active_.find(name));
    // A cut-off by depth belongs to where the symbol was reached from, not to
    // the symbol; anything else (a cycle included) is the symbol's own.
    if (result.problem != McExprProblem::TooDeep) eval_.memo_.emplace(name, result);
    if (!result.value) fail(result.problem, result.symbol);
    return *result.value;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  McExprEvaluator &eval_;
};

const char *mcExprProblemText(McExprProblem problem) {
  switch (problem) {
    case McExprProblem::None:
    case McExprProblem::Undefined:
      return "";
    case McExprProblem::Invalid:
      return "not an expression regscope can evaluate";
    case McExprProblem::Overflow:
      return "overflows 64-bit arithmetic";
    case McExprProblem::DivisionByZero:
      return "divides by zero";
    case McExprProblem::TooDeep:
      return "nested too deeply";
    case McExprProblem::Cycle:
      return "is defined in terms of itself (a cycle of .set symbols)";
  }
  return "";
}

McExprValue McExprEvaluator::evaluate(std::string_view text) {
  depth_ = 0;
  active_.clear();
  try {
    return {McExprParser(text, *this).parseAll(), McExprProblem::None, {}};
  } catch (const Failure &f) {
    return {std::nullopt, f.problem, f.symbol};
  }
}

std::optional<std::int64_t> evaluateMcExpr(std::string_view text, const std::map<std::string, std::string> &symbols,
                                           const AmdArch *target) {
  return McExprEvaluator(symbols, target).evaluate(text).value;
}

}  // namespace regscope
