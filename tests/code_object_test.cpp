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

// Compressed offload bundles (CCOB), made by clang-offload-bundler-19 from the
// hipcc 5.2.3 code objects (fixtures/ccob-clang-19/make.sh): each kernel's
// every figure equals what the uncompressed code object gives.
void expectSameKernels(const std::vector<CodeObject> &got, const std::vector<CodeObject> &want,
                       const std::string &what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  std::size_t kernels = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i].arch, want[i].arch) << what;
    ASSERT_EQ(got[i].facts.kernels.size(), want[i].facts.kernels.size()) << what;
    for (std::size_t k = 0; k < want[i].facts.kernels.size(); ++k, ++kernels) {
      const KernelFacts &g = got[i].facts.kernels[k], &w = want[i].facts.kernels[k];
      EXPECT_EQ(g.name, w.name) << what;
      EXPECT_TRUE(g.values == w.values) << what << ": " << w.name;
      EXPECT_EQ(g.missing, w.missing) << what << ": " << w.name;
      EXPECT_EQ(g.warnings, w.warnings) << what << ": " << w.name;
    }
  }
  EXPECT_GT(kernels, 0u) << what;
}

TEST(CompressedBundle, EveryKernelAsUncompressed) {
  const std::vector<CodeObject> plain = parseCodeObjects(fixture("hipcc-5.2.3/probe-gfx90a.hsaco"));
  ASSERT_EQ(plain.size(), 1u);
  ASSERT_EQ(plain[0].facts.kernels.size(), 5u);
  for (const char *name :
       {"probe-gfx90a.ccob", "probe-gfx90a-level19.ccob", "probe-gfx90a-env.ccob", "probe-gfx90a-zlib.ccob"}) {
    const std::string bytes = fixture(std::string("ccob-clang-19/") + name);
    ASSERT_EQ(bytes.substr(0, 4), "CCOB") << name;
    EXPECT_TRUE(startsOffloadBundle(bytes)) << name;
    expectSameKernels(parseCodeObjects(bytes), plain, name);
  }
}

TEST(CompressedBundle, HostObjectAndSharedLibrary) {
  // The host object's .hip_fatbin rebundled compressed (gfx908 and gfx90a), and a .so linked from it.
  const std::vector<CodeObject> plain = parseCodeObjects(fixture("hipcc-5.2.3/probe-host.o"));
  ASSERT_EQ(plain.size(), 2u);
  for (const char *name : {"probe-host-ccob.o", "libprobe-ccob.so"})
    expectSameKernels(parseCodeObjects(fixture(std::string("ccob-clang-19/") + name)), plain, name);
  std::vector<CodeObject> each = parseCodeObjects(fixture("ccob-clang-19/probe-gfx908.co"));
  for (CodeObject &co : parseCodeObjects(fixture("ccob-clang-19/probe-gfx90a.co"))) each.push_back(std::move(co));
  expectSameKernels(parseCodeObjects(fixture("ccob-clang-19/probe-host-ccob.o")), each, "unbundled");
}

TEST(CompressedBundle, DamageIsAnErrorNamingTheBundle) {
  const std::string good = fixture("ccob-clang-19/probe-gfx90a.ccob");
  auto message = [](const std::string &bytes) {
    try {
      parseCodeObjects(bytes);
    } catch (const Error &e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  auto patched = [&](std::size_t at, std::string with) { return std::string(good).replace(at, with.size(), with); };
  // Cut short: the header's total size runs past the input.
  EXPECT_NE(message(good.substr(0, good.size() - 10)).find("compressed offload bundle at byte 0: its header says"),
            std::string::npos);
  // One byte of the hash changed: the bundle decompresses, but is not what was compressed.
  EXPECT_NE(message(patched(16, std::string(1, static_cast<char>(good[16] ^ 1)))).find("hash does not match"),
            std::string::npos);
  // A decompressed size 8 bytes past what the frame holds.
  std::string bigger = good;
  bigger[12] = static_cast<char>(static_cast<unsigned char>(bigger[12]) + 8);
  EXPECT_NE(message(bigger).find("decompresses to"), std::string::npos) << message(bigger);
  // A decompressed size past the cap is refused before anything is allocated.
  EXPECT_NE(message(patched(12, std::string("\x01\x00\x00\x40", 4))).find("claims 1073741825 bytes"),
            std::string::npos);
  // A version LLVM 19 does not read is said, not guessed at.
  EXPECT_NE(message(patched(4, std::string("\x03\x00", 2))).find("CCOB version 3 is not read"), std::string::npos);
  // Damaged compressed data.
  EXPECT_NE(message(patched(40, "garbage!")).find("compressed offload bundle at byte 0"), std::string::npos);
}

}  // namespace
}  // namespace regscope
