// Rules on expressions: pow with a small integer exponent (seed 000), power-of-
// two arithmetic (seed 001), and local arrays indexed at run time (seed 000,
// item 3). Each reads the typed AST: the callee is resolved to the library's
// declaration, constants are evaluated by Clang's constant evaluator, and an
// operand's sign is proved from its definition, never guessed from its text.
#include <clang/AST/ParentMapContext.h>
#include <clang/ASTMatchers/ASTMatchFinder.h>
#include <clang/ASTMatchers/ASTMatchers.h>

#include <algorithm>

#include "advise_internal.h"

namespace regscope::advise_detail {

using namespace clang::ast_matchers;

namespace {

// An integer constant, or a floating constant with an integral value.
std::optional<std::int64_t> integralConstant(const clang::Expr *e, const clang::ASTContext &ast) {
  if (e->isValueDependent() || e->isTypeDependent() || e->HasSideEffects(ast)) return std::nullopt;
  clang::Expr::EvalResult result;
  if (!e->EvaluateAsRValue(result, ast)) return std::nullopt;
  if (result.Val.isInt()) return result.Val.getInt().getSExtValue();
  if (!result.Val.isFloat() || !result.Val.getFloat().isInteger()) return std::nullopt;
  llvm::APSInt value(64, /*isUnsigned=*/false);
  bool exact = false;
  if (result.Val.getFloat().convertToInteger(value, llvm::APFloat::rmTowardZero, &exact) != llvm::APFloat::opOK ||
      !exact)
    return std::nullopt;
  return value.getExtValue();
}

std::optional<int> log2Exact(std::int64_t v) {
  if (v < 2 || (v & (v - 1)) != 0) return std::nullopt;
  int k = 0;
  while ((std::int64_t{1} << k) != v) ++k;
  return k;
}

// Binds tighter than `*` (a primary, postfix, unary or cast expression): its
// text needs no parentheses as a factor or as the operand of a cast.
bool isPostfix(const clang::Expr *e) {
  return llvm::isa<clang::DeclRefExpr, clang::MemberExpr, clang::ArraySubscriptExpr, clang::IntegerLiteral,
                   clang::FloatingLiteral, clang::CallExpr, clang::ParenExpr, clang::UnaryOperator,
                   clang::CStyleCastExpr, clang::CXXNamedCastExpr, clang::CXXFunctionalCastExpr>(e);
}

std::string typeName(clang::QualType type, const clang::ASTContext &ast) {
  return type.getUnqualifiedType().getAsString(ast.getPrintingPolicy());
}

// The node `e` is an operand of, past implicit conversions and parentheses.
clang::DynTypedNode parentOf(const clang::Expr *e, clang::ASTContext &ast, const clang::Expr *&child) {
  child = e;
  clang::DynTypedNodeList parents = ast.getParents(*e);
  while (!parents.empty()) {
    const auto *up = parents[0].get<clang::Expr>();
    if (!up || !llvm::isa<clang::ImplicitCastExpr>(up)) return parents[0];
    child = up;
    parents = ast.getParents(*up);
  }
  return clang::DynTypedNode();
}

// Whether replacing the call by `a * b` needs parentheses to keep its
// meaning (and its rounding: `y * pow(x, 2)` must stay `y * (x * x)`).
bool productNeedsParens(const clang::Expr *call, clang::ASTContext &ast) {
  const clang::Expr *child = nullptr;
  const clang::DynTypedNode parent = parentOf(call, ast, child);
  if (parent.get<clang::VarDecl>() || parent.get<clang::ReturnStmt>() || parent.get<clang::ParenExpr>() ||
      parent.get<clang::InitListExpr>() || parent.get<clang::CompoundStmt>() ||
      parent.get<clang::ConditionalOperator>())
    return false;
  if (const auto *c = parent.get<clang::CallExpr>()) return c->getCallee() == child;
  if (parent.get<clang::CXXConstructExpr>()) return false;
  if (const auto *subscript = parent.get<clang::ArraySubscriptExpr>()) return subscript->getIdx() != child;
  if (const auto *op = parent.get<clang::BinaryOperator>()) {
    if (op->isAssignmentOp() || op->isCompoundAssignmentOp()) return op->getRHS() != child;
    if (op->isMultiplicativeOp()) return op->getLHS() != child;
    return op->isPtrMemOp();
  }
  return true;
}

// ---- pow ----

void addPowCandidate(RuleContext &ctx, const clang::FunctionDecl *fn, const clang::CallExpr *call, int n) {
  const clang::Expr *base = call->getArg(0)->IgnoreParenImpCasts();
  const std::string call_text = ctx.text(call);
  const std::string base_text = ctx.text(base);
  std::optional<clang::CharSourceRange> range = ctx.fileRange(call->getSourceRange());
  const std::string shown = call_text.empty() ? "pow(..., " + std::to_string(n) + ")" : call_text;
  if (!range || base_text.empty()) {
    ctx.add(AdviseRule::PowToMultiply, fn, call->getBeginLoc(), "",
            shown + " is inside a macro: multiply by hand (x * x) instead of the library call", {});
    return;
  }
  if (base->HasSideEffects(ctx.ast)) {
    ctx.add(AdviseRule::PowToMultiply, fn, call->getBeginLoc(), "",
            shown + ": the base has side effects; keep it in a local and multiply it by itself", {});
    return;
  }
  // The call's type is the one the library computed in (pow(float, 2.0) is a
  // double); each factor is converted to it, so the product keeps that type.
  const clang::QualType call_type = call->getType().getCanonicalType().getUnqualifiedType();
  const clang::QualType base_type = base->getType().getCanonicalType().getUnqualifiedType();
  std::string factor = isPostfix(base) ? base_text : "(" + base_text + ")";
  if (call_type != base_type) factor = "static_cast<" + typeName(call->getType(), ctx.ast) + ">(" + base_text + ")";
  std::string product = factor;
  for (int i = 1; i < n; ++i) product += " * " + factor;
  if (productNeedsParens(call, ctx.ast)) product = "(" + product + ")";
  std::string description = shown + " -> " + product + ": the library call is inlined in full; a multiplication is not";
  if (n > 2) description += " (" + std::to_string(n - 1) + " roundings instead of one: the last bit may differ)";
  ctx.add(AdviseRule::PowToMultiply, fn, call->getBeginLoc(), "", description,
          {clang::tooling::Replacement(ctx.sm, *range, product, ctx.ast.getLangOpts())});
}

// ---- power-of-two arithmetic ----

// The value of a floating expression as unsigned integer arithmetic, when it
// provably holds an integer: `(float)thread`, a local initialised from one
// and never modified, an integral constant, and floor(a / d), fmod(a, d) of
// such values. Run-time divisors are taken to be powers of two: the
// assumption is recorded and the user is told.
struct IntegerForm {
  std::string text;
  bool simple = false;        // no parentheses needed as an operand
  bool non_negative = false;  // proved
  std::optional<std::int64_t> constant;
  std::vector<std::string> assumptions;
};

std::string unsignedOf(const std::string &text, bool simple, const std::string &unsigned_type = "unsigned") {
  return "(" + unsigned_type + ")" + (simple ? text : "(" + text + ")");
}

std::optional<IntegerForm> integerForm(const RuleContext &ctx, const clang::Expr *e, const clang::FunctionDecl *fn,
                                       int depth);

std::optional<IntegerForm> divisorForm(const RuleContext &ctx, const clang::Expr *e, const clang::FunctionDecl *fn) {
  if (std::optional<std::int64_t> c = integralConstant(e, ctx.ast)) {
    if (!log2Exact(*c)) return std::nullopt;
    IntegerForm f;
    f.constant = c;
    f.non_negative = true;
    return f;
  }
  const clang::Expr *d = e->IgnoreParenImpCasts();
  if (d->HasSideEffects(ctx.ast) || !d->getType()->isArithmeticType()) return std::nullopt;
  const std::string text = ctx.text(d);
  if (text.empty()) return std::nullopt;
  if (std::optional<IntegerForm> exact = integerForm(ctx, e, fn, 1); exact && exact->non_negative) {
    exact->assumptions.push_back(text + " is a power of two");
    return exact;
  }
  IntegerForm f;
  f.text = unsignedOf(text, isPostfix(d));
  f.simple = true;
  f.non_negative = true;
  f.assumptions.push_back(text + " is a power of two");
  return f;
}

std::optional<IntegerForm> combine(const IntegerForm &a, const IntegerForm &d, bool remainder) {
  IntegerForm f;
  const std::string lhs = a.simple ? a.text : "(" + a.text + ")";
  if (d.constant) {
    const int k = *log2Exact(*d.constant);
    f.text = remainder ? lhs + " & " + std::to_string(*d.constant - 1) + "u" : lhs + " >> " + std::to_string(k);
  } else {
    f.text = remainder ? lhs + " & (" + d.text + " - 1u)" : lhs + " >> __builtin_ctz(" + d.text + ")";
  }
  f.non_negative = a.non_negative;
  f.assumptions = a.assumptions;
  f.assumptions.insert(f.assumptions.end(), d.assumptions.begin(), d.assumptions.end());
  return f;
}

// `v` in `(float)v`, for an integer variable v.
const clang::VarDecl *convertedVariable(const clang::Expr *init) {
  const auto *cast = llvm::dyn_cast<clang::CastExpr>(init->IgnoreParens());
  while (cast && cast->getCastKind() != clang::CK_IntegralToFloating)
    cast = llvm::dyn_cast<clang::CastExpr>(cast->getSubExpr()->IgnoreParens());
  if (!cast) return nullptr;
  const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(cast->getSubExpr()->IgnoreParenImpCasts());
  return ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
}

bool declaredOnce(const RuleContext &ctx, const clang::FunctionDecl *fn, const clang::VarDecl *var) {
  int count = 0;
  for (const clang::ParmVarDecl *p : fn->parameters()) count += p->getName() == var->getName();
  count += static_cast<int>(
      match(stmt(forEachDescendant(varDecl(hasName(var->getName())).bind("v"))), *fn->getBody(), ctx.ast).size());
  return count == 1;
}

std::optional<IntegerForm> integerForm(const RuleContext &ctx, const clang::Expr *e, const clang::FunctionDecl *fn,
                                       int depth) {
  if (depth > 8) return std::nullopt;
  e = e->IgnoreParens();
  if (const auto *cast = llvm::dyn_cast<clang::CastExpr>(e)) {
    const clang::Expr *sub = cast->getSubExpr();
    switch (cast->getCastKind()) {
      case clang::CK_FloatingCast:
      case clang::CK_NoOp:
      case clang::CK_LValueToRValue:
        return integerForm(ctx, sub, fn, depth + 1);
      case clang::CK_IntegralToFloating: {
        const clang::Expr *value = sub->IgnoreParenImpCasts();
        const std::string text = ctx.text(value);
        if (text.empty() || value->HasSideEffects(ctx.ast)) return std::nullopt;
        IntegerForm f;
        f.text = unsignedOf(text, isPostfix(value));
        f.simple = true;
        f.non_negative = isNonNegative(ctx, sub, fn);
        return f;
      }
      default:
        return std::nullopt;
    }
  }
  if (std::optional<std::int64_t> c = integralConstant(e, ctx.ast); c && *c >= 0 && *c <= 0xffffffffLL) {
    IntegerForm f;
    f.text = std::to_string(*c) + "u";
    f.simple = true;
    f.non_negative = true;
    f.constant = c;
    return f;
  }
  if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
    const auto *var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    if (!var || !var->hasLocalStorage() || llvm::isa<clang::ParmVarDecl>(var) || !var->getInit() ||
        !ctx.isUnmodified(var, fn))
      return std::nullopt;
    std::optional<IntegerForm> init = integerForm(ctx, var->getInit(), fn, depth + 1);
    if (!init) return std::nullopt;
    // Here, the initialiser is evaluated again. Only the integer variable it
    // converted is safe to name (never modified, the only declaration of that
    // name in the function, so in scope and not shadowed); else the float
    // variable, which holds that integer exactly, is converted back.
    init->text = unsignedOf(var->getName().str(), true);
    if (const clang::VarDecl *source = convertedVariable(var->getInit());
        source && ctx.isUnmodified(source, fn) && declaredOnce(ctx, fn, source))
      init->text = unsignedOf(source->getName().str(), true);
    init->simple = true;
    return init;
  }
  if (const auto *call = llvm::dyn_cast<clang::CallExpr>(e)) {
    if (call->getNumArgs() == 1 &&
        RuleContext::libraryCallee(call, ctx.ast, {"floor", "floorf", "__builtin_floor", "__builtin_floorf"})) {
      const auto *div = llvm::dyn_cast<clang::BinaryOperator>(call->getArg(0)->IgnoreParenImpCasts());
      if (!div || div->getOpcode() != clang::BO_Div) return integerForm(ctx, call->getArg(0), fn, depth + 1);
      std::optional<IntegerForm> a = integerForm(ctx, div->getLHS(), fn, depth + 1);
      std::optional<IntegerForm> d = a ? divisorForm(ctx, div->getRHS(), fn) : std::nullopt;
      return d ? combine(*a, *d, false) : std::nullopt;
    }
    if (call->getNumArgs() == 2 &&
        RuleContext::libraryCallee(call, ctx.ast, {"fmod", "fmodf", "__builtin_fmod", "__builtin_fmodf"})) {
      std::optional<IntegerForm> a = integerForm(ctx, call->getArg(0), fn, depth + 1);
      std::optional<IntegerForm> d = a ? divisorForm(ctx, call->getArg(1), fn) : std::nullopt;
      return d ? combine(*a, *d, true) : std::nullopt;
    }
  }
  return std::nullopt;
}

std::string joinAssumptions(const std::vector<std::string> &assumptions) {
  std::string out;
  for (const std::string &a : assumptions)
    if (out.find(a) == std::string::npos) out += (out.empty() ? "" : "; ") + a;
  return out;
}

void findFloatIntegerArithmetic(RuleContext &ctx, const clang::FunctionDecl *fn) {
  struct Found {
    const clang::CallExpr *call;
    clang::CharSourceRange range;
    IntegerForm form;
  };
  std::vector<Found> found;
  auto calls = callExpr(callee(functionDecl(hasAnyName("fmod", "fmodf", "floor", "floorf", "__builtin_fmod",
                                                       "__builtin_fmodf", "__builtin_floor", "__builtin_floorf"))))
                   .bind("call");
  for (const BoundNodes &node : match(findAll(calls), *fn->getBody(), ctx.ast)) {
    const auto *call = node.getNodeAs<clang::CallExpr>("call");
    // Only floor of a division and fmod: floor(x) of an integer alone is no saving.
    if (call->getNumArgs() == 1 && !llvm::isa<clang::BinaryOperator>(call->getArg(0)->IgnoreParenImpCasts())) continue;
    std::optional<IntegerForm> form = integerForm(ctx, call, fn, 0);
    std::optional<clang::CharSourceRange> range = ctx.fileRange(call->getSourceRange());
    if (form && range) found.push_back({call, *range, *form});
  }
  // The outermost expression is the edit; the calls inside it are part of it.
  auto notAfter = [&](clang::SourceLocation a, clang::SourceLocation b) {
    return a == b || ctx.sm.isBeforeInTranslationUnit(a, b);
  };
  for (const Found &f : found) {
    bool inner = false;
    for (const Found &g : found)
      inner = inner || (&f != &g && notAfter(g.range.getBegin(), f.range.getBegin()) &&
                        notAfter(f.range.getEnd(), g.range.getEnd()));
    if (inner) continue;
    const std::string original = ctx.text(f.range);
    const std::string replacement = "(" + typeName(f.call->getType(), ctx.ast) + ")(" + f.form.text + ")";
    if (!f.form.non_negative) {
      ctx.add(AdviseRule::PowerOfTwo, fn, f.call->getBeginLoc(), "",
              original + " is integer arithmetic in floating point; if the dividend is never negative, " + replacement +
                  " is cheaper (advise cannot prove it is not negative)",
              {});
      continue;
    }
    Candidate *c = ctx.add(AdviseRule::PowerOfTwo, fn, f.call->getBeginLoc(), "",
                           original + " -> " + replacement +
                               ": integer masks and shifts instead of floating-point "
                               "division and remainder",
                           {clang::tooling::Replacement(ctx.sm, f.range, replacement, ctx.ast.getLangOpts())});
    if (c) c->assumption = joinAssumptions(f.form.assumptions);
  }
}

void findIntegerPowerOfTwo(RuleContext &ctx, const clang::FunctionDecl *fn) {
  auto ops = binaryOperator(hasAnyOperatorName("%", "/", "%=", "/=")).bind("op");
  for (const BoundNodes &node : match(findAll(ops), *fn->getBody(), ctx.ast)) {
    const auto *op = node.getNodeAs<clang::BinaryOperator>("op");
    const bool compound = op->isCompoundAssignmentOp();
    const clang::QualType type =
        compound ? llvm::cast<clang::CompoundAssignOperator>(op)->getComputationResultType() : op->getType();
    // Unsigned division by a power of two is already a shift; floats are not this rule's.
    if (!type->isSignedIntegerType() || op->isValueDependent()) continue;
    std::optional<std::int64_t> divisor = integralConstant(op->getRHS(), ctx.ast);
    std::optional<int> k = divisor ? log2Exact(*divisor) : std::nullopt;
    if (!k) continue;
    const bool remainder = op->getOpcode() == clang::BO_Rem || op->getOpcode() == clang::BO_RemAssign;
    const clang::Expr *lhs = op->getLHS()->IgnoreParenImpCasts();
    const std::string lhs_text = ctx.text(lhs);
    std::optional<clang::CharSourceRange> range = ctx.fileRange(op->getSourceRange());
    const std::string shown = ctx.text(op);
    if (!range || lhs_text.empty() || lhs->HasSideEffects(ctx.ast)) {
      if (ctx.fileLocation(ctx.sm.getExpansionLoc(op->getOperatorLoc())))
        ctx.add(AdviseRule::PowerOfTwo, fn, op->getOperatorLoc(), "",
                std::string(remainder ? "a remainder" : "a division") + " of a signed value by " +
                    std::to_string(*divisor) + (range ? " with side effects" : " inside a macro") +
                    ": if the value is never negative, an unsigned " + (remainder ? "mask" : "shift") + " is cheaper",
                {});
      continue;
    }
    const std::string result_type = typeName(compound ? lhs->getType() : type, ctx.ast);
    const clang::QualType utype = ctx.ast.getCorrespondingUnsignedType(type);
    const std::string suffix = ctx.ast.getTypeSize(utype) > 32 ? "ull" : "u";
    const std::string value = unsignedOf(lhs_text, isPostfix(lhs), typeName(utype, ctx.ast));
    std::string rewritten = "(" + result_type + ")(" + value +
                            (remainder ? " & " + std::to_string(*divisor - 1) + suffix : " >> " + std::to_string(*k)) +
                            ")";
    if (compound) rewritten = lhs_text + " = " + rewritten;
    if (!isNonNegative(ctx, op->getLHS(), fn)) {
      ctx.add(AdviseRule::PowerOfTwo, fn, op->getOperatorLoc(), "",
              shown + " on a signed value: if " + lhs_text + " is never negative, " + rewritten +
                  " avoids the rounding-toward-zero fix-up (advise cannot prove " + lhs_text + " >= 0)",
              {});
      continue;
    }
    ctx.add(AdviseRule::PowerOfTwo, fn, op->getOperatorLoc(), "",
            shown + " -> " + rewritten + ": " + lhs_text + " is never negative, so " +
                (remainder ? "a mask" : "a shift") + " gives the same value without the signed fix-up",
            {clang::tooling::Replacement(ctx.sm, *range, rewritten, ctx.ast.getLangOpts())});
  }
}

// The array a subscript chain (a[i][j]) starts from, and whether any index
// is not a constant.
const clang::VarDecl *subscriptedArray(const clang::ArraySubscriptExpr *e, const clang::ASTContext &ast,
                                       bool &runtime_index) {
  const clang::Expr *current = e;
  runtime_index = false;
  while (const auto *sub = llvm::dyn_cast<clang::ArraySubscriptExpr>(current)) {
    if (!sub->getIdx()->isValueDependent() && !sub->getIdx()->isIntegerConstantExpr(ast)) runtime_index = true;
    current = sub->getBase()->IgnoreParenImpCasts();
  }
  const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(current);
  return ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
}

}  // namespace

