// Reads a build's compile command for regscope wrap (include/regscope/source/compile_command.h).
#include "regscope/source/compile_command.h"

#include <clang/Driver/Options.h>
#include <llvm/Option/ArgList.h>
#include <llvm/Option/OptTable.h>

#include <algorithm>
#include <filesystem>

#include "regscope/source/flags.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;
namespace opts = clang::driver::options;

std::string baseName(const std::string &path) { return fs::path(path).filename().string(); }

bool isLauncher(const std::string &word) {
  const std::string name = baseName(word);
  for (const char *launcher : {"ccache", "sccache", "distcc", "icecc", "buildcache", "env"})
    if (name == launcher) return true;
  return false;
}

bool hasSourceExtension(const std::string &word, bool &hip_itself, bool &c_source) {
  const std::string ext = fs::path(word).extension().string();
  hip_itself = ext == ".hip";
  c_source = ext == ".c";
  for (const char *e : {".hip", ".cpp", ".cc", ".cxx", ".c++", ".C", ".cu", ".c"})
    if (ext == e) return true;
  return false;
}

}  // namespace

std::size_t compilerPosition(const std::vector<std::string> &argv) {
  std::size_t at = 0;
  for (bool after_env = false; at < argv.size(); ++at) {
    if (isLauncher(argv[at]))
      after_env = baseName(argv[at]) == "env";
    else if (!(after_env && argv[at].find('=') != std::string::npos && argv[at].front() != '-'))
      break;
  }
  return at;
}

WrappedCompile readCompileCommand(const std::vector<std::string> &argv) {
  WrappedCompile c;
  const std::size_t at = compilerPosition(argv);
  if (at >= argv.size()) return c;
  c.compiler = at;
  const std::string compiler = baseName(argv[at]);
  const bool hipcc = compiler.find("hipcc") != std::string::npos;
  const bool clang = compiler.find("clang") != std::string::npos;
  // The options as clang's and hipcc's driver reads them (Clang's own option
  // table, as src/source/flags.cpp reads a database's flags).
  std::vector<const char *> words;
  for (std::size_t i = at + 1; i < argv.size(); ++i) words.push_back(argv[i].c_str());
  unsigned missing_index = 0, missing_count = 0;
  const llvm::opt::InputArgList args = parseClangArgs(words, missing_index, missing_count);
  const bool compile = args.hasArg(opts::OPT_c);
  const bool stop = args.hasArg(opts::OPT_E, opts::OPT_M, opts::OPT_MM) ||
                    args.hasArg(opts::OPT_S, opts::OPT_fsyntax_only, opts::OPT_offload_host_only) ||
                    args.hasArg(opts::OPT_fgpu_rdc);
  for (const llvm::opt::Arg *a : args.filtered(opts::OPT_Rpass_analysis_EQ))
    c.remarks_asked = c.remarks_asked || llvm::StringRef(a->getValue()) == "kernel-resource-usage";
  for (const llvm::opt::Arg *a : args.filtered(opts::OPT_offload_arch_EQ))
    for (std::string &arch : splitArchList(a->getValue())) c.archs.push_back(std::move(arch));
  if (const llvm::opt::Arg *o = args.getLastArg(opts::OPT_o)) c.object = o->getValue();
  bool hip_language = false, other_language = false;
  if (const llvm::opt::Arg *x = args.getLastArg(opts::OPT_x)) {
    hip_language = llvm::StringRef(x->getValue()) == "hip";
    other_language = !hip_language;
  }
  std::vector<std::string> sources;
  bool hip_source = false, c_source = false;
  for (const llvm::opt::Arg *input : args.filtered(opts::OPT_INPUT)) {
    bool hip_itself = false, c_file = false;
    if (!hasSourceExtension(input->getValue(), hip_itself, c_file)) continue;
    sources.push_back(input->getValue());
    hip_source = hip_itself;
    c_source = c_file;
  }
  if (!compile || stop || sources.size() != 1 || c.object.empty()) return c;
  c.source = sources.front();
  const bool hip = hip_language || (!other_language && (hip_source || (hipcc && !c_source)));
  c.device = hip && (hipcc || clang);
  return c;
}

}  // namespace regscope
