// Launch sizes read through Clang's AST (issue 30, item 2): the translation
// unit's host side parsed in-process as its compile parses it, each launch's
// block and dynamic shared memory evaluated by Clang's constant evaluator,
// and what that evaluator cannot do alone (a variable given one constant
// value and never changed otherwise, `dim3 b(x, y)`) done over the AST with
// ExprMutationAnalyzer. What is still not a constant stays unknown, by its
// line (LaunchTally), never a default.
#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Analysis/Analyses/ExprMutationAnalyzer.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/FileManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <filesystem>
#include <map>
#include <memory>
#include <set>

#include "launch_tally.h"
#include "regscope/source/flags.h"

namespace regscope::launch_detail {
namespace {

using clang::Expr;

// A DeclRefExpr to a variable or a MemberExpr to a field: the declaration it names.
const clang::ValueDecl *namedVariable(const Expr *e) {
  if (!e) return nullptr;
  e = e->IgnoreParens();
  if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(e)) return llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
  if (const auto *member = llvm::dyn_cast<clang::MemberExpr>(e))
    return llvm::dyn_cast<clang::FieldDecl>(member->getMemberDecl());
  return nullptr;
}

// Everything the translation unit does to one variable or member.
struct Uses {
  std::vector<const Expr *> values;  // its initialisers and the right-hand sides of `x = E`
  clang::SourceLocation address;     // the first `&x`: a pointer may change it
  // Uses that are neither reads nor the writes above, with the function they
  // are in (none: at namespace scope), for ExprMutationAnalyzer to judge.
  std::vector<std::pair<const Expr *, const clang::FunctionDecl *>> others;
};

// One pass over the whole translation unit (headers too: their constants
// count) that files each use of a variable or member under Uses.
class UseCollector : public clang::RecursiveASTVisitor<UseCollector> {
  using Base = clang::RecursiveASTVisitor<UseCollector>;

 public:
  explicit UseCollector(std::map<const clang::ValueDecl *, Uses> &uses) : uses_(uses) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseDecl(clang::Decl *d) {
    const auto *fn = llvm::dyn_cast_or_null<clang::FunctionDecl>(d);
    if (!fn || !fn->hasBody()) return Base::TraverseDecl(d);
    functions_.push_back(fn);
    const bool result = Base::TraverseDecl(d);
    functions_.pop_back();
    return result;
  }
  bool TraverseConstructorInitializer(clang::CXXCtorInitializer *init) {
    if (init->isMemberInitializer() && init->isWritten()) uses_[init->getMember()].values.push_back(init->getInit());
    return Base::TraverseConstructorInitializer(init);
  }
  bool VisitVarDecl(clang::VarDecl *var) {
    if (const Expr *init = var->getInit()) uses_[var].values.push_back(init);
    return true;
  }
  bool VisitFieldDecl(clang::FieldDecl *field) {
    if (const Expr *init = field->getInClassInitializer()) uses_[field].values.push_back(init);
    return true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator *op) {
    if (op->getOpcode() == clang::BO_Assign) assigned(op->getLHS(), op->getRHS());
    return true;
  }
  // `block = dim3(8, 8)`: a class's assignment is a call of its operator=.
  bool VisitCXXOperatorCallExpr(clang::CXXOperatorCallExpr *call) {
    if (call->getOperator() == clang::OO_Equal && call->getNumArgs() == 2) assigned(call->getArg(0), call->getArg(1));
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator *op) {
    const Expr *sub = op->getSubExpr()->IgnoreParens();
    if (op->getOpcode() != clang::UO_AddrOf || !namedVariable(sub)) return true;
    Uses &u = uses_[namedVariable(sub)];
    if (u.address.isInvalid()) u.address = op->getExprLoc();
    handled_.insert(sub);
    return true;
  }
  bool VisitImplicitCastExpr(clang::ImplicitCastExpr *cast) {
    if (cast->getCastKind() == clang::CK_LValueToRValue) handled_.insert(cast->getSubExpr()->IgnoreParens());  // a read
    return true;
  }
  bool VisitDeclRefExpr(clang::DeclRefExpr *ref) { return other(ref); }
  bool VisitMemberExpr(clang::MemberExpr *member) { return other(member); }

