// NVIDIA cubins, fatbins and host objects read without a compiler
// (src/backends/nvidia/cubin.cpp). The expected figures are the CUDA driver's
// (fixtures/triton/truth.json: cuFuncGetAttribute and
// cuOccupancyMaxActiveBlocksPerMultiprocessor on an H100) and the text of
// cuobjdump -res-usage and ptxas -v written beside each fixture; the tests
// read them, nothing is restated here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>

#include "regscope/backends/nvidia/cubin.h"
#include "regscope/backends/nvidia/nvcc_wrap.h"
#include "regscope/pipeline/analyze.h"
#include "regscope/support/error.h"
#include "regscope/target/cuda.h"
#include "test_util.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::find;
using test::fixture;
using test::sourcePath;

const KernelFacts *findIn(const NvidiaBinary &binary, const std::string &arch, const std::string &name) {
  for (const Cubin &c : binary.cubins)
    if (c.arch == arch)
      if (const KernelFacts *k = find(c.facts, name)) return k;
  return nullptr;
}

// cuobjdump -res-usage's figures: (arch, kernel) -> {"REG": n, "STACK": n, ...}. A bare
// cubin's text names no arch: `arch` is used.
std::map<std::pair<std::string, std::string>, std::map<std::string, long>> resUsage(const std::string &text,
                                                                                    std::string arch) {
  std::map<std::pair<std::string, std::string>, std::map<std::string, long>> out;
  std::istringstream in(text);
  std::string line, kernel;
  while (std::getline(in, line)) {
    if (line.rfind("arch = ", 0) == 0) arch = line.substr(7);
    if (line.rfind(" Function ", 0) == 0) {
      kernel = line.substr(10, line.size() - 11);  // " Function NAME:"
      continue;
    }
    if (kernel.empty()) continue;
    std::istringstream items(line);
    for (std::string item; items >> item;) {
      const std::size_t colon = item.rfind(':');
      out[{arch, kernel}][item.substr(0, colon)] = std::stol(item.substr(colon + 1));
    }
    kernel.clear();
  }
  return out;
}

json truth() { return json::parse(fixture("triton/truth.json")); }

// The cubin a truth.json entry was measured on.
std::string cubinOf(const json &entry) {
  const std::string variant = entry.at("variant");
  if (variant == "nvcc") return sourcePath("fixtures/triton/nvcc/cuda_probe.sm_90.cubin");
  const std::string dir = sourcePath("fixtures/triton/" + variant + "-sm_90");
  for (const auto &sub : fs::directory_iterator(dir)) {
    const fs::path meta = sub.path() / (entry.at("name").get<std::string>() + ".json");
    if (fs::exists(meta) && json::parse(test::readText(meta.string())).at("hash") == entry.at("metadata").at("hash"))
      return (sub.path() / (entry.at("name").get<std::string>() + ".cubin")).string();
  }
  return "";
}

// Every (cubin, kernel, launch) the driver was asked about: fixtures/triton/truth.json
// (Triton's caches and cuda_probe.cu, H100) and fixtures/cubin/truth.json (cubin_probe.cu, H200).
struct Measured {
  std::string cubin;
  json entry;
};
std::vector<Measured> measured() {
  std::vector<Measured> out;
  const json triton = truth(), probe = json::parse(fixture("cubin/truth.json"));
  for (const json &entry : triton.at("kernels"))
    if (entry.contains("driver")) out.push_back({cubinOf(entry), entry});
  for (const json &entry : probe.at("kernels"))
    out.push_back({sourcePath("fixtures/cubin/cubin_probe.sm_90.cubin"), entry});
  return out;
}

TEST(Cubin, RegistersStackAndStaticSharedEqualTheCudaDriver) {
  int checked = 0;
  for (const auto &[path, entry] : measured()) {
    ASSERT_FALSE(path.empty()) << entry.at("name");
    const std::string bytes = test::readText(path);
    const NvidiaBinary binary = readNvidiaBinary(bytes);
    ASSERT_EQ(binary.cubins.size(), 1u);
    const KernelFacts *k = find(binary.cubins[0].facts, entry.at("name"));
    ASSERT_NE(k, nullptr) << path;
    const json &driver = entry.at("driver");
    EXPECT_EQ(k->get(Field::Registers), driver.at("num_regs").get<long>()) << path << " " << k->name;
    EXPECT_EQ(k->get(Field::StackBytes), driver.at("local_size_bytes").get<long>()) << path << " " << k->name;
    EXPECT_EQ(k->get(Field::SharedBytes), driver.at("shared_size_bytes").get<long>()) << path << " " << k->name;
    EXPECT_TRUE(k->is_kernel);
    ++checked;
  }
  EXPECT_EQ(checked, 11 + 36 + 20);  // Triton's launches, cuda_probe's and cubin_probe's (kernel, launch) pairs
}

