// `regscope parse`: the collect -> merge -> model pipeline over artifacts
// that already exist, with no compiler run.
#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "artifact_file.h"
#include "jobs.h"
#include "regscope/backends/amd/collect.h"
#include "regscope/backends/intel/collect.h"
#include "regscope/backends/nvidia/collect.h"
#include "regscope/backends/nvidia/cubin.h"
#include "regscope/collect/collect.h"
#include "regscope/pipeline/analyze.h"
#include "regscope/pipeline/parse_tree.h"
#include "regscope/support/chunks.h"
#include "regscope/support/error.h"
#include "regscope/support/files.h"
#include "regscope/support/process.h"
#include "regscope/target/amdgpu.h"
#include "regscope/target/intel.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

enum class Kind { CodeObject, Assembly, RemarksYaml, Log };

// What the first bytes say: a binary or an optimisation record; nullopt for
// a text, a build log unless it holds assembly directives.
std::optional<Kind> sniffHead(std::string_view head) {
  if (head.rfind("\x7f"
                 "ELF",
                 0) == 0 ||
      startsOffloadBundle(head) || head.rfind("\x50\xed\x55\xba", 0) == 0)  // or a fatbin
    return Kind::CodeObject;
  if (head.rfind("--- !", 0) == 0) return Kind::RemarksYaml;
  return std::nullopt;
}

// Directives only AMDGPU assembly holds: a text with one anywhere is a .s.
constexpr std::string_view kAsmMarkers[] = {".amdgcn_target", ".amdgpu_metadata", ".amdhsa_kernel"};
constexpr std::size_t kLongestMarker = 16;

// One pass, by memchr for the '.' each marker starts with (three finds over a
// large log cost as much as parsing it).
bool holdsAsmMarker(std::string_view text) {
  for (std::size_t at = text.find('.'); at != std::string_view::npos; at = text.find('.', at + 1)) {
    const std::string_view rest = text.substr(at);
    for (std::string_view marker : kAsmMarkers)
      if (rest.rfind(marker, 0) == 0) return true;
  }
  return false;
}

// nvcc -Xptxas -v output: a line that begins "ptxas info" (a source or a
// note that merely quotes one does not count).
bool holdsPtxasInfo(std::string_view text) {
  for (std::size_t at = text.find("ptxas info"); at != std::string_view::npos; at = text.find("ptxas info", at + 1))
    if (at == 0 || text[at - 1] == '\n') return true;
  return false;
}

Kind sniff(std::string_view bytes) {
  if (std::optional<Kind> kind = sniffHead(bytes)) return *kind;
  return holdsAsmMarker(bytes) ? Kind::Assembly : Kind::Log;
}

// Runs a parser, naming the file in any error it raises.
template <typename Parse>
auto inFile(const std::string &file, Parse parse) {
  try {
    return parse();
  } catch (const Error &e) {
    throw Error(file + ": " + e.what());
  }
}

// "<stem>-hip-amdgcn-amd-amdhsa-gfx90a.opt.yaml" names its arch.
std::string archInRecordName(const std::string &file) {
  const std::string name = fs::path(file).filename().string();
  const std::size_t at = name.rfind("-amdgcn-amd-amdhsa-");
  if (at == std::string::npos) return "";
  const std::size_t end = name.find(".opt.yaml");
  return name.substr(at + 19, end == std::string::npos || end < at + 19 ? std::string::npos : end - at - 19);
}

// A log of `--offload-arch=A,B` holds a block per arch for each kernel, and
// no line says which arch a block is for. Identical blocks are one kernel;
// different ones cannot be told apart, so guessing would report one arch's
// figures under another's name. A block is a kernel's by its name and where
// the remark points: a CI log of many files holds same-named kernels of
// different files (two TUs' `static __global__ void transpose`), which are
// different kernels, not different archs.
FactSet oneBlockPerKernel(FactSet remarks) {
  std::vector<KernelFacts> kept;
  std::map<std::tuple<std::string, std::string, int>, std::size_t> first;  // (name, file, line) -> index in kept
  for (KernelFacts &facts : remarks.kernels) {
    auto [it, inserted] = first.try_emplace({facts.name, facts.file, facts.line}, kept.size());
    if (inserted) {
      kept.push_back(std::move(facts));
      continue;
    }
    if (kept[it->second].values != facts.values)
      throw Error("kernel " + facts.name +
                  " has several remark blocks with different figures: the log holds more than one arch "
                  "(--offload-arch=A,B) and does not say which block is which; parse each arch's .s or .opt.yaml "
                  "(hipcc -save-temps) instead");
  }
  remarks.kernels = std::move(kept);
  return remarks;
}

