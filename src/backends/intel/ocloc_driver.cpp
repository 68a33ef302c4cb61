// Drives Intel's offline compiler ocloc in a private temporary directory.
// ocloc writes its outputs (and IGC its shader dump) where it is told, and
// prints warnings and errors on stdout; regscope keeps both streams as the log.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "regscope/backends/intel/ocloc.h"
#include "regscope/support/error.h"
#include "regscope/support/files.h"
#include "regscope/support/process.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

bool isSpirvFile(const std::string &path) { return fs::path(path).extension() == ".spv"; }

// SPIR-V starts with the magic word 0x07230203, in either byte order.
void requireSpirv(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  unsigned char word[4] = {0, 0, 0, 0};
  in.read(reinterpret_cast<char *>(word), 4);
  const bool little = word[0] == 0x03 && word[1] == 0x02 && word[2] == 0x23 && word[3] == 0x07;
  const bool big = word[0] == 0x07 && word[1] == 0x23 && word[2] == 0x02 && word[3] == 0x03;
  if (in.gcount() != 4 || !(little || big))
    throw Error(path + ": not a SPIR-V module (a .spv file must start with the magic number 0x07230203)");
}

// ocloc splits -options at spaces; a word with spaces in it goes in quotes.
std::string joinOptions(const std::vector<std::string> &words) {
  std::string joined;
  for (const std::string &w : words) {
    if (w.empty()) continue;
    if (!joined.empty()) joined += ' ';
    joined += w.find(' ') == std::string::npos ? w : "\"" + w + "\"";
  }
  return joined;
}

// The -I directories among the build options ("-I dir" or "-Idir").
std::vector<std::string> includeDirs(const std::vector<std::string> &options) {
  std::vector<std::string> dirs;
  for (std::size_t i = 0; i < options.size(); ++i) {
    if (options[i] == "-I" && i + 1 < options.size())
      dirs.push_back(options[++i]);
    else if (options[i].rfind("-I", 0) == 0 && options[i].size() > 2)
      dirs.push_back(options[i].substr(2));
  }
  return dirs;
}

// The name of a `#include "x"` or `#include <x>` line, and whether it is
// quoted; empty for any other line.
std::pair<std::string, bool> includedName(const std::string &line) {
  std::size_t i = line.find_first_not_of(" \t");
  if (i == std::string::npos || line[i] != '#') return {"", false};
  i = line.find_first_not_of(" \t", i + 1);
  if (i == std::string::npos || line.compare(i, 7, "include") != 0) return {"", false};
  i = line.find_first_not_of(" \t", i + 7);
  if (i == std::string::npos || (line[i] != '"' && line[i] != '<')) return {"", false};
  const char close = line[i] == '"' ? '"' : '>';
  const std::size_t end = line.find(close, i + 1);
  if (end == std::string::npos) return {"", false};
  return {line.substr(i + 1, end - i - 1), close == '"'};
}

// The source and the files its #include lines name, transitively: quoted
// names beside the including file first, then in the -I directories. Every
// directive counts, even one under a false #if, so the list is a superset;
// a name found nowhere (ocloc's built-in headers) is left out.
std::vector<std::string> scanIncludes(const std::string &source, const std::vector<std::string> &dirs) {
  std::vector<std::string> found = {source};
  std::set<std::string> seen = {source};
  for (std::size_t next = 0; next < found.size(); ++next) {
    std::ifstream in(found[next]);
    const fs::path here = fs::path(found[next]).parent_path();
    for (std::string line; std::getline(in, line);) {
      const auto [name, quoted] = includedName(line);
      if (name.empty()) continue;
      std::vector<fs::path> candidates;
      if (quoted) candidates.push_back(here / name);
      for (const std::string &dir : dirs) candidates.push_back(fs::path(dir) / name);
      std::error_code ec;
      for (const fs::path &candidate : candidates) {
        if (!fs::is_regular_file(candidate, ec)) continue;
        const std::string path = fs::absolute(candidate, ec).lexically_normal().string();
        if (seen.insert(path).second) found.push_back(path);
        break;
      }
    }
  }
  return found;
}

std::vector<ShaderDumpFile> readShaderDump(const std::string &dir) {
  std::vector<ShaderDumpFile> files;
  std::error_code ec;
  for (const fs::directory_entry &entry : fs::directory_iterator(dir, ec))
    if (entry.path().extension() == ".asm")
      files.push_back({entry.path().filename().string(), readFile(entry.path().string())});
  std::sort(files.begin(), files.end(), [](const auto &a, const auto &b) { return a.name < b.name; });
  return files;
}