 private:
  void assigned(const Expr *target, const Expr *value) {
    target = target->IgnoreParens();
    if (const clang::ValueDecl *d = namedVariable(target)) {
      uses_[d].values.push_back(value);
      handled_.insert(target);
    }
  }
  // Visited after its parent (RecursiveASTVisitor goes top-down): a use no
  // parent filed as a read, a plain assignment or `&x`.
  bool other(const Expr *e) {
    const clang::ValueDecl *d = namedVariable(e);
    if (d && !handled_.count(e)) uses_[d].others.emplace_back(e, functions_.empty() ? nullptr : functions_.back());
    return true;
  }

  std::map<const clang::ValueDecl *, Uses> &uses_;
  std::set<const Expr *> handled_;
  std::vector<const clang::FunctionDecl *> functions_;
};

// A value read from a variable whose address is taken: said with the launch.
struct AddressTaken {
  std::string name;
  long value = 0;
  unsigned set_line = 0, address_line = 0;
};

// Integer values of launch arguments: Clang's evaluator first, then, where
// it stops, the variables (and members) the translation unit gives exactly
// one constant value and changes no other way, and dim3's product.
class LaunchEvaluator {
 public:
  static constexpr long kMaxEvaluated = 1L << 40;  // as the lexer's Evaluator
  LaunchEvaluator(clang::ASTContext &ast, std::map<const clang::ValueDecl *, Uses> &uses) : ast_(ast), uses_(uses) {}

  // The value of `e` (threads per block for a dim3: x*y*z); `taken` gets the
  // address-taken variables it was read from.
  std::optional<long> evaluate(const Expr *e, std::vector<AddressTaken> &taken) {
    taken_ = &taken;
    in_progress_.clear();
    return value(e, 0);
  }

 private:
  static bool isDim3(clang::QualType type) {
    const clang::CXXRecordDecl *record = type->getAsCXXRecordDecl();
    return record && record->getName() == "dim3";
  }
  static std::optional<long> checked(long v) {
    if (v < -kMaxEvaluated || v > kMaxEvaluated) return std::nullopt;
    return v;
  }

