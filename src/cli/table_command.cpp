// regscope table --arch A
#include "commands.h"
#include "regscope/target/amdgpu.h"
#include "regscope/target/cuda.h"
#include "regscope/target/intel.h"
#include "regscope/views/views.h"

namespace regscope {

Command addTableCommand(CLI::App &root) {
  struct State {
    std::string arch = kDefaultAmdArch;
    int block_size = 256;
    int wave_size = 0;
    OutputOptions output;
  };
  auto state = std::make_shared<State>();
  CLI::App *app = root.add_subcommand(
      "table",
      "Print an arch's register table: VGPRs -> waves/SIMD (AMD), registers -> warps/SM (NVIDIA), GRF "
      "mode x SIMD x SLM -> work-groups per Xe-core (Intel)");
  app->add_option("--arch", state->arch, "Target or product name")->capture_default_str();
  app->add_option("--block-size", state->block_size, "NVIDIA: threads per block; Intel: work-items per work-group")
      ->check(wholeNumber(1, 1024))
      ->capture_default_str();
  app->add_option("--wave-size", state->wave_size, "AMD RDNA: 32 or 64 (default: the target's)")
      ->check(CLI::IsMember({32, 64}));
  addOutputOptions(*app, state->output);
  return {app, [state] {
            if (const CudaArch *cuda = findCudaArch(state->arch)) {
              emit(state->output,
                   *cudaArchTableView(*cuda, state->block_size, cudaRegisterTable(*cuda, state->block_size)));
              return 0;
            }
            if (const IntelDevice *intel = findIntelDevice(state->arch)) {
              emit(state->output, *intelArchTableView(*intel, state->block_size,
                                                      intelOccupancyTable(*intel, state->block_size, false)));
              return 0;
            }
            const AmdArch arch = configureArch(requireAmdArch(state->arch), state->wave_size, false);
            emit(state->output, *amdArchTableView(arch));
            return 0;
          }};
}

}  // namespace regscope
