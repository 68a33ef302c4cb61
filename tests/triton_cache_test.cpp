// Triton caches (fixtures/triton/, real Triton 3.6 output: fixtures/triton/README.md)
// and directories read by parse: every kernel with the code object's figures,
// Triton's launch (num_warps x warp size, `shared` as dynamic LDS), a key that
// survives the cache hash, and bad entries failing closed.
//
// Expected figures come from the artifacts themselves, read here without
// regscope: the .amdgcn's own `.amdgpu_metadata` block (the code object's
// metadata, as the compiler wrote it), the metadata JSON, and truth.json (the
// CUDA driver's figures, recorded on the H100).
#include <gtest/gtest.h>

#include <unistd.h>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "regscope/backends/triton/triton_cache.h"
#include "regscope/gate/gate.h"
#include "regscope/gate/gate_run.h"
#include "regscope/pipeline/explain.h"
#include "regscope/pipeline/parse_tree.h"
#include "regscope/support/error.h"
#include "regscope/support/messages.h"
#include "test_util.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;
using namespace test;
using nlohmann::json;

std::string cacheDir(const std::string &name) { return sourcePath("fixtures/triton/" + name); }

// `.key: value` of the named kernel's block in the .amdgcn's .amdgpu_metadata YAML.
std::map<std::string, long> metadataBlock(const std::string &amdgcn_path) {
  const std::string text = readText(amdgcn_path);
  const std::size_t begin = text.find(".amdgpu_metadata");
  const std::size_t kernels = text.find("amdhsa.kernels:", begin);
  std::map<std::string, long> values;
  std::istringstream in(text.substr(kernels, text.find(".end_amdgpu_metadata", kernels) - kernels));
  for (std::string line; std::getline(in, line);) {
    const std::size_t dot = line.find_first_not_of(" -");
    if (dot == std::string::npos || line[dot] != '.') continue;
    const std::size_t colon = line.find(':', dot);
    if (colon == std::string::npos) continue;
    const std::string key = line.substr(dot + 1, colon - dot - 1);
    const std::string value = line.substr(colon + 1);
    if (key == "args") continue;
    try {
      std::size_t used = 0;
      const long v = std::stol(value, &used);
      if (!values.count(key)) values[key] = v;  // the kernel's own keys come before its args' .size/.offset
    } catch (const std::exception &) {
    }
  }
  return values;
}

// The number after `key` in the compiler's text (".amdhsa_next_free_vgpr 257", "; Occupancy: 1").
long printedNumber(const std::string &text, const std::string &key) {
  const std::size_t at = text.find(key);
  if (at == std::string::npos) throw std::runtime_error("no " + key);
  return std::stol(text.substr(text.find_first_of("0123456789", at + key.size())));
}

json metadataOf(const std::string &code_path) {
  const fs::path p(code_path);
  return json::parse(readText((p.parent_path() / (p.stem().string() + ".json")).string()));
}

// Cache entries: directories holding a kernel's metadata (cache-squeezed-sm_90
// also holds the IR of a compile ptxas refused, with no metadata: no entry).
std::size_t entriesIn(const std::string &dir) {
  std::size_t n = 0;
  for (const auto &e : fs::directory_iterator(dir)) {
    if (!e.is_directory()) continue;
    bool meta = false;
    for (const auto &f : fs::directory_iterator(e.path()))
      meta |= f.path().extension() == ".json" && f.path().filename().string().rfind("__grp__", 0) != 0;
    n += meta;
  }
  return n;
}

