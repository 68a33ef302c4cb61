// What fuzzing the Intel backend's parsers found (tests/fuzz: ocloc_log,
// ze_info), each with its input built by the test (hostile_inputs.h) or read
// from the real ocloc 22.43 fixture it started from. Every test here failed
// on the code before the fix (a wrong figure, no error, or signed overflow).
#include <gtest/gtest.h>

#include <climits>

#include "hostile_inputs.h"
#include "regscope/backends/intel/collect.h"
#include "regscope/report/report.h"
#include "regscope/support/error.h"
#include "test_util.h"

namespace regscope {
namespace {

bool contains(const std::vector<std::string> &lines, const std::string &text) {
  for (const std::string &line : lines)
    if (line.find(text) != std::string::npos) return true;
  return false;
}

Report modelled(const std::vector<KernelFacts> &kernels, const LaunchOverrides &launch = {}) {
  Report report;
  addKernels(report, mergeFacts({{"test", kernels}}), launch);
  return report;
}

// fuzz_ze_info's first replay: the real .ze_info (4224 bytes of SLM) with
// --dynamic-slm 2147483647, the most the flag takes, overflowed int.
TEST(IntelHostileInput, DynamicSlmAtIntMaxSaturates) {
  LaunchOverrides launch;
  launch.dynamic_slm = INT_MAX;
  const Report report = modelled(parseZeInfo(test::fixture("ocloc-22.43/probe.pvc.small.ze_info.yaml"), "pvc"), launch);
  ASSERT_FALSE(report.kernels.empty());
  for (const KernelReport &k : report.kernels) {
    const IntelKernelModel &intel = *std::get_if<IntelKernelModel>(&k.model);
    EXPECT_EQ(intel.resources.slm_bytes, INT_MAX) << k.record.name;  // was 4224 + INT_MAX, wrapped negative
    EXPECT_EQ(intel.occupancy.invalid, IntelOccupancy::Invalid::Slm) << k.record.name;
  }
}

// Issue 21 item 4: was narrowed to 0 (a valid launch), then clamped to 2^28
// and modelled; an impossible figure now gets no occupancy at all.
TEST(IntelHostileInput, SlmBeyondIntIsInvalidWithTheReason) {
  const Report report = modelled(parseZeInfo(hostile::zeInfoSlmBeyondInt(), "pvc"));
  ASSERT_EQ(report.kernels.size(), 1u);
  EXPECT_EQ(report.kernels[0].summary.limiter, Limiter::Invalid);
  EXPECT_EQ(report.kernels[0].impossible, "slm_bytes 4294967296 is outside what any target allows");
  EXPECT_TRUE(contains(report.warnings, "cannot launch: slm_bytes 4294967296 is outside what any target allows"))
      << ::testing::PrintToString(report.warnings);
}

TEST(IntelHostileInput, WorkGroupSizeProductBeyond64Bits) {
  EXPECT_THROW(parseZeInfo(hostile::zeInfoWorkGroupSizeOverflow(), "pvc"), Error);  // was signed overflow
}

TEST(IntelHostileInput, BufferSizesBeyond64Bits) {
  EXPECT_THROW(parseZeInfo(hostile::zeInfoBufferSizesOverflow(), "pvc"), Error);  // was signed overflow
}

TEST(IntelHostileInput, DeepFlowNestingIsRefusedAtOnce) {
  // Was read (LLVM's scanner taking seconds); now refused before LLVM sees it.
  EXPECT_THROW(parseZeInfo(hostile::zeInfoDeepFlowNesting(), "pvc"), Error);
  // What IGC writes (flow sequences inside block mappings) still reads.
  EXPECT_FALSE(parseZeInfo(test::fixture("ocloc-newer/newer.ze_info.yaml"), "pvc").empty());
}

TEST(IntelHostileInput, SpilledGrfsBeyondWhatBytesHoldAreInvalid) {
  const std::vector<KernelFacts> kernels = parseOclocLog(hostile::oclocLogWithHugeSpill(), "pvc");
  ASSERT_EQ(kernels.size(), 1u);
  const Report report = modelled(kernels);
  ASSERT_EQ(report.kernels.size(), 1u);
  // Was 2^63 - 1 times 64, wrapped; then clamped and modelled. Now no occupancy.
  EXPECT_EQ(report.kernels[0].summary.limiter, Limiter::Invalid);
  EXPECT_TRUE(contains(report.warnings, "spill_grfs 9223372036854775807 is outside what any target allows"))
      << ::testing::PrintToString(report.warnings);
}

}  // namespace
}  // namespace regscope
