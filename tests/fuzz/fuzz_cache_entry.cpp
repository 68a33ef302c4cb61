// Result-cache entries (issue 21 item 14): whatever bytes an entry holds, a
// lookup is a hit or a miss, never a crash, an exception or an endless read
// (a dependency that names a device or FIFO is a miss, not a file to hash).
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "fuzz_util.h"
#include "regscope/cache/cache.h"

namespace {

constexpr const char kDependency[] = "#define N 3\n";  // @DIR@/dep.h, which seeds name as a dependency

// One private cache directory for the whole run, removed at exit, holding
// dep.h: "@DIR@" in an input stands for the directory, so a seed's entry can
// name a dependency that exists and matches, and the fuzzer gets past the
// dependency checks to the absent paths and the records.
const std::string &cacheDirectory() {
  static const std::string dir = [] {
    const char *tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/regscope-fuzz-cache-XXXXXX";
    if (!mkdtemp(pattern.data())) __builtin_trap();
    std::ofstream(pattern + "/dep.h", std::ios::binary) << kDependency;
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
  std::string entry(reinterpret_cast<const char *>(data), size);
  for (std::size_t at = entry.find("@DIR@"); at != std::string::npos; at = entry.find("@DIR@", at + dir.size()))
    entry.replace(at, 5, dir);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << entry;
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
