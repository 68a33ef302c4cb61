// LLVM 15's YAML parser over untrusted text (optimisation records, the .s
// metadata block, .ze_info): what each reader checks before the parser sees
// the bytes, and a stream whose diagnostics are kept for a one-line error
// instead of being printed on stderr.
#pragma once

#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/YAMLParser.h>

#include <string>
#include <string_view>

#include "regscope/collect/scan.h"
#include "regscope/support/error.h"

namespace regscope {

// Refuses a NUL byte (the scanner takes it for the end and hands on a null
// key) and a long run of empty flow entries (the parser recurses once per
// entry: 17,812 commas overflowed the stack, found by the remark_yaml fuzz
// target). `what` names the input in the error.
inline void checkYamlBytes(std::string_view yaml, const std::string &what) {
  if (const std::size_t nul = yaml.find('\0'); nul != std::string_view::npos)
    throw Error(what + ": a NUL byte at offset " + std::to_string(nul) + " (not YAML)");
  if (const auto at = scan::longRunOfEmptyFlowEntries(yaml))
    throw Error(what + ": more than " + std::to_string(scan::kMaxEmptyFlowEntries) +
                " empty flow entries in a row at offset " + std::to_string(*at));
}

// A yaml::Stream over `yaml` whose diagnostics are kept, not printed.
class QuietYamlStream {
 public:
  explicit QuietYamlStream(std::string_view yaml)
      : stream_(llvm::StringRef(yaml.data(), yaml.size()), sources_, /*ShowColors=*/false) {
    sources_.setDiagHandler(
        [](const llvm::SMDiagnostic &d, void *self) {
          std::string &first = static_cast<QuietYamlStream *>(self)->first_;
          if (first.empty()) first = "line " + std::to_string(d.getLineNo()) + ": " + d.getMessage().str();
        },
        this);
  }
  QuietYamlStream(const QuietYamlStream &) = delete;
  QuietYamlStream &operator=(const QuietYamlStream &) = delete;

  llvm::yaml::Stream &stream() { return stream_; }
  // Throws `what: line N: message` when the parser reported anything.
  void throwIfFailed(const std::string &what) {
    if (stream_.failed() || !first_.empty()) throw Error(what + ": " + (first_.empty() ? "invalid YAML" : first_));
  }

 private:
  llvm::SourceMgr sources_;  // before stream_: the stream reports through it
  std::string first_;
  llvm::yaml::Stream stream_;
};

}  // namespace regscope
