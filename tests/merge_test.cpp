// Merging sources, names, and declaration lines.
#include <gtest/gtest.h>

#include "regscope/backends/amd/collect.h"
#include "regscope/collect/collect.h"
#include "regscope/pipeline/analyze.h"
#include "regscope/support/files.h"
#include "regscope/support/symbols.h"
#include "test_util.h"

namespace regscope {
namespace {

KernelFacts facts(const std::string &name, const std::string &arch, std::initializer_list<std::pair<Field, int>> v) {
  KernelFacts k;
  k.name = name;
  k.arch = arch;
  for (auto [f, value] : v) k.set(f, value);
  return k;
}

TEST(Merge, AgreeingSourcesGiveOneRecordWithoutWarnings) {
  FactSet s{".s", {facts("_Z1kPf", "gfx90a", {{Field::Vgprs, 10}, {Field::VgprsTotal, 10}})}};
  FactSet r{"remarks", {facts("_Z1kPf", "gfx90a", {{Field::Vgprs, 10}, {Field::CompilerOccupancy, 8}})}};
  r.kernels[0].file = "k.hip";
  r.kernels[0].line = 3;
  auto records = mergeFacts({s, r});
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].demangled, "k(float*)");
  EXPECT_EQ(records[0].value(Field::CompilerOccupancy), 8);
  EXPECT_EQ(records[0].file, "k.hip");
  EXPECT_TRUE(records[0].warnings.empty());
}

// Issue 21 item 5: neither source wins; the figure is unknown and both are named.
TEST(Merge, DisagreementIsAWarningNamingBothFiguresAndTheFigureIsUnknown) {
  FactSet s{".s", {facts("k", "gfx90a", {{Field::Vgprs, 100}})}};
  FactSet r{"remarks", {facts("k", "gfx90a", {{Field::Vgprs, 102}})}};
  FactSet c{"code object", {facts("k", "gfx90a", {{Field::Vgprs, 100}})}};
  auto records = mergeFacts({s, r, c});
  ASSERT_EQ(records.size(), 1u);
  EXPECT_FALSE(records[0].has(Field::Vgprs));  // a third source agreeing with one does not settle it
  ASSERT_EQ(records[0].warnings.size(), 1u);
  EXPECT_EQ(records[0].warnings[0], "vgprs: .s says 100, remarks says 102: unknown");
}

TEST(Merge, SameKernelOnTwoArchsStaysApartAndDeviceFunctionsGo) {
  FactSet s{".s", {facts("k", "gfx90a", {{Field::Vgprs, 1}}), facts("k", "gfx908", {{Field::Vgprs, 2}})}};
  KernelFacts device = facts("f", "gfx90a", {{Field::CompilerOccupancy, 0}});
  device.is_kernel = false;
  FactSet r{"remarks", {device}};
  auto records = mergeFacts({s, r});
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[1].arch, "gfx908");
}

TEST(Names, BaseName) {
  EXPECT_EQ(functionBaseName("kernel(double*, int)"), "kernel");
  EXPECT_EQ(functionBaseName("void scale<float>(float*, float const*, int)"), "scale");
  EXPECT_EQ(functionBaseName("void ns::inner::k<std::pair<int, int> >(int)"), "k");
  EXPECT_EQ(demangle("_Z5scaleIfEvPT_PKS0_i"), "void scale<float>(float*, float const*, int)");
  EXPECT_EQ(demangle("not_mangled"), "not_mangled");
}

