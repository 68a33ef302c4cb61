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

struct AmdArch;

// The value of `text`, with names looked up in `symbols` (".set NAME, EXPR");
// nullopt when a name is undefined or the text is not an expression. The
// functions whose meaning depends on the target (totalnumvgprs, extrasgprs,
// occupancy) apply `target`'s rules (target/amdgpu.h); with no known target
// (null) they leave the value unresolved rather than guess.
std::optional<std::int64_t> evaluateMcExpr(std::string_view text, const std::map<std::string, std::string> &symbols,
                                           const AmdArch *target);

}  // namespace regscope