bool isNonNegative(const RuleContext &ctx, const clang::Expr *e, const clang::FunctionDecl *fn, int depth) {
  if (depth > 12) return false;
  e = e->IgnoreParens();
  if (e->getType()->isUnsignedIntegerType()) return true;
  if (const auto *cast = llvm::dyn_cast<clang::CastExpr>(e)) {
    switch (cast->getCastKind()) {
      case clang::CK_IntegralCast:
      case clang::CK_NoOp:
      case clang::CK_LValueToRValue:
        return isNonNegative(ctx, cast->getSubExpr(), fn, depth + 1);
      default:
        return false;
    }
  }
  if (std::optional<std::int64_t> c = integralConstant(e, ctx.ast)) return *c >= 0;
  if (const auto *op = llvm::dyn_cast<clang::BinaryOperator>(e)) {
    const bool l = isNonNegative(ctx, op->getLHS(), fn, depth + 1);
    switch (op->getOpcode()) {
      case clang::BO_Add:
      case clang::BO_Mul:
      case clang::BO_Div:
      case clang::BO_Rem:
      case clang::BO_Or:
      case clang::BO_Xor:
        return l && isNonNegative(ctx, op->getRHS(), fn, depth + 1);
      case clang::BO_Shr:
      case clang::BO_Shl:
        return l;
      case clang::BO_And:
        return l || isNonNegative(ctx, op->getRHS(), fn, depth + 1);
      default:
        return false;
    }
  }
  if (const auto *cond = llvm::dyn_cast<clang::ConditionalOperator>(e))
    return isNonNegative(ctx, cond->getTrueExpr(), fn, depth + 1) &&
           isNonNegative(ctx, cond->getFalseExpr(), fn, depth + 1);
  if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
    const auto *var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    if (!var || !var->hasLocalStorage() || llvm::isa<clang::ParmVarDecl>(var) || !var->getInit()) return false;
    return ctx.isUnmodified(var, fn) && isNonNegative(ctx, var->getInit(), fn, depth + 1);
  }
  return false;
}