// The walk tells its caller of each fatbin entry once read (parse's progress
// line and the pages it drops behind it): in order, one after the other, every
// entry of an executable's .nv_fatbin and of a compressed fatbin.
TEST(Cubin, TheWalkTellsOfEachEntryInOrder) {
  for (const char *file : {"fixtures/cubin/cubin_probe.exe", "fixtures/cubin/cubin_probe.compressed.fatbin"}) {
    const std::string bytes = test::readText(sourcePath(file));
    std::vector<std::string_view> told;
    const NvidiaBinary binary =
        readNvidiaBinary(bytes, /*keep_images=*/false, [&](std::string_view entry) { told.push_back(entry); });
    ASSERT_FALSE(binary.cubins.empty()) << file;
    ASSERT_GE(told.size(), binary.cubins.size() + binary.ptx_entries) << file;
    for (std::size_t i = 0; i < told.size(); ++i) {
      ASSERT_GE(told[i].data(), bytes.data()) << file;
      ASSERT_LE(told[i].data() + told[i].size(), bytes.data() + bytes.size()) << file;
      if (i > 0) EXPECT_GE(told[i].data(), told[i - 1].data() + told[i - 1].size()) << file << " entry " << i;
    }
    EXPECT_EQ(binary.cubins.size(), readNvidiaBinary(bytes).cubins.size()) << file;  // the same read without it
    if (std::string(file).find(".fatbin") != std::string::npos) {  // one container: its entries back to back
      EXPECT_EQ(told.front().data(), bytes.data() + 16);           // after the container's header
      EXPECT_EQ(told.back().data() + told.back().size(), bytes.data() + bytes.size());
      for (std::size_t i = 1; i < told.size(); ++i) EXPECT_EQ(told[i].data(), told[i - 1].data() + told[i - 1].size());
    }
  }
}

TEST(Cubin, OccupancyEqualsTheDriverAtTheLaunchItWasMeasuredAt) {
  int checked = 0;
  for (const auto &[path, entry] : measured()) {
    const json &driver = entry.at("driver");
    LaunchOverrides launch;
    launch.block_size = driver.at("launch_block_size").get<int>();
    launch.dynamic_shared = driver.at("launch_dynamic_shared").get<int>();
    const Report report = parseArtifacts({path}, "", launch);
    const KernelReport *kernel = nullptr;
    for (const KernelReport &k : report.kernels)
      if (k.record.name == entry.at("name")) kernel = &k;
    ASSERT_NE(kernel, nullptr);
    ASSERT_NE(std::get_if<CudaKernelModel>(&kernel->model), nullptr);
    // The driver's occupancy calculator is not told __launch_bounds__ (docs/cuda-occupancy.md): above
    // the kernel's own max threads (the driver's attribute) the launch fails, and regscope says 0.
    const bool launchable = *launch.block_size <= driver.at("max_threads_per_block").get<int>();
    EXPECT_EQ(std::get_if<CudaKernelModel>(&kernel->model)->occupancy.blocks_per_sm,
              launchable ? driver.at("blocks_per_sm").get<int>() : 0)
        << kernel->record.name << " at " << *launch.block_size << " threads, " << launch.dynamic_shared
        << " bytes of dynamic shared memory";
    ++checked;
  }
  EXPECT_EQ(checked, 11 + 36 + 20);
}

// Every cubin, fatbin and host object with cuobjdump's text beside it: registers, stack,
// constant bank 0, and static shared memory (cuobjdump's SHARED includes the 1 KiB the
// driver reserves where the cubin lays it out, on sm_90; regscope reports the driver's
// figure without it, as ptxas -v and cuFuncGetAttribute do).
TEST(Cubin, FiguresEqualCuobjdumpResUsage) {
  int checked = 0;
  for (const auto &entry : fs::recursive_directory_iterator(sourcePath("fixtures"))) {
    const std::string path = entry.path().string();
    const std::string suffix = ".res-usage.txt";
    if (path.size() <= suffix.size() || path.compare(path.size() - suffix.size(), suffix.size(), suffix) != 0) continue;
    const std::string artifact = path.substr(0, path.size() - suffix.size());
    const std::string bytes = test::readText(artifact);
    const NvidiaBinary binary = readNvidiaBinary(bytes);
    std::string bare_arch = binary.cubins.empty() ? "" : binary.cubins[0].arch;
    if (bare_arch.back() == 'a') bare_arch.pop_back();  // cuobjdump names sm_90a's arch sm_90
    for (const auto &[key, figures] : resUsage(test::readText(path), bare_arch)) {
      const KernelFacts *k = findIn(binary, key.first, key.second);
      if (!k) k = findIn(binary, key.first + "a", key.second);
      ASSERT_NE(k, nullptr) << artifact << ": " << key.first << " " << key.second;
      // A relocatable (-rdc) object's device functions other than kernels: cuobjdump prints them with
      // REG:0 before the device link; regscope reads figures of kernels only.
      if (!k->is_kernel && binary.cubins[0].relocatable) continue;
      EXPECT_EQ(k->get(Field::Registers), figures.at("REG")) << artifact << " " << key.second;
      EXPECT_EQ(k->get(Field::StackBytes), figures.at("STACK")) << artifact << " " << key.second;
      EXPECT_EQ(k->get(Field::ConstantBytes), figures.at("CONSTANT[0]")) << artifact << " " << key.second;
      // The reservation is laid out by the device link: a relocatable cubin's SHARED lacks it.
      const long reserved =
          key.first == "sm_90" && figures.at("SHARED") > 0 && !binary.cubins[0].relocatable ? 1024 : 0;
      EXPECT_EQ(k->get(Field::SharedBytes), figures.at("SHARED") - reserved) << artifact << " " << key.second;
      ++checked;
    }
  }
  EXPECT_GE(checked, 60);
}

