// Rules on a kernel's declaration: __restrict__ on its pointer parameters
// (seed 000) and launch bounds from its launch sites (seed 004), with AMD's
// amdgpu_waves_per_eu at the model's next occupancy step.
#include <clang/AST/ParentMapContext.h>
#include <clang/ASTMatchers/ASTMatchFinder.h>
#include <clang/ASTMatchers/ASTMatchers.h>
#include <clang/Basic/IdentifierTable.h>

#include <algorithm>
#include <map>

#include "advise_internal.h"

namespace regscope::advise_detail {

using namespace clang::ast_matchers;

namespace {

const clang::FunctionDecl *enclosingFunction(const clang::Stmt *s, clang::ASTContext &ast) {
  clang::DynTypedNodeList parents = ast.getParents(*s);
  while (!parents.empty()) {
    if (const auto *fn = parents[0].get<clang::FunctionDecl>()) return fn;
    parents = ast.getParents(parents[0]);
  }
  return nullptr;
}

std::optional<std::int64_t> evaluateInt(const clang::Expr *e, const clang::ASTContext &ast) {
  if (e->isValueDependent() || e->HasSideEffects(ast)) return std::nullopt;
  clang::Expr::EvalResult result;
  if (!e->EvaluateAsInt(result, ast)) return std::nullopt;
  return result.Val.getInt().getExtValue();
}

// Threads per block of a launch configuration's block argument: an integer,
// a dim3 built from constants (dim3's constructor is constexpr in HIP), or a
// local of either kind that the launching function never modifies.
std::optional<std::int64_t> blockSize(RuleContext &ctx, const clang::Expr *e, const clang::FunctionDecl *where,
                                      int depth = 0) {
  if (!e || depth > 6) return std::nullopt;
  e = e->IgnoreImplicit()->IgnoreParens();
  if (e->getType()->isIntegerType()) {
    if (std::optional<std::int64_t> v = evaluateInt(e, ctx.ast)) return v;
  }
  if (!e->isValueDependent()) {
    clang::Expr::EvalResult result;
    if (e->EvaluateAsRValue(result, ctx.ast) && result.Val.isStruct() && result.Val.getStructNumFields() == 3) {
      std::int64_t product = 1;
      for (unsigned i = 0; i < 3; ++i) {
        const clang::APValue &field = result.Val.getStructField(i);
        if (!field.isInt()) return std::nullopt;
        product *= field.getInt().getExtValue();
      }
      return product;
    }
  }
  if (const auto *cast = llvm::dyn_cast<clang::CastExpr>(e))
    return blockSize(ctx, cast->getSubExpr(), where, depth + 1);
  if (const auto *construct = llvm::dyn_cast<clang::CXXConstructExpr>(e)) {
    if (construct->getNumArgs() == 1 && construct->getConstructor()->isCopyOrMoveConstructor())
      return blockSize(ctx, construct->getArg(0), where, depth + 1);
    std::int64_t product = 1;
    for (const clang::Expr *arg : construct->arguments()) {
      std::optional<std::int64_t> v = blockSize(ctx, arg, where, depth + 1);
      if (!v) return std::nullopt;
      product *= *v;
    }
    return construct->getNumArgs() ? std::optional<std::int64_t>(product) : std::nullopt;
  }
  if (const auto *def = llvm::dyn_cast<clang::CXXDefaultArgExpr>(e))
    return blockSize(ctx, def->getExpr(), where, depth + 1);
  if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
    const auto *var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    if (!var || !var->getInit()) return std::nullopt;
    const bool constant = var->getType().isConstQualified();
    if (!constant &&
        (!var->hasLocalStorage() || llvm::isa<clang::ParmVarDecl>(var) || !where || !ctx.isUnmodified(var, where)))
      return std::nullopt;
    return blockSize(ctx, var->getInit(), where, depth + 1);
  }
  return std::nullopt;
}

struct LaunchSites {
  std::vector<std::int64_t> sizes;
  int unknown = 0;  // launches whose block size is not a constant
};

// Every <<<...>>> launch in the translation unit (hipLaunchKernelGGL is a
// macro over one), by kernel.
std::map<const clang::FunctionDecl *, LaunchSites> findLaunchSites(RuleContext &ctx) {
  std::map<const clang::FunctionDecl *, LaunchSites> sites;
  for (const BoundNodes &node : match(cudaKernelCallExpr().bind("launch"), ctx.ast)) {
    const auto *launch = node.getNodeAs<clang::CUDAKernelCallExpr>("launch");
    const clang::FunctionDecl *kernel = launch->getDirectCallee();
    const auto *config = llvm::dyn_cast_or_null<clang::CallExpr>(launch->getConfig());
    if (!kernel || !config || config->getNumArgs() < 2) continue;
    if (const clang::FunctionDecl *pattern = kernel->getTemplateInstantiationPattern()) kernel = pattern;
    LaunchSites &s = sites[kernel->getCanonicalDecl()];
    if (std::optional<std::int64_t> size = blockSize(ctx, config->getArg(1), enclosingFunction(launch, ctx.ast)))
      s.sizes.push_back(*size);
    else
      ++s.unknown;
  }
  return sites;
}

template <typename A>
bool anyDeclarationHas(const clang::FunctionDecl *fn) {
  for (const clang::FunctionDecl *d : fn->redecls())
    if (d->hasAttr<A>()) return true;
  return false;
}

}  // namespace

