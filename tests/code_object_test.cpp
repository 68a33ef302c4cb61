// Code objects: device ELF notes, offload bundles inside host objects.
#include <gtest/gtest.h>

#include "regscope/backends/amd/collect.h"
#include "regscope/collect/collect.h"
#include "regscope/support/error.h"
#include "test_util.h"

namespace regscope {
namespace {

using test::find;
using test::fixture;

TEST(CodeObject, DeviceElfNote) {
  std::vector<CodeObject> objects = parseCodeObjects(fixture("hipcc-5.2.3/probe-gfx90a.hsaco"));
  ASSERT_EQ(objects.size(), 1u);
  EXPECT_EQ(objects[0].arch, "gfx90a");
  const KernelFacts *agpr = find(objects[0].facts, "_Z10agpr_heavyPf");
  ASSERT_NE(agpr, nullptr);
  EXPECT_EQ(agpr->get(Field::VgprsTotal), 136);  // the note's .vgpr_count: the allocation
  EXPECT_EQ(agpr->get(Field::Agprs), 64);
  EXPECT_FALSE(agpr->get(Field::Vgprs));  // the arch count is not in the note
  const KernelFacts *lds = find(objects[0].facts, "_Z9lds_heavyPf");
  ASSERT_NE(lds, nullptr);
  EXPECT_EQ(lds->get(Field::LdsBytes), 40960);
  EXPECT_EQ(lds->get(Field::Vgprs), lds->get(Field::VgprsTotal));  // no AGPRs: the same
  EXPECT_EQ(find(objects[0].facts, "_Z9recursivePii")->get(Field::MaxWorkgroupSize), 256);
}

TEST(CodeObject, HostObjectWithTwoArchs) {
  std::vector<CodeObject> objects = parseCodeObjects(fixture("hipcc-5.2.3/probe-host.o"));
  ASSERT_EQ(objects.size(), 2u);
  std::vector<std::string> archs = {objects[0].arch, objects[1].arch};
  std::sort(archs.begin(), archs.end());
  EXPECT_EQ(archs, (std::vector<std::string>{"gfx908", "gfx90a"}));
  for (const CodeObject &co : objects) EXPECT_EQ(co.facts.kernels.size(), 5u) << co.arch;
}

TEST(CodeObject, BadInput) {
  EXPECT_THROW(parseCodeObjects("plain text"), Error);
  std::string truncated = fixture("hipcc-5.2.3/probe-gfx90a.hsaco").substr(0, 200);
  EXPECT_THROW(parseCodeObjects(truncated), Error);
  std::string bundle = "__CLANG_OFFLOAD_BUNDLE__";
  bundle += std::string("\x05\x00\x00\x00\x00\x00\x00\x00", 8);  // claims 5 entries, has none
  EXPECT_THROW(parseCodeObjects(bundle), Error);
  EXPECT_TRUE(parseCodeObjects(test::readText("/bin/true")).empty());  // an ELF with no device code
}

}  // namespace
}  // namespace regscope
