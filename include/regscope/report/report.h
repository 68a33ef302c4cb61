// The one report every view reads: the merged kernel records with the
// model's result for each, plus what produced them.
#pragma once

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "regscope/backend/backend.h"
#include "regscope/collect/kernel_record.h"

namespace regscope {

// An input that could not be analysed (for one arch, or for all).
struct InputError {
  std::string file;     // as the user named it
  std::string arch;     // empty: every arch
  std::string message;  // the first line names the file; compiler errors follow, indented
};

struct Report {
  std::string compiler_path;
  std::string compiler_version;
  std::vector<std::string> inputs;       // as the user named them
  std::vector<std::string> input_paths;  // absolute, the same order
  // input path -> the files its compile read (source and headers), when
  // AnalyzeOptions::dependencies asked for them.
  std::map<std::string, std::vector<std::string>> dependencies;
  std::vector<KernelReport> kernels;
  std::vector<std::string> warnings;
  std::vector<std::string> notes;  // about the run, not one kernel (an -O0 compile)
  std::vector<InputError> errors;  // exit 2
  // parse's walks: the artifacts and Triton entries it read or tried to (their errors among them), which
  // the error summary counts "N of M" over; 0: the inputs are what it counts (one per source).
  std::size_t artifacts = 0;
  std::string config;  // the .regscope.json in force; empty: none
  // Report::input_paths entry -> the optimisation level its figures are for
  // (none for parsed artifacts, which do not record it).
  std::map<std::string, Optimisation> optimisation;
  // Kernels read for an arch regscope has no occupancy table for (arch ->
  // how many): not modelled, so never judged. One warning per arch says it
  // (its index in `warnings`, rewritten with the count as more are read).
  std::map<std::string, int> kernels_without_table;
  std::map<std::string, std::size_t> without_table_warning;
};

// The model stage over merged records: one KernelReport per record, each
// kernel's archs side by side. Records for archs regscope has no table for,
// and figures the sources disagreed on, become report warnings.
// `launch` gives what is known of each kernel's launch.
using LaunchFor = std::function<LaunchOverrides(const KernelRecord &)>;
void addKernels(Report &report, const std::vector<KernelRecord> &records, const LaunchFor &launch);
void addKernels(Report &report, const std::vector<KernelRecord> &records, const LaunchOverrides &launch = {});
// The same, each record moved into the report (a library's 100,000 records
// are not held twice).
void addKernels(Report &report, std::vector<KernelRecord> &&records, const LaunchFor &launch);

// Kernels of one name and arch shown at one place (two Triton entries of one
// @triton.jit function, one source compiled twice) each get KernelReport::
// twin, which the table and the notes show after it. Called once the report
// holds every kernel (each pipeline's last step).
void tellTwinsApart(Report &report);

// Adds each of `notes` that the report does not hold yet: a note of the run
// (the default arch) is said once however many inputs give it.
void addNotesOnce(Report &report, const std::vector<std::string> &notes);

// The words for a level: "-O3, which regscope adds (...)".
std::string optimisationText(const Optimisation &o);
// The run's notes on optimisation, each level said once: one line when every
// input shares it, else one per level with its files. Empty when none is known.
std::vector<std::string> optimisationNotes(const Report &report);
// {"level", "source", "compiler"}, and back (throws regscope::Error on a bad one).
nlohmann::json optimisationToJson(const Optimisation &o);
Optimisation optimisationFromJson(const nlohmann::json &j);

}  // namespace regscope
