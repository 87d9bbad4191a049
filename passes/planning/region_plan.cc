#include "passes/planning/region_plan.h"

#include <algorithm>
#include <numeric>
#include <set>

#include "absl/strings/str_cat.h"
#include "passes/analysis/arena_occupants.h"
#include "passes/planning/interval_packing.h"
#include "passes/planning/packing_bound.h"
#include "passes/planning/region_bound.h"

namespace oc {

std::vector<int64_t> BufferTraffic(const Program& p, const MemoryModel& m) {
  std::vector<int64_t> traffic(m.buffers.size(), 0);
  auto add = [&](ValueId v) {
    const int b = m.buffer_of_value[v];
    if (b >= 0 && m.buffers[b].location == BufferLocation::kArena) traffic[b] += p.value(v).ByteSize();
  };
  for (size_t i = 0; i < p.statements().size(); ++i) {
    if (m.elided[i]) continue;
    for (ValueId v : p.statements()[i].operands) {
      if (v >= 0) add(v);
    }
    for (ValueId v : p.statements()[i].results) add(v);
  }
  if (m.aliases.io_in_arena) {
    for (ValueId v : p.inputs()) add(v);
    for (ValueId v : p.outputs()) add(v);
  }
  return traffic;
}

namespace {

// The occupants as packing items, grouped into units that share a region.
struct Instance {
  std::vector<ArenaOccupant> occupants;
  std::vector<IntervalItem> items;
  std::vector<std::vector<int>> units;
  std::vector<int64_t> traffic, height;  // per unit
  std::vector<RegionCapacity> regions;
  std::vector<int> by_cost;     // region indices, cheapest first (then larger, then map order)
  std::vector<int> by_density;  // unit indices, most traffic per byte first (then taller)
  int64_t alignment = 16;
};

Instance MakeInstance(const Program& p, const MemoryModel& m, const MemoryMap& map) {
  Instance in;
  in.alignment = m.alignment;
  in.occupants = ArenaOccupants(p, m);
  for (const ArenaOccupant& o : in.occupants) {
    in.items.push_back({o.bytes, o.first_step, o.last_step, o.group, o.group_offset});
  }
  in.units = RegionUnits(in.items);
  const std::vector<int64_t> buffer_traffic = BufferTraffic(p, m);
  for (const std::vector<int>& unit : in.units) {
    std::set<int> buffers;
    for (int i : unit) {
      if (in.occupants[i].IsBuffer()) buffers.insert(in.occupants[i].buffer);
    }
    int64_t t = 0;
    for (int b : buffers) t += buffer_traffic[b];
    in.traffic.push_back(t);
    in.height.push_back(UnitHeight(in.items, unit));
  }
  for (const MemoryRegion& r : map.regions) in.regions.push_back({r.size, r.cost});
  in.by_cost.resize(map.regions.size());
  std::iota(in.by_cost.begin(), in.by_cost.end(), 0);
  std::stable_sort(in.by_cost.begin(), in.by_cost.end(), [&](int a, int b) {
    const RegionCapacity &x = in.regions[a], &y = in.regions[b];
    return x.cost != y.cost ? x.cost < y.cost : x.size > y.size;
  });
  in.by_density.resize(in.units.size());
  std::iota(in.by_density.begin(), in.by_density.end(), 0);
  std::stable_sort(in.by_density.begin(), in.by_density.end(), [&](int a, int b) {
    const __int128 lhs = static_cast<__int128>(in.traffic[a]) * in.height[b];
    const __int128 rhs = static_cast<__int128>(in.traffic[b]) * in.height[a];
    return lhs != rhs ? lhs > rhs : in.height[a] > in.height[b];
  });
  return in;
}

std::vector<IntervalItem> ItemsOf(const Instance& in, const std::vector<int>& units) {
  std::vector<IntervalItem> items;
  for (int u : units) {
    for (int i : in.units[u]) items.push_back(in.items[i]);
  }
  return items;
}

// Units per region, and the quick test of whether a region's units pack
// into it (best fit or greedy; the final exact packing is never larger).
class Assignment {
 public:
  Assignment(const Instance& in, WorkBudget& budget)
      : in_(in), budget_(budget), region_of_(in.units.size(), -1), members_(in.regions.size()) {}

  int region_of(int u) const { return region_of_[u]; }
  const std::vector<int>& members(int r) const { return members_[r]; }