// `ocloc query OCL_DRIVER_VERSION` writes the version into a file of that
// name in the working directory, NUL-terminated.
std::string oclocVersion(const std::string &compiler) {
  TempDir dir;
  if (runCaptured({compiler, "query", "OCL_DRIVER_VERSION"}, dir.path()).exit_code != 0) return "";
  std::string version = readFileIfExists(dir.path() + "/OCL_DRIVER_VERSION").value_or("");
  version = version.substr(0, version.find('\0'));
  version.erase(version.find_last_not_of(" \n") + 1);
  return version;
}

}  // namespace

std::string findOcloc(const std::string &explicit_path) {
  if (!explicit_path.empty()) return requireExecutable(explicit_path, "--compiler " + explicit_path);
  if (std::string found = searchPath("ocloc"); !found.empty()) return found;
  throw Error(
      "compiler not found: no ocloc on PATH (Intel's offline compiler: on Debian and Ubuntu it is in the "
      "package intel-opencl-icd; or pass --compiler)");
}

bool isOclocInput(const std::string &path) {
  const std::string ext = fs::path(path).extension().string();
  return ext == ".cl" || ext == ".spv";
}

std::vector<std::string> oclocDevices(const std::string &compiler) {
  const ProcessOutput help = runCaptured({compiler, "compile", "--help"});
  const std::string text = help.out + help.err;
  const std::string marker = "<device_type> can be: ";
  const std::size_t at = text.find(marker);
  if (at == std::string::npos) return {};
  const std::size_t start = at + marker.size();
  std::string list = text.substr(start, text.find('\n', start) - start);
  list = list.substr(0, list.find(" or hexadecimal"));
  std::vector<std::string> devices;
  std::istringstream in(list);
  for (std::string word; std::getline(in, word, ',');) {
    word.erase(0, word.find_first_not_of(' '));
    word.erase(word.find_last_not_of(' ') + 1);
    if (!word.empty() && word != "version") devices.push_back(word);
  }
  return devices;
}

OclocOutput compileOcloc(const OclocJob &job) {
  std::error_code ec;
  if (!fs::is_regular_file(job.source, ec)) throw Error(job.source + ": no such file");
  const bool spirv = isSpirvFile(job.source);
  if (spirv) requireSpirv(job.source);

  TempDir dir;
  const std::string source = fs::absolute(job.source, ec).lexically_normal().string();
  const std::string dump = dir.path() + "/dump";
  OclocOutput out;
  if (job.shader_dump)  // IGC reads its debug keys from the environment
    out.argv = {"env", "IGC_ShaderDumpEnable=1", "IGC_DumpToCustomDir=" + dump};
  for (const std::string &word :
       {job.compiler, std::string("compile"), std::string("-file"), source, std::string("-device"), job.device,
        std::string("--format"), std::string("zebin"), std::string("-output"), std::string("regscope"),
        std::string("-output_no_suffix"), std::string("-out_dir"), dir.path()})
    out.argv.push_back(word);
  if (spirv) out.argv.push_back("-spirv_input");
  std::vector<std::string> options;
  if (!spirv) options = {"-I", fs::path(source).parent_path().string()};
  // ocloc runs in the temporary directory: the user's -I paths are relative to theirs.
  for (std::size_t i = 0; i < job.options.size(); ++i) {
    const std::string &word = job.options[i];
    if (word == "-I" && i + 1 < job.options.size()) {
      options.insert(options.end(), {word, fs::absolute(job.options[++i], ec).string()});
    } else if (word.rfind("-I", 0) == 0 && word.size() > 2) {
      options.push_back("-I" + fs::absolute(word.substr(2), ec).string());
    } else {
      options.push_back(word);
    }
  }
  if (const std::string joined = joinOptions(options); !joined.empty()) {
    out.argv.push_back("-options");
    out.argv.push_back(joined);
  }

  const ProcessOutput run = runCaptured(out.argv, dir.path());
  out.exit_code = run.exit_code;
  out.log = run.out + run.err;
  out.version = oclocVersion(job.compiler);
  out.dependencies = spirv ? std::vector<std::string>{source} : scanIncludes(source, includeDirs(options));
  if (out.exit_code != 0) return out;
  out.zebin = readFileIfExists(dir.path() + "/regscope").value_or("");
  if (job.shader_dump) out.shader_dump = readShaderDump(dump);
  return out;
}

}  // namespace regscope
