#include "bundle_codec.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/MD5.h>
#include <zlib.h>
#include <zstd.h>

#include <cstdint>
#include <cstring>

#include "regscope/support/error.h"

namespace regscope {
namespace {

// An offload bundle holds a code object per arch; the largest ROCm libraries'
// are tens of MiB. Larger than this is damage, not a bundle: refused before
// anything is allocated.
constexpr std::uint64_t kMostDecompressed = std::uint64_t{1} << 30;

template <typename T>
T readLe(std::string_view bytes, std::size_t at) {
  T v;
  std::memcpy(&v, bytes.data() + at, sizeof v);  // little-endian, as the bundler writes it
  return v;
}

std::uint16_t version(std::string_view bytes) { return readLe<std::uint16_t>(bytes, 4); }
std::uint16_t method(std::string_view bytes) { return readLe<std::uint16_t>(bytes, 6); }

}  // namespace

bool startsCompressedBundle(std::string_view bytes) {
  return bytes.size() >= 8 && bytes.substr(0, 4) == kCompressedBundleMagic && version(bytes) >= 1 &&
         version(bytes) <= 3 && method(bytes) <= 1;
}

DecompressedBundle decompressBundle(std::string_view bytes, const std::string &what) {
  auto fail = [&](const std::string &why) { return Error("compressed offload bundle " + what + ": " + why); };
  if (bytes.size() < 8 || bytes.substr(0, 4) != kCompressedBundleMagic) throw fail("no CCOB header");
  const std::uint16_t v = version(bytes), codec = method(bytes);
  if (v != 1 && v != 2)
    throw fail("CCOB version " + std::to_string(v) + " is not read (LLVM 19 writes version 2 and reads 1 and 2)");
  const std::size_t header = v == 1 ? 20 : 24;
  if (bytes.size() < header) throw fail("truncated: " + std::to_string(bytes.size()) + " bytes, less than its header");
  std::uint64_t total = bytes.size();  // version 1 does not say its size: the rest of the input
  std::size_t at = 8;
  if (v == 2) {
    total = readLe<std::uint32_t>(bytes, at);
    at += 4;
    if (total < header || total > bytes.size())
      throw fail("its header says " + std::to_string(total) + " bytes, but " + std::to_string(bytes.size()) +
                 " are there");
  }
  const std::uint64_t size = readLe<std::uint32_t>(bytes, at), hash = readLe<std::uint64_t>(bytes, at + 4);
  if (size == 0 || size > kMostDecompressed) throw fail("it claims " + std::to_string(size) + " bytes decompressed");
  std::string_view packed = bytes.substr(header, total - header);
  std::string out(size, '\0');
  std::uint64_t got = 0;
  if (codec == 1) {
    if (v == 1) {  // the frame ends where zstd says: more bundles may follow it in a .hip_fatbin
      const std::size_t frame = ZSTD_findFrameCompressedSize(packed.data(), packed.size());
      if (ZSTD_isError(frame)) throw fail(std::string("its zstd frame is damaged: ") + ZSTD_getErrorName(frame));
      packed = packed.substr(0, frame);
      total = header + frame;
    }
    const std::size_t n = ZSTD_decompress(out.data(), out.size(), packed.data(), packed.size());
    if (ZSTD_isError(n)) throw fail(std::string("its zstd frame does not decompress: ") + ZSTD_getErrorName(n));
    got = n;
  } else if (codec == 0) {
    uLongf n = out.size();
    uLong used = packed.size();  // in: what there is; out: what the stream took (version 1's extent)
    const int status =
        uncompress2(reinterpret_cast<Bytef *>(out.data()), &n, reinterpret_cast<const Bytef *>(packed.data()), &used);
    if (status != Z_OK) throw fail("its zlib stream does not decompress (zlib error " + std::to_string(status) + ")");
    if (v == 1) total = header + used;
    got = n;
  } else {
    throw fail("compression method " + std::to_string(codec) + " is neither zlib (0) nor zstd (1)");
  }
  if (got != size)
    throw fail("it decompresses to " + std::to_string(got) + " bytes, not the " + std::to_string(size) +
               " its header says");
  const llvm::MD5::MD5Result digest =
      llvm::MD5::hash(llvm::ArrayRef<std::uint8_t>(reinterpret_cast<const std::uint8_t *>(out.data()), out.size()));
  if (digest.low() != hash) throw fail("its hash does not match what it decompresses to: the bundle is damaged");
  return {std::move(out), static_cast<std::size_t>(total)};
}

}  // namespace regscope
