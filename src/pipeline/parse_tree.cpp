// parse over directories and Triton cache entries (include/regscope/pipeline/parse_tree.h).
#include "regscope/pipeline/parse_tree.h"

#include <llvm/Object/ObjectFile.h>
#include <llvm/Support/MemoryBuffer.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <tuple>

#include "artifact_file.h"
#include "regscope/backends/amd/collect.h"
#include "regscope/backends/triton/triton_cache.h"
#include "regscope/cache/cache.h"
#include "regscope/pipeline/explain.h"
#include "regscope/pipeline/merge.h"
#include "regscope/support/error.h"
#include "regscope/support/escape.h"
#include "regscope/support/files.h"
#include "regscope/support/process.h"
#include "regscope/target/amdgpu.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

// Triton's code files, in the order they are read (the .s first, as analyze
// reads its .s before anything else), and the IR beside them.
constexpr const char *kAmdCode[] = {".amdgcn", ".hsaco"};
constexpr const char *kNvidiaCode[] = {".cubin", ".ptx"};
constexpr const char *kTritonIr[] = {".source", ".ttir", ".ttgir", ".llir", ".json"};

bool endsWith(const std::string &s, std::string_view tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::string head(const fs::path &path, std::size_t bytes) {
  std::ifstream in(path, std::ios::binary);
  std::string text(bytes, '\0');
  in.read(text.data(), static_cast<std::streamsize>(bytes));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

// One thing to read: a file on its own, or a Triton cache entry (its
// metadata's directory and the stem its files share).
struct Item {
  bool triton = false;
  std::string path;  // the file; for Triton the metadata `<stem>.json`
  std::string dir, stem;
  std::string only_code;  // Triton: the one code file the user named, else empty (every code file)
  bool named = false;     // the user named it: its error ends the run, as parseArtifacts' do
  std::string error;      // found broken by the walk itself
};

enum class FileKind { Artifact, Nvidia, Intel, NoDeviceCode, Unknown };

// Host ELF: device code in an offload section, or none.
FileKind hostElfKind(const fs::path &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path.string(), /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!buffer) return FileKind::Unknown;
  auto object = llvm::object::ObjectFile::createObjectFile((*buffer)->getMemBufferRef());
  if (!object) {
    llvm::consumeError(object.takeError());
    return FileKind::Unknown;
  }
  for (const llvm::object::SectionRef &section : (*object)->sections()) {
    llvm::Expected<llvm::StringRef> name = section.getName();
    if (!name) {
      llvm::consumeError(name.takeError());
      continue;
    }
    if (*name == ".hip_fatbin") return FileKind::Artifact;
    if (*name == ".nv_fatbin" || *name == "__nv_relfatbin" || *name == ".nvFatBinSegment") return FileKind::Nvidia;
  }
  return FileKind::NoDeviceCode;
}

// What a file found in a walk is, by its first bytes and, for texts, its name.
FileKind classify(const fs::path &path) {
  const std::string bytes = head(path, 64 * 1024);
  const std::string name = path.filename().string();
  const std::string ext = path.extension().string();
  if (bytes.rfind("\x7f"
                  "ELF",
                  0) == 0) {
    if (bytes.size() < 20) return FileKind::Unknown;
    const bool little = bytes[5] == 1;
    const unsigned machine = little
                                 ? static_cast<unsigned char>(bytes[18]) | static_cast<unsigned char>(bytes[19]) << 8
                                 : static_cast<unsigned char>(bytes[19]) | static_cast<unsigned char>(bytes[18]) << 8;
    if (machine == 224) return FileKind::Artifact;  // EM_AMDGPU
    if (machine == 190) return FileKind::Nvidia;    // EM_CUDA: a cubin
    if (machine == 205) return FileKind::Intel;     // EM_INTELGT: a zebin
    return hostElfKind(path);
  }
  if (startsOffloadBundle(bytes)) return FileKind::Artifact;             // compressed (CCOB) or not
  if (bytes.rfind("\x50\xed\x55\xba", 0) == 0) return FileKind::Nvidia;  // a fatbin (0xBA55ED50)
  if ((ext == ".s" || ext == ".amdgcn" || ext == ".asm") &&
      (bytes.find(".amdgcn_target") != std::string::npos ||
       bytes.find(".amdhsa_code_object_version") != std::string::npos))
    return FileKind::Artifact;
  if (endsWith(name, ".opt.yaml") && bytes.rfind("--- !", 0) == 0 &&
      bytes.find("kernel-resource-usage") != std::string::npos)
    return FileKind::Artifact;
  if ((ext == ".log" || ext == ".txt") && bytes.find("kernel-resource-usage") != std::string::npos)
    return FileKind::Artifact;
  if (isPtxasLog(bytes)) return FileKind::Artifact;  // nvcc -Xptxas -v output, read as parse reads it named
  return FileKind::Unknown;
}

bool isFile(const fs::path &p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

// The stem `X` of a Triton code file `DIR/X.amdgcn` whose `DIR/X.json` is Triton metadata.
std::optional<std::string> tritonStemOf(const fs::path &file) {
  const std::string ext = file.extension().string();
  bool code = false;
  for (const char *e : kAmdCode) code |= ext == e;
  for (const char *e : kNvidiaCode) code |= ext == e;
  if (!code) return std::nullopt;
  const fs::path meta = file.parent_path() / (file.stem().string() + ".json");
  if (!isFile(meta)) return std::nullopt;
  try {
    if (!looksLikeTritonMetadata(readFile(meta.string()))) return std::nullopt;
  } catch (const Error &) {
    return std::nullopt;
  }
  return file.stem().string();
}

class Walker {
 public:
  Walker(std::vector<Item> &items, WalkSummary &summary, bool progress)
      : items_(items), summary_(summary), progress_(progress) {}

  void walk(const fs::path &dir, int depth = 0) {
    throwIfInterrupted();
    // A directory the walk cannot enter (no read permission, a path the OS
    // refuses as too long, a tree deeper than any build's) is that
    // directory's error; its siblings are still read.
    auto unreadable = [&](const std::string &why) {
      Item item;
      item.path = dir.string();
      item.error = dir.string() + ": " + why;
      items_.push_back(std::move(item));
    };
    if (depth > kMaxDepth) {
      unreadable("more than " + std::to_string(kMaxDepth) + " directories deep: not walked");
      return;
    }
    ++summary_.directories;
    if (progress_ && summary_.directories % 64 == 0)
      std::cerr << "\r\033[Kregscope: walking " << summary_.directories << " directories, " << items_.size()
                << " artifacts found" << std::flush;
    std::vector<fs::path> files, dirs;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      const fs::directory_entry &entry = *it;
      std::error_code type_ec;
      if (entry.is_symlink(type_ec) && entry.is_directory(type_ec)) {
        ++summary_.unknown;  // a linked directory is not followed: it may loop
        continue;
      }
      if (entry.is_symlink(type_ec) && entry.is_regular_file(type_ec)) {
        std::error_code canonical_ec;
        const fs::path target = fs::canonical(entry.path(), canonical_ec);
        if (!canonical_ec && target.parent_path() == fs::canonical(dir, canonical_ec) && !canonical_ec) {
          ++summary_.linked_files;  // the target is in this directory: read once, under its own name
          continue;
        }
      }
      if (entry.is_directory(type_ec))
        dirs.push_back(entry.path());
      else if (entry.is_regular_file(type_ec))
        files.push_back(entry.path());
      else
        ++summary_.unknown;
    }
    if (ec) {
      unreadable("cannot be listed: " + ec.message());
      return;
    }
    std::sort(files.begin(), files.end());
    std::sort(dirs.begin(), dirs.end());
    std::set<std::string> names;
    for (const fs::path &f : files) names.insert(f.filename().string());
    std::set<std::string> owned;  // files a Triton entry of this directory accounts for
    auto has = [&](const std::string &n) { return names.count(n) > 0; };
    for (const std::string &n : names) {
      std::string stem;
      bool group = false;
      if (n.rfind("__grp__", 0) == 0 && endsWith(n, ".json")) {
        stem = n.substr(7, n.size() - 12);
        group = true;
      } else if (endsWith(n, ".json")) {
        stem = n.substr(0, n.size() - 5);
        bool code = false;
        for (const char *e : kAmdCode) code |= has(stem + e);
        for (const char *e : kNvidiaCode) code |= has(stem + e);
        if (!code && !has("__grp__" + n)) {
          std::string text;
          try {
            text = readFile((dir / n).string());
          } catch (const Error &) {
          }
          if (!looksLikeTritonMetadata(text)) continue;  // some other JSON: classified below
        }
      } else {
        continue;
      }
      if (stem.empty()) continue;
      if (!group && has("__grp__" + n)) continue;  // the group file's entry
      Item item;
      item.triton = true;
      item.dir = dir.string();
      item.stem = stem;
      item.path = (dir / (stem + ".json")).string();
      if (group && !has(stem + ".json"))
        item.error = (dir / n).string() + " lists " + stem + ".json, which is missing: a partly written or cleaned " +
                     "Triton cache entry";
      owned.insert(stem + ".json");
      owned.insert("__grp__" + stem + ".json");
      for (const char *e : kAmdCode) owned.insert(stem + e);
      for (const char *e : kNvidiaCode) owned.insert(stem + e);
      for (const char *e : kTritonIr)
        if (has(stem + e) && std::string(e) != ".json") {
          owned.insert(stem + e);
          ++summary_.triton_ir;
        }
      if (has("__grp__" + stem + ".json")) ++summary_.triton_ir;
      items_.push_back(std::move(item));
    }
    // Triton IR with neither metadata nor a group file nor a binary: a compile
    // that failed (ptxas ran out of registers) and left its stages behind. Named
    // once, as a failed compile, not counted among the other files.
    for (const std::string &n : names) {
      for (const char *ir : {".ttir", ".ttgir"}) {
        if (!endsWith(n, ir)) continue;
        const std::string stem = n.substr(0, n.size() - std::strlen(ir));
        if (has(stem + ".json") || has("__grp__" + stem + ".json")) continue;
        bool binary = false;
        for (const char *e : {".cubin", ".hsaco"}) binary |= has(stem + e);
        if (binary) continue;
        const std::string where = (dir / stem).string();
        if (summary_.triton_failed_compiles.empty() || summary_.triton_failed_compiles.back() != where)
          summary_.triton_failed_compiles.push_back(where);
        for (const char *e : {".source", ".ttir", ".ttgir", ".llir", ".ptx", ".amdgcn"}) owned.insert(stem + e);
      }
    }
    for (const fs::path &f : files) {
      if (owned.count(f.filename().string())) continue;
      switch (classify(f)) {
        case FileKind::Artifact: {
          Item item;
          item.path = f.string();
          items_.push_back(std::move(item));
          break;
        }
        case FileKind::Nvidia: {  // cubins, fatbins, host files with .nv_fatbin: src/backends/nvidia/cubin.cpp
          Item item;
          item.path = f.string();
          items_.push_back(std::move(item));
          break;
        }
        case FileKind::Intel: {  // zebins: src/pipeline/parse_artifacts.cpp's zebinFacts
          Item item;
          item.path = f.string();
          items_.push_back(std::move(item));
          break;
        }
        case FileKind::NoDeviceCode:
          ++summary_.no_device_code;
          break;
        case FileKind::Unknown:
          ++summary_.unknown;
          break;
      }
    }
    for (const fs::path &d : dirs) walk(d, depth + 1);
  }

 private:
  static constexpr int kMaxDepth = 256;
  std::vector<Item> &items_;
  WalkSummary &summary_;
  bool progress_;
};

// What reading one item gave.
// What reading a Triton entry found beside its figures, for the run's one line each.
struct TritonReading {
  bool ir_cleaned = false;      // a file its group lists (IR) is gone
  bool without_source = false;  // no .source or .ttir: no Python file, line or specialisation
};

// The files a Triton entry's figures are read from: NVIDIA's .cubin, AMD's .hsaco or .amdgcn
// (a .ptx has no register figures: IR).
bool isTritonBinary(const std::string &ext) { return ext == ".cubin" || ext == ".hsaco" || ext == ".amdgcn"; }

struct ItemResult {
  Artifact artifact;
  TritonReading triton;  // a Triton entry's: what its files lacked
  std::string error;     // the item's error, naming its file
  std::string input;     // the path its errors and inputs name
};

Artifact readTritonEntry(const Item &item, const ResultCache *cache, TritonReading &reading) {
  if (!item.error.empty()) throw Error(item.error);
  const fs::path dir(item.dir);
  const std::string meta_path = item.path;
  TritonInfo info;
  try {
    info = readTritonMetadata(readFile(meta_path));
  } catch (const Error &e) {
    throw Error(meta_path + ": " + e.what());
  }
  // What the group lists that is gone. IR (.ptx, .ttir, .ttgir, .llir, .source)
  // cleaned away, as CI artifacts and copied caches keep only the metadata and
  // the binary, leaves every figure regscope reads: the entry is read from its
  // binary and the run says so once. A binary it lists that is gone, with no
  // other binary beside the metadata, is not what Triton wrote: an error.
  std::string missing_binary;
  bool ir_gone = false;
  const fs::path group = dir / ("__grp__" + item.stem + ".json");
  if (isFile(group)) {
    std::vector<std::string> children;
    try {
      children = tritonGroupChildren(readFile(group.string()));
    } catch (const Error &e) {
      throw Error(group.string() + ": " + e.what());
    }
    for (const std::string &child : children) {
      if (isFile(dir / child)) continue;
      const std::string ext = fs::path(child).extension().string();
      if (isTritonBinary(ext))
        missing_binary = child;
      else if (ext != ".json")
        ir_gone = true;
    }
  }
  reading.without_source = true;
  for (const char *ir : {".source", ".ttir"})
    if (const fs::path p = dir / (item.stem + ir); isFile(p)) {
      readTritonIr(info, readFile(p.string()));
      reading.without_source = false;
      break;
    }
  // Said only when what is gone is what regscope reads (the Python line and
  // the specialisation): a cache kept without its .llir or .ptx loses nothing.
  reading.ir_cleaned = ir_gone && reading.without_source;
  const std::string arch = tritonArch(info);
  std::vector<std::string> code;
  if (!item.only_code.empty()) {
    code.push_back(item.only_code);
  } else if (info.backend == "hip") {
    for (const char *e : kAmdCode)
      if (isFile(dir / (item.stem + e))) code.push_back((dir / (item.stem + e)).string());
  } else {
    for (const char *e : kNvidiaCode)
      if (isFile(dir / (item.stem + e))) code.push_back((dir / (item.stem + e)).string());
  }
  const bool has_binary = std::any_of(code.begin(), code.end(), [](const std::string &file) {
    return isTritonBinary(fs::path(file).extension().string());
  });
  if (!missing_binary.empty() && !has_binary)
    throw Error(group.string() + " lists " + missing_binary + ", which is missing: a partly written or cleaned " +
                "Triton cache entry");
  if (!missing_binary.empty()) reading.ir_cleaned = true;  // an .amdgcn gone beside its .hsaco
  if (code.empty())
    throw Error(meta_path + ": Triton metadata without its code beside it (" +
                (info.backend == "hip" ? item.stem + ".amdgcn or " + item.stem + ".hsaco"
                                       : item.stem + ".cubin or " + item.stem + ".ptx") +
                ")");
  {
    std::string bytes;
    for (const std::string &file : code) bytes += readFile(file);
    info.code_digest = sha256Hex(bytes).substr(0, 16);
  }
  Artifact artifact;
  if (info.backend == "hip") {
    // A cached reading of these very files (unchanged size and mtime, else SHA-256) stands for reading them.
    std::vector<std::string> absolute;
    std::string what = "triton-amd";
    for (const std::string &file : code) {
      std::error_code ec;
      absolute.push_back(fs::absolute(file, ec).lexically_normal().string());
      what += "\n" + absolute.back();
    }
    const std::string key = cache ? cache->keyForArtifacts(what) : "";
    std::optional<CachedResult> hit = cache ? cache->lookup(key) : std::nullopt;
    if (hit) {
      artifact.records = std::move(hit->records);
      artifact.producer = hit->producer;
    } else {
      std::vector<FactSet> sets;
      std::string producer;
      for (const std::string &file : code) {
        std::vector<FactSet> read = readFileFacts(file, "", producer);
        std::move(read.begin(), read.end(), std::back_inserter(sets));
      }
      artifact = checkArtifact(std::move(sets), code.front(), producer);
      bool complete = artifact.warnings.empty();  // the cache keeps records, not the sources' other words
      for (const KernelRecord &r : artifact.records) complete &= r.missing.empty();
      if (cache && complete) cache->store(key, {artifact.records, artifact.producer, {}}, absolute);
    }
    artifact.records.erase(std::remove_if(artifact.records.begin(), artifact.records.end(),
                                          [&](const KernelRecord &r) { return r.name != info.function; }),
                           artifact.records.end());
    if (artifact.records.empty())
      throw Error(code.front() + ": no kernel " + info.function + ", which " + meta_path + " names");
    for (const KernelRecord &r : artifact.records) {
      if (r.arch != arch)
        throw Error(code.front() + ": kernel " + info.function + " is compiled for " + r.arch + ", its metadata says " +
                    arch);
      // The code object's wavefront size is the one the GPU runs: a launch of
      // num_warps x another warp size is no launch of this code.
      if (r.has(Field::WaveSize) && r.value(Field::WaveSize) != info.warp_size)
        throw Error(code.front() + ": kernel " + info.function + " is compiled for wave" +
                    std::to_string(r.value(Field::WaveSize)) + ", its metadata says warp_size " +
                    std::to_string(info.warp_size) + ": Triton's launch of num_warps " +
                    std::to_string(info.num_warps) + " cannot be known");
    }
  } else if (fs::path(code.front()).extension() == ".cubin") {
    // NVIDIA: the cubin through the cubin reader (src/backends/nvidia/cubin.cpp).
    std::string producer;
    std::vector<FactSet> sets = readFileFacts(code.front(), "", producer);
    artifact = checkArtifact(std::move(sets), code.front(), producer);
    artifact.records.erase(std::remove_if(artifact.records.begin(), artifact.records.end(),
                                          [&](const KernelRecord &r) { return r.name != info.function; }),
                           artifact.records.end());
    if (artifact.records.empty())
      throw Error(code.front() + ": no kernel " + info.function + ", which " + meta_path + " names");
    // The cubin's own arch wins (sm_90a is sm_90's model); metadata naming another is not this code's.
    for (const KernelRecord &r : artifact.records) {
      std::string family = r.arch;  // "sm_90a" (arch-specific features) is Triton's target 90
      while (!family.empty() && std::isalpha(static_cast<unsigned char>(family.back()))) family.pop_back();
      if (family != arch)
        throw Error(code.front() + ": kernel " + info.function + " is compiled for " + r.arch + ", its metadata says " +
                    arch);
    }
  } else {
    // A .ptx without its .cubin: PTX has no register figures. The record says
    // what Triton's metadata says and leaves the registers unknown (never a
    // guess): the gate cannot pass it.
    KernelFacts facts;
    facts.name = info.function;
    facts.arch = arch;
    facts.vendor = tritonVendor(info);
    facts.file = code.front();
    facts.missing = {Field::Registers};
    FactSet set{"triton metadata", {facts}, {}};
    artifact = checkArtifact({set}, code.front(), "");
  }
  auto shared = std::make_shared<const TritonInfo>(std::move(info));
  for (KernelRecord &r : artifact.records) {
    r.triton = shared;
    r.file = code.front();
  }
  return artifact;
}

LaunchOverrides tritonLaunch(const TritonInfo &info) {
  LaunchOverrides launch;
  launch.block_size = info.blockSize();
  launch.block_size_source = BlockSizeSource::TritonMetadata;
  if (info.backend == "hip")
    launch.dynamic_lds = static_cast<int>(info.shared);
  else
    launch.dynamic_shared = static_cast<int>(info.shared);
  launch.dynamic_source = DynamicSharedSource::TritonMetadata;
  return launch;
}

// Two entries of one run with one key (an autotuner that varied only
// waves_per_eu, kpack or matrix_instr_nonkdim; a cache holding two Triton
// versions' compiles): the options that tell them apart join their keys.
void separateKeys(Report &report) {
  std::map<std::pair<std::string, std::string>, std::vector<std::size_t>> by_key;
  for (std::size_t k = 0; k < report.kernels.size(); ++k)
    if (const auto &t = report.kernels[k].record.triton) by_key[{t->key, report.kernels[k].record.arch}].push_back(k);
  for (const auto &[key, kernels] : by_key) {
    if (kernels.size() < 2) continue;
    for (std::size_t k : kernels) {
      TritonInfo info = *report.kernels[k].record.triton;
      auto opt = [](const char *name, const std::optional<int> &v) {
        return v ? std::string(" ") + name + "=" + std::to_string(*v) : std::string();
      };
      info.key.pop_back();  // the closing ']'
      info.key += opt("waves_per_eu", info.waves_per_eu) + opt("matrix_instr_nonkdim", info.matrix_instr_nonkdim) +
                  opt("kpack", info.kpack) + opt("maxnreg", info.maxnreg) +
                  (info.version.empty() ? "" : " triton=" + info.version) + "]";
      report.kernels[k].record.triton = std::make_shared<const TritonInfo>(std::move(info));
    }
  }
  // Kernels that still share a key (and arch) but differ in `part` of their
  // Triton info get that part in their key, with the warning that says why.
  // The warning's subject is the entry, its cause the rest: many entries
  // with one cause are said once (report/said_once.h).
  auto separate = [&](std::string TritonInfo::*part, const char *word, const std::string &why) {
    std::map<std::pair<std::string, std::string>, std::set<std::string>> values;
    for (const KernelReport &k : report.kernels)
      if (const auto &t = k.record.triton) values[{t->key, k.record.arch}].insert((*t).*part);
    for (KernelReport &k : report.kernels) {
      const auto &t = k.record.triton;
      if (!t) continue;
      const std::set<std::string> &differing = values[{t->key, k.record.arch}];
      // A part some of them lack (an entry without IR beside one with it) tells nothing apart.
      if (differing.size() < 2 || differing.count("")) continue;
      TritonInfo info = *t;
      if (!why.empty())
        report.warnings.push_back(k.record.file + " (" + info.function + " [" + k.record.arch + "]): " + why);
      info.key.pop_back();
      info.key += std::string(" ") + word + "=" + info.*part + "]";
      k.record.triton = std::make_shared<const TritonInfo>(std::move(info));
    }
  };
  // Entries alike in every option and in the IR's parameters and shapes
  // whose IR differs: a constexpr that changes no shape (vLLM's fp8 group
  // quant with and without use_ue8m0). The IR's digest tells them apart and
  // stays across recompiles; no warning, as the key is as stable as any.
  separate(&TritonInfo::ir_digest, "ir", "");
  // Copies of one compile (one hash) have one set of figures and are one
  // baseline entry; two compiles that differ in something the metadata does
  // not say are told apart by their hash (a key that then changes with it).
  separate(&TritonInfo::hash, "hash",
           "another cache entry has the same specialisation, options and IR (or lacks IR to tell them apart); "
           "its baseline key names its cache hash, which a recompile changes");
  // Entries whose metadata is identical (hash included) but whose code differs
  // (an edited or swapped code file) are two kernels with two sets of figures:
  // merging them would drop one from the baseline.
  separate(&TritonInfo::code_digest, "code",
           "another cache entry has the same metadata but different code; its baseline key names a digest of its "
           "code");
}

}  // namespace

