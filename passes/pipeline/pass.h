// Passes: named steps over the pipeline state (pipeline_state.h), registered
// in one table (pass_registry.cc) and run in order (`--passes=a,b,c`). Two
// kinds share the table: IR passes rewrite the program; memory stages
// (schedule, recompute, plan, ...) derive the schedule, the memory model and
// the arena plan from it. The IR passes are declared in
// passes/transforms/rewrites.h.
#ifndef ONNX_TO_C_PASSES_PIPELINE_PASS_H_
#define ONNX_TO_C_PASSES_PIPELINE_PASS_H_

#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/program.h"
#include "passes/pipeline/pipeline_state.h"
#include "passes/transforms/rewrites.h"

namespace oc {

enum class PassKind {
  kRewrite,  // rewrites the program; clears the schedule and the plan
  kCheck,    // checks the program, changes nothing
  kStage,    // a memory stage
};

struct PassInfo {
  absl::string_view name;
  absl::string_view summary;
  PassKind kind;
  absl::Status (*run)(PipelineState&);
  // A memory stage that needs the schedule (or the plan) of the program as
  // it is gets an error naming the stage to run first.
  bool needs_schedule = false;
  bool needs_plan = false;
};

const std::vector<PassInfo>& RegisteredPasses();
const PassInfo* FindPass(absl::string_view name);

// The IR passes onnx-to-c runs after import.
std::vector<std::string> DefaultPipeline();
// The memory stages after them, for these options (patches and recompute
// only when on).
std::vector<std::string> DefaultMemoryStages(bool recompute, bool patches = false);

struct PipelineOptions {
  bool verify_each = true;             // run the verifier after every IR pass
  std::ostream* print_after_all = nullptr;  // print the state after every pass
};

// Runs the named passes in order; errors name the pass.
absl::Status RunPipeline(PipelineState& state, const std::vector<std::string>& passes,
                         const PipelineOptions& options = {});

// The same on a program alone (default memory options): the program gets
// what the passes made of it.
absl::Status RunPipeline(Program& program, const std::vector<std::string>& passes,
                         PassStats& stats, const PipelineOptions& options = {});

// The IR, then what the stages derived so far (schedule, plan) as comments:
// what `--print-after-all`, `--emit=scheduled|planned` and oc-opt print.
std::string PrintPipelineState(const PipelineState& state, const PrintOptions& options = {});

// The memory stages (memory_stages.cc, recompute_stage.cc,
// kernel_scratch_stage.cc).
absl::Status RunBaselinesStage(PipelineState& state);
absl::Status RunScheduleStage(PipelineState& state);
absl::Status RunRecomputeStage(PipelineState& state);
absl::Status RunPatchesStage(PipelineState& state);
absl::Status RunBaselinePlansStage(PipelineState& state);
absl::Status RunPlanStage(PipelineState& state);
absl::Status RunJointOrderStage(PipelineState& state);
absl::Status RunKernelScratchStage(PipelineState& state);
absl::Status RunValidatePlanStage(PipelineState& state);
absl::Status RunRegionsStage(PipelineState& state);  // regions_stage.cc

}  // namespace oc

#endif  // ONNX_TO_C_PASSES_PIPELINE_PASS_H_
