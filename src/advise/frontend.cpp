// The AST the compiler saw. hipcc is a wrapper: the flags it adds (-O3, the
// HIP include paths, --rocm-path, -mllvm options), the driver's own
// (-resource-dir, the wrapper header -include, --offload-arch's -target-cpu)
// and the user's all end up in one cc1 job per device arch. Asking the
// compiler for that job (`-###`, with exactly the flags the analysis uses)
// and running the same cc1 arguments through Clang 15's front end, made
// -fsyntax-only, parses the source as the compiler did, macros and
// __HIP_DEVICE_COMPILE__ included. hipcc 5.2.3 is clang 15, the version of the
// libraries regscope links; another version warns (its cc1 flags may differ).
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Basic/Version.h>
#include <clang/Driver/Options.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Option/ArgList.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/StringSaver.h>

#include <algorithm>
#include <exception>
#include <set>
#include <sstream>

#include "advise_internal.h"
#include "regscope/backends/amd/driver.h"
#include "regscope/driver/driver.h"
#include "regscope/source/flags.h"
#include "regscope/support/error.h"

namespace regscope::advise_detail {
namespace {

// cc1 flags that make an output; the AST needs none of them.
const std::set<std::string> kDropWithValue = {"-o",
                                              "-dependency-file",
                                              "-MT",
                                              "-MQ",
                                              "-opt-record-file",
                                              "-opt-record-passes",
                                              "-opt-record-format",
                                              "-mlink-builtin-bitcode"};
const std::set<std::string> kActions = {"-E", "-emit-obj", "-emit-llvm-bc", "-emit-llvm", "-S", "-fsyntax-only"};

bool startsWith(const std::string &s, const std::string &prefix) { return s.rfind(prefix, 0) == 0; }

std::vector<std::string> tokenize(const std::string &line) {
  llvm::BumpPtrAllocator allocator;
  llvm::StringSaver saver(allocator);
  llvm::SmallVector<const char *, 256> argv;
  llvm::cl::TokenizeGNUCommandLine(line, saver, argv);
  return {argv.begin(), argv.end()};
}

// The device job that reads the source: its input language is "hip" (with
// --save-temps that is the -E job, whose flags are the compile job's).
bool isDeviceSourceJob(const std::vector<std::string> &argv) {
  if (argv.size() < 3 || argv[1] != "-cc1") return false;
  bool amdgpu = false, hip_input = false;
  for (std::size_t i = 2; i + 1 < argv.size(); ++i) {
    if (argv[i] == "-triple" && startsWith(argv[i + 1], "amdgcn-")) amdgpu = true;
    if (argv[i] == "-x" && argv[i + 1] == "hip") hip_input = true;
  }
  return amdgpu && hip_input;
}

std::vector<std::string> syntaxOnly(const std::vector<std::string> &argv) {
  std::vector<std::string> args;
  bool action_set = false;
  for (std::size_t i = 2; i < argv.size(); ++i) {  // drop "clang" "-cc1"
    const std::string &a = argv[i];
    if (kDropWithValue.count(a)) {
      ++i;
      continue;
    }
    // -disable-free leaks the AST on purpose (a compiler exits right after);
    // regscope parses more than once in one process.
    if (startsWith(a, "-save-temps") || a == "-disable-free" || a == "-sys-header-deps") continue;
    if (kActions.count(a)) {
      if (!action_set) args.push_back("-fsyntax-only");
      action_set = true;
      continue;
    }
    args.push_back(a);
  }
  if (!action_set) args.insert(args.begin(), "-fsyntax-only");
  return args;
}

// Another clang's cc1 may pass flags Clang 15 has no option for; they are
// code generation and module details (clang 19: -fskip-odr-check-in-gmf,
// -fvisibility=hidden), dropped with a warning rather than refusing to parse.
std::vector<std::string> dropUnknown(std::vector<std::string> &args) {
  std::vector<const char *> argv;
  for (const std::string &a : args) argv.push_back(a.c_str());
  unsigned missing_index = 0, missing_count = 0;
  const llvm::opt::InputArgList parsed = parseClangArgs(argv, missing_index, missing_count, /*cc1=*/true);
  std::vector<std::string> unknown;
  for (const llvm::opt::Arg *arg : parsed.filtered(clang::driver::options::OPT_UNKNOWN))
    unknown.push_back(arg->getAsString(parsed));
  if (unknown.empty()) return unknown;
  std::vector<std::string> kept;
  for (const std::string &a : args)
    if (std::find(unknown.begin(), unknown.end(), a) == unknown.end()) kept.push_back(a);
  args = std::move(kept);
  return unknown;
}

// Keeps the first errors as the compiler prints them: file:line:col: error: text.
class FirstErrors : public clang::DiagnosticConsumer {
 public:
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic &info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < clang::DiagnosticsEngine::Error || lines_.size() >= 3) return;
    llvm::SmallString<256> message;
    info.FormatDiagnostic(message);
    std::string where;
    if (info.getLocation().isValid() && info.hasSourceManager()) {
      clang::PresumedLoc loc = info.getSourceManager().getPresumedLoc(info.getLocation());
      if (loc.isValid())
        where = std::string(loc.getFilename()) + ":" + std::to_string(loc.getLine()) + ":" +
                std::to_string(loc.getColumn()) + ": ";
    }
    lines_.push_back(where + (level == clang::DiagnosticsEngine::Fatal ? "fatal error: " : "error: ") +
                     std::string(message.str()));
  }
  std::string text() const {
    std::string out;
    for (const std::string &line : lines_) out += (out.empty() ? "  " : "\n  ") + line;
    return out;
  }

