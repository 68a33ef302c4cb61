// Issue 16's bad-input table: every subcommand given what a user gets wrong.
// Each case runs the real binary in a scratch working directory holding the
// same set of files (a good source, a broken one, broken and valid JSON
// inputs, a baseline, garbage) and checks:
//   - the exit code (2 for every error),
//   - the first stderr line: "regscope: error: " and what the case names,
//   - stderr is that one line (a compile error adds the compiler's lines),
//   - nothing new in the working directory or $TMPDIR,
//   - every file that was there is byte-identical afterwards (a baseline above all).
// The few cases that need the compiler to fail skip without hipcc.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "regscope/support/process.h"
#include "test_util.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

struct BadInput {
  const char *id;
  std::vector<std::string> args;
  const char *first_line;       // what the first stderr line must contain
  bool needs_compiler = false;  // the compiler must run for the error to show
  bool one_line = true;         // stderr is exactly one line
};

// Valid baseline: what `regscope baseline` wrote for a one-kernel file.
const char *const kBaseline = R"({
  "regscope_baseline": "1.1",
  "kernels": []
}
)";

// `text` with its first `from` replaced by `to` (issue 21's cases: a real
// compiler output with one figure changed).
std::string oneChanged(std::string text, const std::string &from, const std::string &to) {
  const std::size_t at = text.find(from);
  if (at == std::string::npos) throw std::runtime_error("fixture lacks '" + from + "'");
  return text.replace(at, from.size(), to);
}

// The first remark block of hipcc 5.2.3's probe log (agpr_heavy on gfx908).
std::string firstRemarkBlock() {
  const std::string log = test::fixture("hipcc-5.2.3/probe.remarks.txt");
  return log.substr(0, log.find("remark: probe.hip:10:0: Function Name"));
}

// lbm-gfx90a.s with `.wavefront_size: 16`, which gfx90a cannot run.
std::string wave16Asm() {
  std::string s = test::fixture("hipcc-5.2.3/lbm-gfx90a.s");
  const std::size_t at = s.find(".wavefront_size: 64");
  if (at != std::string::npos) s.replace(at, 19, ".wavefront_size: 16");
  return s;
}

// The working directory every case starts from: name -> content.
std::map<std::string, std::string> startingFiles() {
  return {
      {"vgprs600.log", oneChanged(firstRemarkBlock(), "VGPRs: 70 ", "VGPRs: 600 ")},
      {"vgprs2p32.log", oneChanged(firstRemarkBlock(), "VGPRs: 70 ", "VGPRs: 4294967366 ")},
      {"lds70000.log", oneChanged(firstRemarkBlock(), "LDS Size [bytes/block]: 0 ", "LDS Size [bytes/block]: 70000 ")},
      {"cycle.s", oneChanged(test::fixture("llvm20/k.s"), ".set _Z6simplePf.num_vgpr, 42",
                             ".set _Z6simplePf.num_vgpr, _Z6simplePf.num_vgpr+1")},
      {"ok.hip", "#include <hip/hip_runtime.h>\n__global__ void k(int *p) { p[0] = 1; }\n"},
      {"broken.hip", "#include <hip/hip_runtime.h>\n__global__ void k(int *p) { p[0] = 1 }\n"},
      {"k.cu", "__global__ void k(int *p) { p[0] = 1; }\n"},
      {"k.h", "int helper(int x);\n"},
      {"garbage.bin", std::string("garbage\x01\x02\x7f", 10)},
      {"bad.json", "{\n"},
      {"v9.json", R"({"regscope_baseline": "9.0", "kernels": []})"},
      {"base.json", kBaseline},
      // Hand-written: two entries for one (source, kernel, arch) key, as a bad merge of two branches leaves.
      {"dup.json", R"J({"regscope_baseline": "1.1", "kernels": [
        {"file": "ok.hip", "name": "_Z1kPi", "demangled": "k(int*)", "arch": "gfx90a", "occupancy": 8,
         "occupancy_by_registers": 8, "registers": 4, "spills": 0, "scratch_bytes": 0},
        {"file": "ok.hip", "name": "_Z1kPi", "demangled": "k(int*)", "arch": "gfx90a", "occupancy": 8,
         "occupancy_by_registers": 8, "registers": 2, "spills": 0, "scratch_bytes": 0}]})J"},
      {"empty_db.json", "[]\n"},
      {"bad_cfg.json", R"({"version": 1, "bogus": 1})"},
      {"good_cfg.json", R"({"version": 1})"},
      {"log.txt", "make: nothing to be done\n"},
      // Hand-written: Triton metadata (keys as Triton 3.6 writes them) without num_warps, beside its code.
      {"tk.json", R"({"name": "tk", "target": {"backend": "hip", "arch": "gfx942", "warp_size": 64}, "shared": 0,
                      "triton_version": "3.6.0"})"},
      {"tk.amdgcn", "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n"},
      {"cut.s", "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx90a\"\n\t.amdgpu_metadata\n---\namdhsa.kernels:\n"},
      // Issue 21 item 11: configs whose flags make the compiler run someone's code.
      {"plugin_cfg.json", R"({"version": 1, "compiler_flags": ["-fplugin=/nonexistent/evil.so"]})"},
      {"load_cfg.json",
       R"({"version": 1, "compiler_flags": ["-O2", "-Xclang", "-load", "-Xclang", "/nonexistent/evil.so"]})"},
      {"prefix_cfg.json", R"({"version": 1, "compiler_flags": ["-B/nonexistent/bin"]})"},
      // Issue 21 item 12: real hipcc 5.2.3 output (fixtures/hipcc-5.2.3/lbm-gfx90a.s) whose metadata says wave16.
      {"w16.s", wave16Asm()},
  };
}