std::vector<FactSet> codeObjectFacts(std::string_view bytes,
                                     const std::function<void(std::string_view)> &consumed = {}) {
  std::vector<FactSet> sets;
  std::vector<CodeObject> objects = parseCodeObjects(bytes, consumed);
  for (CodeObject &co : objects) sets.push_back(std::move(co.facts));
  bool any = false;
  for (const FactSet &set : sets) any |= !set.kernels.empty();
  if (!any) throw Error("no AMDGPU kernels in this file");
  return sets;
}

// NVIDIA cubins, fatbins, and host files with .nv_fatbin (src/backends/nvidia/cubin.cpp); nullopt for anything else.
std::optional<std::vector<FactSet>> nvidiaFacts(std::string_view bytes, std::string &producer,
                                                const ConsumedBytes &consumed = {}) {
  if (!isNvidiaBinary(bytes)) return std::nullopt;
  return nvidiaBinaryFacts(bytes, producer, consumed);
}

// A host object or executable holding both .hip_fatbin and .nv_fatbin (a
// project built for both vendors): the AMD kernels and the NVIDIA ones, never
// only the first vendor's.
std::vector<FactSet> withNvidiaBesideAmd(std::string_view bytes, std::vector<FactSet> amd, std::string &producer) {
  if (!holdsNvidiaBesideAmd(bytes)) return amd;
  std::vector<FactSet> nvidia = nvidiaBinaryFacts(bytes, producer);
  amd.insert(amd.end(), std::make_move_iterator(nvidia.begin()), std::make_move_iterator(nvidia.end()));
  return amd;
}

FactSet asmFacts(AsmFile assembly, std::string &producer) {
  producer = assembly.producer;
  if (assembly.facts.kernels.empty()) throw Error("no AMDGPU kernels in this assembly");
  return std::move(assembly.facts);
}

FactSet yamlFacts(std::string_view bytes, const std::string &file, const std::string &log_arch) {
  const std::string arch = log_arch.empty() ? archInRecordName(file) : log_arch;
  if (arch.empty()) throw Error("the file name does not say the arch; pass --arch");
  FactSet set = parseRemarkYaml(bytes, arch);
  if (set.kernels.empty()) throw Error("no kernel-resource-usage remarks in this record");
  return set;
}

// A ptxas -v log: each entry function's figures for the sm_ its "Compiling
// entry function" line names (src/backends/nvidia/ptxas.cpp). A kernel no
// such line names (nvlink's lines) has no arch, and checkedArtifact refuses it.
FactSet ptxasLogFacts(std::string_view text) {
  FactSet set = parsePtxas(text, "");
  bool any = false;
  for (const KernelFacts &k : set.kernels) any |= k.is_kernel;
  if (!any) throw Error("no entry function in these ptxas lines");
  return set;
}

// An Intel zebin: the device from its product-family note, each kernel's GRF
// mode from its grf_count (the .ze_info, src/backends/intel/ocloc.cpp).
// Spills are not in ocloc 22.43's .ze_info: they stay unknown, never 0.
std::optional<FactSet> zebinFacts(std::string_view bytes, std::string &producer) {
  if (isIntelOpenClElf(bytes))
    throw Error(
        "an Intel OpenCL ELF (ocloc's legacy patch-token binary, which regscope does not read): compile with "
        "ocloc --format zebin, or give regscope the .cl");
  if (!isIntelZebin(bytes)) return std::nullopt;
  const std::optional<int> family = zebinProductFamily(bytes);
  if (!family)
    throw Error("an Intel zebin without a product-family note (.note.intelgt.compat): its device is unknown");
  const std::optional<std::string_view> device = intelDeviceByProductFamily(*family);
  if (!device)
    throw Error("an Intel zebin for product family " + std::to_string(*family) +
                ", a device regscope does not know (known: " + knownIntelDeviceList() + ")");
  const IntelDevice &row = requireIntelDevice(*device);
  FactSet set{"zebin", parseZebin(bytes, std::string(*device)), {}};
  for (KernelFacts &k : set.kernels) {
    if (!k.get(Field::SpillGrfs) && !k.get(Field::SpillBytes)) k.missing.push_back(Field::SpillGrfs);
    const std::optional<std::int64_t> grf = k.get(Field::GrfCount);
    if (!grf) continue;  // unknown: the record says so
    if (*grf == row.grf_large && row.threads_per_eu_large > 0 && row.grf_large != row.grf_small)
      k.arch = intelTargetName({std::string(*device), GrfMode::Large});
    else if (*grf != row.grf_small)
      throw Error("kernel " + k.name + ": grf_count " + std::to_string(*grf) + " is neither " + std::string(*device) +
                  "'s small (" + std::to_string(row.grf_small) + ") nor large (" + std::to_string(row.grf_large) +
                  ") GRF mode");
  }
  producer = "zebin";
  return set;
}

