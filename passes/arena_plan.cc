#include "passes/arena_plan.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "passes/interval_packing.h"

namespace oc {
namespace {

// One thing to place: a buffer or a statement's scratch.
struct Item {
  int64_t bytes;
  int first, last;
  int buffer = -1;     // or
  int statement = -1;  // scratch of this statement
  int group = -1;      // overlap contract chain (see IntervalItem)
  int64_t group_offset = 0;
};

std::vector<Item> ArenaItems(const Program& p, const MemoryModel& m) {
  std::vector<Item> items;
  std::vector<int> item_of_buffer(m.buffers.size(), -1);
  for (const Buffer& b : m.buffers) {
    if (b.location != BufferLocation::kArena) continue;
    item_of_buffer[b.id] = static_cast<int>(items.size());
    items.push_back({b.aligned_bytes, b.first_step, b.last_step, b.id, -1});
  }
  for (size_t s = 0; s < p.statements().size(); ++s) {
    int64_t scratch = StatementScratchBytes(p, m, static_cast<int>(s));
    if (scratch > 0) items.push_back({scratch, static_cast<int>(s), static_cast<int>(s), -1, static_cast<int>(s)});
  }
  // Overlap contracts chain buffers into groups with fixed relative offsets:
  // output = input - displacement. Chains only: a buffer is the input of at
  // most one contract (it dies there) and the output of at most one.
  std::vector<const OverlapContract*> as_input(m.buffers.size(), nullptr);
  std::vector<bool> is_output(m.buffers.size(), false);
  for (const OverlapContract& c : m.overlaps) {
    as_input[c.input_buffer] = &c;
    is_output[c.output_buffer] = true;
  }
  int group = 0;
  for (const Buffer& b : m.buffers) {
    if (!as_input[b.id] || is_output[b.id]) continue;  // start at a chain's head
    std::vector<std::pair<int, int64_t>> chain = {{b.id, 0}};
    for (const OverlapContract* c = as_input[b.id]; c; c = as_input[c->output_buffer]) {
      chain.push_back({c->output_buffer, chain.back().second - c->displacement});
    }
    int64_t lowest = 0;
    for (const auto& [buf, rel] : chain) lowest = std::min(lowest, rel);
    for (const auto& [buf, rel] : chain) {
      Item& it = items[item_of_buffer[buf]];
      it.group = group;
      it.group_offset = rel - lowest;
    }
    ++group;
  }
  return items;
}

ArenaPlan EmptyPlan(const Program& p, const MemoryModel& m, std::string name) {
  ArenaPlan plan;
  plan.planner = std::move(name);
  plan.buffer_offset.assign(m.buffers.size(), -1);
  plan.scratch_offset.assign(p.statements().size(), -1);
  return plan;
}

std::vector<IntervalItem> AsIntervals(const std::vector<Item>& items) {
  std::vector<IntervalItem> out;
  for (const Item& it : items) out.push_back({it.bytes, it.first, it.last, it.group, it.group_offset});
  return out;
}

ArenaPlan FromPacking(const Program& p, const MemoryModel& m, const std::vector<Item>& items,
                      const Packing& packing, std::string name) {
  ArenaPlan plan = EmptyPlan(p, m, std::move(name));
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].buffer >= 0) {
      plan.buffer_offset[items[i].buffer] = packing.offsets[i];
    } else {
      plan.scratch_offset[items[i].statement] = packing.offsets[i];
    }
  }
  plan.arena_bytes = packing.size;
  return plan;
}

}  // namespace

ArenaPlan PlanLinear(const Program& p, const MemoryModel& m) {
  std::vector<Item> items = ArenaItems(p, m);
  return FromPacking(p, m, items, PackLinear(AsIntervals(items)), "linear");
}

ArenaPlan PlanGreedyBySize(const Program& p, const MemoryModel& m) {
  std::vector<Item> items = ArenaItems(p, m);
  return FromPacking(p, m, items, PackGreedyBySize(AsIntervals(items), m.alignment), "greedy");
}

ArenaPlan PlanBest(const Program& p, const MemoryModel& m, int64_t budget_ms) {
  std::vector<Item> items = ArenaItems(p, m);
  std::vector<IntervalItem> intervals = AsIntervals(items);
  Packing packing = PackBestFit(intervals, m.alignment);
  Packing greedy = PackGreedyBySize(intervals, m.alignment);
  if (greedy.size < packing.size) packing = greedy;
  // Two exact searches share the budget: lowest point first, then by offset.
  const auto t0 = std::chrono::steady_clock::now();
  if (!packing.optimal) packing = PackExact(intervals, packing, t0 + std::chrono::milliseconds(budget_ms * 4 / 5));
  if (!packing.optimal) {
    packing = PackExactByOffset(intervals, packing, t0 + std::chrono::milliseconds(budget_ms));
  }
  return FromPacking(p, m, items, packing, "best");
}

absl::StatusOr<ArenaPlan> PlanArena(const std::string& planner, const Program& p,
                                    const MemoryModel& m, int64_t budget_ms) {
  if (planner == "linear") return PlanLinear(p, m);
  if (planner == "greedy") return PlanGreedyBySize(p, m);
  if (planner == "best") return PlanBest(p, m, budget_ms);
  return absl::InvalidArgumentError(absl::StrCat("unknown planner '", planner, "'"));
}

absl::Status ValidatePlan(const Program& p, const MemoryModel& m, const ArenaPlan& plan) {
  std::vector<Item> items = ArenaItems(p, m);
  auto offset_of = [&](const Item& it) {
    return it.buffer >= 0 ? plan.buffer_offset[it.buffer] : plan.scratch_offset[it.statement];
  };
  auto name_of = [&](const Item& it) {
    return it.buffer >= 0 ? absl::StrCat("buffer '", p.value(m.buffers[it.buffer].root).name, "'")
                          : absl::StrCat("scratch of statement ", it.statement);
  };
  for (const Item& it : items) {
    int64_t off = offset_of(it);
    if (off < 0 || off + it.bytes > plan.arena_bytes) {
      return absl::InternalError(absl::StrCat("arena plan: ", name_of(it), " lies outside the arena"));
    }
    if (off % m.alignment != 0) {
      return absl::InternalError(absl::StrCat("arena plan: ", name_of(it), " is misaligned"));
    }
  }
  // Buffers may share bytes while live together only as an overlap contract
  // declares: the output exactly `displacement` below the input, both live
  // together at the contract's statement only.
  auto contract_allows = [&](const Item& a, const Item& b) {
    if (a.buffer < 0 || b.buffer < 0) return false;
    for (const OverlapContract& c : m.overlaps) {
      const Item* in = a.buffer == c.input_buffer ? &a : b.buffer == c.input_buffer ? &b : nullptr;
      const Item* out = a.buffer == c.output_buffer ? &a : b.buffer == c.output_buffer ? &b : nullptr;
      if (!in || !out || in == out) continue;
      return offset_of(*out) == offset_of(*in) - c.displacement && in->last == c.statement &&
             out->first == c.statement;
    }
    return false;
  };
  for (size_t i = 0; i < items.size(); ++i) {
    for (size_t j = i + 1; j < items.size(); ++j) {
      const Item &a = items[i], &b = items[j];
      bool live_together = a.first <= b.last && b.first <= a.last;
      int64_t oa = offset_of(a), ob = offset_of(b);
      bool share_bytes = oa < ob + b.bytes && ob < oa + a.bytes;
      if (live_together && share_bytes && !contract_allows(a, b)) {
        return absl::InternalError(absl::StrCat("arena plan: ", name_of(a), " and ", name_of(b),
                                                " are live together and overlap"));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace oc
