// The compile pipeline behind the onnx-to-c CLI: import, passes, memory
// model, arena plan, validation, C emission and the report.
#ifndef ONNX_TO_C_DRIVER_COMPILE_H_
#define ONNX_TO_C_DRIVER_COMPILE_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/import/dim_values.h"
#include "compiler/ir/program.h"
#include "compiler/target/target.h"
#include "passes/analysis/memory_model.h"
#include "passes/pipeline/pass.h"
#include "passes/pipeline/pipeline_state.h"
#include "passes/pipeline/plan_search.h"
#include "passes/planning/arena_plan.h"
#include "passes/planning/recompute_exact.h"
#include "passes/planning/schedule.h"
#include "targets/c99/c_emitter.h"

namespace oc {

struct CompileOptions {
  std::string model_path;
  std::string name;                 // C prefix; empty: from the model file name
  DimValues dim_values;             // --dim: symbolic dimensions pinned to values
  // Empty: the default IR passes, then the default memory stages. Given: the
  // IR passes to run; the memory stages follow unless the list has some.
  std::vector<std::string> passes;
  Planner planner = Planner::kBest;
  ScheduleMode schedule = ScheduleMode::kBest;
  // Scales every search's work budget (SearchBudgetsFor); 0: heuristics only.
  double search_effort = 1.0;
  // A hard stop on the searches together, in wall-clock time (-1: none). The
  // budgets are work units, so it fires only on a machine far slower than the
  // defaults assume, and the report then says so.
  int64_t time_limit_ms = 60000;
  int64_t alignment = 16;
  const Target* target = FindTarget("x86-64");  // never null
  std::string arena_section;      // linker section of the arena; empty: the compiler's choice
  std::string weights_section;    // linker section of the weights; empty: the compiler's choice
  std::string requant = "float";  // float | fixed: requantization of 8-bit layers
  bool emit_harness = false;
  bool arena_guard = false;
  bool overlap = true;  // input/output overlap contracts
  bool io_in_arena = false;  // --io=arena: graph inputs and outputs in the arena
  // --quantized-io: 8-bit inputs and outputs where QuantizeLinear and
  // DequantizeLinear meet them (passes/transforms/quantized_io.h).
  bool quantized_io = false;
  // --layout: activations NCHW, NHWC where kernels allow (passes/transforms/channels_last.cc),
  // or auto: NHWC when a convolution can stream and the arena is smaller
  // (the planning search, passes/pipeline/plan_search.h).
  using Layout = PlanSearchOptions::Layout;
  Layout layout = Layout::kAuto;
  // Selective recompute (passes/planning/recompute.h): extra runs per statement and
  // the total extra MACs as a percentage of the model's.
  bool recompute = false;
  int recompute_cap = 1;
  double recompute_mac_budget_percent = 1.0;
  // Patch-based execution (passes/transforms/patches.h), under the same MAC budget.
  MemoryOptions::Patches patches = MemoryOptions::Patches::kOff;
  // --stream-input: the patch region starts at a graph input whose rows the
  // firmware delivers (passes/transforms/stream_input.h).
  bool stream_input = false;
  // Arena bytes the fast kernels' scratch may add (passes/pipeline/kernel_scratch_stage.cc);
  // -1: none, scratch only in the plan's free bytes.
  int64_t kernel_scratch_budget = -1;
  std::ostream* print_after_all = nullptr;
  // How far to go: everything, or stop without C after the IR passes
  // (--emit=ir), after the schedule stage (--emit=scheduled) or after the
  // memory stages (--emit=planned, the plan validated, the gates not checked).
  enum class Until { kC, kIr, kScheduled, kPlanned };
  Until until = Until::kC;
  std::string command_line;  // for provenance (no output paths)
  // CI gates (compiler/driver/gates.h): fail, writing nothing, when the arena
  // exceeds this many bytes (-1: no limit) or the order is not certified.
  int64_t max_arena_bytes = -1;
  bool require_certified = false;
  // --memory-map: the board's RAM regions (null: one arena).
  std::shared_ptr<const MemoryMap> memory_map;
};

// The memory pipeline's final state (program, schedule, model, plan,
// baselines, recompute and kernel-scratch summaries), the generated files and
// the time each phase took.
struct CompileResult : PipelineState {
  std::vector<GeneratedFile> files;
  DimValues defaulted_dims;  // symbolic batch dimensions the import pinned to 1
  bool channels_last = false;  // the channels-last pass ran (--layout)
  std::vector<std::string> float_outputs;  // --quantized-io: why an output stayed float
  double import_ms = 0, passes_ms = 0, schedule_ms = 0, plan_ms = 0, emit_ms = 0;
};

// What each search may spend, in work units: the defaults
// (kDefaultScheduleBudget, kDefaultPlanBudget and their parts) times
// `search_effort`, and the hard stop of `time_limit_ms` from now.
SearchBudgets SearchBudgetsFor(const CompileOptions& options);

// The memory stages' options for these compile options.
MemoryOptions MemoryOptionsFor(const CompileOptions& options);

// The planning search's options for these compile options.
PlanSearchOptions PlanSearchOptionsFor(const CompileOptions& options);

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
