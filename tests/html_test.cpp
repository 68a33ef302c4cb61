// --format html: the model's occupancy curves, the page document, escaping,
// and the pages as headless Chromium renders them (Debian's chromium, which
// scripts/install-test-tools.sh installs; the browser tests skip without it).
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "html_page.h"  // the section builders explain and advise will call
#include "regscope/backend/backend.h"
#include "regscope/backend/modelled_kernel.h"
#include "regscope/backends/intel/backend.h"
#include "regscope/backends/nvidia/backend.h"
#include "regscope/gate/findings.h"
#include "regscope/model/occupancy_curves.h"
#include "regscope/pipeline/analyze.h"
#include "regscope/support/files.h"
#include "regscope/support/process.h"
#include "regscope/target/cuda.h"
#include "regscope/target/intel.h"
#include "regscope/views/views.h"
#include "test_util.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

void setField(KernelRecord &record, Field field, std::int64_t value) {
  record.values[static_cast<std::size_t>(field)] = value;
}

Report lbmReport() {
  return parseArtifacts(
      {test::sourcePath("fixtures/hipcc-5.2.3/lbm-gfx908.s"), test::sourcePath("fixtures/hipcc-5.2.3/lbm-gfx90a.s")},
      "");
}

const OccupancyCurve *curve(const OccupancyChart &chart, CurveAxis axis) {
  for (const OccupancyCurve &c : chart.curves)
    if (c.axis == axis) return &c;
  return nullptr;
}

// Consistency tests (not model tests; issue 26): every curve passes through the kernel's own figures,
// and the register curve's next step and headroom are the model's (computeOccupancy's inverse
// searches), though the curve found them by sampling the forward rule. The model's figures themselves
// are pinned elsewhere (occupancy_test.cpp, pinned_rules_test.cpp); the gfx90a staircase below is
// checked against the published Table 1, a literal.
void expectCurvesAgreeWithTheModel(const KernelReport &k) {
  const OccupancyChart chart = occupancyChart(k);
  ASSERT_EQ(chart.curves.size(), 3u) << k.record.arch;
  for (const OccupancyCurve &c : chart.curves) {
    EXPECT_EQ(c.kernel_level, k.summary.level) << curveAxisName(c.axis) << " " << k.record.arch;
    ASSERT_FALSE(c.steps.empty());
    for (std::size_t i = 1; i < c.steps.size(); ++i) {
      EXPECT_EQ(c.steps[i].x_from, c.steps[i - 1].x_to + 1);
      EXPECT_NE(c.steps[i].level, c.steps[i - 1].level);
    }
  }
  if (const AmdKernelModel *m = std::get_if<AmdKernelModel>(&k.model)) {
    const OccupancyCurve &regs = *curve(chart, CurveAxis::Registers);
    EXPECT_EQ(regs.kernel_x, m->occupancy.vgprs_total);
    ASSERT_TRUE(regs.headroom_to);
    EXPECT_EQ(*regs.headroom_to - regs.kernel_x, m->occupancy.headroom.vgprs) << k.record.arch;
    const OccupancyCurve &lds = *curve(chart, CurveAxis::Shared);
    EXPECT_EQ(lds.kernel_x, m->resources.lds_bytes);
    if (m->occupancy.next && m->occupancy.next->sgprs_to_free == 0 && m->occupancy.next->lds_bytes_to_free == 0) {
      ASSERT_TRUE(regs.next) << k.record.arch;
      EXPECT_EQ(regs.next->x_to, regs.kernel_x - m->occupancy.next->vgprs_to_free);
      EXPECT_EQ(regs.next->level, m->occupancy.next->waves_per_simd);
    }
    // The first limit listed by the model is the one that binds.
    EXPECT_EQ(chart.curves.front().axis, m->occupancy.limiter == Limiter::Lds         ? CurveAxis::Shared
                                         : m->occupancy.limiter == Limiter::Workgroup ? CurveAxis::BlockSize
                                                                                      : CurveAxis::Registers);
  }
}

