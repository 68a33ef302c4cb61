#include "regscope/source/flags.h"

#include <clang/Driver/Options.h>
#include <llvm/ADT/STLExtras.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/Option/ArgList.h>
#include <llvm/Option/OptTable.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/StringSaver.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <optional>

#include "regscope/support/error.h"
#include "regscope/support/escape.h"
#include "regscope/support/llvm_compat.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;
namespace opts = clang::driver::options;

// Options whose value is a path (aliases such as --include-directory= match
// their target, -I).
constexpr unsigned kPathOptions[] = {
    opts::OPT_I,
    opts::OPT_iquote,
    opts::OPT_isystem,
    opts::OPT_idirafter,
    opts::OPT_include,
    opts::OPT_imacros,
    opts::OPT_include_pch,
    opts::OPT_isysroot,
    opts::OPT__sysroot_EQ,
    opts::OPT__sysroot,
    opts::OPT_ivfsoverlay,
    opts::OPT_iframework,
    opts::OPT_F,
    opts::OPT_B,
    opts::OPT_fplugin_EQ,
    opts::OPT_fprofile_use_EQ,
    opts::OPT_fprofile_instr_use_EQ,
    opts::OPT_gcc_toolchain,
    opts::OPT_rocm_path_EQ,
    opts::OPT_hip_path_EQ,
    opts::OPT_rocm_device_lib_path_EQ,
    opts::OPT_cuda_path_EQ,
    opts::OPT_fsanitize_ignorelist_EQ,
    opts::OPT_fprofile_list_EQ,
    opts::OPT_fmodules_cache_path,
};

// Options that choose the compile's outputs or write files of their own.
constexpr unsigned kOutputOptions[] = {
    opts::OPT_o,
    opts::OPT_c,
    opts::OPT_S,
    opts::OPT_E,
    opts::OPT_M,
    opts::OPT_MM,
    opts::OPT_MD,
    opts::OPT_MMD,
    opts::OPT_MF,
    opts::OPT_MT,
    opts::OPT_MQ,
    opts::OPT_MP,
    opts::OPT_MJ,
    opts::OPT_MV,
    opts::OPT_MG,
    opts::OPT_dependency_file,
    opts::OPT_dependency_dot,
    opts::OPT_save_temps,
    opts::OPT_save_temps_EQ,
    opts::OPT_save_stats,
    opts::OPT_save_stats_EQ,
    opts::OPT_fsave_optimization_record,
    opts::OPT_fsave_optimization_record_EQ,
    opts::OPT_foptimization_record_file_EQ,
    opts::OPT_foptimization_record_passes_EQ,
    opts::OPT_ftime_trace,
    opts::OPT_ftime_trace_EQ,
    opts::OPT_ftime_trace_granularity_EQ,
    opts::OPT_gsplit_dwarf,
    opts::OPT_gsplit_dwarf_EQ,
    opts::OPT_ftest_coverage,
    opts::OPT_coverage,
    opts::OPT_fstack_usage,
    opts::OPT_fproc_stat_report,
    opts::OPT_fproc_stat_report_EQ,
    opts::OPT_fcrash_diagnostics_dir,
    opts::OPT_driver_mode,
    opts::OPT__serialize_diags,
};

bool isOneOf(const llvm::opt::Arg &arg, const unsigned *ids, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i)
    if (arg.getOption().matches(ids[i])) return true;
  return false;
}

std::string absolute(const std::string &path, const std::string &base) {
  if (path.empty() || fs::path(path).is_absolute()) return path;
  return (fs::path(base) / path).lexically_normal().string();
}

// The parsed flags, with each option's tokens in argv.
struct ParsedFlags {
  llvm::opt::InputArgList args;
  unsigned count;

  // The argv tokens option `index` (in order) was spelled with.
  std::vector<std::string> tokens(const llvm::opt::Arg &arg, unsigned next_index) const {
    std::vector<std::string> out;
    for (unsigned i = arg.getIndex(); i < next_index; ++i) out.push_back(args.getArgString(i));
    return out;
  }
};