class TritonTree : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("regscope-triton-test-" + std::to_string(::getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  fs::path root_;
};

TEST(TritonCache, AmdEntriesHaveTheCodeObjectsFiguresAndTritonsLaunch) {
  for (const std::string cache : {"cache-gfx942", "cache-gfx950", "cache-squeezed-gfx942", "cache-wpe1-gfx942",
                                  "cache-wpe1-gfx950", "cache-wpe2-gfx942"}) {
    const ParsedInputs parsed = parseInputs({cacheDir(cache)}, {});
    const Report &report = parsed.report;
    ASSERT_TRUE(report.errors.empty()) << cache << ": " << report.errors.front().message;
    EXPECT_EQ(report.kernels.size(), entriesIn(cacheDir(cache))) << cache;
    EXPECT_EQ(parsed.walk.triton_entries, entriesIn(cacheDir(cache)));
    for (const KernelReport &k : report.kernels) {
      SCOPED_TRACE(cache + " " + k.record.file);
      ASSERT_TRUE(k.record.triton);
      const std::map<std::string, long> md = metadataBlock(k.record.file);
      const json meta = metadataOf(k.record.file);
      EXPECT_EQ(k.record.name, meta["name"].get<std::string>());
      EXPECT_EQ(k.record.arch, meta["target"]["arch"].get<std::string>());
      // What the code uses is the metadata's; the allocation is the descriptor's, larger when the compiler
      // padded it for waves_per_eu: then the hardware reads it in granules of 8 VGPRs (gfx942/gfx950,
      // AMDGPUUsage.rst COMPUTE_PGM_RSRC1), and the VGPRs limit occupancy to what the compiler printed.
      EXPECT_EQ(k.record.value(Field::VgprsUsed), md.at("vgpr_count"));
      const std::string amdgcn = readText(k.record.file);
      const long next_free = printedNumber(amdgcn, ".amdhsa_next_free_vgpr");
      if (next_free > md.at("vgpr_count")) {
        EXPECT_EQ(k.record.value(Field::VgprsTotal), (next_free + 7) / 8 * 8);
        EXPECT_EQ(k.summary.level, printedNumber(amdgcn, "; Occupancy:"));
      } else {
        EXPECT_EQ(k.record.value(Field::VgprsTotal), md.at("vgpr_count"));
      }
      EXPECT_EQ(k.record.value(Field::Sgprs), md.at("sgpr_count"));
      EXPECT_EQ(k.record.value(Field::ScratchBytes), md.at("private_segment_fixed_size"));
      EXPECT_EQ(k.record.value(Field::VgprSpills), md.at("vgpr_spill_count"));
      EXPECT_EQ(k.record.value(Field::SgprSpills), md.at("sgpr_spill_count"));
      EXPECT_EQ(k.record.value(Field::LdsBytes), md.at("group_segment_fixed_size"));
      EXPECT_EQ(k.record.value(Field::MaxWorkgroupSize), md.at("max_flat_workgroup_size"));
      // Triton's launch: num_warps x the target's warp size, its `shared` as dynamic LDS.
      const int block = meta["num_warps"].get<int>() * meta["target"]["warp_size"].get<int>();
      EXPECT_EQ(k.launch.block_size, block);
      EXPECT_EQ(k.launch.source, BlockSizeSource::TritonMetadata);
      EXPECT_EQ(k.launch.dynamic_shared, meta["shared"].get<int>());
      EXPECT_EQ(k.record.triton->num_stages, meta["num_stages"].get<int>());
      EXPECT_EQ(k.record.triton->waves_per_eu, meta["waves_per_eu"].get<int>());
      EXPECT_EQ(k.record.triton->kpack, meta["kpack"].get<int>());
      EXPECT_EQ(k.record.triton->matrix_instr_nonkdim, meta["matrix_instr_nonkdim"].get<int>());
      EXPECT_EQ(k.record.triton->version, meta["triton_version"].get<std::string>());
      EXPECT_EQ(k.record.triton->python_file, "/regscope/triton/kernels.py");
      EXPECT_NE(k.record.triton->python_line, 0);
      EXPECT_NE(k.summary.limiter, Limiter::Unknown);
    }
  }
}

// Hand-derived from the hardware rules (docs/design.md, "The occupancy model"):
// gfx942 matmul_kernel at BLOCK 256x256x64, num_warps 4: 512 VGPRs allocated
// (the unified file: 256 arch + 256 AGPRs) of the SIMD's 512 -> 1 wave/SIMD,
// whatever the 32 KiB of dynamic LDS allows (64 KiB per CU: 2 workgroups of 4
// waves = 2 waves/SIMD).
TEST(TritonCache, Gfx942Matmul256IsLimitedByItsVgprsAtTritonsLaunch) {
  const Report report = parseInputs({cacheDir("cache-gfx942")}, {}).report;
  const KernelReport *big = nullptr;
  for (const KernelReport &k : report.kernels)
    if (k.record.name == "matmul_kernel" && k.record.triton->num_warps == 4) big = &k;
  ASSERT_TRUE(big);
  ASSERT_TRUE(std::get_if<AmdKernelModel>(&big->model));
  EXPECT_EQ(big->launch.dynamic_shared, 32768);
  EXPECT_EQ(std::get_if<AmdKernelModel>(&big->model)->occupancy.waves_per_simd, 1);
  EXPECT_EQ(std::get_if<AmdKernelModel>(&big->model)->occupancy.limiter, Limiter::Vgpr);
  EXPECT_EQ(std::get_if<AmdKernelModel>(&big->model)->occupancy.by_lds, 2);
}

// NVIDIA: each Triton cubin read through the cubin reader, at the launch
// Triton makes, equals the CUDA driver on the H100 (truth.json): registers,
// local (stack) bytes, static shared memory, and blocks per SM at num_warps x 32
// threads with `shared` bytes of dynamic shared memory (the opt-in above 48 KiB).
TEST(TritonCache, NvidiaEntriesEqualTheCudaDriverAtTritonsLaunch) {
  const json truth = json::parse(fixture("triton/truth.json"));
  for (const std::string variant : {"cache", "cache-squeezed"}) {
    const Report report = parseInputs({cacheDir(variant + "-sm_90")}, {}).report;
    ASSERT_TRUE(report.errors.empty()) << report.errors.front().message;
    ASSERT_EQ(report.kernels.size(), entriesIn(cacheDir(variant + "-sm_90")));
    int compared = 0;
    for (const json &t : truth["kernels"]) {
      if (t["variant"] != variant || t["target"] != "sm_90" || !t.contains("driver")) continue;
      const json &driver = t["driver"];
      for (const KernelReport &k : report.kernels) {
        if (k.record.triton->hash != t["metadata"]["hash"]) continue;
        SCOPED_TRACE(variant + " " + t["spec"].get<std::string>());
        ASSERT_TRUE(std::get_if<CudaKernelModel>(&k.model));
        EXPECT_EQ(k.launch.block_size, driver["launch_block_size"].get<int>());
        EXPECT_EQ(k.launch.dynamic_shared, driver["launch_dynamic_shared"].get<int>());
        EXPECT_EQ(k.record.value(Field::Registers), driver["num_regs"].get<int>());
        EXPECT_EQ(k.record.value(Field::StackBytes), driver["local_size_bytes"].get<int>());
        EXPECT_EQ(k.record.value(Field::SharedBytes), driver["shared_size_bytes"].get<int>());
        EXPECT_EQ(std::get_if<CudaKernelModel>(&k.model)->occupancy.blocks_per_sm, driver["blocks_per_sm"].get<int>());
        ++compared;
      }
    }
    EXPECT_EQ(compared, static_cast<int>(report.kernels.size())) << variant;
  }
}

TEST(TritonCache, KeySurvivesTheCacheHashAndTellsSpecialisationsApart) {
  const Report v1 = parseInputs({cacheDir("cache-gfx942")}, {}).report;
  const Report v2 = parseInputs({cacheDir("cache-squeezed-gfx942")}, {}).report;
  std::set<std::string> keys1, keys2, hashes1, hashes2;
  for (const KernelReport &k : v1.kernels) keys1.insert(k.record.triton->key), hashes1.insert(k.record.triton->hash);
  for (const KernelReport &k : v2.kernels) keys2.insert(k.record.triton->key), hashes2.insert(k.record.triton->hash);
  EXPECT_EQ(keys1.size(), v1.kernels.size());  // six specialisations, six keys (attn at head dim 64 and 128)
  EXPECT_EQ(keys1, keys2);
  for (const std::string &h : hashes1) EXPECT_FALSE(hashes2.count(h));
  for (const std::string &key : keys1) EXPECT_EQ(key.find("triton:kernels.py:"), 0u) << key;
  // The baseline entry is keyed by it, not by the hash directory.
  for (const KernelReport &k : v1.kernels) {
    const BaselineEntry e = baselineEntry(k, "/");
    EXPECT_EQ(e.source, k.record.triton->key);
    EXPECT_EQ(e.file.find(k.record.triton->hash), std::string::npos);
  }
}

TEST(TritonCache, MetadataWithoutWhatTheLaunchNeedsIsAnError) {
  const std::string good =
      readText(cacheDir("cache-gfx942") + "/JARZ6UJEJA6SPUXRLA5VE5CP6TPFNBK4UT37UT7O5HV3PZHG2JAA/add_kernel.json");
  for (const char *key : {"num_warps", "shared", "name"}) {
    json doc = json::parse(good);
    doc.erase(key);
    try {
      readTritonMetadata(doc.dump());
      ADD_FAILURE() << "no error without " << key;
    } catch (const Error &e) {
      EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
    }
  }
  json doc = json::parse(good);
  doc["num_warps"] = 32;  // 32 x 64 = 2048 threads: no AMD workgroup
  EXPECT_THROW(readTritonMetadata(doc.dump()), Error);
  doc = json::parse(good);
  doc["warp_size"] = 48;
  EXPECT_THROW(readTritonMetadata(doc.dump()), Error);
}

// A real-looking tree: two caches nested among a project's other files.
TEST_F(TritonTree, TreeReadsEveryEntryAndSkipsAndCountsTheRest) {
  fs::create_directories(root_ / "proj" / "src");
  fs::create_directories(root_ / "home" / ".triton");
  fs::copy(cacheDir("cache-gfx942"), root_ / "home" / ".triton" / "cache", fs::copy_options::recursive);
  fs::copy(cacheDir("cache-gfx950"), root_ / "proj" / "gfx950", fs::copy_options::recursive);
  std::ofstream(root_ / "proj" / "README.md") << "# a project\n";
  std::ofstream(root_ / "proj" / "src" / "model.py") << "import triton\n";
  std::ofstream(root_ / "proj" / "config.json") << "{\"lr\": 0.1}\n";
  std::ofstream(root_ / "proj" / "src" / "x86.s") << "\t.text\n\t.globl main\nmain:\n\tret\n";
  const ParsedInputs parsed = parseInputs({root_.string()}, {});
  ASSERT_TRUE(parsed.report.errors.empty()) << parsed.report.errors.front().message;
  const std::size_t entries = entriesIn(cacheDir("cache-gfx942")) + entriesIn(cacheDir("cache-gfx950"));
  EXPECT_EQ(parsed.walk.triton_entries, entries);
  EXPECT_EQ(parsed.report.kernels.size(), entries);
  EXPECT_EQ(parsed.walk.files_read, 0u);
  EXPECT_EQ(parsed.walk.unknown, 4u);  // README.md, model.py, config.json, x86.s
  EXPECT_GT(parsed.walk.triton_ir, 0u);
  EXPECT_TRUE(parsed.walk.not_read.empty());
}

TEST_F(TritonTree, BrokenEntriesAreOneErrorEachAndTheRestIsRead) {
  fs::copy(cacheDir("cache-gfx942"), root_ / "cache", fs::copy_options::recursive);
  const fs::path add = root_ / "cache" / "JARZ6UJEJA6SPUXRLA5VE5CP6TPFNBK4UT37UT7O5HV3PZHG2JAA";
  // A hash directory with only its metadata left.
  for (const char *ext : {".amdgcn", ".hsaco", ".source", ".ttir", ".ttgir"})
    fs::remove(add / (std::string("add_kernel") + ext));
  fs::remove(add / "__grp__add_kernel.json");
  // An entry whose group lists code objects that are gone (with only its .hsaco
  // gone, its .amdgcn is read: a cleaned entry).
  fs::path matmul;
  for (const auto &e : fs::directory_iterator(root_ / "cache"))
    if (matmul.empty() && fs::exists(e.path() / "matmul_kernel.hsaco")) matmul = e.path();
  ASSERT_FALSE(matmul.empty());
  fs::remove(matmul / "matmul_kernel.hsaco");
  fs::remove(matmul / "matmul_kernel.amdgcn");
  const ParsedInputs parsed = parseInputs({root_.string()}, {});
  ASSERT_EQ(parsed.report.errors.size(), 2u);
  std::string messages;
  for (const InputError &e : parsed.report.errors) messages += e.message + "\n";
  EXPECT_NE(messages.find("without its code"), std::string::npos) << messages;
  EXPECT_NE(messages.find("lists matmul_kernel."), std::string::npos) << messages;
  EXPECT_NE(messages.find(", which is missing: a partly written or cleaned"), std::string::npos) << messages;
  EXPECT_EQ(parsed.report.kernels.size(), entriesIn(cacheDir("cache-gfx942")) - 2);
}

// The result cache: a second read of unchanged entries is served from it and
// gives the same records; an entry whose code changed is read again.
TEST_F(TritonTree, ResultCacheHitsGiveTheSameKernelsAndAChangeIsReadAgain) {
  fs::copy(cacheDir("cache-gfx942"), root_ / "cache", fs::copy_options::recursive);
  ParseOptions options;
  options.cache_dir = (root_ / "xdg").string();
  auto figures = [](const Report &report) {
    std::map<std::string, std::vector<std::optional<std::int64_t>>> out;
    for (const KernelReport &k : report.kernels) out[k.record.file] = {k.record.values.begin(), k.record.values.end()};
    return out;
  };
  const Report cold = parseInputs({(root_ / "cache").string()}, options).report;
  std::size_t entries = 0;
  for (const auto &e : fs::directory_iterator(root_ / "xdg")) entries += e.path().extension() == ".json";
  EXPECT_EQ(entries, cold.kernels.size());
  const Report warm = parseInputs({(root_ / "cache").string()}, options).report;
  EXPECT_EQ(figures(warm), figures(cold));
  const Report uncached = parseInputs({(root_ / "cache").string()}, {}).report;
  EXPECT_EQ(figures(warm), figures(uncached));
  // A kernel's .amdgcn and .hsaco replaced by another compile's (the squeezed add_kernel): read again.
  const fs::path add = root_ / "cache" / "JARZ6UJEJA6SPUXRLA5VE5CP6TPFNBK4UT37UT7O5HV3PZHG2JAA";
  const std::string other =
      cacheDir("cache-squeezed-gfx942") + "/XHFHS3BCISPCE4W5T3MH7HBRYE6UUHDMOPISSXXPX4AQCLCI3ZGA/";
  for (const char *ext : {".amdgcn", ".hsaco"})
    fs::copy_file(other + "add_kernel" + ext, add / (std::string("add_kernel") + ext),
                  fs::copy_options::overwrite_existing);
  const Report changed = parseInputs({(root_ / "cache").string()}, options).report;
  const Report fresh = parseInputs({(root_ / "cache").string()}, {}).report;
  EXPECT_EQ(figures(changed), figures(fresh));
  EXPECT_NE(figures(changed), figures(cold));
}

TEST(TritonCache, ExplainOnAnAmdgcnNamesThePythonLines) {
  const std::string amdgcn =
      cacheDir("cache-gfx942") + "/K6BTYIPJXBBMJOBW5S4L64BVQYLXGLTFANSWH5M3HI7XEM6FVQKA/attn_fwd_kernel.amdgcn";
  const ExplainedReport explained = explainArtifacts({amdgcn}, {});
  ASSERT_EQ(explained.kernels.size(), 1u);
  const KernelIsa &k = explained.kernels.front();
  ASSERT_TRUE(k.get()) << k.missing;
  ASSERT_GE(k.main_file, 0);
  EXPECT_EQ(k.isa->files[k.main_file].path(), "/regscope/triton/kernels.py");
  // Every line it names is a line of the function (kernels.py: attn_fwd_kernel spans lines 53 to 77).
  int lines = 0;
  for (const LinePressure &line : k.get()->lines)
    if (line.file == k.main_file && line.line > 0) {
      EXPECT_GE(line.line, 53);
      EXPECT_LE(line.line, 77);
      ++lines;
    }
  EXPECT_GT(lines, 5);
}

// issue 32 item 5: Triton writes `.loc 1 0` (no source line) after a statement's first instructions and at
// the joins of its masked loads. Such an instruction counts for the previous real line of its block, and for
// no line (file -1) at a block's head; no instruction is left at line 0 of a file.
TEST_F(TritonTree, ExplainGivesLineZeroCodeThePreviousLineOfItsBlock) {
  int carried = 0, none = 0;
  for (const auto &entry : fs::recursive_directory_iterator(cacheDir("cache-gfx942"))) {
    if (entry.path().extension() != ".amdgcn") continue;
    const ExplainedReport explained = explainArtifacts({entry.path().string()}, {});
    ASSERT_EQ(explained.kernels.size(), 1u);
    const IsaFunction *f = explained.kernels.front().get();
    ASSERT_TRUE(f) << explained.kernels.front().missing;
    for (std::size_t i = 0; i < f->instructions.size(); ++i) {
      const IsaInstruction &at = f->instructions[i];
      EXPECT_FALSE(at.file >= 0 && at.line <= 0) << entry.path() << ": line " << at.asm_line;
      if (at.leaf_line != 0) continue;  // the .loc in force named a real line
      if (i > 0 && at.block == f->instructions[i - 1].block) {
        EXPECT_EQ(at.file, f->instructions[i - 1].file) << entry.path() << ": line " << at.asm_line;
        EXPECT_EQ(at.line, f->instructions[i - 1].line) << entry.path() << ": line " << at.asm_line;
        carried += at.line > 0;
      } else {
        EXPECT_EQ(at.file, -1) << entry.path() << ": line " << at.asm_line;
        ++none;
      }
    }
  }
  EXPECT_GT(carried, 0);
  EXPECT_GT(none, 0);
  const std::string amdgcn =
      cacheDir("cache-gfx942") + "/JARZ6UJEJA6SPUXRLA5VE5CP6TPFNBK4UT37UT7O5HV3PZHG2JAA/add_kernel.amdgcn";
  // The peak (v_mov_b32 v13 at line 109, in the block .LBB0_12 opens with a line-0 join) is said to have no
  // source line, with the line before it; never as kernels.py:0.
  const RunResult run = runRegscope({"explain", amdgcn}, sourcePath(""), root_.string(), (root_ / "c").string());
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out.find(".py:0"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("live at no source line (code the compiler made; the line before it is "
                         "/regscope/triton/kernels.py:14): v_mov_b32_e32 v13, 0 (line 109 of the .s)"),
            std::string::npos)
      << run.out;
}

// issue 32 item 5: the cache was made on the GPU machine, its line table names /regscope/triton/kernels.py.
// Without --source-map the lines have no text and a warning says why; with it, the Python lines show, and a
// run of lines without instructions is one row. A bad value is one line, exit 2.
TEST_F(TritonTree, ExplainSourceMapShowsTheSourceOfACacheBuiltElsewhere) {
  const std::string amdgcn =
      cacheDir("cache-gfx942") + "/K6BTYIPJXBBMJOBW5S4L64BVQYLXGLTFANSWH5M3HI7XEM6FVQKA/attn_fwd_kernel.amdgcn";
  const std::string cache = (root_ / "c").string();
  const RunResult plain = runRegscope({"explain", amdgcn}, sourcePath(""), root_.string(), cache);
  EXPECT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_NE(plain.err.find("/regscope/triton/kernels.py (built elsewhere? --source-map FROM=TO"), std::string::npos)
      << plain.err;
  EXPECT_EQ(plain.out.find("tl.load"), std::string::npos);
  // Longest FROM wins: /regscope alone would look for fixtures/triton/triton/kernels.py.
  const RunResult mapped = runRegscope(
      {"explain", amdgcn, "--source-map", "/regscope=fixtures/triton", "--source-map=/regscope/triton=fixtures/triton",
       "--wide"},  // source lines whole (at 100 columns they wrap)
      sourcePath(""), root_.string(), cache);
  EXPECT_EQ(mapped.exit_code, 0) << mapped.err;
  EXPECT_EQ(mapped.err, "");
  std::vector<std::string> python;
  std::istringstream source(readText(cacheDir("kernels.py")));
  for (std::string line; std::getline(source, line);) python.push_back(line);
  ASSERT_GE(python.size(), 77u);
  EXPECT_NE(mapped.out.find(python[58]), std::string::npos) << mapped.out;  // line 59: q = tl.load(...)
  EXPECT_NE(mapped.out.find("peak: 255 VGPRs, 20 AGPRs, 13 SGPRs live at fixtures/triton/kernels.py:73: "),
            std::string::npos)
      << mapped.out;
  // Lines 60-62 (m_i, l_i, acc = tl.zeros: their code is the loop's) have no instructions: one row says so.
  EXPECT_NE(mapped.out.find("... 3 lines without instructions ..."), std::string::npos) << mapped.out;
  EXPECT_EQ(mapped.out.find(python[60]), std::string::npos) << mapped.out;
  // Lines 54 and 55 (the signature's second line, a statement with no code of its own): a run of 2, kept.
  EXPECT_NE(mapped.out.find(python[53]), std::string::npos) << mapped.out;
  // JSON keeps every line.
  const RunResult json_run =
      runRegscope({"explain", amdgcn, "--source-map=/regscope/triton=fixtures/triton", "--format", "json"},
                  sourcePath(""), root_.string(), cache);
  EXPECT_EQ(json_run.exit_code, 0) << json_run.err;
  EXPECT_EQ(json_run.out.find("lines without instructions"), std::string::npos);
  for (const char *bad : {"--source-map=nothing", "--source-map==/x"}) {
    const RunResult refused = runRegscope({"explain", amdgcn, bad}, sourcePath(""), root_.string(), cache);
    EXPECT_EQ(refused.exit_code, 2) << bad;
    EXPECT_EQ(refused.out, "") << bad;
    EXPECT_NE(refused.err.find("expected FROM=TO"), std::string::npos) << refused.err;
    EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << refused.err;
  }
  const RunResult unused = runRegscope({"explain", amdgcn, "--source-map=/elsewhere=fixtures/triton"}, sourcePath(""),
                                       root_.string(), cache);
  EXPECT_NE(unused.err.find("--source-map /elsewhere=fixtures/triton matched no path the line tables name"),
            std::string::npos)
      << unused.err;
}

// The same map from .regscope.json's "source_map" (issue 32), its relative TO against the config's
// directory: here a link in the scratch directory to the fixtures' Triton sources.
TEST_F(TritonTree, ExplainSourceMapFromTheConfigFile) {
  const std::string amdgcn =
      cacheDir("cache-gfx942") + "/K6BTYIPJXBBMJOBW5S4L64BVQYLXGLTFANSWH5M3HI7XEM6FVQKA/attn_fwd_kernel.amdgcn";
  const std::string cache = (root_ / "c").string();
  fs::create_directory_symlink(sourcePath("fixtures/triton"), root_ / "sources");
  const fs::path config = root_ / "regscope.json";
  std::ofstream(config) << R"({"version": 1, "source_map": ["/regscope/triton=sources"]})";
  const RunResult mapped =
      runRegscope({"explain", amdgcn, "--config", config.string(), "--wide"}, sourcePath(""), root_.string(), cache);
  EXPECT_EQ(mapped.exit_code, 0) << mapped.err;
  EXPECT_EQ(mapped.err.find("built elsewhere"), std::string::npos) << mapped.err;
  std::vector<std::string> python;
  std::istringstream source(readText(cacheDir("kernels.py")));
  for (std::string line; std::getline(source, line);) python.push_back(line);
  ASSERT_GE(python.size(), 77u);
  EXPECT_NE(mapped.out.find(python[58]), std::string::npos) << mapped.out;  // line 59: q = tl.load(...)
  // An entry that is not FROM=TO: one line, exit 2.
  std::ofstream(config) << R"({"version": 1, "source_map": ["nothing"]})";
  const RunResult refused =
      runRegscope({"explain", amdgcn, "--config", config.string()}, sourcePath(""), root_.string(), cache);
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_NE(refused.err.find("source_map 'nothing': expected FROM=TO"), std::string::npos) << refused.err;
  EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << refused.err;
}

// issue 33: gfx950 is a target LLVM 15 (and 19) does not know. Its assembly text is read as gfx942's,
// whose instruction set it extends: a kernel whose every instruction the stand-in reads (softmax) is
// explained in full; one with gfx950's new instructions (matmul's MFMAs) has its lines, spill sites and
// depths but no live-register counts and no cycle estimate, each said. Its code object alone (no .amdgcn
// beside it) is not disassembled so: exit 2, the reason on one line.
TEST_F(TritonTree, ExplainReadsGfx950TextAsGfx942sAndRefusesItsBareCodeObject) {
  const RunResult run = runRegscope({"explain", cacheDir("cache-wpe1-gfx950"), "--format", "json"}, sourcePath(""),
                                    root_.string(), (root_ / "c").string());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  int full = 0, partial = 0;
  const json report = json::parse(run.out);
  for (const json &k : report.at("kernels")) {
    const json &isa = k.at("isa");
    ASSERT_TRUE(isa.is_object()) << k.at("name");
    const std::string notes = k.at("notes").dump();
    EXPECT_NE(notes.find("does not know gfx950: its assembly is read as gfx94"), std::string::npos) << notes;
    if (isa.at("has_liveness") == true) {
      ++full;
      EXPECT_TRUE(isa.at("max_live").at("vgprs").is_number()) << k.at("name");
      continue;
    }
    ++partial;
    EXPECT_NE(notes.find("cannot read: live registers are not counted and no cycles estimated"), std::string::npos)
        << notes;
    EXPECT_TRUE(isa.at("max_live").is_null());
    EXPECT_TRUE(isa.at("peak").is_null());
    EXPECT_EQ(isa.at("hottest"), json::array());
    for (const json &line : isa.at("lines")) EXPECT_TRUE(line.at("peak_vgprs").is_null()) << line;
    EXPECT_GT(isa.at("mix").at("counts").at("unknown"), 0);
  }
  EXPECT_GT(full, 0);
  EXPECT_GT(partial, 0);

  const fs::path bare = root_ / "bare" / "softmax_kernel.hsaco";
  fs::create_directories(bare.parent_path());
  for (const auto &entry : fs::recursive_directory_iterator(cacheDir("cache-wpe1-gfx950")))
    if (entry.path().filename() == "softmax_kernel.hsaco") fs::copy_file(entry.path(), bare);
  const RunResult refused =
      runRegscope({"explain", bare.string()}, sourcePath(""), root_.string(), (root_ / "c").string());
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_NE(refused.err.find("cannot disassemble gfx950"), std::string::npos) << refused.err;
  EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << refused.err;
}

// issue 32 item 3: parse of a folder said "read 0 Triton cache entries and 3 artifacts" and then "3 of 4
// files failed" over six artifacts (the directory was counted as a file). Here: two real .s, one real
// Triton entry, one .s that names a target and holds no kernel (written here: a damaged artifact) and a
// text file. What was read and what failed add up to what was tried, each said once.
TEST_F(TritonTree, ParseOfAFolderSaysCountsThatAddUp) {
  const fs::path dir = root_ / "folder";
  fs::create_directories(dir / "sub");
  fs::copy_file(sourcePath("fixtures/hipcc-5.2.3/probe-gfx90a.s"), dir / "probe-gfx90a.s");
  fs::copy_file(sourcePath("fixtures/hipcc-5.2.3/lbm-gfx90a.s"), dir / "sub" / "lbm-gfx90a.s");
  fs::copy(cacheDir("cache-gfx942") + "/JARZ6UJEJA6SPUXRLA5VE5CP6TPFNBK4UT37UT7O5HV3PZHG2JAA", dir / "entry",
           fs::copy_options::recursive);
  std::ofstream(dir / "sub" / "empty.s") << ".amdgcn_target \"amdgcn-amd-amdhsa--gfx90a\"\n";
  std::ofstream(dir / "notes.txt") << "not an artifact\n";
  const RunResult run = runRegscope({"parse", dir.string()}, root_.string(), root_.string(), (root_ / "c").string());
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("regscope: read 1 Triton cache entry and 2 artifacts in "), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("sub/empty.s: no AMDGPU kernels in this assembly"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("regscope: error: 1 of 4 artifacts failed; the others were read"), std::string::npos)
      << run.err;
  EXPECT_EQ(run.err.find(" 0 "), std::string::npos) << run.err;  // no count of nothing
}

// Hostile variants of real entries, made here at run time: a copy of one real
// cache entry with one metadata field edited (each edit named below). The
// code beside it is Triton's own, so what the metadata says is checked against it.
json editableCopy(const fs::path &entry, const fs::path &to, const std::string &kernel) {
  fs::copy(entry, to, fs::copy_options::recursive);
  return json::parse(readText((to / (kernel + ".json")).string()));
}

void writeMetadata(const fs::path &dir, const std::string &kernel, const json &doc) {
  std::ofstream(dir / (kernel + ".json"), std::ios::trunc) << doc.dump();
}

std::string errorsOf(const Report &report) {
  std::string messages;
  for (const InputError &e : report.errors) messages += e.message + "\n";
  return messages;
}

// issue 30: an NVIDIA entry whose metadata names arch 80 or 121 beside its
// sm_90a cubin is refused (the cubin's e_flags are what the driver loads).
TEST_F(TritonTree, NvidiaMetadataNamingAnotherArchThanItsCubinIsRefused) {
  const fs::path real = cacheDir("cache-sm_90") + "/7AUBJ5JZAVRCOUTBLPCY5WOVYSC4C7E3VKLPQZK4OEJH3SULYXWQ";
  const Report control = parseInputs({real.string()}, {}).report;
  ASSERT_TRUE(control.errors.empty()) << errorsOf(control);
  ASSERT_EQ(control.kernels.size(), 1u);
  const std::string cubin_arch = control.kernels.front().record.arch;
  for (int arch : {80, 121}) {
    const fs::path dir = root_ / ("arch" + std::to_string(arch));
    json doc = editableCopy(real, dir, "add_kernel");
    doc["target"]["arch"] = arch;  // the edit: target.arch 90 -> 80 / 121
    writeMetadata(dir, "add_kernel", doc);
    const Report report = parseInputs({dir.string()}, {}).report;
    EXPECT_TRUE(report.kernels.empty()) << arch;
    ASSERT_EQ(report.errors.size(), 1u) << arch;
    EXPECT_NE(report.errors.front().message.find("compiled for " + cubin_arch + ", its metadata says sm_" +
                                                 std::to_string(arch)),
              std::string::npos)
        << report.errors.front().message;
  }
}

// issue 30: a gfx942 entry whose metadata says warp_size 32 (num_warps 8, 256
// threads) beside a wave64 code object is refused: the code object's
// wavefront size is what the GPU runs, so Triton's launch is not known.
TEST_F(TritonTree, AmdMetadataWarpSizeOtherThanTheCodeObjectsIsRefused) {
  const fs::path real = cacheDir("cache-gfx942") + "/JARZ6UJEJA6SPUXRLA5VE5CP6TPFNBK4UT37UT7O5HV3PZHG2JAA";
  const fs::path dir = root_ / "entry";
  json doc = editableCopy(real, dir, "add_kernel");
  ASSERT_EQ(doc["warp_size"], 64);
  doc["warp_size"] = 32;  // the edit: warp size 64 -> 32 (both keys), num_warps -> 8
  doc["target"]["warp_size"] = 32;
  doc["num_warps"] = 8;
  writeMetadata(dir, "add_kernel", doc);
  const Report report = parseInputs({dir.string()}, {}).report;
  EXPECT_TRUE(report.kernels.empty());
  ASSERT_EQ(report.errors.size(), 1u);
  EXPECT_NE(report.errors.front().message.find("compiled for wave64, its metadata says warp_size 32"),
            std::string::npos)
      << report.errors.front().message;
}

// issue 30: the kernel the metadata names must be in the code, on both vendors.
TEST_F(TritonTree, MetadataNamingAKernelTheCodeLacksIsRefused) {
  for (const std::string real : {cacheDir("cache-gfx942") + "/JARZ6UJEJA6SPUXRLA5VE5CP6TPFNBK4UT37UT7O5HV3PZHG2JAA",
                                 cacheDir("cache-sm_90") + "/7AUBJ5JZAVRCOUTBLPCY5WOVYSC4C7E3VKLPQZK4OEJH3SULYXWQ"}) {
    const fs::path dir = root_ / fs::path(real).parent_path().filename();
    json doc = editableCopy(real, dir, "add_kernel");
    doc["name"] = "mul_kernel";  // the edit: name add_kernel -> mul_kernel (the file keeps its name)
    writeMetadata(dir, "add_kernel", doc);
    const Report report = parseInputs({dir.string()}, {}).report;
    EXPECT_TRUE(report.kernels.empty()) << real;
    ASSERT_EQ(report.errors.size(), 1u) << real;
    EXPECT_NE(report.errors.front().message.find("no kernel mul_kernel"), std::string::npos)
        << report.errors.front().message;
  }
}

// issue 30, boundary: 16 warps of 64 lanes on gfx942 are 1024 threads, the
// largest block a GPU launches: read. 17 warps (1088 threads) are refused.
TEST_F(TritonTree, AnAmdEntryOfExactly1024ThreadsIsReadAnd1088Refused) {
  const fs::path real = cacheDir("cache-gfx942") + "/JARZ6UJEJA6SPUXRLA5VE5CP6TPFNBK4UT37UT7O5HV3PZHG2JAA";
  for (int warps : {16, 17}) {
    const fs::path dir = root_ / ("warps" + std::to_string(warps));
    json doc = editableCopy(real, dir, "add_kernel");
    doc["num_warps"] = warps;  // the edit: num_warps 4 -> 16 / 17
    writeMetadata(dir, "add_kernel", doc);
    const Report report = parseInputs({dir.string()}, {}).report;
    if (warps == 16) {
      ASSERT_TRUE(report.errors.empty()) << errorsOf(report);
      ASSERT_EQ(report.kernels.size(), 1u);
      EXPECT_EQ(report.kernels.front().record.triton->blockSize(), 1024);
    } else {
      EXPECT_TRUE(report.kernels.empty());
      ASSERT_EQ(report.errors.size(), 1u);
      EXPECT_NE(report.errors.front().message.find("num_warps 17"), std::string::npos) << report.errors.front().message;
    }
  }
}

// issue 30: two entries whose metadata is identical (hash included) but whose
// code differs (the gfx942 matmul beside the same specialisation's squeezed,
// spilling code object, copied over its .amdgcn/.hsaco) are two kernels with
// two baseline keys, never one entry that drops the spilling one.
TEST_F(TritonTree, EntriesWithIdenticalMetadataButDifferentCodeAreNeverMerged) {
  const Report plain = parseInputs({cacheDir("cache-gfx942")}, {}).report;
  const Report squeezed = parseInputs({cacheDir("cache-squeezed-gfx942")}, {}).report;
  fs::path from, other;
  for (const KernelReport &a : plain.kernels)
    for (const KernelReport &b : squeezed.kernels)
      if (from.empty() && a.record.name == "matmul_kernel" && a.record.triton->key == b.record.triton->key &&
          a.record.values != b.record.values) {
        from = fs::path(a.record.file).parent_path();
        other = fs::path(b.record.file).parent_path();
      }
  ASSERT_FALSE(from.empty());
  fs::copy(from, root_ / "a", fs::copy_options::recursive);
  fs::copy(from, root_ / "b", fs::copy_options::recursive);
  for (const char *ext : {".amdgcn", ".hsaco"})  // the edit: b's code replaced, its metadata kept
    fs::copy_file(other / (std::string("matmul_kernel") + ext), root_ / "b" / (std::string("matmul_kernel") + ext),
                  fs::copy_options::overwrite_existing);
  const Report report = parseInputs({root_.string()}, {}).report;
  ASSERT_TRUE(report.errors.empty()) << errorsOf(report);
  ASSERT_EQ(report.kernels.size(), 2u);
  EXPECT_NE(report.kernels[0].record.values, report.kernels[1].record.values);
  EXPECT_NE(baselineEntry(report.kernels[0], "/").source, baselineEntry(report.kernels[1], "/").source);
  bool said = false;
  for (const std::string &w : report.warnings) said |= w.find("same metadata but different code") != std::string::npos;
  EXPECT_TRUE(said);
}

// Issue 31, item 6: two entries that differ only in a constexpr that changes
// no shape (vLLM's fp8 group quant with and without use_ue8m0). Triton 3.6's
// metadata json records no constexprs (no `constants`, no `signature`: see the
// fixtures' jsons), so they are only in the IR. Made here at run time from
// the real sm_90 add_kernel entry, copied twice; the hand edit, in the second
// copy: its .source/.ttir `arith.addf` -> `arith.subf` (what a constexpr
// `SUBTRACT` choosing `x - y` would fold to) and its json's hash changed (two
// compiles have two hashes). A "recompile" changes only the json hashes.
void replaceIn(const fs::path &file, const std::string &from, const std::string &to) {
  std::string text = readText(file.string());
  const std::size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos) << file << ": " << from;
  text.replace(at, from.size(), to);
  std::ofstream(file, std::ios::trunc) << text;
}

