// --format csv on every command: one writer over each view's typed tables.
// Each CSV is checked against the same run's JSON, so the two cannot drift.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "regscope/support/process.h"
#include "test_util.h"

namespace regscope {
namespace {

using nlohmann::json;
using Row = std::map<std::string, std::string>;

// RFC 4180 fields: quoted fields may hold commas, quotes ("") and newlines.
std::vector<std::vector<std::string>> parseCsv(const std::string &text) {
  std::vector<std::vector<std::string>> rows(1, std::vector<std::string>(1));
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"')
        rows.back().back() += text[++i];
      else if (c == '"')
        quoted = false;
      else
        rows.back().back() += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      rows.back().emplace_back();
    } else if (c == '\n') {
      rows.emplace_back(1);
    } else {
      rows.back().back() += c;
    }
  }
  if (rows.back().size() == 1 && rows.back()[0].empty()) rows.pop_back();
  return rows;
}

// The first table of a CSV document as rows keyed by its header.
std::vector<Row> firstTable(const std::string &text) {
  std::vector<std::vector<std::string>> rows = parseCsv(text);
  std::vector<Row> table;
  if (rows.empty()) return table;
  for (std::size_t r = 1; r < rows.size() && !(rows[r].size() == 1 && rows[r][0].empty()); ++r) {
    EXPECT_EQ(rows[r].size(), rows[0].size()) << "row " << r;
    Row row;
    for (std::size_t c = 0; c < rows[0].size() && c < rows[r].size(); ++c) row[rows[0][c]] = rows[r][c];
    table.push_back(std::move(row));
  }
  return table;
}

class Csv : public ::testing::Test {
 protected:
  test::RunResult run(std::vector<std::string> args, const char *format) {
    args.insert(args.end(), {"--format", format});
    test::RunResult r = test::runRegscope(args, cwd_.path(), tmp_.path(), cache_.path());
    EXPECT_EQ(r.exit_code, args[0] == "gate" ? 1 : 0) << r.err;
    return r;
  }
  TempDir cwd_, tmp_, cache_;
};

// A consistency test (CSV against JSON; issue 26: not a model test), plus the README's figures for
// LBM's resources as literals (102 VGPRs: 4 waves/SIMD, 26 to the next step down; Table 1).
TEST_F(Csv, OccupancyAndTableAreTheirViewsRows) {
  const std::vector<std::string> calc = {"occupancy", "--arch", "gfx90a", "--vgprs", "102", "--sgprs", "98"};
  std::vector<Row> rows = firstTable(run(calc, "csv").out);
  json doc = json::parse(run(calc, "json").out);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0]["resource"], "VGPR (total)");
  EXPECT_EQ(rows[0]["used"], "102");
  EXPECT_EQ(rows[0]["waves_per_simd"], "4");
  EXPECT_EQ(rows[0]["headroom"], "26");
  EXPECT_EQ(rows[0]["used"], std::to_string(doc["resources"]["vgprs_total"].get<int>()));
  EXPECT_EQ(rows[0]["waves_per_simd"], std::to_string(doc["occupancy"]["by_resource"]["vgpr"].get<int>()));
  EXPECT_EQ(rows[0]["headroom"], std::to_string(doc["occupancy"]["headroom"]["vgprs"].get<int>()));
  EXPECT_EQ(rows[2]["used"], "0");  // LDS bytes: the figure, not "0 KiB"

  const std::vector<std::string> table = {"table", "--arch", "gfx90a"};
  rows = firstTable(run(table, "csv").out);
  doc = json::parse(run(table, "json").out);
  ASSERT_EQ(rows.size(), doc["rows"].size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i]["min_vgprs"], std::to_string(doc["rows"][i]["min_vgprs"].get<int>()));
    EXPECT_EQ(rows[i]["max_vgprs"], std::to_string(doc["rows"][i]["max_vgprs"].get<int>()));
    EXPECT_EQ(rows[i]["waves_per_simd"], std::to_string(doc["rows"][i]["waves_per_simd"].get<int>()));
  }
  rows = firstTable(run({"table", "--arch", "sm_90"}, "csv").out);
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows[0]["min_registers"], "1");
}

TEST_F(Csv, KernelsListQuotesDescriptionsWithCommas) {
  std::vector<Row> rows = firstTable(run({"kernels", "list"}, "csv").out);
  json doc = json::parse(run({"kernels", "list"}, "json").out);
  ASSERT_EQ(rows.size(), doc["cases"].size());
  bool comma = false;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i]["case"], doc["cases"][i]["name"]);
    EXPECT_EQ(rows[i]["description"], doc["cases"][i]["description"]);
    comma |= rows[i]["description"].find(',') != std::string::npos;
  }
  EXPECT_TRUE(comma) << "no description with a comma: the quoting is untested";
}

TEST_F(Csv, AnalyzeAndGateCarryFullNamesAndFigures) {
  if (!test::haveHipcc()) GTEST_SKIP() << "hipcc is not installed";
  const std::string lbm = test::sourcePath("kernels/lbm/lbm.hip");
  std::vector<Row> rows = firstTable(run({"analyze", lbm}, "csv").out);
  json doc = json::parse(run({"analyze", lbm}, "json").out);
  ASSERT_EQ(rows.size(), 1u);
  const json &k = doc["kernels"][0];
  EXPECT_EQ(rows[0]["kernel"], k["demangled"]);  // the full signature, which the table abbreviates
  EXPECT_EQ(rows[0]["name"], k["name"]);
  for (const char *key : {"vgprs", "vgprs_total", "agprs", "sgprs", "sgprs_allocated", "sgprs_requested",
                          "scratch_bytes", "vgpr_spills", "sgpr_spills", "lds_bytes", "line"})
    EXPECT_EQ(rows[0][key], std::to_string(k[key].get<int>())) << key;
  EXPECT_EQ(rows[0]["waves_per_simd"], std::to_string(k["occupancy"]["waves_per_simd"].get<int>()));
  EXPECT_EQ(rows[0]["limiter"], k["occupancy"]["limiter"]);

  rows = firstTable(run({"gate", lbm, "--min-occupancy", "8"}, "csv").out);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0]["rule"], "min-occupancy");
  EXPECT_EQ(rows[0]["kind"], "failure");
  EXPECT_EQ(rows[0]["kernel"], k["demangled"]);
}

}  // namespace
}  // namespace regscope
