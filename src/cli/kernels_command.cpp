// regscope kernels list | analyze [NAME|FAMILY] | run [NAME|FAMILY]
#include <cstdlib>
#include <iostream>

#include "commands.h"
#include "regscope/cache/cache.h"
#include "regscope/pipeline/reference_runs.h"
#include "regscope/source/reference_kernels.h"
#include "regscope/support/error.h"
#include "regscope/target/amdgpu.h"
#include "regscope/target/intel.h"
#include "regscope/views/views.h"

namespace regscope {
namespace {

Command kernelsList(CLI::App &parent) {
  auto output = std::make_shared<OutputOptions>();
  CLI::App *app = parent.add_subcommand("list", "List the built-in reference kernels");
  addOutputOptions(*app, *output);
  return {app, [output] {
            emit(*output, *referenceCasesView(referenceCases(), kernelsDirectory()));
            return 0;
          }};
}

Command kernelsAnalyze(CLI::App &parent) {
  struct State {
    std::string selector;
    AnalyzeOptions options;
    std::string grf = "small";
    OutputOptions output;
  };
  auto state = std::make_shared<State>();
  state->options.archs = {kDefaultAmdArch};
  CLI::App *app = parent.add_subcommand("analyze", "Compile the reference kernels and report them");
  app->add_option("case", state->selector, "A case or family (default: all)");
  app->add_option("--offload-arch", state->options.archs, "AMD target(s)")->delimiter(',')->capture_default_str();
  addCudaArchOption(*app, state->options, "NVIDIA target(s) instead")->delimiter(',');
  app->add_option("--compiler", state->options.compiler, "Compiler to use");
  CLI::Option *intel = app->add_option("--intel-device", state->options.intel_device,
                                       "Intel device: compile the OpenCL C forms with ocloc instead");
  app->add_option("--grf", state->grf, "Intel: GRF mode: small, large, both, auto")
      ->check(CLI::IsMember({"small", "large", "both", "auto"}))
      ->capture_default_str();
  addOutputOptions(*app, state->output, /*ci_formats=*/true);
  return {app, [state, intel] {
            state->options.cache_dir = ResultCache::defaultDirectory();
            state->options.intel_grf = grfModesFor(state->grf);
            requireIntelDevice(state->options.intel_device);
            Report report = analyzeReferenceCases(selectCases(state->selector), state->selector, intel->count() > 0,
                                                  state->options);
            emit(state->output, *kernelTableView(report, "regscope kernels analyze", analysisFindings(report)));
            return reportErrors(report);
          }};
}

Command kernelsRun(CLI::App &parent) {
  struct State {
    std::string selector;
    int size = 0, repeat = 10;
    OutputOptions output;
  };
  auto state = std::make_shared<State>();
  CLI::App *app = parent.add_subcommand("run", "Build the runner, then verify and time the kernels on this GPU");
  app->add_option("case", state->selector, "A case or family (default: all)");
  app->add_option("--size", state->size, "Problem size (Laplacian: cube side; see docs/benchmarks.md)")
      ->check(CLI::PositiveNumber);
  app->add_option("--repeat", state->repeat, "Timed runs per case (median)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  addOutputOptions(*app, state->output);
  return {app, [state]() -> int {
            const RunnerRun run = runReferenceKernels(state->selector, state->size, state->repeat);
            if (run.no_gpu) {
              std::cerr << "regscope: no GPU found: " << run.error;
              return kExitNoGpu;
            }
            emit(state->output, *runnerView(run.results, &run.report));
            if (run.exit_code != 0) {
              std::cerr << "regscope: " << run.error;
              return kExitFindings;
            }
            return kExitOk;
          }};
}

}  // namespace

Command addKernelsCommand(CLI::App &root) {
  CLI::App *app = root.add_subcommand("kernels", "The built-in reference kernels: list, analyze, run");
  app->require_subcommand(1);
  auto subcommands = std::make_shared<std::vector<Command>>(
      std::vector<Command>{kernelsList(*app), kernelsAnalyze(*app), kernelsRun(*app)});
  return {app, [subcommands] {
            for (const Command &c : *subcommands)
              if (c.app->parsed()) return c.run();
            return static_cast<int>(kExitError);
          }};
}

}  // namespace regscope
