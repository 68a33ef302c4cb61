// Where a view goes (views/output.h), the vendors' words (target/vendor_words.h)
// and the occupancy calculators' input checks (backends/*/calculator.h), without the binary.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "regscope/backends/amd/calculator.h"
#include "regscope/backends/intel/calculator.h"
#include "regscope/backends/nvidia/calculator.h"
#include "regscope/pipeline/analyze.h"
#include "regscope/pipeline/parse_tree.h"
#include "regscope/support/error.h"
#include "regscope/support/files.h"
#include "regscope/support/process.h"
#include "regscope/target/cuda.h"
#include "regscope/target/intel.h"
#include "regscope/target/vendor_words.h"
#include "regscope/views/output.h"
#include "regscope/views/views.h"
#include "test_util.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

std::string errorOf(const std::function<void()> &run) {
  try {
    run();
  } catch (const Error &e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Output, ColourIsAlwaysNeverOrOnlyOnATerminal) {
  EXPECT_TRUE(useColor("always", false));
  EXPECT_FALSE(useColor("never", true));
  EXPECT_FALSE(useColor("auto", false));
}

TEST(Output, HtmlIsRefusedOnATerminalAndWrittenToAFile) {
  OutputOptions options;
  options.format = "html";
  EXPECT_EQ(errorOf([&] { renderOptionsFor(options, Format::Html, true); }),
            "--format html writes a file: give -o FILE, or redirect stdout (regscope ... > report.html)");
  EXPECT_NO_THROW(renderOptionsFor(options, Format::Html, false));
}

TEST(Output, TheReportGoesWholeToTheOutputFile) {
  const Report report = parseArtifacts({test::sourcePath("fixtures/hipcc-5.2.3/probe-gfx90a.s")}, "");
  TempDir dir;
  OutputOptions options;
  options.format = "json";
  options.path = dir.path() + "/report.json";
  emit(options, *kernelTableView(report, "regscope parse", {}));
  const nlohmann::json written = nlohmann::json::parse(test::readText(options.path));
  ASSERT_EQ(written["kernels"].size(), 5u);
  EXPECT_EQ(written["kernels"][0]["demangled"], "agpr_heavy(float*)");
  EXPECT_EQ(written["kernels"][0]["vgprs_total"], 136);
  EXPECT_EQ(written["kernels"][2]["demangled"], "lds_heavy(float*)");
  EXPECT_EQ(written["kernels"][2]["occupancy"]["waves_per_simd"], 4);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);  // no temporary left
  options.format = "yaml";
  EXPECT_EQ(errorOf([&] { emit(options, *kernelTableView(report, "regscope parse", {})); }), "unknown format 'yaml'");
}

// --format json writes a report's kernels one at a time (writeReportJson): its
// bytes are those of the whole document dumped at once, on reports of every
// vendor, a Triton cache, one with errors, and an empty one.
TEST(Output, TheJsonWrittenAKernelAtATimeIsTheWholeDocumentsBytes) {
  std::vector<Report> reports;
  reports.push_back(parseArtifacts(
      {test::sourcePath("fixtures/hipcc-5.2.3/probe-gfx90a.s"), test::sourcePath("fixtures/cubin/cubin_probe.exe")},
      ""));
  ParseOptions options;
  reports.push_back(parseInputs({test::sourcePath("fixtures/triton/cache-sm_90")}, options).report);
  Report failed = reports.front();
  failed.errors.push_back({"x.hip", "", "x.hip: does not compile\n  with \"quotes\" and a tab\t"});
  failed.warnings.push_back("a warning");
  reports.push_back(failed);
  reports.push_back(Report{});
  for (const Report &report : reports) {
    const std::unique_ptr<View> view = kernelTableView(report, "regscope parse", {});
    std::ostringstream streamed;
    view->writeJson(streamed);
    EXPECT_EQ(streamed.str(), dumpJson(view->toJson()) + "\n") << report.kernels.size() << " kernels";
    EXPECT_EQ(render(*view, Format::Json), streamed.str());
  }
  EXPECT_GT(reports[0].kernels.size(), 5u);
  EXPECT_GT(reports[1].kernels.size(), 0u);
}

