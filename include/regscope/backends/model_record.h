// A kernel record through its vendor's occupancy model: the one place the
// report stage asks which vendor a record is (until wip/backends' Backend
// interface answers it per backend).
#pragma once

#include <optional>
#include <string>

#include "regscope/model/kernel_model.h"

namespace regscope {

// The record modelled on its arch's row, or nullopt with `warning` set when
// regscope has no occupancy table for the arch. `compiler_version` picks the
// AMD compiler's occupancy rule. Throws regscope::Error when the figures do
// not fit the target.
std::optional<ModelledKernel> modelRecord(const KernelRecord &record, const LaunchOverrides &launch,
                                          const std::string &compiler_version, std::string &warning);

}  // namespace regscope
