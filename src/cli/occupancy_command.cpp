// regscope occupancy --arch A --vgprs N [--agprs N] [--sgprs N] [--lds B] [--block-size T]
//                   --arch sm_90 --registers N ...; --arch pvc --grf 256 --simd 32 --slm B ...
#include "commands.h"

#include <algorithm>

#include "regscope/backends/amd/amdgpu_occupancy.h"
#include "regscope/backends/intel/intel_occupancy.h"
#include "regscope/backends/nvidia/cuda_occupancy.h"
#include "regscope/support/error.h"
#include "regscope/target/amdgpu.h"
#include "regscope/target/cuda.h"
#include "regscope/target/intel.h"
#include "regscope/views/views.h"

namespace regscope {

namespace {

std::string joinInts(const std::vector<int> &values, const char *separator) {
  std::string out;
  for (int v : values) out += (out.empty() ? "" : separator) + std::to_string(v);
  return out;
}

void requireRange(const char *what, int value, int low, int high, const AmdArch &arch) {
  if (value < low || value > high)
    throw Error(std::string(what) + " " + std::to_string(value) + " is outside " + std::to_string(low) + ".." +
                std::to_string(high) + " on " + std::string(arch.name));
}

}  // namespace

// The NVIDIA calculator: --registers, --smem, --dynamic-smem, --block-size.
int runCudaCalculator(const CudaArch &arch, const CudaResources &r, const OutputOptions &output) {
  if (r.registers < 0 || r.registers > arch.max_registers_per_thread)
    throw Error("--registers " + std::to_string(r.registers) + " is outside 0.." +
                std::to_string(arch.max_registers_per_thread) + " on " + std::string(arch.name));
  if (r.block_size < 1 || r.block_size > arch.max_threads_per_block)
    throw Error("--block-size " + std::to_string(r.block_size) + " is outside 1.." +
                std::to_string(arch.max_threads_per_block) + " on " + std::string(arch.name));
  if (r.static_shared < 0 || r.dynamic_shared < 0) throw Error("shared memory sizes cannot be negative");
  const CudaOccupancy occ = computeCudaOccupancy(arch, r);
  emit(output, *cudaCalculatorView(arch, r, occ));
  return 0;
}

// The Intel calculator: --grf, --simd, --block-size, --slm, --barriers.
int runIntelCalculator(const IntelDevice &device, const IntelResources &r, const OutputOptions &output) {
  // The hardware has only its GRF modes and SIMD widths: any other figure is a typo, not a what-if.
  std::vector<int> modes = {device.grf_small};
  if (device.threads_per_eu_large > 0) modes.push_back(device.grf_large);
  if (std::find(modes.begin(), modes.end(), r.grf_count) == modes.end())
    throw Error("--grf " + std::to_string(r.grf_count) + " is not a GRF mode of " + std::string(device.name) + " (" +
                joinInts(modes, " or ") + ")");
  if (std::find(device.simd_widths.begin(), device.simd_widths.end(), r.simd) == device.simd_widths.end())
    throw Error("--simd " + std::to_string(r.simd) + " is not a SIMD width of " + std::string(device.name) + " (" +
                joinInts(device.simd_widths, ", ") + ")");
  if (r.slm_bytes < 0 || r.barriers < 0) throw Error("--slm and --barriers cannot be negative");
  const IntelOccupancy occ = computeIntelOccupancy(device, r);
  emit(output, *intelCalculatorView(device, r, occ));
  return 0;
}

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
              return runCudaCalculator(*cuda, state->cuda, state->output);
            }
            if (const IntelDevice *intel = findIntelDevice(state->arch)) {
              refuseOthers(state->arch, "Intel");
              state->intel.work_group_size = app->count("--block-size") ? state->resources.workgroup_size : 256;
              return runIntelCalculator(*intel, state->intel, state->output);
            }
            if (looksLikeCudaArch(state->arch))
              throw Error("unknown CUDA arch '" + state->arch + "'; known: " + knownCudaArchList());
            if (findAmdArch(state->arch)) refuseOthers(state->arch, "AMD");
            if (!app->count("--vgprs")) throw Error("--vgprs is required for " + state->arch);
            const AmdArch arch = configureArch(requireAmdArch(state->arch), state->wave_size, state->cu_mode);
            // Summed in 64 bits: two large sizes must be reported as too large, not wrap to a negative one.
            const long long lds = static_cast<long long>(state->resources.lds_bytes) + state->dynamic_lds;
            if (state->dynamic_lds > 0 && lds > arch.max_lds_per_workgroup)
              throw Error("--lds + --dynamic-lds is " + std::to_string(lds) + " bytes, more than the " +
                          std::to_string(arch.max_lds_per_workgroup) + " a workgroup may have on " +
                          std::string(arch.name));
            state->resources.lds_bytes = static_cast<int>(lds);
            const KernelResources &r = state->resources;
            requireRange("--vgprs", r.vgprs, 0, arch.max_arch_vgprs, arch);
            requireRange("--agprs", r.agprs, 0, arch.agprs == AgprMode::None ? 0 : 256, arch);
            requireRange("--sgprs", r.sgprs, 0, arch.max_sgprs, arch);
            requireRange("--lds", r.lds_bytes, 0, arch.max_lds_per_workgroup, arch);
            requireRange("--block-size", r.workgroup_size, 1, 1024, arch);
            const CompilerModel model = state->as_compiler == "llvm15"   ? CompilerModel::Llvm15
                                        : state->as_compiler == "llvm19" ? CompilerModel::Llvm19
                                                                         : CompilerModel::Hardware;
            const Occupancy occ = computeOccupancyAs(arch, r, model);
            emit(state->output, *amdCalculatorView(arch, r, occ));
            return 0;
          }};
}

}  // namespace regscope
