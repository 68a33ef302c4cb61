// A result cache, so a gate over unchanged sources does not run the compiler.
//
// It works like ccache's direct mode. The key hashes what selects the
// compile: the compiler's identity (resolved path, size and modification
// time, and those of the compilers it runs: hipcc's clang++, nvcc's cicc and
// ptxas), the environment variables that change a compile (hipcc's
// HIPCC_COMPILE_FLAGS_APPEND, ROCM_PATH, ...; CPATH and the other include
// paths; nvcc's NVCC_PREPEND_FLAGS/NVCC_APPEND_FLAGS; IGC_*), regscope's own
// build, the archs, the flags and the source path. The entry lists every
// file the compile read (the source and each header, from the compiler's
// dependency file) with its size, mtime and SHA-256, and (a manifest of the
// include search) the same-named paths in the other include directories that
// did not exist. A hit needs every file unchanged and every such path still
// absent, so the entry stands for the preprocessed source without running
// the preprocessor, and a header created in an earlier -I directory, which
// would now shadow the one read, is a miss. Entries are JSON files under $XDG_CACHE_HOME/regscope
// (default ~/.cache/regscope), written atomically. A damaged entry is a miss.
#pragma once

#include <nlohmann/json.hpp>
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
  nlohmann::json payload;                 // what else a reader keeps with it (analyze: a file's launches)
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
  // The key of reading built artifacts (a Triton cache entry's code files),
  // no compile: regscope's own build, `what` (the reader and its inputs'
  // absolute paths). The entry's dependencies are the files read.
  std::string keyForArtifacts(const std::string &what) const;
  std::optional<CachedResult> lookup(const std::string &key) const;
  // Best effort: a cache that cannot be written is skipped, not an error.
  // `include_search` (includeSearch(job)) is where the compile looked for
  // headers: the entry records which same-named files were absent there.
  void store(const std::string &key, const CachedResult &result, const std::vector<std::string> &dependencies,
             const std::vector<std::string> &include_search = {}) const;

  // The include search of a compile: the source's directory (quoted
  // includes), the flags' -iquote/-I/-isystem/-idirafter directories, then
  // $CPATH, $CPLUS_INCLUDE_PATH and $C_INCLUDE_PATH.
  static std::vector<std::string> includeSearch(const CompileJob &job);

  const std::string &directory() const { return directory_; }

  // How many entries (keys) this process found edited after regscope wrote them
  // (their content does not give their digest): each was a miss, recompiled.
  // main says the count once, at the end of the run.
  static std::size_t editedEntriesSeen();

 private:
  std::string directory_;
};

}  // namespace regscope
