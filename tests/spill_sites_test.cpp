// Spill sites (issue 33): every spill store and reload at its source line and
// loop depth, checked against two truths the compiler itself writes into the
// same .s: its loop comments ("; in Loop: Header=BB0_3 Depth=1") give every
// block's depth, and its metadata counts (.vgpr_spill_count, .sgpr_spill_count)
// the spilled dwords and SGPRs. Fixtures: fixtures/spills (make.sh: two
// hand-written kernels, compiled by hipcc 5.2.3 and clang 19), the reference
// kernels' clang 19 output and Triton 3.6's gfx942 caches.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "regscope/backends/amd/collect.h"
#include "regscope/backends/amd/isa.h"
#include "regscope/backends/nvidia/collect.h"
#include "regscope/backends/nvidia/cubin.h"
#include "regscope/backends/nvidia/isa.h"
#include "regscope/isa/isa.h"
#include "test_util.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;
using test::readText;
using test::sourcePath;

// The loop depth the compiler wrote for each line of a .s: a block starts at
// a label or a "; %bb.N:" line; its depth is the largest "Depth=N" in the
// comments of its first lines ("=>This Inner Loop Header: Depth=2" follows the
// label on a line of its own), else 0. Read with a regular expression: this is
// the test's independent reading, not the product's.
std::vector<int> compilerDepths(const std::string &text) {
  std::vector<int> depth_of_line{0};
  static const std::regex block_start(R"(^(\.LBB\d+_\d+:|; %bb\.\d+:|[A-Za-z_$][\w$.]*:))");
  static const std::regex depth(R"(Depth=(\d+))");
  int current = 0;
  bool in_header = false;  // comment lines right after a block start
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    std::smatch m;
    if (std::regex_search(line, m, block_start)) {
      current = std::regex_search(line, m, depth) ? std::stoi(m[1]) : 0;
      in_header = true;
    } else if (in_header && line.find_first_not_of(" \t") != std::string::npos &&
               line[line.find_first_not_of(" \t")] == ';' && line.find("Depth=") != std::string::npos) {
      if (std::regex_search(line, m, depth)) current = std::max(current, std::stoi(m[1]));
    } else if (line.find_first_not_of(" \t") != std::string::npos && line[line.find_first_not_of(" \t")] != ';') {
      in_header = false;
    }
    depth_of_line.push_back(current);
    start = end + 1;
  }
  return depth_of_line;  // 1-based: index = line number
}

struct Fixture {
  std::string path;  // under fixtures/
  std::string arch;  // as LLVM 15 reads it
};

std::vector<Fixture> spillFixtures() {
  std::vector<Fixture> out;
  for (const char *name : {"spill_depths", "bounds_pressure"}) {
    out.push_back({std::string("spills/") + name + "-hipcc-5.2.3-gfx90a.s", "gfx90a"});
    out.push_back({std::string("spills/") + name + "-clang-19-gfx90a.s", "gfx90a"});
    out.push_back({std::string("spills/") + name + "-clang-19-gfx942.s", "gfx940"});
  }
  out.push_back({"clang-19/lbm-gfx90a.s", "gfx90a"});
  out.push_back({"spills/rsbench/simulation-hipcc-5.2.3-gfx90a.s", "gfx90a"});  // HeCBench's, not ours
  out.push_back({"clang-19/probe-gfx90a.s", "gfx90a"});
  // gfx950's text is read as gfx942's, whose instruction set it extends (artifact_isa.cpp): the
  // instructions LLVM 15 cannot read (MFMAs, conversions) are neither branches nor spills.
  for (const char *cache :
       {"cache-gfx942", "cache-squeezed-gfx942", "cache-wpe2-gfx942", "cache-gfx950", "cache-wpe1-gfx950"})
    for (const auto &entry : fs::recursive_directory_iterator(sourcePath(std::string("fixtures/triton/") + cache)))
      if (entry.path().extension() == ".amdgcn")
        out.push_back({fs::relative(entry.path(), sourcePath("fixtures")).string(), "gfx940"});
  return out;
}

