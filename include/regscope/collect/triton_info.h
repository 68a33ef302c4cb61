// What a Triton cache entry's metadata (`<kernel>.json`) says about one
// compiled kernel: how Triton launches it and what it was compiled with.
// Plain data carried by the KernelRecord of a kernel read from a Triton cache
// (src/backends/triton/ reads it; the model, views and baselines use it).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace regscope {

struct TritonInfo {
  std::string function;  // "name": the @triton.jit function (and the kernel's symbol)
  std::string version;   // "triton_version"; empty when the metadata has none
  std::string backend;   // target.backend: "hip" or "cuda"
  std::string target;    // target.arch as Triton writes it: "gfx942", "90"
  std::string hash;      // "hash": the cache key of this compile (changes with every Triton upgrade)
  int num_warps = 0;
  int warp_size = 0;   // target.warp_size: 64 on AMD, 32 on NVIDIA
  int num_stages = 0;  // 0: not in the metadata
  int num_ctas = 1;
  std::int64_t shared = 0;  // dynamic LDS / shared memory Triton allocates at launch, bytes
  // AMD compiler options (absent on NVIDIA, and in metadata that lacks them).
  std::optional<int> waves_per_eu, matrix_instr_nonkdim, kpack;
  std::optional<int> maxnreg;  // NVIDIA: the register cap asked for; absent when null
  // The Python file and line the function is defined at (the first `#loc` of
  // the entry's .source or .ttir); empty and 0 when neither is there.
  std::string python_file;
  int python_line = 0;
  // The specialisation as compiled: the entry function's parameters (types and
  // attributes such as tt.divisibility) and the tensor shapes of its IR, which
  // carry the constexprs (tile sizes); empty when no IR is beside the metadata.
  std::string specialisation;
  // The constexprs and signature the metadata itself records (`constants`,
  // `signature`: Triton 2.x wrote them; Triton 3.0 to 3.6 write neither, so
  // there the constexprs are only in the IR). Canonical JSON; empty when absent.
  // Part of the key's digest, and read from the json alone: a cleaned entry has it.
  std::string declared_constants;
  // A digest of the entry's IR (.source, else .ttir) without its locations:
  // every constexpr is in it (a flag such as `use_ue8m0` folds a branch away
  // and changes no shape), and it is what Triton's frontend wrote, so ptxas,
  // ROCm, maxnreg or waves_per_eu changes and comment edits leave it as it is
  // (the cache hash changes with each). Empty without IR. Joins the key only
  // when two entries of one run would otherwise share it.
  std::string ir_digest;
  // The kernel's identity across recompiles (baseline key): the Python file's
  // name, the function, num_warps, num_stages, num_ctas and a digest of the
  // specialisation. The target arch is the record's. Never the cache hash.
  std::string key;
  // A digest of the entry's code files (the bytes the GPU runs): two entries
  // whose metadata is identical, hash included, but whose code differs are two
  // kernels, never one baseline entry. Empty when not read.
  std::string code_digest;

  int blockSize() const { return num_warps * warp_size; }
};

}  // namespace regscope