  // The bytes the quick packers need for region r's units with `add` and
  // without `drop` (-1: none).
  int64_t QuickBytes(int r, int add, int drop = -1) {
    std::vector<int> units;
    for (int u : members_[r]) {
      if (u != drop) units.push_back(u);
    }
    if (add >= 0) units.push_back(add);
    const std::vector<IntervalItem> items = ItemsOf(in_, units);
    budget_.Spend(static_cast<int64_t>(items.size()) * static_cast<int64_t>(items.size()) / 8 + 1);
    if (MaxLive(items) > in_.regions[r].size) return MaxLive(items);
    return std::min(PackBestFit(items, in_.alignment).size, PackGreedyBySize(items, in_.alignment).size);
  }
  bool FitsWith(int r, int add, int drop = -1) {
    return in_.height[add] <= in_.regions[r].size && QuickBytes(r, add, drop) <= in_.regions[r].size;
  }
  void Put(int u, int r) {
    if (region_of_[u] >= 0) {
      std::vector<int>& old = members_[region_of_[u]];
      old.erase(std::find(old.begin(), old.end(), u));
    }
    region_of_[u] = r;
    members_[r].push_back(u);
  }
  double Cost() const {
    double cost = 0;
    for (size_t u = 0; u < region_of_.size(); ++u) {
      cost += static_cast<double>(in_.traffic[u]) * in_.regions[region_of_[u]].cost;
    }
    return cost;
  }