TEST(OccupancyCurves, LbmOnCdna1AndCdna2PassThroughTheKernelsFigures) {
  const Report report = lbmReport();
  ASSERT_EQ(report.kernels.size(), 2u);
  for (const KernelReport &k : report.kernels) {
    SCOPED_TRACE(k.record.arch);
    expectCurvesAgreeWithTheModel(k);
    // Seed 000's Table 1 for gfx90a ("Register pressure in AMD CDNA2 GPUs", and LLVM's D138443 dump),
    // as literals: the most VGPRs for each level.
    if (k.record.arch == "gfx90a") {
      const OccupancyChart chart = occupancyChart(k);
      const OccupancyCurve &regs = *curve(chart, CurveAxis::Registers);
      const int table1[][2] = {{64, 8}, {72, 7}, {80, 6}, {96, 5}, {128, 4}, {168, 3}, {256, 2}, {512, 1}};
      for (auto [max_vgprs, waves] : table1) {
        const CurveStep *at = nullptr;
        for (const CurveStep &s : regs.steps)
          if (max_vgprs >= s.x_from && max_vgprs <= s.x_to) at = &s;
        ASSERT_NE(at, nullptr) << max_vgprs;
        // The curve keeps the kernel's LDS and SGPRs, so it is capped where they limit.
        EXPECT_LE(at->level, waves) << max_vgprs;
      }
    }
  }
}

// Hand-made records (the figures are chosen, not read from a compiler): the
// NVIDIA and Intel models' curves meet the kernel at its summary level too.
TEST(OccupancyCurves, CudaAndIntelCurvesMeetTheKernel) {
  KernelRecord cuda;
  cuda.vendor = Vendor::Nvidia;
  cuda.arch = "sm_90";
  cuda.name = "k";
  setField(cuda, Field::Registers, 72);
  setField(cuda, Field::SharedBytes, 12 * 1024);
  const ModelledKernel c = modelCudaKernel(cuda, *findCudaArch("sm_90"), {});
  const OccupancyChart cc = occupancyChart(c);
  ASSERT_EQ(cc.curves.size(), 3u);
  for (const OccupancyCurve &curve : cc.curves)
    EXPECT_EQ(curve.kernel_level, c.summary.level) << curveAxisName(curve.axis);
  EXPECT_EQ(cc.curves.front().axis, CurveAxis::Registers);  // 72 registers limit sm_90 at 256 threads

  KernelRecord intel;
  intel.vendor = Vendor::Intel;
  intel.arch = "pvc";
  intel.name = "k";
  setField(intel, Field::GrfCount, 256);
  setField(intel, Field::SimdSize, 16);
  const IntelDevice &pvc = requireIntelDevice("pvc");
  const ModelledKernel i = modelIntelKernel(intel, pvc, parseIntelTarget("pvc"), {});
  const OccupancyChart ic = occupancyChart(i);
  ASSERT_EQ(ic.curves.size(), 3u);
  for (const OccupancyCurve &curve : ic.curves)
    EXPECT_EQ(curve.kernel_level, i.summary.level) << curveAxisName(curve.axis);
  const OccupancyCurve &grf = *curve(ic, CurveAxis::Registers);
  ASSERT_EQ(grf.steps.size(), 2u);  // small and large GRF mode
  ASSERT_TRUE(grf.next);            // small GRF mode doubles the threads
  EXPECT_EQ(grf.next->x_to, pvc.grf_small);
}

// ---- the page ----

// A view whose page document is written by hand: the sections explain and
// advise will fill (source heat strips, instruction mix, measured edits),
// tried on hand-made data until those commands exist.
class HandMadePage : public View {
 public:
  explicit HandMadePage(json page) : page_(std::move(page)) {}
  Document document() const override { return {}; }
  json toJson() const override { return page_; }
  json page() const override { return page_; }

 private:
  json page_;
};

const char *const kHostile = "k<\"a\" & 'b'><script>alert(1)</script>";

