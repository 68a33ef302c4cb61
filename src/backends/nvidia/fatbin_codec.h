// A compressed fatbin entry's payload, decompressed. nvcc compresses a cubin
// entry (and PTX) when asked (-Xfatbin=-compress-all, --compress-mode) or when
// it is large: CUDA 13's `--compress-mode=speed` and CUDA <= 12.8 write an LZ4
// block (entry flag 0x2000), its other modes a zstd frame (0x8000). The entry
// header says both sizes: the payload's at +16 (u32), the decompressed at +56
// (u64). docs/cubin.md has the layout and the fixtures that show it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace regscope {

inline constexpr std::uint64_t kFatbinLz4 = 0x2000;
inline constexpr std::uint64_t kFatbinZstd = 0x8000;

// The decompressed bytes of `payload` (flags say the codec), exactly
// `decompressed_size` of them. Throws regscope::Error naming `what` when the
// sizes are impossible or the data does not decompress to that size.
std::string decompressFatbinEntry(std::string_view payload, std::uint64_t flags, std::uint64_t compressed_size,
                                  std::uint64_t decompressed_size, const std::string &what);

}  // namespace regscope
