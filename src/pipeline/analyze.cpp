// The analyze pipeline: each job through the cache, or the driver and the
// collect stage, then the model; jobs run on a small pool, results in order.
#include "regscope/pipeline/analyze.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include "jobs.h"
#include "regscope/backends/intel/ocloc.h"
#include "regscope/cache/cache.h"
#include "regscope/cache/fill_lock.h"
#include "regscope/collect/collect.h"
#include "regscope/driver/driver.h"
#include "regscope/pipeline/launch_cache.h"
#include "regscope/source/flags.h"
#include "regscope/source/launch_sites.h"
#include "regscope/support/error.h"
#include "regscope/support/escape.h"
#include "regscope/support/files.h"
#include "regscope/support/process.h"
#include "regscope/support/symbols.h"
#include "regscope/target/intel.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

// Why `path` cannot be compiled, or "" when it can be read.
std::string unreadable(const std::string &path, const std::string &file) {
  if (std::string why = notARegularFile(path, "is a directory, not a source file"); !why.empty())
    return file + why.substr(path.size());  // named as the user named it
  if (access(path.c_str(), R_OK) != 0) return file + ": cannot read (permission denied)";
  return "";
}

// An error line: clang's and ptxas's "error:", "fatal error", and nvcc's own
// "nvcc fatal   : Unknown option '-x'" (a word "fatal", then a colon).
bool isErrorLine(const std::string &line) {
  if (line.find("error:") != std::string::npos || line.find("fatal error") != std::string::npos) return true;
  const std::size_t fatal = line.find("fatal");
  if (fatal == std::string::npos) return false;
  const std::size_t colon = line.find_first_not_of(' ', fatal + 5);
  return colon != std::string::npos && line[colon] == ':';
}

// The first error line of a failed compile, indented, for the user, and how
// many more errors followed (a compile for several archs repeats each error
// once per arch: repeats are not counted).
std::string firstErrors(const std::string &diagnostics) {
  std::istringstream in(diagnostics);
  std::vector<std::string> errors;
  std::string last;
  for (std::string l; std::getline(in, l);) {
    if (!l.empty()) last = l;  // the last thing it said, if no line is an error
    if (!isErrorLine(l)) continue;
    // "/p/template-instances/../vendors/hip.h:5:10: ..." names /p/vendors/hip.h: one spelling, so
    // that the same error in many files reads the same (and is said once).
    if (const std::size_t colon = l.find(':'); !l.empty() && l.front() == '/' && colon != std::string::npos)
      l = fs::path(l.substr(0, colon)).lexically_normal().string() + l.substr(colon);
    if (std::find(errors.begin(), errors.end(), l) == errors.end()) errors.push_back(l);
  }
  if (errors.empty()) return last.empty() ? "  (the compiler said nothing)" : "  " + last;
  std::string picked = "  " + errors.front();
  if (errors.size() > 1)
    picked += "\n  (and " + std::to_string(errors.size() - 1) + " more error" + (errors.size() > 2 ? "s" : "") + ")";
  return picked;
}

// `message` with `file` in front, unless it already names it.
std::string namingFile(const std::string &file, const std::string &message) {
  if (message.find(file) != std::string::npos) return message;
  return file + ": " + message;
}

// The path as the user should read it: as given for the input itself,
// relative to the working directory when below it, else absolute.
std::string displayPath(const std::string &path, const std::map<std::string, std::string> &inputs) {
  if (auto it = inputs.find(path); it != inputs.end()) return it->second;
  std::error_code ec;
  fs::path rel = fs::path(path).lexically_relative(fs::current_path(ec));
  if (!ec && !rel.empty() && *rel.begin() != "..") return rel.string();
  return path;
}

// Source files for the collect stage (declaration lines): read through here.
std::optional<std::string> readSource(const std::string &path) {
  // Not a FIFO or a device: reading one would wait for a writer (the job's own check names it).
  if (!notARegularFile(path).empty()) return std::nullopt;
  try {
    return readFileIfExists(path);
  } catch (const Error &) {
    return std::nullopt;  // a directory or an unreadable file: no declaration line, not a failure
  }
}

