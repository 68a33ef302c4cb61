// regscope wrap around nvcc (include/regscope/backends/nvidia/nvcc_wrap.h).
#include "regscope/backends/nvidia/nvcc_wrap.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>

#include "regscope/backends/nvidia/collect.h"
#include "regscope/backends/nvidia/cubin.h"
#include "regscope/source/compile_command.h"
#include "regscope/support/error.h"
#include "regscope/support/symbols.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

std::string baseName(const std::string &path) { return fs::path(path).filename().string(); }

bool startsWith(const std::string &s, std::string_view prefix) { return s.rfind(prefix, 0) == 0; }

// nvcc options whose value is the next word (when not given with '='):
// their values are never sources.
bool takesValue(const std::string &flag) {
  for (const char *f : {"-o",
                        "--output-file",
                        "-x",
                        "--x",
                        "-I",
                        "--include-path",
                        "-isystem",
                        "-D",
                        "--define-macro",
                        "-U",
                        "-include",
                        "--pre-include",
                        "-L",
                        "--library-path",
                        "-l",
                        "--library",
                        "-Xcompiler",
                        "--compiler-options",
                        "-Xptxas",
                        "--ptxas-options",
                        "-Xlinker",
                        "--linker-options",
                        "-Xnvlink",
                        "--nvlink-options",
                        "-Xfatbin",
                        "--fatbin-options",
                        "-Xarchive",
                        "-gencode",
                        "--generate-code",
                        "-arch",
                        "--gpu-architecture",
                        "-code",
                        "--gpu-code",
                        "-ccbin",
                        "--compiler-bindir",
                        "-MF",
                        "--dependency-output",
                        "-MT",
                        "--dependency-target-name",
                        "-MQ",
                        "-std",
                        "--std",
                        "-maxrregcount",
                        "--maxrregcount",
                        "-t",
                        "--threads",
                        "-odir",
                        "--output-directory",
                        "-rdc",
                        "--relocatable-device-code",
                        "-Werror",
                        "-diag-suppress",
                        "--diag-suppress",
                        "-time",
                        "--time",
                        "--keep-dir",
                        "-keep-dir",
                        "-optf",
                        "--options-file",
                        "-split-compile",
                        "--split-compile"})
    if (flag == f) return true;
  return false;
}

// The sm_NN in an -arch / -gencode / -code value, in order.
void collectArchs(std::string_view value, std::vector<std::string> &archs) {
  for (std::size_t at = value.find("sm_"); at != std::string_view::npos; at = value.find("sm_", at + 3)) {
    std::size_t end = at + 3;
    while (end < value.size() && (std::isalnum(static_cast<unsigned char>(value[end])))) ++end;
    if (end == at + 3) continue;
    const std::string arch(value.substr(at, end - at));
    if (std::find(archs.begin(), archs.end(), arch) == archs.end()) archs.push_back(arch);
  }
}

}  // namespace

WrappedCompile readNvccCompileCommand(const std::vector<std::string> &argv) {
  WrappedCompile c;
  c.vendor = Vendor::Nvidia;
  const std::size_t at = compilerPosition(argv);
  if (at >= argv.size()) return c;
  c.compiler = at;
  const std::string compiler = baseName(argv[at]);
  if (compiler != "nvcc" && !startsWith(compiler, "nvcc-") && !startsWith(compiler, "nvcc.")) return c;
  bool compile = false, stop = false, cuda_language = false;
  std::vector<std::string> sources;
  for (std::size_t i = at + 1; i < argv.size(); ++i) {
    const std::string &word = argv[i];
    const std::size_t eq = word.find('=');
    const std::string flag = startsWith(word, "-") && eq != std::string::npos ? word.substr(0, eq) : word;
    std::string value;
    if (startsWith(word, "-") && eq != std::string::npos)
      value = word.substr(eq + 1);
    else if (takesValue(word) && i + 1 < argv.size())
      value = argv[++i];
    if (flag == "-c" || flag == "--compile")
      compile = true;
    else if (flag == "-o" || flag == "--output-file")
      c.object = value;
    else if (flag == "-x" || flag == "--x")
      cuda_language = value == "cu";
    else if (flag == "-arch" || flag == "--gpu-architecture" || flag == "-gencode" || flag == "--generate-code" ||
             flag == "-code" || flag == "--gpu-code")
      collectArchs(value, c.archs);
    else if (flag == "-Xptxas" || flag == "--ptxas-options")
      c.remarks_asked = c.remarks_asked || value == "-v" || value == "--verbose" || value.find("-v,") == 0 ||
                        value.find(",-v") != std::string::npos;
    else if (flag == "--resource-usage" || flag == "-res-usage")
      c.remarks_asked = true;
    else if (flag == "-rdc" || flag == "--relocatable-device-code")
      stop = stop || value == "true";
    else if (flag == "-E" || flag == "--preprocess" || flag == "-M" || flag == "--generate-dependencies" ||
             flag == "-MM" || flag == "--generate-nonsystem-dependencies" || flag == "-ptx" || flag == "--ptx" ||
             flag == "-cubin" || flag == "--cubin" || flag == "-fatbin" || flag == "--fatbin" || flag == "-dc" ||
             flag == "--device-c" || flag == "-dw" || flag == "--device-w" || flag == "-dlink" ||
             flag == "--device-link" || flag == "-lib" || flag == "--lib" || flag == "-run" || flag == "--run" ||
             flag == "-cuda" || flag == "--cuda" || flag == "-optix-ir" || flag == "--optix-ir")
      stop = true;
    else if (!startsWith(word, "-")) {
      const std::string ext = fs::path(word).extension().string();
      if (ext == ".cu" || (cuda_language && (ext == ".cpp" || ext == ".cc" || ext == ".cxx" || ext == ".c")))
        sources.push_back(word);
      else if (ext == ".cpp" || ext == ".cc" || ext == ".cxx" || ext == ".c" || ext == ".C")
        sources.push_back("");  // a host source: not a device compile
    }
  }
  if (!compile || stop || sources.size() != 1 || sources.front().empty() || c.object.empty()) return c;
  c.source = sources.front();
  c.device = true;
  return c;
}

