// --stream-input: which readers let a graph input be streamed, and the memory
// model's place for it (no buffer in the arena nor the caller's).
#include <string>

#include "gtest/gtest.h"
#include "passes/analysis/memory_model.h"
#include "passes/transforms/patches.h"
#include "passes/transforms/stream_input.h"
#include "tests/unit/test_util.h"

namespace oc {
namespace {

using ::oc::testing::AddOp;

// x[1,2,8,8] -> relu -> relu -> copy out: a region from x to the second relu.
struct Chain {
  Program p;
  ValueId x, r1, r2;
  Chain() {
    x = p.AddInput("x", DType::kF32, {1, 2, 8, 8});
    r1 = AddOp(p, OpKind::kRelu, {x}, "r1", {1, 2, 8, 8});
    r2 = AddOp(p, OpKind::kRelu, {r1}, "r2", {1, 2, 8, 8});
    p.outputs().push_back(AddOp(p, OpKind::kCopy, {r2}, "out", {1, 2, 8, 8}));
  }
  // The program patched under `grid`, or a failure.
  bool Patch(PatchGrid grid) {
    const std::optional<PatchRegion> region = RegionBetween(p, x, r2);
    return region.has_value() && ApplyPatches(p, *region, grid).ok();
  }
};

TEST(StreamInputTest, RowBandsOfAGraphInputStream) {
  Chain c;
  ASSERT_TRUE(c.Patch({2, 1}));
  EXPECT_EQ(GraphInputIndex(c.p, c.p.inputs()[0]), 0);
  EXPECT_TRUE(CheckStreamableInput(c.p, 0).ok());
  auto arena_bytes = [](const MemoryModel& m) {
    int64_t bytes = 0;
    for (const Buffer& b : m.buffers) bytes += b.location == BufferLocation::kArena ? b.aligned_bytes : 0;
    return bytes;
  };
  AliasOptions aliases;
  aliases.io_in_arena = true;
  const MemoryModel whole = ComputeMemoryModel(c.p, 16, aliases);
  aliases.streamed_input = 0;
  const MemoryModel m = ComputeMemoryModel(c.p, 16, aliases);
  const Buffer& xb = m.buffers[m.buffer_of_value[c.p.inputs()[0]]];
  EXPECT_EQ(xb.location, BufferLocation::kStreamed);
  EXPECT_EQ(CallerIoBytes(m), 0);  // the output is in the arena, the input nowhere
  EXPECT_EQ(arena_bytes(m), arena_bytes(whole) - 2 * 8 * 8 * 4);
  EXPECT_LT(m.live_bytes[0], whole.live_bytes[0]);  // the first patch's slice, not the image
}

TEST(StreamInputTest, ColumnPatchesAndOtherReadersAreRefused) {
  Chain columns;
  ASSERT_TRUE(columns.Patch({2, 2}));
  const absl::Status sliced = CheckStreamableInput(columns.p, 0);
  EXPECT_NE(std::string(sliced.message()).find("less than whole rows"), std::string::npos) << sliced;
  Chain whole;  // unpatched: the relu reads the whole input
  const absl::Status read = CheckStreamableInput(whole.p, 0);
  EXPECT_NE(std::string(read.message()).find("(relu) outside a patch region"), std::string::npos) << read;
}

}  // namespace
}  // namespace oc
