// The driver stage's vendor-neutral part: what one compile is asked to do
// (CompileJob) and what it hands back (CompileOutput). Each backend's driver
// (src/backends/<vendor>/*_driver.cpp) runs its compiler in a private
// temporary directory and hands back its outputs as text; it never parses
// them and never writes anywhere else; the directory is gone when it returns
// or throws.
#pragma once

#include <string>
#include <vector>

namespace regscope {

// How much of the compiler's pipeline runs. DeviceAsm (the default) stops at
// each arch's device assembly: every figure regscope reads is in the .s, the
// optimisation record and the compiler's diagnostics, so nothing after them
// (assembler, device link, offload bundle, host code) is run. Full is the
// pipeline before issue 14 (hipcc --save-temps -c; nvcc -c with host code),
// kept so that tests/compile_depth_test.cpp can prove both give the same figures.
enum class CompileDepth { DeviceAsm, Full };

// The optimisation level a compile's figures are for, and who chose it: the
// flags, the compiler's own default when they give none (hipcc and nvcc's
// device code -O3, a plain clang's -O0), or regscope, which adds -O3 to a
// plain clang so that analyze gives an optimised build's figures.
enum class OptimisationSource { Flags, CompilerDefault, Regscope };

struct Optimisation {
  std::string level;  // "-O3", "-O0", ...
  OptimisationSource source = OptimisationSource::Flags;
  std::string compiler;  // whose default: "hipcc", "clang", "nvcc", "ocloc"
};

// The JSON/shard/sidecar spelling of each source; the parse is its inverse
// (false for a name it does not know).
inline const char *optimisationSourceName(OptimisationSource s) {
  switch (s) {
    case OptimisationSource::Flags:
      return "flags";
    case OptimisationSource::CompilerDefault:
      return "compiler_default";
    case OptimisationSource::Regscope:
      return "regscope";
  }
  return "flags";
}
inline bool parseOptimisationSource(const std::string &name, OptimisationSource &out) {
  for (OptimisationSource s :
       {OptimisationSource::Flags, OptimisationSource::CompilerDefault, OptimisationSource::Regscope})
    if (name == optimisationSourceName(s)) return out = s, true;
  return false;
}

struct CompileJob {
  std::string compiler;                  // resolved path
  std::string source;                    // absolute path of the source file
  std::vector<std::string> archs;        // one compiler run covers them all
  std::vector<std::string> extra_flags;  // the user's, after `--`
  int timeout_seconds = 0;               // 0: none
  CompileDepth depth = CompileDepth::DeviceAsm;
  // The dependency file (-MD -MF) is the result cache's input alone: without a
  // cache (--no-cache) it is not written. For nvcc it is a preprocessor run of its own.
  bool dependencies = true;
  // NVIDIA: keep each arch's cubin in ArchOutput::device_code (explain reads
  // it with nvdisasm). AMD's .s is kept always.
  bool keep_device_code = false;
};

struct ArchOutput {
  std::string arch;          // as in the file name, features included ("gfx90a:xnack+")
  std::string assembly;      // the device .s (AMD) or .ptx (NVIDIA)
  std::string remarks_yaml;  // the .opt.yaml, empty if the compiler wrote none
  std::string link_report;   // NVIDIA -rdc: nvlink's resource report
  std::string device_code;   // NVIDIA with CompileJob::keep_device_code: the arch's cubin (ELF bytes)
};

struct CompileOutput {
  std::vector<std::string> argv;  // the command that ran
  int exit_code = 0;
  std::string diagnostics;  // stderr: remarks, warnings, errors
  std::vector<ArchOutput> archs;
  std::vector<std::string> dependencies;  // files the compile read (source and headers)
};

}  // namespace regscope
