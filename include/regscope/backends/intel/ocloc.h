// The driver for Intel GPUs: Intel's offline compiler ocloc, run in a private
// temporary directory, its outputs handed back as text and bytes. It never
// parses them (collect/intel.h does) and never writes anywhere else.
#pragma once

#include <string>
#include <vector>

namespace regscope {

// Where ocloc is: --compiler, then `ocloc` on PATH. Throws regscope::Error
// naming the package that ships it (Debian, Ubuntu: intel-opencl-icd).
std::string findOcloc(const std::string &explicit_path);

// Whether ocloc compiles `path`: OpenCL C (.cl) or SPIR-V (.spv).
bool isOclocInput(const std::string &path);

struct OclocJob {
  std::string compiler;              // resolved path of ocloc
  std::string source;                // absolute path of a .cl file (OpenCL C) or a .spv file (SPIR-V)
  std::string device;                // ocloc's -device: "pvc", "dg2-g10", "tgllp", ...
  std::vector<std::string> options;  // build options (ocloc's -options), one word each
  bool shader_dump = false;          // also run IGC's shader dump and return its .asm files
};

// One file of IGC's shader dump, e.g. "OCL_asm<hash>_1_simd32_entry_0002.asm".
struct ShaderDumpFile {
  std::string name;
  std::string text;
};

struct OclocOutput {
  std::vector<std::string> argv;  // the command that ran
  int exit_code = 0;
  std::string log;                          // ocloc prints warnings and errors on stdout; both streams, in order
  std::string zebin;                        // the device binary (an ELF for Intel GT); empty when it wrote none
  std::vector<ShaderDumpFile> shader_dump;  // the .asm files, sorted by name (job.shader_dump)
  std::string version;                      // "22.43.24595" (ocloc query OCL_DRIVER_VERSION); empty if it says none
  // The source and every file its #include lines name that exists, searched
  // as the front end does (the including file's directory, then -I): a
  // superset of what the compile read, for the result cache. ocloc writes no
  // dependency file ("Unrecognized build options: -MD").
  std::vector<std::string> dependencies;
};

// Runs `ocloc compile -file SRC -device DEV --format zebin [-spirv_input]
// [-options "..."]` in a private temporary directory and returns what it
// wrote. A .cl file is compiled with -I <its directory>: ocloc hands the
// source to its front end as a buffer, so quoted includes beside the file
// are not found otherwise. A failed compile comes back with its exit code
// and log. Throws regscope::Error for input it cannot compile at all: a
// missing file, or a .spv file that is not SPIR-V.
OclocOutput compileOcloc(const OclocJob &job);

// The device names ocloc's own help lists (`ocloc compile --help`); empty
// when it lists none.
std::vector<std::string> oclocDevices(const std::string &compiler);

}  // namespace regscope
