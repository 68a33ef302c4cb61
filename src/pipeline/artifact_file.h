// Shared by parse_artifacts.cpp and parse_tree.cpp (the pipeline's own).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "regscope/collect/kernel_record.h"
#include "regscope/pipeline/analyze.h"

namespace regscope {

// How far the read of a binary is: `done` of its `size` bytes walked (a
// fatbin entry or an offload bundle at a time).
using ReadProgress = std::function<void(std::size_t done, std::size_t size)>;
// One file's facts as `parse` reads it (sniffed: code object, .s, record,
// log); errors name the file. `progress` hears how far a binary's walk is.
std::vector<FactSet> readFileFacts(const std::string &file, const std::string &log_arch, std::string &producer,
                                   const ReadProgress &progress = {});
// The records of facts read from one artifact (or a Triton entry's files),
// checked as parse checks them: a known arch, figures a target can have.
Artifact checkArtifact(std::vector<FactSet> sets, const std::string &name, std::string producer);
// A directory, or a Triton code file with its metadata beside it: read by
// parseInputs (parse_tree.cpp), not as one plain artifact.
bool walksAsTree(const std::string &path);
// An ELF for Intel GT (machine 205): a zebin.
bool isIntelZebin(std::string_view bytes);
// Intel's legacy OpenCL ELF (ocloc's patch-token format): recognised only to say so.
bool isIntelOpenClElf(std::string_view bytes);
// A text with a line that begins "ptxas info": nvcc -Xptxas -v output.
bool isPtxasLog(std::string_view text);

}  // namespace regscope
