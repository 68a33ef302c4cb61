// The advise stage on the installed hipcc: candidates from Clang's AST with
// the compiler's own device flags, edits measured through the analysis
// pipeline (edited-text jobs), unified diffs, and the `regscope advise`
// command's bad-input paths. Small sources only: the LBM run is
// advise_lbm_test.cpp's. Skips, saying why, without hipcc.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "advise_test_util.h"
#include "regscope/driver/driver.h"
#include "regscope/pipeline/analyze.h"
#include "regscope/support/error.h"
#include "regscope/support/process.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;
using test::adviseInputFor;
using test::applyWithGit;
using test::expectUnchanged;
using test::replaceOnce;
using test::stateOf;
using test::writeText;

const Candidate *findCandidate(const CandidateSet &set, AdviseRule rule, const std::string &id_suffix = "") {
  for (const Candidate &c : set.candidates)
    if (c.rule == rule &&
        (id_suffix.empty() || (c.id.size() >= id_suffix.size() &&
                               c.id.compare(c.id.size() - id_suffix.size(), id_suffix.size(), id_suffix) == 0)))
      return &c;
  return nullptr;
}

class Advise : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::haveHipcc()) GTEST_SKIP() << "hipcc is not installed: advise parses with the compiler's flags";
  }
};

TEST_F(Advise, BitonicFloatKernelsPowerOfTwoArithmeticBecomesMasksAndShifts) {
  const std::string path = test::sourcePath("kernels/bitonic/bitonic.hip");
  const test::FileState before = stateOf(path);
  AdviseInput input = adviseInputFor(path);
  input.kernels = {"bitonic_float"};
  const CandidateSet found = findCandidates(input);
  std::vector<const Candidate *> arithmetic;
  for (const Candidate &c : found.candidates) {
    EXPECT_EQ(c.kernel.name, "bitonic_float");
    if (c.rule == AdviseRule::PowerOfTwo) arithmetic.push_back(&c);
  }
  ASSERT_EQ(arithmetic.size(), 2u);  // fmodf(idx1, twoOffset) and fmodf(floorf(idx1 / stageWidth), 2.0f)
  EXPECT_EQ(arithmetic[0]->line, 14);
  EXPECT_EQ(arithmetic[1]->line, 15);
  for (const Candidate *c : arithmetic) {
    EXPECT_FALSE(c->hint_only) << c->description;
    // thread is an index (never negative); the divisors are parameters: their
    // being powers of two is the caller's to know, and the candidate says so.
    EXPECT_NE(c->assumption.find("power of two"), std::string::npos) << c->id;
    EXPECT_NE(c->edited_source.find("(unsigned)thread"), std::string::npos) << c->id;
  }
  const CombinedEdit both = combineEdits(found.source_text, arithmetic);
  ASSERT_TRUE(both.conflicts.empty());
  const std::vector<Measurement> measured = measureTexts(input, {found.source_text, both.edited_source});
  const Measurement &original = measured[0], &integer = measured[1];
  ASSERT_TRUE(original.ok) << original.error;
  ASSERT_TRUE(integer.ok) << integer.error;
  auto kernel = [](const Measurement &m) {
    for (const KernelFigures &k : m.kernels)
      if (k.demangled.rfind("bitonic_float", 0) == 0) return k;
    throw std::runtime_error("no bitonic_float");
  };
  EXPECT_LT(kernel(integer).vgprs, kernel(original).vgprs);
  EXPECT_LT(kernel(integer).sgprs, kernel(original).sgprs);
  expectUnchanged(before, path);
}

