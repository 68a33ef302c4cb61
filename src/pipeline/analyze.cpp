#include "regscope/pipeline/analyze.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <thread>
#include <map>
#include <sstream>

#include "regscope/cache/cache.h"
#include "regscope/collect/collect.h"
#include "regscope/driver/driver.h"
#include "regscope/driver/ocloc.h"
#include "regscope/support/error.h"
#include "regscope/support/files.h"
#include "regscope/support/process.h"
#include "regscope/target/amdgpu.h"
#include "regscope/target/cuda.h"
#include "jobs.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

void checkReadable(const std::string &file) {
  std::error_code ec;
  fs::file_status status = fs::status(file, ec);
  if (ec || !fs::exists(status)) throw Error(file + ": no such file");
  if (fs::is_directory(status)) throw Error(file + ": is a directory, not a source file");
  if (access(file.c_str(), R_OK) != 0) throw Error(file + ": cannot read (permission denied)");
}

// The first error lines of a failed compile, indented, for the user.
std::string firstErrors(const std::string &diagnostics) {
  std::istringstream in(diagnostics);
  std::string line, picked;
  int errors = 0;
  for (std::string l; std::getline(in, l) && errors < 3;) {
    if (l.find("error:") != std::string::npos || l.find("fatal error") != std::string::npos) {
      picked += "  " + l + "\n";
      ++errors;
    }
  }
  if (picked.empty())  // no "error:" lines: show the tail of whatever it said
    for (std::istringstream tail(diagnostics); std::getline(tail, line);) picked = "  " + line + "\n";
  if (!picked.empty()) picked.pop_back();  // main adds the final newline
  return picked;
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
  try {
    return readFileIfExists(path);
  } catch (const Error &) {
    return std::nullopt;  // a directory or an unreadable file: no declaration line, not a failure
  }
}

}  // namespace

namespace {

JobResult runJob(const SourceJob &source, const AnalyzeOptions &options, const std::string &default_compiler) {
  JobResult result;
  const bool cuda = !options.cuda_archs.empty();
  CompileJob job;
  job.compiler = source.compiler.empty() || cuda ? default_compiler : findHipCompiler(source.compiler);
  job.source = source.path;
  job.archs = cuda ? options.cuda_archs
                   : options.archs_explicit || source.archs.empty() ? options.archs : source.archs;
  job.extra_flags = source.flags;
  job.extra_flags.insert(job.extra_flags.end(), options.extra_flags.begin(), options.extra_flags.end());
  if (!cuda)
    for (const std::string &arch : job.archs)
      requireAmdArch(arch);
  const ResultCache cache(options.cache_dir);
  const std::string key = cache.keyFor(job);
  if (std::optional<CachedResult> hit = cache.lookup(key)) {
    result.records = std::move(hit->records);
    result.producer = std::move(hit->producer);
    return result;
  }
  CompileOutput output = cuda ? compileCuda(job) : compileHip(job);
  if (output.exit_code != 0) {
    result.error = fs::path(job.compiler).filename().string() + " failed on " + source.file + " (exit " +
                   std::to_string(output.exit_code) + "):\n" + firstErrors(output.diagnostics);
    if (output.diagnostics.find("cannot find ROCm device library for") != std::string::npos)
      result.error += "\n  (the installed ROCm device libraries have no bitcode for this arch: Debian 12's ROCm 5.2 "
                      "ships gfx1030 but not gfx1100/gfx1102/gfx942; regscope will not build without them, since "
                      "-nogpulib turns every math call into an external call and gives wrong figures)";
    return result;
  }
  if (output.archs.empty()) {
    const bool rdc = std::find(job.extra_flags.begin(), job.extra_flags.end(), "-fgpu-rdc") != job.extra_flags.end();
    result.error = rdc ? source.file + ": with -fgpu-rdc the device code and its figures exist only at link time; "
                                       "link with -Rpass-analysis=kernel-resource-usage and run regscope parse on "
                                       "the link's output (--arch ARCH), or drop -fgpu-rdc for a per-file estimate"
                       : source.file + ": the compiler wrote no device assembly (is it a HIP source?)";
    return result;
  }
  CollectedRun run = cuda ? collectCudaRun(output, job.source, readSource) : collectAmdRun(output, job.source, readSource);
  result.records = std::move(run.records);
  result.producer = std::move(run.producer);
  cache.store(key, {result.records, result.producer}, output.dependencies);
  return result;
}

}  // namespace

Report analyzeJobs(const std::vector<SourceJob> &jobs, const AnalyzeOptions &options) {
  if (jobs.empty()) throw Error("no input files");
  for (const std::string &arch : options.archs) requireAmdArch(arch);
  for (const SourceJob &job : jobs) checkReadable(job.file);

  for (const std::string &arch : options.cuda_archs)
    if (!findCudaArch(arch)) throw Error("unknown CUDA arch '" + arch + "'; known: " + knownCudaArchList());
  const auto intel = [](const SourceJob &job) { return isOclocInput(job.path); };
  const bool all_intel = std::all_of(jobs.begin(), jobs.end(), intel);
  std::string ocloc;
  if (std::any_of(jobs.begin(), jobs.end(), intel)) {
    requireIntelDevice(options.intel_device);
    ocloc = findOcloc(all_intel ? options.compiler : "");
  }
  Report report;
  report.compiler_path = all_intel                   ? ocloc
                         : options.cuda_archs.empty() ? findHipCompiler(options.compiler)
                                                      : findNvcc(options.compiler);

  // Run the jobs on a small pool; results keep job order.
  std::vector<JobResult> results(jobs.size());
  std::vector<std::exception_ptr> failures(jobs.size());
  std::atomic<std::size_t> next{0}, done{0};
  std::mutex progress_mutex;
  auto worker = [&] {
    for (std::size_t i; (i = next++) < jobs.size();) {
      try {
        results[i] = intel(jobs[i]) ? runIntelJob(jobs[i], options, ocloc, readSource)
                                    : runJob(jobs[i], options, report.compiler_path);
      } catch (...) {
        failures[i] = std::current_exception();
      }
      std::size_t finished = ++done;
      if (options.progress) {
        std::lock_guard<std::mutex> lock(progress_mutex);
        std::cerr << "\r\033[K[" << finished << "/" << jobs.size() << "] " << jobs[i].file << std::flush;
      }
    }
  };
  const unsigned threads = std::max(1u, std::min<unsigned>(options.parallel, jobs.size()));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread &t : pool) t.join();
  if (options.progress) std::cerr << "\r\033[K" << std::flush;
  for (const std::exception_ptr &failure : failures)  // interrupts and bad input stop the run
    if (failure) std::rethrow_exception(failure);

  for (std::size_t i = 0; i < jobs.size(); ++i) {
    JobResult &result = results[i];
    if (!result.error.empty()) {
      report.errors.push_back(result.error);
      continue;
    }
    if (report.compiler_version.empty()) report.compiler_version = result.producer;
    const std::size_t first = report.kernels.size();
    addKernels(report, result.records, options.launch);
    const std::map<std::string, std::string> inputs = {{jobs[i].path, jobs[i].file}};
    for (std::size_t k = first; k < report.kernels.size(); ++k)
      report.kernels[k].display_file = displayPath(report.kernels[k].record.file, inputs);
    report.inputs.push_back(jobs[i].file);
  }
  if (report.errors.size() == jobs.size()) throw Error(report.errors.front());
  return report;
}

}  // namespace regscope