std::string splitPtxasInfo(std::string_view diagnostics, std::string &ptxas) {
  std::string kept;
  bool in_properties = false;  // after "Function properties for F": its "N bytes stack frame" line
  for (std::size_t at = 0; at < diagnostics.size();) {
    const std::size_t nl = diagnostics.find('\n', at);
    const std::size_t end = nl == std::string_view::npos ? diagnostics.size() : nl + 1;
    const std::string_view line = diagnostics.substr(at, end - at);
    at = end;
    const bool info = line.rfind("ptxas info", 0) == 0;
    const bool frame = in_properties && !line.empty() && (line.front() == ' ' || line.front() == '\t') &&
                       line.find(" bytes stack frame, ") != std::string_view::npos;
    if (info || frame) {
      ptxas.append(line);
      in_properties = info && line.find("Function properties for ") != std::string_view::npos;
      continue;
    }
    in_properties = false;
    kept.append(line);
  }
  return kept;
}

CollectedRun collectNvccObject(std::string_view ptxas, std::string_view object, const std::vector<std::string> &archs,
                               const std::string &compiled_source, const SourceReader &read) {
  CollectedRun run;
  std::vector<FactSet> sets = nvidiaBinaryFacts(object, run.producer);
  // ptxas names the arch of each block ("Compiling entry function 'f' for 'sm_90'").
  FactSet fromPtxas = parsePtxas(ptxas, archs.size() == 1 ? archs.front() : "");
  // The figures both give (registers, stack, shared, barriers) come from the
  // cubin; ptxas adds the spill bytes, which a cubin does not record.
  // ptxas names "sm_90a" where CUDA 13's cubin header says sm_90 (its flags do not mark the
  // "a" and "f" targets): the same arch, under the cubin's name.
  auto base = [](std::string arch) {
    while (!arch.empty() && std::isalpha(static_cast<unsigned char>(arch.back()))) arch.pop_back();
    return arch;
  };
  std::vector<KernelFacts> matched;
  for (KernelFacts &k : fromPtxas.kernels) {
    const KernelFacts *cubin = nullptr;
    for (const FactSet &set : sets)
      for (const KernelFacts &c : set.kernels)
        if (!cubin && c.name == k.name && base(c.arch) == base(k.arch)) cubin = &c;
    if (!cubin) continue;  // not in the object (a device function, an arch not kept)
    k.arch = cubin->arch;
    matched.push_back(std::move(k));
  }
  fromPtxas.kernels = std::move(matched);
  for (KernelFacts &k : fromPtxas.kernels) {
    KernelFacts spills;
    static_cast<KernelIdentity &>(spills) = k;
    spills.is_kernel = k.is_kernel;
    for (Field f : {Field::SpillStoreBytes, Field::SpillLoadBytes})
      if (k.get(f)) spills.set(f, *k.get(f));
    k = std::move(spills);
  }
  sets.push_back(std::move(fromPtxas));
  std::vector<KernelRecord> records = mergeFacts(sets);
  // A cubin names no source line: as analyze --cuda-arch does, find each
  // kernel's declaration in the compiled file.
  const std::string text = read(compiled_source).value_or("");
  const int lines = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
  for (KernelRecord &record : records) {
    record.file = compiled_source;
    const int line = findDeclarationLine(text, lines, functionBaseName(record.demangled));
    record.line = line == lines ? 0 : line;
  }
  auto rank = [&](const KernelRecord &r) {
    const auto it = std::find(archs.begin(), archs.end(), r.arch);
    return static_cast<std::size_t>(it - archs.begin());
  };
  std::stable_sort(records.begin(), records.end(), [&](const KernelRecord &a, const KernelRecord &b) {
    return std::make_pair(rank(a), a.line) < std::make_pair(rank(b), b.line);
  });
  run.records = std::move(records);
  return run;
}

}  // namespace regscope