// ptxas -v of the same source and arch names the same registers, stack, shared memory and barriers.
TEST(Cubin, FiguresEqualPtxasVerbose) {
  int checked = 0;
  for (const auto &[cubin, text] : {std::pair<std::string, std::string>{"triton/nvcc/cuda_probe.sm_90.cubin",
                                                                        "triton/nvcc/cuda_probe.sm_90.stderr.txt"},
                                    {"cubin/cubin_probe.sm_90.cubin", "cubin/cubin_probe.sm_90.ptxas-v.txt"}}) {
    const NvidiaBinary binary = readNvidiaBinary(fixture(cubin));
    std::istringstream log(fixture(text));
    std::string line, kernel;
    while (std::getline(log, line)) {
      const std::string lead = "Compiling entry function '";
      if (std::size_t at = line.find(lead); at != std::string::npos) {
        kernel = line.substr(at + lead.size(), line.find('\'', at + lead.size()) - at - lead.size());
        continue;
      }
      long frame = 0, stores = 0, loads = 0, registers = 0, barriers = 0;
      if (!kernel.empty() && std::sscanf(line.c_str(),
                                         " %ld bytes stack frame, %ld bytes spill stores, %ld bytes "
                                         "spill loads",
                                         &frame, &stores, &loads) == 3) {
        const KernelFacts *k = find(binary.cubins.at(0).facts, kernel);
        ASSERT_NE(k, nullptr) << kernel;
        EXPECT_EQ(k->get(Field::StackBytes), frame) << kernel;
        EXPECT_FALSE(k->get(Field::SpillStoreBytes)) << "a cubin does not record spill bytes: unknown, not 0";
        ++checked;
      }
      if (!kernel.empty() && std::sscanf(line.c_str(), "ptxas info    : Used %ld registers, used %ld barriers",
                                         &registers, &barriers) == 2) {
        const KernelFacts *k = find(binary.cubins.at(0).facts, kernel);
        EXPECT_EQ(k->get(Field::Registers), registers) << kernel;
        EXPECT_EQ(k->get(Field::Barriers), barriers) << kernel;
        const std::size_t smem = line.find(" bytes smem");
        const std::size_t from = smem == std::string::npos ? 0 : line.rfind(' ', smem - 1) + 1;
        EXPECT_EQ(k->get(Field::SharedBytes), smem == std::string::npos ? 0 : std::stol(line.substr(from, smem - from)))
            << kernel;
        kernel.clear();
      }
    }
  }
  EXPECT_EQ(checked, 12 + 5);
}

TEST(Cubin, ArchFromTheElfFlagsOfBothAbiVersions) {
  // CUDA 13's ptxas writes ELF ABI v2 (the SM in bits 8-15), Triton 3.6's CUDA 12 ptxas v1
  // (the SM in the low byte, and the "a" targets' accelerator flag).
  EXPECT_EQ(readNvidiaBinary(fixture("triton/nvcc/cuda_probe.sm_90.cubin")).cubins.at(0).arch, "sm_90");
  EXPECT_EQ(readNvidiaBinary(fixture("triton/nvcc/cuda_probe.sm_80.cubin")).cubins.at(0).arch, "sm_80");
  const std::string triton =
      fixture("triton/cache-sm_90/7AUBJ5JZAVRCOUTBLPCY5WOVYSC4C7E3VKLPQZK4OEJH3SULYXWQ/add_kernel.cubin");
  EXPECT_EQ(readNvidiaBinary(triton).cubins.at(0).arch, "sm_90a");
  EXPECT_EQ(readNvidiaBinary(fixture("triton/nvcc/cuda_probe.sm_90.cubin")).cubins.at(0).producer,
            "Cuda compilation tools, release 13.0, V13.0.88");
}

// Triton's kernels carry .reqntid: num_warps x 32 of their metadata.
TEST(Cubin, RequiredBlockSizeIsTritonsLaunch) {
  int checked = 0;
  for (const auto &entry : fs::recursive_directory_iterator(sourcePath("fixtures/triton/cache-sm_90"))) {
    if (entry.path().extension() != ".cubin") continue;
    const json meta = json::parse(test::readText(fs::path(entry.path()).replace_extension(".json").string()));
    const NvidiaBinary binary = readNvidiaBinary(test::readText(entry.path().string()));
    const KernelFacts *k = find(binary.cubins.at(0).facts, meta.at("name"));
    ASSERT_NE(k, nullptr);
    EXPECT_EQ(k->get(Field::RequiredBlockSize), meta.at("num_warps").get<long>() * 32) << entry.path();
    EXPECT_EQ(k->get(Field::MaxThreadsPerBlock), k->get(Field::RequiredBlockSize));
    ++checked;
  }
  EXPECT_EQ(checked, 6);
}

