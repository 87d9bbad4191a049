#include "passes/arena_plan.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace oc {
namespace {

// One thing to place: a buffer or a statement's scratch.
struct Item {
  int64_t bytes;
  int first, last;
  int buffer = -1;     // or
  int statement = -1;  // scratch of this statement
};

std::vector<Item> ArenaItems(const Program& p, const MemoryModel& m) {
  std::vector<Item> items;
  for (const Buffer& b : m.buffers) {
    if (b.location != BufferLocation::kArena) continue;
    items.push_back({b.aligned_bytes, b.first_step, b.last_step, b.id, -1});
  }
  for (size_t s = 0; s < p.statements().size(); ++s) {
    int64_t scratch = AlignUp(p.statements()[s].scratch_bytes, m.alignment);
    if (scratch > 0) items.push_back({scratch, static_cast<int>(s), static_cast<int>(s), -1, static_cast<int>(s)});
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

void Place(ArenaPlan& plan, const Item& item, int64_t offset) {
  if (item.buffer >= 0) {
    plan.buffer_offset[item.buffer] = offset;
  } else {
    plan.scratch_offset[item.statement] = offset;
  }
  plan.arena_bytes = std::max(plan.arena_bytes, offset + item.bytes);
}

}  // namespace

ArenaPlan PlanLinear(const Program& p, const MemoryModel& m) {
  ArenaPlan plan = EmptyPlan(p, m, "linear");
  int64_t offset = 0;
  for (const Item& item : ArenaItems(p, m)) {
    Place(plan, item, offset);
    offset += item.bytes;
  }
  return plan;
}

ArenaPlan PlanGreedyBySize(const Program& p, const MemoryModel& m) {
  ArenaPlan plan = EmptyPlan(p, m, "greedy");
  std::vector<Item> items = ArenaItems(p, m);
  std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
    if (a.bytes != b.bytes) return a.bytes > b.bytes;
    return a.first < b.first;
  });
  struct Placed {
    int64_t offset, bytes;
    int first, last;
  };
  std::vector<Placed> placed;
  for (const Item& item : items) {
    // Occupied ranges of the items whose lifetimes overlap this one, by offset.
    std::vector<std::pair<int64_t, int64_t>> busy;
    for (const Placed& q : placed) {
      if (q.last >= item.first && q.first <= item.last) busy.emplace_back(q.offset, q.offset + q.bytes);
    }
    std::sort(busy.begin(), busy.end());
    int64_t offset = 0;
    for (const auto& [lo, hi] : busy) {
      if (lo >= offset + item.bytes) break;  // the gap before this range fits
      offset = std::max(offset, hi);
    }
    Place(plan, item, offset);
    placed.push_back({offset, item.bytes, item.first, item.last});
  }
  return plan;
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
  for (size_t i = 0; i < items.size(); ++i) {
    for (size_t j = i + 1; j < items.size(); ++j) {
      const Item &a = items[i], &b = items[j];
      bool live_together = a.first <= b.last && b.first <= a.last;
      int64_t oa = offset_of(a), ob = offset_of(b);
      bool share_bytes = oa < ob + b.bytes && ob < oa + a.bytes;
      if (live_together && share_bytes) {
        return absl::InternalError(absl::StrCat("arena plan: ", name_of(a), " and ", name_of(b),
                                                " are live together and overlap"));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace oc
