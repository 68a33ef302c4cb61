// Whole-file reads and atomic whole-file writes.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "regscope/support/chunks.h"
#include "regscope/support/error.h"
#include "regscope/support/files.h"
#include "regscope/support/process.h"

namespace regscope {

std::string notARegularFile(const std::string &path, const std::string &directory_says) {
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) return path + ": no such file";
  switch (status.type()) {
    case std::filesystem::file_type::regular:
      return "";
    case std::filesystem::file_type::directory:
      return path + ": " + directory_says;
    case std::filesystem::file_type::fifo:
      return path + ": is a FIFO (named pipe), not a file: regscope reads inputs it can open twice; save it to a file";
    case std::filesystem::file_type::socket:
      return path + ": is a socket, not a file";
    case std::filesystem::file_type::block:
    case std::filesystem::file_type::character:
      return path + ": is a device, not a file";
    default:
      return path + ": is not a regular file";
  }
}

namespace {

std::string whyUnreadable(const std::string &path, int error) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return path + ": is a directory";
  return path + ": " + std::strerror(error);
}

}  // namespace

// One buffer of the file's size, filled by read(2): a stream copied through an
// ostringstream took 40 % of `regscope parse` on a large log and peaked at
// four copies of the file (docs/benchmarks.md, parse throughput).
std::optional<std::string> readFileIfExists(const std::string &path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int error = errno;
    if (error == ENOENT) return std::nullopt;
    throw Error(whyUnreadable(path, error));
  }
  struct stat st {};
  std::string text;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) text.reserve(static_cast<std::size_t>(st.st_size));
  char chunk[65536];
  while (true) {  // to the end, whatever the size said: a file may grow, a FIFO has none
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      const int error = errno;
      close(fd);
      throw Error(whyUnreadable(path, error));
    }
    text.append(chunk, static_cast<std::size_t>(n));
  }
  close(fd);
  return text;
}

FileChunks::FileChunks(const std::string &path, std::size_t chunk_size) : path_(path) {
  fd_ = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) {
    const int error = errno;
    throw Error(error == ENOENT ? path + ": no such file" : whyUnreadable(path, error));
  }
  posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
  buffer_.resize(chunk_size == 0 ? 1 : chunk_size);
}

FileChunks::~FileChunks() {
  if (fd_ >= 0) close(fd_);
}

std::string_view FileChunks::next() {
  std::size_t filled = 0;
  while (fd_ >= 0 && filled < buffer_.size()) {  // a full buffer but at the end: read(2) may return less
    const ssize_t n = ::read(fd_, buffer_.data() + filled, buffer_.size() - filled);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw Error(whyUnreadable(path_, errno));
    if (n == 0) {
      close(fd_);
      fd_ = -1;
      break;
    }
    filled += static_cast<std::size_t>(n);
  }
  return std::string_view(buffer_.data(), filled);
}

void forEachLineOfFile(const std::string &path, const std::function<void(std::string_view)> &fn) {
  FileChunks chunks(path);
  LineSplitter lines;
  for (std::string_view chunk = chunks.next(); !chunk.empty(); chunk = chunks.next()) lines.feed(chunk, fn);
  lines.finish(fn);
}

MappedFile::MappedFile(const std::string &path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int error = errno;
    throw Error(error == ENOENT ? path + ": no such file" : whyUnreadable(path, error));
  }
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    throw Error(S_ISDIR(st.st_mode) ? path + ": is a directory" : path + ": not a regular file");
  }
  size_ = static_cast<std::size_t>(st.st_size);
  if (size_ > 0) {
    data_ = mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (data_ == MAP_FAILED) {
      const int error = errno;
      data_ = nullptr;
      close(fd);
      throw Error(whyUnreadable(path, error));
    }
  }
  close(fd);  // the mapping keeps the file
}

MappedFile::~MappedFile() {
  if (data_) munmap(data_, size_);
}

void MappedFile::drop(std::string_view stretch) const {
  const auto base = reinterpret_cast<std::uintptr_t>(data_);
  auto begin = reinterpret_cast<std::uintptr_t>(stretch.data()), end = begin + stretch.size();
  if (!data_ || begin < base || end > base + size_) return;  // not a part of this file
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  begin = (begin + page - 1) / page * page;  // whole pages only: a neighbour may still be read
  end = end / page * page;
  // A private, read-only mapping is never written, so its dropped pages read back the file's bytes.
  if (begin < end) madvise(reinterpret_cast<void *>(begin), end - begin, MADV_DONTNEED);
}

std::string readFile(const std::string &path) {
  std::optional<std::string> text = readFileIfExists(path);
  if (!text) throw Error(path + ": no such file");
  return std::move(*text);
}

std::optional<std::string> repositoryRoot(const std::string &dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  for (fs::path at = fs::weakly_canonical(fs::absolute(dir, ec), ec); !at.empty(); at = at.parent_path()) {
    if (fs::exists(at / ".git", ec)) return at.string();
    if (at == at.root_path()) break;
  }
  return std::nullopt;
}