// __launch_bounds__(N): EIATTR_MAX_THREADS; the driver's max threads is N where registers allow it.
TEST(Cubin, LaunchBoundsFromMaxThreads) {
  const NvidiaBinary binary = readNvidiaBinary(fixture("triton/nvcc/cuda_probe.sm_90.cubin"));
  const json measured = truth();
  for (const json &entry : measured.at("kernels")) {
    if (entry.at("variant") != "nvcc") continue;
    const KernelFacts *k = find(binary.cubins.at(0).facts, entry.at("name"));
    ASSERT_NE(k, nullptr);
    const long driver = entry.at("driver").at("max_threads_per_block");
    if (k->get(Field::MaxThreadsPerBlock)) EXPECT_GE(*k->get(Field::MaxThreadsPerBlock), driver) << k->name;
    if (driver < 1024 && *k->get(Field::Registers) <= 64)  // not limited by registers: the bound itself
      EXPECT_EQ(k->get(Field::MaxThreadsPerBlock), driver) << k->name;
  }
  EXPECT_EQ(find(binary.cubins.at(0).facts, "_Z9use_constPf")->get(Field::MaxThreadsPerBlock), std::nullopt);
  EXPECT_EQ(find(binary.cubins.at(0).facts, "_Z9use_constPf")->get(Field::MinBlocksPerSm), std::nullopt)
      << "a cubin does not record __launch_bounds__'s min blocks";
}

TEST(Cubin, FatbinHoldsEachArchsCubinAndNotesPtx) {
  const NvidiaBinary fatbin = readNvidiaBinary(fixture("triton/nvcc/cuda_probe.fatbin"));
  ASSERT_EQ(fatbin.cubins.size(), 2u);
  EXPECT_EQ(fatbin.cubins[0].arch, "sm_80");
  EXPECT_EQ(fatbin.cubins[1].arch, "sm_90");
  EXPECT_EQ(fatbin.ptx_entries, 1u);
  EXPECT_EQ(fatbin.decompressed_cubins, 0u);
  ASSERT_EQ(fatbin.notes.size(), 1u);
  EXPECT_NE(fatbin.notes[0].find("PTX for compute_90 (compressed)"), std::string::npos) << fatbin.notes[0];
  // The same cubins inside the host object nvcc -c wrote (.nv_fatbin).
  const NvidiaBinary object = readNvidiaBinary(fixture("triton/nvcc/cuda_probe.o"));
  ASSERT_EQ(object.cubins.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) EXPECT_EQ(object.cubins[i].facts.kernels.size(), 12u);
  EXPECT_TRUE(isNvidiaBinary(fixture("triton/nvcc/cuda_probe.o")));
  EXPECT_TRUE(isNvidiaBinary(fixture("triton/nvcc/cuda_probe.fatbin")));
  EXPECT_FALSE(isNvidiaBinary(fixture("hipcc-5.2.3/probe-host.o")));  // AMD's host object: read as before
  EXPECT_FALSE(isNvidiaBinary(fixture("hipcc-5.2.3/probe-gfx90a.hsaco")));
}

// Compressed entries (fixtures/cubin/compress/README.md): nvcc 13's zstd (--compress-mode=size,
// -Xfatbin=-compress-all) and LZ4 (--compress-mode=speed) decompress to a cubin of the size and
// the figures, kernel by kernel, of the one the uncompressed fatbin of the same compile holds;
// FiguresEqualCuobjdumpResUsage checks cubin_probe.compressed.fatbin's figures against cuobjdump.
TEST(Cubin, CompressedEntriesDecompressToTheCubinNvccWrote) {
  const NvidiaBinary plain = readNvidiaBinary(fixture("cubin/compress/cubin_probe.none.fatbin"));
  ASSERT_EQ(plain.cubins.size(), 1u);
  EXPECT_EQ(plain.decompressed_cubins, 0u);
  const std::string expected(plain.cubins[0].image);
  for (const char *file : {"cubin/compress/cubin_probe.size.fatbin", "cubin/compress/cubin_probe.speed.fatbin",
                           "cubin/cubin_probe.compressed.fatbin"}) {
    const std::string bytes = fixture(file);
    const NvidiaBinary kept = readNvidiaBinary(bytes, /*keep_images=*/true);
    ASSERT_EQ(kept.cubins.size(), 1u) << file;
    EXPECT_EQ(kept.decompressed_cubins, 1u) << file;
    EXPECT_EQ(kept.cubins[0].image.size(), expected.size()) << file;  // the entry header's decompressed size
    EXPECT_EQ(kept.cubins[0].image.substr(0, 4),
              "\x7f"
              "ELF")
        << file;
    // Without keep_images (parse), the figures are the same and no image is held.
    const NvidiaBinary read = readNvidiaBinary(bytes);
    EXPECT_TRUE(read.cubins.at(0).image.empty()) << file;
    ASSERT_EQ(read.cubins[0].facts.kernels.size(), plain.cubins[0].facts.kernels.size()) << file;
    for (std::size_t k = 0; k < read.cubins[0].facts.kernels.size(); ++k)
      EXPECT_EQ(read.cubins[0].facts.kernels[k].values, plain.cubins[0].facts.kernels[k].values) << file;
  }
  // A host object whose .nv_fatbin holds two archs' cubins as zstd frames.
  const NvidiaBinary object = readNvidiaBinary(fixture("cubin/compress/cubin_probe.size.o"));
  ASSERT_EQ(object.cubins.size(), 2u);
  EXPECT_EQ(object.decompressed_cubins, 2u);
  EXPECT_EQ(object.cubins[0].arch, "sm_80");
  EXPECT_EQ(object.cubins[1].arch, "sm_90");
}

