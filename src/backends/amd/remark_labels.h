// The kernel-resource-usage remark vocabulary, shared by the text and YAML
// parsers. Labels and keys come from AMDGPUAsmPrinter::emitResourceUsageRemarks.
#pragma once

#include <optional>
#include <string_view>

#include "regscope/collect/kernel_record.h"

namespace regscope {

struct RemarkLabel {
  std::string_view text;       // as printed: "ScratchSize [bytes/lane]"
  std::string_view key;        // optimisation-record name: "ScratchSize"
  std::optional<Field> field;  // none for "Function Name"
};

inline constexpr RemarkLabel kRemarkLabels[] = {
    {"Function Name", "FunctionName", std::nullopt},
    {"SGPRs", "NumSGPR", Field::Sgprs},
    {"VGPRs", "NumVGPR", Field::Vgprs},
    {"AGPRs", "NumAGPR", Field::Agprs},
    {"ScratchSize [bytes/lane]", "ScratchSize", Field::ScratchBytes},
    {"Dynamic Stack", "DynamicStack", Field::DynamicStack},
    {"Occupancy [waves/SIMD]", "Occupancy", Field::CompilerOccupancy},
    {"SGPRs Spill", "SGPRSpill", Field::SgprSpills},
    {"VGPRs Spill", "VGPRSpill", Field::VgprSpills},
    {"LDS Size [bytes/block]", "BytesLDS", Field::LdsBytes},
};

// A remark value as a number: integers, and True/False for Dynamic Stack.
// Symbolic expressions (LLVM 20+) give nullopt.
std::optional<std::int64_t> parseRemarkValue(std::string_view value);

// Sets `field` from a remark value: a number, an LLVM 20+ expression that
// evaluates on its own, or else the field is marked unresolved.
void setRemarkValue(KernelFacts &facts, Field field, std::string_view value);

// LLVM 15 prints a block for every function; device functions get Occupancy 0.
inline void markDeviceFunction(KernelFacts &facts) {
  if (facts.get(Field::CompilerOccupancy) == 0) facts.is_kernel = false;
}

}  // namespace regscope
