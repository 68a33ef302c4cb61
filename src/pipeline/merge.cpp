// Shard reports and their merge (include/regscope/pipeline/merge.h).
#include "regscope/pipeline/merge.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/SHA256.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "jobs.h"
#include "regscope/cache/cache.h"
#include "regscope/support/error.h"
#include "regscope/support/files.h"
#include "regscope/support/plural.h"
#include "regscope/support/process.h"

namespace regscope {
namespace {

using nlohmann::json;

json launchToJson(const LaunchOverrides &l) {
  return {{"block_size", l.block_size ? json(*l.block_size) : json(nullptr)},
          {"block_size_source", static_cast<int>(l.block_size_source)},
          {"dynamic_shared", l.dynamic_shared},
          {"carveout_percent", l.carveout_percent},
          {"dynamic_lds", l.dynamic_lds},
          {"dynamic_slm", l.dynamic_slm},
          {"dynamic_source", static_cast<int>(l.dynamic_source)},
          {"block_size_unread_at", l.block_size_unread_at},
          {"dynamic_unread_at", l.dynamic_unread_at}};
}

LaunchOverrides launchFromJson(const json &j) {
  LaunchOverrides l;
  if (!j.at("block_size").is_null()) l.block_size = j.at("block_size").get<int>();
  const int block_source = j.at("block_size_source").get<int>();
  const int dynamic_source = j.at("dynamic_source").get<int>();
  if (block_source < 0 || block_source > static_cast<int>(BlockSizeSource::Default) || dynamic_source < 0 ||
      dynamic_source > static_cast<int>(DynamicSharedSource::FuncAttribute))
    throw std::runtime_error("unknown launch source");
  l.block_size_source = static_cast<BlockSizeSource>(block_source);
  l.dynamic_shared = j.at("dynamic_shared").get<int>();
  l.carveout_percent = j.at("carveout_percent").get<int>();
  l.dynamic_lds = j.at("dynamic_lds").get<int>();
  l.dynamic_slm = j.at("dynamic_slm").get<int>();
  l.dynamic_source = static_cast<DynamicSharedSource>(dynamic_source);
  // A launch that could not be evaluated stays unknown through a shard: never dropped.
  if (j.contains("block_size_unread_at")) l.block_size_unread_at = j.at("block_size_unread_at").get<std::string>();
  if (j.contains("dynamic_unread_at")) l.dynamic_unread_at = j.at("dynamic_unread_at").get<std::string>();
  return l;
}

std::string shardList(const std::vector<int> &shards, int count) {
  std::string list;
  for (int s : shards) list += (list.empty() ? "" : ", ") + std::to_string(s) + "/" + std::to_string(count);
  return list;
}

// The launch a kernel was modelled at, as the overrides that give it again.
// The dynamic size goes in each vendor's field: each model reads only its own.
LaunchOverrides overridesOf(const KernelReport &kernel) {
  LaunchOverrides l;
  if (kernel.launch.source != BlockSizeSource::Default) {
    l.block_size = kernel.launch.block_size;
    l.block_size_source = kernel.launch.source;
  }
  if (kernel.launch.dynamic_source != DynamicSharedSource::None) {
    l.dynamic_shared = l.dynamic_lds = l.dynamic_slm = kernel.launch.dynamic_shared;
    l.dynamic_source = kernel.launch.dynamic_source;
  }
  return l;
}

// The digest of what a shard holds: its fingerprint (the run) and its content,
// as the JSON it is written in (nlohmann's objects sort their keys, and a
// number dumps as it parses back), so writing and reading compute it alike.
std::string recordsDigest(const std::string &fingerprint, const json &shards, const json &compiler_path,
                          const json &config, const json &pieces) {
  const json body = {{"shards", shards}, {"compiler_path", compiler_path}, {"config", config}, {"pieces", pieces}};
  return sha256Hex(fingerprint + "\n" + body.dump(-1, ' ', false, json::error_handler_t::replace));
}

}  // namespace

std::string sha256Hex(const std::string &data) {
  llvm::SHA256 hash;
  hash.update(llvm::StringRef(data));
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

std::string ShardRun::fingerprint() const {
  return sha256Hex(
      json({command, count, regscope_version, inputs_digest, options_digest, config_digest, run_id, jobs}).dump());
}

// One job's piece, once addJobResult has added it to `report` (its kernels from `first`).
JobPiece pieceOf(std::size_t index, const std::string &key, const SourceJob &job, const JobResult &result,
                 const LaunchFor &launch, const Report &report, std::size_t first) {
  JobPiece piece;
  piece.index = index;
  piece.key = key;
  // A job whose records were all lost to errors added no input.
  if (!(result.records.empty() && !result.errors.empty()) && !report.inputs.empty()) piece.input = report.inputs.back();
  piece.source = job.path + (job.variant ? "#" + std::to_string(job.variant) : "");
  piece.producer = result.producer;
  piece.records = result.records;
  for (const KernelRecord &record : result.records) piece.launches.push_back(launch(record));
  for (std::size_t k = first; k < report.kernels.size(); ++k)
    piece.display[report.kernels[k].record.file] = report.kernels[k].display_file;
  piece.errors = result.errors;
  piece.notes = result.notes;
  piece.optimisation = result.optimisation;
  if (auto it = report.dependencies.find(piece.source); it != report.dependencies.end())
    piece.dependencies = it->second;
  return piece;
}

Report collectShardSidecars(const std::string &build_dir, const AnalyzeOptions &options, const SelectJobs &select,
                            std::vector<JobPiece> &pieces) {
  pieces.clear();
  SidecarJobs read = readSidecarJobs(build_dir, options);
  const JobSelection selection = select(read.jobs);
  Report report;
  report.compiler_path = read.preamble.compiler_path;
  if (selection.preamble) {
    JobPiece piece;
    piece.preamble = true;
    piece.key = "(the sidecars read)";
    piece.errors = read.preamble.errors;
    piece.warnings = read.preamble.warnings;
    report.errors = read.preamble.errors;
    report.warnings = read.preamble.warnings;
    pieces.push_back(std::move(piece));
  }
  for (std::size_t i = 0; i < read.jobs.size(); ++i) {
    if (!selection.mine.at(i)) continue;
    const std::size_t first = report.kernels.size();
    addJobResult(report, read.jobs[i], read.results[i], read.launches[i]);
    pieces.push_back(
        pieceOf(i + 1, selection.keys.at(i), read.jobs[i], read.results[i], read.launches[i], report, first));
  }
  return report;
}

Report analyzeShardJobs(const std::vector<SourceJob> &jobs, const std::vector<std::size_t> &global,
                        const std::vector<std::string> &keys, const AnalyzeOptions &options,
                        std::vector<JobPiece> &pieces) {
  pieces.clear();
  if (jobs.empty()) return Report{};  // more shards than inputs: this one has none
  const auto observe = [&](std::size_t i, const JobResult &result, const LaunchFor &launch, const Report &report,
                           std::size_t first) {
    pieces.push_back(pieceOf(global.at(i), keys.at(i), jobs[i], result, launch, report, first));
  };
  return analyzeJobs(jobs, options, nullptr, observe);
}

Report parseShardArtifacts(const std::vector<std::string> &files, const std::vector<std::size_t> &global,
                           const std::vector<std::string> &keys, const std::string &log_arch,
                           std::vector<JobPiece> &pieces) {
  pieces.clear();
  if (files.empty()) return Report{};  // more shards than inputs: this one has none
  const LaunchOverrides launch;
  std::size_t errors_seen = 0;
  const auto observe = [&](std::size_t i, const Artifact &artifact, const Report &report, std::size_t first) {
    JobPiece piece;
    piece.index = global.at(i);
    piece.key = keys.at(i);
    piece.input = files[i];
    piece.producer = artifact.producer;
    piece.records = artifact.records;
    // A directory's kernels were modelled at their own launch (a Triton entry's
    // num_warps): each record keeps the launch it was modelled at.
    if (report.kernels.size() - first == artifact.records.size())
      for (std::size_t k = first; k < report.kernels.size(); ++k)
        piece.launches.push_back(overridesOf(report.kernels[k]));
    else
      piece.launches.assign(artifact.records.size(), launch);
    // A walk's unreadable file is its own error, kept with the input that held it.
    piece.errors.assign(report.errors.begin() + static_cast<std::ptrdiff_t>(errors_seen), report.errors.end());
    errors_seen = report.errors.size();
    for (std::size_t k = first; k < report.kernels.size(); ++k)
      piece.display[report.kernels[k].record.file] = report.kernels[k].display_file;
    for (const std::string &w : artifact.warnings) piece.warnings.push_back(files[i] + ": " + w);
    pieces.push_back(std::move(piece));
  };
  return parseArtifacts(files, log_arch, launch, observe);
}

json shardToJson(const ShardReport &shard) {
  json pieces = json::array();
  for (const JobPiece &p : shard.pieces) {
    json records = json::array(), launches = json::array(), errors = json::array();
    for (const KernelRecord &r : p.records) records.push_back(recordToJson(r));
    for (const LaunchOverrides &l : p.launches) launches.push_back(launchToJson(l));
    for (const InputError &e : p.errors) errors.push_back({{"file", e.file}, {"arch", e.arch}, {"message", e.message}});
    pieces.push_back({{"index", p.index},
                      {"key", p.key},
                      {"input", p.input.empty() ? json(nullptr) : json(p.input)},
                      {"source", p.source},
                      {"producer", p.producer},
                      {"records", records},
                      {"launches", launches},
                      {"display", p.display},
                      {"errors", errors},
                      {"notes", p.notes},
                      {"optimisation", p.optimisation ? optimisationToJson(*p.optimisation) : json(nullptr)},
                      {"dependencies", p.dependencies},
                      {"warnings", p.warnings},
                      {"preamble", p.preamble}});
  }
  const ShardRun &run = shard.run;
  const json config = shard.config.empty() ? json(nullptr) : json(shard.config);
  return {{"format", kShardFormat},
          {"records_digest", recordsDigest(run.fingerprint(), shard.shards, shard.compiler_path, config, pieces)},
          {"command", run.command},
          {"count", run.count},
          {"shards", shard.shards},
          {"fingerprint", run.fingerprint()},
          {"regscope_version", run.regscope_version},
          {"inputs_digest", run.inputs_digest},
          {"options_digest", run.options_digest},
          {"config_digest", run.config_digest.empty() ? json(nullptr) : json(run.config_digest)},
          {"run_id", run.run_id.empty() ? json(nullptr) : json(run.run_id)},
          {"jobs", run.jobs},
          {"compiler_path", shard.compiler_path},
          {"config", config},
          {"pieces", pieces}};
}

ShardReport shardFromJson(const json &report, const std::string &path) {
  if (!report.is_object() || !report.contains("shard"))
    throw Error(path + ": not a shard report (no \"shard\" object: write it with --shard K/N --format json)");
  ShardReport shard;
  try {
    const json &j = report.at("shard");
    if (j.at("format") == 1 || (j.at("format") == kShardFormat && !j.contains("records_digest")))
      throw Error(path +
                  ": this shard report carries no digest of its records (written by a regscope before "
                  "format " +
                  std::to_string(kShardFormat) + "): re-run the shard to merge it");
    if (j.at("format") != kShardFormat)
      throw Error(path + ": shard format " + j.at("format").dump() + ", this regscope reads format " +
                  std::to_string(kShardFormat));
    ShardRun &run = shard.run;
    run.command = j.at("command");
    run.count = j.at("count");
    run.regscope_version = j.at("regscope_version");
    run.inputs_digest = j.at("inputs_digest");
    run.options_digest = j.at("options_digest");
    if (!j.at("config_digest").is_null()) run.config_digest = j.at("config_digest");
    if (!j.at("run_id").is_null()) run.run_id = j.at("run_id");
    run.jobs = j.at("jobs");
    if (j.at("fingerprint") != run.fingerprint())
      throw Error(path + ": the shard's fingerprint does not match its fields (the file was edited)");
    // Every record, launch and error as regscope wrote them: a figure edited or a
    // kernel deleted by hand would otherwise change what merge and the gate judge.
    if (j.at("records_digest") !=
        recordsDigest(j.at("fingerprint"), j.at("shards"), j.at("compiler_path"), j.at("config"), j.at("pieces")))
      throw Error(path +
                  ": the shard's records do not match its digest (the file was edited after regscope wrote it): "
                  "re-run the shard");
    shard.shards = j.at("shards").get<std::vector<int>>();
    if (run.count < 1 || shard.shards.empty())
      throw Error(path + ": a shard report needs a shard count and its shards");
    for (int s : shard.shards)
      if (s < 1 || s > run.count)
        throw Error(path + ": shard " + std::to_string(s) + " of " + std::to_string(run.count) + " does not exist");
    shard.compiler_path = j.at("compiler_path");
    if (!j.at("config").is_null()) shard.config = j.at("config");
    for (const json &p : j.at("pieces")) {
      throwIfInterrupted();  // a shard of 100,000 records: a signal ends the read, not the merge after it
      JobPiece piece;
      piece.index = p.at("index");
      if (piece.index >= run.jobs)
        throw Error(path + ": input " + std::to_string(piece.index) + " is past the run's " + std::to_string(run.jobs));
      piece.key = p.at("key");
      if (!p.at("input").is_null()) piece.input = p.at("input");
      piece.source = p.at("source");
      piece.producer = p.at("producer");
      for (const json &r : p.at("records")) piece.records.push_back(recordFromJson(r));
      for (const json &l : p.at("launches")) piece.launches.push_back(launchFromJson(l));
      if (piece.launches.size() != piece.records.size())
        throw Error(path + ": " + piece.key + ": a launch for each kernel record is needed");
      piece.display = p.at("display").get<std::map<std::string, std::string>>();
      for (const json &e : p.at("errors")) piece.errors.push_back({e.at("file"), e.at("arch"), e.at("message")});
      piece.notes = p.at("notes").get<std::vector<std::string>>();
      if (!p.at("optimisation").is_null()) piece.optimisation = optimisationFromJson(p.at("optimisation"));
      piece.dependencies = p.at("dependencies").get<std::vector<std::string>>();
      piece.warnings = p.at("warnings").get<std::vector<std::string>>();
      piece.preamble = p.at("preamble").get<bool>();
      shard.pieces.push_back(std::move(piece));
    }
  } catch (const Error &) {
    throw;
  } catch (const std::exception &e) {
    throw Error(path + ": not a readable shard report (" + e.what() + ")");
  }
  return shard;
}

ShardReport mergeShardReports(const std::vector<ShardReport> &shards, const std::vector<std::string> &paths) {
  if (shards.empty()) throw Error("merge: no shard reports given");
  const ShardReport &first = shards.front();
  const ShardRun &a = first.run;
  for (std::size_t i = 1; i < shards.size(); ++i) {
    const ShardRun &b = shards[i].run;
    const std::string both = " (" + paths.front() + ", " + paths[i] + ")";
    if (a.regscope_version != b.regscope_version)
      throw Error("merge: the shards come from different regscope versions: " + a.regscope_version + " and " +
                  b.regscope_version + both);
    if (a.command != b.command)
      throw Error("merge: the shards come from different commands: regscope " + a.command + " and regscope " +
                  b.command + both);
    if (a.run_id != b.run_id)
      throw Error("merge: the shards come from different runs: run '" + a.run_id + "' and run '" + b.run_id + "'" +
                  both);
    if (a.count != b.count)
      throw Error("merge: the shards split the inputs differently: into " + std::to_string(a.count) + " and into " +
                  std::to_string(b.count) + both);
    if (a.inputs_digest != b.inputs_digest || a.jobs != b.jobs)
      throw Error("merge: the shards were cut from different inputs (other files, or files of other sizes)" + both);
    if (a.options_digest != b.options_digest)
      throw Error("merge: the shards ran with different options (archs, compiler, flags or launch)" + both);
    if (a.config_digest != b.config_digest)
      throw Error("merge: the shards ran with different configs (.regscope.json)" + both);
    if (!first.compiler_path.empty() && !shards[i].compiler_path.empty() &&
        first.compiler_path != shards[i].compiler_path)
      throw Error("merge: the shards ran different compilers: " + first.compiler_path + " and " +
                  shards[i].compiler_path + both);
  }
  // Each shard once, each input once.
  std::map<int, std::string> shard_file;
  std::map<std::size_t, std::string> job_file;
  ShardReport merged;
  merged.run = a;
  merged.config = first.config;
  for (std::size_t i = 0; i < shards.size(); ++i) {
    for (int s : shards[i].shards) {
      auto [it, fresh] = shard_file.emplace(s, paths[i]);
      if (!fresh)
        throw Error("merge: shard " + std::to_string(s) + "/" + std::to_string(a.count) + " is given twice (" +
                    it->second + ", " + paths[i] + ")");
    }
    for (const JobPiece &piece : shards[i].pieces) {
      auto [it, fresh] = job_file.emplace(piece.index, paths[i]);
      if (!fresh)
        throw Error("merge: " + piece.key + " is in two shards (" + it->second + ", " + paths[i] +
                    "): the shards overlap");
      merged.pieces.push_back(piece);
    }
    if (merged.compiler_path.empty()) merged.compiler_path = shards[i].compiler_path;
  }
  std::vector<int> missing;
  for (int s = 1; s <= a.count; ++s)
    if (!shard_file.count(s)) missing.push_back(s);
  if (!missing.empty())
    throw Error("merge: " + std::string(missing.size() == 1 ? "shard " : "shards ") + shardList(missing, a.count) +
                (missing.size() == 1 ? " is" : " are") + " missing; a merge of part of a run would hide kernels");
  if (job_file.size() != a.jobs)
    throw Error("merge: the shards hold " + std::to_string(job_file.size()) + " of the run's " +
                plural(a.jobs, "input", "inputs") + ": a shard report is incomplete");
  for (const auto &[s, path] : shard_file) merged.shards.push_back(s);
  std::sort(merged.pieces.begin(), merged.pieces.end(),
            [](const JobPiece &x, const JobPiece &y) { return x.index < y.index; });
  return merged;
}

Report reportFromPieces(const ShardReport &shard) {
  // As analyzeJobs and addJobResult build it, job by job in the one-process order.
  Report report;
  report.compiler_path = shard.compiler_path;
  report.config = shard.config;
  for (const JobPiece &piece : shard.pieces) {
    throwIfInterrupted();  // each piece models its kernels: a signal ends a 40 MB merge within a second
    if (piece.preamble) {  // collect: reading the sidecars, before every input
      report.errors.insert(report.errors.end(), piece.errors.begin(), piece.errors.end());
      report.warnings.insert(report.warnings.end(), piece.warnings.begin(), piece.warnings.end());
      continue;
    }
    report.errors.insert(report.errors.end(), piece.errors.begin(), piece.errors.end());
    addNotesOnce(report, piece.notes);  // as analyze adds them
    if (piece.records.empty() && !piece.errors.empty()) continue;
    if (report.compiler_version.empty()) report.compiler_version = piece.producer;
    report.warnings.insert(report.warnings.end(), piece.warnings.begin(), piece.warnings.end());
    const std::size_t first = report.kernels.size();
    const KernelRecord *base = piece.records.data();
    addKernels(report, piece.records,
               [&](const KernelRecord &record) { return piece.launches.at(static_cast<std::size_t>(&record - base)); });
    for (std::size_t k = first; k < report.kernels.size(); ++k) {
      auto it = piece.display.find(report.kernels[k].record.file);
      report.kernels[k].display_file = it != piece.display.end() ? it->second : report.kernels[k].record.file;
      report.kernels[k].source = piece.source;
    }
    report.inputs.push_back(piece.input);
    if (!piece.source.empty()) report.input_paths.push_back(piece.source);  // parse names no source
    if (!piece.dependencies.empty()) report.dependencies[piece.source] = piece.dependencies;
    if (piece.optimisation) report.optimisation[piece.source] = *piece.optimisation;
  }
  tellTwinsApart(report);
  return report;
}

Report reportFromShardFiles(const std::vector<std::string> &paths, ShardReport *merged) {
  std::vector<ShardReport> shards;
  for (const std::string &path : paths) {
    json document;
    try {
      // nlohmann's parser calls back at each value: a signal ends a 40 MB parse (about a
      // second of it before) at the next object, not after the whole file.
      const json::parser_callback_t interruptible = [](int, json::parse_event_t event, json &) {
        if (event == json::parse_event_t::object_end) throwIfInterrupted();
        return true;
      };
      document = json::parse(readFile(path), interruptible);
    } catch (const json::exception &e) {
      throw Error(path + ": not JSON (" + e.what() + "); merge reads the shards' --format json reports");
    }
    shards.push_back(shardFromJson(document, path));
  }
  ShardReport all = mergeShardReports(shards, paths);
  Report report = reportFromPieces(all);
  if (merged) *merged = std::move(all);
  return report;
}

}  // namespace regscope
