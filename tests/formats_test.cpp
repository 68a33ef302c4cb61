// The CI formats over findings: escaping and structure.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "regscope/gate/rules.h"
#include "regscope/views/view.h"

namespace regscope {
namespace {

// A view that has only findings, about one kernel: the CI writers' input.
class FindingsOnly : public View {
 public:
  explicit FindingsOnly(std::vector<Verdict> findings) : findings_(std::move(findings)) {}
  Document document() const override { return {}; }
  nlohmann::json toJson() const override { return {}; }
  std::optional<CiReport> ci() const override {
    CiReport ci;
    ci.title = "regscope gate";
    ci.findings = findings_;
    ci.cases = {{"src/a,b.hip", 7, "k<a, b>(float*)", "gfx90a"}};
    ci.summary.columns = {{"kernel", "kernel", false, Show::Everywhere, false, /*code=*/true},
                          {"arch", "arch"},
                          {"location", "location"}};
    ci.summary.add({"k<a, b>(float*)", "gfx90a", "src/a,b.hip:7"});
    return ci;
  }

 private:
  std::vector<Verdict> findings_;
};

enum class CiFormat {
  Sarif = static_cast<int>(Format::Sarif),
  Markdown = static_cast<int>(Format::Markdown),
  Github = static_cast<int>(Format::Github),
  Junit = static_cast<int>(Format::Junit)
};

std::string print(CiFormat format, const std::vector<Verdict> &findings) {
  return render(FindingsOnly(findings), static_cast<Format>(format));
}

const Verdict kFailure{"src/a,b.hip",        7,           "k<a, b>(float*)", "gfx90a", Rule::MinOccupancy,
                       "4 < 5 & 100%\nnext", Level::Error};

TEST(Github, EscapesPropertiesAndData) {
  EXPECT_EQ(print(CiFormat::Github, {kFailure}),
            "::error file=src/a%2Cb.hip,line=7,title=regscope min-occupancy::k<a, b>(float*) [gfx90a]: 4 < 5 & "
            "100%25%0Anext\n");
}

TEST(Junit, OneCasePerKernelFailuresEscaped) {
  std::string xml = print(CiFormat::Junit, {kFailure});
  EXPECT_NE(xml.find("<testsuite name=\"regscope gate\" tests=\"1\" failures=\"1\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("name=\"k&lt;a, b&gt;(float*) [gfx90a]\""), std::string::npos) << xml;
  // A line break in a message is made visible: JUnit output carries no raw CR or LF from a message.
  EXPECT_NE(xml.find("<failure type=\"min-occupancy\" message=\"4 &lt; 5 &amp; 100%\\nnext\">"), std::string::npos)
      << xml;
  std::string passing = print(CiFormat::Junit, {});
  EXPECT_NE(passing.find("failures=\"0\""), std::string::npos);
  EXPECT_EQ(passing.find("<failure"), std::string::npos);
}

TEST(Markdown, TableAndFindings) {
  std::string md = print(CiFormat::Markdown, {kFailure});
  EXPECT_EQ(md.rfind("### regscope gate: ❌ 1 failing", 0), 0u) << md;
  EXPECT_NE(md.find("| `k<a, b>(float*)` | gfx90a | src/a,b.hip:7 |"), std::string::npos) << md;
  EXPECT_NE(md.find("- **min-occupancy**"), std::string::npos);
  EXPECT_NE(print(CiFormat::Markdown, {}).find("✅ pass"), std::string::npos);
}

TEST(Sarif, RulesResultsAndLocations) {
  auto sarif = nlohmann::json::parse(print(CiFormat::Sarif, {kFailure}));
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

TEST(Findings, EveryRuleHasItsRowInOrder) {
  ASSERT_EQ(ruleCatalog().size(), static_cast<std::size_t>(Rule::LoopSpillRegression) + 1);  // the last rule
  for (std::size_t i = 0; i < ruleCatalog().size(); ++i) {
    EXPECT_EQ(ruleCatalog()[i].rule, static_cast<Rule>(i)) << ruleCatalog()[i].name;
    EXPECT_EQ(&ruleInfo(static_cast<Rule>(i)), &ruleCatalog()[i]);
  }
}

}  // namespace
}  // namespace regscope
