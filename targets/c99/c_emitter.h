// The C99 target: generated sources from a scheduled, planned program.
#ifndef ONNX_TO_C_TARGETS_C99_C_EMITTER_H_
#define ONNX_TO_C_TARGETS_C99_C_EMITTER_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/program.h"
#include "compiler/target/target.h"
#include "passes/analysis/memory_model.h"
#include "passes/planning/arena_plan.h"
#include "targets/c99/arena_regions.h"

namespace oc {

struct EmitOptions {
  std::string name;        // C identifier prefix of the API
  std::string provenance;  // comment lines for the header (tool, model, options)
  std::string certificate; // one-line summary of the memory numbers
  bool harness = false;    // also write NAME_harness.c
  bool arena_guard = false;  // check every statement's writes (see arena_guard.h)
  const Target* target = FindTarget("x86-64");  // never null; named in the header as NAME_TARGET
  std::string arena_section;      // if set: __attribute__((section)) on the arena (GNU C only)
  std::string weights_section;    // if set: the same on every weight array
  bool requant_fixed = false;     // 8-bit layers requantize in fixed point (else float32)
  // --memory-map: one array per region, in its section (empty: one arena).
  std::vector<EmitRegion> regions;
};

struct GeneratedFile {
  std::string name;
  std::string contents;
};

absl::StatusOr<std::vector<GeneratedFile>> EmitC(const Program& program, const MemoryModel& model,
                                                 const ArenaPlan& plan, const EmitOptions& options);

}  // namespace oc

#endif  // ONNX_TO_C_TARGETS_C99_C_EMITTER_H_
