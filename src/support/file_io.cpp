// Whole-file reads and atomic whole-file writes.
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "regscope/support/error.h"
#include "regscope/support/files.h"

namespace regscope {

namespace {

std::string whyUnreadable(const std::string &path, int error) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return path + ": is a directory";
  return path + ": " + std::strerror(error);
}

}  // namespace

std::optional<std::string> readFileIfExists(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const int error = errno;
    if (error == ENOENT) return std::nullopt;
    throw Error(whyUnreadable(path, error));
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw Error(whyUnreadable(path, errno));
  return text.str();
}

std::string readFile(const std::string &path) {
  std::optional<std::string> text = readFileIfExists(path);
  if (!text) throw Error(path + ": no such file");
  return *text;
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

void writeFileAtomically(const std::string &path, const std::string &content) {
  namespace fs = std::filesystem;
  fs::path target(path);
  fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw Error("cannot write " + path + ": no directory " + dir.string());
  if (fs::is_directory(target, ec)) throw Error("cannot write " + path + ": is a directory");
  std::string temp = (dir / ("." + target.filename().string() + ".regscope-XXXXXX")).string();
  int fd = mkstemp(temp.data());
  if (fd < 0) throw Error("cannot write " + path + ": permission denied");
  // mkstemp makes 0600; keep the replaced file's mode, else honour the umask.
  struct stat existing {};
  mode_t mode;
  if (stat(path.c_str(), &existing) == 0) {
    mode = existing.st_mode & 07777;
  } else {
    mode_t mask = umask(0);
    umask(mask);
    mode = 0666 & ~mask;
  }
  fchmod(fd, mode);
  bool ok = ::write(fd, content.data(), content.size()) == static_cast<ssize_t>(content.size());
  ok = (fsync(fd) == 0) && ok;
  ok = (close(fd) == 0) && ok;
  if (!ok || std::rename(temp.c_str(), path.c_str()) != 0) {
    std::remove(temp.c_str());
    throw Error("cannot write " + path);
  }
}

}  // namespace regscope
