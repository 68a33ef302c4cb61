// .regscope.json: the project's settings for every command that compiles
// (analyze, gate, baseline): archs and compiler flags, per-kernel launch
// sizes, and the gate's thresholds. Plain data; the gate applies the
// thresholds, the pipeline the launch sizes.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace regscope {

// Thresholds; unset ones are not checked.
struct Thresholds {
  std::optional<int> min_occupancy;  // waves/SIMD (AMD), warps/SM (NVIDIA)
  std::optional<int> max_spills;     // VGPR + SGPR spills (AMD), spill-store bytes (NVIDIA)
  std::optional<int> max_scratch;    // bytes per lane (AMD), stack bytes (NVIDIA)
  // min_occupancy as a percent (1..100) of the device's maximum: of the
  // resident waves/SIMD (AMD), warps/SM (NVIDIA), threads/Xe-core (Intel), so
  // that one threshold judges every vendor. Set instead of min_occupancy.
  std::optional<int> min_occupancy_percent;
  std::optional<int> max_loop_spills;  // spill stores and reloads inside loops (AMD, from the .s)
};

// Settings for the kernels one of whose names (the mangled symbol, the
// demangled signature, the bare name, and support/symbols.h's kernelNames)
// matches the glob `match`. Later entries win.
struct KernelSettings {
  std::string match;
  Thresholds thresholds;
  std::optional<int> block_size;   // the launch's workgroup (block) size
  std::optional<int> dynamic_lds;  // extern __shared__ bytes given at launch

  bool matches(const std::string &mangled, const std::string &demangled, const std::string &base_name) const;
};

// A kernel the gate does not judge: matched as KernelSettings::match is, and
// listed in the gate's output as ignored with `reason` (required: the project
// says why, as llama.cpp's HIP check keeps its list of accepted spills).
struct IgnoreEntry {
  std::string match;
  std::string reason;
};

// The percent of a --min-occupancy or min_occupancy written "N%" (1..100);
// nullopt when `text` does not end in '%'. Any other "...%" ("150%", "0%",
// "-1%", "abc%", "%") is an Error saying what is accepted.
std::optional<int> occupancyPercent(const std::string &text);

struct Config {
  Thresholds defaults;
  std::vector<KernelSettings> kernels;
  std::vector<IgnoreEntry> ignore;
  std::vector<std::string> archs;           // empty: the command line's / default
  std::vector<std::string> compiler_flags;  // paths already absolute, against the file's directory
  std::string path;                         // where it was read from; empty if none
};

// Reads a config file. Throws regscope::Error naming the file and the problem
// (unknown keys included). Compiler flags that make the compiler run code of
// the file's author's choosing (source/flags.h's codeLoadingFlags: plugins,
// tool and library places not the user's) are an error unless
// `allow_code_loading` (the command line's --allow-config-plugins).
Config loadConfig(const std::string &path, bool allow_code_loading = false);
// The same from a config's text; `path` names it in errors.
Config configFromText(const std::string &text, const std::string &path, bool allow_code_loading = false);

// The config that applies in `dir`: .regscope.json there or in a parent, up
// to the repository's top level (the first directory with .git) and never
// above $HOME. A file that does not belong to the user running regscope, or
// that others may write, is skipped with a warning: it could make regscope run
// flags someone else chose. As git's safe.directory judges a repository: the
// owner must be the effective user (for root: root, or the user sudo was run
// by, $SUDO_UID); a symbolic link is judged itself (its owner) and by the file
// it leads to (owner and mode).
struct ConfigSearch {
  std::optional<std::string> path;
  std::vector<std::string> warnings;
};
ConfigSearch findConfig(const std::string &dir);

}  // namespace regscope
