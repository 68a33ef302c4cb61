// Drives CUDA's nvcc once per source file, in a private temporary directory.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <future>

#include "regscope/backends/nvidia/driver.h"
#include "regscope/driver/driver.h"
#include "regscope/support/depfile.h"
#include "regscope/support/error.h"
#include "regscope/support/files.h"
#include "regscope/support/process.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

std::string computeName(const std::string &arch) {  // "sm_90a" -> "compute_90a"
  return "compute_" + arch.substr(arch.find('_') + 1);
}

// Where a CUDA tool may be, in order: on PATH, then each of `beside` (a
// resolved tool's own directory), $CUDA_PATH/bin, /usr/local/cuda/bin.
std::vector<std::string> cudaToolPlaces(const std::string &tool, const std::vector<std::string> &beside = {}) {
  std::vector<std::string> places = {tool};
  for (const std::string &dir : beside) places.push_back((fs::path(dir) / tool).string());
  if (const char *cuda = std::getenv("CUDA_PATH"); cuda && *cuda) places.push_back(std::string(cuda) + "/bin/" + tool);
  places.push_back("/usr/local/cuda/bin/" + tool);
  return places;
}

std::string firstFound(const std::vector<std::string> &places) {
  for (const std::string &place : places)
    if (std::string found = searchPath(place); !found.empty()) return found;
  return "";
}

}  // namespace

std::string findNvcc(const std::string &explicit_path) {
  if (!explicit_path.empty()) return requireExecutable(explicit_path, "--compiler " + explicit_path);
  const std::vector<std::string> places = cudaToolPlaces("nvcc");
  if (std::string found = firstFound(places); !found.empty()) return found;
  std::string where;
  for (const std::string &place : places)
    where += (where.empty() ? "" : ", ") + (place == "nvcc" ? "nvcc on PATH" : place);
  throw Error("compiler not found: no nvcc (looked at " + where + "; pass --compiler or set CUDA_PATH)");
}

CompileOutput compileCuda(const CompileJob &job) {
  TempDir dir;
  CompileOutput out;
  const bool rdc = std::find(job.extra_flags.begin(), job.extra_flags.end(), "-rdc=true") != job.extra_flags.end() ||
                   std::find(job.extra_flags.begin(), job.extra_flags.end(), "--relocatable-device-code=true") !=
                       job.extra_flags.end();
  // --fatbin compiles the device side alone (cicc, ptxas, fatbinary): with -c,
  // cudafe++ and the host compiler run too, for no figure. The device link of
  // -rdc takes the fatbin as it takes an object.
  const bool full = job.depth == CompileDepth::Full;
  const std::string object = (fs::path(dir.path()) / (full ? "regscope.o" : "regscope.fatbin")).string();
  const std::string deps = (fs::path(dir.path()) / "regscope.deps").string();
  out.argv = {job.compiler, full ? "-c" : "--fatbin", "--keep", "--keep-dir", dir.path(), "-Xptxas", "-v,-warn-spills"};
  for (const std::string &arch : job.archs) out.argv.push_back("-gencode=arch=" + computeName(arch) + ",code=" + arch);
  out.argv.insert(out.argv.end(), job.extra_flags.begin(), job.extra_flags.end());
  if (job.dependencies)
    for (const std::string &flag : {std::string("-MD"), std::string("-MF"), deps}) out.argv.push_back(flag);
  for (const std::string &flag : {std::string("-o"), object}) out.argv.push_back(flag);
  out.argv.push_back(job.source);

  const ProcessOutput run = runCaptured(out.argv, dir.path(), job.timeout_seconds, dir.asTmpdir());
  out.exit_code = run.exit_code;
  out.diagnostics = run.out + run.err;
  out.dependencies = parseDependencyFile(readFileIfExists(deps).value_or(""));
  if (out.exit_code != 0) return out;

  const std::string stem = fs::path(job.source).stem().string();
  for (const std::string &arch : job.archs) {
    // --keep names each arch's files "<stem>.compute_90.ptx" (and .cubin), or
    // "<stem>.ptx" when there is one arch.
    auto kept = [&](const char *extension) {
      const std::string per_arch = dir.path() + "/" + stem + "." + computeName(arch) + extension;
      const std::string single = dir.path() + "/" + stem + extension;
      return readFileIfExists(fs::exists(per_arch) || job.archs.size() > 1 ? per_arch : single).value_or("");
    };
    ArchOutput result;
    result.arch = arch;
    result.assembly = kept(".ptx");
    if (job.keep_device_code) result.device_code = kept(".cubin");
    if (rdc) {  // the final figures exist only after the device link
      std::vector<std::string> link = {job.compiler,
                                       "-dlink",
                                       "--resource-usage",
                                       "-arch=" + arch,
                                       object,
                                       "-o",
                                       dir.path() + "/regscope.dlink." + arch + ".o"};
      const ProcessOutput linked = runCaptured(link, dir.path(), job.timeout_seconds, dir.asTmpdir());
      result.link_report = linked.err;  // nvlink reports on stderr
      if (linked.exit_code != 0) {
        out.exit_code = linked.exit_code;
        out.diagnostics += result.link_report;
        return out;
      }
    }
    out.archs.push_back(std::move(result));
  }
  return out;
}

std::string findNvdisasm(const std::string &nvcc) {
  std::vector<std::string> beside;
  if (!nvcc.empty()) beside.push_back(fs::path(nvcc).parent_path().string());
  return firstFound(cudaToolPlaces("nvdisasm", beside));
}

CubinListing disassembleCubin(const std::string &nvdisasm, const std::string &cubin, int timeout_seconds,
                              bool life_ranges_wanted) {
  TempDir dir;
  const std::string file = (fs::path(dir.path()) / "kernel.cubin").string();
  writeFileAtomically(file, cubin);
  auto run = [&](const char *view) {
    const std::vector<std::string> argv = {nvdisasm, "-c", view, file};
    ProcessOutput out = runCaptured(argv, dir.path(), timeout_seconds, dir.asTmpdir());
    if (out.exit_code != 0) {
      const std::string &said = out.err.empty() ? out.out : out.err;
      throw Error("nvdisasm " + std::string(view) + " failed (exit " + std::to_string(out.exit_code) +
                  "): " + said.substr(0, said.find('\n')));
    }
    return std::move(out.out);
  };
  CubinListing listing;
  if (!life_ranges_wanted) {
    listing.line_info = run("-gi");
    return listing;
  }
  // The two runs side by side: each is most of explain's time on a large kernel.
  std::future<std::string> life_ranges = std::async(std::launch::async, run, "-plr");
  listing.line_info = run("-gi");
  try {
    listing.life_ranges = life_ranges.get();
  } catch (const Error &e) {
    listing.life_ranges_error = e.what();
  }
  return listing;
}

}  // namespace regscope