// A compressed entry that does not decompress to the size its header says is an error naming the
// entry, never a figure.
TEST(Cubin, DamagedCompressedEntryIsAnError) {
  for (const char *file : {"cubin/compress/cubin_probe.size.fatbin", "cubin/compress/cubin_probe.speed.fatbin"}) {
    const std::string good = fixture(file);
    std::string damaged = good;
    for (std::size_t at = 16 + 64 + 40; at < 16 + 64 + 200; ++at) damaged[at] = '\x55';  // inside the payload
    try {
      readNvidiaBinary(damaged);
      ADD_FAILURE() << file << ": a damaged payload gave figures";
    } catch (const Error &e) {
      EXPECT_NE(std::string(e.what()).find("fatbin entry 0 (sm_90 cubin)"), std::string::npos) << e.what();
    }
    std::string huge = good;
    const std::uint64_t claim = std::uint64_t{1} << 40;  // the decompressed size, at +56 of the entry header
    std::memcpy(&huge[16 + 56], &claim, 8);
    EXPECT_THROW(readNvidiaBinary(huge), Error) << file;
    std::string longer = good;  // a decompressed size 8 bytes past what the data holds
    const std::uint64_t more = 16616 + 8;
    std::memcpy(&longer[16 + 56], &more, 8);
    EXPECT_THROW(readNvidiaBinary(longer), Error) << file;
    std::string past = good;
    const std::uint32_t packed = 1u << 20;  // the compressed size, at +16, beyond the payload
    std::memcpy(&past[16 + 16], &packed, 4);
    EXPECT_THROW(readNvidiaBinary(past), Error) << file;
  }
}

TEST(Cubin, DamagedInputIsAnErrorNeverAFigure) {
  const std::string fatbin = fixture("triton/nvcc/cuda_probe.fatbin");
  EXPECT_THROW(readNvidiaBinary(fatbin.substr(0, fatbin.size() / 2)), Error);  // truncated
  const std::string cubin = fixture("triton/nvcc/cuda_probe.sm_90.cubin");
  EXPECT_THROW(readNvidiaBinary(cubin.substr(0, 100)), Error);
  // An .nv.info record whose size runs past its section (the first record's u16 size, made huge).
  std::string damaged = cubin;
  const std::size_t at = damaged.find(std::string("\x04\x2f\x08\x00", 4));
  ASSERT_NE(at, std::string::npos);
  damaged[at + 2] = '\xff';
  damaged[at + 3] = '\x7f';
  EXPECT_THROW(readNvidiaBinary(damaged), Error);
}

// Replaces every NUL-bounded occurrence of `from` in a cubin's string tables by `to` (same length).
std::string renamed(std::string bytes, const std::string &from, const std::string &to) {
  const std::string needle = std::string(1, '\0') + from + std::string(1, '\0');
  std::size_t count = 0;
  for (std::size_t at = bytes.find(needle); at != std::string::npos; at = bytes.find(needle, at + 1), ++count)
    bytes.replace(at + 1, from.size(), to);
  EXPECT_GT(count, 0u) << from;
  return bytes;
}

