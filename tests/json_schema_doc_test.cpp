// docs/json-schema.md against the JSON writers: every key the documents emit
// is documented, and every key the doc's kernel and occupancy tables list is
// emitted. The documents are built from real compilers' output of each
// vendor (fixtures/hipcc-5.2.3/probe-gfx90a.s, fixtures/nvcc-13.0's ptxas
// and PTX of cuda_probe.cu, fixtures/ocloc-22.43's pvc log and zebin of
// ocloc_probe.cl) and from the occupancy calculators and arch tables.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "regscope/backends/amd/calculator.h"
#include "regscope/backends/intel/calculator.h"
#include "regscope/backends/intel/collect.h"
#include "regscope/backends/nvidia/calculator.h"
#include "regscope/backends/nvidia/collect.h"
#include "regscope/collect/collect.h"
#include "regscope/gate/gate.h"
#include "regscope/pipeline/analyze.h"
#include "regscope/target/amdgpu.h"
#include "regscope/target/cuda.h"
#include "regscope/target/intel.h"
#include "regscope/views/views.h"
#include "test_util.h"

namespace regscope {
namespace {

using nlohmann::json;

Report amdReport() { return parseArtifacts({test::sourcePath("fixtures/hipcc-5.2.3/probe-gfx90a.s")}, ""); }

Report nvidiaReport() {
  const std::vector<FactSet> sets = {
      parsePtxas(test::fixture("nvcc-13.0/cuda_probe.ptxas.txt"), "sm_90"),
      parsePtxLaunchBounds(test::fixture("nvcc-13.0/cuda_probe.compute_90.ptx"), "sm_90")};
  Report report;
  addKernels(report, mergeFacts(sets), LaunchOverrides{});
  // And a Triton cubin's kernel: only a cubin says required_block_size (EIATTR_REQNTID).
  const Report cubin = parseArtifacts(
      {test::sourcePath(
          "fixtures/triton/cache-sm_90/7AUBJ5JZAVRCOUTBLPCY5WOVYSC4C7E3VKLPQZK4OEJH3SULYXWQ/add_kernel.cubin")},
      "");
  report.kernels.insert(report.kernels.end(), cubin.kernels.begin(), cubin.kernels.end());
  return report;
}

Report intelReport() {
  OclocOutput out;
  out.log = test::fixture("ocloc-22.43/probe.pvc.small.log");
  out.zebin = test::fixture("ocloc-22.43/probe.pvc.small.zebin");
  Report report;
  addKernels(report, mergeFacts(collectOclocFacts(out, "pvc")), LaunchOverrides{});
  return report;
}

// Every key name in the document, at any depth.
void collectKeys(const json &j, std::set<std::string> &keys) {
  if (j.is_object())
    for (auto it = j.begin(); it != j.end(); ++it) {
      keys.insert(it.key());
      collectKeys(it.value(), keys);
    }
  else if (j.is_array())
    for (const json &e : j) collectKeys(e, keys);
}

const std::string &schemaDoc() {
  static const std::string text = test::readText(test::sourcePath("docs/json-schema.md"));
  return text;
}

// Every identifier the doc writes as code (`key`, `a.b`, `{x, y}`).
std::set<std::string> documentedNames() {
  std::set<std::string> names;
  const std::regex code("`([^`]*)`"), word("[a-z_][a-z0-9_]*");
  const std::string &doc = schemaDoc();
  for (std::sregex_iterator m(doc.begin(), doc.end(), code), end; m != end; ++m) {
    const std::string span = (*m)[1];
    for (std::sregex_iterator w(span.begin(), span.end(), word); w != end; ++w) names.insert(w->str());
  }
  return names;
}

// The key paths in the first column of the table under `heading`:
// "`a`, `b`", "`x.y` / `.z`" (.z: x.z), "`p`, `.q`".
std::vector<std::string> tableKeys(const std::string &heading) {
  const std::string &doc = schemaDoc();
  std::size_t at = doc.find("\n" + heading + "\n");
  EXPECT_NE(at, std::string::npos) << heading;
  if (at == std::string::npos) return {};
  const std::size_t end = doc.find("\n## ", at + 1);
  std::vector<std::string> paths;
  std::size_t line_start = at;
  while ((line_start = doc.find("\n| `", line_start)) != std::string::npos && line_start < end) {
    const std::size_t cell_end = doc.find(" |", line_start + 3);
    const std::string cell = doc.substr(line_start + 3, cell_end - line_start - 3);
    std::string previous;
    const std::regex code("`([^`]*)`");
    for (std::sregex_iterator m(cell.begin(), cell.end(), code), stop; m != stop; ++m) {
      std::string path = (*m)[1];
      if (path.rfind('.', 0) == 0) path = previous.substr(0, previous.rfind('.')) + path;
      paths.push_back(path);
      previous = path;
    }
    line_start = cell_end;
  }
  return paths;
}

bool hasPath(const json &j, const std::string &path) {
  const std::size_t dot = path.find('.');
  const std::string first = path.substr(0, dot);
  if (!j.is_object() || !j.contains(first)) return false;
  return dot == std::string::npos || hasPath(j[first], path.substr(dot + 1));
}

// The doc lists `path` for some kernel of the vendor's document.
void expectEmitted(const json &kernels, const std::vector<std::string> &paths, const std::string &prefix) {
  ASSERT_FALSE(kernels.empty());
  for (const std::string &path : paths) {
    bool found = false;
    for (const json &k : kernels) found |= hasPath(k, prefix + path);
    EXPECT_TRUE(found) << "docs/json-schema.md lists '" << prefix + path << "', which no kernel has";
  }
}

TEST(JsonSchemaDoc, DocumentsEveryKeyTheWritersEmit) {
  const Report amd = amdReport(), nvidia = nvidiaReport(), intel = intelReport();
  ASSERT_EQ(amd.kernels.size(), 5u);
  ASSERT_FALSE(nvidia.kernels.empty());
  ASSERT_FALSE(intel.kernels.empty());
  std::set<std::string> emitted;
  for (const Report *report : {&amd, &nvidia, &intel}) {
    collectKeys(kernelTableView(*report, "regscope analyze", {})->toJson(), emitted);
    Config config;
    config.defaults.min_occupancy = 4;
    collectKeys(gateView(*report, checkThresholds(*report, config), {})->toJson(), emitted);
  }
  AmdCalculatorInput input;
  input.arch = "gfx90a";
  input.resources.vgprs = 72;
  input.resources.sgprs = 101;
  input.resources.lds_bytes = 13000;
  input.resources.workgroup_size = 256;
  const AmdCalculation calc = calculateAmdOccupancy(input);
  collectKeys(amdCalculatorView(calc.arch, calc.resources, calc.occupancy)->toJson(), emitted);
  CudaResources cuda;
  cuda.registers = 33;
  const CudaArch &sm80 = *findCudaArch("sm_80");
  collectKeys(cudaCalculatorView(sm80, cuda, calculateCudaOccupancy(sm80, cuda))->toJson(), emitted);
  IntelResources xe;
  xe.grf_count = 256;
  xe.simd = 16;
  const IntelDevice &pvc = *findIntelDevice("pvc");
  collectKeys(intelCalculatorView(pvc, xe, calculateIntelOccupancy(pvc, xe))->toJson(), emitted);
  collectKeys(amdArchTableView(*findAmdArch("gfx90a"))->toJson(), emitted);
  collectKeys(cudaArchTableView(sm80, 256, cudaRegisterTable(sm80, 256))->toJson(), emitted);
  collectKeys(intelArchTableView(pvc, 256, intelOccupancyTable(pvc, 256, false))->toJson(), emitted);
  const std::set<std::string> documented = documentedNames();
  for (const std::string &key : emitted)
    EXPECT_TRUE(documented.count(key)) << "the JSON has '" << key << "', which docs/json-schema.md does not name";
}

TEST(JsonSchemaDoc, EveryKeyTheKernelTablesListIsEmitted) {
  const json amd = kernelTableView(amdReport(), "regscope analyze", {})->toJson()["kernels"];
  const json nvidia = kernelTableView(nvidiaReport(), "regscope analyze", {})->toJson()["kernels"];
  const json intel = kernelTableView(intelReport(), "regscope analyze", {})->toJson()["kernels"];
  expectEmitted(amd, tableKeys("## Kernel"), "");
  expectEmitted(amd, tableKeys("## Occupancy (AMD)"), "occupancy.");
  expectEmitted(nvidia, tableKeys("## NVIDIA kernel (`\"vendor\": \"nvidia\"`)"), "");
  expectEmitted(intel, tableKeys("## Intel kernel (`\"vendor\": \"intel\"`)"), "");
}

TEST(JsonSchemaDoc, EveryFigureOfTheFieldTableIsDocumented) {
  const std::set<std::string> documented = documentedNames();
  for (std::size_t f = 0; f < kFieldCount; ++f) {
    const std::string key = fieldKey(static_cast<Field>(f));
    // Read for the model, never written as a key of their own.
    if (key == "compiler_occupancy" || key == "wgp_mode") continue;
    EXPECT_TRUE(documented.count(key)) << "fields.def's '" << key << "' is not in docs/json-schema.md";
  }
}

}  // namespace
}  // namespace regscope