TEST(SpillSites, EveryInstructionsLoopDepthIsTheCompilers) {
  int checked = 0, deep = 0;
  for (const Fixture &fx : spillFixtures()) {
    SCOPED_TRACE(fx.path);
    const std::string text = test::fixture(fx.path);
    const std::vector<int> expected = compilerDepths(text);
    IsaOptions options;
    options.estimate = false;
    const IsaReport report = analyzeAmdgpuAssembly(text, fx.arch, options);
    for (const IsaFunction &f : report.functions)
      for (std::size_t n = 0; n < f.instructions.size(); ++n) {
        const IsaInstruction &i = f.instructions[n];
        ASSERT_GT(i.asm_line, 0);
        // LLVM ends a block with `s_cbranch_* A; s_branch B`; regscope's CFG
        // ends one at the s_cbranch, so the s_branch is at the depth of the
        // path that runs it (leaving A's loop), not of the block LLVM names.
        if (n > 0 && i.text.rfind("s_branch", 0) == 0 && f.instructions[n - 1].text.rfind("s_cbranch", 0) == 0)
          continue;
        ASSERT_EQ(i.loop_depth, expected.at(i.asm_line)) << f.name << " line " << i.asm_line << ": " << i.text;
        ++checked;
        deep += i.loop_depth >= 2;
      }
  }
  EXPECT_GT(checked, 10000);
  EXPECT_GT(deep, 0);  // nested loops are among them
}

// What the compiler's metadata says each kernel spilled.
std::map<std::string, std::pair<std::int64_t, std::int64_t>> compilerCounts(const std::string &text) {
  std::map<std::string, std::pair<std::int64_t, std::int64_t>> out;
  for (const KernelFacts &k : parseAsm(text).facts.kernels) {
    auto v = k.get(Field::VgprSpills), s = k.get(Field::SgprSpills);
    if (v && s) out[k.name] = {*v, *s};
  }
  return out;
}

TEST(SpillSites, SpillStoresAddUpToTheCompilersSpillCounts) {
  int spilling = 0;
  for (const Fixture &fx : spillFixtures()) {
    SCOPED_TRACE(fx.path);
    const std::string text = test::fixture(fx.path);
    IsaOptions options;
    options.estimate = false;
    const IsaReport report = analyzeAmdgpuAssembly(text, fx.arch, options);
    for (const auto &[name, counts] : compilerCounts(text)) {
      const IsaFunction *f = nullptr;
      for (const IsaFunction &g : report.functions)
        if (g.name == name) f = &g;
      ASSERT_NE(f, nullptr) << name;
      const SpillTotals &t = f->spill_totals;
      spilling += counts.first + counts.second > 0;
      EXPECT_EQ(t.lane_stores, counts.second) << name;
      // Measured exception: Triton 3.6's squeezed gfx942 matmul's spill
      // stores write 2,070 dwords where its compiler counted 2,068 VGPRs
      // spilled (docs/explain.md, "Spill sites"); regscope shows both.
      if (fx.path.find("4KBCEAHAIL5G2DHE5PVSJQTWOQGPTU5SZHDG26YGPRIWF52WHEXA") != std::string::npos) {
        EXPECT_EQ(t.store_dwords, 2070);
        EXPECT_EQ(counts.first, 2068);
        continue;
      }
      EXPECT_EQ(t.store_dwords, counts.first) << name;
    }
  }
  EXPECT_GE(spilling, 21);
}