// A writer that fails halfway (a signal, an error in a view) leaves no half
// report and no temporary file: the old file stays as it was.
TEST(Output, AStreamedWriteThatFailsHalfwayLeavesTheOldFile) {
  TempDir dir;
  const std::string path = dir.path() + "/report.json";
  writeFileAtomically(path, "old\n");
  EXPECT_EQ(errorOf([&] {
              writeFileAtomically(path, [](std::ostream &out) {
                out << std::string(3 << 20, 'x');  // past the 1 MiB buffer: some of it reached the temporary file
                throw Error("interrupted");
              });
            }),
            "interrupted");
  EXPECT_EQ(test::readText(path), "old\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);
  writeFileAtomically(path, [](std::ostream &out) { out << std::string(3 << 20, 'y') << "end"; });
  const std::string written = test::readText(path);
  EXPECT_EQ(written.size(), (3u << 20) + 3);
  EXPECT_EQ(written.substr(written.size() - 4), "yend");
}

TEST(Output, AnOutputThatIsAnInputOrCannotBeWrittenIsRefusedFirst) {
  TempDir dir;
  const std::string input = dir.path() + "/a.hip";
  std::ofstream(input) << "";
  EXPECT_EQ(errorOf([&] { refuseOverwritingInputs({input}, input); }),
            input + " is one of the inputs; refusing to overwrite it");
  EXPECT_EQ(errorOf([&] { refuseOverwritingInputs({}, dir.path()); }),
            "cannot write " + dir.path() + ": is a directory");
  EXPECT_EQ(errorOf([&] { refuseOverwritingInputs({}, dir.path() + "/no/r.json"); }),
            "cannot write " + dir.path() + "/no/r.json: no directory " + dir.path() + "/no");
  EXPECT_NO_THROW(refuseOverwritingInputs({input}, dir.path() + "/r.json"));
  EXPECT_NO_THROW(refuseOverwritingInputs({input}, ""));  // stdout
}

TEST(VendorWords, EachVendorNamesItsOwnRegistersAndSpills) {
  for (Vendor v : {Vendor::Amd, Vendor::Nvidia, Vendor::Intel}) EXPECT_EQ(vendorWords(v).vendor, v);
  EXPECT_STREQ(vendorWords(Vendor::Amd).registers_axis.title, "VGPRs per lane");
  EXPECT_STREQ(vendorWords(Vendor::Nvidia).spills_name, "spill stores");
  EXPECT_STREQ(vendorWords(Vendor::Intel).spills_unit, "bytes/thread");
  EXPECT_EQ(vendorWords(Vendor::Nvidia).matrix_column, nullptr);  // no AGPRs on NVIDIA
  EXPECT_STREQ(vendorWords(Vendor::Amd).matrix_column, "AGPR");
}

TEST(Calculator, AmdFiguresOutsideTheTargetNameTheOption) {
  AmdCalculatorInput input;
  input.arch = "gfx90a";
  input.resources.vgprs = 600;
  input.resources.workgroup_size = 256;
  EXPECT_EQ(errorOf([&] { calculateAmdOccupancy(input); }), "--vgprs 600 is outside 0..256 on gfx90a");
  input.resources.vgprs = 72;
  input.resources.lds_bytes = 60000;
  input.dynamic_lds = 10000;
  EXPECT_EQ(errorOf([&] { calculateAmdOccupancy(input); }),
            "--lds + --dynamic-lds is 70000 bytes, more than the 65536 a workgroup may have on gfx90a");
  input.resources.lds_bytes = 1000;
  input.dynamic_lds = 2000;
  EXPECT_EQ(calculateAmdOccupancy(input).resources.lds_bytes, 3000);  // the launch's bytes counted
}

TEST(Calculator, NvidiaAndIntelFiguresTheHardwareCannotHaveNameTheOption) {
  CudaResources cuda;
  cuda.registers = 300;
  EXPECT_EQ(errorOf([&] { calculateCudaOccupancy(*findCudaArch("sm_80"), cuda); }),
            "--registers 300 is outside 0..255 on sm_80");
  IntelResources intel;
  intel.grf_count = 192;
  EXPECT_EQ(errorOf([&] { calculateIntelOccupancy(*findIntelDevice("pvc"), intel); }),
            "--grf 192 is not a GRF mode of pvc (128 or 256)");
}

}  // namespace
}  // namespace regscope
