// The planning search: the IR passes, then the memory stages on the program
// and on the variants that can only help (the channels-last layout, concat
// buffers in parts instead of under an overlap contract, contracts cut where
// their chains pack above the peak); the smallest arena wins. The driver
// fills the options from its command line; oc-opt runs it on IR text
// (--plan-search).
#ifndef ONNX_TO_C_PASSES_PIPELINE_PLAN_SEARCH_H_
#define ONNX_TO_C_PASSES_PIPELINE_PLAN_SEARCH_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "passes/pipeline/pass.h"
#include "passes/pipeline/pipeline_state.h"

namespace oc {

struct PlanSearchOptions {
  // Empty: the default IR passes, then the default memory stages. Given: the
  // IR passes to run; the memory stages follow unless the list has some.
  std::vector<std::string> passes;
  // The default memory stages include `recompute` (and `patches` when the
  // state's memory options turn patches on).
  bool recompute = false;
  // Activations NCHW, NHWC where kernels allow (the channels-last pass), or
  // auto: NHWC when a convolution can stream and the arena is smaller. Only
  // with the default passes.
  enum class Layout { kNchw, kNhwc, kAuto };
  Layout layout = Layout::kAuto;
  // How far to go: every memory stage, or stop after the IR passes or after
  // the schedule stage.
  enum class Until { kPlanned, kScheduled, kIr };
  Until until = Until::kPlanned;
  PipelineOptions pipeline;
};

struct PlanSearchResult {
  bool channels_last = false;  // the state holds the channels-last program
  // Milliseconds: the IR passes; the chosen variant's schedule stage and its
  // other memory stages.
  double passes_ms = 0, schedule_ms = 0, plan_ms = 0;
};

// Runs the search on `state` (the program as imported, the memory options
// set), which becomes the chosen variant's state; its pass_ms then holds the
// chosen variant's memory stages (the IR passes' with Until::kIr).
absl::StatusOr<PlanSearchResult> RunPlanSearch(PipelineState& state,
                                               const PlanSearchOptions& options);

}  // namespace oc

#endif  // ONNX_TO_C_PASSES_PIPELINE_PLAN_SEARCH_H_
