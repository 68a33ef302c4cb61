// Parses kernel-resource-usage remarks from an optimisation record (.opt.yaml)
// with LLVM's remarks library.
#include <llvm/Remarks/Remark.h>
#include <llvm/Remarks/RemarkParser.h>
#include <llvm/Support/ConvertUTF.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/YAMLParser.h>

#include <map>

#include "regscope/backends/amd/collect.h"
#include "regscope/collect/collect.h"
#include "regscope/collect/scan.h"
#include "regscope/collect/yaml_input.h"
#include "regscope/support/error.h"
#include "remark_labels.h"

namespace regscope {
namespace {

// LLVM 15's YAML remark parser drops a single-quoted scalar's quotes but
// keeps its escapes: "File: 'q''d/k.hip'" comes back as q''d/k.hip. A
// doubled quote is YAML's escape for one.
std::string singleQuotedYaml(llvm::StringRef text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    out += text[i];
    if (text[i] == '\'' && i + 1 < text.size() && text[i + 1] == '\'') ++i;
  }
  return out;
}

// LLVM's remark parser keeps the YAML diagnostic with the source line and a
// caret under it: the first line says it all.
std::string firstLine(llvm::Error error) {
  const std::string text = llvm::toString(std::move(error));
  return text.substr(0, text.find('\n'));
}

// The offset of the first byte that does not begin a legal UTF-8 sequence
// (LLVM's own check, sequence by sequence); npos when the text is UTF-8.
std::size_t firstInvalidUtf8(std::string_view text) {
  const auto *begin = reinterpret_cast<const llvm::UTF8 *>(text.data());
  const llvm::UTF8 *at = begin, *end = begin + text.size();
  while (at < end) {
    const unsigned length = llvm::getNumBytesForUTF8(*at);
    if (length > static_cast<std::size_t>(end - at) || !llvm::isLegalUTF8Sequence(at, at + length))
      return static_cast<std::size_t>(at - begin);
    at += length;
  }
  return std::string_view::npos;
}

constexpr int kMaxRecordNesting = 64;  // records nest four levels (Args, DebugLoc)

// Every node of the text, each key and value read. LLVM's YAML parser gives
// a null node for a key or value it could not parse.
void walkYaml(llvm::yaml::Node *node, int depth) {
  if (!node) throw Error("optimisation record: malformed YAML (a key or value that does not parse)");
  if (depth > kMaxRecordNesting)
    throw Error("optimisation record: nested deeper than " + std::to_string(kMaxRecordNesting) + " levels");
  if (auto *map = llvm::dyn_cast<llvm::yaml::MappingNode>(node)) {
    for (llvm::yaml::KeyValueNode &kv : *map) {
      walkYaml(kv.getKey(), depth + 1);
      walkYaml(kv.getValue(), depth + 1);
    }
  } else if (auto *seq = llvm::dyn_cast<llvm::yaml::SequenceNode>(node)) {
    for (llvm::yaml::Node &item : *seq) walkYaml(&item, depth + 1);
  }
}

// LLVM 15's remark parser hands a key its YAML parser could not read (null)
// to dyn_cast, which dereferences it (SIGSEGV; a NUL byte, a byte that is not
// UTF-8, a broken flow mapping in DebugLoc, found by the remark_yaml fuzz
// target). The text is read here first with the same YAML parser, and any
// error is refused with its first line.
void checkYaml(std::string_view yaml) {
  QuietYamlStream quiet(yaml);
  for (llvm::yaml::Document &document : quiet.stream()) walkYaml(document.getRoot(), 0);
  quiet.throwIfFailed("optimisation record");
}

}  // namespace

FactSet parseRemarkYaml(std::string_view yaml, const std::string &arch) {
  FactSet set{"remarks", {}, {}};
  if (yaml.empty()) return set;
  // YAML has no NUL character. LLVM 15's scanner stops at one mid-token and
  // hands the remark parser a key that is null, which it dereferences
  // (found by the remark_yaml fuzz target).
  checkYamlBytes(yaml, "optimisation record");
  // The same null key comes from a byte that is not UTF-8 inside a flow
  // mapping ("DebugLoc: ? { F\x93ile: ..."): found by the same target later.
  if (const std::size_t bad = firstInvalidUtf8(yaml); bad != std::string_view::npos)
    throw Error("optimisation record: a byte that is not UTF-8 at offset " + std::to_string(bad));
  checkYaml(yaml);
  auto parser =
      llvm::remarks::createRemarkParserFromMeta(llvm::remarks::Format::YAML, llvm::StringRef(yaml.data(), yaml.size()));
  if (!parser) throw Error("optimisation record: " + firstLine(parser.takeError()));

  std::map<std::string, std::size_t> index;  // function -> position in set.kernels
  while (true) {
    llvm::Expected<std::unique_ptr<llvm::remarks::Remark>> next = (*parser)->next();
    if (!next) {
      llvm::Error err = next.takeError();
      if (err.isA<llvm::remarks::EndOfFileError>()) {
        llvm::consumeError(std::move(err));
        break;
      }
      throw Error("optimisation record: " + firstLine(std::move(err)));
    }
    const llvm::remarks::Remark &remark = **next;
    if (remark.PassName != "kernel-resource-usage") continue;

    const std::string function = remark.FunctionName.str();
    auto [it, inserted] = index.try_emplace(function, set.kernels.size());
    if (inserted) {
      KernelFacts facts;
      facts.name = function;
      facts.arch = arch;
      if (remark.Loc) {
        facts.file = singleQuotedYaml(remark.Loc->SourceFilePath);
        facts.line = static_cast<int>(remark.Loc->SourceLine);
      }
      set.kernels.push_back(std::move(facts));
    }
    KernelFacts &facts = set.kernels[it->second];
    for (const RemarkLabel &known : kRemarkLabels) {
      if (!known.field || known.key != std::string_view(remark.RemarkName)) continue;
      for (const llvm::remarks::Argument &arg : remark.Args)
        if (std::string_view(arg.Key) == known.key)
          setRemarkValue(facts, *known.field, std::string_view(arg.Val.data(), arg.Val.size()));
    }
  }
  for (KernelFacts &facts : set.kernels) markDeviceFunction(facts);
  return set;
}

}  // namespace regscope