// The job's own text for its file (an edited text), the files' otherwise.
SourceReader readerFor(const SourceJob &job) {
  if (!job.edited_text) return readSource;
  return [&job](const std::string &path) -> std::optional<std::string> {
    return path == job.path ? job.edited_text : readSource(path);
  };
}

// The backend that compiles `source` (hipcc/clang or nvcc; ocloc's jobs are runIntelJob's).
const Backend &backendFor(const SourceJob &source, const AnalyzeOptions &options) {
  return backendForSource(source.path, requestedTargets(options, source.archs));
}

CompileJob compileJobFor(const SourceJob &source, const AnalyzeOptions &options, const std::string &default_compiler) {
  const Backend &backend = backendFor(source, options);
  CompileJob job;
  job.compiler = source.compiler.empty() || !backend.usesEntryCompiler() ? default_compiler
                                                                         : backend.findCompiler(source.compiler);
  job.source = source.path;
  job.archs = backend.compileTargets(requestedTargets(options, source.archs));
  job.extra_flags = source.flags;
  job.extra_flags.insert(job.extra_flags.end(), options.extra_flags.begin(), options.extra_flags.end());
  if (options.keep_assembly) {
    for (const std::string &flag : backend.lineTableFlags()) job.extra_flags.push_back(flag);
    job.keep_device_code = backend.keepsDeviceCode();
  }
  job.timeout_seconds = options.timeout_seconds;
  // The cache and the baseline read them, and some backends' collect step
  // (NVIDIA: ptxas names no source line, so a kernel defined in a header is
  // looked for in the headers read).
  job.dependencies = backend.collectReadsDependencies() || !options.cache_dir.empty() || options.dependencies;
  return job;
}

std::string defaultCompiler(const std::vector<SourceJob> &jobs, const AnalyzeOptions &options,
                            const std::string &ocloc) {
  const bool all_intel =
      std::all_of(jobs.begin(), jobs.end(), [](const SourceJob &job) { return compiledPerGrfMode(job.path); });
  return all_intel ? ocloc : backendForTargets(requestedTargets(options)).findCompiler(options.compiler);
}

class JobRunner {
 public:
  JobRunner(const AnalyzeOptions &options, std::string default_compiler)
      : options_(options), default_compiler_(std::move(default_compiler)), cache_(options.cache_dir) {}

  JobResult run(const SourceJob &source) const {
    const Backend &backend = backendFor(source, options_);
    if (!backend.compilesEditedText() && source.edited_text)
      throw Error(source.file + ": an edited text compiles with hipcc or clang only");
    CompileJob job = compileJobFor(source, options_, default_compiler_);

    JobResult result;
    if (std::string why = unreadable(source.path, source.file); !why.empty()) {
      result.errors.push_back({source.file, "", why});
      return result;
    }
    result.optimisation = backend.optimisation(job.compiler, job.extra_flags, true);
    // An arch regscope chose: neither the command line, the config nor the
    // compile command named one (a build without --offload-arch compiles for
    // the compiler's own default, which may be another arch). Said once a run.
    if (!options_.archs_explicit && source.archs.empty() && !job.archs.empty() && job.archs == options_.archs) {
      std::string archs;
      for (const std::string &a : job.archs) archs += (archs.empty() ? "" : ",") + a;
      result.notes.push_back("compiled for " + archs +
                             ", regscope's default: no --offload-arch on the command line, in the config or "
                             "in the compile command");
    }
    // Archs the compiler refuses alone (a device library missing, a target
    // it does not know) fail alone; the others go on.
    while (!job.archs.empty()) {
      std::vector<RefusedTarget> refused;
      if (compile(source, job, backend, result, refused)) break;
      if (refused.empty()) break;
      for (const RefusedTarget &r : refused) {
        result.errors.push_back({source.file, r.target, r.message});
        job.archs.erase(std::remove(job.archs.begin(), job.archs.end(), r.target), job.archs.end());
      }
    }
    return result;
  }

