#include "passes/planning/arena_plan.h"

#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "passes/planning/interval_packing.h"
#include "passes/planning/packing_bound.h"

namespace oc {
namespace {

ArenaPlan EmptyPlan(const Program& p, const MemoryModel& m, std::string name) {
  ArenaPlan plan;
  plan.planner = std::move(name);
  plan.buffer_offset.assign(m.buffers.size(), -1);
  plan.scratch_offset.assign(p.statements().size(), -1);
  return plan;
}

// The packing instance: one interval item per occupant, in the same order.
std::vector<IntervalItem> AsIntervals(const std::vector<ArenaOccupant>& items) {
  std::vector<IntervalItem> out;
  for (const ArenaOccupant& it : items) {
    out.push_back({it.bytes, it.first_step, it.last_step, it.group, it.group_offset});
  }
  return out;
}

ArenaPlan FromPacking(const Program& p, const MemoryModel& m,
                      const std::vector<ArenaOccupant>& items, const Packing& packing,
                      std::string name) {
  ArenaPlan plan = EmptyPlan(p, m, std::move(name));
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].IsBuffer()) {
      plan.buffer_offset[items[i].buffer] = packing.offsets[i] - items[i].part_offset;
    } else {
      plan.scratch_offset[items[i].statement] = packing.offsets[i];
    }
  }
  plan.arena_bytes = packing.size;
  plan.proven_optimal = packing.proven;
  return plan;
}

}  // namespace

int64_t OccupantOffset(const ArenaPlan& plan, const ArenaOccupant& o) {
  const std::vector<int64_t>& offsets = o.IsBuffer() ? plan.buffer_offset : plan.scratch_offset;
  const int index = o.IsBuffer() ? o.buffer : o.statement;
  if (index < 0 || static_cast<size_t>(index) >= offsets.size() || offsets[index] < 0) return -1;
  return offsets[index] + (o.IsBuffer() ? o.part_offset : 0);
}

int64_t TotalRamBytes(const ArenaPlan& plan, const MemoryModel& model) {
  return plan.arena_bytes + CallerIoBytes(model);
}

ArenaPlan PlanLinear(const Program& p, const MemoryModel& m) {
  std::vector<ArenaOccupant> items = ArenaOccupants(p, m);
  return FromPacking(p, m, items, PackLinear(AsIntervals(items)), "linear");
}

ArenaPlan PlanGreedyBySize(const Program& p, const MemoryModel& m) {
  std::vector<ArenaOccupant> items = ArenaOccupants(p, m);
  return FromPacking(p, m, items, PackGreedyBySize(AsIntervals(items), m.alignment), "greedy");
}

// Best fit and greedy, then the exact searches, which stop at the groups'
// extent bound (packing_bound.h) when it is above max-live.
Packing PackBest(const std::vector<IntervalItem>& intervals, int64_t alignment, WorkBudget& budget) {
  Packing packing = PackBestFit(intervals, alignment);
  Packing greedy = PackGreedyBySize(intervals, alignment);
  if (greedy.size < packing.size) packing = greedy;
  const int64_t bound = GroupExtentBound(intervals).bytes;
  packing.proven = packing.size <= bound;
  if (!packing.proven) {
    WorkBudget most(budget, budget.ShareOfLeft(4, 5));
    packing = PackExact(intervals, packing, most, nullptr, bound);
  }
  if (!packing.proven) packing = PackExactByOffset(intervals, packing, budget, nullptr, bound);
  return packing;
}

namespace {

// The occupants with every buffer's parts joined into one occupant live over
// all of theirs: a packing of these places the parts too (each at its
// buffer's offset plus its own), so it is one the planner may fall back on.
std::vector<ArenaOccupant> JoinParts(const std::vector<ArenaOccupant>& items) {
  std::map<int, int> occupants_of_buffer;
  for (const ArenaOccupant& it : items) {
    if (it.IsBuffer()) ++occupants_of_buffer[it.buffer];
  }
  std::vector<ArenaOccupant> out;
  std::map<int, size_t> joined;  // buffer -> its index in out
  for (const ArenaOccupant& it : items) {
    if (!it.IsBuffer() || occupants_of_buffer[it.buffer] < 2) {
      out.push_back(it);
      continue;
    }
    auto [at, fresh] = joined.insert({it.buffer, out.size()});
    if (fresh) {
      out.push_back(it);
      ArenaOccupant& whole = out.back();
      whole.group = -1;
      whole.group_offset = whole.part_offset = 0;
      whole.bytes = it.part_offset + it.bytes;
      continue;
    }
    ArenaOccupant& whole = out[at->second];
    whole.bytes = std::max(whole.bytes, it.part_offset + it.bytes);
    whole.first_step = std::min(whole.first_step, it.first_step);
    whole.last_step = std::max(whole.last_step, it.last_step);
  }
  return out;
}

}  // namespace

ArenaPlan PlanBest(const Program& p, const MemoryModel& m) {
  WorkBudget budget(kDefaultPlanBudget);
  return PlanBest(p, m, budget);
}