// issue 30: a kernel symbol that matches none of its sections is reported,
// its figures unknown, never dropped. Made here from the real sm_90 cubin:
// its section `.text._Z9use_constPf` renamed `.uext._Z9use_constPf` (one byte).
TEST(Cubin, AKernelSymbolWithoutItsTextSectionIsReportedUnknown) {
  const std::string cubin = fixture("triton/nvcc/cuda_probe.sm_90.cubin");
  const NvidiaBinary real = readNvidiaBinary(cubin);
  ASSERT_EQ(real.cubins.size(), 1u);
  const KernelFacts *control = findIn(real, "sm_90", "_Z9use_constPf");
  ASSERT_NE(control, nullptr);
  ASSERT_TRUE(control->get(Field::Registers));
  const NvidiaBinary edited = readNvidiaBinary(renamed(cubin, ".text._Z9use_constPf", ".uext._Z9use_constPf"));
  ASSERT_EQ(edited.cubins.size(), 1u);
  EXPECT_EQ(edited.cubins.front().facts.kernels.size(), real.cubins.front().facts.kernels.size());
  const KernelFacts *k = findIn(edited, "sm_90", "_Z9use_constPf");
  ASSERT_NE(k, nullptr);
  EXPECT_FALSE(k->get(Field::Registers));
  EXPECT_FALSE(k->get(Field::SharedBytes));
  EXPECT_NE(std::find(k->missing.begin(), k->missing.end(), Field::Registers), k->missing.end());
  ASSERT_EQ(k->warnings.size(), 1u);
  EXPECT_NE(k->warnings.front().find("matches no .text._Z9use_constPf"), std::string::npos) << k->warnings.front();
}

// issue 30: two sections of one kernel's name cannot be told apart: refused,
// never one kernel's shared memory given to the other (or 0). Made here from
// the real sm_90 cubin: the section header of `.nv.shared._Z13max_wide_bothPKdS0_Pdi`
// given the name of `.nv.shared._Z12max_baselinePKdS0_Pdi` (its sh_name, one
// 4-byte field, pointed at the other's string; ELF64 little-endian offsets).
TEST(Cubin, TwoSectionsOfOneKernelsNameAreRefused) {
  std::string cubin = fixture("triton/nvcc/cuda_probe.sm_90.cubin");
  ASSERT_NO_THROW(readNvidiaBinary(cubin));
  auto u16 = [&](std::size_t at) { return std::uint16_t(std::uint8_t(cubin[at]) | std::uint8_t(cubin[at + 1]) << 8); };
  auto u32 = [&](std::size_t at) { return std::uint32_t(u16(at)) | std::uint32_t(u16(at + 2)) << 16; };
  auto u64 = [&](std::size_t at) { return std::uint64_t(u32(at)) | std::uint64_t(u32(at + 4)) << 32; };
  const std::uint64_t shoff = u64(0x28);
  const std::uint16_t shentsize = u16(0x3a), shnum = u16(0x3c), shstrndx = u16(0x3e);
  const std::uint64_t strings = u64(shoff + shstrndx * shentsize + 0x18);  // .shstrtab's sh_offset
  std::size_t target = 0, keep = 0;
  for (std::size_t i = 0; i < shnum; ++i) {
    const std::size_t header = shoff + i * shentsize;
    const std::string name = cubin.c_str() + strings + u32(header);
    if (name == ".nv.shared._Z13max_wide_bothPKdS0_Pdi") target = header;
    if (name == ".nv.shared._Z12max_baselinePKdS0_Pdi") keep = header;
  }
  ASSERT_TRUE(target && keep);
  cubin.replace(target, 4, cubin.substr(keep, 4));  // the edit: sh_name := the other's
  try {
    readNvidiaBinary(cubin);
    ADD_FAILURE() << "two .nv.shared sections of one name were read";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("two sections named .nv.shared._Z12max_baselinePKdS0_Pdi"), std::string::npos)
        << e.what();
  }
}

// issue 30: a host object holding .hip_fatbin and .nv_fatbin gives both
// vendors' kernels (fixtures/cubin/README.md: the two real objects' sections
// in one file), each the same as read from its own object.
TEST(Cubin, AHostObjectWithBothVendorsFatbinsGivesBothVendorsKernels) {
  const Report amd = parseArtifacts({sourcePath("fixtures/hipcc-5.2.3/probe-host.o")}, "");
  const Report nvidia = parseArtifacts({sourcePath("fixtures/triton/nvcc/cuda_probe.o")}, "");
  const Report both = parseArtifacts({sourcePath("fixtures/cubin/both-vendors-host.o")}, "");
  ASSERT_FALSE(amd.kernels.empty());
  ASSERT_FALSE(nvidia.kernels.empty());
  auto figures = [](const Report &report) {
    std::map<std::pair<std::string, std::string>, FieldValues> out;
    for (const KernelReport &k : report.kernels) out[{k.record.arch, k.record.name}] = k.record.values;
    return out;
  };
  auto expected = figures(amd);
  for (const auto &entry : figures(nvidia)) expected.insert(entry);
  EXPECT_EQ(both.kernels.size(), amd.kernels.size() + nvidia.kernels.size());
  EXPECT_EQ(figures(both), expected);
}

// parse picks the reader by the bytes: a fatbin and a host object give their kernels per arch.
TEST(Cubin, ParseReadsFatbinsAndHostObjects) {
  for (const char *file : {"fixtures/triton/nvcc/cuda_probe.fatbin", "fixtures/triton/nvcc/cuda_probe.o"}) {
    const Report report = parseArtifacts({sourcePath(file)}, "");
    EXPECT_EQ(report.kernels.size(), 24u) << file;  // 12 kernels, sm_80 and sm_90
    EXPECT_EQ(report.compiler_version, "Cuda compilation tools, release 13.0, V13.0.88");
    for (const KernelReport &k : report.kernels) {
      EXPECT_EQ(k.record.vendor, Vendor::Nvidia);
      EXPECT_TRUE(k.record.arch == "sm_80" || k.record.arch == "sm_90") << k.record.arch;
    }
  }
}

