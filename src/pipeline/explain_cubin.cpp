// explain on NVIDIA binaries that already exist: a cubin, a fatbin, or a host
// object/executable with .nv_fatbin (include/regscope/pipeline/explain.h).
// The figures are parse's; per line, nvdisasm's liveness (-c -plr) joined with
// its line table (-c -gi) of each cubin, as explain --cuda-arch reads the
// cubin of its own compile. Without nvdisasm: one line, exit 2.
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include "jobs.h"
#include "regscope/backends/nvidia/cubin.h"
#include "regscope/backends/nvidia/driver.h"
#include "regscope/backends/nvidia/isa.h"
#include "regscope/pipeline/explain.h"
#include "regscope/support/error.h"
#include "regscope/support/files.h"
#include "regscope/support/plural.h"
#include "regscope/support/process.h"

namespace regscope {

bool isNvidiaArtifact(const std::string &file) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) return false;
  try {
    const MappedFile mapped(file);
    return isNvidiaBinary(mapped.bytes());
  } catch (const Error &) {
    return false;
  }
}

namespace {

// Each file's cubins through nvdisasm once, by (file, arch): a kernel takes
// the listing of its arch's cubin. `arches` limits which are read (empty: all).
struct CubinListings {
  std::map<std::pair<std::string, std::string>, std::shared_ptr<const IsaReport>> read;
  std::map<std::pair<std::string, std::string>, std::string> failures;
};

// `liveness` false: nvdisasm -gi alone (loop_spills needs no -plr, the costlier run).
CubinListings listCubins(const std::set<std::pair<std::string, std::string>> &wanted, const std::string &nvdisasm,
                         int timeout_seconds, bool liveness) {
  CubinListings out;
  std::set<std::string> files;
  for (const auto &key : wanted) files.insert(key.first);
  for (const std::string &file : files) {
    std::optional<MappedFile> mapped;
    NvidiaBinary binary;
    try {
      mapped.emplace(file);
      binary = readNvidiaBinary(mapped->bytes(), /*keep_images=*/true);
    } catch (const Error &e) {
      for (const auto &key : wanted)
        if (key.first == file) out.failures[key] = e.what();
      continue;
    }
    for (const Cubin &cubin : binary.cubins) {
      const auto key = std::make_pair(file, cubin.arch);
      if (!wanted.count(key) || out.read.count(key) || out.failures.count(key)) continue;
      throwIfInterrupted();
      // CUDA 13's nvdisasm does no flow analysis on CUDA 12's cubins (ELF ABI v1: Triton 3.x's).
      auto hinted = [&](std::string said) {
        if (cubin.abi_version == 7 &&
            (said.find("Old format") != std::string::npos || said.find("flow analysis") != std::string::npos))
          said +=
              "; the cubin was written by CUDA 12 or older (ELF ABI v1), which CUDA 13's nvdisasm "
              "cannot analyse: put that toolkit's nvdisasm first on PATH (Triton ships one in "
              "triton/backends/nvidia/bin)";
        return said;
      };
      try {
        CubinListing listing = disassembleCubin(nvdisasm, std::string(cubin.image), timeout_seconds, liveness);
        if (!listing.life_ranges_error.empty()) listing.life_ranges_error = hinted(listing.life_ranges_error);
        out.read[key] = std::make_shared<const IsaReport>(liveness ? readCubinListing(listing)
                                                                   : readNvdisasmListing(listing.line_info));
      } catch (const Error &e) {
        out.failures[key] = hinted(e.what());
      }
    }
  }
  return out;
}

const IsaFunction *functionNamed(const IsaReport &isa, const std::string &name) {
  for (const IsaFunction &f : isa.functions)
    if (f.name == name) return &f;
  return nullptr;
}

}  // namespace

std::string installedNvdisasm() { return findNvdisasm(""); }

void readNvidiaLoopSpills(Report &report, const std::string &nvdisasm, int timeout_seconds) {
  std::set<std::pair<std::string, std::string>> wanted;
  auto needs = [](const KernelRecord &r) {
    // stack_bytes is an NVIDIA figure (fields.def): the cubin readers set it.
    return !r.has(Field::LoopSpills) && r.has(Field::StackBytes) && r.value(Field::StackBytes) > 0;
  };
  for (const KernelReport &k : report.kernels)
    if (needs(k.record)) wanted.insert({k.record.file, k.record.arch});
  if (wanted.empty()) return;
  const CubinListings listings = listCubins(wanted, nvdisasm, timeout_seconds, /*liveness=*/false);
  std::size_t unread = 0;
  for (KernelReport &k : report.kernels) {
    if (!needs(k.record)) continue;
    auto it = listings.read.find({k.record.file, k.record.arch});
    const IsaFunction *f = it == listings.read.end() ? nullptr : functionNamed(*it->second, k.record.name);
    if (f && f->spill_totals.loops_known) {
      k.record.values[static_cast<std::size_t>(Field::LoopSpills)] = f->spill_totals.in_loops;
      k.record.loop_spill_site = firstLoopSpill(*it->second, *f);
    } else
      ++unread;
  }
  if (unread > 0)
    report.warnings.push_back("loop_spills of " + plural(unread, "NVIDIA kernel", "NVIDIA kernels") +
                              " with local memory not read: nvdisasm could not list " +
                              (unread == 1 ? "its cubin or its branches" : "their cubins or their branches") +
                              (listings.failures.empty() ? "" : " (" + listings.failures.begin()->second + ")"));
}

ExplainedReport explainNvidiaArtifacts(const std::vector<std::string> &files, const std::string &nvdisasm,
                                       const LaunchOverrides &launch, int timeout_seconds) {
  if (nvdisasm.empty())
    throw Error(
        "explain on a cubin needs nvdisasm (CUDA's full toolkit), which is not on PATH, beside nvcc or in "
        "/usr/local/cuda/bin; `regscope parse` gives the figures without it");
  ExplainedReport out;
  out.report = parseArtifacts(files, "", launch);
  // The cubins parse read a kernel from: each through nvdisasm once.
  std::set<std::pair<std::string, std::string>> wanted;
  for (const KernelReport &k : out.report.kernels) wanted.insert({k.record.file, k.record.arch});
  const CubinListings listed = listCubins(wanted, nvdisasm, timeout_seconds, /*liveness=*/true);
  const auto &listings = listed.read;
  const auto &failures = listed.failures;
  for (KernelReport &kernel_report : out.report.kernels) {
    const KernelRecord &record = kernel_report.record;
    KernelIsa kernel;
    const auto key = std::make_pair(record.file, record.arch);
    if (auto it = listings.find(key); it != listings.end()) {
      kernel.isa = it->second;
      for (std::size_t f = 0; f < kernel.isa->functions.size(); ++f)
        if (kernel.isa->functions[f].name == record.name) kernel.function = static_cast<int>(f);
    }
    if (kernel.get())
      readSources(kernel, kernel_report);
    else if (auto it = failures.find(key); it != failures.end())
      kernel.missing = "its cubin could not be read by nvdisasm: " + it->second;
    else if (auto it = listings.find(key); it != listings.end() && !it->second->notes.empty())
      // -plr failed and -gi listed nothing of it: why -plr failed is the reason to give.
      kernel.missing =
          "nvdisasm's listing of its cubin has no function " + record.name + ": " + it->second->notes.front();
    else
      kernel.missing = "nvdisasm's listing of its cubin has no function " + record.name;
    out.kernels.push_back(std::move(kernel));
  }
  return out;
}

}  // namespace regscope