TEST(SpillSites, TheHandWrittenKernelSpillsAtEachDepthRankedDeepestFirst) {
  const std::string text = test::fixture("spills/spill_depths-hipcc-5.2.3-gfx90a.s");
  const IsaReport report = analyzeAmdgpuAssembly(text, "gfx90a", IsaOptions{false});
  ASSERT_EQ(report.functions.size(), 1u);
  const IsaFunction &f = report.functions.front();
  std::map<int, int> by_depth;
  int private_accesses = 0;
  for (const SpillSite &s : f.spills) {
    if (!s.spill) {  // a[(i + k) % W] is indexed at run time: a stack array
      ++private_accesses;
      EXPECT_FALSE(s.from_comment);
      continue;
    }
    ASSERT_TRUE(s.from_comment);
    ASSERT_EQ(s.medium, SpillMedium::Scratch);
    ASSERT_EQ(s.bytes, 4);
    ++by_depth[s.loop_depth];
  }
  EXPECT_EQ(private_accesses, f.spill_totals.private_accesses);
  EXPECT_GT(private_accesses, 0);
  // Read from the .s by hand (fixtures/spills/make.sh): 10 at depth 0, 34 in
  // the outer loop, 2 reloads in the inner loop.
  EXPECT_EQ(by_depth, (std::map<int, int>{{0, 10}, {1, 34}, {2, 2}}));
  EXPECT_EQ(f.spills.front().loop_depth, 2);
  EXPECT_EQ(f.spill_totals.accesses, 46);
  EXPECT_EQ(f.spill_totals.in_loops, 36);
  EXPECT_EQ(f.spill_totals.max_depth, 2);
  // Each inner-loop reload is at the source line of the inner loop's body.
  const std::string source = test::fixture("spills/spill_depths.hip");
  const int body = 1 + static_cast<int>(std::count(source.begin(), source.begin() + source.find("acc += b[i]"), '\n'));
  for (const SpillSite &s : f.spills)
    if (s.loop_depth == 2) EXPECT_EQ(f.instructions[s.instruction].line, body);
}

TEST(SpillSites, SgprsSpilledIntoVgprLanesArePairedWithTheirReloads) {
  const std::string text = test::fixture("spills/bounds_pressure-hipcc-5.2.3-gfx90a.s");
  const IsaReport report = analyzeAmdgpuAssembly(text, "gfx90a", IsaOptions{false});
  const IsaFunction &f = report.functions.front();
  int lane_reloads = 0;
  for (const SpillSite &s : f.spills)
    if (s.medium == SpillMedium::VgprLane && !s.store) ++lane_reloads;
  EXPECT_EQ(f.spill_totals.lane_stores, 112);  // the compiler's .sgpr_spill_count
  EXPECT_GE(lane_reloads, 1);
}

TEST(SpillSites, AStackArrayIsAPrivateAccessNotASpill) {
  // probe's private_array indexes a stack array: buffer_* over s[0:3] that
  // the compiler did not mark as spills.
  const std::string text = test::fixture("hipcc-5.2.3/probe-gfx90a.s");
  const IsaReport report = analyzeAmdgpuAssembly(text, "gfx90a", IsaOptions{false});
  const IsaFunction *f = nullptr;
  for (const IsaFunction &g : report.functions)
    if (g.name == "_Z13private_arrayPfi") f = &g;
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->spill_totals.accesses, 0);
  EXPECT_GT(f->spill_totals.private_accesses, 30);
  for (const SpillSite &s : f->spills) EXPECT_FALSE(s.spill);
}