  std::optional<long> value(const Expr *e, int depth) {
    if (!e || depth > kMaxDepth) return std::nullopt;
    e = e->IgnoreParens();
    if (e->isValueDependent() || e->isTypeDependent()) return std::nullopt;
    // Literals, sizeof of any type, enumerators, constexpr variables and
    // functions, template arguments at an instantiation, macros (expanded).
    if (e->getType()->isIntegralOrEnumerationType()) {
      clang::Expr::EvalResult result;
      if (e->EvaluateAsInt(result, ast_)) {
        const llvm::APSInt &v = result.Val.getInt();
        if (!v.isSignedIntN(63)) return std::nullopt;
        return checked(v.getExtValue());
      }
    }
    if (isDim3(e->getType())) {  // dim3(4, 4) with constexpr constructors
      clang::Expr::EvalResult result;
      if (e->EvaluateAsRValue(result, ast_) && result.Val.isStruct()) {
        long threads = 1;
        for (unsigned i = 0; i < result.Val.getStructNumFields(); ++i) {
          const clang::APValue &field = result.Val.getStructField(i);
          if (!field.isInt() || __builtin_mul_overflow(threads, field.getInt().getExtValue(), &threads))
            return std::nullopt;
        }
        return checked(threads);
      }
    }
    if (const auto *cast = llvm::dyn_cast<clang::CastExpr>(e)) {
      switch (cast->getCastKind()) {
        case clang::CK_NoOp:
        case clang::CK_IntegralCast:
        case clang::CK_LValueToRValue:
        case clang::CK_ConstructorConversion:
        case clang::CK_UserDefinedConversion:
          return value(cast->getSubExpr(), depth + 1);
        default:
          return std::nullopt;
      }
    }
    if (const auto *temporary = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(e))
      return value(temporary->getSubExpr(), depth + 1);
    if (const auto *bind = llvm::dyn_cast<clang::CXXBindTemporaryExpr>(e)) return value(bind->getSubExpr(), depth + 1);
    if (const auto *cleanups = llvm::dyn_cast<clang::ExprWithCleanups>(e))
      return value(cleanups->getSubExpr(), depth + 1);
    if (const auto *arg = llvm::dyn_cast<clang::CXXDefaultArgExpr>(e)) return value(arg->getExpr(), depth + 1);
    if (const auto *list = llvm::dyn_cast<clang::InitListExpr>(e))  // `unsigned n = {steps + 1};`
      return list->getNumInits() == 1 && !isDim3(list->getType()) ? value(list->getInit(0), depth + 1) : std::nullopt;
    if (const auto *init = llvm::dyn_cast<clang::CXXDefaultInitExpr>(e)) return value(init->getExpr(), depth + 1);
    if (const auto *construct = llvm::dyn_cast<clang::CXXConstructExpr>(e)) {
      if (!isDim3(construct->getType())) return std::nullopt;
      if (construct->getConstructor()->isCopyOrMoveConstructor() && construct->getNumArgs() == 1)
        return value(construct->getArg(0), depth + 1);
      long threads = 1;  // dim3(x, y, z), defaults included: the threads of a block
      for (const Expr *dimension : construct->arguments()) {
        std::optional<long> v = value(dimension, depth + 1);
        if (!v || __builtin_mul_overflow(threads, *v, &threads)) return std::nullopt;
      }
      return checked(threads);
    }
    if (const auto *op = llvm::dyn_cast<clang::UnaryOperator>(e)) {
      if (op->getOpcode() != clang::UO_Minus && op->getOpcode() != clang::UO_Plus) return std::nullopt;
      std::optional<long> v = value(op->getSubExpr(), depth + 1);
      if (!v) return std::nullopt;
      return op->getOpcode() == clang::UO_Minus ? -*v : *v;
    }
    if (const auto *op = llvm::dyn_cast<clang::BinaryOperator>(e)) return arithmetic(op, depth);
    if (const auto *choice = llvm::dyn_cast<clang::ConditionalOperator>(e)) {
      std::optional<long> condition = value(choice->getCond(), depth + 1);
      if (!condition) return std::nullopt;
      return value(*condition ? choice->getTrueExpr() : choice->getFalseExpr(), depth + 1);
    }
    if (const clang::ValueDecl *d = namedVariable(e)) return variable(d, depth);
    return std::nullopt;
  }

  std::optional<long> arithmetic(const clang::BinaryOperator *op, int depth) {
    const clang::BinaryOperatorKind kind = op->getOpcode();
    if (kind != clang::BO_Add && kind != clang::BO_Sub && kind != clang::BO_Mul && kind != clang::BO_Div &&
        kind != clang::BO_Rem && kind != clang::BO_Shl && kind != clang::BO_Shr)
      return std::nullopt;
    std::optional<long> l = value(op->getLHS(), depth + 1), r = value(op->getRHS(), depth + 1);
    if (!l || !r) return std::nullopt;
    long out = 0;
    switch (kind) {
      case clang::BO_Add:
        return checked(*l + *r);
      case clang::BO_Sub:
        return checked(*l - *r);
      case clang::BO_Mul:
        if (__builtin_mul_overflow(*l, *r, &out)) return std::nullopt;
        return checked(out);
      case clang::BO_Div:
      case clang::BO_Rem:
        if (*r == 0) return std::nullopt;
        return kind == clang::BO_Div ? *l / *r : *l % *r;
      case clang::BO_Shl:
        if (*r < 0 || *r > 40 || *l < 0) return std::nullopt;
        return checked(*l << *r);
      case clang::BO_Shr:
        if (*r < 0 || *r > 62) return std::nullopt;
        return *l >> *r;
      default:
        return std::nullopt;
    }
  }

