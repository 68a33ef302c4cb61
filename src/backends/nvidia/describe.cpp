// What the views print of an NVIDIA kernel: its kernel-table section and
// notes, its JSON object, its next step and register cliff in words.
#include "regscope/backends/nvidia/describe.h"

#include <climits>

#include "regscope/backends/nvidia/phrases.h"
#include "regscope/describe/phrases.h"

namespace regscope {

using nlohmann::json;

json cudaOccupancyJson(const CudaOccupancy &occ, const CudaArch &arch, const CudaResources &r, int bound) {
  json j = {
      {"blocks_per_sm", occ.blocks_per_sm},
      {"warps_per_sm", occ.warps_per_sm},
      {"max_warps_per_sm", occ.max_warps_per_sm},
      {"fraction", occ.fraction},
      {"limiter", limiterName(occ.limiter)},
      {"by_resource",
       {{"warps", occ.by_warps},
        {"blocks", occ.by_blocks},
        {"registers", occ.by_registers == INT_MAX ? json(nullptr) : json(occ.by_registers)},
        {"shared", occ.by_shared == INT_MAX ? json(nullptr) : json(occ.by_shared)},
        {"barriers", occ.by_barriers == INT_MAX ? json(nullptr) : json(occ.by_barriers)}}},
      {"largest_block_same_occupancy", occ.largest_block_same_occupancy},
      {"next", nullptr},
  };
  if (occ.next)
    j["next"] = {{"blocks_per_sm", occ.next->blocks_per_sm},
                 {"registers_to_free", occ.next->registers_to_free},
                 {"shared_to_free", occ.next->shared_to_free}};
  if (occ.limiter == Limiter::Invalid) j["invalid_reason"] = cudaInvalidText(occ, arch, r, bound);
  return j;
}

namespace {

Table cudaTable(const std::vector<const KernelReport *> &kernels) {
  Table table = kernelTable({{"REGS", fieldKey(Field::Registers), true},
                             {"SPILL ST/LD", "spills", true, Show::Text},
                             {"", fieldKey(Field::SpillStoreBytes), true, Show::Data},
                             {"", fieldKey(Field::SpillLoadBytes), true, Show::Data},
                             {"STACK", fieldKey(Field::StackBytes), true},
                             {"SMEM", fieldKey(Field::SharedBytes), true},
                             {"BLOCK", "block_size", true},
                             {"BLOCKS/SM", "blocks_per_sm", true},
                             {"WARPS/SM", "warps", true, Show::Text},
                             {"", "warps_per_sm", true, Show::Data},
                             {"", "max_warps_per_sm", true, Show::Data},
                             {"LIMITER", "limiter"},
                             {"NEXT STEP", "next_step"}});
  // Fitting the terminal: LIMITER is left out last, NEXT STEP names the same resource.
  fitColumns(table, {"SPILL ST/LD", "STACK", "SMEM", "BLOCK"}, {"STACK", "SPILL ST/LD", "BLOCKS/SM", "LIMITER"});
  for (const KernelReport *k : kernels) {
    const KernelRecord &r = k->record;
    const CudaKernelModel &m = std::get<CudaKernelModel>(k->model);
    const CudaOccupancy &occ = m.occupancy;
    const bool unknown = occ.limiter == Limiter::Unknown;
    const bool none = unknown || !k->impossible.empty();
    addKernelRow(
        table, *k,
        {figureCell(*k, Field::Registers), figurePair(*k, Field::SpillStoreBytes, Field::SpillLoadBytes),
         figureCell(*k, Field::SpillStoreBytes), figureCell(*k, Field::SpillLoadBytes),
         figureCell(*k, Field::StackBytes),
         // Static shared memory, then the dynamic the launch passes ("0+64K"; "+?" when not read).
         Cell(staticPlusDynamic(r.value(Field::SharedBytes), k->launch.dynamic_shared,
                                !k->launch.dynamic_unread_at.empty()),
              r.value(Field::SharedBytes)),
         Cell::count(k->launch.block_size), none ? Cell("?") : Cell::count(occ.blocks_per_sm),
         (none ? std::string("?") : std::to_string(occ.warps_per_sm)) + "/" + std::to_string(occ.max_warps_per_sm),
         none ? Cell("?") : Cell::count(occ.warps_per_sm), Cell::count(occ.max_warps_per_sm), limiterName(occ.limiter),
         unknown                  ? unknownText(*k)
         : !k->impossible.empty() ? "cannot launch: " + k->impossible
                                  : cudaNextStepText(occ, m.arch, m.resources, k->launch.max_block_size)});
  }
  return table;
}

Notes cudaNotes(const std::vector<const KernelReport *> &kernels) {
  NoteList notes;
  bool assumed = false;
  for (const KernelReport *k : kernels) {
    if (k->record.value(Field::SpillStoreBytes))
      notes.add(*k, "spills " + std::to_string(k->record.value(Field::SpillStoreBytes)) + " bytes to local memory");
    assumed |= k->launch.source == BlockSizeSource::Default;
    if (const TritonInfo *t = k->record.triton.get())
      notes.add(*k, tritonNote(*k, bytesText(static_cast<int>(t->shared)) + " of dynamic shared memory" +
                                       (t->shared > 48 * 1024 ? " (over 48 KiB: Triton sets the opt-in)" : "")));
    if (k->launch.source == BlockSizeSource::Config || k->launch.source == BlockSizeSource::LaunchSite)
      notes.add(*k, launchNote(k->launch));
    if (std::string why = launchUnknown(k->launch, "--dynamic-smem"); !why.empty())
      notes.add(*k,
                (k->launch.dynamic_unread_at.empty() ? "occupancy is an assumption: " : "occupancy unknown: ") + why);
    if (std::string note = dynamicSharedNote(k->launch, "shared memory"); !note.empty()) notes.add(*k, note);
  }
  if (assumed)
    notes.addLine("BLOCK is the kernel's __launch_bounds__, else an assumed " +
                  std::to_string(kernels.front()->launch.block_size) + " threads: pass --block-size for your launch");
  if (std::string line = dynamicSharedFlagLine(kernels.front()->launch, "shared memory per block"); !line.empty())
    notes.addLine(line);
  return notes.build();
}

}  // namespace

KernelSection cudaKernelSection(const std::vector<const KernelReport *> &kernels) {
  return {cudaTable(kernels), cudaNotes(kernels)};
}

json cudaKernelJson(const KernelReport &k) {
  const KernelRecord &r = k.record;
  const CudaKernelModel &m = std::get<CudaKernelModel>(k.model);
  json occ = cudaOccupancyJson(m.occupancy, m.arch, m.resources, k.launch.max_block_size);
  if (!k.impossible.empty()) occ["invalid_reason"] = k.impossible;
  occ["block_size"] = k.launch.block_size;
  occ["block_size_source"] = blockSizeSourceName(k.launch.source);
  occ["dynamic_shared_bytes"] = k.launch.dynamic_shared;
  occ["dynamic_shared_source"] = dynamicSharedSourceName(k.launch.dynamic_source);
  json kernel = kernelJsonBase(k);
  kernel.update({{fieldKey(Field::Registers), figureJson(r, Field::Registers)},
                 {fieldKey(Field::SpillStoreBytes), figureJson(r, Field::SpillStoreBytes)},
                 {fieldKey(Field::SpillLoadBytes), figureJson(r, Field::SpillLoadBytes)},
                 {fieldKey(Field::StackBytes), figureJson(r, Field::StackBytes)},
                 {fieldKey(Field::LoopSpills), figureJson(r, Field::LoopSpills)},
                 {"loop_spill_site", loopSpillSiteJson(r)},
                 {fieldKey(Field::SharedBytes), r.value(Field::SharedBytes)},
                 {fieldKey(Field::ConstantBytes), figureJson(r, Field::ConstantBytes)},
                 {fieldKey(Field::Barriers), figureJson(r, Field::Barriers)},
                 {fieldKey(Field::MaxThreadsPerBlock), figureJson(r, Field::MaxThreadsPerBlock)},
                 {fieldKey(Field::MinBlocksPerSm), figureJson(r, Field::MinBlocksPerSm)},
                 {"occupancy", k.summary.limiter == Limiter::Unknown ? json(nullptr) : occ}});
  // Only where a source read it (a cubin's EIATTR_REQNTID: Triton's kernels)
  if (r.has(Field::RequiredBlockSize)) kernel[fieldKey(Field::RequiredBlockSize)] = r.value(Field::RequiredBlockSize);
  return kernel;
}

std::string cudaNextStep(const KernelReport &k) {
  const CudaKernelModel &m = std::get<CudaKernelModel>(k.model);
  return cudaNextStepText(m.occupancy, m.arch, m.resources, k.launch.max_block_size);
}

std::optional<std::string> cudaRegisterCliff(const KernelReport &k, int registers) {
  const CudaKernelModel &cuda = std::get<CudaKernelModel>(k.model);
  const CudaOccupancy &occ = cuda.occupancy;
  if (occ.limiter == Limiter::Invalid || occ.blocks_per_sm <= 1) return std::nullopt;
  for (int extra = 1; extra <= registers; ++extra)
    if (cudaBlocksByRegisters(cuda.arch, cuda.resources.registers + extra, cuda.resources.block_size) <
        occ.blocks_per_sm)
      return std::to_string(extra) + " more register" + (extra == 1 ? " lowers" : "s lower") +
             " per thread the occupancy from " + std::to_string(occ.blocks_per_sm) + " blocks/SM";
  return std::nullopt;
}

}  // namespace regscope
