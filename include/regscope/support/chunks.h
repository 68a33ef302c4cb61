// Reading a file of any size in constant memory: fixed-size chunks, and the
// lines across them. `regscope parse` reads build logs and device assembly
// this way, so its memory holds the kernels found, not the input.
#pragma once

#include <cstddef>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>

namespace regscope {

// The bytes of a file, front to back, through one reused buffer.
class FileChunks {
 public:
  static constexpr std::size_t kDefaultSize = std::size_t{1} << 20;
  // Throws regscope::Error naming the file when it cannot be opened.
  explicit FileChunks(const std::string &path, std::size_t chunk_size = kDefaultSize);
  ~FileChunks();
  FileChunks(const FileChunks &) = delete;
  FileChunks &operator=(const FileChunks &) = delete;

  // The next chunk: full-sized except at the end of the file, empty after it.
  // A view into the buffer, valid until the next call. Throws on a read error.
  std::string_view next();

 private:
  std::string path_;
  int fd_ = -1;
  std::string buffer_;
};

// Cuts chunks of a text into lines, without their '\n', as
// scan::forEachLine cuts a whole text: a line cut by a chunk boundary comes
// out joined, a last line without '\n' comes out at finish(), and no empty
// line follows a final '\n'. Lines inside one chunk are views into it; only a
// line that spans chunks is copied.
class LineSplitter {
 public:
  template <typename Fn>
  void feed(std::string_view chunk, Fn &&fn) {
    while (!chunk.empty()) {
      const void *nl = std::memchr(chunk.data(), '\n', chunk.size());
      if (!nl) {
        partial_.append(chunk);
        return;
      }
      const std::size_t len = static_cast<std::size_t>(static_cast<const char *>(nl) - chunk.data());
      if (partial_.empty()) {
        fn(chunk.substr(0, len));
      } else {
        partial_.append(chunk.substr(0, len));
        fn(std::string_view(partial_));
        partial_.clear();
      }
      chunk.remove_prefix(len + 1);
    }
  }
  template <typename Fn>
  void finish(Fn &&fn) {
    if (!partial_.empty()) fn(std::string_view(partial_));
    partial_.clear();
  }

 private:
  std::string partial_;
};

// Calls fn(line) for each line of the file (as LineSplitter cuts them).
void forEachLineOfFile(const std::string &path, const std::function<void(std::string_view)> &fn);

}  // namespace regscope