ArenaPlan PlanBest(const Program& p, const MemoryModel& m, WorkBudget& budget) {
  std::vector<ArenaOccupant> items = ArenaOccupants(p, m);
  bool has_parts = false;
  for (const Buffer& b : m.buffers) has_parts = has_parts || !b.parts.empty();
  if (!has_parts) return FromPacking(p, m, items, PackBest(AsIntervals(items), m.alignment, budget), "best");
  // Parts at fixed offsets are harder to pack: the plan with each concat
  // buffer whole competes, so parts never make the arena larger.
  Packing parts;
  {
    WorkBudget half(budget, budget.ShareOfLeft(1, 2));
    parts = PackBest(AsIntervals(items), m.alignment, half);
  }
  if (parts.size == m.peak_bytes) return FromPacking(p, m, items, parts, "best");
  const std::vector<ArenaOccupant> whole = JoinParts(items);
  Packing joined = PackBest(AsIntervals(whole), m.alignment, budget);
  // Joined parts are one way to pack the parts: their search proves nothing
  // about the parts' packings, short of reaching the parts' max-live.
  joined.proven = joined.size <= MaxLive(AsIntervals(items));
  return joined.size < parts.size ? FromPacking(p, m, whole, joined, "best")
                                  : FromPacking(p, m, items, parts, "best");
}

std::vector<int32_t> ContractCutsThatPack(const Program& p, const MemoryModel& m,
                                          int64_t arena_bytes) {
  if (m.overlaps.size() < 2) return {};
  int64_t best = arena_bytes;
  std::vector<bool> best_cut;
  std::set<std::vector<bool>> tried;
  for (double t : {4.0, 2.0, 1.0, 0.5, 0.25, 0.0}) {
    std::vector<bool> cut(m.overlaps.size());
    for (size_t i = 0; i < cut.size(); ++i) {
      cut[i] = static_cast<double>(m.overlaps[i].displacement) > t * m.overlaps[i].credit;
    }
    if (std::find(cut.begin(), cut.end(), true) == cut.end() || !tried.insert(cut).second) continue;
    std::vector<int32_t> ids;
    for (size_t i = 0; i < cut.size(); ++i) {
      if (cut[i]) ids.push_back(p.statements()[m.overlaps[i].statement].id);
    }
    const int64_t size = QuickArenaWithout(p, m, ids);
    if (size < best) {
      best = size;
      best_cut = cut;
    }
  }
  std::vector<int32_t> ids;
  for (size_t i = 0; i < best_cut.size(); ++i) {
    if (best_cut[i]) ids.push_back(p.statements()[m.overlaps[i].statement].id);
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

int64_t QuickArenaWithout(const Program& p, const MemoryModel& m, const std::vector<int32_t>& cut) {
  MemoryModel trial = m;
  trial.overlaps.clear();
  trial.overlap_of_statement.assign(m.overlap_of_statement.size(), -1);
  for (const OverlapContract& c : m.overlaps) {
    if (std::find(cut.begin(), cut.end(), p.statements()[c.statement].id) != cut.end()) continue;
    trial.overlap_of_statement[c.statement] = static_cast<int>(trial.overlaps.size());
    trial.overlaps.push_back(c);
  }
  const std::vector<IntervalItem> items = AsIntervals(ArenaOccupants(p, trial));
  return std::min(PackBestFit(items, m.alignment).size, PackGreedyBySize(items, m.alignment).size);
}

absl::string_view PlannerName(Planner planner) {
  switch (planner) {
    case Planner::kLinear: return "linear";
    case Planner::kGreedy: return "greedy";
    case Planner::kBest: return "best";
  }
  return "best";
}

std::optional<Planner> ParsePlanner(absl::string_view word) {
  for (Planner p : {Planner::kLinear, Planner::kGreedy, Planner::kBest}) {
    if (PlannerName(p) == word) return p;
  }
  return std::nullopt;
}

ArenaPlan PlanArena(Planner planner, const Program& p, const MemoryModel& m, WorkBudget& budget) {
  switch (planner) {
    case Planner::kLinear: return PlanLinear(p, m);
    case Planner::kGreedy: return PlanGreedyBySize(p, m);
    case Planner::kBest: break;
  }
  return PlanBest(p, m, budget);
}

ArenaBound ArenaLowerBound(const Program& p, const MemoryModel& m) {
  const PackingBound b = GroupExtentBound(AsIntervals(ArenaOccupants(p, m)));
  if (b.bytes > m.peak_bytes) return {b.bytes, b.step, true};
  return {m.peak_bytes, m.peak_step, false};
}

absl::Status ValidatePlan(const Program& p, const MemoryModel& m, const ArenaPlan& plan) {
  std::vector<ArenaOccupant> items = ArenaOccupants(p, m);
  auto offset_of = [&](const ArenaOccupant& it) { return OccupantOffset(plan, it); };
  auto name_of = [&](const ArenaOccupant& it) {
    return it.IsBuffer() ? absl::StrCat("buffer '", p.value(m.buffers[it.buffer].root).name, "'")
                          : absl::StrCat("scratch of statement ", it.statement);
  };
  for (const ArenaOccupant& it : items) {
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
  auto contract_allows = [&](const ArenaOccupant& a, const ArenaOccupant& b) {
    if (!a.IsBuffer() || !b.IsBuffer()) return false;
    for (const OverlapContract& c : m.overlaps) {
      const ArenaOccupant* in =
          a.buffer == c.input_buffer ? &a : b.buffer == c.input_buffer ? &b : nullptr;
      const ArenaOccupant* out =
          a.buffer == c.output_buffer ? &a : b.buffer == c.output_buffer ? &b : nullptr;
      if (!in || !out || in == out) continue;
      return offset_of(*out) == offset_of(*in) - c.displacement && in->last_step == c.statement &&
             out->first_step == c.statement;
    }
    return false;
  };
  for (size_t i = 0; i < items.size(); ++i) {
    for (size_t j = i + 1; j < items.size(); ++j) {
      const ArenaOccupant &a = items[i], &b = items[j];
      bool live_together = a.first_step <= b.last_step && b.first_step <= a.last_step;
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
