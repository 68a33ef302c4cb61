#include "regscope/pipeline/launch_cache.h"

#include <nlohmann/json.hpp>

#include "regscope/cache/cache.h"

namespace regscope {

LaunchesRead readLaunchSitesCached(const std::string &cache_dir, const std::string &path, const std::string &display,
                                   std::string_view source, const std::vector<std::string> &flags, bool cuda) {
  // In a folder of their own: the compile entries beside them stay one per compile.
  const ResultCache cache(cache_dir.empty() ? std::string() : cache_dir + "/launches");
  if (cache.directory().empty()) return readLaunchSites(path, display, source, flags, cuda);
  const std::string key =
      cache.keyForArtifacts(nlohmann::json({"launches", path, display, flags, cuda, std::string(source)})
                                .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  if (std::optional<CachedResult> cached = cache.lookup(key)) try {
      return launchesFromJson(cached->payload);
    } catch (const std::exception &) {
      // an entry of another shape: read the file again, and replace it
    }
  std::vector<std::string> files_read;
  LaunchesRead read = readLaunchSites(path, display, source, flags, cuda, &files_read);
  if (!files_read.empty()) cache.store(key, {{}, "launches", {}, launchesToJson(read)}, files_read);
  return read;
}

}  // namespace regscope