TEST_F(Advise, LaunchBoundsComeFromTheLaunchSites) {
  TempDir dir;
  const std::string path = dir.path() + "/launch.hip";
  writeText(path, R"(#include <hip/hip_runtime.h>
__global__ void scale(float *x, float a, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < n) x[i] *= a;
}
__global__ void tile(float *x) { x[threadIdx.x + 16 * threadIdx.y] = 0; }
__global__ void macro_launched(float *x) { x[threadIdx.x] = 1; }
__global__ void unlaunched(float *x) { x[threadIdx.x] = 2; }
__global__ void __launch_bounds__(64) bounded(float *x) { x[threadIdx.x] = 3; }
__global__ void run_time(float *x) { x[threadIdx.x] = 4; }
void run(float *x, int n) {
  run_time<<<1, n>>>(x);
  const int grid = (n + 255) / 256;
  scale<<<grid, 256>>>(x, 2.0f, n);
  scale<<<dim3(grid), dim3(128)>>>(x, 2.0f, n);
  dim3 block(16, 16);
  tile<<<1, block>>>(x);
  hipLaunchKernelGGL(macro_launched, dim3(4), dim3(512), 0, 0, x);
}
)");
  const CandidateSet found = findCandidates(adviseInputFor(path));
  std::map<std::string, std::string> bounds;  // kernel -> the edit's text
  for (const Candidate &c : found.candidates)
    if (c.rule == AdviseRule::LaunchBounds) bounds[c.kernel.name] = c.edit.begin()->getReplacementText().str();
  EXPECT_EQ(bounds["scale"], "__launch_bounds__(256) ");  // the largest of 256 and 128
  EXPECT_EQ(bounds["tile"], "__launch_bounds__(256) ");   // dim3 block(16, 16)
  EXPECT_EQ(bounds["macro_launched"], "__launch_bounds__(512) ");
  EXPECT_EQ(bounds["unlaunched"], "__launch_bounds__(256) ");  // no launch site: 256 assumed
  EXPECT_EQ(bounds.count("bounded"), 0u);
  // Launched with a run-time block size: unknown, as analyze says; no bound of a guessed size (issue 30).
  EXPECT_EQ(bounds.count("run_time"), 0u);
  const Candidate *unlaunched = nullptr;
  for (const Candidate &c : found.candidates)
    if (c.rule == AdviseRule::LaunchBounds && c.kernel.name == "unlaunched") unlaunched = &c;
  ASSERT_NE(unlaunched, nullptr);
  EXPECT_NE(unlaunched->description.find("256 assumed"), std::string::npos);
  EXPECT_NE(unlaunched->assumption.find("256"), std::string::npos);

  // With a waves target, the second argument and AMD's own attribute.
  AdviseInput with_step = adviseInputFor(path);
  with_step.next_waves[found.kernels[0].mangled] = 6;
  const CandidateSet stepped = findCandidates(with_step);
  std::set<std::string> texts;
  for (const Candidate &c : stepped.candidates)
    if (c.kernel.name == "scale" && (c.rule == AdviseRule::LaunchBounds || c.rule == AdviseRule::WavesPerEu))
      texts.insert(c.edit.begin()->getReplacementText().str());
  EXPECT_EQ(texts, (std::set<std::string>{"__launch_bounds__(256) ", "__launch_bounds__(256, 6) ",
                                          "__attribute__((amdgpu_waves_per_eu(6))) "}));
  // Two edits at the same place conflict: reported, not applied.
  std::vector<const Candidate *> same_place;
  for (const Candidate &c : stepped.candidates)
    if (c.kernel.name == "scale" && (c.rule == AdviseRule::LaunchBounds || c.rule == AdviseRule::WavesPerEu))
      same_place.push_back(&c);
  const CombinedEdit combined = combineEdits(stepped.source_text, same_place);
  EXPECT_EQ(combined.applied.size(), 1u);
  EXPECT_EQ(combined.conflicts.size(), 2u);
}

TEST_F(Advise, RestrictCandidatesCombineWithoutDuplicates) {
  const CandidateSet found = findCandidates(adviseInputFor(test::sourcePath("kernels/bitonic/bitonic.hip")));
  std::vector<const Candidate *> restrict_float;
  for (const Candidate &c : found.candidates)
    if ((c.rule == AdviseRule::Restrict || c.rule == AdviseRule::RestrictAll) && c.kernel.name == "bitonic_float")
      restrict_float.push_back(&c);
  ASSERT_EQ(restrict_float.size(), 3u);  // input, output, both
  const CombinedEdit combined = combineEdits(found.source_text, restrict_float);
  EXPECT_TRUE(combined.conflicts.empty());
  EXPECT_EQ(combined.edit.size(), 2u);
  EXPECT_NE(combined.edited_source.find("const float *__restrict__ input, float *__restrict__ output"),
            std::string::npos);
  EXPECT_EQ(combined.edited_source.find("__restrict__ __restrict__"), std::string::npos);
}

TEST_F(Advise, UnrollPragmasAndConstantLoopsGetSmallerFactors) {
  const CandidateSet found = findCandidates(adviseInputFor(test::sourcePath("kernels/unroll/ax.hip")));
  std::vector<std::string> pragmas;
  for (const Candidate &c : found.candidates)
    if (c.rule == AdviseRule::Unroll && c.line == 29) pragmas.push_back(c.edit.begin()->getReplacementText().str());
  // `#pragma unroll` on the 8-iteration loop: 4, 2 and 1; its comment stays.
  EXPECT_EQ(pragmas, (std::vector<std::string>{"#pragma unroll 4", "#pragma unroll 2", "#pragma unroll 1"}));
  const Candidate *inserted = findCandidate(found, AdviseRule::Unroll, "@53:5:1");
  ASSERT_NE(inserted, nullptr);  // the last loop, 8 constant iterations, no pragma
  EXPECT_NE(inserted->edited_source.find("    #pragma unroll 1\n    for (int m = 0; m < NX1; m++)\n"),
            std::string::npos);
  // The already rolled loop (#pragma unroll 1) has nothing smaller.
  for (const Candidate &c : found.candidates) EXPECT_NE(c.line, 36) << c.id;
}