std::string hostileReportPage(const Report &report) {
  Report copy = report;
  for (KernelReport &k : copy.kernels) {
    k.record.demangled = std::string("void ") + kHostile + "(double*)";
    k.display_file = "dir/<b>&\"x\".hip";
  }
  return render(*kernelTableView(copy, "regscope analyze", analysisFindings(copy)), Format::Html);
}

TEST(Html, EscapesKernelNamesPathsAndSourceLines) {
  const std::string html = hostileReportPage(lbmReport());
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find(kHostile), std::string::npos);
  EXPECT_NE(html.find("k&lt;&quot;a&quot; &amp; &apos;b&apos;&gt;&lt;script&gt;"), std::string::npos);
  EXPECT_EQ(html.find("<b>&\"x\""), std::string::npos);
  EXPECT_NE(html.find("dir/&lt;b&gt;&amp;&quot;x&quot;.hip"), std::string::npos);
}

// The sections explain and advise will fill, on hand-made data (marked as
// such in the page's title): source lines with live registers, an
// instruction mix and one measured edit, each with hostile text.
json handMadeExplainAndAdvise() {
  json page = kernelTableView(lbmReport(), "regscope explain (hand-made data)", {})->page();
  const std::vector<HeatLine> lines = {{10, "  double f0 = src[i];", 12, 8, 0},
                                       {11, "  if (a < b && c > d) { /* <script> */ }", 96, 20, 4},
                                       {12, "  dst[i] = f0 * 'q' + \"s\";", 40, 10, 0}};
  for (json &kernel : page["kernels"])
    for (json &arch : kernel["archs"]) {
      arch["source"] = sourceHeat("lbm.hip", lines, 2);
      arch["mix"] = instructionMix({{"VALU", 600}, {"VMEM", 150}, {"SALU", 200}, {"LDS", 50}});
    }
  page["edits"] = json::array({editEntry("Hoist the <load> & reuse", "lbm.hip", "kernel(double*)", "gfx90a",
                                         {{"VGPRs", "128", "96", true, false}, {"waves/SIMD", "4", "5", true, false}},
                                         {{DiffKind::Context, 10, 10, "  double f0 = src[i];"},
                                          {DiffKind::Removed, 11, 0, "  x = a<b;"},
                                          {DiffKind::Added, 0, 11, "  x = a<b && \"q\";"}})});
  return page;
}

TEST(Html, ExplainAndAdviseSectionsEscapeSourceAndDiffLines) {
  const std::string html = render(HandMadePage(handMadeExplainAndAdvise()), Format::Html);
  EXPECT_EQ(html.find("<script>"), std::string::npos);
  EXPECT_NE(html.find("if (a &lt; b &amp;&amp; c &gt; d) { /* &lt;script&gt; */ }"), std::string::npos);
  EXPECT_NE(html.find("x = a&lt;b &amp;&amp; &quot;q&quot;;"), std::string::npos);
  EXPECT_NE(html.find("Hoist the &lt;load&gt; &amp; reuse"), std::string::npos);
  EXPECT_NE(html.find("data-peak-line=\"11\""), std::string::npos);
}

// ---- in headless Chromium ----

std::string chromium() {
  for (const char *path : {"/usr/bin/chromium", "/usr/bin/chromium-browser"})
    if (fs::exists(path)) return path;
  return "";
}

// What Chromium made of a page: the DOM after load, the console messages,
// and the requests the page made (from Chromium's net log: URL requests in
// the file:// page's network isolation key; Chromium's own background
// requests belong to other keys).
struct Loaded {
  std::string dom;
  std::vector<std::string> console;
  std::vector<std::string> requests;
};