// --kernel takes any of these (explain, advise). The symbols are the Itanium
// ABI's for: template<> void ns::scale<float>(float*, int); laplacian_k5<double>;
// a kernel in an anonymous namespace; BabelStream's for_each_kernel of a lambda.
TEST(Names, KernelNamesFromTheSymbol) {
  const std::string scale = "_ZN2ns5scaleIfEEvPfi";
  EXPECT_EQ(kernelNames(scale), (std::vector<std::string>{scale, "void ns::scale<float>(float*, int)",
                                                          "ns::scale<float>", "scale<float>", "ns::scale", "scale"}));
  for (const char *name : {"laplacian_k5<double>", "laplacian_k5"})
    EXPECT_TRUE(namesKernel(name, "_Z12laplacian_k5IdEvPT_S1_iiiiiiii")) << name;
  EXPECT_FALSE(namesKernel("laplacian_k5<float>", "_Z12laplacian_k5IdEvPT_S1_iiiiiiii"));
  EXPECT_TRUE(namesKernel("(anonymous namespace)::kk", "_ZN12_GLOBAL__N_12kkEPi"));
  EXPECT_TRUE(namesKernel("kk", "_ZN12_GLOBAL__N_12kkEPi"));
  EXPECT_TRUE(namesKernel("for_each_kernel", "_Z15for_each_kernelIZN10CUDAStreamIdE11init_arraysEdddEUlmE_EvmT_"));
  EXPECT_EQ(kernelNames("plain_c_kernel"), (std::vector<std::string>{"plain_c_kernel"}));
  EXPECT_FALSE(namesKernel("scale", "_ZN2ns5scaleIfEEvPfi_not_a_symbol"));
}

TEST(DeclarationLine, WalksBackFromTheBraceToTheName) {
  const std::string source =
      "// scale(x) is documented here\n"  // 1: a comment mentioning the name
      "template <typename T>\n"           // 2
      "__global__ void\n"                 // 3
      "__launch_bounds__(256)\n"          // 4
      "scale(T *out,\n"                   // 5: the declaration
      "      const T *in)\n"              // 6
      "{\n"                               // 7: where the compiler points
      "  const char *s = \"scale(\";\n"   // 8
      "}\n";
  EXPECT_EQ(findDeclarationLine(source, 7, "scale"), 5);
  EXPECT_EQ(findDeclarationLine(source, 7, "absent"), 7);
  EXPECT_EQ(findDeclarationLine(source, 99, "scale"), 99);
  EXPECT_EQ(findDeclarationLine("", 1, "scale"), 1);
}

TEST(DeclarationLine, LbmKernelIsDeclaredOnLine5) {
  std::string source = test::readText(test::sourcePath("kernels/lbm/lbm.hip"));
  EXPECT_EQ(findDeclarationLine(source, 19, "kernel"), 5);  // remark says 19 (the brace)
}

TEST(Collect, FixtureOutputsMergeWithoutDisagreement) {
  // The collect stage over a real two-arch compile, as the driver hands it on.
  CompileOutput output;
  output.diagnostics = test::fixture("hipcc-5.2.3/probe.remarks.txt");
  for (const char *arch : {"gfx90a", "gfx908"})
    output.archs.push_back({arch, test::fixture(std::string("hipcc-5.2.3/probe-") + arch + ".s"),
                            test::fixture(std::string("hipcc-5.2.3/probe-") + arch + ".opt.yaml")});
  std::vector<std::string> read;  // the collect stage reads sources only through the reader it is given
  CollectedRun run = collectAmdRun(output, test::sourcePath("fixtures/src/probe.hip"),
                                   [&](const std::string &path) -> std::optional<std::string> {
                                     read.push_back(path);
                                     return readFileIfExists(path);
                                   });
  const std::vector<KernelRecord> &records = run.records;
  EXPECT_EQ(run.producer, "Debian clang version 15.0.6");
  EXPECT_EQ(read, std::vector<std::string>{test::sourcePath("fixtures/src/probe.hip")});  // once, whatever the kernels
  ASSERT_EQ(records.size(), 10u);  // 5 kernels x 2 archs; fib is not a kernel
  for (const KernelRecord &r : records) {
    EXPECT_TRUE(r.warnings.empty()) << r.demangled << ": " << (r.warnings.empty() ? "" : r.warnings[0]);
    EXPECT_EQ(r.sources.size(), 2u) << r.demangled;  // .s and remarks both contributed
    // "probe.hip" in the remarks resolves to the source, and the line to the declaration.
    EXPECT_EQ(r.file, test::sourcePath("fixtures/src/probe.hip")) << r.demangled;
    if (r.name == "_Z9recursivePii") EXPECT_EQ(r.line, 30);  // brace on 31, name on 30
  }
}

}  // namespace
}  // namespace regscope