// ptxas -v's registers per (arch, kernel) of one log: the fixture's truth.
std::map<std::pair<std::string, std::string>, long> ptxasRegisters(const std::string &text) {
  std::map<std::pair<std::string, std::string>, long> out;
  std::istringstream log(text);
  std::string line, kernel, arch;
  for (long registers = 0; std::getline(log, line);) {
    const std::string lead = "Compiling entry function '";
    if (std::size_t at = line.find(lead); at != std::string::npos) {
      const std::size_t end = line.find('\'', at + lead.size());
      kernel = line.substr(at + lead.size(), end - at - lead.size());
      const std::size_t open = line.find('\'', end + 1);
      arch = line.substr(open + 1, line.find('\'', open + 1) - open - 1);
    } else if (std::sscanf(line.c_str(), "ptxas info    : Used %ld registers", &registers) == 1) {
      out[{arch, kernel}] = registers;
    }
  }
  return out;
}

// CUDA 13 (ELF ABI v2) gives sm_90a the e_flags of sm_90: the suffix is in
// .nv.compat. libtorch_cuda.so's 247 sm_90a kernels were read as sm_90 and
// merged into that arch's records.
TEST(Cubin, ArchSuffixOfCuda13IsReadFromNvCompat) {
  const Report report = parseArtifacts({sourcePath("fixtures/nvcc-13.0/copies/libcopies.so")}, "");
  std::set<std::string> archs;
  for (const KernelReport &k : report.kernels) archs.insert(k.record.arch);
  EXPECT_EQ(archs, (std::set<std::string>{"sm_80", "sm_90a"}));
}

// A library whose translation units hold one kernel name compiled two ways
// (libtorch_cuda.so: 39 such kernels) keeps each compile's figures; copies
// that agree are one record. Before, the two were merged and every differing
// figure became unknown ("cubin says 92, cubin says 122").
TEST(Cubin, TwoCompilesOfOneKernelInALibraryAreTwoRecords) {
  auto truth = ptxasRegisters(fixture("nvcc-13.0/copies/a.ptxas.txt"));
  auto wide = ptxasRegisters(fixture("nvcc-13.0/copies/b.ptxas.txt"));
  const Report report = parseArtifacts({sourcePath("fixtures/nvcc-13.0/copies/libcopies.so")}, "");
  std::map<std::pair<std::string, std::string>, std::vector<std::pair<std::string, long>>> got;
  for (const KernelReport &k : report.kernels)
    got[{k.record.arch, k.record.name}].push_back(
        {fs::path(k.record.file).filename().string(), k.record.value(Field::Registers)});
  int compared = 0;
  for (const auto &[key, registers] : truth) {
    const auto &records = got[key];
    if (registers == wide.at(key)) {
      ASSERT_EQ(records.size(), 1u) << key.second << " " << key.first << ": alike in both cubins, one record";
      EXPECT_EQ(records[0].second, registers);
    } else {
      ASSERT_EQ(records.size(), 2u) << key.second << " " << key.first;
      std::set<long> seen{records[0].second, records[1].second};
      EXPECT_EQ(seen, (std::set<long>{registers, wide.at(key)})) << key.second;
      EXPECT_EQ(records[0].first, "libcopies.so");
      EXPECT_EQ(records[1].first, "libcopies.so#2") << "the second compile is told apart by its location";
    }
    ++compared;
  }
  EXPECT_EQ(compared, 4);  // two kernels on two archs
  for (const std::string &w : report.warnings) EXPECT_EQ(w.find("disagree"), std::string::npos) << w;
}

// An arch without an occupancy table beside known ones (libtorch_cuda.so's
// sm_121a cubin among 2,789) is one line with its count; a file whose every
// kernel is for such an arch stays an error.
TEST(Cubin, AnArchWithoutATableInALibraryIsOneLineNotAnError) {
  const Report report = parseArtifacts({sourcePath("fixtures/nvcc-13.0/copies/libcopies.so")}, "");
  int lines = 0;
  for (const std::string &w : report.warnings)
    if (w.find("no occupancy table") != std::string::npos) {
      ++lines;
      EXPECT_EQ(w.rfind("sm_88: no occupancy table (3 kernels, the first ", 0), 0u) << w;
    }
  EXPECT_EQ(lines, 1);
  for (const KernelReport &k : report.kernels) EXPECT_NE(k.record.arch, "sm_88");
  try {
    parseArtifacts({sourcePath("fixtures/nvcc-13.0/copies/a.sm_88.cubin")}, "");
    ADD_FAILURE() << "a cubin of an arch without a table parsed";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("unknown arch 'sm_88'"), std::string::npos) << e.what();
  }
}

