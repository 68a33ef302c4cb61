// explain on a device code object (.hsaco) with line info: its kernels
// disassembled back to assembly (code_object_text.h) must give what explain
// gives on the compiler's own assembly of the same kernel.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "regscope/pipeline/explain.h"
#include "regscope/pipeline/parse_tree.h"
#include "regscope/support/error.h"
#include "regscope/support/process.h"
#include "test_util.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;
using test::sourcePath;

// What explain names for a kernel: the file most of it counts for, the
// source line of its peak instruction and the peak's live VGPRs.
struct Named {
  std::string file;
  int peak_line = 0;
  int peak_vgprs = 0;
  int peak_agprs = 0;
};

Named explainOne(const std::string &path) {
  const ExplainedReport explained = explainArtifacts({path}, {});
  EXPECT_EQ(explained.kernels.size(), 1u) << path;
  if (explained.kernels.size() != 1) return {};
  const KernelIsa &k = explained.kernels.front();
  EXPECT_TRUE(k.get()) << path << ": " << k.missing;
  if (!k.get() || k.main_file < 0) return {};
  const IsaFunction &f = *k.get();
  Named named;
  named.file = k.isa->files[k.main_file].path();
  if (f.peak.instruction >= 0) named.peak_line = f.instructions[f.peak.instruction].line;
  named.peak_vgprs = f.peak.vgprs;
  named.peak_agprs = f.peak.agprs;
  return named;
}

// Each gfx942 kernel of the Triton cache fixture (Triton 3.6 wrote both its
// .amdgcn and its .hsaco): the .hsaco alone, in a directory of its own so
// that explain cannot take the .amdgcn beside it, names the same Python
// file, the same peak line and the same live VGPRs and AGPRs at the peak.
TEST(CodeObjectExplain, AnHsacoWithLineInfoNamesWhatItsAmdgcnNames) {
  TempDir dir;
  int kernels = 0;
  for (const fs::directory_entry &entry : fs::directory_iterator(sourcePath("fixtures/triton/cache-gfx942"))) {
    for (const fs::directory_entry &file : fs::directory_iterator(entry.path())) {
      if (file.path().extension() != ".hsaco") continue;
      const fs::path amdgcn = fs::path(file.path()).replace_extension(".amdgcn");
      const fs::path alone = fs::path(dir.path()) / entry.path().filename();
      fs::create_directories(alone);
      fs::copy_file(file.path(), alone / file.path().filename());
      const Named from_amdgcn = explainOne(amdgcn.string());
      const Named from_hsaco = explainOne((alone / file.path().filename()).string());
      SCOPED_TRACE(file.path().string());
      EXPECT_EQ(from_hsaco.file, "/regscope/triton/kernels.py");
      EXPECT_EQ(from_hsaco.file, from_amdgcn.file);
      EXPECT_EQ(from_hsaco.peak_line, from_amdgcn.peak_line);
      EXPECT_GT(from_hsaco.peak_vgprs, 0);
      EXPECT_EQ(from_hsaco.peak_vgprs, from_amdgcn.peak_vgprs);
      // LLVM 15 decodes gfx940's MFMA with VGPR C/D as AGPRs (code_object_text.cpp puts them back).
      EXPECT_EQ(from_hsaco.peak_agprs, from_amdgcn.peak_agprs);
      ++kernels;
    }
  }
  EXPECT_EQ(kernels, 6);
}

// hipcc 5.2.3 -g0 (fixtures/regenerate.sh): a device code object without
// .debug_line has no lines to name; explain says so in one line.
TEST(CodeObjectExplain, ACodeObjectWithoutLineInfoIsRefusedInOneLine) {
  const ExplainedReport explained = explainArtifacts({sourcePath("fixtures/hipcc-5.2.3/probe-gfx90a-g0.hsaco")}, {});
  ASSERT_FALSE(explained.kernels.empty());
  for (const KernelIsa &k : explained.kernels) {
    EXPECT_FALSE(k.get());
    EXPECT_NE(k.missing.find("has no device code object with .debug_line"), std::string::npos) << k.missing;
    EXPECT_EQ(k.missing.find('\n'), std::string::npos);
  }
}

}  // namespace
}  // namespace regscope
