// The options every compiling command shares (analyze, gate, baseline):
// which files, which archs and compiler, which flags, and .regscope.json.
// What they mean is the library's (pipeline/sources.h); here they are declared.
#include <charconv>
#include <filesystem>
#include <iostream>
#include <thread>

#include "commands.h"
#include "regscope/report/errors.h"
#include "regscope/support/error.h"
#include "regscope/support/escape.h"
#include "regscope/target/amdgpu.h"

namespace regscope {

// A whole number in [low, high], with a message in regscope's words (CLI11's
// PositiveNumber prints its range as a 300-digit number; Range says "Value").
CLI::Validator wholeNumber(int low, int high) {
  const std::string range = high == kNoUpperBound ? "of at least " + std::to_string(low)
                                                  : "from " + std::to_string(low) + " to " + std::to_string(high);
  return CLI::Validator(
      [low, high, range](std::string &value) -> std::string {
        long long n = 0;
        auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
        if (ec == std::errc() && end == value.data() + value.size() && n >= low && n <= high) return "";
        return "must be a whole number " + range + ", not '" + value + "'";
      },
      high == kNoUpperBound ? ">=" + std::to_string(low) : std::to_string(low) + ".." + std::to_string(high));
}

CLI::Option *addCudaArchOption(CLI::App &app, AnalyzeOptions &options, const std::string &help) {
  return app.add_option("--cuda-arch", options.cuda_archs, help);
}

void addSourceOptions(CLI::App &app, SourceOptions &options, const std::vector<std::string> &compiler_flags) {
  options.analyze.archs = {kDefaultAmdArch};
  options.command_line_flags = compiler_flags;
  app.add_option("files", options.files,
                 "HIP (or, with --cuda-arch, CUDA) sources; with -p: restrict the run to these");
  app.add_option("-p,--project", options.database,
                 "compile_commands.json, or a build directory searched upwards for one (as clang-tidy -p)");
  options.analyze.parallel = std::max(1u, std::thread::hardware_concurrency());
  app.add_option("-j,--jobs", options.analyze.parallel, "Compiler runs at once (default: cores)")
      ->check(wholeNumber(1));
  app.add_option("--progress", options.progress,
                 "Progress line on stderr: auto (a terminal, not under CI or pre-commit), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  app.add_flag("--no-cache", options.no_cache, "Always run the compiler; neither read nor write the result cache");
  // One value per --offload-arch (comma-separated), so a file after it stays a file.
  options.archs_option =
      app.add_option("--offload-arch", options.analyze.archs, "Target(s), comma-separated or repeated")
          ->allow_extra_args(false)
          ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
          ->delimiter(',')
          ->capture_default_str();
  app.add_option("--compiler", options.analyze.compiler,
                 "Compiler to use (default: $HIPCC, then hipcc; with --cuda-arch: nvcc on PATH, $CUDA_PATH/bin, "
                 "/usr/local/cuda/bin)");
  addCudaArchOption(app, options.analyze, "Compile with nvcc for these NVIDIA targets (sm_75 ... sm_120) instead")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->delimiter(',');
  app.add_option("--timeout", options.analyze.timeout_seconds,
                 "End a compiler run that takes longer than this many seconds (default: no limit)")
      ->check(wholeNumber(1));
  app.add_flag("-v,--verbose", options.analyze.verbose,
               "Say which config is used, and each file's compile time or cache hit, on stderr");
  addCollectOptions(app, options);  // --config, --block-size, --dynamic-lds
  app.add_option("--dynamic-smem", options.analyze.launch.dynamic_shared,
                 "NVIDIA: dynamic shared memory per block given at launch, in bytes")
      ->check(wholeNumber(0));
  app.add_option("--carveout", options.analyze.launch.carveout_percent,
                 "NVIDIA: preferred shared-memory carveout, percent (default: the largest)")
      ->check(wholeNumber(0, 100));
  app.add_option("--intel-device", options.analyze.intel_device,
                 "Intel: the device ocloc compiles .cl and .spv files for (pvc, dg2, tgllp, an ocloc or product name)")
      ->capture_default_str();
  app.add_option("--grf", options.grf,
                 "Intel: GRF mode: small (128 per thread), large (256), both (side by side, with Intel's rule), "
                 "auto (IGC picks)")
      ->check(CLI::IsMember({"small", "large", "both", "auto"}))
      ->capture_default_str();
  app.add_option("--dynamic-slm", options.analyze.launch.dynamic_slm,
                 "Intel: bytes of __local kernel arguments per work-group, given at launch")
      ->check(wholeNumber(0));
  app.footer("Flags after -- go to the compiler, paths in them meaning what they mean here, e.g. -- -DN=64 -I include");
}

void addCollectOptions(CLI::App &app, SourceOptions &options) {
  app.add_option("--config", options.config_path,
                 "Config file (default: .regscope.json here or in a parent, up to the repository's top level)");
  app.add_flag("--allow-config-plugins", options.allow_config_plugins,
               "Obey config compiler_flags that make the compiler run chosen code (-fplugin=, -Xclang -load, -B, "
               "--hip-device-lib-path= to a place not yours, ...); refused by default");
  app.add_option("--block-size", options.block_size,
                 "Assume this workgroup/block size for every kernel (default: .regscope.json, a constant at the "
                 "kernel's launches, its launch bounds; AMD 1024, NVIDIA 256)")
      ->check(wholeNumber(1, 1024));
  app.add_option("--dynamic-lds", options.analyze.launch.dynamic_lds,
                 "AMD: extern __shared__ bytes per workgroup given at launch (the compiler cannot see them)")
      ->check(wholeNumber(0));
}

void addCollectFlag(CLI::App &app, SourceOptions &options) {
  app.add_option("--collect", options.collect_dir,
                 "Read the sidecars regscope wrap wrote in this build directory instead of compiling")
      ->excludes(app.get_option("files"))
      ->excludes(app.get_option("-p"));
}

Config prepareSources(SourceOptions &options) {
  options.archs_given = options.archs_option && options.archs_option->count() > 0;
  return prepareSources(options, workingDirectory(), stderrMessages());
}

int reportErrors(const Report &report) {
  for (const std::string &message : errorMessages(report)) printError(message);
  return report.errors.empty() ? kExitOk : kExitError;
}

std::string workingDirectory() { return std::filesystem::current_path().string(); }

const Messages &stderrMessages() {
  static const Messages messages{
      printWarning, printError,
      [](const std::string &text) { std::cerr << "regscope: " << escape::terminal(text) << '\n'; },
      [](const std::string &text) { std::cerr << "regscope: " << text << '\n'; }};
  return messages;
}

}  // namespace regscope
