// Compressed offload bundles ("CCOB"): what `clang-offload-bundler --compress`,
// hipcc's --offload-compress and OFFLOAD_BUNDLER_COMPRESS=1 write in place of
// an uncompressed __CLANG_OFFLOAD_BUNDLE__. The header is LLVM's
// (clang/lib/Driver/OffloadBundler.cpp, CompressedOffloadBundle), little-endian:
//   version 1 (LLVM 18): "CCOB" u16 version, u16 method, u32 uncompressed size, u64 hash   (20 bytes)
//   version 2 (LLVM 19): "CCOB" u16 version, u16 method, u32 total size, u32 uncompressed size, u64 hash (24)
// method 0 is zlib, 1 zstd; the hash is the low 8 bytes of the MD5 of the
// uncompressed bundle. LLVM 19 writes version 2 and reads 1 and 2; a later
// version is refused by name, not guessed at. fixtures/ccob-clang-19 has the files.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace regscope {

inline constexpr std::string_view kCompressedBundleMagic = "CCOB";

// Whether `bytes` starts a compressed offload bundle: the magic and a version
// and method LLVM writes (four letters alone would also start a text).
bool startsCompressedBundle(std::string_view bytes);

struct DecompressedBundle {
  std::string bundle;  // the __CLANG_OFFLOAD_BUNDLE__ it holds
  std::size_t extent;  // the bytes of the input it takes, header included
};

// The bundle `bytes` starts with, decompressed and checked: its sizes against
// the input and a cap, the codec's result against the header's size, and the
// hash. Throws regscope::Error naming `what` for damage or a version not read.
DecompressedBundle decompressBundle(std::string_view bytes, const std::string &what);

}  // namespace regscope