void findRestrictCandidates(RuleContext &ctx) {
  for (const clang::FunctionDecl *fn : ctx.deviceFunctions()) {
    if (!RuleContext::isKernel(fn)) continue;
    std::vector<clang::tooling::Replacement> all;
    std::vector<std::string> names;
    for (const clang::ParmVarDecl *param : fn->parameters()) {
      const clang::QualType type = param->getType();
      if (!type->isPointerType() || type->getPointeeType()->isFunctionType() || type.isRestrictQualified() ||
          param->getName().empty())
        continue;
      std::optional<clang::SourceLocation> at = ctx.fileLocation(param->getLocation());
      if (!at) continue;
      const std::string name = param->getNameAsString();
      clang::tooling::Replacement insert(ctx.sm, clang::CharSourceRange::getCharRange(*at, *at), "__restrict__ ",
                                         ctx.ast.getLangOpts());
      Candidate *c = ctx.add(AdviseRule::Restrict, fn, *at, name,
                             "__restrict__ on pointer parameter " + name + " of " + fn->getNameAsString(), {insert});
      if (c)
        c->assumption = "no other pointer the kernel uses reaches the memory " + name +
                        " points to (advise cannot check this; the caller must guarantee it)";
      all.push_back(insert);
      names.push_back(name);
    }
    if (all.size() < 2) continue;
    Candidate *c = ctx.add(
        AdviseRule::RestrictAll, fn, fn->getLocation(), "",
        "__restrict__ on all " + std::to_string(all.size()) + " pointer parameters of " + fn->getNameAsString(), all);
    if (c)
      c->assumption =
          "no two of the kernel's pointer parameters reach the same memory (advise cannot check this; "
          "the caller must guarantee it)";
  }
}