 private:
  // One compile (or cache hit) of `job`. False when it failed; `refused`
  // then names the archs the compiler refused alone, and why.
  bool compile(const SourceJob &source, const CompileJob &job, const Backend &backend, JobResult &result,
               std::vector<RefusedTarget> &refused) const {
    // An edited text is keyed by its digest: the overlay's path is a fresh
    // temporary, and the dependency file names the original, not the text.
    CompileJob key_job = job;
    if (source.edited_text) key_job.extra_flags.push_back("--regscope-edited-text=" + textDigest(*source.edited_text));
    const std::string key = cache_.keyFor(key_job);
    const auto hit = [&](CachedResult &cached) {
      result.records = std::move(cached.records);
      result.producer = std::move(cached.producer);
      result.dependencies = std::move(cached.dependencies);
      if (options_.verbose) say(source.file + ": from the result cache");
      return true;
    };
    // explain and --lines need the assembly, which the cache does not keep.
    if (std::optional<CachedResult> cached = options_.keep_assembly ? std::nullopt : cache_.lookup(key))
      return hit(*cached);
    // A cache shared by many machines: who misses an entry another process is
    // filling waits for it (include/regscope/cache/fill_lock.h).
    std::optional<FillClaim> claim;
    if (!options_.keep_assembly && !cache_.directory().empty()) {
      const long stale = FillClaim::staleSecondsFromEnvironment();
      // Said once, whatever -v: a wait on another host's claim must not look like a hang.
      claim.emplace(cache_.directory() + "/" + key + ".json", stale, stale,
                    [&](const std::string &line) { say(source.file + ": " + line); });
      // Filled while we waited, or by a holder who let go between our lookup and our claim.
      if (std::optional<CachedResult> cached = cache_.lookup(key)) return hit(*cached);
    }
    const auto start = std::chrono::steady_clock::now();
    std::optional<TempDir> overlay;
    CompileJob run_job = job;
    if (source.edited_text) {
      overlay.emplace();
      for (std::string &flag : overlayFlags(overlay->path(), job.source, *source.edited_text))
        run_job.extra_flags.push_back(std::move(flag));
    }
    CompileOutput output = backend.compile(run_job);
    if (options_.verbose) {
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      char elapsed[32];
      std::snprintf(elapsed, sizeof elapsed, "%.2f", seconds);
      std::string archs;
      for (const std::string &arch : job.archs) archs += (archs.empty() ? "" : ",") + arch;
      say(source.file + ": compiled for " + archs + " in " + elapsed + " s (exit " + std::to_string(output.exit_code) +
          ")");
    }
    if (output.exit_code != 0) {
      refused = backend.refusedTargets(output.diagnostics);
      // Only archs of this compile, or the retry could loop.
      refused.erase(std::remove_if(refused.begin(), refused.end(),
                                   [&](const RefusedTarget &r) {
                                     return std::find(job.archs.begin(), job.archs.end(), r.target) == job.archs.end();
                                   }),
                    refused.end());
      if (refused.empty() || refused.size() == job.archs.size()) {
        for (const RefusedTarget &r : refused) result.errors.push_back({source.file, r.target, r.message});
        if (refused.empty())
          result.errors.push_back({source.file, "",
                                   fs::path(job.compiler).filename().string() + " failed on " + source.file +
                                       " (exit " + std::to_string(output.exit_code) + "):\n" +
                                       firstErrors(output.diagnostics)});
        refused.clear();
      }
      return false;
    }
    if (output.archs.empty()) {
      const bool rdc = std::find(job.extra_flags.begin(), job.extra_flags.end(), "-fgpu-rdc") != job.extra_flags.end();
      result.errors.push_back(
          {source.file, "",
           rdc ? source.file + ": with -fgpu-rdc the device code and its figures exist only at link time; link with "
                               "-Rpass-analysis=kernel-resource-usage and run regscope parse on the link's output "
                               "(--arch ARCH), or drop -fgpu-rdc for a per-file estimate"
               : source.file + ": the compiler wrote no device assembly (is it a HIP source?)"});
      return false;
    }
    const SourceReader read = readerFor(source);
    CollectedRun run = backend.collect(output, job.source, read);
    result.records = std::move(run.records);
    result.producer = std::move(run.producer);
    if (options_.keep_assembly) result.assemblies = std::move(output.archs);
    // A damaged output (a figure its format always carries is missing) is not
    // cached: the cache keeps no record of what was missing, and a hit would
    // judge what this run could not.
    if (!anyMissing(result.records))
      cache_.store(key, {result.records, result.producer}, output.dependencies, ResultCache::includeSearch(job));
    result.dependencies = std::move(output.dependencies);
    return true;
  }