void twoEntriesDifferingInAConstexpr(const fs::path &dir, const std::string &hash_suffix) {
  const fs::path real = cacheDir("cache-sm_90") + "/7AUBJ5JZAVRCOUTBLPCY5WOVYSC4C7E3VKLPQZK4OEJH3SULYXWQ";
  fs::create_directories(dir);
  for (const char *name : {"add", "sub"}) {
    const fs::path entry = dir / name;
    json doc = editableCopy(real, entry, "add_kernel");
    doc["hash"] = doc["hash"].get<std::string>().substr(0, 48) + name + hash_suffix;
    writeMetadata(entry, "add_kernel", doc);
    if (std::string(name) == "sub")
      for (const char *ir : {"add_kernel.source", "add_kernel.ttir"}) replaceIn(entry / ir, "arith.addf", "arith.subf");
  }
}

std::map<std::string, std::string> keysByEntry(const Report &report) {
  std::map<std::string, std::string> keys;  // "add"/"sub" -> key
  for (const KernelReport &k : report.kernels)
    keys[fs::path(k.record.file).parent_path().filename().string()] = k.record.triton->key;
  return keys;
}

TEST_F(TritonTree, EntriesDifferingOnlyInAConstexprHaveDistinctKeysThatSurviveARecompile) {
  twoEntriesDifferingInAConstexpr(root_ / "first", "0001");
  twoEntriesDifferingInAConstexpr(root_ / "recompiled", "0002");
  const Report first = parseInputs({(root_ / "first").string()}, {}).report;
  const Report again = parseInputs({(root_ / "recompiled").string()}, {}).report;
  ASSERT_TRUE(first.errors.empty()) << errorsOf(first);
  ASSERT_EQ(first.kernels.size(), 2u);
  const std::map<std::string, std::string> keys = keysByEntry(first);
  EXPECT_NE(keys.at("add"), keys.at("sub"));
  for (const auto &[entry, key] : keys) {
    EXPECT_NE(key.find(" ir="), std::string::npos) << key;   // told apart by their IR
    EXPECT_EQ(key.find("hash="), std::string::npos) << key;  // never by the hash a recompile changes
    EXPECT_EQ(key.find("triton:kernels.py:add_kernel["), 0u) << key;
  }
  EXPECT_EQ(keysByEntry(again), keys);
  // Their baseline entries are two, keyed so.
  const Baseline baseline = baselineFromReport(first, "/");
  ASSERT_EQ(baseline.size(), 2u);
  EXPECT_NE(baseline[0].source, baseline[1].source);
  // Their own entry alone keys as before (no " ir="): a kernel's key grows only beside its twin.
  fs::remove_all(root_ / "first" / "sub");
  const Report alone = parseInputs({(root_ / "first").string()}, {}).report;
  ASSERT_EQ(alone.kernels.size(), 1u);
  EXPECT_EQ(alone.kernels[0].record.triton->key.find(" ir="), std::string::npos);
}