void findLaunchBounds(RuleContext &ctx) {
  const std::map<const clang::FunctionDecl *, LaunchSites> sites = findLaunchSites(ctx);
  // hip_runtime.h defines __launch_bounds__ over AMD's attributes (its second
  // argument becomes amdgpu_waves_per_eu); without HIP's headers, spell them.
  const bool have_macro = ctx.ast.Idents.get("__launch_bounds__").hasMacroDefinition();
  for (const clang::FunctionDecl *fn : ctx.deviceFunctions()) {
    if (!RuleContext::isKernel(fn)) continue;
    const bool bounded = anyDeclarationHas<clang::AMDGPUFlatWorkGroupSizeAttr>(fn) ||
                         anyDeclarationHas<clang::CUDALaunchBoundsAttr>(fn) ||
                         anyDeclarationHas<clang::ReqdWorkGroupSizeAttr>(fn);
    const bool waves_set = anyDeclarationHas<clang::AMDGPUWavesPerEUAttr>(fn);
    clang::SourceLocation name_loc = fn->getLocation();
    if (fn->getQualifierLoc()) name_loc = fn->getQualifierLoc().getBeginLoc();
    std::optional<clang::SourceLocation> at = ctx.fileLocation(name_loc);
    if (!at) continue;
    auto insert = [&](const std::string &text) {
      return std::vector<clang::tooling::Replacement>{clang::tooling::Replacement(
          ctx.sm, clang::CharSourceRange::getCharRange(*at, *at), text + " ", ctx.ast.getLangOpts())};
    };
    const std::string kernel = fn->getNameAsString();
    const KernelRef ref = ctx.kernelRef(fn);
    auto next = ctx.input.next_waves.find(ref.mangled);
    const int waves = next == ctx.input.next_waves.end() ? 0 : next->second;  // 0: no step to ask for

    if (!bounded) {
      std::int64_t block = 256;
      std::string source = "no launch site in this file: 256 assumed";
      std::string assumption = "no launch uses more than 256 threads per block (a larger one fails)";
      auto found = sites.find(fn->getCanonicalDecl());
      if (found != sites.end() && !found->second.sizes.empty()) {
        block = *std::max_element(found->second.sizes.begin(), found->second.sizes.end());
        source = "the largest block of its " + std::to_string(found->second.sizes.size()) + " launch site" +
                 (found->second.sizes.size() == 1 ? "" : "s") + " in this file";
        assumption =
            found->second.unknown
                ? std::to_string(found->second.unknown) + " launch site(s) with a run-time block size use at most " +
                      std::to_string(block) + " threads"
                : "launches from other files (if any) use at most " + std::to_string(block) + " threads per block";
      } else if (found != sites.end()) {
        // Its launches pass a block size that is not a constant: the block is
        // unknown, as analyze and the gate say (launchUnknown); a bound of a
        // guessed size could make the real launch fail. Only waves_per_eu below.
        block = 0;
      }
      const std::string b = std::to_string(block);
      const std::string bound =
          have_macro ? "__launch_bounds__(" + b + ")" : "__attribute__((amdgpu_flat_work_group_size(1, " + b + ")))";
      // 1024 is what the compiler assumes already: only a second argument changes anything.
      if (block != 1024 && block != 0) {
        if (Candidate *c = ctx.add(
                AdviseRule::LaunchBounds, fn, *at, b,
                bound + " on " + kernel + " (" + source + "): the compiler otherwise assumes blocks of 1024 threads",
                insert(bound)))
          c->assumption = assumption;
      }
      if (waves > 0 && !waves_set && block != 0) {
        const std::string w = std::to_string(waves);
        const std::string both =
            have_macro ? "__launch_bounds__(" + b + ", " + w + ")"
                       : "__attribute__((amdgpu_flat_work_group_size(1, " + b + "), amdgpu_waves_per_eu(" + w + ")))";
        if (Candidate *c = ctx.add(AdviseRule::LaunchBounds, fn, *at, b + "," + w,
                                   both + " on " + kernel + " (" + source + "; on AMD the second argument asks for " +
                                       w + " waves per SIMD)",
                                   insert(both)))
          c->assumption = assumption;
      }
    }
    if (waves > 0 && !waves_set) {
      const std::string w = std::to_string(waves);
      const std::string attr = "__attribute__((amdgpu_waves_per_eu(" + w + ")))";
      ctx.add(AdviseRule::WavesPerEu, fn, *at, w,
              attr + " on " + kernel + ": asks the compiler for " + w +
                  " waves per SIMD (the next occupancy step), spilling if it must",
              insert(attr));
    }
  }
}

}  // namespace regscope::advise_detail
