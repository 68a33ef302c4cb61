// The analyze pipeline for Intel: source -> cache | ocloc -> collect, per GRF mode.
#include <exception>
#include <filesystem>
#include <thread>

#include "jobs.h"
#include "regscope/backends/intel/collect.h"
#include "regscope/backends/intel/ocloc.h"
#include "regscope/cache/cache.h"
#include "regscope/target/intel.h"

namespace regscope {
namespace {

JobResult runMode(const SourceJob &source, const AnalyzeOptions &options, const std::string &ocloc, GrfMode mode,
                  const SourceReader &read) {
  JobResult result;
  OclocJob job;
  job.compiler = ocloc;
  job.source = source.path;
  job.device = oclocDeviceName(options.intel_device);
  if (const std::string grf = grfModeOption(mode); !grf.empty()) job.options.push_back(grf);
  job.options.insert(job.options.end(), source.flags.begin(), source.flags.end());
  job.options.insert(job.options.end(), options.extra_flags.begin(), options.extra_flags.end());
  const std::string target = intelTargetName({job.device, mode});

  const ResultCache cache(options.cache_dir);
  const CompileJob key_job{job.compiler, job.source, {target}, job.options};
  const std::string key = cache.keyFor(key_job);
  if (std::optional<CachedResult> hit = cache.lookup(key)) {
    result.records = std::move(hit->records);
    result.producer = std::move(hit->producer);
    return result;
  }
  const OclocOutput output = compileOcloc(job);
  if (output.exit_code != 0) {
    std::string message =
        "ocloc failed on " + source.file + " for " + target + " (exit " + std::to_string(output.exit_code) + "):";
    for (const std::string &line : oclocErrorLines(output.log, source.file)) message += "\n  " + line;
    result.errors.push_back({source.file, "", message});  // the message names the target
    return result;
  }
  if (output.zebin.empty()) {
    result.errors.push_back({source.file, "", source.file + ": ocloc wrote no device binary for " + target});
    return result;
  }
  CollectedRun run = collectIntelRun(output, target, job.source, read);
  result.records = std::move(run.records);
  result.producer = std::move(run.producer);
  if (!anyMissing(result.records))
    cache.store(key, {result.records, result.producer}, output.dependencies, ResultCache::includeSearch(key_job));
  return result;
}

}  // namespace

JobResult runIntelJob(const SourceJob &source, const AnalyzeOptions &options, const std::string &ocloc,
                      const SourceReader &read) {
  const std::vector<GrfMode> &modes = options.intel_grf;
  std::vector<JobResult> results(modes.size());
  std::vector<std::exception_ptr> failures(modes.size());
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < modes.size(); ++i)
    threads.emplace_back([&, i] {
      try {
        results[i] = runMode(source, options, ocloc, modes[i], read);
      } catch (...) {
        failures[i] = std::current_exception();
      }
    });
  for (std::thread &t : threads) t.join();
  for (const std::exception_ptr &failure : failures)
    if (failure) std::rethrow_exception(failure);
  JobResult all;
  for (JobResult &r : results) {
    if (!r.errors.empty()) return r;  // the first mode that failed; the others would say the same
    all.records.insert(all.records.end(), r.records.begin(), r.records.end());
    if (all.producer.empty()) all.producer = r.producer;
  }
  return all;
}

}  // namespace regscope