// The driver's options, or with `cc1` the compiler proper's (what -Xclang passes on).
ParsedFlags parse(const std::vector<std::string> &flags, bool cc1 = false) {
  std::vector<const char *> argv;
  for (const std::string &f : flags) argv.push_back(f.c_str());
  unsigned missing_index = 0, missing_count = 0;
  llvm::opt::InputArgList args = parseClangArgs(argv, missing_index, missing_count, cc1);
  return {std::move(args), static_cast<unsigned>(flags.size())};
}

// Calls `each(arg, tokens)` for every option in order.
template <typename Each>
void forEachArg(const ParsedFlags &parsed, Each each) {
  std::vector<const llvm::opt::Arg *> args(parsed.args.begin(), parsed.args.end());
  for (std::size_t i = 0; i < args.size(); ++i) {
    const unsigned next = i + 1 < args.size() ? args[i + 1]->getIndex() : parsed.count;
    each(*args[i], parsed.tokens(*args[i], next));
  }
}

// Options that make the compiler load a plugin: whoever wrote them chooses
// code that runs inside the compiler.
constexpr unsigned kPluginOptions[] = {
    opts::OPT_fplugin_EQ,
    opts::OPT_fpass_plugin_EQ,
    opts::OPT_hipspv_pass_plugin_EQ,
};
// The same among -Xclang's values (the compiler proper's options).
constexpr unsigned kCc1PluginOptions[] = {
    opts::OPT_load, opts::OPT_plugin, opts::OPT_add_plugin, opts::OPT_fpass_plugin_EQ, opts::OPT_fplugin_EQ,
};
// Options that choose where the compiler finds the programs it runs or the
// device libraries it links in (aliases such as --prefix= and
// --hip-device-lib-path= match their target): harmless where the place is the
// user's or the system's, code of someone else's choosing elsewhere.
constexpr unsigned kPlaceOptions[] = {
    opts::OPT_B,
    opts::OPT_rocm_path_EQ,
    opts::OPT_hip_path_EQ,
    opts::OPT_rocm_device_lib_path_EQ,
    opts::OPT_cuda_path_EQ,
    opts::OPT_ptxas_path_EQ,
    opts::OPT_gcc_toolchain,
    opts::OPT_ld_path_EQ,
    opts::OPT_fuse_ld_EQ,
    opts::OPT_ccc_install_dir,
};
// Options that pass their last value on as one option of another compile
// (the device's, the host's, an offload target's).
constexpr unsigned kForwardingOptions[] = {
    opts::OPT_Xarch_device,   opts::OPT_Xarch_host,        opts::OPT_Xarch__,
    opts::OPT_Xopenmp_target, opts::OPT_Xopenmp_target_EQ,
};

// The tokens as one visible line (they come from a file someone else may have written).
std::string joined(const std::vector<std::string> &tokens, const std::string &prefix = "") {
  std::string out;
  for (const std::string &t : tokens) out += (out.empty() ? "" : " ") + prefix + t;
  return escape::terminal(out);
}

// Why `path` is not a place only the user (or root) can change, or nothing:
// the path and every directory above it, as spelled (links included) and as
// resolved, owned by the user or root and not writable by others (a sticky
// directory such as /tmp excepted).
std::optional<std::string> unsafePlace(const std::string &path) {
  std::error_code ec;
  const fs::path spelled = fs::absolute(path, ec);
  const fs::path resolved = fs::canonical(spelled, ec);
  if (ec) return "it does not exist, so nobody can say who will own it";
  const uid_t me = geteuid();
  for (const fs::path &start : {spelled.lexically_normal(), resolved})
    for (fs::path at = start; !at.empty(); at = at.parent_path()) {
      struct stat st {};
      if (lstat(at.c_str(), &st) != 0) return at.string() + " cannot be examined";
      if (st.st_uid != me && st.st_uid != 0)
        return at.string() + " belongs to another user (uid " + std::to_string(st.st_uid) + ")";
      if (!S_ISLNK(st.st_mode) && (st.st_mode & (S_IWGRP | S_IWOTH)) &&
          !(S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX)))
        return "others may write " + at.string();
      if (at == at.root_path()) break;
    }
  return std::nullopt;
}