TEST_F(Advise, FindsWhatTheCompilerSawWithItsFlagsAndHints) {
  TempDir dir;
  const std::string path = dir.path() + "/flags.hip";
  writeText(path, R"(#include <hip/hip_runtime.h>
__device__ double square(double x) {
#ifdef USE_POW
  return pow(x, 2);
#else
  return x * x;
#endif
}
__global__ void __launch_bounds__(128) k(double *__restrict__ out, int n, int m) {
  double a[16];
  int t = threadIdx.x;
  for (int j = 0; j < n; ++j) a[j & 15] = square(j);
  out[t] = a[n & 15] + a[t % 16] + a[m % 8];
  out[t / 4] += n / 8;
#ifdef __HIP_DEVICE_COMPILE__
  out[0] = powf((float)t, 3.0f);
#endif
}
)");
  const CandidateSet plain = findCandidates(adviseInputFor(path));
  const CandidateSet with_pow = findCandidates(adviseInputFor(path, {"-DUSE_POW"}));
  auto count = [](const CandidateSet &s, AdviseRule rule) {
    return std::count_if(s.candidates.begin(), s.candidates.end(), [&](const Candidate &c) { return c.rule == rule; });
  };
  // Device-side macros are the compiler's: powf(t, 3.0f) is seen, pow(x, 2) only with -DUSE_POW.
  EXPECT_EQ(count(plain, AdviseRule::PowToMultiply), 1);
  EXPECT_EQ(count(with_pow, AdviseRule::PowToMultiply), 2);
  const Candidate *cube = findCandidate(plain, AdviseRule::PowToMultiply);
  ASSERT_NE(cube, nullptr);
  EXPECT_NE(cube->edited_source.find("out[0] = (float)t * (float)t * (float)t;"), std::string::npos)
      << cube->edited_source;
  const Candidate *square = nullptr;
  for (const Candidate &c : with_pow.candidates)
    if (c.rule == AdviseRule::PowToMultiply && c.kernel.name == "square") square = &c;
  ASSERT_NE(square, nullptr);
  EXPECT_FALSE(square->kernel.is_kernel);
  EXPECT_NE(square->edited_source.find("return x * x;\n#else"), std::string::npos);
  // The front end ran with the compiler's device flags.
  const std::vector<std::string> &args = plain.frontend_args;
  auto has = [&](const std::string &a, const std::string &b) {
    for (std::size_t i = 0; i + 1 < args.size(); ++i)
      if (args[i] == a && args[i + 1] == b) return true;
    return false;
  };
  EXPECT_TRUE(has("-target-cpu", "gfx90a"));
  EXPECT_TRUE(has("-triple", "amdgcn-amd-amdhsa"));
  EXPECT_NE(std::find(args.begin(), args.end(), "-fcuda-is-device"), args.end());
  EXPECT_NE(std::find(args.begin(), args.end(), "-resource-dir"), args.end());
  EXPECT_NE(std::find(args.begin(), args.end(), "-fsyntax-only"), args.end());

  // t % 16 and t / 4: t is a thread index, so masks and shifts; m % 8 and n / 8
  // may be negative: hints only.
  std::vector<std::string> edits, hints;
  for (const Candidate &c : plain.candidates)
    if (c.rule == AdviseRule::PowerOfTwo) (c.hint_only ? hints : edits).push_back(c.id);
  EXPECT_EQ(edits.size(), 2u);
  EXPECT_EQ(hints.size(), 2u);
  const Candidate *scratch = findCandidate(plain, AdviseRule::ScratchArray);
  ASSERT_NE(scratch, nullptr);
  EXPECT_TRUE(scratch->hint_only);
  EXPECT_EQ(scratch->array_bytes, 128);
  EXPECT_EQ(scratch->line, 12);  // a[j & 15]: the first run-time index
}

// Another clang as the compiler (Debian's clang 19, for newer archs): its
// cc1 flags are read with Clang 15, its builtin headers replaced by Clang 15's,
// and flags Clang 15 does not know left out, each with a warning.
TEST_F(Advise, AnotherClangVersionIsReadWithClang15sHeaders) {
  const std::string clang19 = "/usr/lib/llvm-19/bin/clang++";
  if (!fs::exists(clang19)) GTEST_SKIP() << "clang-19 is not installed";
  AdviseInput input = adviseInputFor(test::sourcePath("kernels/lbm/lbm.hip"));
  input.options.compiler = clang19;
  const CandidateSet found = findCandidates(input);
  EXPECT_NE(found.frontend_version.find("clang version 19."), std::string::npos) << found.frontend_version;
  EXPECT_NE(findCandidate(found, AdviseRule::PowToMultiply), nullptr);
  ASSERT_EQ(found.warnings.size(), 3u);
  EXPECT_NE(found.warnings[1].find("builtin headers (/usr/lib/llvm-19/lib/clang/19)"), std::string::npos)
      << found.warnings[1];
  const std::string &args = found.warnings[2];
  EXPECT_NE(args.find("were left out"), std::string::npos) << args;
}