// Without IR (cleaned away), the two have nothing but the hash to tell them
// apart: their keys name it, and the warning says a recompile changes it.
TEST_F(TritonTree, EntriesDifferingOnlyInAConstexprWithoutIrFallBackToTheHashAndSayIt) {
  twoEntriesDifferingInAConstexpr(root_, "0001");
  for (const char *entry : {"add", "sub"})
    for (const char *ir : {".source", ".ttir", ".ttgir", ".ptx"})
      fs::remove(root_ / entry / (std::string("add_kernel") + ir));
  const Report report = parseInputs({root_.string()}, {}).report;
  ASSERT_TRUE(report.errors.empty()) << errorsOf(report);
  const std::map<std::string, std::string> keys = keysByEntry(report);
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_NE(keys.at("add"), keys.at("sub"));
  for (const auto &[entry, key] : keys) EXPECT_NE(key.find(" hash="), std::string::npos) << key;
  std::size_t said = 0;
  for (const std::string &w : report.warnings) said += w.find("which a recompile changes") != std::string::npos;
  EXPECT_EQ(said, 2u);  // one per entry here; parse and gate print them once (report/said_once.h)
}

// Metadata that records its constexprs (Triton 2.x wrote `constants`; 3.6
// does not) keys by them without IR. Hand edit at run time: `constants`
// {"BLOCK": 1024} and {"BLOCK": 2048} added to two copies of the real entry,
// whose IR is removed.
TEST_F(TritonTree, ConstantsTheMetadataRecordsJoinTheKeyWithoutIr) {
  twoEntriesDifferingInAConstexpr(root_, "0001");
  int block = 1024;
  for (const char *entry : {"add", "sub"}) {
    json doc = json::parse(readText((root_ / entry / "add_kernel.json").string()));
    doc["constants"] = {{"BLOCK", block}};
    block *= 2;
    writeMetadata(root_ / entry, "add_kernel", doc);
    for (const char *ir : {".source", ".ttir", ".ttgir", ".ptx"})
      fs::remove(root_ / entry / (std::string("add_kernel") + ir));
  }
  const Report report = parseInputs({root_.string()}, {}).report;
  ASSERT_TRUE(report.errors.empty()) << errorsOf(report);
  const std::map<std::string, std::string> keys = keysByEntry(report);
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_NE(keys.at("add"), keys.at("sub"));
  for (const auto &[entry, key] : keys) {
    EXPECT_NE(key.find(" spec="), std::string::npos) << key;
    EXPECT_EQ(key.find("hash="), std::string::npos) << key;
  }
}