// nvcc's own spellings of a value-taking option ("-ccbin X", "-ccbin=X",
// "--compiler-bindir X", "--compiler-bindir=X"): the value, advancing `i`
// past it, or nothing.
std::optional<std::string> nvccValue(const std::vector<std::string> &flags, std::size_t &i,
                                     std::initializer_list<const char *> names) {
  for (const char *name : names) {
    const std::string n = name;
    if (flags[i] == n && i + 1 < flags.size()) return flags[++i];
    if (flags[i].rfind(n + "=", 0) == 0) return flags[i].substr(n.size() + 1);
  }
  return std::nullopt;
}

void findCodeLoading(const std::vector<std::string> &given, std::vector<std::string> &found, int depth) {
  if (depth > 8) {  // -Xarch_device -Xarch_device ...: nobody writes that
    found.push_back("options forwarded more than 8 deep");
    return;
  }
  auto checkPlace = [&](const std::string &spelling, const std::string &value) {
    if (std::optional<std::string> why = unsafePlace(value))
      found.push_back("'" + spelling + "' lets the compiler run programs or link libraries from " +
                      escape::terminal(value) + ", and " + escape::terminal(*why));
  };
  // nvcc's host-compiler options, which Clang's table does not know.
  std::vector<std::string> flags;
  for (std::size_t i = 0; i < given.size(); ++i) {
    const std::size_t at = i;
    if (std::optional<std::string> dir = nvccValue(given, i, {"-ccbin", "--compiler-bindir"})) {
      checkPlace(joined({given.begin() + at, given.begin() + i + 1}), *dir);
    } else if (std::optional<std::string> host = nvccValue(given, i, {"-Xcompiler", "--compiler-options"})) {
      findCodeLoading(splitArchList(*host), found, depth + 1);  // comma-separated, as nvcc splits them
    } else {
      flags.push_back(given[i]);
    }
  }
  std::vector<std::string> cc1;
  forEachArg(parse(flags), [&](const llvm::opt::Arg &arg, const std::vector<std::string> &tokens) {
    if (isOneOf(arg, kPluginOptions, std::size(kPluginOptions))) {
      found.push_back("'" + joined(tokens) + "' loads a plugin into the compiler");
    } else if (arg.getOption().matches(opts::OPT_Xclang)) {
      cc1.push_back(arg.getValue());
    } else if (isOneOf(arg, kForwardingOptions, std::size(kForwardingOptions)) && arg.getNumValues() > 0) {
      findCodeLoading({arg.getValue(arg.getNumValues() - 1)}, found, depth + 1);
    } else if (isOneOf(arg, kPlaceOptions, std::size(kPlaceOptions)) && arg.getNumValues() == 1) {
      const std::string value = arg.getValue();
      // -fuse-ld=lld names a linker to look up; -fuse-ld=/some/ld names a program.
      if (!arg.getOption().matches(opts::OPT_fuse_ld_EQ) || value.find('/') != std::string::npos)
        checkPlace(joined(tokens), value);
    }
  });
  if (cc1.empty()) return;
  forEachArg(parse(cc1, /*cc1=*/true), [&](const llvm::opt::Arg &arg, const std::vector<std::string> &tokens) {
    if (isOneOf(arg, kCc1PluginOptions, std::size(kCc1PluginOptions)))
      found.push_back("'" + joined(tokens, "-Xclang ") + "' loads a plugin into the compiler");
  });
}

}  // namespace

