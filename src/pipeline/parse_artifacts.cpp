// `regscope parse`: the collect -> merge -> model pipeline over artifacts
// that already exist, with no compiler run.
#include <filesystem>
#include <map>

#include "regscope/collect/collect.h"
#include "regscope/model/kernel_model.h"
#include "regscope/pipeline/analyze.h"
#include "regscope/support/error.h"
#include "regscope/support/files.h"
#include "regscope/target/amdgpu.h"
#include "regscope/target/cuda.h"
#include "regscope/target/intel.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

enum class Kind { CodeObject, Assembly, RemarksYaml, Log };

Kind sniff(std::string_view bytes) {
  if (bytes.rfind("\x7f" "ELF", 0) == 0 || bytes.rfind("__CLANG_OFFLOAD_BUNDLE__", 0) == 0) return Kind::CodeObject;
  if (bytes.rfind("--- !", 0) == 0) return Kind::RemarksYaml;
  if (bytes.find(".amdgcn_target") != std::string::npos || bytes.find(".amdgpu_metadata") != std::string::npos ||
      bytes.find(".amdhsa_kernel") != std::string::npos)
    return Kind::Assembly;
  return Kind::Log;
}

// Runs a parser, naming the file in any error it raises.
template <typename Parse>
auto inFile(const std::string &file, Parse parse) {
  try {
    return parse();
  } catch (const Error &e) {
    throw Error(file + ": " + e.what());
  }
}

// "<stem>-hip-amdgcn-amd-amdhsa-gfx90a.opt.yaml" names its arch.
std::string archInRecordName(const std::string &file) {
  const std::string name = fs::path(file).filename().string();
  const std::size_t at = name.rfind("-amdgcn-amd-amdhsa-");
  if (at == std::string::npos) return "";
  const std::size_t end = name.find(".opt.yaml");
  return name.substr(at + 19, end == std::string::npos || end < at + 19 ? std::string::npos : end - at - 19);
}

// A log of `--offload-arch=A,B` holds a block per arch for each kernel, and
// no line says which arch a block is for. Identical blocks are one kernel;
// different ones cannot be told apart, so guessing would report one arch's
// figures under another's name.
FactSet oneBlockPerKernel(FactSet remarks) {
  std::vector<KernelFacts> kept;
  std::map<std::string, std::size_t> first;  // name -> index in kept
  for (KernelFacts &facts : remarks.kernels) {
    auto [it, inserted] = first.try_emplace(facts.name, kept.size());
    if (inserted) {
      kept.push_back(std::move(facts));
      continue;
    }
    if (kept[it->second].values != facts.values)
      throw Error("kernel " + facts.name +
                  " has several remark blocks with different figures: the log holds more than one arch "
                  "(--offload-arch=A,B) and does not say which block is which; parse each arch's .s or .opt.yaml "
                  "(hipcc -save-temps) instead");
  }
  remarks.kernels = std::move(kept);
  return remarks;
}

std::vector<FactSet> collectFacts(std::string_view bytes, const std::string &file, const std::string &log_arch,
                                  std::string &producer) {
  std::vector<FactSet> sets;
  switch (sniff(bytes)) {
    case Kind::CodeObject: {
      std::vector<CodeObject> objects = parseCodeObjects(bytes);
      for (CodeObject &co : objects) sets.push_back(std::move(co.facts));
      bool any = false;
      for (const FactSet &set : sets) any |= !set.kernels.empty();
      if (!any) throw Error("no AMDGPU kernels in this file");
      break;
    }
    case Kind::Assembly: {
      AsmFile assembly = parseAsm(bytes);
      producer = assembly.producer;
      sets.push_back(std::move(assembly.facts));
      if (sets.front().kernels.empty()) throw Error("no AMDGPU kernels in this assembly");
      break;
    }
    case Kind::RemarksYaml: {
      const std::string arch = log_arch.empty() ? archInRecordName(file) : log_arch;
      if (arch.empty()) throw Error("the file name does not say the arch; pass --arch");
      sets.push_back(parseRemarkYaml(bytes, arch));
      if (sets.front().kernels.empty()) throw Error("no kernel-resource-usage remarks in this record");
      break;
    }
    case Kind::Log: {
      FactSet remarks = parseRemarkText(bytes, log_arch);
      if (remarks.kernels.empty())
        throw Error("no kernel-resource-usage remarks (compile with -Rpass-analysis=kernel-resource-usage)");
      if (log_arch.empty()) throw Error("remarks do not say which arch they are for; pass --arch (e.g. --arch gfx90a)");
      sets.push_back(oneBlockPerKernel(std::move(remarks)));
      break;
    }
  }
  return sets;
}