void findPowCalls(RuleContext &ctx) {
  for (const clang::FunctionDecl *fn : ctx.deviceFunctions()) {
    auto calls =
        callExpr(argumentCountIs(2), callee(functionDecl(hasAnyName("pow", "powf", "__builtin_pow", "__builtin_powf"))))
            .bind("call");
    for (const BoundNodes &node : match(findAll(calls), *fn->getBody(), ctx.ast)) {
      const auto *call = node.getNodeAs<clang::CallExpr>("call");
      if (!RuleContext::libraryCallee(call, ctx.ast, {"pow", "powf", "__builtin_pow", "__builtin_powf"})) continue;
      std::optional<std::int64_t> n = integralConstant(call->getArg(1), ctx.ast);
      if (n && *n >= 2 && *n <= 4) addPowCandidate(ctx, fn, call, static_cast<int>(*n));
    }
  }
}

void findPowerOfTwoArithmetic(RuleContext &ctx) {
  for (const clang::FunctionDecl *fn : ctx.deviceFunctions()) {
    findIntegerPowerOfTwo(ctx, fn);
    findFloatIntegerArithmetic(ctx, fn);
  }
}

void findScratchArrays(RuleContext &ctx) {
  for (const clang::FunctionDecl *fn : ctx.deviceFunctions()) {
    std::vector<const clang::VarDecl *> flagged;
    for (const BoundNodes &node : match(findAll(arraySubscriptExpr().bind("s")), *fn->getBody(), ctx.ast)) {
      const auto *subscript = node.getNodeAs<clang::ArraySubscriptExpr>("s");
      bool runtime_index = false;
      const clang::VarDecl *array = subscriptedArray(subscript, ctx.ast, runtime_index);
      if (!array || !runtime_index || !array->hasLocalStorage() || !array->getType()->isConstantArrayType() ||
          std::find(flagged.begin(), flagged.end(), array) != flagged.end())
        continue;
      flagged.push_back(array);
      const std::int64_t bytes = ctx.ast.getTypeSizeInChars(array->getType()).getQuantity();
      const std::string use = ctx.text(subscript);
      Candidate *c = ctx.add(AdviseRule::ScratchArray, fn, subscript->getBeginLoc(), array->getNameAsString(),
                             "local array " + array->getNameAsString() + " (" + std::to_string(bytes) +
                                 " bytes per lane) is indexed at run time" + (use.empty() ? "" : " (" + use + ")") +
                                 ": unless every such index becomes a constant (full unrolling), it lives in "
                                 "scratch memory",
                             {});
      if (c) c->array_bytes = bytes;
    }
  }
}

}  // namespace regscope::advise_detail