TEST_F(Advise, AFileThatDoesNotParseGivesTheCompilersFirstErrors) {
  TempDir dir;
  const std::string path = dir.path() + "/broken.hip";
  writeText(path, "#include <hip/hip_runtime.h>\n__global__ void k(float *x) {\n  x[0] = undeclared_name;\n}\n");
  try {
    findCandidates(adviseInputFor(path));
    FAIL() << "parsed a broken file";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find(path + ":3:10: error: use of undeclared identifier 'undeclared_name'"),
              std::string::npos)
        << e.what();
  }
  try {
    advise(adviseInputFor(path));
    FAIL() << "advised on a broken file";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("error: use of undeclared identifier 'undeclared_name'"), std::string::npos)
        << e.what();
  }
}

TEST_F(Advise, ASourceWithNoCandidatesSaysSo) {
  TempDir dir;
  const std::string path = dir.path() + "/clean.hip";
  writeText(path, "#include <hip/hip_runtime.h>\n__global__ void __launch_bounds__(64) k(int n) {}\n");
  AdviseInput input = adviseInputFor(path);
  const AdviseResult r = advise(input);
  EXPECT_TRUE(r.found.candidates.empty());
  EXPECT_TRUE(r.trials.empty());
  EXPECT_TRUE(r.steps.empty());
  EXPECT_EQ(r.combined_diff, "");
  EXPECT_EQ(r.compiles, 1);
  EXPECT_EQ(r.found.kernels.size(), 1u);

  // A --kernel naming none of them lists the ones there are.
  input.kernels = {"nope"};
  try {
    findCandidates(input);
    FAIL();
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("no kernel named 'nope'"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("k(int)"), std::string::npos) << e.what();
  }
}

// An edited-text job of the pipeline (-ivfsoverlay) against a copy in a
// temporary directory with -iquote: only the overlay keeps the original's
// name, directory and lines for everything the compiler reports, and it
// covers the main file itself.
TEST_F(Advise, OverlayKeepsTheOriginalsNameIncludesAndLines) {
  TempDir dir;
  const std::string project = dir.path() + "/project";
  writeText(project + "/include/defs.h", "#define SCALE 3.0f\n");
  writeText(project + "/src/local.h", "__device__ inline float twice(float x) { return 2.0f * x; }\n");
  const std::string path = project + "/src/k.hip";
  const std::string original =
      "#include <hip/hip_runtime.h>\n#include \"../include/defs.h\"\n#include \"local.h\"\n"
      "__global__ void k(float *x) { x[threadIdx.x] = twice(SCALE); }\n";
  writeText(path, original);
  const test::FileState before = stateOf(path);
  // The edit moves the kernel two lines down and adds a second one.
  const std::string edited = replaceOnce(original, "__global__ void k",
                                         "\n\n__global__ void extra(float *y) { y[0] = 1; }\n__global__ void k");

  AdviseInput input = adviseInputFor(path);
  SourceJob job = input.job;
  job.edited_text = edited;
  const Report report = analyzeJobs({job}, input.options);
  ASSERT_TRUE(report.errors.empty()) << report.errors.front().message;
  ASSERT_EQ(report.kernels.size(), 2u) << "the overlay's text was compiled, not the file's";
  for (const KernelReport &k : report.kernels) EXPECT_EQ(k.record.file, path) << k.record.name;
  EXPECT_EQ(report.kernels[1].record.line, 7);  // k, where the edited text has it

  // The copy: quoted includes need -iquote, and every name is the copy's.
  TempDir copy_dir;
  const std::string copy = copy_dir.path() + "/k.hip";
  writeText(copy, edited);
  AnalyzeOptions with_iquote = input.options;
  with_iquote.extra_flags = {"-iquote", project + "/src"};
  const Report copied = analyzeFiles({copy}, with_iquote);
  ASSERT_TRUE(copied.errors.empty()) << copied.errors.front().message;
  for (const KernelReport &k : copied.kernels) EXPECT_NE(k.record.file, path);
  expectUnchanged(before, path);
  EXPECT_EQ(std::distance(fs::directory_iterator(project + "/src"), fs::directory_iterator()), 2);
}