std::vector<std::string> resolvePathFlags(const std::vector<std::string> &flags, const std::string &base_dir) {
  // Response files: read relative to base_dir, nested ones relative to their includer.
  llvm::BumpPtrAllocator allocator;
  llvm::StringSaver saver(allocator);
  llvm::SmallVector<const char *, 64> argv;
  for (const std::string &f : flags) argv.push_back(saver.save(f).data());
  for (const char *arg : argv)
    if (arg[0] == '@' && !fs::is_regular_file(absolute(arg + 1, base_dir)))
      throw Error(std::string(arg) + ": no such response file (relative to " + base_dir + ")");
      // LLVM 16 replaced ExpandResponseFiles' eight parameters with ExpansionContext (same reading: GNU
      // tokens, nested files relative to their includer, the first relative to base_dir).
#if LLVM_VERSION_MAJOR >= 16
  llvm::cl::ExpansionContext expansion(allocator, llvm::cl::TokenizeGNUCommandLine);
  expansion.setRelativeNames(true).setCurrentDir(base_dir);
  if (llvm::Error e = expansion.expandResponseFiles(argv)) {
    llvm::consumeError(std::move(e));
    throw Error("cannot expand the response files in the compiler flags");
  }
#else
  if (!llvm::cl::ExpandResponseFiles(saver, llvm::cl::TokenizeGNUCommandLine, argv, /*MarkEOLs=*/false,
                                     /*RelativeNames=*/true, /*ExpandBasePath=*/false, llvm::StringRef(base_dir)))
    throw Error("cannot expand the response files in the compiler flags");
#endif
  std::vector<std::string> expanded(argv.begin(), argv.end());

  std::vector<std::string> out;
  forEachArg(parse(expanded), [&](const llvm::opt::Arg &arg, std::vector<std::string> tokens) {
    if (!isOneOf(arg, kPathOptions, std::size(kPathOptions)) || arg.getNumValues() != 1) {
      out.insert(out.end(), tokens.begin(), tokens.end());
      return;
    }
    const std::string value = arg.getValue();
    std::string resolved = absolute(value, base_dir);
    // -include and -imacros name a file as `#include "FILE"` in clang's
    // predefines buffer: clang looks for it first relative to the compile's
    // working directory, then through the quoted search path (-iquote, -I,
    // -isystem, -idirafter), never beside the main source. Made absolute only
    // where it is found in `base_dir`; otherwise left as written for the
    // search path to find (regscope's compile runs in an empty directory).
    if (arg.getOption().matches(opts::OPT_include) || arg.getOption().matches(opts::OPT_imacros)) {
      std::error_code ec;
      if (!fs::exists(resolved, ec)) resolved = value;
    }
    // Keep the user's spelling: "-I dir" stays separate, "-Idir" and "--x=dir" joined.
    if (tokens.size() == 2)
      tokens[1] = resolved;
    else
      tokens[0] = tokens[0].substr(0, tokens[0].size() - value.size()) + resolved;
    out.insert(out.end(), tokens.begin(), tokens.end());
  });
  return out;
}

namespace {
// hipcc also takes "--offload-arch gfx90a"; clang's table knows only the joined form.
std::vector<std::string> joinOffloadArch(const std::vector<std::string> &given) {
  std::vector<std::string> flags;
  for (std::size_t i = 0; i < given.size(); ++i) {
    if ((given[i] == "--offload-arch" || given[i] == "-offload-arch") && i + 1 < given.size())
      flags.push_back("--offload-arch=" + given[++i]);
    else
      flags.push_back(given[i]);
  }
  return flags;
}
}  // namespace

std::vector<std::string> dropOutputFlags(const std::vector<std::string> &given, std::vector<std::string> &archs) {
  const std::vector<std::string> flags = joinOffloadArch(given);
  std::vector<std::string> out;
  forEachArg(parse(flags), [&](const llvm::opt::Arg &arg, const std::vector<std::string> &tokens) {
    if (arg.getOption().matches(opts::OPT_offload_arch_EQ)) {
      for (const char *value : arg.getValues()) archs.push_back(value);
      return;
    }
    if (isOneOf(arg, kOutputOptions, std::size(kOutputOptions))) return;
    out.insert(out.end(), tokens.begin(), tokens.end());
  });
  return out;
}

std::string optimizationFlag(const std::vector<std::string> &flags) {
  std::string level;
  forEachArg(parse(flags), [&](const llvm::opt::Arg &arg, const std::vector<std::string> &tokens) {
    if (arg.getOption().matches(opts::OPT_O_Group)) level = tokens.front();  // the last one wins, as in clang
  });
  return level;
}

bool flagsSayHip(const std::vector<std::string> &given) {
  const std::vector<std::string> flags = joinOffloadArch(given);
  bool amd = false;
  std::optional<bool> language;  // -x: the last one before the source decides
  forEachArg(parse(flags), [&](const llvm::opt::Arg &arg, const std::vector<std::string> &) {
    if (arg.getOption().matches(opts::OPT_x)) {
      language = llvm::StringRef(arg.getValue()) == "hip";
    } else if (arg.getOption().matches(opts::OPT_offload_arch_EQ)) {  // --cuda-gpu-arch= is its alias
      for (const char *value : arg.getValues())
        for (const std::string &arch : splitArchList(value)) amd = amd || startsWith(llvm::StringRef(arch), "gfx");
    } else if (arg.getOption().matches(opts::OPT_D)) {
      const llvm::StringRef name = llvm::StringRef(arg.getValue()).split('=').first;
      amd = amd || name == "__HIP_PLATFORM_AMD__" || name == "__HIP_PLATFORM_HCC__";
    }
  });
  return language.value_or(amd);
}