 private:
  std::vector<std::string> lines_;
};

// Runs `visit` on the finished AST. Exceptions must not cross Clang's frames
// (LLVM is built without them): they are kept and rethrown afterwards.
class VisitAction : public clang::ASTFrontendAction {
 public:
  VisitAction(const std::function<void(clang::ASTContext &)> &visit, std::exception_ptr &failure)
      : visit_(visit), failure_(failure) {}

  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &, llvm::StringRef) override {
    struct Consumer : clang::ASTConsumer {
      Consumer(const std::function<void(clang::ASTContext &)> &visit, std::exception_ptr &failure)
          : visit(visit), failure(failure) {}
      void HandleTranslationUnit(clang::ASTContext &ast) override {
        if (ast.getDiagnostics().hasErrorOccurred()) return;
        try {
          visit(ast);
        } catch (...) {
          failure = std::current_exception();
        }
      }
      const std::function<void(clang::ASTContext &)> &visit;
      std::exception_ptr &failure;
    };
    return std::make_unique<Consumer>(visit_, failure_);
  }

 private:
  const std::function<void(clang::ASTContext &)> &visit_;
  std::exception_ptr &failure_;
};

class VisitFactory : public clang::tooling::FrontendActionFactory {
 public:
  VisitFactory(const std::function<void(clang::ASTContext &)> &visit, std::exception_ptr &failure)
      : visit_(visit), failure_(failure) {}
  std::unique_ptr<clang::FrontendAction> create() override { return std::make_unique<VisitAction>(visit_, failure_); }

 private:
  const std::function<void(clang::ASTContext &)> &visit_;
  std::exception_ptr &failure_;
};

}  // namespace

FrontendCommand deviceFrontendCommand(const AdviseInput &input) {
  // The analysis's own compile (its compiler, flags and paths), for the first arch, printed and not run.
  CompileJob job = compileJobFor(input.job, input.options);
  if (job.archs.empty()) throw Error("advise: no --offload-arch");
  job.archs.resize(1);
  job.extra_flags.push_back("-###");
  const CompileOutput out = compileHip(job);

  FrontendCommand command;
  command.arch = job.archs.front();
  std::istringstream lines(out.diagnostics);
  for (std::string line; std::getline(lines, line);) {
    if (command.version.empty() && line.find("clang version") != std::string::npos) command.version = line;
    if (!command.args.empty() || !startsWith(line, " \"")) continue;
    std::vector<std::string> argv = tokenize(line);
    if (isDeviceSourceJob(argv)) {
      command.args = syntaxOnly(argv);
      command.dropped = dropUnknown(command.args);
    }
  }
  // Another clang's builtin headers use builtins Clang 15 does not have
  // (clang 19's __clang_hip_math.h calls __builtin_amdgcn_exp2f): read the
  // source with Clang 15's own.
  const std::string ours = REGSCOPE_CLANG_RESOURCE_DIR;
  if (command.version.find("version " CLANG_VERSION_STRING) == std::string::npos) {
    auto at = std::find(command.args.begin(), command.args.end(), "-resource-dir");
    const std::string theirs = at != command.args.end() && at + 1 != command.args.end() ? *(at + 1) : "";
    if (!theirs.empty() && theirs != ours) {
      for (std::string &arg : command.args)
        if (startsWith(arg, theirs)) arg = ours + arg.substr(theirs.size());
      command.resource_dir_replaced = theirs;
    }
  }
  if (out.exit_code != 0 || command.args.empty()) {
    std::string said = out.diagnostics.substr(0, out.diagnostics.find('\n', 0));
    throw Error("advise: " + job.compiler + " -### printed no device compile job for " + input.job.file +
                (out.exit_code ? " (exit " + std::to_string(out.exit_code) + "): " + said : ""));
  }
  return command;
}

void parseSource(const FrontendCommand &command, const std::string &source,
                 const std::function<void(clang::ASTContext &)> &visit) {
  std::vector<const char *> argv;
  for (const std::string &arg : command.args) argv.push_back(arg.c_str());

  FirstErrors errors;
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> diag_options(new clang::DiagnosticOptions);
  llvm::IntrusiveRefCntPtr<clang::DiagnosticsEngine> engine =
      clang::CompilerInstance::createDiagnostics(diag_options.get(), &errors, /*ShouldOwnClient=*/false);
  auto invocation = std::make_shared<clang::CompilerInvocation>();
  if (!clang::CompilerInvocation::CreateFromArgs(*invocation, argv, *engine) || errors.getNumErrors())
    throw Error("advise: Clang " CLANG_VERSION_STRING " does not accept the compiler's front-end flags (" +
                command.version + "):\n" + errors.text());

  // The first errors go into the message; "N errors generated" is printed
  // by the compiler instance only when carets are shown.
  invocation->getDiagnosticOpts().ShowCarets = false;
  std::exception_ptr failure;
  VisitFactory factory(visit, failure);
  llvm::IntrusiveRefCntPtr<clang::FileManager> files(
      new clang::FileManager(clang::FileSystemOptions(), llvm::vfs::getRealFileSystem()));
  const bool ok = factory.runInvocation(std::move(invocation), files.get(),
                                        std::make_shared<clang::PCHContainerOperations>(), &errors);
  if (failure) std::rethrow_exception(failure);
  if (!ok || errors.getNumErrors())
    throw Error(source + " does not compile (" + command.version + ", device side):\n" + errors.text());
}

}  // namespace regscope::advise_detail