TEST(NvccWrap, DeviceCompilesAreSingleCudaSourcesToAnObject) {
  auto read = [](std::vector<std::string> argv) { return readNvccCompileCommand(argv); };
  // CMake's CUDA language, as it runs nvcc
  WrappedCompile cmake = read({"ccache", "/usr/local/cuda/bin/nvcc", "-forward-unknown-to-host-compiler", "-O3",
                               "--generate-code=arch=compute_90,code=[compute_90,sm_90]", "-MD", "-MT",
                               "CMakeFiles/x.dir/main.cu.o", "-MF", "CMakeFiles/x.dir/main.cu.o.d", "-x", "cu", "-c",
                               "/src/main.cu", "-o", "CMakeFiles/x.dir/main.cu.o"});
  EXPECT_TRUE(cmake.device);
  EXPECT_EQ(cmake.vendor, Vendor::Nvidia);
  EXPECT_EQ(cmake.compiler, 1u);
  EXPECT_EQ(cmake.source, "/src/main.cu");
  EXPECT_EQ(cmake.object, "CMakeFiles/x.dir/main.cu.o");
  EXPECT_EQ(cmake.archs, (std::vector<std::string>{"sm_90"}));
  EXPECT_FALSE(cmake.remarks_asked);
  EXPECT_TRUE(read({"nvcc", "-c", "a.cu", "-o", "a.o", "-Xptxas", "-v"}).remarks_asked);
  EXPECT_TRUE(read({"nvcc", "-c", "a.cu", "-o", "a.o", "--resource-usage"}).remarks_asked);
  EXPECT_EQ(read({"nvcc", "-gencode", "arch=compute_80,code=sm_80", "-gencode", "arch=compute_90,code=sm_90", "-c",
                  "a.cu", "-o", "a.o"})
                .archs,
            (std::vector<std::string>{"sm_80", "sm_90"}));
  // not device compiles: figures only at the device link, no object, host code, other outputs
  EXPECT_FALSE(read({"nvcc", "-c", "-rdc=true", "a.cu", "-o", "a.o"}).device);
  EXPECT_FALSE(read({"nvcc", "-dc", "a.cu", "-o", "a.o"}).device);
  EXPECT_FALSE(read({"nvcc", "a.o", "b.o", "-o", "app"}).device);
  EXPECT_FALSE(read({"nvcc", "-c", "host.cpp", "-o", "host.o"}).device);
  EXPECT_FALSE(read({"nvcc", "-cubin", "a.cu", "-o", "a.cubin"}).device);
  EXPECT_FALSE(read({"nvcc", "-E", "a.cu", "-o", "a.ii"}).device);
  EXPECT_FALSE(read({"g++", "-c", "a.cu", "-o", "a.o"}).device);
  EXPECT_TRUE(read({"nvcc", "-x", "cu", "-c", "a.cpp", "-o", "a.o"}).device);
}

TEST(NvccWrap, PtxasInfoLinesAreTakenOutAndTheRestKeptByteForByte) {
  const std::string log = fixture("triton/nvcc/cuda_probe.sm_90.stderr.txt");
  const std::string other = "a.cu(3): warning #177-D: variable \"x\" was declared but never referenced\n\n";
  std::string ptxas;
  EXPECT_EQ(splitPtxasInfo(other + log + other, ptxas), other + other);
  EXPECT_EQ(ptxas, log);
}

// An nvcc compile under wrap: the object's cubins give the figures, ptxas -v the spill bytes of its
// arch (the log here is sm_90's; the sm_80 cubin's spills stay unknown, never 0).
TEST(NvccWrap, ObjectCubinsJoinedWithPtxasSpills) {
  const std::string source = sourcePath("fixtures/src/cuda_probe.cu");
  const CollectedRun run = collectNvccObject(
      fixture("triton/nvcc/cuda_probe.sm_90.stderr.txt"), fixture("triton/nvcc/cuda_probe.o"), {"sm_80", "sm_90"},
      source, [](const std::string &path) -> std::optional<std::string> { return test::readText(path); });
  EXPECT_EQ(run.producer, "Cuda compilation tools, release 13.0, V13.0.88");
  ASSERT_EQ(run.records.size(), 24u);
  for (const KernelRecord &r : run.records) {
    EXPECT_EQ(r.file, source);
    EXPECT_GT(r.line, 0) << r.name;
    if (r.arch == "sm_80") {
      EXPECT_FALSE(r.has(Field::SpillStoreBytes)) << r.name;
      continue;
    }
    ASSERT_TRUE(r.has(Field::SpillStoreBytes)) << r.name;
    EXPECT_EQ(r.sources, (std::vector<std::string>{"cubin", "ptxas"})) << r.name;
    if (r.name == "_Z12spill_cappedPK6float4PS_i") {
      EXPECT_EQ(r.value(Field::SpillStoreBytes), 1032);  // the log's "1032 bytes spill stores"
      EXPECT_EQ(r.value(Field::StackBytes), 656);
    }
  }
}

}  // namespace
}  // namespace regscope