// A baseline written before format 1.4 keyed the two by their cache hash
// (what regscope 1.3 wrote is made here from this run's baseline: " ir=..."
// -> " hash=<the entry's hash>", version 1.5 -> 1.3). The gate never passes
// them as two added kernels: one line says to record the baseline again, exit
// 2; `regscope baseline` replaces the old entries instead of keeping both.
TEST_F(TritonTree, ABaselineOfTheOlderKeysIsSaidNotPassedAndReplacedOnRecording) {
  twoEntriesDifferingInAConstexpr(root_, "0001");
  const Report report = parseInputs({root_.string()}, {}).report;
  ASSERT_EQ(report.kernels.size(), 2u);
  std::string text = baselineToText(baselineFromReport(report, "/"));
  ASSERT_NE(text.find("\"regscope_baseline\": \"1.5\""), std::string::npos) << text;
  text.replace(text.find("\"1.5\""), 5, "\"1.3\"");
  for (const KernelReport &k : report.kernels) {
    const std::string key = k.record.triton->key;
    const std::string old = key.substr(0, key.find(" ir=")) + " hash=" + k.record.triton->hash + "]";
    for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + old.size()))
      text.replace(at, key.size(), old);
  }
  const Baseline old = baselineFromText(text, "b.json");
  GateResult result;
  compareWithBaseline(report, old, "/", result);
  EXPECT_EQ(result.added.size(), 2u);
  EXPECT_NE(result.baseline_keys_unmatched.find("2 Triton kernels (add_kernel [sm_90a], add_kernel [sm_90a]) match "
                                                "no key of the baseline"),
            std::string::npos)
      << result.baseline_keys_unmatched;
  EXPECT_NE(result.baseline_keys_unmatched.find("`regscope baseline CACHE -o BASELINE`"), std::string::npos);
  EXPECT_EQ(gateOutcome(report, result), GateOutcome::CannotJudge);
  const Baseline updated = updatedBaseline(old, report, "/");
  ASSERT_EQ(updated.size(), 2u);
  for (const BaselineEntry &e : updated) EXPECT_NE(e.source.find(" ir="), std::string::npos) << e.source;
  // The same baseline at 1.4 (its keys this regscope's): nothing to say.
  GateResult same;
  compareWithBaseline(report, baselineFromReport(report, "/"), "/", same);
  EXPECT_TRUE(same.baseline_keys_unmatched.empty());
  EXPECT_TRUE(same.added.empty());
}

