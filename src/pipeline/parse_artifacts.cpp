// `regscope parse`: the collect -> merge -> model pipeline over artifacts
// that already exist, with no compiler run.
#include <filesystem>

#include "regscope/collect/collect.h"
#include "regscope/pipeline/analyze.h"
#include "regscope/support/error.h"
#include "regscope/support/files.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

enum class Kind { CodeObject, Assembly, RemarksYaml, Log };

Kind sniff(const std::string &bytes) {
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

}  // namespace

Report parseArtifacts(const std::vector<std::string> &files, const std::string &log_arch,
                      const LaunchOverrides &launch) {
  if (files.empty()) throw Error("no input files");
  Report report;
  for (const std::string &file : files) {
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) throw Error(file + ": no such file");
    const std::string bytes = readFile(file);
    std::vector<FactSet> sets;
    switch (sniff(bytes)) {
      case Kind::CodeObject: {
        std::vector<CodeObject> objects = inFile(file, [&] { return parseCodeObjects(bytes); });
        for (CodeObject &co : objects) sets.push_back(std::move(co.facts));
        bool any = false;
        for (const FactSet &set : sets) any |= !set.kernels.empty();
        if (!any) throw Error(file + ": no AMDGPU kernels in this file");
        break;
      }
      case Kind::Assembly: {
        AsmFile assembly = inFile(file, [&] { return parseAsm(bytes); });
        if (report.compiler_version.empty()) report.compiler_version = assembly.producer;
        sets.push_back(std::move(assembly.facts));
        if (sets.front().kernels.empty()) throw Error(file + ": no AMDGPU kernels in this assembly");
        break;
      }
      case Kind::RemarksYaml: {  // "<stem>-hip-amdgcn-amd-amdhsa-gfx90a.opt.yaml" names its arch
        std::string arch = log_arch;
        const std::string name = fs::path(file).filename().string();
        const std::size_t at = name.rfind("-amdgcn-amd-amdhsa-");
        if (arch.empty() && at != std::string::npos)
          arch = name.substr(at + 19, name.find(".opt.yaml") == std::string::npos ? std::string::npos
                                                                                  : name.find(".opt.yaml") - at - 19);
        if (arch.empty()) throw Error(file + ": the file name does not say the arch; pass --arch");
        sets.push_back(inFile(file, [&] { return parseRemarkYaml(bytes, arch); }));
        if (sets.front().kernels.empty()) throw Error(file + ": no kernel-resource-usage remarks in this record");
        break;
      }
      case Kind::Log: {
        FactSet remarks = parseRemarkText(bytes, log_arch);
        if (remarks.kernels.empty())
          throw Error(file + ": no kernel-resource-usage remarks (compile with -Rpass-analysis=kernel-resource-usage)");
        if (log_arch.empty())
          throw Error(file + ": remarks do not say which arch they are for; pass --arch (e.g. --arch gfx90a)");
        sets.push_back(std::move(remarks));
        break;
      }
    }
    std::vector<KernelRecord> records = mergeFacts(sets);
    for (KernelRecord &record : records)
      if (record.file.empty()) record.file = file;  // code objects and .s name no source
    const std::size_t first = report.kernels.size();
    addKernels(report, records, launch);
    for (std::size_t k = first; k < report.kernels.size(); ++k) report.kernels[k].display_file = report.kernels[k].record.file;
    report.inputs.push_back(file);
  }
  return report;
}

}  // namespace regscope