const std::string kLbmAsm = test::sourcePath("fixtures/hipcc-5.2.3/lbm-gfx90a.s");
const std::string kTwoArchLog = test::sourcePath("fixtures/hipcc-5.2.3/lbm.remarks.txt");

// clang-format off
const BadInput kCases[] = {
    // the command line itself
    {"NoCommand", {}, "regscope needs a subcommand: analyze, gate"},
    {"UnknownCommand", {"bogus"}, "unknown command 'bogus'"},
    {"MisspeltCommand", {"analyse", "ok.hip"}, "did you mean 'analyze'?"},
    {"UnknownTopLevelOption", {"--bogus-flag"}, "unknown option '--bogus-flag'"},
    // analyze
    {"AnalyzeNoFiles", {"analyze"}, "no input files"},
    {"AnalyzeEmptyFileName", {"analyze", ""}, "an input file name is empty"},
    {"AnalyzeMissingFile", {"analyze", "missing.hip"}, "missing.hip: no such file"},
    {"AnalyzeUnknownArch", {"analyze", "ok.hip", "--offload-arch", "gfx9zz"}, "unknown arch 'gfx9zz'; known: gfx906"},
    {"AnalyzeEmptyArch", {"analyze", "ok.hip", "--offload-arch", ""}, "unknown arch ''"},
    {"AnalyzeJobsZero", {"analyze", "ok.hip", "--jobs", "0"}, "--jobs: must be a whole number of at least 1, not '0'"},
    {"AnalyzeJobsWord", {"analyze", "ok.hip", "--jobs", "x"}, "--jobs: must be a whole number of at least 1, not 'x'"},
    {"AnalyzeUnknownFormat", {"analyze", "ok.hip", "--format", "xml"}, "--format: xml not in"},
    {"AnalyzeMissingCompiler", {"analyze", "ok.hip", "--compiler", "/nonexistent/hipcc"}, "compiler not found"},
    {"AnalyzeCompilerNotExecutable", {"analyze", "ok.hip", "--compiler", "garbage.bin"}, "is not an executable"},
    {"AnalyzeMissingDatabase", {"analyze", "-p", "missing_dir"}, "missing_dir: no such file or directory"},
    {"AnalyzeEmptyDatabase", {"analyze", "-p", "empty_db.json"}, "the compile database has no HIP entries"},
    {"AnalyzeBrokenDatabase", {"analyze", "-p", "bad.json"}, "bad.json: not a compile database (invalid JSON"},
    {"AnalyzeConfigUnknownKey", {"analyze", "ok.hip", "--config", "bad_cfg.json"}, "bad_cfg.json: unknown key 'bogus'"},
    {"AnalyzeConfigMissing", {"analyze", "ok.hip", "--config", "missing.json"}, "missing.json: no such config file"},
    {"AnalyzeOutputIsTheSource", {"analyze", "ok.hip", "-o", "ok.hip"}, "ok.hip is one of the inputs"},
    {"AnalyzeOutputIsTheConfig", {"analyze", "ok.hip", "--config", "good_cfg.json", "-o", "good_cfg.json"},
     "good_cfg.json is one of the inputs"},
    {"AnalyzeOutputIsTheDatabase", {"analyze", "-p", "empty_db.json", "-o", "empty_db.json"},
     "empty_db.json is one of the inputs"},
    {"AnalyzeOutputInAMissingDirectory", {"analyze", "ok.hip", "-o", "no/such/dir/r.json"},
     "cannot write no/such/dir/r.json: no directory no/such/dir"},
    {"AnalyzeOutputIsADirectory", {"analyze", "ok.hip", "-o", "."}, "cannot write .: is a directory"},
    {"AnalyzeBlockSizeZero", {"analyze", "ok.hip", "--block-size", "0"}, "--block-size: must be a whole number from 1 to 1024"},
    {"AnalyzeBlockSizeTooLarge", {"analyze", "ok.hip", "--block-size", "2048"}, "from 1 to 1024, not '2048'"},
    {"AnalyzeNegativeDynamicLds", {"analyze", "ok.hip", "--dynamic-lds", "-5"}, "--dynamic-lds: must be a whole number of at least 0"},
    {"AnalyzeUnknownCudaArch", {"analyze", "k.cu", "--cuda-arch", "sm_1"}, "unknown CUDA arch 'sm_1'"},
    {"AnalyzeCudaWithoutCudaArch", {"analyze", "k.cu"}, "k.cu is a CUDA source"},
    {"AnalyzeNegativeNameWidth", {"analyze", "ok.hip", "--name-width", "-1"}, "--name-width: must be a whole number from 0 to 100000"},
    {"AnalyzeTimeoutZero", {"analyze", "ok.hip", "--timeout", "0"}, "--timeout: must be a whole number of at least 1"},
    {"AnalyzeUnknownColor", {"analyze", "ok.hip", "--color", "purple"}, "--color: purple not in"},
    {"AnalyzeUnknownProgress", {"analyze", "ok.hip", "--progress", "maybe"}, "--progress: maybe not in"},
    {"AnalyzeUnknownIntelDevice", {"analyze", "ok.hip", "--intel-device", "nope"}, "unknown Intel device 'nope'"},
    {"AnalyzeUnknownGrfMode", {"analyze", "ok.hip", "--grf", "huge"}, "--grf: huge not in"},
    {"AnalyzeCarveoutOver100", {"analyze", "k.cu", "--cuda-arch", "sm_90", "--carveout", "101"}, "--carveout: must be a whole number from 0 to 100"},
    {"AnalyzeCompileError", {"analyze", "broken.hip"}, "failed on broken.hip", true, false},
    // wrap and collect (the compiler launcher; a corrupt or stale sidecar: Scenario.WrapLauncher)
    {"WrapNothing", {"wrap"}, "wrap needs the compile after --"},
    {"WrapNothingAfterDashes", {"wrap", "--"}, "wrap needs the compile after --"},
    {"CollectNoDirectory", {"collect"}, "BUILD_DIR is required"},
    {"CollectMissingDirectory", {"collect", "missing_dir"}, "missing_dir: no such directory"},
    {"CollectAFile", {"collect", "ok.hip"}, "ok.hip: not a directory"},
    {"CollectNoSidecars", {"collect", "."}, ".: no regscope sidecars (*.regscope.json): build with the launcher"},
    {"CollectUnknownFormat", {"collect", ".", "--format", "xml"}, "--format: xml not in"},
    {"CollectOutputIsADirectory", {"collect", ".", "-o", "."}, "cannot write .: is a directory"},
    {"GateCollectMissingDirectory", {"gate", "--collect", "missing_dir"}, "missing_dir: no such directory"},
    {"GateCollectAndFiles", {"gate", "--collect", ".", "ok.hip"}, "files and --collect cannot be given together"},
    {"BaselineCollectNoSidecars", {"baseline", "--collect", "."}, ".: no regscope sidecars"},
    // a config's compiler_flags that load code into the compiler (issue 21 item 11): refused before any compile
    {"AnalyzeConfigPlugin", {"analyze", "ok.hip", "--config", "plugin_cfg.json"},
     "plugin_cfg.json: compiler_flags: '-fplugin=/nonexistent/evil.so' loads a plugin into the compiler; a config file "
     "may not choose code for the compiler to run unless the command line says --allow-config-plugins"},
    {"GateConfigXclangLoad", {"gate", "ok.hip", "--config", "load_cfg.json", "--max-spills", "0"},
     "load_cfg.json: compiler_flags: '-Xclang -load -Xclang /nonexistent/evil.so' loads a plugin into the compiler"},
    {"BaselineConfigToolPlace", {"baseline", "ok.hip", "--config", "prefix_cfg.json", "-o", "new.json"},
     "prefix_cfg.json: compiler_flags: '-B/nonexistent/bin' lets the compiler run programs or link libraries from "
     "/nonexistent/bin, and it does not exist"},
    // an impossible figure names the file and the kernel (issue 21 item 12)
    {"ParseImpossibleWaveSize", {"parse", "w16.s"}, "w16.s: kernel kernel(double*, double*, "},
    {"AnalyzeNotASource", {"analyze", "garbage.bin"}, "garbage.bin", true, false},
    {"AnalyzeLinesZero", {"analyze", "ok.hip", "--lines=0"}, "--lines: must be a whole number of at least 1, not '0'"},
    // explain
    {"ExplainNoFiles", {"explain"}, "no input files"},
    {"ExplainMissingFile", {"explain", "missing.hip"}, "missing.hip: no such file"},
    {"ExplainCudaArch", {"explain", "ok.hip", "--cuda-arch", "sm_90"}, "explain --cuda-arch"},
    {"ExplainOutputIsTheSource", {"explain", "ok.hip", "-o", "ok.hip"}, "ok.hip is one of the inputs"},
    // advise
    {"AdviseNoFiles", {"advise"}, "advise takes one source file (0 given)"},
    {"AdviseMissingFile", {"advise", "missing.hip"}, "missing.hip: no such file"},
    {"AdviseAHeader", {"advise", "k.h"}, "k.h is a header: advise a source that includes it"},
    {"AdvisePatchOverAnExistingFile", {"advise", "ok.hip", "--patch", "bad.json"}, "bad.json exists; refusing to overwrite it"},
    {"AdvisePatchOverTheSource", {"advise", "ok.hip", "--patch", "ok.hip"}, "ok.hip is one of the inputs"},
    // gate
    {"GateNoFiles", {"gate", "--max-spills", "0"}, "no input files"},
    {"GateEmptyFileName", {"gate", ""}, "an input file name is empty"},
    {"GateBrokenBaseline", {"gate", "ok.hip", "--baseline", "bad.json"}, "bad.json: not a regscope baseline"},
    {"GateBrokenBaselineNotUpdated", {"gate", "ok.hip", "--baseline", "bad.json", "--update-baseline"}, "bad.json: not a regscope baseline"},
    {"GateBaselineOfAnotherVersion", {"gate", "ok.hip", "--baseline", "v9.json"}, "baseline version 9.0 is not supported"},
    {"GateBaselineWithADuplicateEntry", {"gate", "ok.hip", "--baseline", "dup.json"},
     "dup.json: two entries for kernel _Z1kPi (gfx90a) of ok.hip"},
    {"GateDuplicateEntryBaselineNotUpdated", {"gate", "ok.hip", "--baseline", "dup.json", "--update-baseline"},
     "dup.json: two entries for kernel _Z1kPi (gfx90a) of ok.hip"},
    {"GateMissingBaseline", {"gate", "ok.hip", "--baseline", "missing.json"}, "missing.json: no such baseline"},
    {"GateOutputIsTheBaseline", {"gate", "ok.hip", "--baseline", "base.json", "-o", "base.json"}, "base.json is one of the inputs"},
    {"GateNegativeSpills", {"gate", "ok.hip", "--max-spills", "-1"}, "--max-spills: must be a whole number of at least 0"},
    {"GateOccupancyZero", {"gate", "ok.hip", "--min-occupancy", "0"}, "--min-occupancy: must be a whole number of at least 1"},
    {"GateScratchWord", {"gate", "ok.hip", "--max-scratch", "abc"}, "--max-scratch: must be a whole number of at least 0, not 'abc'"},
    {"GateUpdateWithoutBaseline", {"gate", "ok.hip", "--update-baseline"}, "--update-baseline requires --baseline"},
    {"GateOutputInAMissingDirectory", {"gate", "ok.hip", "--max-spills", "0", "-o", "nowhere/g.xml"}, "no directory nowhere"},
    {"GateConfigUnknownKey", {"gate", "ok.hip", "--config", "bad_cfg.json"}, "unknown key 'bogus'"},
    {"GateCompileError", {"gate", "broken.hip", "--max-spills", "0"}, "failed on broken.hip", true, false},
    {"GateAHeaderWithNoWayToItsSources", {"gate", "k.h", "--max-spills", "0"},
     "k.h is a header: the gate judges it through the sources that include it"},
    {"GateLogWithoutItsArch", {"gate", "--log", "ok.hip", "--max-spills", "0"}, "--log: name the log's arch"},
    {"GateLogAndSources", {"gate", "--log", "ok.hip", "ok.hip"}, "give the log or the sources"},
    // baseline
    {"BaselineNoFiles", {"baseline"}, "no input files"},
    {"BaselineOverItsSource", {"baseline", "ok.hip", "-o", "ok.hip"}, "ok.hip is one of the inputs"},
    {"BaselineOverABrokenBaseline", {"baseline", "ok.hip", "-o", "bad.json"}, "bad.json: not a regscope baseline"},
    {"BaselineOverAnotherVersion", {"baseline", "ok.hip", "-o", "v9.json"}, "baseline version 9.0 is not supported"},
    {"BaselineOverADuplicateEntry", {"baseline", "ok.hip", "-o", "dup.json"},
     "dup.json: two entries for kernel _Z1kPi (gfx90a) of ok.hip"},
    {"BaselineInAMissingDirectory", {"baseline", "ok.hip", "-o", "nowhere/b.json"}, "no directory nowhere"},
    {"BaselineOfAFileThatFails", {"baseline", "broken.hip", "-o", "new.json"}, "failed on broken.hip", true, false},
    {"BaselineKeepsItsBaselineOnFailure", {"baseline", "broken.hip", "-o", "base.json"}, "failed on broken.hip", true, false},
    // parse
    {"ParseNoFiles", {"parse"}, "no input files"},
    {"ParseEmptyFileName", {"parse", ""}, "an input file name is empty"},
    {"ParseMissingFile", {"parse", "missing.s"}, "missing.s: no such file"},
    {"ParseATritonEntryWithoutNumWarps", {"parse", "tk.amdgcn"}, "tk.json: Triton metadata without 'num_warps'"},
    {"ParseShardZeroOfThree", {"parse", kLbmAsm, "--shard", "0/3"}, "--shard '0/3': give K/N"},
    {"ParseShardPastTheCount", {"parse", kLbmAsm, "--shard", "4/3"}, "--shard '4/3': shard 4 of 3 does not exist"},
    {"MergeNoFiles", {"merge"}, "files is required"},
    {"McpMissingRoot", {"mcp", "--root", "nowhere"}, "--root nowhere: no such directory"},
    {"MergeMissingFile", {"merge", "missing.json"}, "missing.json: no such file"},
    {"MergeNotJson", {"merge", "garbage.bin"}, "garbage.bin: not JSON"},
    {"ParseGarbage", {"parse", "garbage.bin"}, "garbage.bin: no kernel-resource-usage remarks"},
    {"ParseLogWithoutRemarks", {"parse", "log.txt", "--arch", "gfx90a"}, "log.txt: no kernel-resource-usage remarks"},
    {"ParseAsmCutInItsMetadata", {"parse", "cut.s"}, "cut.s: malformed .amdgpu_metadata block"},
    {"ParseUnknownArch", {"parse", kLbmAsm, "--arch", "gfx9zz"}, "unknown arch 'gfx9zz'"},
    {"ParseTwoArchLog", {"parse", kTwoArchLog, "--arch", "gfx90a"}, "the log holds more than one arch"},
    {"ParseReportToAFullDevice", {"parse", kLbmAsm, "-o", "/dev/full"}, "cannot write /dev/full: No space left on device"},
    {"ParseReportToAFullDeviceAsJson", {"parse", kLbmAsm, "--format", "json", "-o", "/dev/full"},
     "cannot write /dev/full: No space left on device"},
    {"ParseOutputIsTheInput", {"parse", "garbage.bin", "-o", "garbage.bin"}, "garbage.bin is one of the inputs"},
    {"ParseVgprsOverTheFile", {"parse", "vgprs600.log", "--arch", "gfx908"}, "vgprs600.log: kernel agpr_heavy(float*) [gfx908]: 600 VGPRs, more than the 256 a kernel can address on gfx908"},
    {"ParseVgprsBeyond32Bits", {"parse", "vgprs2p32.log", "--arch", "gfx908"}, "vgprs 4294967366 is outside what any target allows"},
    {"ParseLdsOverTheWorkgroupMaximum", {"parse", "lds70000.log", "--arch", "gfx90a"}, "70000 bytes of LDS per workgroup, more than gfx90a's 65536"},
    {"ParseSetCycle", {"parse", "cycle.s"}, "is defined in terms of itself (a cycle of .set symbols): symbol '_Z6simplePf.num_vgpr'"},
    // occupancy
    {"OccupancyNoVgprs", {"occupancy"}, "--vgprs is required for gfx90a"},
    {"OccupancyTooManyVgprs", {"occupancy", "--vgprs", "600"}, "--vgprs 600 is outside 0..256 on gfx90a"},
    {"OccupancyNegativeVgprs", {"occupancy", "--vgprs", "-1"}, "--vgprs -1 is outside 0..256 on gfx90a"},
    {"OccupancyUnknownArch", {"occupancy", "--arch", "gfx9zz", "--vgprs", "10"}, "unknown arch 'gfx9zz'"},
    {"OccupancyTooManySgprs", {"occupancy", "--vgprs", "10", "--sgprs", "200"}, "--sgprs 200 is outside 0..108 on gfx90a"},
    {"OccupancyTooMuchLds", {"occupancy", "--vgprs", "10", "--lds", "999999"}, "--lds 999999 is outside 0..65536 on gfx90a"},
    {"OccupancyCudaWithoutRegisters", {"occupancy", "--arch", "sm_90"}, "--registers is required for sm_90"},
    // issue 21: an option that does not apply, a figure the target cannot have, a .set cycle
    {"OccupancyVgprsOnCuda", {"occupancy", "--arch", "sm_90", "--vgprs", "10"}, "--vgprs is an AMD option; sm_90 is an NVIDIA target"},
    {"OccupancyGrfOnAmd", {"occupancy", "--vgprs", "10", "--grf", "256"}, "--grf is an Intel option; gfx90a is an AMD target"},
    {"OccupancyRegistersOnIntel", {"occupancy", "--arch", "pvc", "--registers", "32"}, "--registers is an NVIDIA option; pvc is an Intel target"},
    {"OccupancyLdsOnCuda", {"occupancy", "--arch", "sm_90", "--registers", "32", "--lds", "1024"}, "--lds is an AMD option; sm_90 is an NVIDIA target"},
    {"OccupancyTooManyRegisters", {"occupancy", "--arch", "sm_90", "--registers", "300"}, "--registers 300 is outside 0..255 on sm_90"},
    {"OccupancyWaveSize16", {"occupancy", "--vgprs", "10", "--wave-size", "16"}, "--wave-size: 16 not in"},
    {"OccupancyUnknownCompiler", {"occupancy", "--vgprs", "10", "--as-compiler", "gcc"}, "--as-compiler: gcc not in"},
    {"OccupancyIntelGrfZero", {"occupancy", "--arch", "pvc", "--grf", "0"}, "--grf 0 is not a GRF mode of pvc (128 or 256)"},
    {"OccupancyIntelGrfNotAMode", {"occupancy", "--arch", "pvc", "--grf", "100"}, "--grf 100 is not a GRF mode of pvc (128 or 256)"},
    {"OccupancyIntelSimd17", {"occupancy", "--arch", "pvc", "--simd", "17"}, "--simd 17 is not a SIMD width of pvc (16, 32)"},
    {"OccupancyLdsSumOverflows", {"occupancy", "--vgprs", "32", "--lds", "2147483647", "--dynamic-lds", "2147483647"},
     "--lds + --dynamic-lds is 4294967294 bytes, more than the 65536 a workgroup may have on gfx90a"},
    // table
    {"TableUnknownArch", {"table", "--arch", "nope"}, "unknown arch 'nope'"},
    {"TableBlockSizeZero", {"table", "--arch", "sm_90", "--block-size", "0"}, "--block-size: must be a whole number from 1 to 1024"},
    // kernels
    {"KernelsNoSubcommand", {"kernels"}, "regscope kernels needs a subcommand: list, analyze, run"},
    {"KernelsUnknownSubcommand", {"kernels", "bogus"}, "regscope kernels: unknown subcommand 'bogus'"},
    {"KernelsUnknownOption", {"kernels", "--zap"}, "regscope kernels: unknown option '--zap'"},
    {"KernelsListExtraArgument", {"kernels", "list", "nope"}, "unexpected argument 'nope'"},
    {"KernelsAnalyzeUnknownCase", {"kernels", "analyze", "nope"}, "no reference kernel or family 'nope'; families: lbm"},
    {"KernelsRunUnknownCase", {"kernels", "run", "nope"}, "no reference kernel or family 'nope'"},
};
// clang-format on

