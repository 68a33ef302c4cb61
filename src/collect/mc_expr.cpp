// A recursive-descent evaluator for AMDGPUMCExpr as printed: integers, names,
// unary - ~ !, binary * / % + - << >> & ^ | with C precedence, and the
// functions max, min, or, alignto, totalnumvgprs, extrasgprs and occupancy
// (their meaning from llvm/lib/Target/AMDGPU/MCTargetDesc/AMDGPUMCExpr.cpp).
#include "mc_expr.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <vector>

namespace regscope {
namespace {

// AMDGPUSubtarget::Generation as printed in occupancy(): VI = 7, GFX9 = 8, GFX10 = 9.
constexpr std::int64_t kGenVolcanicIslands = 7, kGenGfx10 = 9;

struct Unresolved {};  // thrown through the recursion; caught at the top

class Parser {
 public:
  Parser(std::string_view text, const std::map<std::string, std::string> &symbols, const ExprTarget &target,
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
    if (name == "totalnumvgprs") {  // (NumAGPR, NumVGPR)
      need(2);
      if (target_.gfx90a_insts) return a[0] ? (a[1] + 3) / 4 * 4 + a[0] : a[1];
      return std::max(a[0], a[1]);
    }
    if (name == "extrasgprs") {  // (VCCUsed, FlatScrUsed, XNACKUsed): IsaInfo::getNumExtraSGPRs
      need(3);
      std::int64_t extra = a[0] ? 2 : 0;
      if (target_.isa_major >= 10) return extra;
      if (a[2]) extra = 4;
      if (a[1] || target_.architected_flat_scratch) extra = 6;
      return extra;
    }
    if (name == "occupancy") {  // (MaxWaves, Granule, TotalNumVGPRs, Generation, InitOcc, NumSGPRs, NumVGPRs)
      need(7);
      const std::int64_t max_waves = a[0], granule = a[1], total = a[2], gen = a[3];
      std::int64_t occ = a[4];
      const std::int64_t sgprs = a[5], vgprs = a[6];
      if (sgprs && gen < kGenGfx10) {
        std::int64_t by_sgprs;
        if (gen >= kGenVolcanicIslands)
          by_sgprs = sgprs <= 80 ? 10 : sgprs <= 88 ? 9 : sgprs <= 100 ? 8 : 7;
        else
          by_sgprs = sgprs <= 48 ? 10 : sgprs <= 56 ? 9 : sgprs <= 64 ? 8 : sgprs <= 72 ? 7 : sgprs <= 80 ? 6 : 5;
        occ = std::min(occ, std::min(by_sgprs, max_waves));
      }
      if (vgprs && granule) {
        const std::int64_t by_vgprs =
            vgprs < granule ? max_waves
                            : std::min(std::max<std::int64_t>(total / ((vgprs + granule - 1) / granule * granule), 1),
                                       max_waves);
        occ = std::min(occ, by_vgprs);
      }
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
  const ExprTarget &target_;
  std::set<std::string> &active_;
};

}  // namespace

ExprTarget exprTargetFor(const std::string &arch) {
  ExprTarget t;
  // "gfx90a" -> major 9, "gfx1100" -> 11: the digits after "gfx" less the last two.
  if (arch.rfind("gfx", 0) == 0 && arch.size() > 4) {
    const std::string digits = arch.substr(3);
    t.isa_major = digits.size() >= 4 ? std::atoi(digits.substr(0, digits.size() - 2).c_str()) : digits[0] - '0';
  }
  t.gfx90a_insts = arch == "gfx90a" || arch.rfind("gfx94", 0) == 0 || arch.rfind("gfx95", 0) == 0;
  t.architected_flat_scratch = arch.rfind("gfx94", 0) == 0 || arch.rfind("gfx95", 0) == 0;
  return t;
}

std::optional<std::int64_t> evaluateMcExpr(std::string_view text, const std::map<std::string, std::string> &symbols,
                                           const ExprTarget &target) {
  std::set<std::string> active;
  try {
    return Parser(text, symbols, target, active).parseAll();
  } catch (const Unresolved &) {
    return std::nullopt;
  }
}

}  // namespace regscope