FactSet logFacts(FactSet remarks, const std::string &log_arch) {
  if (remarks.kernels.empty())
    throw Error("no kernel-resource-usage remarks (compile with -Rpass-analysis=kernel-resource-usage)");
  if (log_arch.empty()) throw Error("remarks do not say which arch they are for; pass --arch (e.g. --arch gfx90a)");
  return oneBlockPerKernel(std::move(remarks));
}

std::vector<FactSet> collectFacts(std::string_view bytes, const std::string &file, const std::string &log_arch,
                                  std::string &producer) {
  switch (sniff(bytes)) {
    case Kind::CodeObject:
      if (std::optional<FactSet> intel = zebinFacts(bytes, producer)) return {std::move(*intel)};
      if (std::optional<std::vector<FactSet>> nvidia = nvidiaFacts(bytes, producer)) return std::move(*nvidia);
      return withNvidiaBesideAmd(bytes, codeObjectFacts(bytes), producer);
    case Kind::Assembly:
      return {asmFacts(parseAsm(bytes), producer)};
    case Kind::RemarksYaml:
      return {yamlFacts(bytes, file, log_arch)};
    case Kind::Log: {
      FactSet remarks = parseRemarkText(bytes, log_arch);
      if (remarks.kernels.empty() && holdsPtxasInfo(bytes)) return {ptxasLogFacts(bytes)};
      return {logFacts(std::move(remarks), log_arch)};
    }
  }
  return {};
}

// collectFacts over a file, holding what the parsers keep rather than the
// file: a binary is mapped (its parser touches headers and notes only); a
// text is read in chunks, as a build log, until a chunk shows it is a .s,
// which is then read twice more, line by line. A damaged remark is reported
// only once no chunk has turned out to be assembly, as the whole-text sniff
// did.
std::vector<FactSet> collectFileFacts(const std::string &file, const std::string &log_arch, std::string &producer,
                                      const ReadProgress &progress = {}) {
  FileChunks chunks(file);
  std::string_view chunk = chunks.next();
  if (std::optional<Kind> kind = sniffHead(chunk)) {
    if (*kind == Kind::CodeObject) {
      // Pages behind the walk (AMD bundles, NVIDIA fatbin entries) are dropped
      // every 16 MiB: after each bundle, the kernel's splitting of huge pages
      // took half the time. How far the walk is goes to `progress`.
      const MappedFile mapped(file);
      if (std::optional<FactSet> intel = zebinFacts(mapped.bytes(), producer)) return {std::move(*intel)};
      std::size_t dropped = 0;
      const ConsumedBytes behind = [&](std::string_view done) {
        const std::string_view all = mapped.bytes();
        if (done.data() < all.data() || done.data() + done.size() > all.data() + all.size()) return;
        const std::size_t end = static_cast<std::size_t>(done.data() + done.size() - all.data());
        if (progress) progress(end, all.size());
        if (end < dropped || end - dropped < (std::size_t{16} << 20)) return;
        mapped.drop(all.substr(dropped, end - dropped));
        dropped = end;
      };
      if (std::optional<std::vector<FactSet>> nvidia = nvidiaFacts(mapped.bytes(), producer, behind))
        return std::move(*nvidia);
      return withNvidiaBesideAmd(mapped.bytes(), codeObjectFacts(mapped.bytes(), behind), producer);
    }
    return {yamlFacts(readFile(file), file, log_arch)};
  }
  RemarkTextParser remarks(log_arch);
  LineSplitter lines;
  auto feed = [&](std::string_view line) { remarks.line(line); };
  std::optional<Error> damaged;
  bool ptxas = false;  // a line begins "ptxas info": a ptxas -v log, if no remark is found
  std::string seam;    // the end of the text before this chunk, so that a marker cut in two is found
  for (; !chunk.empty(); chunk = chunks.next()) {
    seam.append(chunk.substr(0, kLongestMarker - 1));
    if (holdsAsmMarker(seam) || holdsAsmMarker(chunk))
      return {asmFacts(parseAsm([&](const std::function<void(std::string_view)> &fn) { forEachLineOfFile(file, fn); }),
                       producer)};
    if (chunk.size() >= kLongestMarker - 1)
      seam.assign(chunk.substr(chunk.size() - (kLongestMarker - 1)));
    else if (seam.size() > kLongestMarker - 1)
      seam.erase(0, seam.size() - (kLongestMarker - 1));  // seam ends with chunk
    ptxas = ptxas || holdsPtxasInfo(chunk);
    if (damaged) continue;
    try {
      lines.feed(chunk, feed);
    } catch (const Error &e) {
      damaged = e;
    }
  }
  if (damaged) throw *damaged;
  lines.finish(feed);
  FactSet found = remarks.finish();
  if (found.kernels.empty() && ptxas) return {ptxasLogFacts(readFile(file))};
  return {logFacts(std::move(found), log_arch)};
}

