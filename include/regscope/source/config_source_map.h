// A config file's "source_map" (explain's --source-map from .regscope.json), kept
// apart from config.h so that adding it did not rebuild every includer of Config.
#pragma once

#include <string>
#include <vector>

namespace regscope {

// The "source_map" entries ("FROM=TO") of the config at `path`, a relative TO
// made absolute against the file's directory. Throws regscope::Error as
// loadConfig does (the whole file is checked).
std::vector<std::string> configSourceMap(const std::string &path, bool allow_code_loading = false);

}  // namespace regscope
