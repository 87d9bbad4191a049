// What occupies the static arena of a compiled model, as the reports name it:
// the occupants of passes/analysis/arena_occupants.h with their names and planned
// offsets. The HTML report draws these; the CI gates name the biggest at the
// peak step.
#ifndef ONNX_TO_C_DRIVER_ARENA_ITEMS_H_
#define ONNX_TO_C_DRIVER_ARENA_ITEMS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/driver/compile.h"

namespace oc {

struct ArenaItem {
  std::string name;  // the value naming the buffer, or the node whose scratch it is
  bool scratch = false;
  int64_t offset = 0;
  int64_t bytes = 0;  // aligned, as counted in the live bytes
  int first_step = 0;
  int last_step = 0;
  // At an overlap contract's step: the input the buffer lies partly over
  // (`bytes` then counts only what lies beyond it).
  std::string over;
};

// In ArenaOccupants order: buffers by buffer id, then scratch in step order.
std::vector<ArenaItem> ArenaItems(const CompileResult& result);

// The items live at `step`, biggest first (ties by offset).
std::vector<ArenaItem> LiveItemsAt(const CompileResult& result, int step);

// "'a' (4096 bytes), scratch of 'conv' (64 bytes)" for the first `limit` items.
std::string DescribeItems(const std::vector<ArenaItem>& items, size_t limit);

}  // namespace oc

#endif  // ONNX_TO_C_DRIVER_ARENA_ITEMS_H_
