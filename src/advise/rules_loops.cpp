// Unrolling (seed 002, and seed 000's item 6): every unrolled copy of a loop
// body keeps its values live at once. A `#pragma unroll [N]` loop, and a
// loop with a constant trip count (which LLVM may unroll fully on its own),
// get candidates with smaller factors.
#include <clang/AST/Attr.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/ASTMatchers/ASTMatchFinder.h>
#include <clang/ASTMatchers/ASTMatchers.h>
#include <clang/Analysis/Analyses/ExprMutationAnalyzer.h>
#include <clang/Lex/Lexer.h>

#include "advise_internal.h"

namespace regscope::advise_detail {

using namespace clang::ast_matchers;

namespace {

// Loops longer than this are not expected to be unrolled fully by LLVM.
constexpr std::int64_t kMaxFullUnroll = 256;

std::optional<std::int64_t> constantInt(const clang::Expr *e, const clang::ASTContext &ast) {
  if (!e || e->isValueDependent() || e->HasSideEffects(ast)) return std::nullopt;
  clang::Expr::EvalResult result;
  if (!e->EvaluateAsInt(result, ast)) return std::nullopt;
  return result.Val.getInt().getExtValue();
}

const clang::VarDecl *referencedVar(const clang::Expr *e) {
  const auto *ref = e ? llvm::dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts()) : nullptr;
  return ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
}

// Iterations of `for (i = A; i OP B; i += S)` with constants A, B, S and an
// index the body never writes.
std::optional<std::int64_t> tripCount(const clang::ForStmt *loop, clang::ASTContext &ast) {
  const clang::VarDecl *var = nullptr;
  std::optional<std::int64_t> start;
  if (const auto *decl = llvm::dyn_cast_or_null<clang::DeclStmt>(loop->getInit()); decl && decl->isSingleDecl()) {
    var = llvm::dyn_cast<clang::VarDecl>(decl->getSingleDecl());
    if (var) start = constantInt(var->getInit(), ast);
  } else if (const auto *assign = llvm::dyn_cast_or_null<clang::BinaryOperator>(loop->getInit());
             assign && assign->getOpcode() == clang::BO_Assign) {
    var = referencedVar(assign->getLHS());
    start = constantInt(assign->getRHS(), ast);
  }
  if (!var || !start || !var->getType()->isIntegerType()) return std::nullopt;

  const auto *cond =
      llvm::dyn_cast_or_null<clang::BinaryOperator>(loop->getCond() ? loop->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!cond || !cond->isComparisonOp()) return std::nullopt;
  clang::BinaryOperatorKind op = cond->getOpcode();
  std::optional<std::int64_t> bound;
  if (referencedVar(cond->getLHS()) == var) {
    bound = constantInt(cond->getRHS(), ast);
  } else if (referencedVar(cond->getRHS()) == var) {
    bound = constantInt(cond->getLHS(), ast);
    op = clang::BinaryOperator::reverseComparisonOp(op);
  }
  if (!bound) return std::nullopt;

  std::optional<std::int64_t> step;
  const clang::Expr *inc = loop->getInc() ? loop->getInc()->IgnoreParenImpCasts() : nullptr;
  if (const auto *unary = llvm::dyn_cast_or_null<clang::UnaryOperator>(inc);
      unary && referencedVar(unary->getSubExpr()) == var) {
    if (unary->isIncrementOp()) step = 1;
    if (unary->isDecrementOp()) step = -1;
  } else if (const auto *compound = llvm::dyn_cast_or_null<clang::CompoundAssignOperator>(inc);
             compound && referencedVar(compound->getLHS()) == var) {
    std::optional<std::int64_t> s = constantInt(compound->getRHS(), ast);
    if (s && compound->getOpcode() == clang::BO_AddAssign) step = *s;
    if (s && compound->getOpcode() == clang::BO_SubAssign) step = -*s;
  }
  if (!step || *step == 0) return std::nullopt;
  if (clang::ExprMutationAnalyzer(*loop->getBody(), ast).isMutated(var)) return std::nullopt;

  const std::int64_t a = *start, b = *bound, s = *step;
  std::int64_t span = 0;
  switch (op) {
    case clang::BO_LT:
      span = s > 0 ? b - a : -1;
      break;
    case clang::BO_LE:
      span = s > 0 ? b - a + 1 : -1;
      break;
    case clang::BO_GT:
      span = s < 0 ? a - b : -1;
      break;
    case clang::BO_GE:
      span = s < 0 ? a - b + 1 : -1;
      break;
    case clang::BO_NE:
      span = (b - a) % s == 0 && (b - a) / s > 0 ? b - a : -1;
      break;
    default:
      return std::nullopt;
  }
  if (span <= 0) return std::nullopt;
  const std::int64_t magnitude = s > 0 ? s : -s;
  return (span + magnitude - 1) / magnitude;
}

// Halvings of the current factor, and 1 (no unrolling), largest first.
std::vector<std::int64_t> smallerFactors(std::optional<std::int64_t> current) {
  if (!current) return {1};
  std::vector<std::int64_t> factors;
  for (std::int64_t f = *current / 2, i = 0; f >= 2 && i < 2; f /= 2, ++i) factors.push_back(f);
  if (*current > 1) factors.push_back(1);
  return factors;
}

// Start offset of the line holding `loc`, and the line's text.
std::pair<unsigned, llvm::StringRef> lineOf(const RuleContext &ctx, clang::SourceLocation loc) {
  const clang::FileID file = ctx.sm.getFileID(loc);
  const unsigned offset = ctx.sm.getFileOffset(loc);
  const llvm::StringRef buffer = ctx.sm.getBufferData(file);
  const std::size_t begin = buffer.rfind('\n', offset == 0 ? 0 : offset - 1);
  const unsigned start = begin == llvm::StringRef::npos || offset == 0 ? 0 : static_cast<unsigned>(begin + 1);
  std::size_t end = buffer.find('\n', offset);
  if (end == llvm::StringRef::npos) end = buffer.size();
  return {start, buffer.substr(start, end - start)};
}

std::string factorText(std::int64_t f) { return f == 1 ? "1 (no unrolling)" : std::to_string(f); }

void addPragmaCandidates(RuleContext &ctx, const clang::FunctionDecl *fn, const clang::LoopHintAttr *hint,
                         const clang::Stmt *loop) {
  std::optional<clang::SourceLocation> at = ctx.fileLocation(hint->getLocation());
  if (!at) return;
  // The directive's tokens, lexed raw from its '#' to its last token on the
  // line: a comment after it stays.
  const auto [line_start, line] = lineOf(ctx, *at);
  const std::size_t hash = line.find('#');
  if (hash == llvm::StringRef::npos || !line.substr(0, hash).trim().empty()) return;
  const clang::FileID file = ctx.sm.getFileID(*at);
  const llvm::StringRef buffer = ctx.sm.getBufferData(file);
  clang::Lexer lexer(ctx.sm.getLocForStartOfFile(file), ctx.ast.getLangOpts(), buffer.begin(),
                     buffer.begin() + line_start + hash, buffer.end());
  clang::Token token;
  lexer.LexFromRawLexer(token);
  if (!token.is(clang::tok::hash)) return;
  unsigned end = line_start + static_cast<unsigned>(hash) + 1;
  for (bool at_end = false; !at_end;) {
    at_end = lexer.LexFromRawLexer(token);
    if (token.is(clang::tok::eof) || token.isAtStartOfLine()) break;
    end = ctx.sm.getFileOffset(token.getLocation()) + token.getLength();
  }
  const clang::SourceLocation directive = ctx.sm.getComposedLoc(file, line_start + hash);
  const unsigned length = end - (line_start + static_cast<unsigned>(hash));
  std::optional<std::int64_t> current;
  if (hint->getOption() == clang::LoopHintAttr::UnrollCount)
    current = constantInt(hint->getValue(), ctx.ast);
  else if (const auto *for_loop = llvm::dyn_cast<clang::ForStmt>(loop))
    current = tripCount(for_loop, ctx.ast);
  const std::string was = buffer.substr(line_start + hash, length).str();
  for (std::int64_t f : smallerFactors(current)) {
    const std::string pragma = "#pragma unroll " + std::to_string(f);
    ctx.add(AdviseRule::Unroll, fn, *at, std::to_string(f),
            was + " -> " + pragma + ": unroll by " + factorText(f) +
                (current ? " instead of " + std::to_string(*current) : ""),
            {clang::tooling::Replacement(ctx.sm.getFilename(directive), line_start + hash, length, pragma)});
  }
}

void addConstantLoopCandidates(RuleContext &ctx, const clang::FunctionDecl *fn, const clang::ForStmt *loop,
                               std::int64_t trips) {
  std::optional<clang::SourceLocation> at = ctx.fileLocation(loop->getForLoc());
  if (!at) return;
  const auto [line_start, line] = lineOf(ctx, *at);
  const unsigned for_offset = ctx.sm.getFileOffset(*at);
  const llvm::StringRef before = line.substr(0, for_offset - line_start);
  const bool alone = before.trim().empty();
  const std::string path = ctx.sm.getFilename(*at).str();
  for (std::int64_t f : smallerFactors(trips)) {
    const std::string pragma = "#pragma unroll " + std::to_string(f);
    // On its own line, indented like the loop.
    clang::tooling::Replacement insert =
        alone ? clang::tooling::Replacement(path, line_start, 0, before.str() + pragma + "\n")
              : clang::tooling::Replacement(path, for_offset, 0, "\n" + pragma + "\n");
    ctx.add(AdviseRule::Unroll, fn, *at, std::to_string(f),
            "a loop of " + std::to_string(trips) + " iterations, which LLVM may unroll fully: " + pragma +
                " unrolls by " + factorText(f),
            {insert});
  }
}

}  // namespace