// A figure no compiler prints (1e23 VGPRs, an expression that overflows):
// the file is damaged or crafted, and `parse` says so instead of modelling a
// made-up number. (Expressions over symbols defined elsewhere are not
// damage: they stay "unresolved until link".)
void requireReadableFigures(const KernelRecord &record) {
  if (!record.notes.empty()) throw Error("kernel " + record.demangled + ": " + record.notes.front());
  for (const FieldInfo &info : fieldTable()) {
    if (!record.has(info.field)) continue;
    const std::int64_t v = record.value(info.field);
    if (v < 0 || v > kMaxModelFigure)
      throw Error("kernel " + record.demangled + ": " + info.key + " " + std::to_string(v) +
                  " is outside what any target allows");
  }
}

// parse is the user's question about these files: a file whose every kernel
// is for an arch regscope cannot model is an error (exit 2), as it is for
// analyze. A library that also carries a newer arch (libtorch_cuda.so's one
// sm_121a cubin among 2,789) is read: those kernels keep their figures, their
// occupancy is unknown, and the report says so once per arch.
void requireKnownArch(const std::vector<KernelRecord> &records) {
  std::string first_unknown;
  for (const KernelRecord &record : records) {
    if (record.arch.empty()) throw Error("the file does not say which arch kernel " + record.demangled + " is for");
    std::string unknown = backendFor(record.vendor).unknownTarget(record);
    if (unknown.empty()) return;
    if (first_unknown.empty()) first_unknown = std::move(unknown);
  }
  if (!first_unknown.empty()) throw Error(first_unknown);
}

