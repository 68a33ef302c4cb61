// One job of the analyze pipeline (internal to the pipeline stage).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "regscope/collect/collect.h"
#include "regscope/driver/driver.h"
#include "regscope/pipeline/analyze.h"
#include "regscope/source/launch_sites.h"

namespace regscope {

// What one job produced; merged into the report in job order.
// Whether a record lacks a figure its source's format always carries
// (KernelRecord::missing): such records are not cached.
inline bool anyMissing(const std::vector<KernelRecord> &records) {
  for (const KernelRecord &r : records)
    if (!r.missing.empty()) return true;
  return false;
}

struct JobResult {
  std::vector<KernelRecord> records;
  std::string producer;
  std::vector<InputError> errors;
  std::vector<std::string> notes;
  std::optional<Optimisation> optimisation;  // the level the compile's figures are for
  std::vector<ArchOutput> assemblies;        // AnalyzeOptions::keep_assembly: each AMD arch's .s
  std::vector<std::string> dependencies;     // the files the compile read (AnalyzeOptions::dependencies)
};

// What analyzeJobs keeps for explain and --lines (AnalyzeOptions::keep_assembly):
// each job's device assembly, and the job each of Report::kernels came from.
struct KeptAssembly {
  std::vector<std::vector<ArchOutput>> per_job;
  std::vector<std::size_t> kernel_job;
};
Report analyzeJobs(const std::vector<SourceJob> &jobs, const AnalyzeOptions &options, KeptAssembly *kept);
// As above, telling `observe` of each job once it is in the report: the job's
// result (its records and errors; its dependencies are in the report by now),
// the launch its records were modelled with, and its first kernel's place
// (the shard reports of merge.h).
using JobObserver = std::function<void(std::size_t job, const JobResult &result, const LaunchFor &launch,
                                       const Report &report, std::size_t first_kernel)>;
Report analyzeJobs(const std::vector<SourceJob> &jobs, const AnalyzeOptions &options, KeptAssembly *kept,
                   const JobObserver &observe);

// collect's sidecars read, in the one-process order: the warnings and errors
// of reading them (`preamble`, with the compiler), then one job per sidecar
// with its result and launches, as collectSidecars adds them.
struct SidecarJobs {
  Report preamble;
  std::vector<SourceJob> jobs;
  std::vector<JobResult> results;
  std::vector<LaunchFor> launches;
};
SidecarJobs readSidecarJobs(const std::string &build_dir, const AnalyzeOptions &options);

// parseArtifacts, telling `observe` of each file once it is in the report:
// its artifact (records before the model) and its first kernel's place.
using ArtifactObserver =
    std::function<void(std::size_t file, const Artifact &artifact, const Report &report, std::size_t first_kernel)>;
Report parseArtifacts(const std::vector<std::string> &files, const std::string &log_arch, const LaunchOverrides &launch,
                      const ArtifactObserver &observe);

// A .cl or .spv job: ocloc once per GRF mode of `options.intel_grf`, the
// runs in parallel, each through the result cache; the records of every
// mode, small first. `ocloc` is the resolved compiler.
JobResult runIntelJob(const SourceJob &source, const AnalyzeOptions &options, const std::string &ocloc,
                      const SourceReader &read);

// Flags that make clang read `edited_text` in place of `original_path`
// (-ivfsoverlay): writes the text and a VFS overlay into `dir`. With
// 'use-external-names': false the compiler reports everything under the
// original's name (remarks, the .s, the dependency file, __FILE__), and quoted
// includes resolve from the original's directory.
std::vector<std::string> overlayFlags(const std::string &dir, const std::string &original_path,
                                      const std::string &edited_text);

// What is known of each kernel's launch: the command line (options.launch),
// then the config's entry for the kernel (options.kernel_settings), then
// `sites`, the constant block sizes at its launches (findLaunchBlockSizes).
// `options` must outlive the result.
// `shared`: the dynamic LDS at its launches (findLaunchDynamicShared), counted
// when neither the command line nor the config gives one.
// `unread`: where its launches pass a block size or dynamic LDS that could not
// be evaluated (readLaunches), as "FILE:LINE": unknown unless something above gives it.
struct UnreadLaunches {
  std::map<std::string, std::string> block_size, dynamic_shared;  // kernel base name -> "FILE:LINE"
};
LaunchFor launchesFor(std::map<std::string, int> sites, const AnalyzeOptions &options,
                      std::map<std::string, DynamicSharedAt> shared = {}, UnreadLaunches unread = {});

// One job's records through the model into `report` (display paths, source,
// inputs as analyze gives them), with its errors and notes.
void addJobResult(Report &report, const SourceJob &job, JobResult &result, const LaunchFor &launch);

// explain: the source files a kernel's line table names, read once each (explain.cpp).
struct KernelIsa;
struct KernelReport;
void readSources(KernelIsa &kernel, const KernelReport &report_kernel);
// The loop under it, for explain on artifacts too: each file the function's lines name, read once
// (a directory, an unreadable or absent file: its lines without their text), shown as `display(path)`;
// kernel.main_file is the one most of its instructions count for. Returns the files in the order read.
std::vector<int> readSourceFiles(KernelIsa &kernel, const std::function<std::string(const std::string &)> &display);

// SHA-256 of `text`, in hex: the cache key's stand-in for an edited text.
std::string textDigest(const std::string &text);

}  // namespace regscope
