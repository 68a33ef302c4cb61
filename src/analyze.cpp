#include "regscope/analyze.h"

#include <unistd.h>

#include <filesystem>
#include <map>
#include <sstream>

#include "regscope/arch.h"
#include "regscope/collect.h"
#include "regscope/error.h"

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

Report analyzeFiles(const std::vector<std::string> &files, const AnalyzeOptions &options) {
  if (files.empty()) throw Error("no input files");
  for (const std::string &arch : options.archs)
    if (!findAmdArch(arch)) throw Error("unknown arch '" + arch + "'; known: " + knownArchList());
  for (const std::string &file : files) checkReadable(file);

  Report report;
  report.compiler_path = findHipCompiler(options.compiler);
  for (const std::string &file : files) {
    CompileJob job;
    job.compiler = report.compiler_path;
    job.source = fs::absolute(file).lexically_normal().string();
    job.archs = options.archs;
    job.extra_flags = options.extra_flags;
    CompileOutput output = compileHip(job);
    if (output.exit_code != 0)
      throw Error(fs::path(report.compiler_path).filename().string() + " failed on " + file +
                  " (exit " + std::to_string(output.exit_code) + "):\n" + firstErrors(output.diagnostics));
    if (output.archs.empty())
      throw Error(file + ": the compiler wrote no device assembly (is it a HIP source?)");

    std::vector<KernelRecord> records = collectRecords(output, job.source, report.compiler_version);
    std::map<std::string, std::string> inputs = {{job.source, file}};
    for (KernelRecord &record : records) {
      for (const std::string &w : record.warnings)
        report.warnings.push_back(record.demangled + " [" + record.arch + "]: sources disagree on " + w);
    }
    const std::size_t first = report.kernels.size();
    addKernels(report, records);
    for (std::size_t i = first; i < report.kernels.size(); ++i)
      report.kernels[i].display_file = displayPath(report.kernels[i].record.file, inputs);
    report.inputs.push_back(file);
  }
  return report;
}

}  // namespace regscope
