// The JSON documents, described in docs/json-schema.md. Numbers are integers.
#include "report_json.h"

#include <algorithm>
#include <climits>

#include "phrases.h"
#include "regscope/support/version.h"

namespace regscope {

using nlohmann::json;

// A Triton cache entry's metadata as read (docs/json-schema.md, "triton").
static json tritonToJson(const TritonInfo &t) {
  auto optional = [](const std::optional<int> &v) { return v ? json(*v) : json(nullptr); };
  return {{"function", t.function},
          {"version", t.version.empty() ? json(nullptr) : json(t.version)},
          {"backend", t.backend},
          {"target_arch", t.target},
          {"warp_size", t.warp_size},
          {"num_warps", t.num_warps},
          {"num_stages", t.num_stages},
          {"num_ctas", t.num_ctas},
          {"shared", t.shared},
          {"waves_per_eu", optional(t.waves_per_eu)},
          {"matrix_instr_nonkdim", optional(t.matrix_instr_nonkdim)},
          {"kpack", optional(t.kpack)},
          {"maxnreg", optional(t.maxnreg)},
          {"python_file", t.python_file.empty() ? json(nullptr) : json(t.python_file)},
          {"python_line", t.python_line ? json(t.python_line) : json(nullptr)},
          {"hash", t.hash.empty() ? json(nullptr) : json(t.hash)},
          {"key", t.key}};
}

// One kernel's entry in "kernels": its backend's figures, its Triton entry,
// and the level its compile ran at (null for a parsed artifact, which does
// not record it).
static json kernelEntry(const Report &report, const KernelReport &k) {
  json kernel = kernelJson(k, report.compiler_version);
  if (k.record.triton) kernel["triton"] = tritonToJson(*k.record.triton);
  auto level = report.optimisation.find(k.source);
  kernel["optimisation"] = level != report.optimisation.end() ? optimisationToJson(level->second) : json(nullptr);
  return kernel;
}

// Everything but the kernels, whose place holds an empty array.
static json reportFrame(const Report &report) {
  return {
      {"schema_version", kSchemaVersion},
      {"regscope_version", kRegscopeVersion},
      {"compiler", {{"path", report.compiler_path}, {"version", report.compiler_version}}},
      {"inputs", report.inputs},
      {"config", report.config.empty() ? json(nullptr) : json(report.config)},
      {"kernels", json::array()},
      {"warnings", report.warnings},
      {"notes",
       [&] {
         std::vector<std::string> notes = optimisationNotes(report);
         notes.insert(notes.end(), report.notes.begin(), report.notes.end());
         return notes;
       }()},
      {"errors",
       [&] {
         json errors = json::array();
         for (const InputError &e : report.errors)
           errors.push_back(
               {{"file", e.file}, {"arch", e.arch.empty() ? json(nullptr) : json(e.arch)}, {"message", e.message}});
         return errors;
       }()},
  };
}

json reportToJson(const Report &report) {
  json document = reportFrame(report);
  json &kernels = document["kernels"];
  for (const KernelReport &k : report.kernels) kernels.push_back(kernelEntry(report, k));
  return document;
}

void writeReportJson(const Report &report, std::ostream &out) {
  // The frame as dumpJson prints it, the kernels written into its empty array
  // one at a time: the bytes of dumpJson(reportToJson(report)), never the
  // whole document in memory. A top-level member is the only line that starts
  // with a newline and two spaces then a quote (a string's newline is "\n").
  const std::string frame = dumpJson(reportFrame(report));
  const std::string slot = "\n  \"kernels\": []";
  const std::size_t at = frame.find(slot);
  out << frame.substr(0, at);
  if (report.kernels.empty()) {
    out << slot;
  } else {
    out << "\n  \"kernels\": [";
    bool first = true;
    for (const KernelReport &k : report.kernels) {
      std::string entry = dumpJson(kernelEntry(report, k));
      out << (first ? "\n    " : ",\n    ");
      first = false;
      std::size_t from = 0;  // nested two levels down: four more spaces a line
      for (std::size_t nl; (nl = entry.find('\n', from)) != std::string::npos; from = nl + 1)
        out.write(entry.data() + from, static_cast<std::streamsize>(nl + 1 - from)) << "    ";
      out.write(entry.data() + from, static_cast<std::streamsize>(entry.size() - from));
    }
    out << "\n  ]";
  }
  out << frame.substr(at + slot.size()) << '\n';
}

}  // namespace regscope
