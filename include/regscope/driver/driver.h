// The driver: runs the compiler in a private temporary directory and hands
// back its outputs as text. It never parses them and never writes anywhere
// else; the directory is gone when compileHip/compileCuda return or throw.
#pragma once

#include <string>
#include <vector>

namespace regscope {

// Where the compiler is: --compiler, then $HIPCC, then `hipcc` on PATH.
// Throws regscope::Error naming where it looked.
std::string findHipCompiler(const std::string &explicit_path);

// Where nvcc is: --compiler, then nvcc on PATH, then $CUDA_PATH/bin, then
// /usr/local/cuda/bin. Throws regscope::Error naming every place it looked.
std::string findNvcc(const std::string &explicit_path);

// How much of the compiler's pipeline runs. DeviceAsm (the default) stops at
// each arch's device assembly: every figure regscope reads is in the .s, the
// optimisation record and the compiler's diagnostics, so nothing after them
// (assembler, device link, offload bundle, host code) is run. Full is the
// pipeline before issue 14 (hipcc --save-temps -c; nvcc -c with host code),
// kept so that tests/compile_depth_test.cpp can prove both give the same figures.
enum class CompileDepth { DeviceAsm, Full };

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

// hipcc (or a HIP-capable clang++) once for every arch.
CompileOutput compileHip(const CompileJob &job);

// nvcc once for every arch (-gencode per arch, -Xptxas -v,-warn-spills, --keep
// for the PTX). With -rdc=true among the flags, one device link per arch
// (--resource-usage) gives the final figures. In CompileOutput, each
// ArchOutput holds the PTX as `assembly` and that link's report as
// `link_report`.
CompileOutput compileCuda(const CompileJob &job);

// Where nvdisasm is (CUDA's full toolkit; CUDA's compiler-only packages lack
// it): on PATH, beside `nvcc` (a resolved path, may be empty), in
// $CUDA_PATH/bin, in /usr/local/cuda/bin. Empty when it is in none of them.
std::string findNvdisasm(const std::string &nvcc);

// nvdisasm's two views of one cubin, which it cannot print in one run: the
// per-instruction register liveness (-c -plr) and the line table with its
// inline chains (-c -gi). Runs in a private temporary directory; throws
// regscope::Error with nvdisasm's first lines when it fails.
struct CubinListing {
  std::string life_ranges;
  std::string line_info;
};
CubinListing disassembleCubin(const std::string &nvdisasm, const std::string &cubin, int timeout_seconds);

}  // namespace regscope
