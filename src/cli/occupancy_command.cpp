// regscope occupancy --arch A --vgprs N [--agprs N] [--sgprs N] [--lds B] [--block-size T]
#include "commands.h"
#include "regscope/arch.h"
#include "regscope/error.h"
#include "regscope/printers.h"

namespace regscope {

const AmdArch &requireArch(const std::string &name) {
  const AmdArch *arch = findAmdArch(name);
  if (!arch) throw Error("unknown arch '" + name + "'; known: " + knownArchList());
  return *arch;
}

namespace {

void requireRange(const char *what, int value, int low, int high, const AmdArch &arch) {
  if (value < low || value > high)
    throw Error(std::string(what) + " " + std::to_string(value) + " is outside " + std::to_string(low) +
                ".." + std::to_string(high) + " on " + std::string(arch.name));
}

}  // namespace

Command addOccupancyCommand(CLI::App &root) {
  struct State {
    std::string arch = "gfx90a";
    KernelResources resources;
    OutputOptions output;
  };
  auto state = std::make_shared<State>();
  CLI::App *app = root.add_subcommand("occupancy", "Occupancy calculator: resources in, waves/SIMD out (no compile)");
  app->add_option("--arch", state->arch, "Target or product name")->capture_default_str();
  app->add_option("--vgprs", state->resources.vgprs, "Architectural VGPRs per lane")->required();
  app->add_option("--agprs", state->resources.agprs, "AGPRs per lane")->capture_default_str();
  app->add_option("--sgprs", state->resources.sgprs, "SGPRs, including VCC/XNACK/flat-scratch extras")
      ->capture_default_str();
  app->add_option("--lds", state->resources.lds_bytes, "LDS bytes per workgroup")->capture_default_str();
  app->add_option("--block-size", state->resources.workgroup_size, "Workgroup size in threads")
      ->capture_default_str();
  addOutputOptions(*app, state->output);

  return {app, [state] {
            const AmdArch &arch = requireArch(state->arch);
            const KernelResources &r = state->resources;
            requireRange("--vgprs", r.vgprs, 0, arch.max_arch_vgprs, arch);
            requireRange("--agprs", r.agprs, 0, arch.agprs == AgprMode::None ? 0 : 256, arch);
            requireRange("--sgprs", r.sgprs, 0, arch.max_sgprs, arch);
            requireRange("--lds", r.lds_bytes, 0, arch.max_lds_per_workgroup, arch);
            requireRange("--block-size", r.workgroup_size, 1, 1024, arch);
            Occupancy occ = computeOccupancy(arch, r);
            emit(state->output,
                 [&](std::ostream &out, bool) { printOccupancyText(arch, r, occ, out); },
                 [&] { return occupancyCalculationToJson(arch, r, occ); });
            return 0;
          }};
}

}  // namespace regscope