// A cache gated without its IR against a baseline recorded with it: the keys
// lack the Python file and specialisation, and the gate says so in one line
// rather than pass every kernel as added.
TEST_F(TritonTree, ACleanedCacheAgainstABaselineRecordedWithIrIsSaidNotPassed) {
  const fs::path copy = root_ / "cache-sm_90";
  fs::copy(cacheDir("cache-sm_90"), copy, fs::copy_options::recursive);
  for (const auto &e : fs::recursive_directory_iterator(copy))
    for (const char *ir : {".ptx", ".ttir", ".ttgir", ".source"})
      if (e.path().extension() == ir) fs::remove(e.path());
  const Report whole = parseInputs({cacheDir("cache-sm_90")}, {}).report;
  const Report cleaned = parseInputs({copy.string()}, {}).report;
  ASSERT_EQ(cleaned.kernels.size(), whole.kernels.size());
  GateResult result;
  compareWithBaseline(cleaned, baselineFromReport(whole, "/"), "/", result);
  EXPECT_NE(result.baseline_keys_unmatched.find(std::to_string(whole.kernels.size()) + " Triton entries without IR"),
            std::string::npos)
      << result.baseline_keys_unmatched;
  EXPECT_EQ(gateOutcome(cleaned, result), GateOutcome::CannotJudge);
}

