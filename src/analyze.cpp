#include "regscope/analyze.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <thread>
#include <map>
#include <sstream>

#include "regscope/arch.h"
#include "regscope/cache.h"
#include "regscope/cuda.h"
#include "regscope/collect.h"
#include "regscope/error.h"
#include "regscope/source.h"

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

// Remark paths are as the compiler's debug info spelled them: absolute, or
// relative to a directory we cannot see (the compile ran elsewhere). Resolve
// a relative one against the source's directory and its parents.
std::string resolveSourcePath(const std::string &path, const std::string &compiled_source) {
  if (path.empty() || fs::path(path).is_absolute()) return path;
  std::error_code ec;
  for (fs::path dir = fs::path(compiled_source).parent_path(); !dir.empty(); dir = dir.parent_path()) {
    fs::path candidate = dir / path;
    if (fs::is_regular_file(candidate, ec)) return candidate.lexically_normal().string();
    if (dir == dir.root_path()) break;
  }
  return path;
}

}  // namespace

std::vector<KernelRecord> collectRecords(const CompileOutput &output, const std::string &compiled_source,
                                         std::string &producer) {
  // .s first: its figures win where a remark disagrees (and it says so).
  std::vector<FactSet> sets;
  std::vector<FactSet> remarks;
  for (const ArchOutput &arch : output.archs) {
    AsmFile assembly = parseAsm(arch.assembly);
    if (producer.empty()) producer = assembly.producer;
    const std::string name = assembly.arch.empty() ? arch.arch : assembly.arch;
    for (KernelFacts &facts : assembly.facts.kernels) facts.arch = name;
    sets.push_back(std::move(assembly.facts));
    if (!arch.remarks_yaml.empty()) remarks.push_back(parseRemarkYaml(arch.remarks_yaml, name));
  }
  // Text remarks do not say which arch they are for: use them only when the
  // optimisation records are missing and a single arch was compiled.
  if (remarks.empty() && output.archs.size() == 1)
    remarks.push_back(parseRemarkText(output.diagnostics, sets.front().kernels.empty()
                                                              ? output.archs.front().arch
                                                              : sets.front().kernels.front().arch));
  for (FactSet &set : remarks) sets.push_back(std::move(set));

  std::vector<KernelRecord> records = mergeFacts(sets);
  std::map<std::string, std::string> sources;  // file -> text, read once
  for (KernelRecord &record : records) {
    record.file = resolveSourcePath(record.file, compiled_source);
    if (record.file.empty() || record.line <= 0) continue;
    auto [it, inserted] = sources.try_emplace(record.file);
    if (inserted) it->second = readFile(record.file);
    record.line = findDeclarationLine(it->second, record.line, functionBaseName(record.demangled));
  }
  return records;
}

std::vector<KernelRecord> collectCudaRecords(const CompileOutput &output, const std::string &compiled_source) {
  std::vector<FactSet> sets;
  const bool linked = !output.archs.empty() && !output.archs.front().link_report.empty();
  if (!linked) {
    FactSet ptxas = parsePtxas(output.diagnostics, output.archs.size() == 1 ? output.archs.front().arch : "");
    sets.push_back(std::move(ptxas));
  }
  for (const ArchOutput &arch : output.archs) {
    if (linked) {  // -rdc: only the device link's figures are final
      FactSet link = parsePtxas(arch.link_report, arch.arch);
      link.source = "nvlink";
      sets.push_back(std::move(link));
    }
    sets.push_back(parsePtxLaunchBounds(arch.assembly, arch.arch));
  }
  std::vector<KernelRecord> records = mergeFacts(sets);
  // ptxas names no source line: find each kernel's declaration in the file.
  const std::string source = readFile(compiled_source);
  const int lines = static_cast<int>(std::count(source.begin(), source.end(), '\n')) + 1;
  std::vector<KernelRecord> kernels;
  for (KernelRecord &record : records) {
    if (!record.has(Field::Registers)) continue;  // PTX-only entries (no SASS for this arch)
    record.file = compiled_source;
    record.line = findDeclarationLine(source, lines, functionBaseName(record.demangled));
    if (record.line == lines) record.line = 0;  // not found
    kernels.push_back(std::move(record));
  }
  // ptxas lists kernels in reverse source order; report them in source order, per arch.
  std::stable_sort(kernels.begin(), kernels.end(), [&](const KernelRecord &a, const KernelRecord &b) {
    auto rank = [&](const KernelRecord &r) {
      for (std::size_t i = 0; i < output.archs.size(); ++i)
        if (output.archs[i].arch == r.arch) return i;
      return output.archs.size();
    };
    return std::make_pair(rank(a), a.line) < std::make_pair(rank(b), b.line);
  });
  return kernels;
}

namespace {

// What one job produced; merged into the report in job order.
struct JobResult {
  std::vector<KernelRecord> records;
  std::string producer;
  std::string error;
};

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
      if (!findAmdArch(arch)) throw Error("unknown arch '" + arch + "'; known: " + knownArchList());
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
  if (cuda) {  // "//   Cuda compilation tools, release 13.0, V13.0.88" heads every PTX file
    const std::string &ptx = output.archs.front().assembly;
    const std::size_t at = ptx.find("Cuda compilation tools");
    if (at != std::string::npos) result.producer = ptx.substr(at, ptx.find('\n', at) - at);
  }
  result.records = cuda ? collectCudaRecords(output, job.source) : collectRecords(output, job.source, result.producer);
  cache.store(key, {result.records, result.producer}, output.dependencies);
  return result;
}

}  // namespace

Report analyzeJobs(const std::vector<SourceJob> &jobs, const AnalyzeOptions &options) {
  if (jobs.empty()) throw Error("no input files");
  for (const std::string &arch : options.archs)
    if (!findAmdArch(arch)) throw Error("unknown arch '" + arch + "'; known: " + knownArchList());
  for (const SourceJob &job : jobs) checkReadable(job.file);

  for (const std::string &arch : options.cuda_archs)
    if (!findCudaArch(arch)) throw Error("unknown CUDA arch '" + arch + "'; known: " + knownCudaArchList());
  Report report;
  report.compiler_path = options.cuda_archs.empty() ? findHipCompiler(options.compiler) : findNvcc(options.compiler);

  // Run the jobs on a small pool; results keep job order.
  std::vector<JobResult> results(jobs.size());
  std::vector<std::exception_ptr> failures(jobs.size());
  std::atomic<std::size_t> next{0}, done{0};
  std::mutex progress_mutex;
  auto worker = [&] {
    for (std::size_t i; (i = next++) < jobs.size();) {
      try {
        results[i] = runJob(jobs[i], options, report.compiler_path);
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
