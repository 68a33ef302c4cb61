// regscope explain FILE [--kernel NAME] [--offload-arch A] [--format F] [-- compiler flags]
#include <algorithm>

#include "commands.h"
#include "regscope/source/config_source_map.h"
#include "regscope/support/error.h"
#include "regscope/views/views.h"

namespace regscope {
Command addExplainCommand(CLI::App &root, const std::vector<std::string> &compiler_flags) {
  struct State {
    SourceOptions sources;
    OutputOptions output;
    std::string kernel;
    std::vector<std::string> source_map;
  };
  auto state = std::make_shared<State>();
  CLI::App *app = root.add_subcommand(
      "explain",
      "Where a kernel's registers go: per source line the peak live VGPRs/AGPRs/SGPRs, the point of "
      "maximum pressure and what is live across it, the instruction mix and a static cycle estimate");
  addSourceOptions(*app, state->sources, compiler_flags);
  app->add_option("--kernel", state->kernel,
                  "Only this kernel: its name (laplacian_k5<double>, laplacian_k5), signature or mangled symbol");
  app->add_option("--source-map", state->source_map,
                  "FROM=TO: read the source files the line table places under FROM from TO instead (as clang's "
                  "-fdebug-prefix-map; repeatable, the longest FROM wins), for a cache or binary built elsewhere")
      ->allow_extra_args(false);
  addOutputOptions(*app, state->output);

  return {app, [state] {
            refuseOverwritingInputs(inputPaths(state->sources, workingDirectory()), state->output.path);
            // --source-map first, then the config's source_map (the longest FROM wins either way).
            std::vector<std::string> maps = state->source_map;
            auto addConfigMaps = [&](const std::string &config_path) {
              if (config_path.empty()) return;
              const std::vector<std::string> more = configSourceMap(config_path, state->sources.allow_config_plugins);
              maps.insert(maps.end(), more.begin(), more.end());
            };
            SourceMap source_map = parseSourceMap(maps);
            // The kernels chosen, their sources read where --source-map places them, then shown.
            auto show = [&](ExplainedReport explained, const std::vector<std::string> &files) {
              ExplainedReport picked = selectKernels(std::move(explained), state->kernel, files);
              for (const std::string &w : mapSources(picked, source_map)) printWarning(w);
              emit(state->output, *explainView(picked.report, picked.kernels));
              return reportErrors(picked.report);
            };
            // Built artifacts are read without prepareSources: their config in force is read here.
            auto artifactConfig = [&] {
              if (!state->sources.config_path.empty())
                addConfigMaps(state->sources.config_path);
              else {
                const ConfigSearch found = findConfig(workingDirectory());
                for (const std::string &w : found.warnings) printWarning(w);
                if (found.path) addConfigMaps(*found.path);
              }
              source_map = parseSourceMap(maps);
            };
            if (explainsNvidiaArtifacts(state->sources.files)) {  // a cubin, fatbin or host object: no compile
              artifactConfig();
              return show(explainNvidiaBinaries(state->sources), state->sources.files);
            }
            // Built artifacts (a Triton cache, its .amdgcn, a directory): read, not compiled.
            const std::vector<std::string> &files = state->sources.files;
            if (!files.empty() && state->sources.database.empty() &&
                std::all_of(files.begin(), files.end(), isArtifactInput)) {
              artifactConfig();
              ParseOptions options;
              options.parallel = state->sources.analyze.parallel;
              ExplainedReport explained = explainArtifacts(files, options);
              for (const std::string &w : explained.report.warnings) printWarning(w);
              return show(std::move(explained), files);
            }
            addConfigMaps(prepareSources(state->sources).path);
            source_map = parseSourceMap(maps);
            requireExplainTools(state->sources);
            ExplainedReport explained = explainSources(state->sources, stderrMessages());
            if (explained.report.inputs.empty() && explained.report.errors.empty())
              throw Error("no source to explain (headers are explained through their sources)");
            return show(std::move(explained), state->sources.files);
          }};
}

}  // namespace regscope
