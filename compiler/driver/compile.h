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
#include "targets/c99/c_emitter.h"

namespace oc {

struct CompileOptions {
  std::string model_path;
  std::string name;                 // C prefix; empty: from the model file name
  std::vector<std::string> passes;  // empty: the default pipeline
  std::string planner = "greedy";   // linear | greedy
  int64_t alignment = 16;
  bool emit_harness = false;
  std::ostream* print_after_all = nullptr;
  std::string command_line;  // for provenance (no output paths)
};

struct CompileResult {
  Program program;
  MemoryModel model;
  ArenaPlan plan;
  int64_t linear_arena_bytes = 0;
  PassStats stats;
  std::vector<GeneratedFile> files;
  double import_ms = 0, passes_ms = 0, plan_ms = 0, emit_ms = 0;
};

// The C prefix for a model file: its stem made into a C identifier.
std::string DefaultNameForModel(const std::string& model_path);

absl::StatusOr<CompileResult> CompileModel(const CompileOptions& options);

// The JSON report of a compilation.
std::string MakeReport(const CompileOptions& options, const CompileResult& result);

}  // namespace oc

#endif  // ONNX_TO_C_DRIVER_COMPILE_H_