 private:
  const Instance& in_;
  WorkBudget& budget_;
  std::vector<int> region_of_;
  std::vector<std::vector<int>> members_;
};

// The plain baseline: the densest units first (then the tallest), each into
// the cheapest region whose units still pack with it. False with `failed`
// the unit no region takes.
bool PlaceBaseline(const Instance& in, Assignment& a, int& failed) {
  for (int u : in.by_density) {
    int chosen = -1;
    for (int r : in.by_cost) {
      if (a.FitsWith(r, u)) {
        chosen = r;
        break;
      }
    }
    if (chosen < 0) {
      failed = u;
      return false;
    }
    a.Put(u, chosen);
  }
  return true;
}

// Local search from the baseline: a unit moves to a cheaper region where it
// still packs, or trades places with a unit of less traffic there; each kept
// change lowers the cost, so the search ends (or its budget does).
int Improve(const Instance& in, Assignment& a, WorkBudget& budget) {
  constexpr int kSwapCandidates = 8;
  int kept = 0;
  for (bool changed = true; changed && !budget.Exhausted();) {
    changed = false;
    for (int u : in.by_density) {
      const int from = a.region_of(u);
      for (int r : in.by_cost) {
        if (budget.Exhausted() || in.regions[r].cost >= in.regions[from].cost) break;
        if (a.FitsWith(r, u)) {
          a.Put(u, r);
          changed = true;
          ++kept;
          break;
        }
        std::vector<int> cheaper = a.members(r);
        std::stable_sort(cheaper.begin(), cheaper.end(),
                         [&](int x, int y) { return in.traffic[x] < in.traffic[y]; });
        int tried = 0, swapped = -1;
        for (int v : cheaper) {
          if (in.traffic[v] >= in.traffic[u] || tried++ == kSwapCandidates) break;
          if (a.FitsWith(r, u, v) && a.FitsWith(from, v, u)) {
            swapped = v;
            break;
          }
        }
        if (swapped >= 0) {
          a.Put(u, r);
          a.Put(swapped, from);
          changed = true;
          ++kept;
          break;
        }
      }
    }
  }
  return kept;
}

std::string UnitName(const Program& p, const MemoryModel& m, const Instance& in, int u) {
  const ArenaOccupant& o = in.occupants[in.units[u].front()];
  if (o.IsBuffer()) return absl::StrCat("buffer '", p.value(m.buffers[o.buffer].root).name, "'");
  const Statement& s = p.statements()[o.statement];
  return absl::StrCat("the scratch of step ", o.statement, " (node '", s.node_name, "', ", s.onnx_op, ")");
}

std::string StepName(const Program& p, int step) {
  const Statement& s = p.statements()[step];
  return absl::StrCat("step ", step, " (node '", s.node_name, "', ", s.onnx_op, ")");
}

// The biggest units live at `step`, named with their bytes.
std::string BiggestLiveAt(const Program& p, const MemoryModel& m, const Instance& in, int step) {
  std::vector<std::pair<int64_t, int>> live;
  for (size_t u = 0; u < in.units.size(); ++u) {
    const int64_t bytes = UnitBytesAt(in.items, in.units[u], step);
    if (bytes > 0) live.push_back({-bytes, static_cast<int>(u)});
  }
  std::sort(live.begin(), live.end());
  std::string out;
  for (size_t k = 0; k < live.size() && k < 3; ++k) {
    absl::StrAppend(&out, k ? ", " : "", UnitName(p, m, in, live[k].second), " (", -live[k].first, " bytes)");
  }
  return out;
}

// Why no split fits: a unit taller than every region, a step whose live
// bytes exceed all regions together, or the unit the baseline could not
// place and the least any region lacks for it.
std::string Failure(const Program& p, const MemoryModel& m, const MemoryMap& map, const Instance& in,
                    Assignment& a, int failed) {
  const int64_t largest = map.LargestRegionBytes();
  for (size_t u = 0; u < in.units.size(); ++u) {
    if (in.height[u] <= largest) continue;
    const ArenaOccupant& o = in.occupants[in.units[u].front()];
    return absl::StrCat(UnitName(p, m, in, static_cast<int>(u)), " needs ", in.height[u],
                        " contiguous bytes, ", in.height[u] - largest, " more than the largest region (",
                        largest, " bytes); it is live at steps ", o.first_step, "..", o.last_step,
                        " (a buffer never straddles two regions; patches may split it: --patches=auto)");
  }
  const AccessCostBound bound = AccessCostLowerBound(in.items, in.units, in.traffic, in.regions);
  if (!bound.feasible && bound.step >= 0) {
    int64_t live = 0;
    for (const std::vector<int>& unit : in.units) live += UnitBytesAt(in.items, unit, bound.step);
    return absl::StrCat("at ", StepName(p, bound.step), " ", live, " bytes are live, ",
                        live - map.TotalBytes(), " more than all regions together (", map.TotalBytes(),
                        "); the biggest: ", BiggestLiveAt(p, m, in, bound.step));
  }
  int64_t least = -1;
  int where = -1;
  for (int r : in.by_cost) {
    if (in.height[failed] > in.regions[r].size) continue;
    const int64_t lack = a.QuickBytes(r, failed) - in.regions[r].size;
    if (least < 0 || lack < least) {
      least = lack;
      where = r;
    }
  }
  const ArenaOccupant& o = in.occupants[in.units[failed].front()];
  return absl::StrCat("no region has room for ", UnitName(p, m, in, failed), " (", in.height[failed],
                      " bytes, live at steps ", o.first_step, "..", o.last_step, ")",
                      where < 0 ? std::string()
                                : absl::StrCat(": region '", map.regions[where].name, "' lacks ", least,
                                               " bytes for it; at ", StepName(p, o.first_step),
                                               " the biggest live buffers are ", BiggestLiveAt(p, m, in, o.first_step)));
}

}  // namespace

RegionPlan PlanRegions(const Program& p, const MemoryModel& m, const MemoryMap& map, WorkBudget& budget,
                       ArenaPlan& plan) {
  RegionPlan out;
  const Instance in = MakeInstance(p, m, map);
  Assignment a(in, budget);
  int failed = -1;
  if (!PlaceBaseline(in, a, failed)) {
    out.failure = Failure(p, m, map, in, a, failed);
    return out;
  }
  out.access_cost_baseline = a.Cost();
  {
    WorkBudget search(budget, budget.ShareOfLeft(1, 2));
    out.improvements = Improve(in, a, search);
  }
  out.fits = true;
  out.access_cost = a.Cost();
  double costliest = 0;
  for (const RegionCapacity& r : in.regions) costliest = std::max(costliest, r.cost);
  for (int64_t t : in.traffic) out.access_cost_costliest += static_cast<double>(t) * costliest;
  out.access_cost_lower_bound = AccessCostLowerBound(in.items, in.units, in.traffic, in.regions).cost;

  // Each region packed as its own arena, the regions end to end.
  ArenaPlan regions_plan = plan;
  regions_plan.planner = plan.planner + " per region";
  regions_plan.proven_optimal = false;
  std::fill(regions_plan.buffer_offset.begin(), regions_plan.buffer_offset.end(), -1);
  std::fill(regions_plan.scratch_offset.begin(), regions_plan.scratch_offset.end(), -1);
  int64_t base = 0;
  for (size_t r = 0; r < map.regions.size(); ++r) {
    RegionUse use;
    use.base = base;
    std::vector<int> members = a.members(static_cast<int>(r));
    std::sort(members.begin(), members.end());
    const std::vector<IntervalItem> items = ItemsOf(in, members);
    WorkBudget share(budget, budget.ShareOfLeft(1, static_cast<int64_t>(map.regions.size() - r)));
    const Packing packing = PackBest(items, m.alignment, share);
    use.arena_bytes = packing.size;
    use.lower_bound_bytes = std::max(MaxLive(items), GroupExtentBound(items).bytes);
    use.proven_optimal = packing.proven || packing.size <= use.lower_bound_bytes;
    size_t k = 0;
    std::set<int> buffers;
    for (int u : members) {
      use.traffic_bytes += in.traffic[u];
      for (int i : in.units[u]) {
        const ArenaOccupant& o = in.occupants[i];
        const int64_t at = base + packing.offsets[k++];
        if (o.IsBuffer()) {
          regions_plan.buffer_offset[o.buffer] = at - o.part_offset;
          buffers.insert(o.buffer);
        } else {
          regions_plan.scratch_offset[o.statement] = at;
          use.scratch.push_back(o.statement);
        }
      }
    }
    use.buffers.assign(buffers.begin(), buffers.end());
    std::sort(use.scratch.begin(), use.scratch.end());
    base += use.arena_bytes;
    out.regions.push_back(std::move(use));
  }
  regions_plan.arena_bytes = base;
  plan = std::move(regions_plan);
  return out;
}

}  // namespace oc