// issue 33 item 2: a loop-spill verdict is an annotation at the spill, not at the kernel. The gate's
// location (text, SARIF) and parse's loop_spill_site are explain's first ranked spill in a loop that has a
// line: hipcc-made HIP at depth 2, Triton's gfx950 attention (SGPR lanes) and matmul tiles.
TEST(SpillSites, ALoopSpillVerdictPointsAtTheFirstSpillInTheDeepestLoop) {
  using nlohmann::json;
  // Removed however the test ends (an ASSERT returns early).
  struct Scratch {
    fs::path dir = fs::temp_directory_path() / ("regscope-loop-site-" + std::to_string(::getpid()));
    Scratch() { fs::create_directories(dir / "cache"); }
    ~Scratch() { fs::remove_all(dir); }
  } scratch_dir;
  const fs::path &scratch = scratch_dir.dir;
  auto run = [&](std::vector<std::string> args) {
    return test::runRegscope(args, sourcePath(""), scratch.string(), (scratch / "cache").string());
  };
  int checked = 0;
  for (const std::string input :
       {"fixtures/spills/rsbench/simulation-hipcc-5.2.3-gfx90a.s", "fixtures/spills/spill_depths-clang-19-gfx90a.s",
        "fixtures/spills/bounds_pressure-hipcc-5.2.3-gfx90a.s",
        "fixtures/triton/cache-gfx950/IP2PKCNBX7R3FNNWUJ2CIZVJ4ANVGEVUJ27FRKOLZBKCJU7MB6KQ",
        "fixtures/triton/cache-gfx950/SLN3MVV2YOATOD5JNNEVN3MBOG6DRQPJQH2H2I5S73GTMCXX6RUA"}) {
    SCOPED_TRACE(input);
    const json explained = json::parse(run({"explain", input, "--format", "json"}).out);
    const json parsed = json::parse(run({"parse", input, "--format", "json"}).out);
    const test::RunResult gate = run({"gate", input, "--max-loop-spills", "0", "--format", "sarif"});
    ASSERT_EQ(gate.exit_code, 1) << gate.err;
    const json sarif = json::parse(gate.out);
    for (const json &k : explained.at("kernels")) {
      json first;  // explain's ranking: the deepest loop first
      for (const json &site : k.at("spills"))
        if (site.at("kind") != "private_store" && site.at("kind") != "private_load" && site.at("loop_depth") > 0 &&
            site.at("line") > 0) {
          first = site;
          break;
        }
      if (first.is_null()) continue;
      ++checked;
      for (const json &p : parsed.at("kernels"))
        if (p.at("name") == k.at("name"))
          EXPECT_EQ(p.at("loop_spill_site"), json({{"file", first.at("file")}, {"line", first.at("line")}}));
      // RSBench's loop spills are in atan, inlined from clang's header: the place is the call in its .cu.
      if (input.find("rsbench") != std::string::npos) EXPECT_EQ(first.at("file"), "rsbench-hip/simulation.cu");
      bool located = false;
      for (const json &result : sarif.at("runs")[0].at("results")) {
        if (result.at("message").at("text").get<std::string>().find(k.at("demangled").get<std::string>()) ==
            std::string::npos)
          continue;
        const json &where = result.at("locations")[0].at("physicalLocation");
        EXPECT_EQ(where.at("region").at("startLine"), first.at("line"));
        const std::string uri = where.at("artifactLocation").at("uri");
        EXPECT_EQ(fs::path(uri).filename(), fs::path(first.at("file").get<std::string>()).filename()) << uri;
        located = true;
      }
      EXPECT_TRUE(located) << k.at("name") << gate.out;
    }
  }
  EXPECT_GE(checked, 5);
}

TEST(SpillSites, TritonBufferLoadsOnGfx942AreGlobalNotPrivate) {
  // Triton 3.6 reads global memory with buffer_load on gfx942 (architected
  // flat scratch: its private memory is scratch_* only).
  const std::string dir = sourcePath("fixtures/triton/cache-gfx942");
  int buffers = 0;
  for (const auto &entry : fs::recursive_directory_iterator(dir)) {
    if (entry.path().extension() != ".amdgcn") continue;
    const std::string text = readText(entry.path().string());
    const IsaReport report = analyzeAmdgpuAssembly(text, "gfx940", IsaOptions{false});
    for (const IsaFunction &f : report.functions) {
      for (const IsaInstruction &i : f.instructions) buffers += i.text.rfind("buffer_load", 0) == 0;
      for (const SpillSite &s : f.spills)
        EXPECT_EQ(f.instructions[s.instruction].text.rfind("buffer_", 0), std::string::npos);
    }
  }
  EXPECT_GT(buffers, 0);
}

// ---- NVIDIA: STL/LDL in nvdisasm's listing (fixtures/spills/nvidia/README.md) ----

const fs::path kNvidia = fs::path(REGSCOPE_SOURCE_DIR) / "fixtures/spills/nvidia";

// nvdisasm -c -gi listings recorded on the GPU machine, with the -bbcfg graph where one was kept.
std::vector<std::string> nvidiaListings() {
  return {"spill_depths.sm_90",
          "spill_depths.sm_80",
          "moved.sm_90",
          "moved-in-loop.sm_90",
          "warp_reduce.sm_90",
          "triton/triton-cache-squeezed-sm_90-IB5AIKUR-matmul_kernel",
          "triton/triton-cache-squeezed-sm_90-G2JYJMKZ-attn_fwd_kernel",
          "triton/triton-cache-sm_90-DDRKE2UE-attn_fwd_kernel",
          "triton/triton-cache-sm_90-SNV7DC66-matmul_kernel"};
}

