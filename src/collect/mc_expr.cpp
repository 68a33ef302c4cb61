// A recursive-descent evaluator for AMDGPUMCExpr as printed: integers, names,
// unary - ~ !, binary * / % + - << >> & ^ | with C precedence, and the
// functions max, min, or, alignto, totalnumvgprs, extrasgprs and occupancy
// (their meaning from llvm/lib/Target/AMDGPU/MCTargetDesc/AMDGPUMCExpr.cpp).
#include "regscope/collect/mc_expr.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <vector>

#include "regscope/target/amdgpu.h"

namespace regscope {
namespace {

struct Unresolved {};  // thrown through the recursion; caught at the top

// A register or wave count as the rules take it; anything larger is no count.
int narrow(std::int64_t v) {
  if (v < 0 || v > (1 << 20)) throw Unresolved{};
  return static_cast<int>(v);
}

class Parser {
 public:
  Parser(std::string_view text, const std::map<std::string, std::string> &symbols, const AmdArch *target,
         std::set<std::string> &active)
      : text_(text), symbols_(symbols), target_(target), active_(active) {}

  std::int64_t parseAll() {
    std::int64_t v = parseBinary(0);
    skipSpace();
    if (pos_ != text_.size()) throw Unresolved{};
    return v;
  }

 private:
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
    if (!accept(std::string_view(&c, 1))) throw Unresolved{};
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
  std::int64_t parseBinary(int min_precedence) {
    std::int64_t lhs = parseUnary();
    while (true) {
      std::string_view op = peekOperator();
      const int p = op.empty() ? 0 : precedence(op);
      if (p == 0 || p <= min_precedence) return lhs;
      pos_ += op.size();
      const std::int64_t rhs = parseBinary(p);
      if (op == "|") lhs |= rhs;
      else if (op == "^") lhs ^= rhs;
      else if (op == "&") lhs &= rhs;
      else if (op == "<<") lhs <<= rhs;
      else if (op == ">>") lhs >>= rhs;
      else if (op == "+") lhs += rhs;
      else if (op == "-") lhs -= rhs;
      else if (op == "*") lhs *= rhs;
      else if (rhs == 0) throw Unresolved{};
      else if (op == "/") lhs /= rhs;
      else lhs %= rhs;
    }
  }
  std::int64_t parseUnary() {
    if (accept("-")) return -parseUnary();
    if (accept("~")) return ~parseUnary();
    if (accept("!")) return !parseUnary();
    return parsePrimary();
  }
  std::int64_t parsePrimary() {
    skipSpace();
    if (accept("(")) {
      std::int64_t v = parseBinary(0);
      expect(')');
      return v;
    }
    if (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      std::int64_t v = 0;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) v = v * 10 + (text_[pos_++] - '0');
      return v;
    }
    std::string name;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_' ||
                                   text_[pos_] == '.' || text_[pos_] == '$'))
      name += text_[pos_++];
    if (name.empty()) throw Unresolved{};
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
  std::int64_t call(const std::string &name) {
    std::vector<std::int64_t> a = arguments();
    auto need = [&](std::size_t n) {
      if (a.size() != n) throw Unresolved{};
    };
    if (name == "max" && !a.empty()) return *std::max_element(a.begin(), a.end());
    if (name == "min" && !a.empty()) return *std::min_element(a.begin(), a.end());
    if (name == "or") {
      std::int64_t v = 0;
      for (std::int64_t x : a) v |= x;
      return v;
    }
    if (name == "alignto") {
      need(2);
      return a[1] ? (a[0] + a[1] - 1) / a[1] * a[1] : throw Unresolved{};
    }
    if (!target_) throw Unresolved{};  // the rest depend on the target
    if (name == "totalnumvgprs") {  // (NumAGPR, NumVGPR)
      need(2);
      return totalVgprs(*target_, narrow(a[1]), narrow(a[0]));
    }
    if (name == "extrasgprs") {  // (VCCUsed, FlatScrUsed, XNACKUsed)
      need(3);
      return extraSgprs(*target_, a[0] != 0, a[1] != 0, a[2] != 0);
    }
    if (name == "occupancy") {  // (MaxWaves, Granule, TotalNumVGPRs, Generation, InitOcc, NumSGPRs, NumVGPRs)
      need(7);
      const int max_waves = narrow(a[0]), granule = narrow(a[1]), file = narrow(a[2]);
      std::int64_t occ = a[4];
      const int sgprs = narrow(a[5]), vgprs = narrow(a[6]);
      if (sgprs) occ = std::min<std::int64_t>(occ, std::min(wavesBySgprs(*target_, sgprs), max_waves));
      if (vgprs && granule) occ = std::min<std::int64_t>(occ, wavesByVgprsWith(max_waves, granule, file, vgprs));
      return occ;
    }
    throw Unresolved{};
  }
  std::int64_t symbol(const std::string &name) {
    auto it = symbols_.find(name);
    if (it == symbols_.end() || active_.count(name)) throw Unresolved{};  // undefined, or a cycle
    active_.insert(name);
    Parser inner(it->second, symbols_, target_, active_);
    std::int64_t v = inner.parseAll();
    active_.erase(name);
    return v;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  const std::map<std::string, std::string> &symbols_;
  const AmdArch *target_;
  std::set<std::string> &active_;
};

}  // namespace

std::optional<std::int64_t> evaluateMcExpr(std::string_view text, const std::map<std::string, std::string> &symbols,
                                           const AmdArch *target) {
  std::set<std::string> active;
  try {
    return Parser(text, symbols, target, active).parseAll();
  } catch (const Unresolved &) {
    return std::nullopt;
  }
}

}  // namespace regscope