  // Whether another translation unit could write `d`: a global visible
  // outside this one that this file does not define, or a member of a class
  // a header defines, unless it is private (or protected) to a class without
  // friends whose every member function this translation unit defines (the
  // HIP-Examples' classes: declared in X.hpp, defined in X.cpp).
  bool writableElsewhere(const clang::ValueDecl *d) const {
    const clang::SourceManager &sm = ast_.getSourceManager();
    if (const auto *field = llvm::dyn_cast<clang::FieldDecl>(d)) {
      const auto *record = llvm::dyn_cast<clang::CXXRecordDecl>(field->getParent());
      if (sm.isInMainFile(sm.getExpansionLoc(field->getParent()->getLocation()))) return false;
      if (!record || field->getAccess() == clang::AS_public || !record->friends().empty()) return true;
      for (const clang::CXXMethodDecl *method : record->methods())
        if (!method->isImplicit() && !method->isDefaulted() && !method->isDeleted() && !method->hasBody())
          return true;  // defined in another file, where it may write the member
      return false;
    }
    const auto *var = llvm::cast<clang::VarDecl>(d);
    if (var->getType().isConstQualified() || var->hasLocalStorage() || var->isStaticLocal() ||
        !var->isExternallyVisible())
      return false;
    const clang::VarDecl *definition = var->getDefinition();
    return !definition || !sm.isInMainFile(sm.getExpansionLoc(definition->getLocation()));
  }

  bool mutatedBy(const Expr *use, const clang::FunctionDecl *fn) {
    if (!fn || !fn->getBody()) return true;  // at namespace scope (`int &r = x;`): not judged, so changed
    auto [it, inserted] = analyzers_.try_emplace(fn);
    if (inserted) it->second = std::make_unique<clang::ExprMutationAnalyzer>(*fn->getBody(), ast_);
    return it->second->isMutated(use);
  }

  std::optional<long> variable(const clang::ValueDecl *d, int depth) {
    if (llvm::isa<clang::ParmVarDecl>(d) || writableElsewhere(d) || !in_progress_.insert(d).second) return std::nullopt;
    struct Leave {
      std::set<const clang::ValueDecl *> &set;
      const clang::ValueDecl *d;
      ~Leave() { set.erase(d); }
    } leave{in_progress_, d};
    auto found = uses_.find(d);
    if (found == uses_.end() || found->second.values.empty()) return std::nullopt;
    const Uses &u = found->second;
    for (const auto &[use, fn] : u.others)
      if (mutatedBy(use, fn)) return std::nullopt;  // ++, +=, a non-const reference, cin >> x, ...
    std::optional<long> one;
    for (const Expr *v : u.values) {
      std::optional<long> this_one = value(v, depth + 1);
      if (!this_one || (one && *one != *this_one)) return std::nullopt;  // not a constant, or two of them
      one = this_one;
    }
    if (u.address.isValid()) {
      const clang::SourceManager &sm = ast_.getSourceManager();
      taken_->push_back({d->getNameAsString(), *one, sm.getExpansionLineNumber(u.values.front()->getBeginLoc()),
                         sm.getExpansionLineNumber(u.address)});
    }
    return one;
  }

  static constexpr int kMaxDepth = 64;
  clang::ASTContext &ast_;
  std::map<const clang::ValueDecl *, Uses> &uses_;
  std::map<const clang::FunctionDecl *, std::unique_ptr<clang::ExprMutationAnalyzer>> analyzers_;
  std::set<const clang::ValueDecl *> in_progress_;
  std::vector<AddressTaken> *taken_ = nullptr;
};

// The kernel an argument names: `k`, `&k`, `(const void *)k`, `reinterpret_cast<const void *>(&k)`, `k<T>`.
std::string kernelNamed(const Expr *e) {
  for (int i = 0; e && i < 8; ++i) {
    e = e->IgnoreParenCasts();
    if (const auto *op = llvm::dyn_cast<clang::UnaryOperator>(e); op && op->getOpcode() == clang::UO_AddrOf) {
      e = op->getSubExpr();
      continue;
    }
    if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(e))
      if (const auto *fn = llvm::dyn_cast<clang::FunctionDecl>(ref->getDecl())) return fn->getNameAsString();
    return "";
  }
  return "";
}