// Issue 31, item 7: --min-occupancy N% judges AMD and NVIDIA kernels of one
// run together, where an absolute threshold in one vendor's unit is refused.
// The maxima are the hardware's (CDNA3: 8 waves/SIMD; H100: 64 warps/SM, the
// CUDA occupancy table), and the NVIDIA levels the driver's (truth.json:
// cuOccupancyMaxActiveBlocksPerMultiprocessor x num_warps).
TEST(TritonCache, MinOccupancyPercentJudgesAmdAndNvidiaTogether) {
  const Report report = parseInputs({cacheDir("cache-gfx942"), cacheDir("cache-sm_90")}, {}).report;
  ASSERT_TRUE(report.errors.empty()) << errorsOf(report);
  Config config;
  config.defaults.min_occupancy = 16;  // warps/SM on sm_90; no gfx942 kernel can have 16 waves/SIMD
  EXPECT_THROW(checkReachable(config, report), Error);
  config.defaults = {};
  config.defaults.min_occupancy_percent = 50;
  EXPECT_NO_THROW(checkReachable(config, report));
  const GateResult result = checkThresholds(report, config);
  EXPECT_TRUE(result.unjudged.empty());
  EXPECT_EQ(result.kernels_checked, static_cast<int>(report.kernels.size()));
  const json truth = json::parse(fixture("triton/truth.json"));
  std::size_t amd = 0, nvidia = 0, failing = 0, with_truth = 0;
  for (const KernelReport &k : report.kernels) {
    const bool on_amd = k.record.arch == "gfx942";
    const int max = on_amd ? 8 : 64;
    EXPECT_EQ(k.summary.max_level, max) << k.record.arch;
    (on_amd ? amd : nvidia) += 1;
    const bool fails = k.summary.level * 100 < 50 * max;
    failing += fails;
    std::size_t said = 0;
    for (const Verdict &v : result.failures)
      if (v.rule == Rule::MinOccupancy && v.arch == k.record.arch && v.kernel == k.record.demangled &&
          v.file == k.display_file &&
          v.message.find("(" + std::to_string(k.summary.level) + " of " + std::to_string(max) + " " +
                         (on_amd ? "waves/SIMD" : "warps/SM") + ") < 50%") != std::string::npos &&
          v.message.find("occupancy " + std::to_string(k.summary.level * 100 / max) + "% ") == 0)
        ++said;
    EXPECT_EQ(said, fails ? 1u : 0u) << k.record.name << " [" << k.record.arch << "] " << k.summary.level;
    if (!on_amd)
      for (const json &t : truth["kernels"])
        if (t["target"] == "sm_90" && t["variant"] == "cache" && t.contains("driver") &&
            t["metadata"]["hash"] == k.record.triton->hash) {
          EXPECT_EQ(k.summary.level, t["driver"]["blocks_per_sm"].get<int>() * k.record.triton->num_warps);
          ++with_truth;
        }
  }
  EXPECT_GT(amd, 0u);
  EXPECT_GT(nvidia, 0u);
  EXPECT_EQ(with_truth, nvidia);
  EXPECT_GT(failing, 0u);
  EXPECT_LT(failing, report.kernels.size());
  EXPECT_EQ(result.failures.size(), failing);
}

