#include "mca_estimate.h"

#include <llvm/Config/llvm-config.h>
#include <llvm/MC/MCSchedule.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/MCA/Context.h>
#include <llvm/MCA/CustomBehaviour.h>
#include <llvm/MCA/InstrBuilder.h>
#include <llvm/MCA/Pipeline.h>
#include <llvm/MCA/SourceMgr.h>
#include <llvm/Support/Error.h>

namespace regscope::isa_detail {

struct McaEstimator::State {
#if LLVM_VERSION_MAJOR >= 19
  // LLVM 16 gave InstrBuilder an InstrumentManager (the base one, as llvm-mca
  // takes for a target without its own: AMDGPU has none) and LLVM 18 the
  // latency it gives a call: 100 cycles, the figure LLVM 15 hard-wires.
  llvm::mca::InstrumentManager instruments;
  llvm::mca::InstrBuilder builder;
  State(const AmdgpuTarget &t)
      : instruments(*t.sti, *t.mii), builder(*t.sti, *t.mii, *t.mri, t.mia.get(), instruments, /*CallLatency=*/100) {}
  auto create(const llvm::MCInst &inst) { return builder.createInstruction(inst, {}); }
#else
  llvm::mca::InstrBuilder builder;
  State(const AmdgpuTarget &t) : builder(*t.sti, *t.mii, *t.mri, t.mia.get()) {}
  auto create(const llvm::MCInst &inst) { return builder.createInstruction(inst); }
#endif
  std::unique_ptr<llvm::mca::InstrPostProcess> post_process;
};

McaEstimator::McaEstimator(const AmdgpuTarget &target) : target_(target) {
  // Without a scheduling model every instruction would cost the default.
  available_ = target.sti->getSchedModel().hasInstrSchedModel();
  if (!available_) return;
  state_ = std::make_unique<State>(target);
  state_->post_process.reset(target.target->createInstrPostProcess(*target.sti, *target.mii));
  if (!state_->post_process)
    state_->post_process = std::make_unique<llvm::mca::InstrPostProcess>(*target.sti, *target.mii);
}

McaEstimator::~McaEstimator() = default;

BlockCycles McaEstimator::estimate(llvm::ArrayRef<llvm::MCInst> block) {
  BlockCycles result;
  if (!available_) return result;
  std::vector<std::unique_ptr<llvm::mca::Instruction>> lowered;
  lowered.reserve(block.size());
  state_->post_process->resetState();
  for (const llvm::MCInst &inst : block) {
    llvm::Expected<std::unique_ptr<llvm::mca::Instruction>> made = state_->create(inst);
    if (!made) {
      llvm::consumeError(made.takeError());
      ++result.unmodelled;
      continue;
    }
    state_->post_process->postProcessInstruction(made.get(), inst);
    lowered.push_back(std::move(made.get()));
  }
  if (lowered.empty()) return result;
  llvm::mca::CircularSourceMgr source(lowered, /*Iterations=*/1);
  std::unique_ptr<llvm::mca::CustomBehaviour> behaviour(
      target_.target->createCustomBehaviour(*target_.sti, source, *target_.mii));
  if (!behaviour) behaviour = std::make_unique<llvm::mca::CustomBehaviour>(*target_.sti, source, *target_.mii);
  // llvm-mca's defaults: widths and queue sizes from the scheduling model, no aliasing.
  llvm::mca::PipelineOptions options(/*UOPQSize=*/0, /*DecThr=*/0, /*DW=*/0, /*RFS=*/0, /*LQS=*/0, /*SQS=*/0,
                                     /*NoAlias=*/true);
  llvm::mca::Context context(*target_.mri, *target_.sti);
  std::unique_ptr<llvm::mca::Pipeline> pipeline = context.createDefaultPipeline(options, source, *behaviour);
  llvm::Expected<unsigned> cycles = pipeline->run();
  if (!cycles) {
    llvm::consumeError(cycles.takeError());
    return result;
  }
  result.estimated = true;
  result.cycles = static_cast<long>(*cycles);
  result.ipc = *cycles ? static_cast<double>(lowered.size()) / *cycles : 0;
  return result;
}

}  // namespace regscope::isa_detail
