// A file's launch sizes (source/launch_sites.h's readLaunchSites) through the
// result cache: parsing the host side costs what `clang -fsyntax-only` does
// (0.7 s of CPU with HIP's headers), so the reading is kept with every header
// the parse read, as a compile is, and a hit does not parse again.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "regscope/source/launch_sites.h"

namespace regscope {

// `cache_dir` empty: no cache (--no-cache), the file is parsed. The key holds
// the text itself (an edited copy is not the file on disk), the path, and the
// flags that shape the parse; a header changed since is a miss. Entries go to
// CACHE_DIR/launches, apart from the compile entries.
LaunchesRead readLaunchSitesCached(const std::string &cache_dir, const std::string &path, const std::string &display,
                                   std::string_view source, const std::vector<std::string> &flags, bool cuda);

}  // namespace regscope
