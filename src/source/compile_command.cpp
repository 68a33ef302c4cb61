// Reads a build's compile command for regscope wrap (include/regscope/source/compile_command.h).
#include "regscope/source/compile_command.h"

#include <algorithm>
#include <filesystem>

namespace regscope {
namespace {

namespace fs = std::filesystem;

std::string baseName(const std::string &path) { return fs::path(path).filename().string(); }

bool isLauncher(const std::string &word) {
  const std::string name = baseName(word);
  for (const char *launcher : {"ccache", "sccache", "distcc", "icecc", "buildcache", "env"})
    if (name == launcher) return true;
  return false;
}

// Options whose value is the next word (clang's and hipcc's that a build
// passes with the value apart), so that a value is never taken for the source.
bool takesSeparateValue(const std::string &a) {
  static const char *const kOptions[] = {
      "-o",        "-x",       "-I",         "-D",        "-U",        "-include",     "-imacros", "-isystem",
      "-iquote",   "-idirafter", "-isysroot", "-MF",       "-MT",       "-MQ",          "-Xclang",  "-mllvm",
      "-Xlinker",  "-target",  "-arch",      "-L",        "-l",        "-Xarch_device", "-Xarch_host",
      "-Xoffload-linker", "-ivfsoverlay", "--serialize-diagnostics", "-MJ", "-working-directory", "-z"};
  return std::find(std::begin(kOptions), std::end(kOptions), a) != std::end(kOptions);
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

WrappedCompile readCompileCommand(const std::vector<std::string> &argv) {
  WrappedCompile c;
  std::size_t at = 0;
  for (bool after_env = false; at < argv.size(); ++at) {
    if (isLauncher(argv[at])) after_env = baseName(argv[at]) == "env";
    else if (!(after_env && argv[at].find('=') != std::string::npos && argv[at].front() != '-')) break;
  }
  if (at >= argv.size()) return c;
  c.compiler = at;
  const std::string compiler = baseName(argv[at]);
  const bool hipcc = compiler.find("hipcc") != std::string::npos;
  const bool clang = compiler.find("clang") != std::string::npos;
  bool compile = false, stop = false, hip_language = false, other_language = false;
  std::vector<std::string> sources;
  bool hip_source = false, c_source = false;
  for (std::size_t i = at + 1; i < argv.size(); ++i) {
    const std::string &a = argv[i];
    if (a == "-c") compile = true;
    else if (a == "-E" || a == "-M" || a == "-MM" || a == "-S" || a == "-fsyntax-only" || a == "--cuda-host-only" ||
             a == "-fgpu-rdc")
      stop = true;
    else if (a == kResourceRemarkFlag) c.remarks_asked = true;
    else if (a.rfind("--offload-arch=", 0) == 0) {
      const std::string list = a.substr(15);
      for (std::size_t begin = 0; begin <= list.size();) {
        const std::size_t comma = std::min(list.find(',', begin), list.size());
        if (comma > begin) c.archs.push_back(list.substr(begin, comma - begin));
        begin = comma + 1;
      }
    } else if (a == "-o" && i + 1 < argv.size()) {
      c.object = argv[++i];
    } else if (a.rfind("-o", 0) == 0 && a.size() > 2 && a[2] != '-' && a.rfind("-offload", 0) != 0) {
      c.object = a.substr(2);  // -oFILE
    } else if (a == "-x" && i + 1 < argv.size()) {
      const std::string &language = argv[++i];
      hip_language = language == "hip";
      other_language = !hip_language;
    } else if (a.rfind("-x", 0) == 0 && a.size() > 2) {
      hip_language = a == "-xhip";
      other_language = !hip_language;
    } else if (takesSeparateValue(a)) {
      ++i;
    } else if (!a.empty() && a.front() != '-') {
      bool hip_itself = false, c_file = false;
      if (hasSourceExtension(a, hip_itself, c_file)) {
        sources.push_back(a);
        hip_source = hip_itself;
        c_source = c_file;
      }
    }
  }
  if (!compile || stop || sources.size() != 1 || c.object.empty()) return c;
  c.source = sources.front();
  const bool hip = hip_language || (!other_language && (hip_source || (hipcc && !c_source)));
  c.device = hip && (hipcc || clang);
  return c;
}

}  // namespace regscope
