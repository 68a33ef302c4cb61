// LLVM 20+ writes resource figures as symbolic expressions (AMDGPUMCExpr)
// when they depend on other functions: ".amdhsa_next_free_vgpr max(totalnumvgprs(
// k.num_agpr, k.num_vgpr), 1, 0)", with ".set k.num_vgpr, max(42, callee.num_vgpr)".
// This evaluates them; a name with no definition (a callee in another
// translation unit) leaves the value unresolved until link.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace regscope {

// Target facts some expression functions depend on.
struct ExprTarget {
  bool gfx90a_insts = false;            // unified VGPR/AGPR file (gfx90a, gfx94x)
  int isa_major = 9;                    // 9: GFX9, 10+: RDNA
  bool architected_flat_scratch = false;  // gfx940+
};
ExprTarget exprTargetFor(const std::string &arch);

// The value of `text`, with names looked up in `symbols` (".set NAME, EXPR");
// nullopt when a name is undefined or the text is not an expression.
std::optional<std::int64_t> evaluateMcExpr(std::string_view text, const std::map<std::string, std::string> &symbols,
                                           const ExprTarget &target);

}  // namespace regscope
