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

json reportToJson(const Report &report) {
  json kernels = json::array();
  for (const KernelReport &k : report.kernels) kernels.push_back(kernelJson(k, report.compiler_version));
  for (std::size_t k = 0; k < report.kernels.size(); ++k)  // one entry per kernel, in order
  {
    if (report.kernels[k].record.triton) kernels[k]["triton"] = tritonToJson(*report.kernels[k].record.triton);
    // The level the kernel's compile ran at; null for a parsed artifact, which does not record it.
    auto level = report.optimisation.find(report.kernels[k].source);
    kernels[k]["optimisation"] = level != report.optimisation.end() ? optimisationToJson(level->second) : json(nullptr);
  }
  return {
      {"schema_version", kSchemaVersion},
      {"regscope_version", kRegscopeVersion},
      {"compiler", {{"path", report.compiler_path}, {"version", report.compiler_version}}},
      {"inputs", report.inputs},
      {"config", report.config.empty() ? json(nullptr) : json(report.config)},
      {"kernels", kernels},
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

}  // namespace regscope
