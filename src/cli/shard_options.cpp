// --shard K/N|auto and --report FILE... (docs/sharding.md): the options; which
// inputs a shard analyses is the library's (pipeline/shard_sources.cpp).
#include "commands.h"
#include "regscope/views/shard_view.h"

namespace regscope {

void addShardOption(CLI::App &app, std::string &shard) {
  app.add_option("--shard", shard,
                 "Analyse only shard K of N (1-based, e.g. 2/4) of the inputs, split by file and size the same on "
                 "every machine; auto: K and N from a Slurm job array. Merge the shards' JSON with regscope merge")
      ->type_name("K/N|auto");
}

void addReportFlag(CLI::App &app, SourceOptions &options) {
  CLI::Option *report =
      app.add_option("--report", options.report_files,
                     "Judge these shard reports (--shard ... --format json) or a merged one (regscope merge --format "
                     "json) instead of compiling")
          ->type_name("FILE")
          ->excludes(app.get_option("files"))
          ->excludes(app.get_option("-p"));
  if (CLI::Option *collect = app.get_option_no_throw("--collect")) report->excludes(collect);
  if (CLI::Option *shard = app.get_option_no_throw("--shard")) report->excludes(shard);
}

std::unique_ptr<View> shardedView(std::unique_ptr<View> view, const SourceRequest &options) {
  if (options.shard.empty()) return view;
  return withShardJson(std::move(view), [&options] { return shardToJson(options.shard_report); });
}

}  // namespace regscope