void findUnrollCandidates(RuleContext &ctx) {
  auto loops = stmt(anyOf(forStmt(), whileStmt(), doStmt(), cxxForRangeStmt())).bind("loop");
  for (const clang::FunctionDecl *fn : ctx.deviceFunctions()) {
    for (const BoundNodes &node : match(findAll(loops), *fn->getBody(), ctx.ast)) {
      const auto *loop = node.getNodeAs<clang::Stmt>("loop");
      // A loop pragma is an attribute on the statement around the loop.
      bool hinted = false;
      clang::DynTypedNodeList parents = ctx.ast.getParents(*loop);
      if (const auto *attributed = parents.empty() ? nullptr : parents[0].get<clang::AttributedStmt>()) {
        for (const clang::Attr *attr : attributed->getAttrs()) {
          const auto *hint = llvm::dyn_cast<clang::LoopHintAttr>(attr);
          if (!hint) continue;
          hinted = true;
          const bool unrolls =
              (hint->getOption() == clang::LoopHintAttr::Unroll &&
               (hint->getState() == clang::LoopHintAttr::Enable || hint->getState() == clang::LoopHintAttr::Full)) ||
              hint->getOption() == clang::LoopHintAttr::UnrollCount;
          if (unrolls) addPragmaCandidates(ctx, fn, hint, loop);
        }
      }
      const auto *for_loop = llvm::dyn_cast<clang::ForStmt>(loop);
      if (hinted || !for_loop) continue;
      std::optional<std::int64_t> trips = tripCount(for_loop, ctx.ast);
      if (trips && *trips >= 2 && *trips <= kMaxFullUnroll) addConstantLoopCandidates(ctx, fn, for_loop, *trips);
    }
  }
}

}  // namespace regscope::advise_detail