const IsaFunction &functionNamed(const IsaReport &isa, const std::string &name) {
  for (const IsaFunction &f : isa.functions)
    if (f.name == name) return f;
  throw std::runtime_error("no function " + name);
}

bool isLocalAccess(const std::string &sass) {
  static const std::regex local(R"(^(@!?U?P\w+\s+)?(STL|LDL)\b)");
  return std::regex_search(sass, local);
}

// nvdisasm's own basic-block graph (-bbcfg, DOT): per function, its nodes in
// code order with their instruction texts, and its edges. Read with regular
// expressions: the test's reading, not the product's.
struct DotFunction {
  std::vector<std::string> nodes;
  std::map<std::string, std::vector<std::string>> body;  // node -> its instructions
  std::vector<std::pair<std::string, std::string>> edges;
};
std::map<std::string, DotFunction> readBbcfg(const std::string &dot) {
  std::map<std::string, DotFunction> out;
  static const std::regex cluster(R"re(^subgraph "cluster_(.*)" \{$)re");
  static const std::regex node(R"re(^"([^"]+)"$)re");
  static const std::regex edge(R"re(^"([^"]+)":\w+:\w+ -> "([^"]+)":entry)re");
  DotFunction *f = nullptr;
  std::string last_node;
  std::istringstream in(dot);
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_match(line, m, cluster)) {
      f = &out[m[1]];
    } else if (f && std::regex_match(line, m, node)) {
      last_node = m[1];
      f->nodes.push_back(last_node);
    } else if (f && std::regex_search(line, m, edge)) {
      f->edges.push_back({m[1], m[2]});
    } else if (f && line.rfind("[label=\"", 0) == 0) {
      // "{<entry>.L_x_2:\l\ \ STL\ \[R1+0x90\],\ R0\ ;\l|<exit0>\ \ @P0\ BRA ...": one instruction per \l
      std::string text = std::regex_replace(line, std::regex(R"(\\ )"), " ");
      std::size_t start = 0;
      for (std::size_t end; (end = text.find("\\l", start)) != std::string::npos; start = end + 2) {
        std::string ins =
            std::regex_replace(text.substr(start, end - start), std::regex(R"(^\[label="|^[{|]?<\w+>)"), "");
        ins = std::regex_replace(ins, std::regex(R"(^\s+|\s+$)"), "");
        // a port or two ("|<exitpost0>|<exit0>") before the instruction
        ins = std::regex_replace(ins, std::regex(R"(^(?:[{|]?<\w+>\s*)+)"), "");
        if (!ins.empty() && ins.back() == ';') f->body[last_node].push_back(ins);
      }
    }
  }
  return out;
}

// The loop depth of each node of a -bbcfg graph, by the depth-first search the
// textbooks give (recursive here), and each node's count of natural loops.
std::vector<int> dotDepths(const DotFunction &f) {
  std::map<std::string, int> index;
  for (std::size_t i = 0; i < f.nodes.size(); ++i) index[f.nodes[i]] = static_cast<int>(i);
  const int n = static_cast<int>(f.nodes.size());
  std::vector<std::vector<int>> succ(n), pred(n);
  for (const auto &[a, b] : f.edges) {
    succ[index.at(a)].push_back(index.at(b));
    pred[index.at(b)].push_back(index.at(a));
  }
  std::vector<int> state(n, 0);
  std::map<int, std::set<int>> tails;
  std::function<void(int)> dfs = [&](int u) {
    state[u] = 1;
    for (int v : succ[u]) {
      if (state[v] == 0)
        dfs(v);
      else if (state[v] == 1)
        tails[v].insert(u);
    }
    state[u] = 2;
  };
  dfs(0);
  std::vector<int> depth(n, 0);
  for (const auto &[head, ts] : tails) {
    std::set<int> loop{head};
    std::vector<int> work;
    for (int t : ts)
      if (loop.insert(t).second) work.push_back(t);
    while (!work.empty()) {
      const int b = work.back();
      work.pop_back();
      for (int p : pred[b])
        if (loop.insert(p).second) work.push_back(p);
    }
    for (int b : loop) ++depth[b];
  }
  return depth;
}

TEST(NvidiaSpillSites, EveryInstructionIsAtItsBlocksDepthInNvdisasmsOwnCfg) {
  int checked = 0;
  for (const std::string &name : nvidiaListings()) {
    const fs::path dot = kNvidia / (name + ".bbcfg.dot");
    if (!fs::exists(dot)) continue;
    const IsaReport isa = readNvdisasmListing(readText(kNvidia / (name + ".gi.txt")));
    for (const auto &[function, graph] : readBbcfg(readText(dot))) {
      SCOPED_TRACE(name + " " + function);
      const std::vector<int> depth = dotDepths(graph);
      std::vector<std::pair<std::string, int>> want;  // every instruction in code order, with its node's depth
      for (std::size_t i = 0; i < graph.nodes.size(); ++i)
        for (const std::string &ins : graph.body.at(graph.nodes[i])) want.push_back({ins, depth[i]});
      const IsaFunction &f = functionNamed(isa, function);
      // The graph leaves out what follows the last EXIT: the "BRA `(.L_x_7)" trap and NOP padding,
      // which nothing reaches (depth 0 for regscope).
      ASSERT_GE(f.instructions.size(), want.size());
      int local = 0;
      for (std::size_t i = 0; i < want.size(); ++i) {
        const std::string &ours = f.instructions[i].text;
        EXPECT_EQ(ours.substr(0, ours.find(' ')), want[i].first.substr(0, want[i].first.find(' ')))
            << "instruction " << i;
        EXPECT_EQ(f.instructions[i].loop_depth, want[i].second) << want[i].first << " at instruction " << i;
        local += isLocalAccess(want[i].first);
      }
      for (std::size_t i = want.size(); i < f.instructions.size(); ++i) {
        EXPECT_TRUE(f.instructions[i].text.rfind("NOP", 0) == 0 || f.instructions[i].text.rfind("BRA", 0) == 0)
            << f.instructions[i].text;
        EXPECT_EQ(f.instructions[i].loop_depth, 0) << f.instructions[i].text;
      }
      // ... the local-memory accesses among them are the spill sites
      EXPECT_EQ(f.spills.size(), static_cast<std::size_t>(local));
      EXPECT_GT(local, 0);
      EXPECT_TRUE(f.spill_totals.loops_known);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 8);  // 2 + 2 + 1 + 1 + 1 + 1 functions in the six graphs kept
}

TEST(NvidiaSpillSites, CountsBytesAndLinesEqualCuxrays) {
  const nlohmann::json truth = nlohmann::json::parse(readText(kNvidia / "cuxray-spills.json"));
  int kernels = 0;
  for (const nlohmann::json &k : truth["kernels"]) {
    const std::string listing = k["listing"];
    fs::path gi = kNvidia / (listing + ".gi.txt");
    if (!fs::exists(gi)) gi = kNvidia / "triton" / (listing + ".gi.txt");
    if (!fs::exists(gi)) continue;  // a small Triton spill (8 bytes) whose listing was not kept
    SCOPED_TRACE(listing + " " + k["name"].get<std::string>());
    const IsaReport isa = readNvdisasmListing(readText(gi));
    const IsaFunction &f = functionNamed(isa, k["name"]);
    const nlohmann::json &s = k["spills"];
    EXPECT_EQ(f.spill_totals.stores, s["store_instructions"].get<int>());
    EXPECT_EQ(f.spill_totals.accesses - f.spill_totals.stores, s["load_instructions"].get<int>());
    EXPECT_EQ(f.spill_totals.store_bytes, s["store_bytes"].get<long>());
    EXPECT_EQ(f.spill_totals.load_bytes, s["load_bytes"].get<long>());
    EXPECT_EQ(f.spill_totals.max_depth, s["max_loop_depth"].get<int>());
    // Per source line: the same stores and loads. cuxray's depth is its -cfg node's, which can
    // hold an inner loop's blocks too: never below the deepest basic block of the line.
    std::map<std::pair<std::string, int>, std::array<int, 3>> ours;  // stores, loads, deepest
    for (const SpillSite &site : f.spills) {
      const IsaInstruction &at = f.instructions[site.instruction];
      const std::string file = at.file < 0 ? "" : fs::path(isa.files[at.file].path()).filename().string();
      auto &row = ours[{file, at.line}];
      ++row[site.store ? 0 : 1];
      row[2] = std::max(row[2], site.loop_depth);
    }
    ASSERT_EQ(ours.size(), s["by_line"].size());
    for (const nlohmann::json &row : s["by_line"]) {
      const auto it = ours.find({row["file"].get<std::string>(), row["line"].get<int>()});
      ASSERT_NE(it, ours.end()) << row.dump();
      EXPECT_EQ(it->second[0], row["stores"].get<int>()) << row.dump();
      EXPECT_EQ(it->second[1], row["loads"].get<int>()) << row.dump();
      EXPECT_LE(it->second[2], row["loop_depth"].get<int>()) << row.dump();
    }
    ++kernels;
  }
  EXPECT_EQ(kernels, 10);  // of 12 in the file: two Triton listings were not kept (8 bytes; 575 KB)
}

// ptxas -v counts the bytes of the spill stores and loads it wrote: where a
// kernel has no local array, every STL/LDL is a spill and the bytes agree.
TEST(NvidiaSpillSites, LocalBytesEqualPtxassSpillBytesWithoutLocalArrays) {
  static const std::regex frame(R"((\d+) bytes spill stores, (\d+) bytes spill loads)");
  for (const std::string name : {"moved.sm_90", "moved-in-loop.sm_90"}) {
    SCOPED_TRACE(name);
    const std::string log = readText(kNvidia / (name + ".ptxas.txt"));
    std::smatch m;
    ASSERT_TRUE(std::regex_search(log, m, frame));
    const IsaReport isa = readNvdisasmListing(readText(kNvidia / (name + ".gi.txt")));
    const IsaFunction &f = functionNamed(isa, "_Z5movedPKfPfi");
    EXPECT_EQ(f.spill_totals.store_bytes, std::stol(m[1]));
    EXPECT_EQ(f.spill_totals.load_bytes, std::stol(m[2]));
  }
  // spill_depths indexes its array by a runtime value: more local bytes than ptxas's spill bytes.
  const std::string log = readText(kNvidia / "spill_depths.sm_90.ptxas.txt");
  const std::size_t at = log.find("Function properties for _Z12spill_depthsPKfPfii");
  ASSERT_NE(at, std::string::npos);
  std::smatch m;
  const std::string after = log.substr(at);
  ASSERT_TRUE(std::regex_search(after, m, frame));
  const IsaReport isa = readNvdisasmListing(readText(kNvidia / "spill_depths.sm_90.gi.txt"));
  const IsaFunction &f = functionNamed(isa, "_Z12spill_depthsPKfPfii");
  EXPECT_GT(f.spill_totals.store_bytes, std::stol(m[1]));
  EXPECT_GT(f.spill_totals.load_bytes, std::stol(m[2]));
}

// The CUDA twin of moved.hip: outside its loop every access is at depth 0; -DIN_LOOP moves them in.
TEST(NvidiaSpillSites, MovingTheSpillsIntoTheLoopMovesThemToDepthOne) {
  const IsaReport outside = readNvdisasmListing(readText(kNvidia / "moved.sm_90.gi.txt"));
  const IsaReport inside = readNvdisasmListing(readText(kNvidia / "moved-in-loop.sm_90.gi.txt"));
  const IsaFunction &out = functionNamed(outside, "_Z5movedPKfPfi");
  const IsaFunction &in = functionNamed(inside, "_Z5movedPKfPfi");
  EXPECT_GT(out.spill_totals.accesses, 100);
  EXPECT_EQ(out.spill_totals.in_loops, 0);
  EXPECT_GT(in.spill_totals.in_loops, 200);
  EXPECT_EQ(in.spill_totals.max_depth, 1);
  EXPECT_FALSE(in.has_liveness);
}

// An indirect branch (BRX) has targets the listing does not name: a loop may
// be missed, so the depths are a lower bound and loop_spills is not read.
// Hand-written listing (three instructions in nvdisasm's format): no compiler
// output at hand has a BRX beside local memory.
TEST(NvidiaSpillSites, AnIndirectBranchLeavesTheLoopsUnknown) {
  const std::string listing =
      "\t.section\t.text.k,\"ax\",@progbits\n"
      ".text.k:\n"
      "        /*0000*/                   STL [R1], R2 ;\n"
      ".L_x_0:\n"
      "        /*0010*/                   LDL R2, [R1] ;\n"
      "        /*0020*/                   BRX R4 -0x30 ;\n"
      "        /*0030*/                   EXIT ;\n";
  const IsaReport isa = readNvdisasmListing(listing);
  const IsaFunction &f = functionNamed(isa, "k");
  EXPECT_EQ(f.spill_totals.accesses, 2);
  EXPECT_FALSE(f.spill_totals.loops_known);
  ASSERT_FALSE(f.notes.empty());
  EXPECT_NE(f.notes.front().find("indirect branch"), std::string::npos);
}

// Without local memory there is no STL/LDL, so none in a loop: a cubin kernel
// with stack_bytes 0, and a kernel ptxas counted no spill bytes for, have
// loop_spills 0 with no listing; a kernel with local memory has it unknown
// until nvdisasm lists its cubin (readNvidiaLoopSpills).
TEST(NvidiaSpillSites, LoopSpillsAreZeroWithoutLocalMemoryAndUnknownWithIt) {
  auto facts = [](const std::vector<FactSet> &sets, const std::string &name) {
    for (const FactSet &set : sets)
      for (const KernelFacts &k : set.kernels)
        if (k.name == name) return k;
    throw std::runtime_error("no kernel " + name);
  };
  std::string producer;
  const std::vector<FactSet> triton = nvidiaBinaryFacts(
      readText(sourcePath(
          "fixtures/triton/cache-sm_90/7AUBJ5JZAVRCOUTBLPCY5WOVYSC4C7E3VKLPQZK4OEJH3SULYXWQ/add_kernel.cubin")),
      producer);
  const KernelFacts add = facts(triton, "add_kernel");
  ASSERT_EQ(add.get(Field::StackBytes), 0);
  EXPECT_EQ(add.get(Field::LoopSpills), 0);
  const std::vector<FactSet> cubin = nvidiaBinaryFacts(readText(kNvidia / "spill_depths.sm_90.cubin"), producer);
  const KernelFacts local = facts(cubin, "_Z11local_arrayPKiPfi");
  ASSERT_GT(local.get(Field::StackBytes).value_or(0), 0);
  EXPECT_FALSE(local.get(Field::LoopSpills));
  // ptxas -v: local_array's 128-byte frame holds no spill; spill_depths' spills.
  const FactSet ptxas = parsePtxas(readText(kNvidia / "spill_depths.sm_90.ptxas.txt"), "sm_90");
  const std::vector<FactSet> one{ptxas};
  EXPECT_EQ(facts(one, "_Z11local_arrayPKiPfi").get(Field::LoopSpills), 0);
  EXPECT_FALSE(facts(one, "_Z12spill_depthsPKfPfii").get(Field::LoopSpills));
}

// A branch with an operand before its target (BRA.DIV's mask, as warp_reduce's
// real listing has it; BRA.U's uniform predicate) may fall through. In
// warp_reduce the fall-through path changes no depth, so this hand-written
// listing (nvdisasm's format) puts a loop only on that path.
TEST(NvidiaSpillSites, ABranchWithAnOperandBeforeItsTargetMayFallThrough) {
  for (const std::string branch : {"BRA.DIV UR4, `(.L_x_1)", "BRA.U !UP0, `(.L_x_1)"}) {
    SCOPED_TRACE(branch);
    const std::string listing =
        ".text.k:\n"
        "        /*0000*/                   " +
        branch +
        " ;\n"
        ".L_x_0:\n"
        "        /*0010*/                   LDL R2, [R1] ;\n"
        "        /*0020*/               @P0 BRA `(.L_x_0) ;\n"
        ".L_x_1:\n"
        "        /*0030*/                   EXIT ;\n";
    const IsaReport isa = readNvdisasmListing(listing);
    const IsaFunction &f = functionNamed(isa, "k");
    EXPECT_EQ(f.spill_totals.in_loops, 1);
    EXPECT_EQ(f.instructions[1].loop_depth, 1);
  }
}

}  // namespace
}  // namespace regscope
