// Triton's cache layout, read without Triton: one directory per compiled
// kernel (named by the compile's hash) holding `<kernel>.json` (the metadata),
// the code (`.amdgcn` + `.hsaco` on AMD, `.ptx` + `.cubin` on NVIDIA), the
// intermediate IR (`.source`, `.ttir`, `.ttgir`, `.llir`) and
// `__grp__<kernel>.json`, which lists the children. Text in, plain data out:
// the pipeline reads the files (src/pipeline/parse_tree.cpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "regscope/collect/kernel_record.h"
#include "regscope/collect/triton_info.h"
#include "regscope/support/vendor.h"

namespace regscope {

// The metadata of one compile. Bad input is an Error naming the key: a file
// without `name`, `num_warps`, `shared` or the target, a value of the wrong
// type, or a figure no launch can have (a block over 1024 threads, a warp size
// other than 32 or 64). Read keys (Triton 3.0 to 3.6): name, num_warps,
// num_stages, num_ctas, shared, warp_size, target{backend, arch, warp_size}
// (or backend_name/arch), waves_per_eu, matrix_instr_nonkdim, kpack, maxnreg,
// triton_version, hash.
TritonInfo readTritonMetadata(std::string_view json_text);

// Whether a JSON text is Triton metadata (an object with `triton_version`, or
// with `num_warps` and `target`): a lone one in a directory is a cache entry
// whose code is missing. False for anything that is not a JSON object.
bool looksLikeTritonMetadata(std::string_view json_text);

// The file names a `__grp__<kernel>.json` lists (`child_paths`' keys).
// Throws Error when it is not one.
std::vector<std::string> tritonGroupChildren(std::string_view json_text);

// Reads the entry function's parameters, the IR's tensor shapes and the
// Python location from the entry's `.source` (or `.ttir`) text into `info`,
// then sets its key. Without IR, tritonKey still gives a key (no digest).
void readTritonIr(TritonInfo &info, std::string_view ir_text);

// The baseline key: "triton:<python file name>:<function>[num_warps=N
// num_stages=S num_ctas=C spec=<digest>]" (the python file "?" when unknown).
std::string tritonKey(const TritonInfo &info);

// regscope's arch name for the target: "gfx942", "sm_90".
std::string tritonArch(const TritonInfo &info);

// The vendor of the GPU Triton compiled for: NVIDIA for "cuda", AMD for "hip".
Vendor tritonVendor(const TritonInfo &info);

// Whether a record of a Triton NVIDIA entry lacks its registers: the entry had
// a .ptx without its .cubin (PTX has no register figures).
bool tritonRegistersUnread(const KernelRecord &record);

}  // namespace regscope
