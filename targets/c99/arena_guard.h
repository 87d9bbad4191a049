// The arena guard (--arena-guard): generated code that proves, on real data,
// that every statement writes only the bytes the memory model declares for
// it. The arena sits between two canary-filled guard zones; the run function
// fills everything with the canary, snapshots it before every statement and,
// after it, compares every byte outside the statement's declared writes (its
// results' arena bytes and its scratch). A difference stops the run with
// <NAME>_ERROR_ARENA_GUARD and records the step in <name>_arena_guard_step.
#ifndef ONNX_TO_C_TARGETS_C99_ARENA_GUARD_H_
#define ONNX_TO_C_TARGETS_C99_ARENA_GUARD_H_

#include <string>
#include <utility>
#include <vector>

#include "compiler/ir/program.h"
#include "passes/analysis/arena_occupants.h"
#include "passes/analysis/memory_model.h"
#include "passes/planning/arena_plan.h"
#include "targets/c99/arena_regions.h"
#include "targets/c99/code_writer.h"

namespace oc {

// The arena bytes statement `s` may write (its results' bytes in their arena
// occupants and its scratch occupant): sorted, merged [begin, end) ranges.
std::vector<std::pair<int64_t, int64_t>> DeclaredWrites(const Program& program,
                                                        const MemoryModel& model,
                                                        const ArenaPlan& plan, int s);

// The guarded arena storage, its snapshot and the check function (file scope).
// `gnu_attributes` is appended inside __attribute__((aligned(N) ...)), e.g. a section.
void EmitGuardedArena(const MemoryModel& model, const ArenaPlan& plan, const std::string& name,
                      const std::string& gnu_attributes, CodeWriter& w);
// In the run function: fill with the canary (only the zones around the arena
// when it holds the inputs) and take the first snapshot.
void EmitGuardStart(const MemoryModel& model, const ArenaPlan& plan, const std::string& name,
                    CodeWriter& w);
// In the run function, after statement `s` ran; a violation returns
// `error_status` (the header's <NAME>_ERROR_ARENA_GUARD).
void EmitGuardCheck(const Program& program, const MemoryModel& model, const ArenaPlan& plan,
                    const std::string& name, const std::string& error_status, int s,
                    CodeWriter& w);

// The same per region of a memory map: each region's array between its own
// guard zones (in its section), one <name>_arena_guard_step for all.
void EmitGuardedRegions(const MemoryModel& model, const std::string& name, const std::vector<EmitRegion>& regions,
                        CodeWriter& w);
void EmitRegionsGuardStart(const MemoryModel& model, const std::string& name,
                           const std::vector<EmitRegion>& regions, CodeWriter& w);
void EmitRegionsGuardCheck(const Program& program, const MemoryModel& model, const ArenaPlan& plan,
                           const std::string& name, const std::vector<EmitRegion>& regions,
                           const std::string& error_status, int s, CodeWriter& w);

}  // namespace oc

#endif  // ONNX_TO_C_TARGETS_C99_ARENA_GUARD_H_
