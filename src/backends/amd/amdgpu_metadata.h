// The AMDGPU HSA metadata (code object v3+), read the same way whether it
// comes as a .s file's .amdgpu_metadata YAML block or as a code object's
// NT_AMDGPU_METADATA note (msgpack).
#pragma once

#include <llvm/BinaryFormat/MsgPackDocument.h>

#include <string>
#include <string_view>
#include <vector>

#include "regscope/collect/kernel_record.h"

namespace regscope {

struct MetadataKernel {
  std::string name;
  FieldValues values;
};

struct Metadata {
  std::string arch;  // the target id from amdhsa.target, features kept
  std::vector<MetadataKernel> kernels;
};

Metadata readMetadata(llvm::msgpack::Document &doc);

// The figures LLVM writes for every kernel in the metadata (.sgpr_count,
// .vgpr_count, the segment sizes, .max_flat_workgroup_size, .wavefront_size,
// the spill counts) that `kernel` lacks: a damaged file, so they are unknown.
std::vector<Field> missingFromMetadata(const MetadataKernel &kernel);

// The metadata as a document, from a code object's note (msgpack) or a .s
// file's block (YAML). Both are untrusted: the bytes are checked before
// LLVM's readers see them (map keys are strings, no container claims more
// elements than the input holds, nesting is bounded), and a malformed input
// throws regscope::Error with the reader's one-line reason instead of
// printing LLVM's diagnostics. The blob must outlive the document.
void metadataFromMsgpack(std::string_view blob, llvm::msgpack::Document &doc);
void metadataFromYaml(std::string_view yaml, llvm::msgpack::Document &doc);

// "amdgcn-amd-amdhsa--gfx90a:xnack+" -> "gfx90a:xnack+" (the target id, features kept)
std::string archFromTarget(std::string_view target);

}  // namespace regscope
