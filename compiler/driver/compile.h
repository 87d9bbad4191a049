// The compile pipeline behind the onnx-to-c CLI: import, passes, memory
// model, arena plan, validation, C emission and the report.
#ifndef ONNX_TO_C_DRIVER_COMPILE_H_
#define ONNX_TO_C_DRIVER_COMPILE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/program.h"
#include "passes/arena_plan.h"
#include "passes/memory_model.h"
#include "passes/pass.h"
#include "passes/recompute_exact.h"
#include "passes/schedule.h"
#include "targets/c99/c_emitter.h"

namespace oc {

struct CompileOptions {
  std::string model_path;
  std::string name;                 // C prefix; empty: from the model file name
  std::vector<std::string> passes;  // empty: the default pipeline
  std::string planner = "best";     // linear | greedy | best
  int64_t plan_budget_ms = 300;
  std::string schedule = "best";    // file | rpo | heuristic | best
  int64_t schedule_budget_ms = 700;
  // Bound on all the searches together (see SearchBudgetsWithinLimit).
  int64_t time_limit_ms = 10000;
  int64_t alignment = 16;
  std::string target = "x86-64";  // x86-64 | cortex-m0 | cortex-m3 | cortex-m4 | cortex-m7
  std::string arena_section;      // linker section of the arena; empty: the compiler's choice
  std::string weights_section;    // linker section of the weights; empty: the compiler's choice
  std::string requant = "float";  // float | fixed: requantization of 8-bit layers
  bool emit_harness = false;
  bool arena_guard = false;
  bool overlap = true;  // input/output overlap contracts
  // Selective recompute (passes/recompute.h): extra runs per statement and
  // the total extra MACs as a percentage of the model's.
  bool recompute = false;
  int recompute_cap = 1;
  double recompute_mac_budget_percent = 1.0;
  // Arena bytes the fast kernels' scratch may add (kernel_scratch_stage.cc);
  // -1: max(5% of the scratch-free arena, 4096).
  int64_t kernel_scratch_budget = -1;
  std::ostream* print_after_all = nullptr;
  // Return right after the passes (--emit=ir): no schedule, plan or C.
  bool stop_after_passes = false;
  std::string command_line;  // for provenance (no output paths)
  // CI gates (compiler/driver/gates.h): fail, writing nothing, when the arena
  // exceeds this many bytes (-1: no limit) or the order is not certified.
  int64_t max_arena_bytes = -1;
  bool require_certified = false;
};

struct CompileResult {
  Program program;
  MemoryModel model;
  ArenaPlan plan;
  ScheduleReport schedule;
  int64_t linear_arena_bytes = 0;
  // TFLite Micro-style baseline: file order, activations fused, no other
  // aliasing, greedy-by-size offsets.
  int64_t tflite_style_arena_bytes = 0;
  // The arena with views only (no in-place, concat or split aliasing).
  int64_t views_only_arena_bytes = 0;
  // The arena with every alias but input/output overlap, same order.
  int64_t no_overlap_arena_bytes = 0;
  PassStats stats;
  std::vector<GeneratedFile> files;
  // Live arena bytes per step of the file order (the stored ONNX order).
  std::vector<int64_t> file_order_live_bytes;
  // Selective recompute, when on: what the pass kept (no clones when nothing
  // paid), the arena and peak before it, and the exact search on small
  // programs.
  struct Recompute {
    bool enabled = false;
    RecomputeResult result;
    ExactRecomputeResult exact;
    double ms = 0;
  } recompute;
  // The fast kernels' scratch (kernel_scratch_stage.cc): the budget in
  // force, the arena before any was given, and the statements that got it.
  struct KernelScratch {
    int64_t budget_bytes = 0;
    int64_t arena_without_bytes = 0;
    std::vector<int32_t> statements;  // ids
  } kernel_scratch;
  double import_ms = 0, passes_ms = 0, schedule_ms = 0, plan_ms = 0, emit_ms = 0;
};

// What each search may spend. The schedule search (local search, exact
// search, lower bounds) gets schedule_budget_ms, the arena planner's exact
// packing plan_budget_ms and the views-only baseline plan a quarter of that;
// when these add up to more than time_limit_ms, all three are scaled down
// together so that they fit. The defaults (700 + 300 + 75 ms) fit the default
// limit (10 s) as they are.
struct SearchBudgets {
  // The scheduler; the arena plan; the baselines' plans; the plans of other
  // orders of equal peak (joint choice).
  int64_t schedule_ms = 0, plan_ms = 0, baseline_plan_ms = 0, joint_plan_ms = 0;
  // Selective recompute (0 when off): its search, its exact search and the
  // rescheduling of the program it returns share this.
  int64_t recompute_ms = 0;
};
SearchBudgets SearchBudgetsWithinLimit(const CompileOptions& options);

// Runs selective recompute on the scheduled program in `result` (compile.cc
// calls it between scheduling and planning when options.recompute is set).
absl::Status RecomputeStage(const CompileOptions& options, const SearchBudgets& budgets,
                            const ScheduleOptions& schedule, CompileResult& result);

// Gives the row-band convolution kernel (and its scratch) to the padded
// convolutions that gain most per scratch byte, as long as the planned arena
// grows by at most the budget; re-plans the chosen order (compile.cc calls it
// after planning, within its plan time).
absl::Status KernelScratchStage(const CompileOptions& options, const SearchBudgets& budgets,
                                const ScheduleOptions& schedule, CompileResult& result);

// The C prefix for a model file: its stem made into a C identifier.
std::string DefaultNameForModel(const std::string& model_path);

absl::StatusOr<CompileResult> CompileModel(const CompileOptions& options);

// The same on model bytes already in memory (options.model_path unused;
// the C prefix defaults to "model"). Writes nothing.
absl::StatusOr<CompileResult> CompileModelBytes(const std::string& bytes,
                                                const CompileOptions& options);

// One line for the generated header: arena, peak, bound, certified or gap.
std::string CertificateSummary(const CompileResult& result);

// An ASCII picture of the arena plan (offsets against steps).
std::string ArenaPicture(const CompileResult& result, int rows = 24, int max_columns = 100);

// The JSON report of a compilation.
std::string MakeReport(const CompileOptions& options, const CompileResult& result);

}  // namespace oc

#endif  // ONNX_TO_C_DRIVER_COMPILE_H_
