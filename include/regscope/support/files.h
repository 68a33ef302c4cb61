// Whole-file reads and atomic whole-file writes.
#pragma once

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

namespace regscope {

// The whole file as bytes. Throws regscope::Error naming the file and why it
// could not be read (missing, a directory, permission denied, ...).
std::string readFile(const std::string &path);

// The whole file, or nullopt when it does not exist; other failures throw as
// readFile does. For outputs a tool may or may not have written.
std::optional<std::string> readFileIfExists(const std::string &path);

// Why `path` is not a regular file regscope can read as an input, named as
// what it is ("PATH: is a FIFO (named pipe), not a file: regscope reads files
// it can read twice"), or "" when it is a regular file. `what` names a
// directory's refusal ("is a directory, not a source file").
std::string notARegularFile(const std::string &path,
                            const std::string &directory_says = "is a directory (name the files in it)");

// A regular file mapped read-only. Pages are read when touched, so a parser
// that reads a few headers of a large binary (a fat binary's bundles and
// notes) holds only those pages, not the file. Throws regscope::Error as
// readFile does.
class MappedFile {
 public:
  explicit MappedFile(const std::string &path);
  ~MappedFile();
  MappedFile(const MappedFile &) = delete;
  MappedFile &operator=(const MappedFile &) = delete;
  std::string_view bytes() const { return {static_cast<const char *>(data_), size_}; }
  // Drops the whole pages inside `stretch` (a part of bytes()) from memory:
  // read again, they come back from the file. Keeps the resident size flat
  // while a parser walks a large file front to back.
  void drop(std::string_view stretch) const;

 private:
  void *data_ = nullptr;
  std::size_t size_ = 0;
};

// Replaces `path` with `content` via a temporary file and rename, so readers
// see the old file or the new one, never half of one. The file gets `mode`
// when given, else keeps the replaced file's mode, else honours the umask. A symbolic link stays a
// link (its target is replaced); a FIFO, device or terminal stays what it is
// and is written through. Throws regscope::Error naming the file and why
// (a full disk: "No space left on device"); the temporary file is removed,
// and the old file stays as it was.
void writeFileAtomically(const std::string &path, const std::string &content,
                         std::optional<unsigned> mode = std::nullopt);
// The same, for what `write` puts on its stream: a report of 100,000 kernels
// goes to the file as it is made, never held whole. An exception from `write`
// removes the temporary file and leaves the old one as it was.
using StreamWriter = std::function<void(std::ostream &)>;
void writeFileAtomically(const std::string &path, const StreamWriter &write,
                         std::optional<unsigned> mode = std::nullopt);

// What `write` puts on its stream, to descriptor `fd`, as it is made (in 1 MiB
// pieces). Throws regscope::Error with `what` and the reason when the
// descriptor takes no more (a full disk: "No space left on device"); a
// closed pipe (EPIPE) ends the process by SIGPIPE, as a shell expects.
void writeToDescriptor(int fd, const std::string &what, const StreamWriter &write);

// An exclusive lock for a read-modify-write of `target`: flock(2) on a lock
// file beside it ("<target>.lock", the symbolic link resolved, so every way
// of naming the file takes the same lock), held until destruction, when the
// lock file is removed. Waiting polls, so a caught signal ends the wait with
// InterruptedError. Throws regscope::Error when the lock file cannot be made.
class FileLock {
 public:
  explicit FileLock(const std::string &target);
  ~FileLock();
  FileLock(const FileLock &) = delete;
  FileLock &operator=(const FileLock &) = delete;
  const std::string &path() const { return path_; }

 private:
  std::string path_;
  int fd_ = -1;
};

// The repository that holds `dir`: its first ancestor (or itself) with a
// .git entry, or nullopt outside any repository.
std::optional<std::string> repositoryRoot(const std::string &dir);

}  // namespace regscope