class BadInputTable : public ::testing::TestWithParam<BadInput> {};

// Every file below `dir` with its bytes.
std::map<std::string, std::string> snapshot(const fs::path &dir) {
  std::map<std::string, std::string> files;
  for (const auto &entry : fs::recursive_directory_iterator(dir))
    files[fs::relative(entry.path(), dir).string()] = entry.is_regular_file() ? test::readText(entry.path()) : "<dir>";
  return files;
}

TEST_P(BadInputTable, OneLineExitTwoNothingTouched) {
  const BadInput &c = GetParam();
  if (c.needs_compiler && !test::haveHipcc())
    GTEST_SKIP() << "hipcc is not installed: this case needs a compile to fail";
  TempDir cwd, tmp, cache;
  for (const auto &[name, content] : startingFiles()) {
    std::ofstream out(fs::path(cwd.path()) / name, std::ios::binary);
    out << content;
  }
  const auto before = snapshot(cwd.path());
  const test::RunResult r = test::runRegscope(c.args, cwd.path(), tmp.path(), cache.path());

  EXPECT_EQ(r.exit_code, 2) << r.err;
  const std::string first = r.err.substr(0, r.err.find('\n'));
  EXPECT_EQ(first.rfind("regscope: error: ", 0), 0u) << r.err;
  EXPECT_NE(first.find(c.first_line), std::string::npos) << "first line: " << first;
  if (c.one_line) EXPECT_EQ(r.err, first + "\n") << "more than one line on stderr";
  EXPECT_EQ(snapshot(cwd.path()), before) << "the working directory changed";
  EXPECT_TRUE(test::dirIsEmpty(tmp.path())) << "files left in $TMPDIR";
}

INSTANTIATE_TEST_SUITE_P(EverySubcommand, BadInputTable, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<BadInput> &info) { return std::string(info.param.id); });

TEST(BadInputTable, HasAtLeastSixtyCasesOverEverySubcommand) {
  std::set<std::string> commands;
  for (const BadInput &c : kCases)
    if (!c.args.empty()) commands.insert(c.args.front());
  EXPECT_GE(std::size(kCases), 60u);
  for (const char *command : {"analyze", "explain", "advise", "gate", "baseline", "parse", "occupancy", "table",
                              "kernels", "wrap", "collect"})
    EXPECT_TRUE(commands.count(command)) << command;
}

}  // namespace
}  // namespace regscope
