// The CI formats over findings: escaping and structure.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "regscope/findings.h"

namespace regscope {
namespace {

Report oneKernel() {
  Report report;
  KernelReport k;
  k.record.name = "_Z1kPf";
  k.record.demangled = "k<a, b>(float*)";
  k.record.arch = "gfx90a";
  k.record.line = 7;
  k.display_file = "src/a,b.hip";
  k.occupancy.waves_per_simd = 4;
  k.occupancy.max_waves_per_simd = 8;
  k.occupancy.limiter = "vgpr";
  report.kernels.push_back(k);
  return report;
}

std::string print(CiFormat format, const Report &report, const std::vector<Verdict> &findings) {
  std::ostringstream out;
  printFindings(format, report, findings, "regscope gate", out);
  return out.str();
}

const Verdict kFailure{"src/a,b.hip", 7, "k<a, b>(float*)", "gfx90a", "min-occupancy", "4 < 5 & 100%\nnext", "error"};

TEST(Github, EscapesPropertiesAndData) {
  EXPECT_EQ(print(CiFormat::Github, oneKernel(), {kFailure}),
            "::error file=src/a%2Cb.hip,line=7,title=regscope min-occupancy::k<a, b>(float*) [gfx90a]: 4 < 5 & "
            "100%25%0Anext\n");
}

TEST(Junit, OneCasePerKernelFailuresEscaped) {
  std::string xml = print(CiFormat::Junit, oneKernel(), {kFailure});
  EXPECT_NE(xml.find("<testsuite name=\"regscope gate\" tests=\"1\" failures=\"1\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("name=\"k&lt;a, b&gt;(float*) [gfx90a]\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<failure type=\"min-occupancy\" message=\"4 &lt; 5 &amp; 100%\nnext\">"), std::string::npos) << xml;
  std::string passing = print(CiFormat::Junit, oneKernel(), {});
  EXPECT_NE(passing.find("failures=\"0\""), std::string::npos);
  EXPECT_EQ(passing.find("<failure"), std::string::npos);
}

TEST(Markdown, TableAndFindings) {
  std::string md = print(CiFormat::Markdown, oneKernel(), {kFailure});
  EXPECT_EQ(md.rfind("### regscope gate: ❌ 1 failing", 0), 0u) << md;
  EXPECT_NE(md.find("| `k<a, b>(float*)` | gfx90a | src/a,b.hip:7 |"), std::string::npos) << md;
  EXPECT_NE(md.find("- **min-occupancy**"), std::string::npos);
  EXPECT_NE(print(CiFormat::Markdown, oneKernel(), {}).find("✅ pass"), std::string::npos);
}

TEST(Sarif, RulesResultsAndLocations) {
  auto sarif = nlohmann::json::parse(print(CiFormat::Sarif, oneKernel(), {kFailure}));
  EXPECT_EQ(sarif["version"], "2.1.0");
  const auto &run = sarif["runs"][0];
  EXPECT_EQ(run["tool"]["driver"]["rules"].size(), ruleCatalog().size());
  for (const auto &rule : run["tool"]["driver"]["rules"]) {  // GitHub requires these
    EXPECT_FALSE(rule["shortDescription"]["text"].get<std::string>().empty());
    EXPECT_FALSE(rule["fullDescription"]["text"].get<std::string>().empty());
    EXPECT_FALSE(rule["help"]["text"].get<std::string>().empty());
  }
  const auto &result = run["results"][0];
  EXPECT_EQ(result["ruleId"], "RS101");
  EXPECT_EQ(run["tool"]["driver"]["rules"][result["ruleIndex"].get<int>()]["id"], "RS101");
  EXPECT_EQ(result["level"], "error");
  EXPECT_EQ(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "src/a,b.hip");
  EXPECT_EQ(result["locations"][0]["physicalLocation"]["region"]["startLine"], 7);
}

TEST(Findings, EveryRuleAFindingCanNameIsInTheCatalogue) {
  for (const char *rule : {"occupancy", "spills", "scratch", "min-occupancy", "max-spills", "max-scratch",
                           "occupancy-regression", "vgpr-step-regression", "spill-regression", "scratch-regression",
                           "improved", "added", "removed", "unresolved"})
    EXPECT_NE(findRule(rule), nullptr) << rule;
}

}  // namespace
}  // namespace regscope