// Walks the main file's launches into a LaunchTally.
class LaunchVisitor : public clang::RecursiveASTVisitor<LaunchVisitor> {
 public:
  LaunchVisitor(clang::ASTContext &ast, LaunchEvaluator &evaluator, LaunchTally &tally, std::vector<std::string> &notes)
      : sm_(ast.getSourceManager()), evaluator_(evaluator), tally_(tally), notes_(notes) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitCUDAKernelCallExpr(clang::CUDAKernelCallExpr *launch) {
    const auto *config = llvm::dyn_cast_or_null<clang::CallExpr>(launch->getConfig());
    const clang::FunctionDecl *kernel = launch->getDirectCallee();
    // A launch in a template is read at each instantiation, where its sizes are known.
    if (!config || !kernel || launch->isInstantiationDependent() || config->getNumArgs() < 2) return true;
    const int line = lineOf(config->getBeginLoc().isValid() ? config->getBeginLoc() : launch->getBeginLoc());
    if (!line) return true;
    const std::string name = kernel->getNameAsString();
    block(name, config->getArg(1), line);
    // A launch without a third argument passes none: the default argument's 0.
    dynamic(name, config->getNumArgs() > 2 ? config->getArg(2) : nullptr, line);
    return true;
  }

  bool VisitCallExpr(clang::CallExpr *call) {
    if (llvm::isa<clang::CUDAKernelCallExpr>(call) || call->isInstantiationDependent()) return true;
    const clang::FunctionDecl *callee = call->getDirectCallee();
    if (!callee || !callee->getIdentifier()) return true;
    const llvm::StringRef called = callee->getName();
    const unsigned n = call->getNumArgs();
    const int line = lineOf(call->getBeginLoc());
    if (!line) return true;
    // HIP_TEMPLATE_KERNEL_LAUNCH's hipLaunchKernelGGL(k, grid, block, shmem, stream, args...);
    // hipLaunchKernel/cudaLaunchKernel(k, grid, block, args, shmem, stream).
    if (called == "hipLaunchKernelGGL" && n >= 5) {
      const std::string kernel = kernelNamed(call->getArg(0));
      block(kernel, call->getArg(2), line);
      dynamic(kernel, call->getArg(3), line);
    } else if ((called == "hipLaunchKernel" || called == "cudaLaunchKernel") && n >= 5) {
      const std::string kernel = kernelNamed(call->getArg(0));
      block(kernel, call->getArg(2), line);
      dynamic(kernel, call->getArg(4), line);
    } else if ((called == "hipLaunchKernelEx" || called == "cudaLaunchKernelEx") && n >= 2) {
      // Its sizes are in a launch configuration struct, not read: unknown, by this line.
      const std::string kernel = kernelNamed(call->getArg(1));
      tally_.block(kernel, std::nullopt, line);
      tally_.dynamic(kernel, std::nullopt, line);
    } else if ((called == "hipFuncSetAttribute" || called == "cudaFuncSetAttribute") && n == 3) {
      const auto *attribute = llvm::dyn_cast<clang::DeclRefExpr>(call->getArg(1)->IgnoreParenImpCasts());
      if (attribute && attribute->getDecl()->getName().contains("MaxDynamicSharedMemorySize")) {
        std::vector<AddressTaken> taken;
        const std::optional<long> bytes = evaluator_.evaluate(call->getArg(2), taken);
        tally_.attribute(kernelNamed(call->getArg(0)), bytes, line);
        say(taken, kernelNamed(call->getArg(0)), "its dynamic shared memory maximum", "--dynamic-lds", line);
      }
    }
    return true;
  }

