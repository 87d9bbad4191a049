// What occupies the static arena: every arena buffer with its aligned size and
// live steps (a buffer with parts: each part, the parts a group at fixed
// offsets), and every statement's scratch (the kernel's scratch followed by
// its overlap contract's plane or block scratch) for the one step it runs.
// The single list that the arena planner packs, the reports draw and the arena
// guard checks, so that they cannot disagree about the arena's contents.
#ifndef ONNX_TO_C_PASSES_ANALYSIS_ARENA_OCCUPANTS_H_
#define ONNX_TO_C_PASSES_ANALYSIS_ARENA_OCCUPANTS_H_

#include <cstdint>
#include <vector>

#include "compiler/ir/program.h"
#include "passes/analysis/memory_model.h"

namespace oc {

struct ArenaOccupant {
  enum class Kind { kBuffer, kScratch };
  Kind kind = Kind::kBuffer;
  int buffer = -1;     // kBuffer: the buffer id
  int64_t part_offset = 0;  // kBuffer: where in the buffer it starts (a part; 0: the whole)
  int statement = -1;  // kScratch: the statement (program index, also its step)
  int64_t bytes = 0;   // aligned bytes to place (scratch: kernel_scratch + contract_scratch)
  int first_step = 0;
  int last_step = 0;
  // kScratch: the statement's kernel scratch (aligned) at the start of its
  // bytes, then its overlap contract's scratch.
  int64_t kernel_scratch = 0;
  int64_t contract_scratch = 0;
  // kBuffer in an overlap contract chain: the chain (numbered from 0) and the
  // buffer's fixed offset above the chain's lowest byte (see IntervalItem).
  int group = -1;
  int64_t group_offset = 0;
  // kBuffer, the output of an overlap contract: at `credit_step` (the
  // contract's statement) it lies over buffer `over_buffer`, its dying input,
  // and only `bytes - credit` of its bytes are in addition to the input's.
  int64_t credit = 0;
  int credit_step = -1;
  int over_buffer = -1;

  bool IsBuffer() const { return kind == Kind::kBuffer; }
  bool LiveAt(int step) const { return first_step <= step && step <= last_step; }
  // The bytes it adds to the live bytes at `step` (0 when not live there).
  int64_t BytesAt(int step) const {
    return !LiveAt(step) ? 0 : step == credit_step ? bytes - credit : bytes;
  }
};

// The arena buffers in buffer id order, then the scratch of every statement
// that has some, in program order.
std::vector<ArenaOccupant> ArenaOccupants(const Program& program, const MemoryModel& model);

}  // namespace oc

#endif  // ONNX_TO_C_PASSES_ANALYSIS_ARENA_OCCUPANTS_H_
