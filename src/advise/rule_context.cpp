// What the rules share: the device functions of the main file, their names as
// the compiler emits them, editable ranges (never inside a macro), and the
// candidate list.
#include <clang/AST/Mangle.h>
#include <clang/ASTMatchers/ASTMatchFinder.h>
#include <clang/ASTMatchers/ASTMatchers.h>
#include <clang/Analysis/Analyses/ExprMutationAnalyzer.h>
#include <clang/Lex/Lexer.h>

#include <memory>

#include "advise_internal.h"
#include "regscope/support/error.h"
#include "regscope/support/symbols.h"

namespace regscope::advise_detail {

using namespace clang::ast_matchers;

namespace {

bool runsOnDevice(const clang::FunctionDecl *fn) {
  return fn->hasAttr<clang::CUDAGlobalAttr>() || fn->hasAttr<clang::CUDADeviceAttr>();
}

bool isLambdaBody(const clang::FunctionDecl *fn) {
  const auto *method = llvm::dyn_cast<clang::CXXMethodDecl>(fn);
  return method && method->getParent()->isLambda();
}

}  // namespace

RuleContext::RuleContext(clang::ASTContext &ast, const AdviseInput &input, CandidateSet &out)
    : ast(ast), sm(ast.getSourceManager()), input(input), out(out) {
  // Template instantiations are left out: their bodies are the pattern's
  // text, and an edit must be right for every instantiation. Rules read the
  // pattern; what is type-dependent there is not resolved and not edited.
  auto matcher = functionDecl(isDefinition(), unless(isImplicit()), unless(isInstantiated())).bind("fn");
  for (const BoundNodes &node : match(traverse(clang::TK_AsIs, translationUnitDecl(forEachDescendant(matcher))), ast)) {
    const auto *fn = node.getNodeAs<clang::FunctionDecl>("fn");
    if (!fn->doesThisDeclarationHaveABody() || !runsOnDevice(fn) || isLambdaBody(fn)) continue;
    if (fn->isTemplateInstantiation()) continue;
    if (!sm.isInMainFile(sm.getExpansionLoc(fn->getLocation()))) continue;
    functions_.push_back(fn);
  }
}

bool RuleContext::isKernel(const clang::FunctionDecl *fn) { return fn->hasAttr<clang::CUDAGlobalAttr>(); }

KernelRef RuleContext::kernelRef(const clang::FunctionDecl *fn) const {
  KernelRef ref;
  ref.name = fn->getQualifiedNameAsString();
  ref.is_kernel = isKernel(fn);
  // A template's symbol is its first instantiation's; an uninstantiated
  // template emits no code and has none.
  const clang::FunctionDecl *emitted = fn;
  if (const clang::FunctionTemplateDecl *tmpl = fn->getDescribedFunctionTemplate()) {
    emitted = nullptr;
    for (const clang::FunctionDecl *spec : tmpl->specializations()) {
      emitted = spec;
      break;
    }
  }
  if (emitted) {
    std::unique_ptr<clang::MangleContext> mangler(ast.createMangleContext());
    if (mangler->shouldMangleDeclName(emitted)) {
      llvm::raw_string_ostream os(ref.mangled);
      mangler->mangleName(clang::GlobalDecl(emitted), os);
    } else {
      ref.mangled = emitted->getNameAsString();
    }
    ref.demangled = demangle(ref.mangled);
  }
  const clang::SourceLocation loc = sm.getExpansionLoc(fn->getLocation());
  ref.file = std::string(sm.getFilename(loc));
  ref.line = static_cast<int>(sm.getExpansionLineNumber(loc));
  ref.column = static_cast<int>(sm.getExpansionColumnNumber(loc));
  ref.offset = sm.getFileOffset(loc);
  return ref;
}

std::optional<clang::CharSourceRange> RuleContext::fileRange(clang::SourceRange range) const {
  if (range.isInvalid()) return std::nullopt;
  // Macro locations pass only where the range covers whole expansions
  // (`n / NX1`): makeFileCharRange refuses a part of one.
  clang::CharSourceRange chars =
      clang::Lexer::makeFileCharRange(clang::CharSourceRange::getTokenRange(range), sm, ast.getLangOpts());
  if (chars.isInvalid() || chars.getBegin().isMacroID() || !sm.isWrittenInMainFile(chars.getBegin()) ||
      !sm.isWrittenInMainFile(chars.getEnd()))
    return std::nullopt;
  return chars;
}

std::optional<clang::SourceLocation> RuleContext::fileLocation(clang::SourceLocation loc) const {
  if (loc.isInvalid() || loc.isMacroID() || !sm.isWrittenInMainFile(loc)) return std::nullopt;
  return loc;
}

std::string RuleContext::text(clang::CharSourceRange range) const {
  return std::string(clang::Lexer::getSourceText(range, sm, ast.getLangOpts()));
}

std::string RuleContext::text(const clang::Expr *e) const {
  std::optional<clang::CharSourceRange> range = fileRange(e->getSourceRange());
  return range ? text(*range) : std::string();
}

const clang::FunctionDecl *RuleContext::libraryCallee(const clang::CallExpr *call, const clang::ASTContext &ast,
                                                      std::initializer_list<const char *> names) {
  const clang::FunctionDecl *callee = call->getDirectCallee();
  if (!callee || !callee->getIdentifier()) return nullptr;
  const llvm::StringRef name = callee->getName();
  bool named = false;
  for (const char *n : names) named = named || name == n;
  if (!named) return nullptr;
  // The user's own pow() is not the library's: only system headers and builtins.
  const clang::SourceManager &sm = ast.getSourceManager();
  if (callee->getBuiltinID() == 0 && !sm.isInSystemHeader(sm.getExpansionLoc(callee->getLocation()))) return nullptr;
  return callee;
}

bool RuleContext::isUnmodified(const clang::VarDecl *var, const clang::FunctionDecl *fn) const {
  if (!fn->getBody()) return false;
  // The analyzer follows references, pointers taken, calls by non-const
  // reference and member calls, and does so from the AST alone.
  clang::ExprMutationAnalyzer analyzer(*fn->getBody(), ast);
  return !analyzer.isMutated(var);
}

Candidate *RuleContext::add(AdviseRule rule, const clang::FunctionDecl *fn, clang::SourceLocation where,
                            std::string what, std::string description, std::vector<clang::tooling::Replacement> edit) {
  Candidate c;
  c.rule = rule;
  c.kernel = kernelRef(fn);
  const clang::SourceLocation loc = sm.getExpansionLoc(where);
  c.file = std::string(sm.getFilename(loc));
  c.line = static_cast<int>(sm.getExpansionLineNumber(loc));
  c.column = static_cast<int>(sm.getExpansionColumnNumber(loc));
  c.id = std::string(adviseRuleId(rule)) + "@" + std::to_string(c.line) + ":" + std::to_string(c.column) +
         (what.empty() ? "" : ":" + what);
  for (const Candidate &existing : out.candidates)
    if (existing.id == c.id) return nullptr;
  c.description = std::move(description);
  for (const clang::tooling::Replacement &r : edit)
    if (llvm::Error err = c.edit.add(r))
      throw Error("advise: internal: overlapping replacements in " + c.id + ": " + llvm::toString(std::move(err)));
  if (c.edit.empty()) {
    c.hint_only = true;
  } else {
    c.edited_source = applyEdit(out.source_text, c.edit);
  }
  out.candidates.push_back(std::move(c));
  return &out.candidates.back();
}

}  // namespace regscope::advise_detail
