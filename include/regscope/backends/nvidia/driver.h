// The NVIDIA backend's driver: nvcc, and nvdisasm for explain.
#pragma once

#include <string>

#include "regscope/driver/driver.h"

namespace regscope {

// Where nvcc is: --compiler, then nvcc on PATH, then $CUDA_PATH/bin, then
// /usr/local/cuda/bin. Throws regscope::Error naming every place it looked.
std::string findNvcc(const std::string &explicit_path);

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
// regscope::Error with nvdisasm's first lines when -gi fails. When only -plr
// fails (nvdisasm 12.8 refuses 255-register kernels; CUDA 13's does no flow
// analysis on CUDA 12's cubins), `life_ranges_error` says why and the line
// table is still read: lines and spill sites without per-line registers.
struct CubinListing {
  std::string life_ranges;
  std::string line_info;
  std::string life_ranges_error;
};
// `life_ranges_wanted` false: -gi alone (the lines and local-memory accesses, no liveness).
CubinListing disassembleCubin(const std::string &nvdisasm, const std::string &cubin, int timeout_seconds,
                              bool life_ranges_wanted = true);

}  // namespace regscope