// An edited text is cached by its content: the same text again is a hit, a
// different one a miss, and a change to the original's header (a dependency
// of both) invalidates it.
TEST_F(Advise, EditedTextsAreCachedByTheirContent) {
  TempDir dir, cache;
  const std::string path = dir.path() + "/k.hip";
  writeText(dir.path() + "/n.h", "#define N 4\n");
  const std::string original =
      "#include <hip/hip_runtime.h>\n#include \"n.h\"\n"
      "__global__ void k(float *x) { for (int i = 0; i < N; ++i) x[i] *= 2; }\n";
  writeText(path, original);
  AdviseInput input = adviseInputFor(path);
  input.options.cache_dir = cache.path();
  input.options.verbose = true;
  auto hits = [&](const std::vector<std::string> &texts) {
    testing::internal::CaptureStderr();
    const std::vector<Measurement> m = measureTexts(input, texts);
    const std::string said = testing::internal::GetCapturedStderr();
    for (const Measurement &one : m) EXPECT_TRUE(one.ok) << one.error;
    int n = 0;
    for (std::size_t at = 0; (at = said.find("from the result cache", at)) != std::string::npos; ++at) ++n;
    return n;
  };
  const std::string edited = replaceOnce(original, "*= 2", "*= 3");
  EXPECT_EQ(hits({edited}), 0);
  EXPECT_EQ(hits({edited}), 1);
  EXPECT_EQ(hits({edited, original}), 1) << "another text is another entry";
  writeText(dir.path() + "/n.h", "#define N 8\n");
  EXPECT_EQ(hits({edited}), 0) << "the header changed";
}

// A candidate that renames its kernel is still compared with the original:
// matched by where the kernel is declared, moved through the edit.
TEST_F(Advise, ARenamedKernelIsMatchedByItsLocation) {
  TempDir dir;
  const std::string path = dir.path() + "/rename.hip";
  const std::string original =
      "#include <hip/hip_runtime.h>\n__global__ void a(float *x) { x[0] = 1; }\n"
      "__global__ void b(float *x) { x[1] = 2; }\n";
  writeText(path, original);
  AdviseInput input = adviseInputFor(path);
  clang::tooling::Replacements edit;
  const std::size_t b_name = original.find("void b") + 5;
  ASSERT_FALSE(edit.add(clang::tooling::Replacement(path, 29, 0, "// moved\n// down\n")));
  ASSERT_FALSE(edit.add(clang::tooling::Replacement(path, static_cast<unsigned>(b_name), 1, "b_renamed")));
  const std::string edited = applyEdit(original, edit);
  const std::vector<Measurement> measured = measureTexts(input, {original, edited});
  const Measurement &before = measured[0], &after = measured[1];
  ASSERT_TRUE(after.ok);
  ASSERT_EQ(before.kernels.size(), 2u);
  const KernelFigures *b = matchKernel(before.kernels[1], after.kernels, original, edit);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->demangled, "b_renamed(float*)");
  EXPECT_EQ(b->line, 5);
  const KernelFigures *a = matchKernel(before.kernels[0], after.kernels, original, edit);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->demangled, "a(float*)");
}

// ---------------------------------------------------------------- diffs alone

TEST(AdviseDiff, UnifiedDiffsGitAccepts) {
  TempDir dir;
  std::string lines;
  for (int i = 1; i <= 40; ++i) lines += "line " + std::to_string(i) + "\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {lines, replaceOnce(replaceOnce(lines, "line 2\n", "line two\n"), "line 39\n", "")},  // two hunks
      {lines, replaceOnce(lines, "line 5\n", "line 5\nnew a\nnew b\n")},                    // insertion
      {lines, "first\n" + lines},                                                           // at the start
      {"a\nb\nc", "a\nB\nc"},                                                               // no final newline
      {"a\nb\nc", "a\nb\nc\n"},                                                             // newline added
      {"a\nb\nc\n", "a\nb\nc"},                                                             // newline removed
      {"", "new file body\n"},
      {lines, replaceOnce(replaceOnce(lines, "line 10\n", "x\n"), "line 16\n", "y\n")},  // hunks merged
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto &[before, after] = cases[i];
    const std::string tree = dir.path() + "/t" + std::to_string(i);
    writeText(tree + "/f.txt", before);
    const std::string diff = unifiedDiff("f.txt", before, after);
    ASSERT_FALSE(diff.empty());
    const std::string patch = dir.path() + "/" + std::to_string(i) + ".diff";
    writeText(patch, diff);
    EXPECT_EQ(applyWithGit(tree, patch, false), "") << "case " << i << "\n" << diff;
    EXPECT_EQ(test::readText(tree + "/f.txt"), after) << "case " << i << "\n" << diff;
  }
  EXPECT_EQ(unifiedDiff("f", "same\n", "same\n"), "");
  const std::string two = unifiedDiff("f", cases[0].first, cases[0].second);
  EXPECT_EQ(std::count(two.begin(), two.end(), '@'), 8) << "two hunks\n" << two;
  const std::string merged = unifiedDiff("f", cases[7].first, cases[7].second);
  EXPECT_EQ(std::count(merged.begin(), merged.end(), '@'), 4) << "one hunk\n" << merged;
}

