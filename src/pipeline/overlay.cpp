// Compiling an edited text in place of its file: a Clang VFS overlay maps the
// file's own path to the text, so the compiler sees the original's name,
// directory and includes, and reports lines of the text.
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/SHA256.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "jobs.h"
#include "regscope/support/error.h"

namespace regscope {

namespace fs = std::filesystem;

std::vector<std::string> overlayFlags(const std::string &dir, const std::string &original_path,
                                      const std::string &edited_text) {
  const fs::path original = fs::absolute(original_path).lexically_normal();
  const fs::path copy = fs::path(dir) / ("edited-" + original.filename().string());
  const fs::path overlay = fs::path(dir) / "overlay.yaml";
  {
    std::ofstream out(copy, std::ios::binary);
    out << edited_text;
    if (!out) throw Error("cannot write " + copy.string());
  }
  // 'use-external-names': false keeps the original's name in every
  // diagnostic, remark, line marker and dependency; true would name the copy.
  // JSON is YAML and quotes every path safely.
  const nlohmann::json yaml = {
      {"version", 0},
      {"use-external-names", false},
      {"roots", {{{"type", "file"}, {"name", original.string()}, {"external-contents", copy.string()}}}}};
  std::ofstream out(overlay, std::ios::binary);
  out << yaml.dump() << "\n";  // one line: LLVM 15's YAML reader misreads an indented JSON scalar before '}'
  if (!out) throw Error("cannot write " + overlay.string());
  return {"-ivfsoverlay", overlay.string()};
}

std::string textDigest(const std::string &text) {
  llvm::SHA256 hash;
  hash.update(text);
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

}  // namespace regscope
