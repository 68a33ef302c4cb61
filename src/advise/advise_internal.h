// Shared between the advise stage's files; not part of the public interface.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/Basic/SourceManager.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "regscope/advise/advise.h"

namespace regscope::advise_detail {

// The device front end's job, as the compiler driver would run it.
struct FrontendCommand {
  std::string version;                // the driver's first line: "Debian clang version 15.0.6"
  std::string arch;                   // the device arch whose job it is
  std::vector<std::string> args;      // cc1 arguments (without "clang" "-cc1"), made -fsyntax-only
  std::vector<std::string> dropped;   // arguments Clang 15's cc1 does not know (another compiler version)
  std::string resource_dir_replaced;  // another version's builtin headers, replaced by Clang 15's
};

// `compiler -###` with the analysis's flags for the first arch; picks the
// device cc1 job that reads the source. Throws regscope::Error.
FrontendCommand deviceFrontendCommand(const AdviseInput &input);

// Parses with `command` and calls `visit` with the AST of the translation
// unit. Throws regscope::Error with the first errors if the parse fails.
void parseSource(const FrontendCommand &command, const std::string &source,
                 const std::function<void(clang::ASTContext &)> &visit);

// What every rule needs: the AST, the main file, and where candidates go.
class RuleContext {
 public:
  RuleContext(clang::ASTContext &ast, const AdviseInput &input, CandidateSet &out);

  clang::ASTContext &ast;
  const clang::SourceManager &sm;
  const AdviseInput &input;
  CandidateSet &out;

  // Functions defined in the main file that run on the device.
  const std::vector<const clang::FunctionDecl *> &deviceFunctions() const { return functions_; }
  static bool isKernel(const clang::FunctionDecl *fn);

  KernelRef kernelRef(const clang::FunctionDecl *fn) const;

  // A range in the main file, outside macros, as characters; none otherwise.
  std::optional<clang::CharSourceRange> fileRange(clang::SourceRange range) const;
  std::optional<clang::SourceLocation> fileLocation(clang::SourceLocation loc) const;
  std::string text(clang::CharSourceRange range) const;
  std::string text(const clang::Expr *e) const;  // empty when not editable

  // A call to one of `names` declared by the system (HIP's or the C++
  // library's headers), never the user's own function of that name.
  static const clang::FunctionDecl *libraryCallee(const clang::CallExpr *call, const clang::ASTContext &ast,
                                                  std::initializer_list<const char *> names);

  // `var` is never written, incremented, bound to a non-const reference or
  // has its address taken in `fn`.
  bool isUnmodified(const clang::VarDecl *var, const clang::FunctionDecl *fn) const;

  // Adds a candidate at `where` in `fn`; an edit fills edited_source. Returns
  // nullptr when an identical edit is already there (template instantiations).
  Candidate *add(AdviseRule rule, const clang::FunctionDecl *fn, clang::SourceLocation where, std::string what,
                 std::string description, std::vector<clang::tooling::Replacement> edit);

 private:
  std::vector<const clang::FunctionDecl *> functions_;
};

// The rules, each adding to ctx.out.
void findPowCalls(RuleContext &ctx);
void findRestrictCandidates(RuleContext &ctx);
void findPowerOfTwoArithmetic(RuleContext &ctx);
void findLaunchBounds(RuleContext &ctx);
void findUnrollCandidates(RuleContext &ctx);
void findScratchArrays(RuleContext &ctx);

// A measurement from an analysis report: its AMD kernels' figures, or its
// errors (the compiler's first lines) when any input failed.
Measurement measurementOf(const Report &report);

// Whether `e` is provably >= 0: unsigned values (thread and block indices),
// non-negative constants, and sums, products, quotients, remainders, shifts and
// masks of those, through locals that are never modified.
bool isNonNegative(const RuleContext &ctx, const clang::Expr *e, const clang::FunctionDecl *fn, int depth = 0);

}  // namespace regscope::advise_detail