// ---------------------------------------------------------------- the command

// `regscope advise` on small sources through the binary: bad input, no
// candidates, refused outputs; each run in an empty working directory with
// its own $TMPDIR and cache, both checked empty afterwards.
class AdviseCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::haveHipcc()) GTEST_SKIP() << "hipcc is not installed";
    cwd_.emplace();
    tmp_.emplace();
    cache_.emplace();
    src_.emplace();
  }
  void TearDown() override {
    if (!tmp_) return;
    EXPECT_TRUE(test::dirIsEmpty(tmp_->path())) << "advise left files in $TMPDIR";
    for (const auto &entry : fs::directory_iterator(cwd_->path()))
      EXPECT_TRUE(allowed_.count(entry.path().filename().string()))
          << "left in the working directory: " << entry.path();
  }
  test::RunResult run(std::vector<std::string> args) {
    args.insert(args.begin(), "advise");
    return test::runRegscope(args, cwd_->path(), tmp_->path(), cache_->path());
  }
  std::string source(const std::string &name, const std::string &text) {
    const std::string path = src_->path() + "/" + name;
    writeText(path, text);
    return path;
  }
  std::optional<TempDir> cwd_, tmp_, cache_, src_;
  std::set<std::string> allowed_;  // outputs a test asked for in the working directory
};