  static void say(const std::string &line) {
    static std::mutex mutex;
    std::lock_guard<std::mutex> lock(mutex);
    std::cerr << "regscope: " << escape::terminal(line) << '\n';
  }

  const AnalyzeOptions &options_;
  std::string default_compiler_;
  ResultCache cache_;
};

// The launches of the job's file, read through Clang's AST as its compile
// parses it (readLaunchSites); what the reading said goes to `notes`.
LaunchFor launchesIn(const SourceJob &job, const AnalyzeOptions &options, std::vector<std::string> &notes) {
  LaunchesRead read;
  UnreadLaunches unread;
  if (std::optional<std::string> text = readerFor(job)(job.path)) {
    std::vector<std::string> flags = job.flags;  // where the compile finds the headers
    flags.insert(flags.end(), options.extra_flags.begin(), options.extra_flags.end());
    // CUDA or HIP headers, as the compile's own command says (a hipified .cu with a gfx target is HIP).
    std::vector<std::string> command = {job.compiler};
    command.insert(command.end(), flags.begin(), flags.end());
    for (const std::string &arch : job.archs) command.push_back("--offload-arch=" + arch);
    if (options.archs_explicit)
      for (const std::string &arch : options.archs) command.push_back("--offload-arch=" + arch);
    read = readLaunchSitesCached(options.cache_dir, job.path, job.file, *text, flags,
                                 commandCompilesCuda(job.path, command));
    notes.insert(notes.end(), read.notes.begin(), read.notes.end());
    if (options.launch.block_size) read.block_sizes.clear();
    for (const auto &[kernel, line] : read.block_unread_line)
      unread.block_size[kernel] = job.file + ":" + std::to_string(line);
    for (const auto &[kernel, line] : read.dynamic_unread_line)
      unread.dynamic_shared[kernel] = job.file + ":" + std::to_string(line);
  }
  return launchesFor(std::move(read.block_sizes), options, std::move(read.dynamic_shared), std::move(unread));
}

// Every job through the cache or the compiler, on a small pool; results in job order.
struct JobRun {
  std::string compiler_path;
  std::vector<JobResult> results;
};

