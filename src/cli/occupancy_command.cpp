// regscope occupancy --arch A --vgprs N [--agprs N] [--sgprs N] [--lds B] [--block-size T]
//                   --arch sm_90 --registers N ...; --arch pvc --grf 256 --simd 32 --slm B ...
#include "commands.h"

#include "regscope/backends/amd/calculator.h"
#include "regscope/backends/intel/calculator.h"
#include "regscope/backends/nvidia/calculator.h"
#include "regscope/support/error.h"
#include "regscope/target/amdgpu.h"
#include "regscope/target/cuda.h"
#include "regscope/target/intel.h"
#include "regscope/views/views.h"

namespace regscope {

Command addOccupancyCommand(CLI::App &root) {
  struct State {
    std::string arch = kDefaultAmdArch;
    KernelResources resources;
    CudaResources cuda;
    IntelResources intel;
    int wave_size = 0;
    bool cu_mode = false;
    int dynamic_lds = 0;
    std::string as_compiler = "hardware";
    OutputOptions output;
  };
  auto state = std::make_shared<State>();
  CLI::App *app = root.add_subcommand(
      "occupancy",
      "Occupancy calculator: resources in, waves/SIMD (AMD), blocks and warps per SM (NVIDIA) or work-groups and "
      "threads per Xe-core (Intel) out");
  app->add_option("--arch", state->arch, "Target or product name (gfx90a, MI250X, sm_90, H100, pvc, Max 1550, ...)")
      ->capture_default_str();
  app->add_option("--vgprs", state->resources.vgprs, "AMD: architectural VGPRs per lane");
  app->add_option("--wave-size", state->wave_size, "AMD RDNA: 32 or 64 (default: the target's)")
      ->check(CLI::IsMember({32, 64}));
  app->add_flag("--cu-mode", state->cu_mode, "AMD RDNA: CU mode instead of WGP mode");
  app->add_option("--as-compiler", state->as_compiler,
                  "AMD: the figure a compiler prints instead of the hardware's (llvm15: hipcc 5.2-5.4; llvm19: LLVM "
                  "16-22, hipcc 5.5-6.x)")
      ->check(CLI::IsMember({"hardware", "llvm15", "llvm19"}))
      ->capture_default_str();
  app->add_option("--dynamic-lds", state->dynamic_lds, "AMD: extern __shared__ bytes given at launch")
      ->check(CLI::NonNegativeNumber);
  app->add_option("--registers", state->cuda.registers, "NVIDIA: registers per thread");
  app->add_option("--smem", state->cuda.static_shared, "NVIDIA: static shared memory per block, bytes");
  app->add_option("--dynamic-smem", state->cuda.dynamic_shared, "NVIDIA: dynamic shared memory per block, bytes");
  app->add_option("--carveout", state->cuda.carveout_percent,
                  "NVIDIA: preferred shared-memory carveout, percent (default: the largest)")
      ->check(wholeNumber(0, 100));
  app->add_option("--grf", state->intel.grf_count, "Intel: GRF registers per thread, 128 (small) or 256 (large)")
      ->capture_default_str();
  app->add_option("--simd", state->intel.simd, "Intel: the kernel's SIMD width (8, 16, 32)")->capture_default_str();
  app->add_option("--slm", state->intel.slm_bytes, "Intel: SLM bytes per work-group");
  app->add_option("--barriers", state->intel.barriers, "Intel: barriers the kernel uses (0: none)");
  app->add_option("--agprs", state->resources.agprs, "AGPRs per lane")->capture_default_str();
  app->add_option("--sgprs", state->resources.sgprs, "SGPRs, including VCC/XNACK/flat-scratch extras")
      ->capture_default_str();
  app->add_option("--lds", state->resources.lds_bytes, "LDS bytes per workgroup")->capture_default_str();
  app->add_option("--block-size", state->resources.workgroup_size, "Workgroup size in threads")->capture_default_str();
  addOutputOptions(*app, state->output);

  // Options of one vendor given for another's target are an error, never ignored.
  auto refuseOthers = [app](const std::string &arch, const char *vendor) {
    static const std::vector<std::pair<const char *, std::vector<const char *>>> kByVendor = {
        {"AMD",
         {"--vgprs", "--wave-size", "--cu-mode", "--as-compiler", "--dynamic-lds", "--agprs", "--sgprs", "--lds"}},
        {"NVIDIA", {"--registers", "--smem", "--dynamic-smem", "--carveout"}},
        {"Intel", {"--grf", "--simd", "--slm", "--barriers"}}};
    for (const auto &[owner, options] : kByVendor) {
      if (std::string(owner) == vendor) continue;
      for (const char *option : options)
        if (app->count(option))
          throw Error(std::string(option) + " is an " + owner + " option; " + arch + " is an " + vendor +
                      " target (see regscope occupancy --help)");
    }
  };

  return {app, [state, app, refuseOthers] {
            if (const CudaArch *cuda = findCudaArch(state->arch)) {
              refuseOthers(state->arch, "NVIDIA");
              if (!app->count("--registers")) throw Error("--registers is required for " + state->arch);
              state->cuda.block_size = app->count("--block-size") ? state->resources.workgroup_size : 256;
              emit(state->output, *cudaCalculatorView(*cuda, state->cuda, calculateCudaOccupancy(*cuda, state->cuda)));
              return 0;
            }
            if (const IntelDevice *intel = findIntelDevice(state->arch)) {
              refuseOthers(state->arch, "Intel");
              state->intel.work_group_size = app->count("--block-size") ? state->resources.workgroup_size : 256;
              emit(state->output,
                   *intelCalculatorView(*intel, state->intel, calculateIntelOccupancy(*intel, state->intel)));
              return 0;
            }
            if (looksLikeCudaArch(state->arch))
              throw Error("unknown CUDA arch '" + state->arch + "'; known: " + knownCudaArchList());
            if (findAmdArch(state->arch)) refuseOthers(state->arch, "AMD");
            if (!app->count("--vgprs")) throw Error("--vgprs is required for " + state->arch);
            const AmdCalculation calc = calculateAmdOccupancy({state->arch, state->resources, state->wave_size,
                                                               state->cu_mode, state->dynamic_lds, state->as_compiler});
            emit(state->output, *amdCalculatorView(calc.arch, calc.resources, calc.occupancy));
            return 0;
          }};
}

}  // namespace regscope
