// regscope wrap's sidecars: one small JSON file next to each object a build
// compiled through the launcher (OBJ.regscope.json), holding the kernel
// records of that translation unit; and `collect`, which reads a build
// directory's sidecars into the Report that analyze -p would give, with no
// compiler run. docs/json-schema.md describes the format; docs/design.md why
// the figures come from the object and the remarks.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "regscope/collect/kernel_record.h"
#include "regscope/pipeline/analyze.h"
#include "regscope/report/report.h"
#include "regscope/source/compile_command.h"
#include "regscope/source/launch_sites.h"

namespace regscope {

inline constexpr int kSidecarVersion = 1;
inline constexpr std::string_view kSidecarSuffix = ".regscope.json";

struct Sidecar {
  std::string source;                       // absolute
  std::string object;                       // absolute
  std::vector<std::string> archs;           // the command's --offload-arch values
  std::string compiler;                     // the compiler as the command named it
  std::string producer;                     // what the code object says made it ("Debian clang version 15.0.6")
  std::uint64_t object_size = 0;            // the object when the sidecar was written: a later build
  std::int64_t object_mtime_ns = 0;         //   without the launcher leaves these behind (a stale sidecar)
  std::map<std::string, int> launch_sites;  // kernel base name -> constant block size at its launches
  // kernel base name -> the dynamic LDS at its launches (findLaunchDynamicShared); "launch_shared" in
  // the file, absent in sidecars written before it (none read then)
  std::map<std::string, DynamicSharedAt> launch_shared;
  // kernel base name -> the line of a launch whose block size / dynamic LDS
  // could not be evaluated (readLaunches): unknown, never a default;
  // "launch_unread" in the file, absent in sidecars written before it.
  std::map<std::string, int> launch_block_unread, launch_dynamic_unread;
  std::vector<std::string> notes;            // about the compile
  std::optional<Optimisation> optimisation;  // "optimisation" in the file; absent in sidecars written before it
  std::vector<KernelRecord> records;
};

// OBJ -> OBJ.regscope.json
std::string sidecarPath(const std::string &object);

std::string sidecarToText(const Sidecar &sidecar);
// Throws regscope::Error naming `path` when the text is not a sidecar of this version.
Sidecar sidecarFromText(std::string_view text, const std::string &path);

// The sidecar of a compile that succeeded: the object it wrote (read from
// `cwd`-relative -o), the remark text it printed, launch sites from the
// source. `argv` is the whole command (launchers included). Throws
// regscope::Error when the object cannot be read or holds no AMDGPU code.
Sidecar sidecarFor(const WrappedCompile &compile, const std::vector<std::string> &argv, const std::string &remarks,
                   const std::string &cwd);

// Writes the sidecar next to its object, atomically (a temporary file in the
// same directory, renamed; never left behind). Throws regscope::Error.
void writeSidecar(const Sidecar &sidecar);

// Every OBJ.regscope.json under `build_dir` into one report, as analyzeJobs
// builds it (options: launch overrides and the config's kernel settings). A
// sidecar whose object changed size or time since it was written (rebuilt
// without the launcher) or is gone is skipped with a warning; one that cannot
// be read is an error of the report (exit 2), as a file analyze cannot
// compile is. Throws regscope::Error when `build_dir` is not a directory or
// holds no sidecars.
Report collectSidecars(const std::string &build_dir, const AnalyzeOptions &options);

}  // namespace regscope