 private:
  // The line of a launch in the main file (of the macro's name when it is
  // spelled through one); 0 for one in a header.
  int lineOf(clang::SourceLocation loc) const {
    const clang::SourceLocation at = sm_.getExpansionLoc(loc);
    if (at.isInvalid() || !sm_.isInMainFile(at)) return 0;
    return static_cast<int>(sm_.getExpansionLineNumber(at));
  }
  void block(const std::string &kernel, const Expr *threads, int line) {
    std::vector<AddressTaken> taken;
    const std::optional<long> v = evaluator_.evaluate(threads, taken);
    tally_.block(kernel, v, line);
    if (v) say(taken, kernel, "its block size", "--block-size", line);
  }
  void dynamic(const std::string &kernel, const Expr *bytes, int line) {
    std::vector<AddressTaken> taken;
    const std::optional<long> v = bytes ? evaluator_.evaluate(bytes, taken) : std::optional<long>(0);
    tally_.dynamic(kernel, v, line);
    if (v) say(taken, kernel, "its dynamic shared memory", "--dynamic-lds", line);
  }
  // A size read from a variable a pointer may change (a command-line
  // option's target, as HIP-Examples' MatrixMultiplication hands `&blockSize`
  // to its parser): read as the one value the file gives it, and said.
  void say(const std::vector<AddressTaken> &taken, const std::string &kernel, const char *what, const char *flag,
           int line) {
    for (const AddressTaken &t : taken) {
      const std::string note =
          ":" + std::to_string(line) + ": " + kernel + "'s launch reads " + what + " from " + t.name + ", set to " +
          std::to_string(t.value) + " at line " + std::to_string(t.set_line) + "; its address is taken at line " +
          std::to_string(t.address_line) +
          ", so a run may change it (a command-line option): give the real size with " + flag + " or .regscope.json";
      if (std::find(notes_.begin(), notes_.end(), note) == notes_.end()) notes_.push_back(note);
    }
  }

  const clang::SourceManager &sm_;
  LaunchEvaluator &evaluator_;
  LaunchTally &tally_;
  std::vector<std::string> &notes_;
};

// The first error of the parse, as the compiler prints it: file:line:col: error: text.
class FirstError : public clang::DiagnosticConsumer {
 public:
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic &info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < clang::DiagnosticsEngine::Error || !text.empty()) return;
    llvm::SmallString<256> message;
    info.FormatDiagnostic(message);
    if (info.getLocation().isValid() && info.hasSourceManager()) {
      const clang::PresumedLoc loc = info.getSourceManager().getPresumedLoc(info.getLocation());
      if (loc.isValid())
        text = std::string(loc.getFilename()) + ":" + std::to_string(loc.getLine()) + ":" +
               std::to_string(loc.getColumn()) + ": ";
    }
    text += (level == clang::DiagnosticsEngine::Fatal ? "fatal error: " : "error: ") + std::string(message.str());
  }
  std::string text;
};

class ReadAction : public clang::ASTFrontendAction {
 public:
  ReadAction(std::optional<LaunchesRead> &out) : out_(out) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &, llvm::StringRef) override {
    struct Consumer : clang::ASTConsumer {
      explicit Consumer(std::optional<LaunchesRead> &out) : out(out) {}
      void HandleTranslationUnit(clang::ASTContext &ast) override {
        if (ast.getDiagnostics().hasErrorOccurred()) return;  // a partial AST reads partial launches
        std::map<const clang::ValueDecl *, Uses> uses;
        UseCollector(uses).TraverseAST(ast);
        LaunchEvaluator evaluator(ast, uses);
        LaunchTally tally;
        std::vector<std::string> notes;
        LaunchVisitor(ast, evaluator, tally, notes).TraverseAST(ast);
        out = tally.finish();
        out->notes = std::move(notes);
      }
      std::optional<LaunchesRead> &out;
    };
    return std::make_unique<Consumer>(out_);
  }

 private:
  std::optional<LaunchesRead> &out_;
};

// The user's flags that shape what the host side sees: include paths,
// macros, forced includes and the language standard. The rest (targets,
// optimisation, nvcc's own options) change no launch, and another
// compiler's spelling of them would stop the parse.
std::vector<std::string> parseFlags(const std::vector<std::string> &flags) {
  static const std::vector<std::string> with_value = {"-I",      "-D",         "-U",       "-isystem",
                                                      "-iquote", "-idirafter", "-include", "-imacros"};
  std::vector<std::string> kept;
  for (std::size_t i = 0; i < flags.size(); ++i) {
    const std::string &f = flags[i];
    if (std::find(with_value.begin(), with_value.end(), f) != with_value.end()) {
      if (i + 1 < flags.size()) kept.insert(kept.end(), {f, flags[++i]});
      continue;
    }
    for (const std::string &prefix : with_value)
      if (f.size() > prefix.size() && f.rfind(prefix, 0) == 0) {
        kept.push_back(f);
        break;
      }
    if (f.rfind("-std=", 0) == 0) kept.push_back(f);
  }
  return kept;
}