// The records of one artifact's facts, checked.
// One record per kernel. A log of many files may name one kernel symbol in
// several files (oneBlockPerKernel kept each block by its file:line): those
// are records of their own, not one kernel's figures from several sources.
//
// Likewise two cubins (or code objects) of one library that hold a kernel of
// one name and arch are two compiles, not two readings of one figure:
// libtorch_cuda.so holds a cub EmptyKernel in 36 cubins per arch (figures
// alike: one record) and 39 kernels whose copies differ (92 and 122
// registers: a record each, named FILE#2, FILE#3 in the order met, where
// merging them made every differing figure unknown).
std::vector<KernelRecord> recordsOf(std::vector<FactSet> sets, const std::string &name) {
  for (const FactSet &set : sets) {
    std::set<std::string> seen;
    for (const KernelFacts &facts : set.kernels)
      if (!seen.insert(facts.name).second) {
        std::vector<KernelRecord> records;
        for (const FactSet &each : sets)
          for (const KernelFacts &k : each.kernels)
            for (KernelRecord &r : mergeFacts({FactSet{each.source, {k}, {}}})) records.push_back(std::move(r));
        return records;
      }
  }
  // The distinct figures each (kernel, arch, source kind) has across the sets
  // (keyed by views of the sets' names: a library's are not copied).
  using Key = std::tuple<std::string_view, std::string_view, std::string_view>;
  std::map<Key, std::vector<const FieldValues *>> variants;
  bool differ = false;
  for (const FactSet &set : sets)
    for (const KernelFacts &k : set.kernels) {
      std::vector<const FieldValues *> &seen = variants[{k.name, k.arch, set.source}];
      if (std::none_of(seen.begin(), seen.end(), [&](const FieldValues *v) { return *v == k.values; })) {
        seen.push_back(&k.values);
        differ |= seen.size() > 1;
      }
    }
  if (!differ) return mergeFacts(sets);  // every copy agrees (the usual library)
  // One group per distinct compile of a kernel whose copies differ, in the
  // order of its key, then of its variants; where each fact goes (-1: merged
  // with its agreeing copies). Worked out before any fact moves, as the keys
  // view the facts' names.
  std::vector<std::size_t> variant_of;  // group -> which variant of its key (the 2nd is FILE#2)
  std::map<Key, std::size_t> first_group;
  for (const auto &[key, seen] : variants)
    if (seen.size() > 1) {
      first_group[key] = variant_of.size();
      for (std::size_t i = 0; i < seen.size(); ++i) variant_of.push_back(i);
    }
  std::vector<std::vector<std::ptrdiff_t>> group_of(sets.size());
  for (std::size_t s = 0; s < sets.size(); ++s)
    for (const KernelFacts &k : sets[s].kernels) {
      const Key key{k.name, k.arch, sets[s].source};
      auto group = first_group.find(key);
      if (group == first_group.end()) {
        group_of[s].push_back(-1);
        continue;
      }
      const std::vector<const FieldValues *> &seen = variants[key];
      const auto variant = std::find_if(seen.begin(), seen.end(), [&](const FieldValues *v) { return *v == k.values; });
      group_of[s].push_back(static_cast<std::ptrdiff_t>(group->second + (variant - seen.begin())));
    }
  variants.clear();
  first_group.clear();
  std::vector<FactSet> merged;                  // facts whose copies agree: merged as before
  std::vector<FactSet> own(variant_of.size());  // one set per distinct compile
  for (std::size_t s = 0; s < sets.size(); ++s) {
    FactSet kept{sets[s].source, {}, std::move(sets[s].warnings)};
    for (std::size_t k = 0; k < sets[s].kernels.size(); ++k) {
      const std::ptrdiff_t group = group_of[s][k];
      if (group < 0) {
        kept.kernels.push_back(std::move(sets[s].kernels[k]));
        continue;
      }
      own[group].source = sets[s].source;
      own[group].kernels.push_back(std::move(sets[s].kernels[k]));
    }
    merged.push_back(std::move(kept));
  }
  sets.clear();
  std::vector<KernelRecord> records = mergeFacts(merged);
  merged.clear();
  for (std::size_t group = 0; group < own.size(); ++group) {
    std::vector<FactSet> one;
    one.push_back(std::move(own[group]));
    for (KernelRecord &r : mergeFacts(one)) {
      if (variant_of[group] > 0)
        r.file = (r.file.empty() ? name : r.file) + "#" + std::to_string(variant_of[group] + 1);
      records.push_back(std::move(r));
    }
  }
  return records;
}

Artifact checkedArtifact(std::vector<FactSet> sets, const std::string &name, std::string producer) {
  Artifact artifact;
  artifact.producer = std::move(producer);
  for (const FactSet &set : sets)
    artifact.warnings.insert(artifact.warnings.end(), set.warnings.begin(), set.warnings.end());
  artifact.records = recordsOf(std::move(sets), name);
  requireKnownArch(artifact.records);
  for (KernelRecord &record : artifact.records) {
    requireReadableFigures(record);
    if (record.file.empty()) record.file = name;  // code objects and .s name no source
  }
  return artifact;
}

}  // namespace

// NEO's OpenCL ELF (ocl_elf.h): no machine, e_type 0xff01 (source) to 0xff05
// (debug); ocloc 22.43 writes it for pvc unless asked for --format zebin.
bool isIntelOpenClElf(std::string_view bytes) {
  if (bytes.size() < 20 ||
      bytes.rfind("\x7f"
                  "ELF",
                  0) != 0 ||
      bytes[5] != 1)
    return false;
  const unsigned type = static_cast<unsigned char>(bytes[16]) | static_cast<unsigned char>(bytes[17]) << 8;
  const unsigned machine = static_cast<unsigned char>(bytes[18]) | static_cast<unsigned char>(bytes[19]) << 8;
  return machine == 0 && type >= 0xff01 && type <= 0xff05;
}

bool isIntelZebin(std::string_view bytes) {
  if (bytes.size() < 20 || bytes.rfind("\x7f"
                                       "ELF",
                                       0) != 0)
    return false;
  const bool little = bytes[5] == 1;
  const unsigned char lo = static_cast<unsigned char>(bytes[little ? 18 : 19]);
  const unsigned char hi = static_cast<unsigned char>(bytes[little ? 19 : 18]);
  return (lo | hi << 8) == 205;  // EM_INTELGT
}

bool isPtxasLog(std::string_view text) { return holdsPtxasInfo(text); }

