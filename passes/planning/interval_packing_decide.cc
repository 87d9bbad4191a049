#include "passes/planning/interval_packing_decide.h"

#include <algorithm>
#include <random>
#include <unordered_set>
#include <utility>
#include <vector>

namespace oc {
namespace packing {
namespace {

constexpr size_t kMaxNogoods = size_t{1} << 20;
// The search recurses once per block placed; deeper than this (thousands of
// blocks) it gives up rather than risk the stack.
constexpr int kMaxDepth = 4000;

uint64_t Mix(uint64_t h, uint64_t v) {
  // splitmix64's finalizer over the running hash.
  uint64_t z = h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// The search of canonical packings (MiniMalloc, ASPLOS 2023: every block
// rests on the skyline; a local minimum of it is filled or left empty for
// good, branching where the fewest choices remain) with three additions that
// matter once hundreds of blocks are tightly packed:
//  - temporal decomposition: once no unplaced block lives across a step
//    boundary, the two sides are independent problems over the skyline as
//    it stands, solved one after the other, so a dead end on one side never
//    revisits the choices made on the other;
//  - nogoods: a sub-problem (its steps, their skyline, its unplaced blocks)
//    proved unsolvable is remembered, so that the many orders that lead back
//    to it (two blocks stacked either way) are cut at once;
//  - backjumping: a failure names the changes its proof read (see
//    Conflict), so the search returns past choices that played no part.
// Runs are restarted after a growing node budget with a perturbed first
// choice (Gomes, Selman and Kautz, AAAI 1998); the nogoods carry over.
class Decider {
 public:
  Decider(SkylineState& st, int64_t capacity, WorkBudget& budget, bool quick)
      : st_(st), blocks_(st.blocks), cap_(capacity), budget_(budget), quick_(quick), rng_(1) {
    live_at_.resize(st_.steps);
    starting_at_.resize(st_.steps);
    unplaced_live_.assign(st_.steps, 0);
    rest_.assign(st_.n, 0);
    for (int k = 0; k < st_.n; ++k) {
      if (st_.base[k] < 0) rest_[k] = st_.RestOn(k);
    }
    floor_.assign(st_.steps, 0);
    touched_by_.resize(st_.steps);
    std::mt19937_64 keys(7);
    for (int k = 0; k < st_.n; ++k) {
      zobrist_.push_back(keys());
      if (st_.base[k] >= 0) continue;
      starting_at_[blocks_[k].first].push_back(k);
      has_groups_ = has_groups_ || blocks_[k].segments.size() > 1;
      for (const Segment& s : blocks_[k].segments) {
        for (int t = s.first; t <= s.last; ++t) {
          ++unplaced_live_[t];
          live_at_[t].push_back({k, s.lo});
        }
      }
    }
  }

  Fit Run(int64_t* nodes_explored) {
    // The first run may take a few nodes per block and step: one descent
    // places every block and raises steps on the way.
    run_budget_ = 8 * (int64_t{st_.n} + st_.steps);
    Fit fit = Fit::kUnknown;
    for (;;) {
      fit = st_.steps == 0 ? Fit::kYes : Solve(0, st_.steps - 1);
      if (fit != Fit::kUnknown || out_of_time_) break;
      ++restart_;
      run_nodes_ = 0;
      run_budget_ += run_budget_ / 8;
    }
    if (nodes_explored) *nodes_explored = nodes_;
    return fit;
  }

 private:
  struct Change {
    int block;  // placed, or -1: `step` raised
    int step;
    size_t rest_mark;            // rest_log_ before
    std::vector<int64_t> saved;  // the skyline before
  };

  bool Stop() {
    // A node here checks floors and nogoods over the live blocks: it costs
    // several of the minimizing search's nodes.
    if (!budget_.Spend(1 + st_.n / 4)) out_of_time_ = true;
    return out_of_time_ || run_nodes_ > run_budget_;
  }

  void Place(int k) {
    const int at = static_cast<int>(log_.size());
    log_.push_back({k, -1, rest_log_.size(), {}});
    st_.Place(k, rest_[k], log_.back().saved);
    for (const Segment& s : blocks_[k].segments) {
      for (int t = s.first; t <= s.last; ++t) {
        --unplaced_live_[t];
        touched_by_[t].push_back(at);
        RaiseRests(t);
      }
    }
  }
  void Raise(int t, int64_t to) {
    touched_by_[t].push_back(static_cast<int>(log_.size()));
    log_.push_back({-1, t, rest_log_.size(), {st_.skyline[t]}});
    st_.skyline[t] = to;
    RaiseRests(t);
  }
  // Keeps rest_ (where each unplaced block would rest) as step t rises.
  void RaiseRests(int t) {
    for (const auto& [z, lo] : live_at_[t]) {
      if (st_.base[z] < 0 && st_.skyline[t] - lo > rest_[z]) {
        rest_log_.push_back({z, rest_[z]});
        rest_[z] = st_.skyline[t] - lo;
      }
    }
  }
  void UndoTo(size_t mark) {
    while (log_.size() > mark) {
      Change& c = log_.back();
      for (; rest_log_.size() > c.rest_mark; rest_log_.pop_back()) {
        rest_[rest_log_.back().first] = rest_log_.back().second;
      }
      if (c.block >= 0) {
        st_.Unplace(c.block, c.saved);
        for (const Segment& s : blocks_[c.block].segments) {
          for (int t = s.first; t <= s.last; ++t) {
            ++unplaced_live_[t];
            touched_by_[t].pop_back();
          }
        }
      } else {
        st_.skyline[c.step] = c.saved[0];
        touched_by_[c.step].pop_back();
      }
      log_.pop_back();
    }
  }

  // The pieces of [a, b]: maximal runs of steps where something unplaced
  // lives and no step boundary inside is free of unplaced blocks across it.
  void SplitPieces(int a, int b, std::vector<std::pair<int, int>>* pieces) {
    cross_.assign(static_cast<size_t>(b - a + 2), 0);
    for (int t = a; t <= b; ++t) {
      for (int k : starting_at_[t]) {
        if (st_.base[k] >= 0 || blocks_[k].last == t) continue;
        ++cross_[t + 1 - a];  // boundaries t|t+1 .. last-1|last are crossed
        --cross_[blocks_[k].last + 1 - a];
      }
    }
    int crossing = 0;
    for (int t = a; t <= b; ++t) {
      crossing += cross_[t - a];
      if (unplaced_live_[t] == 0) continue;
      if (crossing > 0 && !pieces->empty() && pieces->back().second == t - 1) {
        pieces->back().second = t;
      } else {
        pieces->push_back({t, t});
      }
    }
  }

  Fit Solve(int a, int b) {
    std::vector<std::pair<int, int>> pieces;
    SplitPieces(a, b, &pieces);
    if (pieces.empty()) return Fit::kYes;
    const size_t mark = log_.size();
    for (const auto& [pa, pb] : pieces) {
      Fit fit = SolvePiece(pa, pb);
      if (fit != Fit::kYes) {
        // A piece's reasons lie in its own steps, which the pieces solved
        // before it never touch; were it otherwise, blame everything.
        if (fit == Fit::kNo && HighestIn(conflict_) >= static_cast<int>(mark)) conflict_ = AllBelow(mark);
        UndoTo(mark);
        return fit;
      }
    }
    return Fit::kYes;
  }

  // Conflict sets (conflict-directed backjumping, Prosser, Computational
  // Intelligence 1993): a failure names the placements and raises (by their
  // position in log_) that its proof depends on. A proof that reads the
  // skyline and the unplaced blocks over steps [x, y] depends only on the
  // changes that touched those steps, and holds for every state of the
  // search that keeps them, since the skyline only rises. When a block's
  // subtree fails for reasons that do not include placing that block, its
  // siblings would fail the same way: the search returns at once.
  using Conflict = std::vector<uint64_t>;
  void AddTouching(Conflict* c, size_t below) const {
    c->resize(std::max(c->size(), (below + 63) / 64), 0);
    for (int t : blame_) {
      for (int at : touched_by_[t]) {
        if (static_cast<size_t>(at) < below) (*c)[at / 64] |= uint64_t{1} << (at % 64);
      }
    }
  }
  static Conflict AllBelow(size_t below) {
    Conflict c((below + 63) / 64, ~uint64_t{0});
    if (below % 64) c.back() = (uint64_t{1} << (below % 64)) - 1;
    return c;
  }
  static bool Has(const Conflict& c, size_t at) {
    return at / 64 < c.size() && ((c[at / 64] >> (at % 64)) & 1);
  }
  static int HighestIn(const Conflict& c) {
    for (size_t w = c.size(); w-- > 0;) {
      if (c[w]) return static_cast<int>(w * 64 + 63 - static_cast<size_t>(__builtin_clzll(c[w])));
    }
    return -1;
  }
  static void Merge(Conflict* into, const Conflict& c, size_t except) {
    into->resize(std::max(into->size(), c.size()), 0);
    for (size_t w = 0; w < c.size(); ++w) (*into)[w] |= c[w];
    if (except / 64 < into->size()) (*into)[except / 64] &= ~(uint64_t{1} << (except % 64));
  }
  // Records the steps [x, y] as what a failed check read; returns false.
  bool Blame(int x, int y) {
    blame_.clear();
    for (int t = x; t <= y; ++t) blame_.push_back(t);
    return false;
  }
  // Adds a step that proves block k rests above `above` (its rest_ is more):
  // of those, the one whose skyline was set earliest.
  bool BlameRest(int k, int64_t above) {
    int pick = -1, pick_at = 0;
    for (const Segment& s : blocks_[k].segments) {
      for (int u = s.first; u <= s.last; ++u) {
        if (st_.skyline[u] - s.lo <= above) continue;
        const int at = touched_by_[u].empty() ? -1 : touched_by_[u].back();
        if (pick < 0 || at < pick_at) {
          pick = u;
          pick_at = at;
        }
      }
    }
    if (pick >= 0) blame_.push_back(pick);
    return false;
  }
  // Step t (its unplaced blocks and skyline) and why each unplaced block
  // live there rests above `above` - its offset at t.
  bool BlameRestsAt(int t, int64_t above) {
    blame_.assign(1, t);
    for (const auto& [k, lo] : live_at_[t]) {
      if (st_.base[k] < 0 && rest_[k] + lo > above) BlameRest(k, above - lo);
    }
    return false;
  }

  uint64_t Key(int a, int b) const {
    uint64_t h = Mix(static_cast<uint64_t>(a), static_cast<uint64_t>(b));
    uint64_t unplaced = 0;
    for (int t = a; t <= b; ++t) {
      h = Mix(h, static_cast<uint64_t>(st_.skyline[t]));
      for (int k : starting_at_[t]) {
        if (st_.base[k] < 0) unplaced ^= zobrist_[k];
      }
    }
    return Mix(h, unplaced);
  }

  // Necessary conditions for the piece [a, b] to fit.
  bool PieceMayFit(int a, int b) {
    // The skyline only rises: every unplaced block ends up at or above where
    // it would rest now, so each step's unplaced bytes stack from the lowest
    // of those rests (MiniMalloc's "unallocated floor").
    for (int t = a; t <= b; ++t) floor_[t] = cap_;
    for (int t = a; t <= b; ++t) {
      for (int k : starting_at_[t]) {
        if (st_.base[k] >= 0) continue;
        if (rest_[k] + blocks_[k].height > cap_) {
          blame_.clear();
          return BlameRest(k, cap_ - blocks_[k].height);
        }
        for (const Segment& s : blocks_[k].segments) {
          for (int u = s.first; u <= s.last; ++u) floor_[u] = std::min(floor_[u], rest_[k] + s.lo);
        }
      }
    }
    for (int t = a; t <= b; ++t) {
      if (floor_[t] + st_.remaining[t] > cap_) return BlameRestsAt(t, cap_ - st_.remaining[t]);
    }
    return has_groups_ || (LowRunsCanBeCovered(a, b) && ValleysCanBeFilled(a, b));
  }

  // Calls f(ra, rb) for every local minimum of the skyline in [a, b]: a run
  // of steps at one level whose neighbours are higher (the piece's ends
  // count as higher). Stops early when f returns false.
  template <typename F>
  bool ForEachLowRun(int a, int b, F f) const {
    for (int ra = a; ra <= b;) {
      int rb = ra;
      while (rb < b && st_.skyline[rb + 1] == st_.skyline[ra]) ++rb;
      const bool low = (ra == a || st_.skyline[ra - 1] > st_.skyline[ra]) &&
                       (rb == b || st_.skyline[rb + 1] > st_.skyline[ra]);
      if (low && !f(ra, rb)) return false;
      ra = rb + 1;
    }
    return true;
  }

  // Nothing may rest lower than a local minimum's level, nor reach over its
  // higher neighbours: at a step with no slack the run must be covered, at
  // its level, by unplaced blocks inside it side by side (dynamic
  // programming over the run).
  bool LowRunsCanBeCovered(int a, int b) {
    return ForEachLowRun(a, b, [&](int ra, int rb) {
      reach_.assign(static_cast<size_t>(rb - ra + 2), 0);
      reach_[0] = 1;
      for (int t = ra; t <= rb; ++t) {
        if (!reach_[t - ra]) continue;
        if (st_.skyline[t] + st_.remaining[t] < cap_) reach_[t - ra + 1] = 1;  // slack: may stay empty
        for (int k : starting_at_[t]) {
          if (st_.base[k] < 0 && blocks_[k].last <= rb) reach_[blocks_[k].last + 1 - ra] = 1;
        }
      }
      return reach_[rb + 1 - ra] != 0 || Blame(std::max(a, ra - 1), std::min(b, rb + 1));
    });
  }

  // A valley (a run of steps at one level whose neighbours are higher, the
  // piece's ends counting as walls) is filled up to its lower neighbour only
  // by blocks that lie inside it in time; what they cannot fill is waste,
  // which each step's slack must absorb.
  bool ValleysCanBeFilled(int a, int b) {
    for (int va = a; va <= b;) {
      int vb = va;
      while (vb < b && st_.skyline[vb + 1] == st_.skyline[va]) ++vb;
      const int64_t left = va > a ? st_.skyline[va - 1] : cap_;
      const int64_t right = vb < b ? st_.skyline[vb + 1] : cap_;
      const int64_t top = std::min(left, right);
      if (top > st_.skyline[va]) {
        inside_.assign(static_cast<size_t>(vb - va + 1), 0);
        for (int t = va; t <= vb; ++t) {
          for (int k : starting_at_[t]) {
            if (st_.base[k] >= 0 || blocks_[k].last > vb) continue;
            for (int u = t; u <= blocks_[k].last; ++u) inside_[u - va] += blocks_[k].height;
          }
        }
        for (int t = va; t <= vb; ++t) {
          if (top - inside_[t - va] > cap_ - st_.remaining[t]) {
            return Blame(std::max(a, va - 1), std::min(b, vb + 1));
          }
        }
      }
      va = vb + 1;
    }
    return true;
  }

  // What may lie at step u of a local minimum, at its level: the unplaced
  // blocks resting exactly there, and `*raise_to` >= 0 if leaving it empty
  // still fits the step's slack. Leaving it empty raises it only as far as
  // the lowest block live at u may lie: one resting higher now lies at least
  // there; one resting at the level lies, if not there, on another unplaced
  // block beside it in time, so at least as high as that one's top could be
  // (in a packing where every block rests on another or at 0, which is no
  // loss). With groups, whose profiles may rest on a lower neighbour
  // anywhere, only the first holds, and the search no longer covers every
  // packing.
  void Choices(int u, std::vector<std::pair<int64_t, int>>* ranked, int64_t* raise_to) {
    const int64_t level = st_.skyline[u];
    const bool slack = level + st_.remaining[u] < cap_;  // else nothing may stay empty
    int64_t up = -1;
    auto lift = [&](int64_t to) { up = up < 0 ? to : std::min(up, to); };
    for (const auto& [k, lo] : live_at_[u]) {
      if (st_.base[k] >= 0) continue;
      const int64_t at = rest_[k] + lo;
      if (at != level) {
        lift(at);
        continue;
      }
      const int64_t length = blocks_[k].last - blocks_[k].first, height = blocks_[k].height;
      ranked->push_back({quick_ ? -(length << 40) - height : -(height * (st_.steps + 1) + length), k});
      if (slack && !has_groups_ && !quick_) {
        for (int v = blocks_[k].first; v <= blocks_[k].last; ++v) {
          for (const auto& [z, zlo] : live_at_[v]) {
            if (z != k && st_.base[z] < 0) lift(rest_[z] + blocks_[z].height);
          }
        }
      }
    }
    *raise_to = up >= 0 && up + st_.remaining[u] <= cap_ ? up : -1;
  }

  // One node per pass of the loop: blocks placed at the chosen point recurse,
  // leaving it empty (a raise, always the last choice) moves on in place, so
  // the recursion is as deep as the blocks placed, not the raises.
  Fit SolvePiece(int a, int b) {
    const size_t entry = log_.size();
    std::vector<uint64_t> keys;  // the states passed; all unsolvable if this fails
    Conflict why;
    // A raise's own reasons are not tracked, nor those of the choices among
    // groups (that search is not complete): then blame everything.
    bool untracked = has_groups_;
    auto give_up = [&](Fit fit) {
      if (fit == Fit::kNo) {
        for (uint64_t k : keys) Remember(k);
        conflict_ = untracked ? AllBelow(entry) : std::move(why);
      }
      UndoTo(entry);
      return fit;
    };
    auto blamed = [&]() {
      AddTouching(&why, entry);
      return give_up(Fit::kNo);
    };
    for (;;) {
      if (Stop()) return give_up(Fit::kUnknown);
      const uint64_t key = Key(a, b);
      if (nogoods_.count(key)) {
        Blame(a, b);  // the piece's state is what it read
        return blamed();
      }
      keys.push_back(key);
      ++nodes_;
      ++run_nodes_;
      if (!PieceMayFit(a, b)) return blamed();
      int t = -1;
      int64_t raise_to = -1;
      std::vector<std::pair<int64_t, int>> ranked;
      if (!ChooseBranchPoint(a, b, &t, &ranked, &raise_to)) return blamed();
      const size_t mark = log_.size();
      for (const auto& choice : ranked) {
        if (depth_ >= kMaxDepth) {
          out_of_time_ = true;
          return give_up(Fit::kUnknown);
        }
        Place(choice.second);
        ++depth_;
        const Fit fit = Solve(a, b);
        --depth_;
        if (fit == Fit::kYes) return fit;
        UndoTo(mark);
        if (fit == Fit::kUnknown) return give_up(fit);
        if (!Has(conflict_, mark)) {
          // Failed whichever block goes here: backjump.
          why = std::move(conflict_);
          return give_up(Fit::kNo);
        }
        Merge(&why, conflict_, mark);
      }
      // The choices at t were the blocks resting there: the others rest higher.
      BlameRestsAt(t, st_.skyline[t]);
      AddTouching(&why, entry);
      // Not raising t where it has slack rests on blocks beyond it: untracked.
      if (st_.skyline[t] + st_.remaining[t] < cap_) untracked = true;
      if (raise_to < 0) return give_up(Fit::kNo);
      untracked = true;
      Raise(t, raise_to);  // the unplaced blocks are the same: still one piece
    }
  }

  // Any local minimum of the skyline is filled at its level or left empty
  // for good (whatever lies there in a packing rests exactly there and
  // inside the run), and so is either end of it: picks the point with the
  // fewest choices (fail first), its blocks in the order to try (the
  // tallest, then the longest first: the hardest to fit later) and its
  // raise. False if a point has none.
  bool ChooseBranchPoint(int a, int b, int* t, std::vector<std::pair<int64_t, int>>* ranked,
                         int64_t* raise_to) {
    size_t fewest = SIZE_MAX;
    int lowest = a;
    for (int u = a; u <= b; ++u) {
      if (st_.skyline[u] < st_.skyline[lowest]) lowest = u;
    }
    ForEachLowRun(a, b, [&](int ra, int rb) {
      if (quick_ && ra != lowest) return true;
      for (int u : {ra, rb}) {
        int64_t up = -1;
        std::vector<std::pair<int64_t, int>> here;
        Choices(u, &here, &up);
        const size_t count = here.size() + (up >= 0 ? 1 : 0);
        if (count < fewest) {
          fewest = count;
          // Nothing rests at the level, nor can it stay empty: every block
          // live at u rests above what the step's slack allows.
          if (count == 0) BlameRestsAt(u, cap_ - st_.remaining[u]);
          *t = u;
          *raise_to = up;
          *ranked = std::move(here);
        }
        if (ra == rb || quick_) break;
      }
      return fewest > 0;
    });
    if (fewest == SIZE_MAX) return Blame(a, b);
    if (fewest == 0) return false;
    std::sort(ranked->begin(), ranked->end());
    if (restart_ > 0 && ranked->size() > 1 && (rng_() & 1) == 0) {
      std::swap((*ranked)[0], (*ranked)[1 + rng_() % (ranked->size() - 1)]);
    }
    return true;
  }

  void Remember(uint64_t key) {
    if (nogoods_.size() < kMaxNogoods) nogoods_.insert(key);
  }

  SkylineState& st_;
  const std::vector<Block>& blocks_;
  const int64_t cap_;
  WorkBudget& budget_;
  const bool quick_;
  std::vector<std::vector<std::pair<int, int64_t>>> live_at_;  // unplaced at the start: (block, lo)
  std::vector<std::vector<int>> starting_at_;
  std::vector<int> unplaced_live_;
  std::vector<int64_t> rest_;  // where each unplaced block would rest now
  std::vector<std::pair<int, int64_t>> rest_log_;  // (block, rest before), undone with log_
  std::vector<int64_t> floor_, inside_;
  std::vector<int> cross_;
  std::vector<char> reach_;
  std::vector<uint64_t> zobrist_;
  std::vector<Change> log_;
  std::vector<std::vector<int>> touched_by_;  // per step: positions in log_ of the changes there
  std::vector<int> blame_;                    // the steps the last failed check read
  Conflict conflict_;                          // of the last kNo returned
  std::unordered_set<uint64_t> nogoods_;
  bool has_groups_ = false, out_of_time_ = false;
  int64_t nodes_ = 0, run_nodes_ = 0, run_budget_ = 0;
  int restart_ = 0, depth_ = 0;
  std::mt19937 rng_;
};

}  // namespace

Fit DecideFit(SkylineState& state, int64_t capacity, WorkBudget& budget, int64_t* nodes_explored) {
  // A quick search first, for half the budget: it branches at the lowest
  // point alone and raises a point only as far as the blocks resting higher,
  // which finds most packings with slack in far fewer nodes but may miss
  // some. Then the complete one. Where no step has slack nothing is ever
  // raised, and the quick search is only a worse order of the same choices.
  int64_t quick_nodes = 0, nodes = 0;
  bool slack = false;
  for (int t = 0; t < state.steps; ++t) slack = slack || state.skyline[t] + state.remaining[t] < capacity;
  if (slack) {
    WorkBudget half(budget, budget.ShareOfLeft(1, 2));
    Decider quick(state, capacity, half, true);
    if (quick.Run(&quick_nodes) == Fit::kYes) {
      if (nodes_explored) *nodes_explored = quick_nodes;
      return Fit::kYes;
    }
  }
  Decider complete(state, capacity, budget, false);
  const Fit fit = complete.Run(&nodes);
  if (nodes_explored) *nodes_explored = quick_nodes + nodes;
  return fit;
}

}  // namespace packing
}  // namespace oc