JobRun runJobs(const std::vector<SourceJob> &jobs, const AnalyzeOptions &options) {
  if (jobs.empty()) throw Error("no input files");
  checkRequestedTargets(requestedTargets(options));
  // .cl and .spv files go to ocloc; the rest to hipcc/clang or (--cuda-arch) nvcc.
  const auto intel = [](const SourceJob &job) { return compiledPerGrfMode(job.path); };
  std::string ocloc;
  if (std::any_of(jobs.begin(), jobs.end(), intel)) {
    requireIntelDevice(options.intel_device);
    ocloc = findOcloc(std::all_of(jobs.begin(), jobs.end(), intel) ? options.compiler : "");
  }
  JobRun run;
  run.compiler_path = defaultCompiler(jobs, options, ocloc);

  const JobRunner runner(options, run.compiler_path);
  std::vector<JobResult> &results = run.results;
  results.resize(jobs.size());
  std::vector<std::exception_ptr> failures(jobs.size());
  std::atomic<std::size_t> next{0}, done{0};
  std::mutex progress_mutex;
  auto worker = [&] {
    for (std::size_t i; (i = next++) < jobs.size();) {
      if (signalPending()) break;  // no compiler starts after a Ctrl-C; the rest of the queue is dropped
      try {
        if (intel(jobs[i]) && jobs[i].edited_text)
          throw Error(jobs[i].file + ": an edited text compiles with hipcc or clang only");
        results[i] = intel(jobs[i]) ? runIntelJob(jobs[i], options, ocloc, readSource) : runner.run(jobs[i]);
      } catch (const Error &e) {
        // One bad file never hides the rest: what went wrong with this file
        // (a compiler output regscope cannot read, a refused flag) is this
        // file's error, named with its path; the other files go on.
        results[i] = JobResult{};
        results[i].errors.push_back({jobs[i].file, "", namingFile(jobs[i].file, e.what())});
      } catch (...) {
        failures[i] = std::current_exception();
      }
      std::size_t finished = ++done;
      if (options.progress) {
        std::lock_guard<std::mutex> lock(progress_mutex);
        std::cerr << "\r\033[K[" << finished << "/" << jobs.size() << "] " << escape::terminal(jobs[i].file)
                  << std::flush;
      }
    }
  };
  const unsigned threads = std::max(1u, std::min<unsigned>(options.parallel, jobs.size()));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread &t : pool) t.join();
  if (options.progress) std::cerr << "\r\033[K" << std::flush;
  for (const std::exception_ptr &failure : failures)  // interrupts stop the run
    if (failure) std::rethrow_exception(failure);
  throwIfInterrupted();
  return run;
}

void addJobResult(Report &report, const SourceJob &job, JobResult &result, const AnalyzeOptions &options) {
  const LaunchFor launch = launchesIn(job, options, result.notes);
  addJobResult(report, job, result, launch);
}

}  // namespace

// What is known of each kernel's launch: the command line, then the config
// file's entry for the kernel, then a constant block size at its launches.
LaunchFor launchesFor(std::map<std::string, int> sites, const AnalyzeOptions &options,
                      std::map<std::string, DynamicSharedAt> shared, UnreadLaunches unread) {
  return [sites = std::move(sites), shared = std::move(shared), unread = std::move(unread),
          &options](const KernelRecord &record) {
    LaunchOverrides launch = options.launch;
    const std::string base = functionBaseName(record.demangled);
    for (const KernelSettings &settings : options.kernel_settings) {
      if (!settings.matches(record.name, record.demangled, base)) continue;
      if (settings.block_size && !options.launch.block_size) {
        launch.block_size = settings.block_size;
        launch.block_size_source = BlockSizeSource::Config;
      }
      if (settings.dynamic_lds && !options.launch.dynamic_lds) {
        launch.dynamic_lds = *settings.dynamic_lds;
        launch.dynamic_source = DynamicSharedSource::Config;
      }
    }
    // The dynamic LDS/shared memory its launches in the file give, when
    // neither the command line nor the config says (AMD: --dynamic-lds;
    // NVIDIA: --dynamic-smem; the launch's own figure serves both).
    const bool given = options.launch.dynamic_lds || options.launch.dynamic_shared ||
                       launch.dynamic_source == DynamicSharedSource::Config;
    if (!given) {
      if (auto it = shared.find(base); it != shared.end() && it->second.bytes > 0) {
        const int bytes = static_cast<int>(it->second.bytes);  // at most kMaxDynamicSharedRead
        backendFor(record.vendor).setLaunchDynamicShared(launch, bytes);
        launch.dynamic_source =
            it->second.from_attribute ? DynamicSharedSource::FuncAttribute : DynamicSharedSource::LaunchSite;
      } else if (auto at = unread.dynamic_shared.find(base); at != unread.dynamic_shared.end()) {
        launch.dynamic_unread_at = at->second;  // the model's: unknown, never 0
      }
    }
    if (!launch.block_size) {
      if (auto it = sites.find(base); it != sites.end()) {
        launch.block_size = it->second;
        launch.block_size_source = BlockSizeSource::LaunchSite;
      } else if (auto at = unread.block_size.find(base); at != unread.block_size.end()) {
        launch.block_size_unread_at = at->second;  // an assumption the model marks
      }
    }
    return launch;
  };
}