// Issue 31, item 4. A cache as CI artifacts keep it: the fixtures' caches are
// copied here and their IR (.ptx, .ttir, .ttgir, .source; the .llir was never
// committed) deleted at run time, while every __grp__ file still lists it.
// Every entry is read from metadata + binary with the figures of the whole
// cache, and the run says the cleaning once.
TEST_F(TritonTree, CleanedIrIsReadFromMetadataAndBinaryAndSaidOnce) {
  for (const std::string cache : {"cache-sm_90", "cache-gfx942"}) {
    SCOPED_TRACE(cache);
    const fs::path copy = root_ / cache;
    fs::copy(cacheDir(cache), copy, fs::copy_options::recursive);
    std::size_t deleted = 0;
    for (const auto &e : fs::recursive_directory_iterator(copy))
      for (const char *ir : {".ptx", ".ttir", ".ttgir", ".source", ".llir"})
        if (e.path().extension() == ir) {
          fs::remove(e.path());
          ++deleted;
          break;
        }
    ASSERT_GT(deleted, 0u);
    const Report whole = parseInputs({cacheDir(cache)}, {}).report;
    std::vector<std::string> warnings;
    Messages say{[&](const std::string &w) { warnings.push_back(w); }, [](const std::string &) {},
                 [](const std::string &) {}, [](const std::string &) {}};
    const ParsedInputs cleaned = readArtifactInputs({copy.string()}, {}, true, say);
    ASSERT_TRUE(cleaned.report.errors.empty()) << cleaned.report.errors.front().message;
    ASSERT_EQ(cleaned.report.kernels.size(), whole.kernels.size());
    EXPECT_EQ(cleaned.walk.triton_ir_cleaned, whole.kernels.size());
    std::map<std::string, const KernelReport *> by_hash;
    for (const KernelReport &k : whole.kernels) by_hash[k.record.triton->hash] = &k;
    for (const KernelReport &k : cleaned.report.kernels) {
      const KernelReport &was = *by_hash.at(k.record.triton->hash);
      EXPECT_EQ(k.summary.registers, was.summary.registers);
      EXPECT_EQ(k.summary.level, was.summary.level);
      EXPECT_EQ(k.summary.scratch_bytes, was.summary.scratch_bytes);
      EXPECT_EQ(k.launch.block_size, was.launch.block_size);
      // What came from the IR is gone, never guessed: no Python file, no specialisation.
      EXPECT_TRUE(k.record.triton->python_file.empty());
      EXPECT_TRUE(k.record.triton->specialisation.empty());
    }
    std::size_t lines = 0;
    for (const std::string &w : warnings)
      lines += w.find("cleaned away: figures from json + binary") != std::string::npos;
    EXPECT_EQ(lines, 1u);
    EXPECT_NE(warnings.front().find("IR of " + std::to_string(whole.kernels.size()) + " Triton entries"),
              std::string::npos)
        << warnings.front();
  }
}

// A cleaned entry whose binary is gone too, or that has no metadata, is still an error.
TEST_F(TritonTree, CleanedEntryWithoutItsBinaryIsStillAnError) {
  const fs::path entry = root_ / "e";
  fs::copy(cacheDir("cache-sm_90") + "/7AUBJ5JZAVRCOUTBLPCY5WOVYSC4C7E3VKLPQZK4OEJH3SULYXWQ", entry);
  fs::remove(entry / "add_kernel.ptx");
  fs::remove(entry / "add_kernel.cubin");
  const Report report = parseInputs({root_.string()}, {}).report;
  ASSERT_EQ(report.errors.size(), 1u);
  EXPECT_NE(report.errors[0].message.find("lists add_kernel.cubin, which is missing"), std::string::npos);
}

// The IR ptxas refused (matmul_256 at maxnreg=96, fixtures/triton/make.log): a
// failed compile, named once, not counted among the other files.
TEST(TritonCache, AFailedCompileIsNamedOnceNotCountedAsOtherFiles) {
  std::vector<std::string> warnings;
  Messages say{[&](const std::string &w) { warnings.push_back(w); }, [](const std::string &) {},
               [](const std::string &) {}, [](const std::string &) {}};
  const ParsedInputs parsed = readArtifactInputs({cacheDir("cache-squeezed-sm_90")}, {}, true, say);
  ASSERT_EQ(parsed.walk.triton_failed_compiles.size(), 1u);
  EXPECT_NE(
      parsed.walk.triton_failed_compiles[0].find("ZUQFRGJF523YKMTAPNH46IGMGUTD4F2ILPFACVMWUJGAIAMROL7Q/matmul_kernel"),
      std::string::npos);
  EXPECT_EQ(parsed.walk.unknown, 5u);  // the five .cubin.res-usage.txt beside the cubins, no longer the IR
  std::size_t lines = 0;
  for (const std::string &w : warnings) lines += w.find("1 Triton compile failed") != std::string::npos;
  EXPECT_EQ(lines, 1u);
}

// Issue 31, item 5: NVIDIA Triton gated and baselined. A cubin records no
// spill counts; the rules that do not read them judge, --max-spills judges
// local memory, and the baseline records every kernel with its spills unknown.
TEST(TritonCache, NvidiaKernelsAreGatedWithoutSpillCounts) {
  const Report report = parseInputs({cacheDir("cache-sm_90")}, {}).report;
  ASSERT_FALSE(report.kernels.empty());
  Config config;
  config.defaults.min_occupancy = 2;
  GateResult result = checkThresholds(report, config);
  EXPECT_TRUE(result.unjudged.empty());
  EXPECT_EQ(result.kernels_checked, static_cast<int>(report.kernels.size()));
  EXPECT_EQ(gateOutcome(report, result), GateOutcome::Pass);
  // --max-spills judges the per-thread local memory the driver reports (truth.json's local_size_bytes).
  config.defaults = {};
  config.defaults.max_spills = 100;
  result = checkThresholds(report, config);
  EXPECT_TRUE(result.unjudged.empty());
  std::size_t over = 0;
  for (const KernelReport &k : report.kernels) over += k.record.value(Field::StackBytes) > 100;
  ASSERT_GT(over, 0u);
  ASSERT_EQ(result.failures.size(), over);
  for (const Verdict &v : result.failures)
    EXPECT_NE(v.message.find("local memory (spills or local arrays)"), std::string::npos) << v.message;
  // The baseline records all of them, spills unknown (null), and reads back so.
  const Baseline baseline = baselineFromReport(report, "/");
  ASSERT_EQ(baseline.size(), report.kernels.size());
  const std::string text = baselineToText(baseline);
  EXPECT_NE(text.find("\"spills\": null"), std::string::npos);
  for (const BaselineEntry &e : baselineFromText(text, "b.json")) EXPECT_FALSE(e.spills_known);
}

// The regression must fail: the baseline of the squeezed cache (maxnreg=96),
// then the same kernels at their own registers (more registers, fewer
// blocks/SM per the CUDA driver in truth.json).
TEST(TritonCache, AnNvidiaRegisterRegressionFailsAgainstTheBaseline) {
  const Report before = parseInputs({cacheDir("cache-squeezed-sm_90")}, {}).report;
  const Report now = parseInputs({cacheDir("cache-sm_90")}, {}).report;
  const json truth = json::parse(fixture("triton/truth.json"));
  std::map<std::string, int> blocks;  // "variant spec" -> the driver's blocks/SM
  for (const json &t : truth["kernels"])
    if (t["target"] == "sm_90" && t.contains("driver"))
      blocks[t["variant"].get<std::string>() + " " + t["spec"].get<std::string>()] = t["driver"]["blocks_per_sm"];
  GateResult result;
  compareWithBaseline(now, baselineFromText(baselineToText(baselineFromReport(before, "/")), "b.json"), "/", result);
  EXPECT_TRUE(result.unjudged.empty());
  std::size_t regressions = 0;
  for (const Verdict &v : result.failures) {
    if (v.rule != Rule::OccupancyRegression) continue;
    ++regressions;
    EXPECT_NE(v.message.find("(registers "), std::string::npos) << v.message;
  }
  std::size_t expected = 0;  // specialisations the driver gives fewer blocks/SM at their own registers
  for (const auto &[key, n] : blocks)
    if (key.rfind("cache ", 0) == 0 && blocks.count("cache-squeezed " + key.substr(6)) &&
        n < blocks.at("cache-squeezed " + key.substr(6)))
      ++expected;
  ASSERT_GT(expected, 0u);
  EXPECT_EQ(regressions, expected);
  EXPECT_EQ(gateOutcome(now, result), GateOutcome::Fail);
}

}  // namespace
}  // namespace regscope