bool walksAsTree(const std::string &path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return true;
  return tritonStemOf(path).has_value();
}

bool isArtifactInput(const std::string &path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return true;
  const std::string ext = fs::path(path).extension().string();
  for (const char *e : {".hsaco", ".co", ".amdgcn", ".cubin", ".fatbin"})
    if (ext == e) return true;
  // A build's own output named by the user (the .s --save-temps leaves, an
  // object or executable with device code): what its bytes are, as the walk
  // tells them, not a source to compile.
  for (const char *e : {".s", ".asm", ".o", ".out", ".so", ""})
    if (ext == e && isFile(path)) {
      const FileKind kind = classify(path);
      return kind == FileKind::Artifact || kind == FileKind::Nvidia || kind == FileKind::Intel;
    }
  return false;
}

ParsedInputs parseInputs(const std::vector<std::string> &inputs, const ParseOptions &options) {
  if (inputs.empty()) throw Error("no input files");
  if (!options.log_arch.empty()) requireAmdArch(options.log_arch);
  ParsedInputs out;
  Report &report = out.report;
  WalkSummary &walk = out.walk;
  std::vector<Item> items;
  std::vector<std::size_t> input_of;  // item -> index into inputs
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::string &input = inputs[i];
    std::error_code ec;
    if (input.empty()) throw Error("an input file name is empty");
    if (fs::is_directory(input, ec)) {
      walk.walked = true;
      const std::size_t before = items.size(), not_read = walk.not_read.size();
      Walker(items, walk, options.progress).walk(input);
      if (items.size() == before && walk.not_read.size() == not_read)
        throw Error(input +
                    ": no artifact regscope reads in this directory (.s, code objects, build logs with "
                    "resource remarks, cubins, fatbins, ptxas -v logs, Triton cache entries)");
    } else if (std::string why = notARegularFile(input); !why.empty()) {
      throw Error(why);
    } else if (std::optional<std::string> stem = tritonStemOf(input)) {
      Item item;
      item.triton = true;
      item.named = true;
      item.dir = fs::path(input).parent_path().string();
      if (item.dir.empty()) item.dir = ".";
      item.stem = *stem;
      item.path = (fs::path(item.dir) / (*stem + ".json")).string();
      item.only_code = input;
      items.push_back(std::move(item));
    } else {
      Item item;
      item.path = input;
      item.named = true;
      items.push_back(std::move(item));
    }
    input_of.resize(items.size(), i);
  }
  if (options.progress && walk.directories >= 64) std::cerr << "\r\033[K" << std::flush;

  std::optional<ResultCache> cache;
  if (!options.cache_dir.empty()) cache.emplace(options.cache_dir);
  // Read every item, `parallel` at once; results in the walk's order.
  std::vector<ItemResult> results(items.size());
  std::vector<std::exception_ptr> failures(items.size());
  std::atomic<std::size_t> next{0}, done{0};
  std::mutex progress_mutex;
  // The progress line, "[COUNT] path", in place of the one before it.
  auto progressLine = [&](const std::string &count, const std::string &path) {
    std::lock_guard<std::mutex> lock(progress_mutex);
    std::cerr << "\r\033[K[" << count << "] " << escape::terminal(path) << std::flush;
  };
  // Fewer than 100 items show no count: a large binary among them (a wheel's
  // libtorch_cuda.so, 456 MB, seconds to walk) shows how far its walk is.
  constexpr std::size_t kLargeBinary = std::size_t{32} << 20;
  std::atomic<bool> walk_shown{false};
  auto walkProgress = [&](const std::string &path) -> ReadProgress {
    if (!options.progress || items.size() >= 100) return {};
    // Where in the file the walk is, in MB ("[120/456 MB]"): its device code
    // is not all of it, so no percent of the work is claimed.
    return [&, path, shown = std::size_t{0}](std::size_t walked, std::size_t size) mutable {
      constexpr std::size_t kMb = 1000 * 1000;
      if (size < kLargeBinary || walked / kMb == shown) return;
      shown = walked / kMb;
      walk_shown = true;
      progressLine(std::to_string(shown) + "/" + std::to_string(size / kMb) + " MB", path);
    };
  };
  auto worker = [&] {
    for (std::size_t i; (i = next++) < items.size();) {
      if (signalPending()) break;
      const Item &item = items[i];
      results[i].input = item.triton && item.only_code.empty() ? item.dir : item.path;
      try {
        results[i].artifact = item.triton ? readTritonEntry(item, cache ? &*cache : nullptr, results[i].triton) : [&] {
          if (!item.error.empty()) throw Error(item.error);
          std::string producer;
          std::vector<FactSet> sets = readFileFacts(item.path, options.log_arch, producer, walkProgress(item.path));
          return checkArtifact(std::move(sets), item.path, std::move(producer));
        }();
      } catch (const Error &e) {
        results[i].error = e.what();
      } catch (...) {
        failures[i] = std::current_exception();
      }
      const std::size_t finished = ++done;
      if (options.progress && items.size() >= 100 && (finished % 16 == 0 || finished == items.size())) {
        progressLine(std::to_string(finished) + "/" + std::to_string(items.size()), results[i].input);
      }
    }
  };
  const unsigned threads = std::max(1u, std::min<unsigned>(options.parallel, items.size()));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread &t : pool) t.join();
  if (options.progress && (items.size() >= 100 || walk_shown)) std::cerr << "\r\033[K" << std::flush;
  for (const std::exception_ptr &failure : failures)
    if (failure) std::rethrow_exception(failure);
  throwIfInterrupted();

  for (std::size_t i = 0; i < items.size(); ++i) {
    ItemResult &result = results[i];
    const Item &item = items[i];
    auto fail = [&](const std::string &message) {
      if (item.named) throw Error(message);
      report.errors.push_back({result.input, "", message});
    };
    if (!result.error.empty()) {
      fail(result.error);
      continue;
    }
    Artifact &artifact = result.artifact;
    walk.triton_ir_cleaned += result.triton.ir_cleaned;
    walk.triton_without_source += result.triton.ir_cleaned && result.triton.without_source;
    for (const KernelRecord &r : artifact.records)
      if (tritonRegistersUnread(r)) ++walk.triton_cubins_not_read;
    if (report.compiler_version.empty()) report.compiler_version = artifact.producer;
    for (const std::string &w : artifact.warnings) report.warnings.push_back(result.input + ": " + w);
    const std::size_t first = report.kernels.size();
    try {
      addKernels(report, std::move(artifact.records),
                 [&](const KernelRecord &r) { return r.triton ? tritonLaunch(*r.triton) : options.launch; });
    } catch (const Error &e) {
      report.kernels.resize(first);
      fail(result.input + ": " + e.what());
      continue;
    }
    std::string impossible;
    for (std::size_t k = first; k < report.kernels.size(); ++k)
      if (const KernelReport &kr = report.kernels[k]; !kr.impossible.empty() && kr.launch.dynamic_shared == 0)
        impossible = result.input + ": kernel " + kr.record.demangled + " [" + kr.record.arch + "]: " + kr.impossible +
                     ": the file is damaged or not what the compiler wrote";
    if (!impossible.empty()) {
      report.kernels.resize(first);
      fail(impossible);
      continue;
    }
    for (std::size_t k = first; k < report.kernels.size(); ++k)
      report.kernels[k].display_file = report.kernels[k].record.file;
    (item.triton ? walk.triton_entries : walk.files_read) += 1;  // read: the summary's count, its errors apart
  }
  // What the error summary counts over: every artifact tried, read or failed (a directory is none).
  if (walk.walked) report.artifacts = items.size();
  separateKeys(report);
  tellTwinsApart(report);
  if (!options.nvdisasm.empty()) readNvidiaLoopSpills(report, options.nvdisasm, options.timeout_seconds);
  for (const std::string &input : inputs) {
    report.inputs.push_back(input);
    std::error_code ec;
    report.input_paths.push_back(fs::absolute(input, ec).lexically_normal().string());
  }
  return out;
}

}  // namespace regscope
