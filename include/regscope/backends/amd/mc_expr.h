// LLVM 20+ writes resource figures as symbolic expressions (AMDGPUMCExpr)
// when they depend on other functions: ".amdhsa_next_free_vgpr max(totalnumvgprs(
// k.num_agpr, k.num_vgpr), 1, 0)", with ".set k.num_vgpr, max(42, callee.num_vgpr)".
// This evaluates them; a name with no definition (a callee in another
// translation unit) leaves the value unresolved until link.
//
// The text is untrusted: arithmetic is checked (an overflow, a division by
// zero or a shift outside 0..63 leaves the value unresolved, with the
// reason), nesting is limited, and each symbol is evaluated once, so a chain
// of ".set s_i, s_{i-1} + s_{i-1}" costs linear time.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace regscope {

struct AmdArch;

// Why an expression has no value.
enum class McExprProblem {
  None,
  Undefined,  // names a symbol defined elsewhere (or in a cycle): unresolved until link
  Invalid,    // not an expression regscope understands
  Overflow,   // a literal or a result outside 64-bit signed arithmetic, or a bad shift
  DivisionByZero,
  TooDeep,  // nested deeper than kMcExprMaxNesting
  Cycle,    // a .set symbol defined in terms of itself: no link resolves it
};

// Parentheses, unary operators, calls and symbol references, all together.
inline constexpr int kMcExprMaxNesting = 256;

struct McExprValue {
  std::optional<std::int64_t> value;
  McExprProblem problem = McExprProblem::None;  // set when !value
  std::string symbol;                           // Cycle: the symbol that refers to itself
};

// "overflows 64-bit arithmetic", ...; empty for None and Undefined (the
// report already says "unresolved until link").
const char *mcExprProblemText(McExprProblem problem);

// Evaluates expressions over one file's symbols, remembering each symbol's
// value. The functions whose meaning depends on the target (totalnumvgprs,
// extrasgprs, occupancy) apply `target`'s rules (target/amdgpu.h); with no
// known target (null) they leave the value unresolved rather than guess.
class McExprEvaluator {
 public:
  McExprEvaluator(const std::map<std::string, std::string> &symbols, const AmdArch *target)
      : symbols_(symbols), target_(target) {}
  McExprValue evaluate(std::string_view text);
  const AmdArch *target() const { return target_; }

 private:
  friend class McExprParser;
  const std::map<std::string, std::string> &symbols_;
  const AmdArch *target_;
  std::map<std::string, McExprValue, std::less<>> memo_;  // evaluated symbols (not those cut off by depth)
  std::set<std::string, std::less<>> active_;             // symbols being evaluated: a cycle
  int depth_ = 0;
};

// One expression on its own: nullopt when it has no value (see McExprProblem).
std::optional<std::int64_t> evaluateMcExpr(std::string_view text, const std::map<std::string, std::string> &symbols,
                                           const AmdArch *target);

}  // namespace regscope
