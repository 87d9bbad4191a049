#include <chrono>

#include "absl/strings/str_cat.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/verifier.h"
#include "passes/pipeline/pass.h"
#include "passes/transforms/quantized_io.h"

namespace oc {
namespace {

// An IR pass as a pipeline step: it rewrites the program, so what the
// stages derived from the program before no longer holds.
template <absl::Status (*Rewrite)(Program&, PassStats&)>
absl::Status OnProgram(PipelineState& state) {
  state.scheduled = false;
  state.planned = false;
  return Rewrite(state.program, state.stats);
}

absl::Status RunVerify(PipelineState& state) { return VerifyProgram(state.program); }

absl::Status RunQuantizedIo(Program& program, PassStats& stats) {
  return ConvertQuantizedIo(program, stats);
}

// fuse-qdq keeps a graph input's QuantizeLinear apart when inputs live in the arena.
absl::Status RunFuseQdqFor(PipelineState& state) {
  state.scheduled = false;
  state.planned = false;
  return RunFuseQdq(state.program, state.stats, state.memory.aliases.io_in_arena);
}

// channels-last relays a graph input in place only when inputs live in the arena.
absl::Status RunChannelsLastFor(PipelineState& state) {
  state.scheduled = false;
  state.planned = false;
  return RunChannelsLast(state.program, state.stats, state.memory.aliases.io_in_arena);
}

}  // namespace

const std::vector<PassInfo>& RegisteredPasses() {
  using K = PassKind;
  static const std::vector<PassInfo> kPasses = {
      {"dce", "remove statements whose results nothing reads", K::kRewrite,
       OnProgram<RunDeadCodeElimination>},
      {"fold-channel-affine",
       "fold a per-channel scale and bias (BatchNormalization) into the preceding convolution",
       K::kRewrite, OnProgram<RunFoldChannelAffine>},
      {"fuse-hard-swish", "rewrite x * HardSigmoid(x) (alpha 1/6, beta 1/2) as HardSwish(x)",
       K::kRewrite, OnProgram<RunFuseHardSwish>},
      {"channels-last",
       "store the activations of float convolution stacks NHWC (weights re-laid) so that "
       "convolutions can stream over their input",
       K::kRewrite, RunChannelsLastFor},
      {"fuse-activation", "fuse an activation into the Conv/Gemm/MatMul that produces its input",
       K::kRewrite, OnProgram<RunFuseActivation>},
      {"fuse-qdq",
       "fuse DequantizeLinear -> layer -> QuantizeLinear (and QLinearConv/QLinearMatMul) into "
       "8-bit layers",
       K::kRewrite, RunFuseQdqFor},
      {"quantized-io",
       "make float inputs read only by QuantizeLinear and float outputs written by "
       "DequantizeLinear 8-bit (--quantized-io; run before fuse-qdq)",
       K::kRewrite, OnProgram<RunQuantizedIo>},
      {"verify", "check the IR's invariants", K::kCheck, RunVerify},
      // Memory stages, in the order DefaultMemoryStages runs them.
      {"baselines",
       "file-order live bytes per step and the TFLite Micro-style arena (run before schedule)",
       K::kStage, RunBaselinesStage},
      {"schedule", "choose the operator order of least peak and certify it with a lower bound",
       K::kStage, RunScheduleStage},
      {"patches",
       "run the region around the peak patch by patch (halos recomputed) where the planned arena "
       "drops (within the MAC budget), then reschedule",
       K::kStage, RunPatchesStage, /*needs_schedule=*/true},
      {"recompute",
       "clone cheap producers before late readers where the planned arena drops (within the MAC "
       "budget), then reschedule",
       K::kStage, RunRecomputeStage, /*needs_schedule=*/true},
      {"baseline-plans", "arenas of the scheduled order with no reuse, views only and no overlap",
       K::kStage, RunBaselinePlansStage},
      {"plan", "compute the memory model and give every arena occupant an offset", K::kStage,
       RunPlanStage},
      {"joint-order",
       "among orders of equal peak, take one whose arena plan is smaller", K::kStage,
       RunJointOrderStage, /*needs_schedule=*/true, /*needs_plan=*/true},
      {"kernel-scratch",
       "give the row-band convolution (and its scratch) where the arena grows by at most the "
       "budget; recertify the order",
       K::kStage, RunKernelScratchStage, /*needs_schedule=*/true, /*needs_plan=*/true},
      {"validate-plan", "check the arena plan without trusting the planner", K::kStage,
       RunValidatePlanStage, /*needs_schedule=*/false, /*needs_plan=*/true},
      {"regions",
       "with a memory map: every arena occupant into one region, fit first, then the least access "
       "cost; each region packed as its own arena",
       K::kStage, RunRegionsStage, /*needs_schedule=*/false, /*needs_plan=*/true},
  };
  return kPasses;
}

const PassInfo* FindPass(absl::string_view name) {
  for (const PassInfo& p : RegisteredPasses()) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

std::vector<std::string> DefaultPipeline() {
  return {"fold-channel-affine", "fuse-hard-swish", "fuse-activation", "fuse-qdq", "dce"};
}

std::vector<std::string> DefaultMemoryStages(bool recompute, bool patches) {
  std::vector<std::string> stages = {"baselines", "schedule"};
  if (patches) stages.push_back("patches");
  if (recompute) stages.push_back("recompute");
  for (const char* s : {"baseline-plans", "plan", "joint-order", "kernel-scratch", "validate-plan"}) {
    stages.push_back(s);
  }
  return stages;
}

absl::Status RunPipeline(PipelineState& state, const std::vector<std::string>& passes,
                         const PipelineOptions& options) {
  for (const std::string& name : passes) {
    const PassInfo* pass = FindPass(name);
    if (!pass) return absl::InvalidArgumentError(absl::StrCat("unknown pass '", name, "'"));
    if (pass->needs_schedule && !state.scheduled) {
      return absl::InvalidArgumentError(
          absl::StrCat("pass ", name, " needs the schedule stage to run before it"));
    }
    if (pass->needs_plan && !state.planned) {
      return absl::InvalidArgumentError(
          absl::StrCat("pass ", name, " needs the plan stage to run before it"));
    }
    const auto t0 = std::chrono::steady_clock::now();
    absl::Status st = pass->run(state);
    state.pass_ms[name] +=
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (!st.ok()) {
      return absl::Status(st.code(), absl::StrCat("pass ", name, ": ", st.message()));
    }
    if (options.verify_each && pass->kind == PassKind::kRewrite) {
      st = VerifyProgram(state.program);
      if (!st.ok()) {
        return absl::InternalError(
            absl::StrCat("the IR is invalid after pass ", name, ": ", st.message()));
      }
    }
    if (options.print_after_all) {
      *options.print_after_all << "// -----// IR after " << name << " //----- //\n"
                               << PrintPipelineState(state, {.max_constant_bytes = 64});
    }
  }
  return absl::OkStatus();
}

absl::Status RunPipeline(Program& program, const std::vector<std::string>& passes,
                         PassStats& stats, const PipelineOptions& options) {
  PipelineState state;
  state.program = std::move(program);
  state.stats = std::move(stats);
  absl::Status st = RunPipeline(state, passes, options);
  program = std::move(state.program);
  stats = std::move(state.stats);
  return st;
}

}  // namespace oc
