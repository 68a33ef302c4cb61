// `regscope parse` reads logs and .s files in chunks and maps binaries
// (issue 14, parsers): the figures must not depend on where a chunk ends.
// Each test compares the chunked or mapped path with the whole-text parser
// on real compiler output in fixtures/.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "regscope/backends/amd/collect.h"
#include "regscope/collect/collect.h"
#include "regscope/pipeline/analyze.h"
#include "regscope/support/chunks.h"
#include "regscope/support/error.h"
#include "regscope/support/files.h"
#include "regscope/support/process.h"
#include "test_util.h"

namespace regscope {
namespace {

using test::fixture;

std::vector<std::string> linesOf(std::string_view text, std::size_t chunk) {
  std::vector<std::string> out;
  LineSplitter split;
  auto keep = [&](std::string_view line) { out.emplace_back(line); };
  for (std::size_t at = 0; at < text.size(); at += chunk) split.feed(text.substr(at, chunk), keep);
  split.finish(keep);
  return out;
}

std::vector<std::string> wholeLinesOf(std::string_view text) {  // what parseRemarkText and parseAsm cut
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    out.emplace_back(text.substr(pos, eol - pos));
    pos = eol + 1;
  }
  return out;
}

TEST(LineSplitter, CutsLikeTheWholeTextAtEveryChunkSize) {
  for (const std::string &text : std::vector<std::string>{"", "\n", "a", "a\n", "\n\n", "a\n\nb", "ab\r\ncd\n\n\nef",
                                                          "x\n" + std::string(300, 'y')}) {
    for (std::size_t chunk = 1; chunk <= text.size() + 1; ++chunk)
      EXPECT_EQ(linesOf(text, chunk), wholeLinesOf(text)) << "chunk " << chunk << " of \"" << text << "\"";
  }
}

void expectSameFacts(const FactSet &a, const FactSet &b, const std::string &what) {
  EXPECT_EQ(a.source, b.source) << what;
  ASSERT_EQ(a.kernels.size(), b.kernels.size()) << what;
  for (std::size_t k = 0; k < a.kernels.size(); ++k) {
    const KernelFacts &x = a.kernels[k], &y = b.kernels[k];
    EXPECT_EQ(x.name, y.name) << what;
    EXPECT_EQ(x.arch, y.arch) << what;
    EXPECT_EQ(x.file, y.file) << what;
    EXPECT_EQ(x.line, y.line) << what;
    EXPECT_EQ(x.is_kernel, y.is_kernel) << what;
    EXPECT_EQ(x.values, y.values) << what << " " << x.name;
    EXPECT_EQ(x.unresolved, y.unresolved) << what;
    EXPECT_EQ(x.notes, y.notes) << what;
  }
}

FactSet remarksInChunks(std::string_view text, std::size_t chunk, const std::string &arch) {
  RemarkTextParser parser(arch);
  LineSplitter split;
  auto feed = [&](std::string_view line) { parser.line(line); };
  for (std::size_t at = 0; at < text.size(); at += chunk) split.feed(text.substr(at, chunk), feed);
  split.finish(feed);
  return parser.finish();
}

TEST(ChunkedParse, LogInChunksGivesTheWholeLogsRecords) {
  for (const char *name :
       {"hipcc-5.2.3/lbm.remarks.txt", "hipcc-5.2.3/probe.remarks.txt", "hipcc-5.2.3/lbm.remarks-nosavetemps.txt",
        "clang-19/probe.remarks.txt", "lld-rdc/link.log", "llvm20/k.remarks.txt"}) {
    const std::string text = fixture(name);
    const FactSet whole = parseRemarkText(text, "gfx90a");
    ASSERT_FALSE(whole.kernels.empty()) << name;
    // A boundary inside the second "Function Name" line, one inside a value
    // line of the first block, and sizes that fall anywhere.
    const std::size_t second = text.find("Function Name", text.find("Function Name") + 1);
    const std::size_t value = text.find("VGPRs");
    std::vector<std::size_t> sizes = {1, 7, 64, 4096, text.size()};
    if (second != std::string::npos) sizes.push_back(second + 5);
    if (value != std::string::npos) sizes.push_back(value + 2);
    for (std::size_t chunk : sizes)
      expectSameFacts(remarksInChunks(text, chunk, "gfx90a"), whole,
                      std::string(name) + " in chunks of " + std::to_string(chunk));
  }
}

TEST(ChunkedParse, AssemblyFromLinesGivesTheWholeFilesRecords) {
  for (const char *name :
       {"hipcc-5.2.3/lbm-gfx90a.s", "hipcc-5.2.3/probe-gfx908.s", "clang-19/lbm-gfx90a.s", "llvm20/k.s"}) {
    const std::string text = fixture(name);
    const AsmFile whole = parseAsm(text);
    for (std::size_t chunk : {std::size_t{13}, std::size_t{4096}}) {
      const AsmFile chunked = parseAsm([&](const std::function<void(std::string_view)> &fn) {
        LineSplitter split;
        for (std::size_t at = 0; at < text.size(); at += chunk)
          split.feed(std::string_view(text).substr(at, chunk), fn);
        split.finish(fn);
      });
      EXPECT_EQ(chunked.arch, whole.arch) << name;
      EXPECT_EQ(chunked.producer, whole.producer) << name;
      expectSameFacts(chunked.facts, whole.facts, name);
    }
  }
}

// The file path (chunks of FileChunks::kDefaultSize, or a mapping) against
// the whole bytes, through everything `parse` checks after collection.
void expectFileParsesAsBytes(const std::string &path, const std::string &bytes, const std::string &arch) {
  const Report report = parseArtifacts({path}, arch);
  const Artifact artifact = collectArtifact(bytes, path, arch);
  ASSERT_EQ(report.kernels.size(), artifact.records.size()) << path;
  for (const KernelRecord &y : artifact.records) {  // the report orders kernels its own way
    const KernelReport *found = nullptr;
    for (const KernelReport &k : report.kernels)
      if (k.record.name == y.name && k.record.arch == y.arch) found = &k;
    ASSERT_NE(found, nullptr) << y.name << " " << y.arch;
    const KernelRecord &x = found->record;
    EXPECT_EQ(x.file, y.file);
    EXPECT_EQ(x.line, y.line);
    EXPECT_EQ(x.values, y.values) << x.name;
    EXPECT_EQ(x.sources, y.sources);
    EXPECT_EQ(x.warnings, y.warnings);
  }
  EXPECT_EQ(report.compiler_version, artifact.producer);
}

std::string write(const TempDir &dir, const std::string &name, const std::string &bytes) {
  const std::string path = dir.path() + "/" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string chatter(std::size_t bytes) {  // build-log lines that hold no remark
  std::string out;
  for (int i = 0; out.size() < bytes; ++i)
    out += "/src/app/util.h:" + std::to_string(i % 997) + ":10: warning: unused variable 'tmp' [-Wunused-variable]\n";
  return out;
}

TEST(ChunkedParse, LogFileLargerThanAChunkWithABlockAcrossTheBoundary) {
  TempDir dir;
  const std::string remarks = fixture("hipcc-5.2.3/lbm.remarks-nosavetemps.txt");
  // The first chunk ends inside the block's "VGPRs" line.
  std::string log = chatter(FileChunks::kDefaultSize - remarks.find("VGPRs") - 2);
  log.resize(FileChunks::kDefaultSize - remarks.find("VGPRs") - 2);
  log.back() = '\n';
  log += remarks + chatter(FileChunks::kDefaultSize / 2);
  ASSERT_GT(log.size(), FileChunks::kDefaultSize);
  expectFileParsesAsBytes(write(dir, "build.log", log), log, "gfx90a");
  EXPECT_EQ(parseArtifacts({dir.path() + "/build.log"}, "gfx90a").kernels.size(), 1u);
}

TEST(ChunkedParse, AssemblyMarkerCutByAChunkBoundaryIsStillAssembly) {
  TempDir dir;
  const std::string s = fixture("hipcc-5.2.3/lbm-gfx90a.s");
  // Comment lines, then the .s, with its ".amdgcn_target" cut in two by the
  // first chunk's end: the whole-text sniff calls this assembly, and so must the chunked one.
  const std::size_t marker = s.find(".amdgcn_target");
  ASSERT_NE(marker, std::string::npos);
  std::string text(FileChunks::kDefaultSize - marker - 6, ';');
  for (std::size_t i = 79; i < text.size(); i += 80) text[i] = '\n';
  text.back() = '\n';
  text += s;
  ASSERT_EQ(text.substr(FileChunks::kDefaultSize - 6, 6), ".amdgc");
  expectFileParsesAsBytes(write(dir, "padded.s", text), text, "");
  EXPECT_FALSE(parseArtifacts({dir.path() + "/padded.s"}, "").kernels.empty());
}

TEST(ChunkedParse, DamagedRemarkBeforeAssemblyIsAssembly) {
  // The whole-text sniff looked for assembly first; a damaged remark line in
  // the first chunk must not win over a .s directive in the second.
  TempDir dir;
  std::string text =
      "k.hip:99999999999999999999:1: remark: Function Name: _Z1kv [-Rpass-analysis=kernel-resource-usage]\n";
  text += chatter(FileChunks::kDefaultSize + 100) + fixture("hipcc-5.2.3/lbm-gfx90a.s");
  EXPECT_THROW(parseRemarkText(text, "gfx90a"), Error);
  expectFileParsesAsBytes(write(dir, "mixed.s", text), text, "");
}

TEST(ChunkedParse, MappedCodeObjectsGiveTheBytesRecords) {
  for (const char *name : {"hipcc-5.2.3/probe-host.o", "hipcc-5.2.3/probe-gfx90a.hsaco"})
    expectFileParsesAsBytes(test::sourcePath(std::string("fixtures/") + name), fixture(name), "");
}

void putU64(std::string &out, std::uint64_t v) { out.append(reinterpret_cast<const char *>(&v), 8); }

TEST(ChunkedParse, RepeatedCodeObjectIsReadOnce) {
  // A fat binary may hold the same code object many times (a kernel linked in
  // from several objects): its figures are read once. The container is
  // written here (hand-made: an offload bundle whose two entries name the same
  // real device ELF, as clang-offload-bundler lays entries out); the ELF is hipcc's.
  const std::string elf = fixture("hipcc-5.2.3/probe-gfx90a.hsaco");
  const std::string triple = "hipv4-amdgcn-amd-amdhsa--gfx90a";
  const std::size_t header = 24 + 8 + 2 * (24 + triple.size());
  std::string bundle = "__CLANG_OFFLOAD_BUNDLE__";
  putU64(bundle, 2);
  for (int i = 0; i < 2; ++i) {
    putU64(bundle, header);
    putU64(bundle, elf.size());
    putU64(bundle, triple.size());
    bundle += triple;
  }
  ASSERT_EQ(bundle.size(), header);
  bundle += elf;
  const std::vector<CodeObject> once = parseCodeObjects(elf), repeated = parseCodeObjects(bundle);
  ASSERT_EQ(once.size(), 1u);
  ASSERT_EQ(repeated.size(), 1u);
  EXPECT_EQ(repeated[0].arch, "gfx90a");
  expectSameFacts(repeated[0].facts, once[0].facts, "the repeated code object");
}

TEST(ChunkedParse, DroppedPagesOfAMappingReadBackTheFile) {
  TempDir dir;
  const std::string bytes = chatter(3 * FileChunks::kDefaultSize);
  const std::string path = write(dir, "big.log", bytes);
  const MappedFile mapped(path);
  ASSERT_EQ(mapped.bytes(), bytes);
  mapped.drop(mapped.bytes());
  mapped.drop(mapped.bytes().substr(4095, 10000));
  mapped.drop("not a part of the file");
  EXPECT_EQ(mapped.bytes(), bytes);
}

}  // namespace
}  // namespace regscope
