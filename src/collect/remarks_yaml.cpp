// Parses kernel-resource-usage remarks from an optimisation record (.opt.yaml)
// with LLVM's remarks library.
#include <llvm/Remarks/Remark.h>
#include <llvm/Remarks/RemarkParser.h>
#include <llvm/Support/Error.h>

#include <map>

#include "regscope/collect/collect.h"
#include "regscope/support/error.h"
#include "remark_labels.h"

namespace regscope {
namespace {

// LLVM's remark parser keeps the YAML diagnostic with the source line and a
// caret under it: the first line says it all.
std::string firstLine(llvm::Error error) {
  const std::string text = llvm::toString(std::move(error));
  return text.substr(0, text.find('\n'));
}

}  // namespace

FactSet parseRemarkYaml(std::string_view yaml, const std::string &arch) {
  FactSet set{"remarks", {}};
  if (yaml.empty()) return set;
  // YAML has no NUL character. LLVM 15's scanner stops at one mid-token and
  // hands the remark parser a key that is null, which it dereferences
  // (found by the remark_yaml fuzz target).
  if (const std::size_t nul = yaml.find('\0'); nul != std::string_view::npos)
    throw Error("optimisation record: a NUL byte at offset " + std::to_string(nul) + " (not YAML)");
  auto parser = llvm::remarks::createRemarkParserFromMeta(
      llvm::remarks::Format::YAML, llvm::StringRef(yaml.data(), yaml.size()));
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
        facts.file = remark.Loc->SourceFilePath.str();
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