// A figure no compiler prints (1e23 VGPRs, an expression that overflows):
// the file is damaged or crafted, and `parse` says so instead of modelling a
// made-up number. (Expressions over symbols defined elsewhere are not
// damage: they stay "unresolved until link".)
void requireReadableFigures(const KernelRecord &record) {
  if (!record.notes.empty()) throw Error("kernel " + record.demangled + ": " + record.notes.front());
  for (const FieldInfo &info : fieldTable()) {
    if (!record.has(info.field)) continue;
    const std::int64_t v = record.value(info.field);
    if (v < 0 || v > kMaxModelFigure)
      throw Error("kernel " + record.demangled + ": " + info.key + " " + std::to_string(v) +
                  " is outside what any target allows");
  }
}

// parse is the user's question about these files: an arch regscope cannot
// model is an error (exit 2), as it is for analyze, not a warning.
void requireKnownArch(const KernelRecord &record) {
  if (record.arch.empty()) throw Error("the file does not say which arch kernel " + record.demangled + " is for");
  switch (record.vendor) {
    case Vendor::Amd:
      if (!findAmdArch(record.arch))
        throw Error("unknown arch '" + record.arch + "' (kernel " + record.demangled + "); known: " + knownArchList());
      return;
    case Vendor::Nvidia:
      if (!findCudaArch(record.arch))
        throw Error("unknown arch '" + record.arch + "' (kernel " + record.demangled +
                    "); known: " + knownCudaArchList());
      return;
    case Vendor::Intel:
      if (!findIntelDevice(record.arch))
        throw Error("unknown Intel device '" + record.arch + "' (kernel " + record.demangled +
                    "); known: " + knownIntelDeviceList());
      return;
  }
}

}  // namespace

Artifact collectArtifact(std::string_view bytes, const std::string &name, const std::string &log_arch) {
  return inFile(name, [&] {
    Artifact artifact;
    artifact.records = mergeFacts(collectFacts(bytes, name, log_arch, artifact.producer));
    for (KernelRecord &record : artifact.records) {
      requireKnownArch(record);
      requireReadableFigures(record);
      if (record.file.empty()) record.file = name;  // code objects and .s name no source
    }
    return artifact;
  });
}

Report parseArtifacts(const std::vector<std::string> &files, const std::string &log_arch,
                      const LaunchOverrides &launch) {
  if (files.empty()) throw Error("no input files");
  if (!log_arch.empty()) requireAmdArch(log_arch);  // "unknown arch 'X'; known: ..."
  Report report;
  for (const std::string &file : files) {
    std::error_code ec;
    if (file.empty()) throw Error("an input file name is empty");
    if (fs::is_directory(file, ec)) throw Error(file + ": is a directory (name the files in it)");
    if (!fs::is_regular_file(file, ec)) throw Error(file + ": no such file");
    Artifact artifact = collectArtifact(readFile(file), file, log_arch);
    if (report.compiler_version.empty()) report.compiler_version = artifact.producer;
    const std::size_t first = report.kernels.size();
    addKernels(report, artifact.records, launch);
    for (std::size_t k = first; k < report.kernels.size(); ++k) report.kernels[k].display_file = report.kernels[k].record.file;
    report.inputs.push_back(file);
  }
  return report;
}

}  // namespace regscope
