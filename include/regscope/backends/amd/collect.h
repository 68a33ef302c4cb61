// The AMD backend's collectors: each turns one kind of hipcc/clang output
// (remarks, optimisation records, .s, code objects) into KernelFacts and
// knows nothing of occupancy.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "regscope/collect/collect.h"
#include "regscope/collect/kernel_record.h"
#include "regscope/driver/driver.h"

namespace regscope {

// -Rpass-analysis=kernel-resource-usage text, in any of its forms:
//   "f.hip:16:1: remark:     VGPRs: 102 [-Rpass-analysis=...]"   (clang front end)
//   "remark: f.hip:19:0:     VGPRs: 102 [-Rpass-analysis=...]"   (--save-temps backend)
// Other lines (warnings, errors, source snippets) are skipped. Text remarks do
// not name the arch; `arch` is stamped on every kernel (may be empty).
FactSet parseRemarkText(std::string_view text, const std::string &arch);

// The same, fed one line at a time (a build log read in chunks, whatever its
// size): parseRemarkText(text) is line() for each line of text, then finish().
class RemarkTextParser {
 public:
  explicit RemarkTextParser(std::string arch);
  void line(std::string_view line);  // without its '\n'; throws regscope::Error on a damaged remark
  FactSet finish();

 private:
  std::string arch_;
  FactSet set_{"remarks", {}, {}};
  std::map<std::string, std::size_t, std::less<>> open_;  // "FILE\nLINE" of each open block -> kernel
  std::map<std::string, int, std::less<>> orphans_;       // "FILE:LINE" -> remark lines no block opened
  std::string key_;
};

// The same remarks as an optimisation record (-fsave-optimization-record),
// parsed with LLVM's remarks library. Throws regscope::Error on malformed YAML.
FactSet parseRemarkYaml(std::string_view yaml, const std::string &arch);

// A device assembly file (.s): the .amdgpu_metadata block, the .amdhsa_kernel
// directives and the "; Kernel info" comments. Throws regscope::Error when the
// text is not AMDGPU assembly.
struct AsmFile {
  std::string arch;      // from .amdgcn_target, features stripped
  std::string producer;  // first .ident: the compiler that wrote it
  FactSet facts;
};
AsmFile parseAsm(std::string_view text);
// The lines of a text, given to `fn` in order, as often as asked: parseAsm
// reads them twice (the LLVM 20+ symbols first), so a .s read from a file in
// chunks is read twice rather than held.
using LineSource = std::function<void(const std::function<void(std::string_view)> &fn)>;
AsmFile parseAsm(const LineSource &lines);

// AMDGPU kernels in compiled artifacts: a device code object (ELF), an
// offload bundle (compressed or not), or a host object/executable with a
// .hip_fatbin section.
// One CodeObject per device ELF found (an empty result: none inside), but
// one per distinct metadata note: a code object repeated in a fat binary (the
// same kernels linked in from several objects) is read once. `consumed`, if
// given, is called with each front stretch of `bytes` the walk is done with
// (after each bundle of a .hip_fatbin), so that a caller that mapped a large
// file can drop its pages. Throws regscope::Error for unreadable or truncated
// input.
struct CodeObject {
  std::string arch;
  FactSet facts;
  std::string producer;  // the .comment section's compiler ("Debian clang version 15.0.6"); may be empty
};
std::vector<CodeObject> parseCodeObjects(std::string_view bytes,
                                         const std::function<void(std::string_view)> &consumed = {});
// Whether `head` starts an offload bundle, uncompressed (__CLANG_OFFLOAD_BUNDLE__)
// or compressed (CCOB with a version and method LLVM writes): what
// parseCodeObjects reads besides an ELF.
bool startsOffloadBundle(std::string_view head);

// Compiler diagnostics split in two: what the compile would have printed
// without -Rpass-analysis=kernel-resource-usage (returned, byte for byte), and
// the kernel-resource-usage remark lines it added (`remarks`, colour codes
// removed, for parseRemarkText). A remark's source snippet (the line and its
// caret, which clang prints under the first remark at a place) goes with it.
std::string splitResourceRemarks(std::string_view diagnostics, std::string &remarks);

// hipcc/clang: each arch's .s first (its figures win where a remark
// disagrees), then the optimisation records, or the text remarks when a
// single arch was compiled without records. Records are resolved to the
// kernel's declaration line. `compiled_source` is the absolute path that was
// compiled; relative remark paths are resolved against its directories.
CollectedRun collectAmdRun(const CompileOutput &output, const std::string &compiled_source, const SourceReader &read);

// A build's own hipcc/clang compile (regscope wrap): the object it wrote
// (`object`: a host object with a .hip_fatbin section, an offload bundle or a
// device ELF) and the kernel-resource-usage remarks it printed. Each arch's
// code object gives that arch's figures; the remarks give the source line and
// what only they say (the architectural VGPRs beside AGPRs, the compiler's
// occupancy). With several archs the remarks do not say whose they are: a
// block goes to the arch whose code object agrees with every figure both
// carry. `archs` orders the records as the command named its targets.
CollectedRun collectAmdObject(std::string_view remarks, std::string_view object, const std::vector<std::string> &archs,
                              const std::string &compiled_source, const SourceReader &read);

}  // namespace regscope