Loaded loadInChromium(const std::string &html_path, const std::string &scratch, const std::string &screenshot = "") {
  const std::string profile = scratch + "/profile", net_log = scratch + "/net.json";
  std::vector<std::string> argv = {chromium(),
                                   "--headless",
                                   "--no-sandbox",  // the test may run as root
                                   "--disable-gpu",
                                   "--no-first-run",
                                   "--disable-background-networking",
                                   "--disable-component-update",
                                   "--disable-sync",
                                   "--user-data-dir=" + profile,
                                   "--enable-logging=stderr",
                                   "--v=0",
                                   "--log-net-log=" + net_log,
                                   "--window-size=1400,1800"};
  if (!screenshot.empty())
    argv.push_back("--screenshot=" + screenshot);
  else
    argv.push_back("--dump-dom");
  argv.push_back("file://" + html_path);
  const ProcessOutput out = runCaptured(argv, scratch);
  Loaded loaded;
  loaded.dom = out.out;
  std::istringstream err(out.err);
  for (std::string line; std::getline(err, line);)
    if (line.find(":CONSOLE") != std::string::npos) loaded.console.push_back(line);
  const json log = json::parse(test::readText(net_log), nullptr, /*allow_exceptions=*/false);
  if (log.is_discarded()) {
    loaded.requests.push_back("(no net log: " + out.err.substr(0, 300) + ")");
    return loaded;
  }
  int start_job = -1;
  for (const auto &[name, id] : log["constants"]["logEventTypes"].items())
    if (name == "URL_REQUEST_START_JOB") start_job = id.get<int>();
  for (const json &e : log["events"]) {
    if (e.value("type", -2) != start_job || !e.contains("params")) continue;
    const json &p = e["params"];
    if (p.value("network_isolation_key", "").rfind("file://", 0) == 0) loaded.requests.push_back(p.value("url", "?"));
  }
  return loaded;
}

// The value of `attribute` in the tag that starts at `at`.
std::string attributeAt(const std::string &dom, std::size_t at, const std::string &attribute) {
  const std::size_t end = dom.find('>', at);
  const std::size_t a = dom.find(" " + attribute + "=\"", at);
  if (a == std::string::npos || a > end) return "";
  const std::size_t from = a + attribute.size() + 3;
  return dom.substr(from, dom.find('"', from) - from);
}

// The y of the staircase path "M x y H x V y H x ..." at `x` (the step whose span holds it).
double pathYAt(const std::string &path, double x) {
  std::istringstream in(path);
  char op;
  double cur_x = 0, cur_y = 0, value;
  while (in >> op >> value) {
    if (op == 'M') {
      cur_x = value;
      in >> cur_y;
    } else if (op == 'V') {
      cur_y = value;
    } else if (op == 'H') {
      if (x >= cur_x - 0.05 && x <= value + 0.05) return cur_y;
      cur_x = value;
    }
  }
  return -1;
}

class InChromium : public ::testing::Test {
 protected:
  void SetUp() override {
    if (chromium().empty())
      GTEST_SKIP() << "chromium is not installed: scripts/install-test-tools.sh installs it for the test suite";
  }
  TempDir dir_;
};

// The control: the helper sees a console message and a request when a page makes them.
TEST_F(InChromium, SeesConsoleMessagesAndRequestsWhenThereAreSome) {
  const std::string page = dir_.path() + "/control.html";
  std::ofstream(page) << "<!DOCTYPE html><p>x</p><img src=\"http://127.0.0.1:9/x.png\">"
                         "<script>console.error('control')</script>";
  const Loaded loaded = loadInChromium(page, dir_.path());
  ASSERT_EQ(loaded.console.size(), 1u);
  EXPECT_NE(loaded.console[0].find("control"), std::string::npos);
  ASSERT_EQ(loaded.requests.size(), 1u);
  EXPECT_EQ(loaded.requests[0], "http://127.0.0.1:9/x.png");
}

