// One report kernel joined with its instructions as the isa stage read them:
// what the explain and --lines views show next to the kernel's figures.
// Built by the pipeline (pipeline/explain.h); plain data, no I/O.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "regscope/isa/isa.h"

namespace regscope {

// A source file the kernel's lines name: the path as the user reads it, and
// its text (empty when it could not be read), line 1 at index 0.
struct SourceText {
  std::string display;
  std::vector<std::string> lines;
};

struct KernelIsa {
  std::shared_ptr<const IsaReport> isa;  // the arch's whole .s (its files and notes); null: none
  int function = -1;                     // index into isa->functions; -1: none
  std::string missing;                   // one sentence when there is none (NVIDIA, a .s LLVM 15 cannot read)
  std::map<int, SourceText> sources;     // by index into isa->files
  int main_file = -1;                    // the file most of the function's instructions count for
  int kernel_file = -1;                  // the file the kernel is declared in, where the .s names it

  const IsaFunction *get() const { return isa && function >= 0 ? &isa->functions[function] : nullptr; }
};

}  // namespace regscope