Artifact collectArtifact(std::string_view bytes, const std::string &name, const std::string &log_arch) {
  return inFile(name, [&] {
    std::string producer;
    std::vector<FactSet> sets = collectFacts(bytes, name, log_arch, producer);
    return checkedArtifact(std::move(sets), name, std::move(producer));
  });
}

std::vector<FactSet> readFileFacts(const std::string &file, const std::string &log_arch, std::string &producer,
                                   const ReadProgress &progress) {
  return inFile(file, [&] { return collectFileFacts(file, log_arch, producer, progress); });
}

Artifact checkArtifact(std::vector<FactSet> sets, const std::string &name, std::string producer) {
  return inFile(name, [&] { return checkedArtifact(std::move(sets), name, std::move(producer)); });
}

Report parseArtifacts(const std::vector<std::string> &files, const std::string &log_arch,
                      const LaunchOverrides &launch) {
  return parseArtifacts(files, log_arch, launch, nullptr);
}

Report parseArtifacts(const std::vector<std::string> &files, const std::string &log_arch, const LaunchOverrides &launch,
                      const ArtifactObserver &observe) {
  if (files.empty()) throw Error("no input files");
  // Directories and Triton cache entries: parse_tree.cpp (every other input is read below, as before).
  if (std::any_of(files.begin(), files.end(), [](const std::string &f) { return walksAsTree(f); })) {
    ParseOptions options;
    options.log_arch = log_arch;
    options.launch = launch;
    if (!observe) return parseInputs(files, options).report;
    // A shard (--shard K/N) needs each named input's own part, a directory's
    // whole walk included: one walk per input, each observed as one artifact
    // (before, a directory was never observed and merge found its shard empty).
    Report report;
    for (std::size_t i = 0; i < files.size(); ++i) {
      throwIfInterrupted();
      Report one = parseInputs({files[i]}, options).report;
      Artifact artifact;
      artifact.producer = one.compiler_version;
      artifact.warnings = one.warnings;
      for (const KernelReport &k : one.kernels) artifact.records.push_back(k.record);
      if (report.compiler_version.empty()) report.compiler_version = one.compiler_version;
      report.warnings.insert(report.warnings.end(), one.warnings.begin(), one.warnings.end());
      report.errors.insert(report.errors.end(), one.errors.begin(), one.errors.end());
      report.notes.insert(report.notes.end(), one.notes.begin(), one.notes.end());
      const std::size_t first = report.kernels.size();
      report.kernels.insert(report.kernels.end(), one.kernels.begin(), one.kernels.end());
      report.inputs.push_back(files[i]);
      observe(i, artifact, report, first);
    }
    return report;
  }
  if (!log_arch.empty()) requireAmdArch(log_arch);  // "unknown arch 'X'; known: ..."
  Report report;
  for (const std::string &file : files) {
    throwIfInterrupted();  // a Ctrl-C ends the run between files, not after the last of 10,000
    std::error_code ec;
    if (file.empty()) throw Error("an input file name is empty");
    if (std::string why = notARegularFile(file); !why.empty()) throw Error(why);
    Artifact artifact = inFile(file, [&] {
      std::string producer;
      std::vector<FactSet> sets = collectFileFacts(file, log_arch, producer);
      return checkedArtifact(std::move(sets), file, std::move(producer));
    });
    if (report.compiler_version.empty()) report.compiler_version = artifact.producer;
    for (const std::string &w : artifact.warnings) report.warnings.push_back(file + ": " + w);
    const std::size_t first = report.kernels.size();
    inFile(file, [&] {
      addKernels(report, artifact.records, launch);
      return 0;
    });
    // A figure the target cannot have (600 VGPRs on gfx90a, LDS over the
    // workgroup's maximum) is damage in the file, never an occupancy.
    for (std::size_t k = first; k < report.kernels.size(); ++k)
      if (const KernelReport &kr = report.kernels[k]; !kr.impossible.empty() && kr.launch.dynamic_shared == 0)
        throw Error(file + ": kernel " + kr.record.demangled + " [" + kr.record.arch + "]: " + kr.impossible +
                    ": the file is damaged or not what the compiler wrote");
    for (std::size_t k = first; k < report.kernels.size(); ++k)
      report.kernels[k].display_file = report.kernels[k].record.file;
    report.inputs.push_back(file);
    if (observe) observe(static_cast<std::size_t>(&file - files.data()), artifact, report, first);
  }
  tellTwinsApart(report);
  return report;
}

}  // namespace regscope