bool isHipCompilerName(const std::string &compiler) {
  const std::string name = fs::path(compiler).filename().string();
  return name.find("hipcc") != std::string::npos || startsWith(llvm::StringRef(name), "amdclang");
}

bool commandCompilesHip(const std::string &file, const std::vector<std::string> &command_line) {
  const std::string ext = fs::path(file).extension().string();
  if (ext == ".hip") return true;
  if (!command_line.empty() && isHipCompilerName(command_line.front())) return true;
  const std::vector<std::string> flags(command_line.begin() + (command_line.empty() ? 0 : 1), command_line.end());
  if (ext == ".cu") return flagsSayHip(flags);
  for (std::size_t i = 0; i < flags.size(); ++i)
    if (flags[i] == "-xhip" || (flags[i] == "-x" && i + 1 < flags.size() && flags[i + 1] == "hip")) return true;
  return false;
}

bool commandCompilesCuda(const std::string &file, const std::vector<std::string> &command_line) {
  if (commandCompilesHip(file, command_line)) return false;
  if (fs::path(file).extension().string() == ".cu") return true;
  for (std::size_t i = 0; i < command_line.size(); ++i) {
    const std::string &a = command_line[i];
    const std::string next = i + 1 < command_line.size() ? command_line[i + 1] : "";
    if (a == "-xcu" || a == "-xcuda" || (a == "-x" && (next == "cu" || next == "cuda"))) return true;
    if (i == 0 && fs::path(a).filename().string().find("nvcc") != std::string::npos) return true;
  }
  return false;
}

std::vector<std::string> splitArchList(const std::string &list) {
  std::vector<std::string> archs;
  for (std::size_t begin = 0; begin <= list.size();) {
    const std::size_t comma = std::min(list.find(',', begin), list.size());
    if (comma > begin) archs.push_back(list.substr(begin, comma - begin));
    begin = comma + 1;
  }
  return archs;
}

std::vector<std::string> includeSearchDirectories(const std::vector<std::string> &flags) {
  // Clang's order: quoted includes' -iquote, then -I, -isystem, -idirafter.
  const unsigned kinds[] = {opts::OPT_iquote, opts::OPT_I, opts::OPT_isystem, opts::OPT_idirafter};
  const ParsedFlags parsed = parse(flags);
  std::vector<std::string> dirs;
  for (unsigned kind : kinds)
    for (const llvm::opt::Arg *arg : parsed.args)
      if (arg->getOption().matches(kind) && arg->getNumValues() == 1) dirs.push_back(arg->getValue());
  return dirs;
}

}  // namespace regscope

namespace regscope {

std::vector<std::string> codeLoadingFlags(const std::vector<std::string> &flags) {
  std::vector<std::string> found;
  findCodeLoading(flags, found, 0);
  return found;
}

llvm::opt::InputArgList parseClangArgs(llvm::ArrayRef<const char *> argv, unsigned &missing_index,
                                       unsigned &missing_count, bool cc1) {
  namespace o = clang::driver::options;
  const llvm::opt::OptTable &table = clang::driver::getDriverOptTable();
  // Clang 17 moved who-sees-an-option from the option flags to visibilities: the gcc-mode driver
  // sees ClangOption ones (Driver::getOptionVisibilityMask); Clang 15 excludes the other modes'
  // flags instead (Driver::getIncludeExcludeOptionFlagMasks outside cl and DXC modes).
#if LLVM_VERSION_MAJOR >= 17
  return table.ParseArgs(argv, missing_index, missing_count,
                         llvm::opt::Visibility(cc1 ? o::CC1Option : o::ClangOption));
#else
  if (cc1) return table.ParseArgs(argv, missing_index, missing_count, o::CC1Option);
  return table.ParseArgs(argv, missing_index, missing_count, 0,
                         o::CLOption | o::CLDXCOption | o::DXCOption | o::FlangOnlyOption | o::NoDriverOption);
#endif
}

}  // namespace regscope
