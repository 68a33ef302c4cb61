// Result-cache entries (issue 21 item 14): whatever bytes an entry holds, a
// lookup is a hit or a miss, never a crash, an exception or an endless read
// (a dependency that names a device or FIFO is a miss, not a file to hash).
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "fuzz_util.h"
#include "regscope/cache/cache.h"

namespace {

// One private cache directory for the whole run, removed at exit.
const std::string &cacheDirectory() {
  static const std::string dir = [] {
    const char *tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/regscope-fuzz-cache-XXXXXX";
    if (!mkdtemp(pattern.data())) __builtin_trap();
    static const std::string removed = pattern;
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(removed, ec);
    });
    return pattern;
  }();
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace regscope;
  const std::string &dir = cacheDirectory();
  const std::string key = "0000000000000000000000000000000000000000000000000000000000000000";
  const std::string path = dir + "/" + key + ".json";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char *>(data), static_cast<std::streamsize>(size));
  }
  chmod(path.c_str(), 0600);
  const ResultCache cache(dir);
  try {
    if (std::optional<CachedResult> hit = cache.lookup(key))
      for (const KernelRecord &record : hit->records) (void)recordToJson(record);
  } catch (...) {
    __builtin_trap();  // lookup answers a damaged entry with a miss, never an exception
  }
  return 0;
}
