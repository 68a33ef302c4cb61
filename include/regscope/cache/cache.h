// A result cache, so a gate over unchanged sources does not run the compiler.
//
// It works like ccache's direct mode. The key hashes what selects the
// compile: the compiler's identity (resolved path, size and modification
// time), regscope's own build, the archs, the flags and the source path. The entry lists every file
// the compile read (the source and each header, from the compiler's dependency
// file) with its size, mtime and SHA-256. A hit needs every one unchanged, so
// the entry stands for the preprocessed source without running the
// preprocessor. Entries are JSON files under $XDG_CACHE_HOME/regscope
// (default ~/.cache/regscope), written atomically. A damaged entry is a miss.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "regscope/collect/kernel_record.h"
#include "regscope/driver/driver.h"

namespace regscope {

struct CachedResult {
  std::vector<KernelRecord> records;
  std::string producer;
  std::vector<std::string> dependencies;  // lookup: the files the entry was verified against
};

// One record as JSON, values by field key (fields.def), never by position:
// a field added or moved cannot mislabel a stored figure. The cache's entries
// and regscope wrap's sidecars both hold records in this form.
nlohmann::json recordToJson(const KernelRecord &record);
// Throws std::exception (nlohmann's, or std::runtime_error for an unknown
// field key or vendor) when `j` is not such a record.
KernelRecord recordFromJson(const nlohmann::json &j);

class ResultCache {
 public:
  // $XDG_CACHE_HOME/regscope, else $HOME/.cache/regscope, else empty.
  static std::string defaultDirectory();

  explicit ResultCache(std::string directory) : directory_(std::move(directory)) {}

  std::string keyFor(const CompileJob &job) const;
  std::optional<CachedResult> lookup(const std::string &key) const;
  // Best effort: a cache that cannot be written is skipped, not an error.
  void store(const std::string &key, const CachedResult &result, const std::vector<std::string> &dependencies) const;

 private:
  std::string directory_;
};

}  // namespace regscope
