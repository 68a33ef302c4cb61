// explain and analyze --lines against the installed hipcc: the line tables
// they add change no figure, the views say what the isa stage found, and bad
// input is one line with exit 2. Skips, saying why, without hipcc.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "binary_test.h"
#include "regscope/collect/kernel_record.h"
#include "regscope/pipeline/explain.h"
#include "regscope/support/files.h"
#include "test_util.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

class Explain : public test::BinaryWithHipcc {};

// The source line (1-based) holding `text`, or 0.
int lineContaining(const std::string &file, const std::string &text) {
  std::ifstream in(test::sourcePath(file));
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    if (line.find(text) != std::string::npos) return n;
  }
  return 0;
}

// explain and --lines compile with -gline-tables-only and keep the .s: every
// figure analyze reports must be the one a plain analyze gives, on every
// reference kernel of these sources (docs/explain.md has the wider check).
TEST_F(Explain, LineTablesChangeNoFigure) {
  std::vector<std::string> files;
  for (const char *f : {"kernels/lbm/lbm.hip", "kernels/laplacian/laplacian.hip", "kernels/bitonic/bitonic.hip",
                        "kernels/wideload/wideload.hip", "kernels/unroll/ax.hip"})
    files.push_back(test::sourcePath(f));
  AnalyzeOptions options;
  options.archs = {"gfx90a"};
  options.parallel = 2;
  const Report plain = analyzeFiles(files, options);
  const ExplainedReport lines = explainJobs(jobsForFiles(files), options);
  ASSERT_TRUE(plain.errors.empty());
  ASSERT_EQ(plain.kernels.size(), lines.report.kernels.size());
  ASSERT_EQ(lines.kernels.size(), lines.report.kernels.size());
  EXPECT_GE(plain.kernels.size(), 15u);  // 20 on hipcc 5.2.3
  for (std::size_t k = 0; k < plain.kernels.size(); ++k) {
    const KernelReport &a = plain.kernels[k], &b = lines.report.kernels[k];
    SCOPED_TRACE(a.record.demangled);
    ASSERT_EQ(a.record.name, b.record.name);
    for (Field f : {Field::Vgprs, Field::Agprs, Field::VgprsTotal, Field::Sgprs, Field::ScratchBytes, Field::VgprSpills,
                    Field::SgprSpills, Field::LdsBytes, Field::CompilerOccupancy})
      EXPECT_EQ(a.record.values[static_cast<std::size_t>(f)], b.record.values[static_cast<std::size_t>(f)])
          << fieldKey(f);
    EXPECT_EQ(a.summary.level, b.summary.level);
    EXPECT_EQ(a.summary.limiter, b.summary.limiter);
    // And the isa stage read every kernel of the same compile, within its allocation.
    const IsaFunction *f = lines.kernels[k].get();
    ASSERT_NE(f, nullptr) << lines.kernels[k].missing;
    EXPECT_TRUE(f->has_line_info);
    EXPECT_GT(f->max_vgprs, 0);
    EXPECT_LE(f->max_vgprs, b.record.value(Field::Vgprs));
    EXPECT_LE(f->max_sgprs, b.record.value(Field::Sgprs));
  }
}

// Seed 000: the pow line is the hottest of the original LBM kernel, and
// explain's JSON says so with the figures of the same compile.
TEST_F(Explain, LbmPowLineIsTheHottest) {
  test::RunResult r =
      run({"explain", test::sourcePath("kernels/lbm/lbm.hip"), "--offload-arch", "gfx90a", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  ASSERT_EQ(j["kernels"].size(), 1u);
  const json &k = j["kernels"][0];
  EXPECT_EQ(k["registers"], 102);  // the seed's VGPRs (EndToEnd.LbmVariantsReproduceTheSeedTable)
  const json &isa = k["isa"];
  ASSERT_TRUE(isa.is_object()) << k.dump();
  EXPECT_LE(isa["max_live"]["vgprs"].get<int>(), 102);
  EXPECT_GE(isa["max_live"]["vgprs"].get<int>(), 94);
  const int pow_line = lineContaining("kernels/lbm/lbm.hip", "pow(current_phi");
  ASSERT_GT(pow_line, 0);
  EXPECT_EQ(isa["hottest"][0]["line"], pow_line);
  EXPECT_NE(isa["hottest"][0]["source"].get<std::string>().find("pow(current_phi"), std::string::npos);
  EXPECT_GT(isa["mix"]["counts"]["valu"].get<int>(), 0);
  EXPECT_GT(isa["estimate"]["cycles"].get<int>(), 0);
  EXPECT_FALSE(isa["peak"]["live_across"].empty());
  EXPECT_EQ(isa["peak"]["vgprs"], isa["max_live"]["vgprs"]);
}

// --lines: the usual table's JSON with the N hottest lines per kernel, and the
// text prints the table, then each kernel's lines.
TEST_F(Explain, AnalyzeLinesAddsEachKernelsHottestLines) {
  const std::string src = test::sourcePath("kernels/bitonic/bitonic.hip");
  test::RunResult r = run({"analyze", src, "--lines=3", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  ASSERT_EQ(j["kernels"].size(), 2u);
  for (const json &k : j["kernels"]) {
    SCOPED_TRACE(k["name"].get<std::string>());
    ASSERT_TRUE(k["lines"].is_array());
    EXPECT_EQ(k["lines"].size(), 3u);
    EXPECT_LE(k["lines"][0]["peak_vgprs"].get<int>(), k["vgprs"].get<int>());
    EXPECT_GE(k["lines"][0]["peak_vgprs"].get<int>(), k["lines"][2]["peak_vgprs"].get<int>());
    EXPECT_EQ(k["lines"][0]["file"], src);
  }
  test::RunResult text = run({"analyze", src, "--lines"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("bitonic_int"), std::string::npos);
  EXPECT_NE(text.out.find("hottest source lines"), std::string::npos);
  EXPECT_LT(text.out.find("NEXT STEP"), text.out.find("hottest source lines")) << text.out;
}

TEST_F(Explain, BadInputIsOneLineAndExitTwo) {
  const std::string src = test::sourcePath("kernels/bitonic/bitonic.hip");
  test::RunResult unknown = run({"explain", src, "--kernel", "no_such_kernel"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("no kernel 'no_such_kernel'"), std::string::npos) << unknown.err;
  EXPECT_NE(unknown.err.find("bitonic_int"), std::string::npos) << unknown.err;  // the kernels it has
  EXPECT_EQ(std::count(unknown.err.begin(), unknown.err.end(), '\n'), 1) << unknown.err;

  test::RunResult picked = run({"explain", src, "--kernel", "bitonic_int", "--format", "json"});
  ASSERT_EQ(picked.exit_code, 0) << picked.err;
  EXPECT_EQ(json::parse(picked.out)["kernels"].size(), 1u);

  const std::string host_only = (fs::path(cwd_->path()) / "host.hip").string();
  writeFileAtomically(host_only, "int twice(int x) { return 2 * x; }\n");
  test::RunResult none = run({"explain", host_only});
  fs::remove(host_only);
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("no GPU kernels"), std::string::npos) << none.err;
  EXPECT_EQ(std::count(none.err.begin(), none.err.end(), '\n'), 1) << none.err;

  test::RunResult cuda = run({"explain", src, "--cuda-arch", "sm_90"});
  EXPECT_EQ(cuda.exit_code, 2);
  EXPECT_NE(cuda.err.find("nvdisasm"), std::string::npos) << cuda.err;
}

}  // namespace
}  // namespace regscope
