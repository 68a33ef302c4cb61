// `parse`, `gate` and `baseline` over directories: every artifact regscope
// reads, found recursively, and Triton's cache layout (one directory per
// compiled kernel: `<kernel>.json` beside its code). Unknown files are skipped
// and counted, never guessed.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "regscope/model/kernel_model.h"
#include "regscope/report/report.h"
#include "regscope/support/messages.h"

namespace regscope {

struct ParseOptions {
  std::string log_arch;    // the arch of build logs' remarks (logs do not say)
  LaunchOverrides launch;  // for kernels whose launch nothing else says
  unsigned parallel = 1;   // artifacts read at once
  bool progress = false;   // a progress line on stderr (the CLI sets it on a terminal)
  // The result cache (include/regscope/cache/cache.h) for Triton entries'
  // code: a hit skips reading the .amdgcn and .hsaco while their size and
  // mtime (else SHA-256) are unchanged. Empty: none.
  std::string cache_dir;
  // nvdisasm, to read loop_spills of NVIDIA kernels with local memory
  // (readNvidiaLoopSpills: a gate judging or comparing them, and baseline,
  // set it where nvdisasm is installed; one nvdisasm run per cubin). Empty:
  // those stay unknown.
  std::string nvdisasm;
  int timeout_seconds = 0;  // per nvdisasm run; 0: none
};

// What a walk found beside what it read, for the one summary line.
struct WalkSummary {
  std::size_t directories = 0;     // walked
  std::size_t files_read = 0;      // artifacts read on their own
  std::size_t triton_entries = 0;  // Triton cache entries read
  std::size_t triton_ir = 0;       // their IR (.source, .ttir, .ttgir, .llir) and group files: not read for figures
  std::size_t no_device_code = 0;  // host ELF files without device code
  std::size_t unknown = 0;         // anything else: not an artifact regscope reads
  // Links to a file of their own directory (a library's libx.so -> libx.so.12):
  // the target is read under its own name, so its kernels are not counted twice.
  std::size_t linked_files = 0;
  // Known artifacts this build cannot read (Intel zebins): path and why.
  std::vector<std::string> not_read;
  // Triton NVIDIA entries with a .ptx and no .cubin: their registers are unknown.
  std::size_t triton_cubins_not_read = 0;
  // Triton entries whose IR (a file their group lists) was cleaned away: read
  // from metadata + binary; of them, those without .source/.ttir, whose key
  // then lacks the Python file and specialisation.
  std::size_t triton_ir_cleaned = 0, triton_without_source = 0;
  // `<dir>/<kernel>` of Triton IR with no metadata and no binary: failed compiles.
  std::vector<std::string> triton_failed_compiles;
  bool walked = false;  // a directory was named
};

struct ParsedInputs {
  Report report;
  WalkSummary walk;
};

// parseArtifacts over files and directories. A named file is read as
// parseArtifacts reads it (an error ends the run), except a Triton code file
// (`.amdgcn`, `.hsaco`, `.cubin`) with its `<kernel>.json` beside it, which is
// read as its cache entry. In a directory, an artifact that cannot be read is
// that file's error in `report.errors` (exit 2), and the others are still read.
ParsedInputs parseInputs(const std::vector<std::string> &inputs, const ParseOptions &options);

// parseInputs, then what the user reads of the walk: its one summary line
// (messages.note) and the known artifacts it could not read, each an error
// when `unread_is_error` (gate, baseline), else a warning (artifact_inputs.cpp).
ParsedInputs readArtifactInputs(const std::vector<std::string> &inputs, const ParseOptions &options,
                                bool unread_is_error, const Messages &messages);

// Whether `path` is something parseInputs reads that a compile cannot take: a
// directory, a file named like a binary or Triton artifact (.hsaco, .co,
// .amdgcn, .cubin, .fatbin), or a .s, .o, .out, .so or extensionless file
// whose bytes are AMDGPU assembly, a code object, or an object or executable
// with device code. gate, baseline and explain read such inputs as artifacts.
bool isArtifactInput(const std::string &path);

}  // namespace regscope
