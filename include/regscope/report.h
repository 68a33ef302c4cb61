// The one report every printer reads: the merged kernel records with the
// model's verdict on each, plus what produced them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "regscope/kernel_record.h"
#include "regscope/occupancy.h"

namespace regscope {

inline constexpr const char *kRegscopeVersion = "0.1.0";
inline constexpr const char *kSchemaVersion = "1.0";

struct KernelReport {
  KernelRecord record;
  std::string display_file;  // path as the user should read it
  int workgroup_size = 0;    // the workgroup size the model assumed
  std::string workgroup_size_source;  // "max_flat_workgroup_size", "default" or "--block-size"
  Occupancy occupancy;
  std::optional<int> compiler_reported;
  std::string explanation;   // why the compiler's figure differs, if it does
};

struct Report {
  std::string compiler_path;
  std::string compiler_version;
  std::vector<std::string> inputs;
  std::vector<KernelReport> kernels;
  std::vector<std::string> warnings;
  std::vector<std::string> errors;  // files that could not be analysed; exit 2
};

// The model stage: one KernelReport per record. Records for archs regscope
// has no table for are reported as warnings and skipped.
void addKernels(Report &report, const std::vector<KernelRecord> &records);

}  // namespace regscope