TEST_F(AdviseCommand, AFileThatDoesNotCompileGivesTheCompilersFirstErrors) {
  const std::string path = source(
      "broken.hip", "#include <hip/hip_runtime.h>\n__global__ void k(float *x) {\n  x[0] = undeclared_name;\n}\n");
  const test::FileState before = stateOf(path);
  const test::RunResult r = run({path, "--offload-arch", "gfx90a"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("broken.hip:3:10: error: use of undeclared identifier 'undeclared_name'"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.out, "");
  expectUnchanged(before, path);
}

TEST_F(AdviseCommand, AKernelNamedNowhereListsTheKernels) {
  const std::string path = source("two.hip",
                                  "#include <hip/hip_runtime.h>\n"
                                  "__global__ void scale(float *x) { x[threadIdx.x] *= 2; }\n"
                                  "__global__ void shift(float *x) { x[threadIdx.x] += 1; }\n");
  const test::RunResult r = run({path, "--offload-arch", "gfx90a", "--kernel", "nope"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("no kernel named 'nope'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("scale(float*), shift(float*)"), std::string::npos) << r.err;
}

TEST_F(AdviseCommand, ASourceWithNoCandidatesSaysSoAndWritesNoPatch) {
  const std::string path =
      source("clean.hip", "#include <hip/hip_runtime.h>\n__global__ void __launch_bounds__(64) k(int n) {}\n");
  const test::RunResult r = run({path, "--offload-arch", "gfx90a", "--patch", "fix.diff"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("no candidates: no rule found anything to try in " + path), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("no confirmed edit; fix.diff not written"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(cwd_->path() + "/fix.diff"));
  const test::RunResult json = run({path, "--offload-arch", "gfx90a", "--format", "json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const nlohmann::json doc = nlohmann::json::parse(json.out);
  EXPECT_EQ(doc["command"], "advise");
  EXPECT_TRUE(doc["candidates"].empty());
  EXPECT_EQ(doc["compiles"], 1);
  EXPECT_EQ(doc["combination"]["diff"], "");
}

// Issue 22 item 12: a kernel whose LDS limits it (a 40 KiB tile at 256
// threads: 65536 / 40960 = 1 workgroup = 4 waves per CU = 1 wave/SIMD on
// gfx90a, where its few VGPRs would allow 8) is told so, with the LDS that
// reaches the next step (2 workgroups: 65536 / 2 = 32768 B), and is offered no
// waves-per-EU edit, which cannot help it.
TEST_F(AdviseCommand, AnLdsLimitedKernelIsToldRegistersAreNotTheLimiter) {
  const std::string path = source("tile.hip",
                                  "#include <hip/hip_runtime.h>\n"
                                  "#define TILE 10240\n"
                                  "__global__ void __launch_bounds__(256) smooth(float *x, int n) {\n"
                                  "  __shared__ float tile[TILE];\n"
                                  "  for (int i = threadIdx.x; i < TILE; i += blockDim.x) tile[i] = x[i];\n"
                                  "  __syncthreads();\n"
                                  "  x[threadIdx.x] = pow(tile[(threadIdx.x * 7) % TILE], 2.0);\n"
                                  "}\n");
  const test::RunResult r = run({path, "--offload-arch", "gfx90a", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["baseline"].size(), 1u) << r.out;
  EXPECT_EQ(doc["baseline"][0]["waves_per_simd"], 1);
  EXPECT_EQ(doc["baseline"][0]["limiter"], "lds");
  ASSERT_EQ(doc["not_register_limited"].size(), 1u) << r.out;
  EXPECT_EQ(doc["not_register_limited"][0],
            "smooth on gfx90a: occupancy 1 waves/SIMD is limited by LDS (40960 B per workgroup), not registers; "
            "32768 B of LDS or less reaches 2 waves/SIMD; a register edit alone cannot raise it");
  for (const auto &c : doc["candidates"]) {
    EXPECT_NE(c["rule"], "waves-per-eu") << c["description"];
    EXPECT_EQ(c["description"].get<std::string>().find("waves per SIMD"), std::string::npos) << c["description"];
  }
  const test::RunResult text = run({path, "--offload-arch", "gfx90a"});
  EXPECT_NE(text.out.find("is limited by LDS (40960 B per workgroup), not registers"), std::string::npos) << text.out;
}

TEST_F(AdviseCommand, RefusesToWriteOverItsInput) {
  const std::string path = source("k.hip", "#include <hip/hip_runtime.h>\n__global__ void k(float *x) { x[0] = 1; }\n");
  const test::FileState before = stateOf(path);
  for (const char *flag : {"--patch", "-o"}) {
    const test::RunResult r = run({path, "--offload-arch", "gfx90a", flag, path});
    EXPECT_EQ(r.exit_code, 2) << flag;
    EXPECT_NE(r.err.find("is one of the inputs; refusing to overwrite it"), std::string::npos) << r.err;
  }
  const test::RunResult both = run({path, "--patch", "out", "-o", "./out"});
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.err.find("--patch and -o name the same file"), std::string::npos) << both.err;
  writeText(cwd_->path() + "/old.diff", "an old patch\n");
  allowed_.insert("old.diff");
  const test::RunResult existing = run({path, "--offload-arch", "gfx90a", "--patch", "old.diff"});
  EXPECT_EQ(existing.exit_code, 2);
  EXPECT_NE(existing.err.find("old.diff exists; refusing to overwrite it with --patch"), std::string::npos)
      << existing.err;
  EXPECT_EQ(test::readText(cwd_->path() + "/old.diff"), "an old patch\n");
  const test::RunResult two = run({path, path});
  EXPECT_EQ(two.exit_code, 2);
  EXPECT_NE(two.err.find("advise takes one source file (2 given)"), std::string::npos) << two.err;
  const test::RunResult cuda = run({path, "--cuda-arch", "sm_90"});
  EXPECT_EQ(cuda.exit_code, 2);
  EXPECT_NE(cuda.err.find("AMD targets only"), std::string::npos) << cuda.err;
  expectUnchanged(before, path);
}

// --format html: each candidate that helps is an edit on the page, with the
// measured figures the JSON gives and the lines its diff removes and adds.
TEST_F(AdviseCommand, TheHtmlPageShowsEachHelpfulEditWithItsFiguresAndDiff) {
  // bitonic: its power-of-two rewrites save VGPRs with nothing else moved (helps). ax_unrolled's
  // __restrict__ edits save 2 SGPRs alone, which is no gain since issue 30.
  const std::string path = test::sourcePath("kernels/bitonic/bitonic.hip");
  const std::vector<std::string> common = {path, "--offload-arch", "gfx90a", "-j", "2"};
  std::vector<std::string> json_args = common, html_args = common;
  json_args.insert(json_args.end(), {"--format", "json"});
  html_args.insert(html_args.end(), {"--format", "html"});
  const test::RunResult json_run = run(json_args);
  ASSERT_EQ(json_run.exit_code, 0) << json_run.err;
  const nlohmann::json doc = nlohmann::json::parse(json_run.out);
  const test::RunResult html = run(html_args);
  ASSERT_EQ(html.exit_code, 0) << html.err;
  std::size_t helps = 0;
  for (const nlohmann::json &c : doc["candidates"]) {
    if (c["verdict"] != "helps") continue;
    ++helps;
    // The first removed line of its diff, escaped as the page escapes it.
    const std::string diff = c["diff"];
    const std::size_t removed = diff.find("\n-", diff.find("@@"));
    ASSERT_NE(removed, std::string::npos) << diff;
    std::string line = diff.substr(removed + 2, diff.find('\n', removed + 2) - removed - 2);
    std::string escaped;  // as Mustache escapes it
    for (char ch : line)
      escaped += ch == '<'    ? "&lt;"
                 : ch == '>'  ? "&gt;"
                 : ch == '&'  ? "&amp;"
                 : ch == '"'  ? "&quot;"
                 : ch == '\'' ? "&apos;"
                              : std::string(1, ch);
    EXPECT_NE(html.out.find("<td>-</td><td>" + escaped + "</td>"), std::string::npos) << line;
  }
  ASSERT_GT(helps, 0u) << "no candidate helps on bitonic: the page has nothing to show";
  std::size_t edits = 0;
  for (std::size_t at = html.out.find("class=\"kernel edit\""); at != std::string::npos;
       at = html.out.find("class=\"kernel edit\"", at + 1))
    ++edits;
  EXPECT_GE(edits, helps);
  EXPECT_NE(html.out.find("Edits, measured"), std::string::npos);
  // A kernel's baseline VGPRs as the "before" figure (the file has bitonic_int too).
  int vgprs = -1;
  for (const nlohmann::json &k : doc["baseline"])
    if (k["demangled"].get<std::string>().rfind("bitonic_float(", 0) == 0) vgprs = k["vgprs"];
  ASSERT_GE(vgprs, 0) << doc["baseline"].dump();
  EXPECT_NE(html.out.find("<th scope=\"row\">VGPRs</th><td class=\"num\">" + std::to_string(vgprs) + "</td>"),
            std::string::npos);
}

}  // namespace
}  // namespace regscope

namespace regscope {
namespace {

// The verdict rule (issue 30, item 9), on the shapes of the issue's report:
// __launch_bounds__(256, 8) bought a wave with spills 38/22 -> 104/40 and twice
// the scratch (it was labelled "helps"); a spill-removing edit that cost a wave
// (it was "worse"); a 2-SGPR saving with no effect on occupancy (it was "helps").
// The figures are the report's shapes, written here: the rule is what is tested.
KernelFigures figuresOf(int waves, int vgprs, int sgprs, int vgpr_spills, int sgpr_spills, int scratch) {
  KernelFigures k;
  k.waves_per_simd = waves;
  k.vgprs = k.vgprs_total = vgprs;
  k.sgprs = sgprs;
  k.vgpr_spills = vgpr_spills;
  k.sgpr_spills = sgpr_spills;
  k.scratch_bytes = scratch;
  return k;
}

TEST(AdviseVerdict, WhatTheGpuDoesIsJudgedFigureByFigure) {
  const KernelFigures base = figuresOf(4, 128, 96, 38, 22, 240);
  EXPECT_EQ(judgeFigures(base, figuresOf(5, 96, 96, 104, 40, 480)), TrialVerdict::Mixed);   // a wave for spills
  EXPECT_EQ(judgeFigures(base, figuresOf(3, 160, 96, 0, 0, 0)), TrialVerdict::Mixed);       // spills gone, a wave lost
  EXPECT_EQ(judgeFigures(base, figuresOf(4, 128, 94, 38, 22, 240)), TrialVerdict::NoGain);  // 2 SGPRs alone
  EXPECT_EQ(judgeFigures(base, figuresOf(4, 120, 96, 38, 22, 240)), TrialVerdict::Helps);   // VGPRs, nothing else moved
  EXPECT_EQ(judgeFigures(base, figuresOf(4, 136, 90, 38, 22, 240)), TrialVerdict::Worse);
  EXPECT_EQ(judgeFigures(base, figuresOf(4, 136, 96, 30, 22, 200)), TrialVerdict::Helps);  // fewer spills
  EXPECT_EQ(judgeFigures(base, base), TrialVerdict::NoGain);
}

// Spills inside loops run per iteration: moving them out at the same count
// helps, moving them in is worse even when the count falls, and a side whose
// loop spills were not read compares the other figures only.
TEST(AdviseVerdict, SpillsMovedOutOfLoopsHelpAndIntoLoopsCost) {
  KernelFigures in_loop = figuresOf(4, 128, 96, 38, 22, 240);
  in_loop.loop_spills = 50;
  KernelFigures outside = in_loop;
  outside.loop_spills = 0;
  EXPECT_EQ(judgeFigures(in_loop, outside), TrialVerdict::Helps);
  EXPECT_EQ(judgeFigures(outside, in_loop), TrialVerdict::Worse);
  KernelFigures fewer_but_inside = figuresOf(4, 128, 96, 30, 22, 240);
  fewer_but_inside.loop_spills = 50;
  EXPECT_EQ(judgeFigures(outside, fewer_but_inside), TrialVerdict::Mixed);
  KernelFigures unread = outside;
  unread.loop_spills.reset();
  EXPECT_EQ(judgeFigures(in_loop, unread), TrialVerdict::NoGain);
}

}  // namespace
}  // namespace regscope
