// Directories and Triton caches for parse, gate and baseline: the walk's one
// summary line, and the known artifacts this build could not read.
#include "regscope/pipeline/parse_tree.h"
#include "regscope/support/plural.h"

namespace regscope {

ParsedInputs readArtifactInputs(const std::vector<std::string> &inputs, const ParseOptions &options,
                                bool unread_is_error, const Messages &messages) {
  ParsedInputs parsed = parseInputs(inputs, options);
  const WalkSummary &w = parsed.walk;
  if (w.walked) {
    // What was read (a count of 0 left out); what failed is counted with the errors, so the two add up.
    std::string read;
    if (w.triton_entries) read = plural(w.triton_entries, "Triton cache entry", "Triton cache entries");
    if (w.files_read || read.empty())
      read += (read.empty() ? "" : " and ") + plural(w.files_read, "artifact", "artifacts");
    std::string line = "read " + read + " in " + plural(w.directories, "directory", "directories");
    std::string skipped;
    auto add = [&](std::size_t n, const char *one, const char *many) {
      if (n) skipped += (skipped.empty() ? "" : ", ") + plural(n, one, many);
    };
    add(w.triton_ir, "Triton IR or group file", "Triton IR and group files");
    add(w.no_device_code, "host file without device code", "host files without device code");
    add(w.linked_files, "link to a file beside it (read once, as the file)",
        "links to a file beside them (read once, as the file)");
    add(w.unknown, "other file", "other files");
    if (!skipped.empty()) line += "; skipped " + skipped;
    messages.note(line);
  }
  // Each on its own line (the first five), then how many more.
  auto say = [&](const std::string &text) { unread_is_error ? messages.error(text) : messages.warning(text); };
  for (std::size_t i = 0; i < w.not_read.size() && i < 5; ++i) say(w.not_read[i] + ": not read, so not judged");
  if (w.not_read.size() > 5) say("and " + std::to_string(w.not_read.size() - 5) + " more known artifacts not read");
  if (w.triton_cubins_not_read)
    messages.warning(plural(w.triton_cubins_not_read, "Triton NVIDIA kernel", "Triton NVIDIA kernels") +
                     ": launch and options from the metadata, registers unknown (no .cubin beside the .ptx, which has "
                     "no register figures)");
  // Said once for the run, however many entries share the cause.
  if (w.triton_ir_cleaned) {
    std::string line = "IR of " + plural(w.triton_ir_cleaned, "Triton entry", "Triton entries") +
                       " cleaned away: figures from json + binary";
    if (w.triton_without_source)
      line += "; " + std::to_string(w.triton_without_source) +
              " without .source/.ttir have no Python file or line and no specialisation in their key, so it "
              "matches no baseline recorded with their IR";
    messages.warning(line);
  }
  if (!w.triton_failed_compiles.empty()) {
    std::string names;
    for (std::size_t i = 0; i < w.triton_failed_compiles.size() && i < 3; ++i)
      names += (i ? ", " : "") + w.triton_failed_compiles[i];
    if (w.triton_failed_compiles.size() > 3)
      names += " and " + std::to_string(w.triton_failed_compiles.size() - 3) + " more";
    messages.warning(plural(w.triton_failed_compiles.size(), "Triton compile", "Triton compiles") +
                     " failed (IR, no metadata or binary: nothing to read): " + names);
  }
  return parsed;
}

}  // namespace regscope