// The LBM kernel on gfx908 and gfx90a (hipcc 5.2.3's .s): the page loads
// offline and silently, each arch has its three charts, and each chart's
// marked point sits on the staircase at the kernel's figures from the JSON.
TEST_F(InChromium, LbmReportHasEveryChartWithThePointAtTheKernelsFigures) {
  const std::string a = test::sourcePath("fixtures/hipcc-5.2.3/lbm-gfx908.s");
  const std::string b = test::sourcePath("fixtures/hipcc-5.2.3/lbm-gfx90a.s");
  TempDir tmp, cache;
  const std::string html = dir_.path() + "/lbm.html";
  test::RunResult r =
      test::runRegscope({"parse", a, b, "--format", "html", "-o", html}, dir_.path(), tmp.path(), cache.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  test::RunResult j = test::runRegscope({"parse", a, b, "--format", "json"}, dir_.path(), tmp.path(), cache.path());
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const json report = json::parse(j.out);

  const Loaded loaded = loadInChromium(html, dir_.path());
  EXPECT_TRUE(loaded.console.empty()) << loaded.console.front();
  EXPECT_TRUE(loaded.requests.empty()) << loaded.requests.front();
  ASSERT_NE(loaded.dom.find("</html>"), std::string::npos);

  std::set<std::string> archs_seen;
  for (const json &k : report["kernels"]) {
    const std::string arch = k["arch"];
    const std::size_t section = loaded.dom.find("<section class=\"arch\" data-arch=\"" + arch + "\"");
    ASSERT_NE(section, std::string::npos) << arch;
    archs_seen.insert(arch);
    const std::size_t section_end = loaded.dom.find("</section>", section);
    const json &occ = k["occupancy"];
    const std::string level = std::to_string(occ["waves_per_simd"].get<int>());
    EXPECT_EQ(attributeAt(loaded.dom, section, "data-level"), level);
    int charts = 0;
    for (std::size_t at = loaded.dom.find("<figure class=\"chart", section); at < section_end;
         at = loaded.dom.find("<figure class=\"chart", at + 1)) {
      ++charts;
      const std::string axis = attributeAt(loaded.dom, at, "data-axis");
      const std::size_t point = loaded.dom.find("<circle class=\"point\"", at);
      const std::size_t path = loaded.dom.find("<path class=\"curve\"", at);
      ASSERT_LT(point, loaded.dom.find("</figure>", at)) << arch << " " << axis;
      EXPECT_EQ(attributeAt(loaded.dom, point, "data-level"), level);
      const int x = std::stoi(attributeAt(loaded.dom, point, "data-x"));
      const std::size_t headroom = loaded.dom.find("<rect class=\"headroom\"", at);
      const bool has_headroom = headroom < loaded.dom.find("</figure>", at);
      if (axis == "registers") {
        EXPECT_EQ(x, k["vgprs_total"].get<int>()) << arch;
        const int more = occ["headroom"]["vgprs"].get<int>();
        EXPECT_EQ(has_headroom, more > 0) << arch;
        if (has_headroom) EXPECT_EQ(attributeAt(loaded.dom, headroom, "data-to"), std::to_string(x + more)) << arch;
        // The chart marks the next step where fewer VGPRs alone reach it. On gfx90a they do not: LBM's
        // 98 SGPRs and the XNACK pair take seven granules of 16 (7 waves/SIMD, one 1024-thread
        // workgroup), so its next step frees SGPRs too and the VGPR curve has no higher stair.
        const std::size_t next = loaded.dom.find("<circle class=\"next\"", at);
        const bool vgprs_alone = occ["next"]["sgprs_to_free"] == 0 && occ["next"]["lds_bytes_to_free"] == 0;
        EXPECT_EQ(next < point, vgprs_alone) << arch;
        EXPECT_EQ(vgprs_alone, arch == "gfx908") << arch;
        if (vgprs_alone) {
          EXPECT_EQ(attributeAt(loaded.dom, next, "data-x"),
                    std::to_string(x - occ["next"]["vgprs_to_free"].get<int>()));
          EXPECT_EQ(attributeAt(loaded.dom, next, "data-level"),
                    std::to_string(occ["next"]["waves_per_simd"].get<int>()));
        }
      }
      if (axis == "shared") EXPECT_EQ(x, k["lds_bytes"].get<int>()) << arch;
      if (axis == "block_size") EXPECT_EQ(x, occ["workgroup_size"].get<int>()) << arch;
      // Drawn where the curve is: the point's y is the staircase's y at its x.
      const double cx = std::stod(attributeAt(loaded.dom, point, "cx"));
      const double cy = std::stod(attributeAt(loaded.dom, point, "cy"));
      EXPECT_NEAR(pathYAt(attributeAt(loaded.dom, path, "d"), cx), cy, 0.05) << arch << " " << axis;
    }
    EXPECT_EQ(charts, 3) << arch;
  }
  EXPECT_EQ(archs_seen, (std::set<std::string>{"gfx908", "gfx90a"}));
}

TEST_F(InChromium, HandMadeExplainAndAdviseSectionsRender) {
  const std::string html = dir_.path() + "/explain.html";
  std::ofstream(html) << render(HandMadePage(handMadeExplainAndAdvise()), Format::Html);
  const Loaded loaded = loadInChromium(html, dir_.path());
  EXPECT_TRUE(loaded.console.empty()) << loaded.console.front();
  EXPECT_TRUE(loaded.requests.empty()) << loaded.requests.front();
  // The hot line first in the hottest-lines table, marked as the peak in the strip.
  EXPECT_NE(loaded.dom.find("<tr class=\"peak\" data-line=\"11\" data-vgprs=\"96\">"), std::string::npos);
  const std::size_t hot = loaded.dom.find("<table class=\"hot\">");
  ASSERT_NE(hot, std::string::npos);
  EXPECT_LT(loaded.dom.find("<td class=\"num\">11</td>", hot), loaded.dom.find("<td class=\"num\">12</td>", hot));
  EXPECT_NE(loaded.dom.find("<tr class=\"removed\">"), std::string::npos);
  EXPECT_NE(loaded.dom.find("<tr class=\"added\">"), std::string::npos);
  // Chromium parsed no element out of the hostile source text.
  EXPECT_EQ(loaded.dom.find("<script>"), std::string::npos);
  EXPECT_EQ(loaded.dom.find("<load>"), std::string::npos);
}

// explain --format html on the seed's LBM kernel, compiled by hipcc: the
// source's heat strip marks the line the JSON names as the peak, with the
// JSON's live VGPRs there, and the page loads clean.
TEST_F(InChromium, ExplainOfLbmMarksThePeakLineOfItsJson) {
  if (!test::haveHipcc()) GTEST_SKIP() << "hipcc is not installed";
  const std::string lbm = test::sourcePath("kernels/lbm/lbm.hip");
  TempDir cwd, tmp, cache;
  const test::RunResult j =
      test::runRegscope({"explain", lbm, "--format", "json"}, cwd.path(), tmp.path(), cache.path());
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const json peak = json::parse(j.out)["kernels"][0]["isa"]["peak"];
  const std::string html = dir_.path() + "/explain.html";
  const test::RunResult h =
      test::runRegscope({"explain", lbm, "--format", "html", "-o", html}, cwd.path(), tmp.path(), cache.path());
  ASSERT_EQ(h.exit_code, 0) << h.err;
  const Loaded loaded = loadInChromium(html, dir_.path());
  EXPECT_TRUE(loaded.console.empty()) << loaded.console.front();
  EXPECT_TRUE(loaded.requests.empty()) << loaded.requests.front();
  const std::string marked = "<tr class=\"peak\" data-line=\"";
  const std::size_t at = loaded.dom.find(marked);
  ASSERT_NE(at, std::string::npos) << "no peak line in the heat strip";
  EXPECT_EQ(attributeAt(loaded.dom, at, "data-vgprs"), std::to_string(peak["vgprs"].get<int>()));
  EXPECT_NE(loaded.dom.find("pow(current_phi, 2.0)"), std::string::npos);  // the source is on the page
}

TEST_F(InChromium, HostileNamesStayText) {
  const std::string html = dir_.path() + "/hostile.html";
  std::ofstream(html) << hostileReportPage(lbmReport());
  const Loaded loaded = loadInChromium(html, dir_.path());
  EXPECT_TRUE(loaded.console.empty()) << loaded.console.front();
  EXPECT_EQ(loaded.dom.find("<script>"), std::string::npos);
  EXPECT_NE(loaded.dom.find("k&lt;\"a\" &amp; 'b'&gt;&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
}

// gate --baseline: a baseline that remembers lds_heavy at one more wave
// per SIMD than it has (a hand-edited copy of the real baseline) makes that
// kernel a regression; the page puts the verdict and the regression first.
TEST_F(InChromium, GateAgainstABaselineShowsTheRegressionFirst) {
  if (!test::haveHipcc()) GTEST_SKIP() << "hipcc is not installed";
  TempDir tmp, cache;
  fs::copy_file(test::sourcePath("fixtures/src/probe.hip"), dir_.path() + "/probe.hip");
  auto run = [&](const std::vector<std::string> &args) {
    return test::runRegscope(args, dir_.path(), tmp.path(), cache.path());
  };
  test::RunResult made = run({"baseline", "probe.hip", "--offload-arch", "gfx90a", "-o", "base.json"});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  json base = json::parse(test::readText(dir_.path() + "/base.json"));
  int was = 0;
  for (json &k : base["kernels"])
    if (k["name"].get<std::string>().find("lds_heavy") != std::string::npos) {
      was = k["occupancy"].get<int>();
      k["occupancy"] = was + 1;  // hand-edited: the past was better
    }
  ASSERT_GT(was, 0);
  std::ofstream(dir_.path() + "/base.json") << base.dump(2);
  test::RunResult gate = run({"gate", "probe.hip", "--offload-arch", "gfx90a", "--baseline", "base.json", "--format",
                              "html", "-o", "gate.html"});
  ASSERT_EQ(gate.exit_code, 1) << gate.err;
  const std::string html = test::readText(dir_.path() + "/gate.html");
  // Two failures: lds_heavy's regression, and agpr_heavy, whose 1024-thread workgroup can never be
  // resident (not in the baseline, which records no such kernel; a failure whatever the rules).
  EXPECT_NE(html.find("<p class=\"verdict fail\" id=\"verdict\">FAIL, 2 failures"), std::string::npos);

  const Loaded loaded = loadInChromium(dir_.path() + "/gate.html", dir_.path());
  EXPECT_TRUE(loaded.console.empty()) << loaded.console.front();
  EXPECT_TRUE(loaded.requests.empty()) << loaded.requests.front();
  const std::size_t verdicts = loaded.dom.find("<table class=\"verdicts\">");
  ASSERT_NE(verdicts, std::string::npos);
  EXPECT_EQ(attributeAt(loaded.dom, loaded.dom.find("<tr class=", verdicts), "data-kind"), "failure");
  const std::size_t comparison = loaded.dom.find("<table class=\"comparison\">");
  ASSERT_NE(comparison, std::string::npos);
  // The failing kernels' rows first: agpr_heavy (added, failing) and lds_heavy (regressed).
  const std::size_t first_row = loaded.dom.find("<tr class=", loaded.dom.find("<tbody>", comparison));
  const std::size_t second_row = loaded.dom.find("<tr class=", first_row + 1);
  EXPECT_EQ(attributeAt(loaded.dom, first_row, "data-status"), "added");
  EXPECT_LT(loaded.dom.find("agpr_heavy", first_row), second_row);
  EXPECT_EQ(attributeAt(loaded.dom, second_row, "data-status"), "regressed");
  EXPECT_LT(loaded.dom.find("lds_heavy", second_row), loaded.dom.find("</tr>", second_row));
  EXPECT_NE(loaded.dom.find("<td class=\"num bad\">" + std::to_string(was + 1) + "</td>", second_row),
            std::string::npos);
}

// kernels run: the runner's table and each case's kernel charted. A stand-in
// runner prints the H100 run recorded in docs/h100/run.json.
TEST_F(InChromium, KernelsRunChartsTheCasesKernels) {
  if (!fs::exists("/usr/local/cuda/bin/nvcc") && !fs::exists("/usr/bin/nvcc"))
    GTEST_SKIP() << "nvcc is not installed: the recorded H100 run names sm_90";
  TempDir tmp, cache;
  const std::string runner = dir_.path() + "/runner";
  std::ofstream(runner) << "#!/bin/sh\ncat " << test::sourcePath("docs/h100/run.json") << "\n";
  fs::permissions(runner, fs::perms::owner_all);
  test::RunResult r = test::runRegscope({"kernels", "run", "laplacian", "--format", "html", "-o", "run.html"},
                                        dir_.path(), tmp.path(), cache.path(), {"REGSCOPE_RUNNER=" + runner});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Loaded loaded = loadInChromium(dir_.path() + "/run.html", dir_.path());
  EXPECT_TRUE(loaded.console.empty()) << loaded.console.front();
  EXPECT_TRUE(loaded.requests.empty()) << loaded.requests.front();
  EXPECT_NE(loaded.dom.find("laplacian_k5"), std::string::npos);  // the runner's table
  EXPECT_NE(loaded.dom.find("<section class=\"arch\" data-arch=\"sm_90\""), std::string::npos);
  EXPECT_NE(loaded.dom.find("<figure class=\"chart"), std::string::npos);
}

// -o is required on a terminal: `script` gives regscope one.
TEST(Html, RefusesATerminalWithoutOutputFile) {
  if (!fs::exists("/usr/bin/script")) GTEST_SKIP() << "util-linux's script is not installed";
  TempDir dir, tmp, cache;
  const std::string command = std::string(REGSCOPE_BINARY) + " parse " +
                              test::sourcePath("fixtures/hipcc-5.2.3/lbm-gfx90a.s") + " --format html";
  const ProcessOutput out = runCaptured({"/usr/bin/env", "TMPDIR=" + tmp.path(), "XDG_CACHE_HOME=" + cache.path(),
                                         "/usr/bin/script", "-qec", command, "/dev/null"},
                                        dir.path());
  EXPECT_EQ(out.exit_code, 2) << out.out << out.err;
  EXPECT_NE(out.out.find("regscope: error: --format html writes a file: give -o FILE"), std::string::npos) << out.out;
  EXPECT_EQ(out.out.find("<html"), std::string::npos);
  EXPECT_TRUE(test::dirIsEmpty(dir.path()));
}

// A kernel whose name has a template and an operator in it, as hipcc names
// it: escaped in the file, and text (no element) in Chromium's DOM.
TEST_F(InChromium, CompiledTemplateAndOperatorNamesAreEscaped) {
  if (!test::haveHipcc()) GTEST_SKIP() << "hipcc is not installed";
  TempDir tmp, cache;
  std::ofstream(dir_.path() + "/ops.hip") << "#include <hip/hip_runtime.h>\n"
                                             "struct Mask { int v; };\n"
                                             "__device__ Mask operator&(Mask a, Mask b) { return {a.v & b.v}; }\n"
                                             "template <typename T, Mask (*Op)(Mask, Mask)>\n"
                                             "__global__ void apply(T *m) { m[threadIdx.x] = Op(m[0], m[1]); }\n"
                                             "template __global__ void apply<Mask, &operator&>(Mask *);\n";
  test::RunResult r = test::runRegscope({"analyze", "ops.hip", "--format", "html", "-o", "ops.html"}, dir_.path(),
                                        tmp.path(), cache.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string html = test::readText(dir_.path() + "/ops.html");
  EXPECT_EQ(html.find("apply<Mask"), std::string::npos);
  EXPECT_NE(html.find("<code>void apply&lt;Mask, &amp;operator&amp;(Mask, Mask)&gt;(Mask*)</code>"), std::string::npos);
  const Loaded loaded = loadInChromium(dir_.path() + "/ops.html", dir_.path());
  EXPECT_TRUE(loaded.console.empty()) << loaded.console.front();
  EXPECT_NE(loaded.dom.find("<code>void apply&lt;Mask, &amp;operator&amp;(Mask, Mask)&gt;(Mask*)</code>"),
            std::string::npos);
  EXPECT_EQ(loaded.dom.find("<mask"), std::string::npos);  // no element parsed out of the name
}

}  // namespace
}  // namespace regscope