namespace {

// All of `size` bytes at `data` to `fd`, through short writes and EINTR;
// false with errno set when the file takes no more (a full disk, /dev/full,
// a closed pipe).
bool writeAll(int fd, const char *data, std::size_t size) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(fd, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) {
      errno = ENOSPC;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// A stream buffer that writes to a descriptor in 1 MiB pieces and keeps the
// first write's errno, which the caller turns into its error.
class DescriptorBuffer : public std::streambuf {
 public:
  explicit DescriptorBuffer(int fd) : fd_(fd), buffer_(std::size_t{1} << 20) {
    setp(buffer_.data(), buffer_.data() + buffer_.size());
  }
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    if (error_) return false;
    const std::size_t size = static_cast<std::size_t>(pptr() - pbase());
    if (size && !writeAll(fd_, pbase(), size)) {
      error_ = errno;
      return false;
    }
    setp(buffer_.data(), buffer_.data() + buffer_.size());
    return true;
  }
  int fd_;
  std::vector<char> buffer_;
  int error_ = 0;
};

// Runs `write` into `fd`; the errno of the first failed write, 0 when all went.
int streamInto(int fd, const StreamWriter &write) {
  DescriptorBuffer buffer(fd);
  std::ostream out(&buffer);
  write(out);
  out.flush();
  return buffer.error() ? buffer.error() : (out ? 0 : EIO);
}

// Writes into an existing non-regular file (a FIFO, /dev/null, a terminal):
// such a node must stay what it is, so it is written through.
void writeThrough(const std::string &path, const StreamWriter &write) {
  const int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) throw Error("cannot write " + path + ": " + std::strerror(errno));
  int error = 0;
  try {
    error = streamInto(fd, write);
  } catch (...) {
    close(fd);
    throw;
  }
  if (close(fd) != 0 && !error && errno != EINTR) error = errno;
  if (error) throw Error("cannot write " + path + ": " + std::strerror(error));
}

// The file a write to `path` replaces: a symbolic link's target.
std::filesystem::path replacedFile(const std::string &path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path target(path);
  if (fs::is_symlink(target, ec)) target = fs::weakly_canonical(target, ec);
  return target;
}

}  // namespace

void writeFileAtomically(const std::string &path, const std::string &content, std::optional<unsigned> mode) {
  writeFileAtomically(
      path, [&content](std::ostream &out) { out.write(content.data(), content.size()); }, mode);
}

void writeFileAtomically(const std::string &path, const StreamWriter &write, std::optional<unsigned> mode) {
  namespace fs = std::filesystem;
  std::error_code ec;
  // A symbolic link stays a link: the file it points to is what gets replaced.
  const fs::path target = replacedFile(path);
  const fs::file_status status = fs::status(target, ec);
  if (fs::is_directory(status)) throw Error("cannot write " + path + ": is a directory");
  if (fs::exists(status) && !fs::is_regular_file(status)) return writeThrough(target.string(), write);
  fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  if (!fs::is_directory(dir, ec)) throw Error("cannot write " + path + ": no directory " + dir.string());
  std::string temp = (dir / ("." + target.filename().string() + ".regscope-XXXXXX")).string();
  int fd = mkostemp(temp.data(), O_CLOEXEC);
  if (fd < 0) throw Error("cannot write " + path + ": " + std::strerror(errno));
  // mkstemp makes 0600; the mode asked for, else the replaced file's, else honour the umask.
  struct stat existing {};
  mode_t file_mode;
  if (mode) {
    file_mode = static_cast<mode_t>(*mode);
  } else if (stat(target.c_str(), &existing) == 0) {
    file_mode = existing.st_mode & 07777;
  } else {
    mode_t mask = umask(0);
    umask(mask);
    file_mode = 0666 & ~mask;
  }
  fchmod(fd, file_mode);
  // Each step's errno is kept: "No space left on device" tells the user what to do.
  int error = 0;
  try {
    error = streamInto(fd, write);
  } catch (...) {  // the writer failed (a signal, an error): no half file, the old one stays
    close(fd);
    std::remove(temp.c_str());
    throw;
  }
  if (!error && fsync(fd) != 0) error = errno;
  if (close(fd) != 0 && !error && errno != EINTR) error = errno;
  if (!error && std::rename(temp.c_str(), target.c_str()) != 0) error = errno;
  if (error) {
    std::remove(temp.c_str());
    throw Error("cannot write " + path + ": " + std::strerror(error));
  }
}

void writeToDescriptor(int fd, const std::string &what, const StreamWriter &write) {
  const int error = streamInto(fd, write);
  if (error == EPIPE) {  // SIGPIPE was ignored by whoever started us: end as if it was not
    std::signal(SIGPIPE, SIG_DFL);
    std::raise(SIGPIPE);
  }
  if (error) throw Error("cannot write " + what + ": " + std::strerror(error));
}

FileLock::FileLock(const std::string &target) {
  namespace fs = std::filesystem;
  // Canonical: a link to the file, or a linked directory on the way, names the same lock.
  std::error_code ec;
  fs::path file = fs::weakly_canonical(fs::absolute(target, ec), ec);
  if (file.empty()) file = replacedFile(target);
  path_ = file.string() + ".lock";
  for (;;) {
    // O_NOFOLLOW: a link planted in the lock file's place is not followed.
    fd_ = open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd_ < 0) throw Error("cannot lock " + target + ": cannot create " + path_ + ": " + std::strerror(errno));
    while (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      if (errno != EWOULDBLOCK && errno != EINTR) {
        const int error = errno;
        close(fd_);
        throw Error("cannot lock " + target + ": " + path_ + ": " + std::strerror(error));
      }
      try {
        throwIfInterrupted();
      } catch (...) {
        close(fd_);
        throw;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    // The holder before us removes the lock file as it lets go: a lock on a
    // file no longer at path_ locks nothing, so open the current one again.
    struct stat held {
    }, now{};
    if (fstat(fd_, &held) == 0 && stat(path_.c_str(), &now) == 0 && held.st_dev == now.st_dev &&
        held.st_ino == now.st_ino)
      return;
    close(fd_);
  }
}

FileLock::~FileLock() {
  unlink(path_.c_str());  // while still held: a waiter that opened it sees it gone and opens afresh
  close(fd_);
}

}  // namespace regscope
