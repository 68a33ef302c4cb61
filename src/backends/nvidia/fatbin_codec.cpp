#include "fatbin_codec.h"

#include <lz4.h>
#include <zstd.h>

#include <climits>

#include "regscope/support/error.h"

namespace regscope {
namespace {

// A cubin is an image the driver loads whole: larger than this is damage, not
// a kernel (PyTorch's largest cubins are tens of MiB). LZ4's format caps its
// sizes at INT_MAX too.
constexpr std::uint64_t kMostDecompressed = std::uint64_t{1} << 30;

}  // namespace

std::string decompressFatbinEntry(std::string_view payload, std::uint64_t flags, std::uint64_t compressed_size,
                                  std::uint64_t decompressed_size, const std::string &what) {
  auto fail = [&](const std::string &why) { return Error(what + ": " + why); };
  if (compressed_size > payload.size())
    throw fail("its compressed size (" + std::to_string(compressed_size) + " bytes) runs past its payload of " +
               std::to_string(payload.size()));
  if (decompressed_size == 0 || decompressed_size > kMostDecompressed)
    throw fail("it claims " + std::to_string(decompressed_size) + " bytes decompressed");
  const std::string_view packed = payload.substr(0, compressed_size);
  std::string out(decompressed_size, '\0');
  if (flags & kFatbinZstd) {
    const std::size_t n = ZSTD_decompress(out.data(), out.size(), packed.data(), packed.size());
    if (ZSTD_isError(n)) throw fail(std::string("its zstd frame does not decompress: ") + ZSTD_getErrorName(n));
    if (n != decompressed_size)
      throw fail("its zstd frame holds " + std::to_string(n) + " bytes, not the " + std::to_string(decompressed_size) +
                 " its header says");
  } else if (flags & kFatbinLz4) {
    if (packed.size() > INT_MAX) throw fail("its LZ4 block is larger than LZ4 allows");
    const int n =
        LZ4_decompress_safe(packed.data(), out.data(), static_cast<int>(packed.size()), static_cast<int>(out.size()));
    if (n < 0) throw fail("its LZ4 block does not decompress");
    if (static_cast<std::uint64_t>(n) != decompressed_size)
      throw fail("its LZ4 block holds " + std::to_string(n) + " bytes, not the " + std::to_string(decompressed_size) +
                 " its header says");
  } else {
    throw fail("it is compressed with neither LZ4 nor zstd");
  }
  return out;
}

}  // namespace regscope