// One job's records through the model into `report`, with its errors and notes.
void addJobResult(Report &report, const SourceJob &job, JobResult &result, const LaunchFor &launch) {
  // A compile that reports no kernel for a file that defines some lost them
  // (a truncated log, a compiler that printed nothing): an error, never "no kernels".
  if (result.records.empty() && result.errors.empty()) {
    std::error_code ec;
    if (fs::is_regular_file(job.path, ec) && definesKernels(readFile(job.path)))
      result.errors.push_back({job.file, "",
                               job.file + ": defines kernels (__global__ or __kernel) but the compile reported none; "
                                          "a template kernel that is never instantiated compiles to no code"});
  }
  report.errors.insert(report.errors.end(), result.errors.begin(), result.errors.end());
  addNotesOnce(report, result.notes);
  if (result.records.empty() && !result.errors.empty()) return;
  if (report.compiler_version.empty()) report.compiler_version = result.producer;
  const std::size_t first = report.kernels.size();
  try {
    addKernels(report, result.records, launch);
  } catch (const Error &e) {
    throw Error(job.file + ": " + e.what());
  }
  const std::map<std::string, std::string> inputs = {{job.path, job.file}};
  // A database's second entry for a file (other flags) is a source of its own.
  const std::string source = job.path + (job.variant ? "#" + std::to_string(job.variant) : "");
  for (std::size_t k = first; k < report.kernels.size(); ++k) {
    report.kernels[k].display_file = displayPath(report.kernels[k].record.file, inputs);
    report.kernels[k].source = source;
  }
  report.inputs.push_back(job.file + (job.variant ? " (entry " + std::to_string(job.variant) + ")" : ""));
  report.input_paths.push_back(source);
  if (!result.dependencies.empty()) report.dependencies[source] = std::move(result.dependencies);
  if (result.optimisation) report.optimisation[source] = *result.optimisation;
}

CompileJob compileJobFor(const SourceJob &source, const AnalyzeOptions &options) {
  if (compiledPerGrfMode(source.path))
    throw Error(source.file + ": compiled by ocloc, once per GRF mode, not as one job");
  return compileJobFor(source, options, defaultCompiler({source}, options, ""));
}

Report analyzeJobs(const std::vector<SourceJob> &jobs, const AnalyzeOptions &options) {
  return analyzeJobs(jobs, options, nullptr);
}

Report analyzeJobs(const std::vector<SourceJob> &jobs, const AnalyzeOptions &options, KeptAssembly *kept) {
  return analyzeJobs(jobs, options, kept, nullptr);
}

Report analyzeJobs(const std::vector<SourceJob> &jobs, const AnalyzeOptions &options, KeptAssembly *kept,
                   const JobObserver &observe) {
  JobRun run = runJobs(jobs, options);
  Report report;
  report.compiler_path = run.compiler_path;
  if (kept) kept->per_job.resize(jobs.size());
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (kept) kept->per_job[i] = std::move(run.results[i].assemblies);
    const std::size_t first = report.kernels.size();
    const LaunchFor launch = launchesIn(jobs[i], options, run.results[i].notes);
    addJobResult(report, jobs[i], run.results[i], launch);
    if (observe) observe(i, run.results[i], launch, report, first);
    if (kept) kept->kernel_job.resize(report.kernels.size(), i);
  }
  tellTwinsApart(report);
  return report;
}

std::vector<Report> analyzeEach(const std::vector<SourceJob> &jobs, const AnalyzeOptions &options) {
  JobRun run = runJobs(jobs, options);
  std::vector<Report> reports(jobs.size());
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    reports[i].compiler_path = run.compiler_path;
    addJobResult(reports[i], jobs[i], run.results[i], options);
  }
  return reports;
}

}  // namespace regscope