// Where HIP's headers are: Debian's /usr/include/hip, else ROCm's /opt/rocm.
std::string rocmPath() {
  std::error_code ec;
  if (std::filesystem::exists("/usr/include/hip/hip_runtime.h", ec)) return "/usr";
  return "/opt/rocm";
}

}  // namespace

std::optional<LaunchesRead> readLaunchesThroughAst(const std::string &path, std::string_view source,
                                                   const std::vector<std::string> &flags, bool cuda, std::string &error,
                                                   std::vector<std::string> *files_read) {
  std::vector<std::string> args = {"clang++",
                                   "-fsyntax-only",
                                   "-w",
                                   "-fno-caret-diagnostics",  // no "1 error generated" on stderr
                                   "-ferror-limit=1",
                                   "--cuda-host-only",
                                   "-resource-dir",
                                   REGSCOPE_CLANG_RESOURCE_DIR};
  if (cuda)
    args.insert(args.end(), {"-x", "cuda", "-nocudalib", "--cuda-path=/usr/local/cuda"});
  else
    args.insert(args.end(), {"-x", "hip", "-nogpulib", "--rocm-path=" + rocmPath()});
  for (std::string &f : parseFlags(flags)) args.push_back(std::move(f));
  args.push_back(path);

  // The text given (an edited copy, say) stands for the file at `path`.
  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  memory->addFile(path, 0, llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(source.data(), source.size()), path));
  overlay->pushOverlay(memory);
  auto files = llvm::makeIntrusiveRefCnt<clang::FileManager>(clang::FileSystemOptions(), overlay);

  std::optional<LaunchesRead> read;
  FirstError first_error;
  clang::tooling::ToolInvocation invocation(args, std::make_unique<ReadAction>(read), files.get());
  invocation.setDiagnosticConsumer(&first_error);
  const bool ran = invocation.run();
  if (read && ran && first_error.text.empty()) {
    if (files_read) {  // every header the parse opened (the source itself is given as text)
      // Clang 18 hands the files over as FileEntryRefs (FileEntry lost its name); the name is the one the
      // parse opened the file by in both.
#if LLVM_VERSION_MAJOR >= 18
      llvm::SmallVector<clang::OptionalFileEntryRef, 256> entries;
#else
      llvm::SmallVector<const clang::FileEntry *, 256> entries;
#endif
      files->GetUniqueIDMapping(entries);
      for (const auto &entry : entries)
        if (entry && entry->getName() != path) files_read->push_back(entry->getName().str());
    }
    return read;
  }
  error = first_error.text.empty() ? "the parse stopped without an error message" : first_error.text;
  return std::nullopt;
}

}  // namespace regscope::launch_detail

namespace regscope {

LaunchesRead readLaunchSites(const std::string &path, const std::string &display, std::string_view source,
                             const std::vector<std::string> &flags, bool cuda, std::vector<std::string> *files_read) {
  const std::string extension = std::filesystem::path(path).extension().string();
  if (extension == ".cl" || extension == ".spv") return readLaunches(source, quotedIncludes(path, source, flags));
  // Parsing the host side costs about what `clang -fsyntax-only` does (0.7 s of CPU with HIP's
  // headers): a file that spells no launch (kernels launched from another file) is not parsed.
  // A launch hidden in a macro of a header is then not read, as the lexer never read one.
  if (!launch_detail::spellsLaunches(source)) return {};
  std::string error;
  if (std::optional<LaunchesRead> read =
          launch_detail::readLaunchesThroughAst(path, source, flags, cuda, error, files_read)) {
    for (std::string &note : read->notes) note = display + note;  // display:LINE: ...
    return *read;
  }
  LaunchesRead read = readLaunches(source, quotedIncludes(path, source, flags));
  read.notes.push_back(display + ": launch sizes read by regscope's lexer, not Clang's AST: its host side did not " +
                       "parse (" + error + "); a size the lexer cannot read is unknown");
  return read;
}

}  // namespace regscope
