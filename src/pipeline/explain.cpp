// explain and analyze --lines: analyzeJobs keeping the .s, then the isa stage.
#include "regscope/pipeline/explain.h"

#include <filesystem>
#include <optional>
#include <sstream>

#include "jobs.h"
#include "regscope/support/error.h"
#include "regscope/support/files.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> splitLines(const std::string &text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The path as the user reads it: the kernel's own file as the report shows
// it, others relative to the working directory when below it.
std::string displayOf(const std::string &path, const KernelReport &kernel) {
  std::error_code ec;
  if (fs::equivalent(path, kernel.record.file, ec)) return kernel.display_file;
  fs::path rel = fs::path(path).lexically_relative(fs::current_path(ec));
  if (!ec && !rel.empty() && *rel.begin() != "..") return rel.string();
  return path;
}

}  // namespace

// The source files the function's lines name, read once each, and the file
// most of its instructions count for (jobs.h: explain_cubin.cpp reads them too).
void readSources(KernelIsa &kernel, const KernelReport &report_kernel) {
  const IsaFunction &function = *kernel.get();
  std::map<int, int> instructions;
  for (const LinePressure &line : function.lines) {
    if (line.file < 0) continue;
    instructions[line.file] += line.instructions;
    if (kernel.sources.count(line.file)) continue;
    const std::string path = kernel.isa->files[line.file].path();
    SourceText &text = kernel.sources[line.file];
    text.display = displayOf(path, report_kernel);
    std::error_code ec;
    if (fs::equivalent(path, report_kernel.record.file, ec)) kernel.kernel_file = line.file;
    try {
      text.lines = splitLines(readFileIfExists(path).value_or(""));
    } catch (const Error &) {
      // a directory or an unreadable header: its lines without their text
    }
  }
  int most = 0;
  for (const auto &[file, count] : instructions)
    if (count > most) most = count, kernel.main_file = file;
}

namespace {

// The arch's .s (AMD) or cubin (NVIDIA) read once, shared by its kernels; one
// that cannot be read is a note.
struct ReadAssembly {
  std::shared_ptr<const IsaReport> isa;
  std::string error;
};

// The isa stage over one arch's kept output: AMD's .s through LLVM's MC
// layer, NVIDIA's cubin through nvdisasm's liveness and line table.
// `nvdisasm` is looked for on the first NVIDIA arch and kept for the others.
ReadAssembly readArch(const ArchOutput &output, Vendor vendor, const AnalyzeOptions &options,
                      std::optional<std::string> &nvdisasm) {
  ReadAssembly read;
  try {
    if (vendor == Vendor::Amd) {
      read.isa = std::make_shared<const IsaReport>(analyzeAmdgpuAssembly(output.assembly, output.arch));
    } else {
      if (!nvdisasm) nvdisasm = findNvdisasm(findNvcc(options.compiler));
      if (nvdisasm->empty()) throw Error("nvdisasm (CUDA's full toolkit) is not installed here");
      if (output.device_code.empty()) throw Error("the compile kept no cubin");
      const CubinListing listing = disassembleCubin(*nvdisasm, output.device_code, options.timeout_seconds);
      read.isa = std::make_shared<const IsaReport>(joinNvdisasm(listing.life_ranges, listing.line_info));
    }
  } catch (const Error &e) {
    read.error = e.what();
  }
  return read;
}

}  // namespace

ExplainedReport explainJobs(const std::vector<SourceJob> &jobs, AnalyzeOptions options) {
  options.keep_assembly = true;  // and line tables: compileJobFor adds the vendor's flag
  KeptAssembly kept;
  ExplainedReport out;
  out.report = analyzeJobs(jobs, options, &kept);
  std::map<std::pair<std::size_t, std::string>, ReadAssembly> read;  // (job, arch)
  std::optional<std::string> nvdisasm;
  for (std::size_t k = 0; k < out.report.kernels.size(); ++k) {
    const KernelRecord &record = out.report.kernels[k].record;
    KernelIsa kernel;
    if (record.vendor == Vendor::Intel) {
      kernel.missing =
          "per-line registers are read for AMD (the .s) and NVIDIA (nvdisasm) kernels; Intel's "
          "would come from IGC's shader dump (docs/explain.md)";
      out.kernels.push_back(std::move(kernel));
      continue;
    }
    const std::size_t job = k < kept.kernel_job.size() ? kept.kernel_job[k] : 0;
    const std::vector<ArchOutput> &archs = job < kept.per_job.size() ? kept.per_job[job] : std::vector<ArchOutput>{};
    const ArchOutput *output = nullptr;
    for (const ArchOutput &a : archs)
      if (a.arch == record.arch || (!output && archs.size() == 1)) output = &a;
    auto [slot, fresh] = read.try_emplace({job, output ? output->arch : record.arch});
    if (fresh && output) slot->second = readArch(*output, record.vendor, options, nvdisasm);
    kernel.isa = slot->second.isa;
    if (kernel.isa)
      for (std::size_t f = 0; f < kernel.isa->functions.size(); ++f)
        if (kernel.isa->functions[f].name == record.name) kernel.function = static_cast<int>(f);
    const char *what = record.vendor == Vendor::Amd ? ".s" : "cubin";
    if (kernel.get()) {
      readSources(kernel, out.report.kernels[k]);
    } else {
      kernel.missing = !slot->second.error.empty()
                           ? std::string("its ") + what + " could not be read: " + slot->second.error
                       : output ? std::string("its ") + what + " has no function " + record.name
                                : std::string("the compile kept no ") + what + " for " + record.arch;
    }
    out.kernels.push_back(std::move(kernel));
  }
  return out;
}

}  // namespace regscope
