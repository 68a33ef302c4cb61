// What the views print of each kernel is its own backend's (Backend::
// kernelSection, kernelJson, through the registry): real compiler outputs of
// the three vendors in one report, each described by its backend, the
// sections in the table's order.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "regscope/backend/backend.h"
#include "regscope/pipeline/analyze.h"
#include "regscope/support/vendor.h"
#include "regscope/views/views.h"
#include "test_util.h"

namespace regscope {
namespace {

using test::sourcePath;

// hipcc 5.2.3's .s (AMD), nvcc 13's sm_80 cubin (NVIDIA) and ocloc 22.43's
// pvc zebin (Intel), parsed and put in one report in that order.
Report threeVendors() {
  Report all;
  for (const char *file : {"fixtures/hipcc-5.2.3/probe-gfx90a.s", "fixtures/cubin/cubin_probe.sm_80.cubin",
                           "fixtures/ocloc-22.43/probe.pvc.small.zebin"}) {
    Report one = parseArtifacts({sourcePath(file)}, "");
    EXPECT_FALSE(one.kernels.empty()) << file;
    all.kernels.insert(all.kernels.end(), one.kernels.begin(), one.kernels.end());
  }
  return all;
}

std::size_t column(const Table &table, const std::string &key) {
  for (std::size_t i = 0; i < table.columns.size(); ++i)
    if (table.columns[i].key == key) return i;
  ADD_FAILURE() << "no column " << key;
  return 0;
}

TEST(Describe, EachBackendDescribesItsOwnKernelsInTheTablesOrder) {
  const Report report = threeVendors();
  const std::vector<KernelSection> sections = kernelSections(report.kernels, report.compiler_version);
  ASSERT_EQ(sections.size(), 3u);
  // NVIDIA, Intel, AMD: the order the kernel table has always printed them in.
  const std::vector<Vendor> order = {Vendor::Nvidia, Vendor::Intel, Vendor::Amd};
  for (std::size_t s = 0; s < sections.size(); ++s) {
    const Table &table = sections[s].table;
    std::vector<const KernelReport *> own;
    for (const KernelReport &k : report.kernels)
      if (k.record.vendor == order[s]) own.push_back(&k);
    ASSERT_EQ(table.rows.size(), own.size()) << vendorName(order[s]);
    const std::size_t name = column(table, "name"), arch = column(table, "arch");
    for (std::size_t r = 0; r < own.size(); ++r) {
      EXPECT_EQ(table.rows[r][name].text, own[r]->record.name);
      EXPECT_EQ(table.rows[r][arch].text, own[r]->record.arch);
    }
  }
  // Each vendor's own columns: AMD's VGPRs, NVIDIA's registers, Intel's GRF.
  EXPECT_EQ(sections[0].table.rows.front()[column(sections[0].table, "registers")].number,
            report
                .kernels[std::find_if(report.kernels.begin(), report.kernels.end(),
                                      [](const KernelReport &k) { return k.record.vendor == Vendor::Nvidia; }) -
                         report.kernels.begin()]
                .record.value(Field::Registers));
  column(sections[1].table, "grf_count");
  column(sections[2].table, "vgprs");
}

TEST(Describe, EachKernelsJsonIsItsVendorsWithItsFigures) {
  const Report report = threeVendors();
  std::set<std::string> vendors;
  for (const KernelReport &k : report.kernels) {
    const nlohmann::json j = kernelJson(k, report.compiler_version);
    EXPECT_EQ(j.at("vendor"), vendorName(k.record.vendor));
    EXPECT_EQ(j.at("name"), k.record.name);
    EXPECT_EQ(j.at("arch"), k.record.arch);
    vendors.insert(j.at("vendor").get<std::string>());
    if (k.record.vendor == Vendor::Amd) EXPECT_EQ(j.at("vgprs"), k.record.value(Field::Vgprs));
    if (k.record.vendor == Vendor::Nvidia) EXPECT_EQ(j.at("registers"), k.record.value(Field::Registers));
    if (k.record.vendor == Vendor::Intel) EXPECT_EQ(j.at("grf_count"), k.record.value(Field::GrfCount));
  }
  EXPECT_EQ(vendors, (std::set<std::string>{"amd", "nvidia", "intel"}));
}

// A note several kernels share is said once, naming them: the same kernels
// compiled for two archs share their notes (a dynamic stack, an assumed
// workgroup size).
TEST(Describe, ANoteSharedByKernelsIsSaidOnceNamingThem) {
  const Report report = parseArtifacts(
      {sourcePath("fixtures/hipcc-5.2.3/probe-gfx90a.s"), sourcePath("fixtures/hipcc-5.2.3/probe-gfx908.s")}, "");
  const std::vector<KernelSection> sections = kernelSections(report.kernels, report.compiler_version);
  ASSERT_EQ(sections.size(), 1u);
  std::set<std::string> messages;
  std::string stack;
  for (const std::string &item : sections[0].notes.items) {
    // "k [arch], k2 [arch2] and 1 more: message"
    std::size_t colon = item.find(" more: ");
    colon = colon == std::string::npos ? item.find("]: ") + 1 : colon + 5;
    ASSERT_NE(colon, std::string::npos) << item;
    EXPECT_TRUE(messages.insert(item.substr(colon + 2)).second) << "said twice: " << item;
    if (item.find("uses a dynamic stack") != std::string::npos) stack = item;
  }
  EXPECT_EQ(stack,
            "recursive(int*, int) [gfx90a], recursive(int*, int) [gfx908]: uses a dynamic stack; its scratch "
            "size is a guess");
}

// A figure that was not read is "?" in the CI summary (markdown) and on the
// HTML page, never its 0: a cubin records no spill bytes.
TEST(Describe, AFigureNotReadIsUnknownInMarkdownAndHtml) {
  const Report report = parseArtifacts({sourcePath("fixtures/cubin/cubin_probe.sm_80.cubin")}, "");
  ASSERT_FALSE(report.kernels.empty());
  const std::unique_ptr<View> view = kernelTableView(report, "regscope parse", {});
  const std::string markdown = render(*view, Format::Markdown);
  for (const KernelReport &k : report.kernels) {
    EXPECT_FALSE(k.summary.spills_known) << k.record.name;
    EXPECT_TRUE(k.summary.registers_known) << k.record.name;
    // "| `name` | sm_80 | file | 12 | ? | ..."
    const std::string row = " | " + std::to_string(k.summary.registers) + " | ? | ";
    EXPECT_NE(markdown.find(row), std::string::npos) << row << "\n" << markdown;
  }
  const nlohmann::json page = view->page();
  int spills = 0;
  for (const nlohmann::json &kernel : page.at("kernels"))
    for (const nlohmann::json &arch : kernel.at("archs"))
      for (const nlohmann::json &figure : arch.at("figures"))
        if (figure.at("label") == "Spills") {
          EXPECT_EQ(figure.at("value"), "?");
          ++spills;
        }
  EXPECT_EQ(spills, static_cast<int>(report.kernels.size()));
}

// hipcc 5.2.3 (LLVM 15) compiled agpr_heavy for up to 1024 threads with 70
// VGPRs and 64 AGPRs (136 in gfx90a's unified file) and printed occupancy 3:
// 16 waves need 4 on every SIMD, 136 VGPRs allow 3, so at 1024 threads the
// workgroup is never resident: "cannot launch", not an occupancy, and not
// damage in the file (parse exits 0). At 768 threads it runs.
TEST(Describe, AWorkgroupTheRegistersCannotHoldCannotLaunch) {
  const std::string s = sourcePath("fixtures/hipcc-5.2.3/probe-gfx90a.s");
  auto agprHeavy = [](const Report &report) -> const KernelReport & {
    for (const KernelReport &k : report.kernels)
      if (k.record.name == "_Z10agpr_heavyPf") return k;
    throw std::runtime_error("no agpr_heavy");
  };
  const Report at_most = parseArtifacts({s}, "");
  const KernelReport &k = agprHeavy(at_most);
  EXPECT_EQ(k.record.value(Field::MaxWorkgroupSize), 1024);
  EXPECT_EQ(k.launch.block_size, 1024);
  EXPECT_EQ(k.summary.limiter, Limiter::Invalid);
  EXPECT_TRUE(k.impossible.empty());  // the figures are possible; the launch is not
  EXPECT_NE(kernelNextStep(k).find("cannot launch: a workgroup of 1024 threads is 16 waves"), std::string::npos)
      << kernelNextStep(k);
  EXPECT_NE(kernelJson(k, at_most.compiler_version)["occupancy"]["invalid_reason"].get<std::string>().find(
                "136 VGPRs allow 3 per SIMD"),
            std::string::npos);
  LaunchOverrides launch;
  launch.block_size = 768;
  const Report smaller = parseArtifacts({s}, "", launch);
  EXPECT_EQ(agprHeavy(smaller).summary.limiter, Limiter::Vgpr);
  EXPECT_EQ(agprHeavy(smaller).summary.level, 3);
}

}  // namespace
}  // namespace regscope
