#include "passes/planning/interval_packing.h"

#include "passes/planning/interval_packing_blocks.h"
#include "passes/planning/interval_packing_decide.h"

#include <algorithm>
#include <map>
#include <random>
#include <numeric>

namespace oc {
namespace {

using packing::Block;
using packing::Expand;
using packing::MakeBlocks;
using packing::Segment;
using packing::SkylineState;


int64_t AlignTo(int64_t n, int64_t a) { return (n + a - 1) / a * a; }

bool Together(const Segment& a, const Segment& b) { return a.first <= b.last && b.first <= a.last; }

// Places blocks in `order`; `best_fit` picks the tightest gap, else the lowest.
Packing PlaceInOrder(const std::vector<IntervalItem>& items, const std::vector<Block>& blocks,
                     const std::vector<int>& order, int64_t alignment, bool best_fit) {
  std::vector<int64_t> base(blocks.size(), -1);
  std::vector<int> placed;
  // Bases the block may not take: open intervals (a, b).
  std::vector<std::pair<int64_t, int64_t>> forbidden;
  for (int k : order) {
    const Block& blk = blocks[k];
    forbidden.clear();
    for (int j : placed) {
      if (blocks[j].last < blk.first || blk.last < blocks[j].first) continue;
      for (const Segment& sj : blocks[j].segments) {
        for (const Segment& sk : blk.segments) {
          if (Together(sj, sk)) {
            forbidden.emplace_back(base[j] + sj.lo - sk.hi, base[j] + sj.hi - sk.lo);
          }
        }
      }
    }
    std::sort(forbidden.begin(), forbidden.end());
    int64_t best_base = -1, best_gap = -1;
    int64_t cursor = 0;  // the lowest base not yet known to be forbidden
    for (const auto& [a, b] : forbidden) {
      if (b <= cursor) continue;
      if (a >= cursor) {  // bases [cursor, a] are free
        int64_t gap = a - cursor + blk.height;
        if (best_base < 0 || (best_fit && gap < best_gap)) {
          best_base = cursor;
          best_gap = gap;
        }
        if (!best_fit) break;
      }
      cursor = std::max(cursor, AlignTo(b, alignment));
    }
    // The open space above everything: a last resort for best fit.
    if (best_base < 0) best_base = cursor;
    base[k] = best_base;
    placed.push_back(k);
  }
  return Expand(items, blocks, base);
}

std::vector<int> SortedBlocks(const std::vector<Block>& blocks, int64_t (*key)(const Block&)) {
  std::vector<int> order(blocks.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    int64_t ka = key(blocks[a]), kb = key(blocks[b]);
    if (ka != kb) return ka > kb;
    if (blocks[a].height != blocks[b].height) return blocks[a].height > blocks[b].height;
    return blocks[a].first < blocks[b].first;
  });
  return order;
}

// Where both exact searches start: `start`, flagged optimal at max-live.
Packing StartFrom(const std::vector<IntervalItem>& items, const Packing& start, int64_t* target) {
  *target = MaxLive(items);
  Packing best = start;
  best.optimal = best.size == *target;
  best.proven = best.optimal;
  return best;
}

}  // namespace

int64_t MaxLive(const std::vector<IntervalItem>& items) {
  std::vector<Block> blocks = MakeBlocks(items);
  int last = -1;
  for (const Block& b : blocks) last = std::max(last, b.last);
  std::vector<int64_t> delta(static_cast<size_t>(last + 2), 0);
  for (const Block& b : blocks) {
    for (const Segment& s : b.segments) {
      delta[s.first] += s.used;
      delta[s.last + 1] -= s.used;
    }
  }
  int64_t live = 0, peak = 0;
  for (int64_t d : delta) {
    live += d;
    peak = std::max(peak, live);
  }
  return peak;
}

Packing PackLinear(const std::vector<IntervalItem>& items) {
  std::vector<Block> blocks = MakeBlocks(items);
  std::vector<int64_t> base;
  int64_t cursor = 0;
  for (const Block& b : blocks) {
    base.push_back(cursor);
    cursor += b.height;
  }
  Packing p = Expand(items, blocks, base);
  p.optimal = p.size == MaxLive(items);
  return p;
}

Packing PackGreedyBySize(const std::vector<IntervalItem>& items, int64_t alignment) {
  std::vector<Block> blocks = MakeBlocks(items);
  Packing p = PlaceInOrder(items, blocks, SortedBlocks(blocks, [](const Block& b) { return b.height; }),
                           alignment, false);
  p.optimal = p.size == MaxLive(items);
  return p;
}

Packing PackBestFit(const std::vector<IntervalItem>& items, int64_t alignment) {
  using Key = int64_t (*)(const Block&);
  static const Key kKeys[] = {
      [](const Block& b) { return b.height; },
      [](const Block& b) { return b.area; },
      [](const Block& b) { return static_cast<int64_t>(b.last - b.first); },
      [](const Block& b) { return static_cast<int64_t>(-b.first); },
  };
  std::vector<Block> blocks = MakeBlocks(items);
  Packing best;
  for (Key key : kKeys) {
    std::vector<int> order = SortedBlocks(blocks, key);
    for (bool fit : {true, false}) {
      Packing p = PlaceInOrder(items, blocks, order, alignment, fit);
      if (best.offsets.empty() || p.size < best.size) best = std::move(p);
    }
  }
  best.optimal = best.size == MaxLive(items);
  return best;
}

namespace {

// Minimizing below the best packing so far over canonical packings
// (MiniMalloc, ASPLOS 2023): every block rests on the skyline of what is
// placed. The search always works on the lowest point of the skyline among
// the steps where something is still unplaced: a block that rests exactly
// there fills it, or the point stays empty for good and is raised to the
// next level a block could start at. Leaves are always valid packings; the
// search is exact whenever it reaches max-live.
//
// Limited discrepancy search (Harvey and Ginsberg, IJCAI 1995): pass d
// explores the orders that leave the heuristic's first choice at most d
// times, so a wrong early choice is revisited long before a depth-first
// search would backtrack to it. A pass that never hits the limit has
// searched everything.
class CanonicalSearch {
 public:
  // Packings at `limit` bytes or more are pruned; the search stops at `target`.
  CanonicalSearch(const std::vector<IntervalItem>& items, int64_t target, int64_t limit,
                  WorkBudget& budget, int64_t& explored);

  // Improves `best` until it reaches the target, a pass searched everything
  // (true), or the budget is spent.
  bool Run(Packing& best) {
    for (int allowed = 0;; ++allowed) {
      const Pass pass = RunPass(allowed, best);
      if (pass != Pass::kLimited) return pass == Pass::kComplete;
    }
  }
  bool has_groups() const { return has_groups_; }

 private:
  struct Frame {
    int step = -1;
    std::vector<int> choices;  // blocks to place at the lowest point, then -1: raise it
    int64_t raise_to = 0;
    size_t next = 0;
    int spent = 0;              // choices other than the first on the way here
    int applied = -2;           // what this frame did last: a block, -1 (raise) or -2
    std::vector<int64_t> saved;  // skyline before it
  };
  enum class Pass { kLimited, kComplete, kReachedTarget, kOutOfTime };
  enum class Step { kPruned, kLeaf, kDeeper };

  Pass RunPass(int allowed, Packing& best);
  void OpenFrame(int spent);
  void Undo(Frame& f);
  Step Apply(Frame& f, int k);
  bool Improve(Packing& best);
  bool UnplacedStillFit(int placed);
  bool LowestRunCanBeCovered();
  bool ValleysCanBeFilled();

  const std::vector<IntervalItem>& items_;
  const int64_t target_;
  int64_t limit_;  // prune at or above
  WorkBudget& budget_;
  int64_t& explored_;
  SkylineState st_;
  std::vector<int> unplaced_live_;
  std::vector<std::vector<std::pair<int, int64_t>>> live_at_;  // (block, lo)
  int placed_count_ = 0;
  std::vector<Frame> stack_;
  std::vector<int> checked_;
  int check_stamp_ = 0;
  std::vector<std::vector<int>> starting_at_;
  bool has_groups_ = false;
  std::vector<char> reach_;
  std::vector<int64_t> inside_;
};

CanonicalSearch::CanonicalSearch(const std::vector<IntervalItem>& items, int64_t target, int64_t limit,
                                 WorkBudget& budget, int64_t& explored)
    : items_(items), target_(target), limit_(limit), budget_(budget), explored_(explored), st_(items),
      unplaced_live_(st_.steps, 0), live_at_(st_.steps), checked_(st_.n, -1), starting_at_(st_.steps) {
  for (int k = 0; k < st_.n; ++k) {
    for (const Segment& s : st_.blocks[k].segments) {
      for (int t = s.first; t <= s.last; ++t) {
        ++unplaced_live_[t];
        live_at_[t].push_back({k, s.lo});
      }
    }
  }
  for (int k = 0; k < st_.n; ++k) {
    starting_at_[st_.blocks[k].first].push_back(k);
    has_groups_ = has_groups_ || st_.blocks[k].segments.size() > 1;
  }
}

// One pass: the orders that leave the first choice at most `allowed` times.
CanonicalSearch::Pass CanonicalSearch::RunPass(int allowed, Packing& best) {
  bool limited = false;
  OpenFrame(0);
  while (!stack_.empty()) {
    ++explored_;
    if (!budget_.Spend()) return Pass::kOutOfTime;
    Frame& f = stack_.back();
    Undo(f);
    if (f.next >= f.choices.size()) {
      stack_.pop_back();
      continue;
    }
    const int spent = f.spent + (f.next > 0 ? 1 : 0);
    if (spent > allowed) {
      limited = true;
      f.next = f.choices.size();
      continue;
    }
    const Step step = Apply(f, f.choices[f.next++]);
    if (step == Step::kLeaf && Improve(best)) return Pass::kReachedTarget;
    if (step == Step::kDeeper) OpenFrame(spent);
  }
  return limited ? Pass::kLimited : Pass::kComplete;
}

// A frame at the lowest point of the skyline where something is unplaced:
// the blocks resting exactly there (the longest first), then raising it.
void CanonicalSearch::OpenFrame(int spent) {
  Frame f;
  f.spent = spent;
  for (int t = 0; t < st_.steps; ++t) {
    if (unplaced_live_[t] > 0 && (f.step < 0 || st_.skyline[t] < st_.skyline[f.step])) f.step = t;
  }
  const int64_t level = st_.skyline[f.step];
  f.raise_to = -1;
  std::vector<std::pair<int64_t, int>> ranked;  // the longest blocks first
  for (const auto& [k, lo] : live_at_[f.step]) {
    if (st_.base[k] >= 0) continue;
    const int64_t at = st_.RestOn(k) + lo;
    if (at == level) {
      ranked.push_back({-(st_.blocks[k].last - st_.blocks[k].first), k});
    } else if (f.raise_to < 0 || at < f.raise_to) {
      f.raise_to = at;
    }
  }
  std::sort(ranked.begin(), ranked.end());
  for (const auto& r : ranked) f.choices.push_back(r.second);
  if (f.raise_to >= 0) f.choices.push_back(-1);
  stack_.push_back(std::move(f));
}

void CanonicalSearch::Undo(Frame& f) {
  if (f.applied >= 0) {
    st_.Unplace(f.applied, f.saved);
    for (const Segment& s : st_.blocks[f.applied].segments) {
      for (int t = s.first; t <= s.last; ++t) ++unplaced_live_[t];
    }
    --placed_count_;
  } else if (f.applied == -1) {
    st_.skyline[f.step] = f.saved[0];
  }
  f.applied = -2;
}

// Applies choice k of frame f (a block, or -1: raise the point): a leaf when
// every block is placed, pruned when what is left cannot beat the limit.
CanonicalSearch::Step CanonicalSearch::Apply(Frame& f, int k) {
  if (k < 0) {
    f.saved.assign(1, st_.skyline[f.step]);
    st_.skyline[f.step] = f.raise_to;
    f.applied = -1;
  } else {
    const Block& b = st_.blocks[k];
    const int64_t off = st_.RestOn(k);
    if (off + b.height >= limit_) return Step::kPruned;
    st_.Place(k, off, f.saved);
    for (const Segment& s : b.segments) {
      for (int t = s.first; t <= s.last; ++t) --unplaced_live_[t];
    }
    f.applied = k;
    if (++placed_count_ == st_.n) return Step::kLeaf;
  }
  if (st_.Bound() >= limit_ || (f.applied >= 0 && !UnplacedStillFit(f.applied))) return Step::kPruned;
  if (!LowestRunCanBeCovered() || !ValleysCanBeFilled()) return Step::kPruned;
  return Step::kDeeper;
}

// A leaf: keeps the packing if it is smaller; true once it reaches the target.
bool CanonicalSearch::Improve(Packing& best) {
  Packing p = Expand(items_, st_.blocks, st_.base);
  if (p.size >= best.size) return false;
  best = std::move(p);
  limit_ = std::min(limit_, best.size);
  return best.size == target_;
}

// The skyline only rises, so every unplaced block ends at or above where it
// rests now: the blocks live beside the one just placed must still fit.
bool CanonicalSearch::UnplacedStillFit(int placed) {
  ++check_stamp_;
  for (int t = st_.blocks[placed].first; t <= st_.blocks[placed].last; ++t) {
    for (const auto& [k, lo] : live_at_[t]) {
      if (st_.base[k] >= 0 || checked_[k] == check_stamp_) continue;
      checked_[k] = check_stamp_;
      if (st_.RestOn(k) + st_.blocks[k].height >= limit_) return false;
    }
  }
  return true;
}

// At a step with no slack (its skyline plus its unplaced bytes reach the
// capacity) nothing may be left empty: the lowest run of steps must be
// covered, at its level, by unplaced blocks resting there side by side
// wherever it has no slack. A few steps of dynamic programming over the
// run rule out most dead ends long before the search would reach them.
bool CanonicalSearch::LowestRunCanBeCovered() {
  if (has_groups_) return true;  // a group's segments rest at different levels
  const std::vector<int64_t>& skyline = st_.skyline;
  int low = -1;
  for (int t = 0; t < st_.steps; ++t) {
    if (unplaced_live_[t] > 0 && (low < 0 || skyline[t] < skyline[low])) low = t;
  }
  if (low < 0) return true;
  const int64_t level = skyline[low];
  int a = low, b = low;
  while (a > 0 && skyline[a - 1] == level) --a;
  while (b + 1 < st_.steps && skyline[b + 1] == level) ++b;
  reach_.assign(static_cast<size_t>(b - a + 2), 0);
  reach_[0] = 1;
  for (int t = a; t <= b; ++t) {
    if (!reach_[t - a]) continue;
    if (skyline[t] + st_.remaining[t] < limit_ - 1) reach_[t - a + 1] = 1;  // slack: may stay empty
    for (int k : starting_at_[t]) {
      if (st_.base[k] < 0 && st_.blocks[k].last <= b) reach_[st_.blocks[k].last + 1 - a] = 1;
    }
  }
  return reach_[b + 1 - a] != 0;
}

// A valley (a run of steps at one level whose neighbours are higher) is
// filled up to its lower neighbour only by blocks that lie inside it in
// time: anything resting lower than a neighbour cannot reach over it, and
// the skyline only rises. What they cannot fill is waste, which a step's
// slack must absorb.
bool CanonicalSearch::ValleysCanBeFilled() {
  if (has_groups_) return true;
  const std::vector<int64_t>& skyline = st_.skyline;
  const int steps = st_.steps;
  const int64_t capacity = limit_ - 1;
  for (int a = 0; a < steps;) {
    int b = a;
    while (b + 1 < steps && skyline[b + 1] == skyline[a]) ++b;
    const int64_t left = a > 0 ? skyline[a - 1] : capacity, right = b + 1 < steps ? skyline[b + 1] : capacity;
    const int64_t top = std::min(left, right);
    if (top > skyline[a]) {
      inside_.assign(static_cast<size_t>(b - a + 1), 0);
      for (int t = a; t <= b; ++t) {
        for (const auto& [k, lo] : live_at_[t]) {
          const Block& blk = st_.blocks[k];
          if (st_.base[k] < 0 && blk.first >= a && blk.last <= b) inside_[t - a] += blk.height;
        }
        // top - skyline - inside is left empty; slack = capacity - skyline - remaining.
        if (top - inside_[t - a] > capacity - st_.remaining[t]) return false;
      }
    }
    a = b + 1;
  }
  return true;
}

// The exact search on one piece of the problem; it stops once the packing is
// `goal` bytes or less (at least the piece's max-live).
Packing PackExactPiece(const std::vector<IntervalItem>& items, const Packing& start, int64_t goal,
                       WorkBudget& budget, int64_t* nodes_explored) {
  int64_t target = 0;
  Packing best = StartFrom(items, start, &target);
  target = std::max(target, goal);
  if (best.size <= target || items.empty()) return best;
  int64_t explored = 0;
  {
    // First decide whether max-live itself is reachable (MiniMalloc solves
    // this decision problem): with the capacity at the target the search
    // prunes far harder than it can below the best packing so far.
    SkylineState decide(items);
    WorkBudget most(budget, budget.ShareOfLeft(3, 4));
    const packing::Fit fit = packing::DecideFit(decide, target, most, &explored);
    if (fit == packing::Fit::kYes) {
      best = Expand(items, decide.blocks, decide.base);
      best.proven = true;
      if (nodes_explored) *nodes_explored = explored;
      return best;
    }
  }
  // Otherwise (proved out of reach, or out of budget) minimize below the
  // best. A complete search without groups proves the best optimal (with
  // groups canonical packings may miss some: see PackExactByOffset).
  CanonicalSearch search(items, target, best.size, budget, explored);
  const bool complete = search.Run(best);
  best.proven = best.size <= target || (complete && !search.has_groups());
  if (nodes_explored) *nodes_explored = explored;
  return best;
}

// Steps at which no item (no group) is live across: the problem falls
// apart there into pieces packed independently, so that a dead end in one
// piece never makes the search revisit the choices made in another.
std::vector<std::vector<int>> TimePieces(const std::vector<IntervalItem>& items) {
  std::map<int, std::pair<int, int>> group_span;
  for (const IntervalItem& it : items) {
    if (it.group < 0) continue;
    auto [pos, fresh] = group_span.insert({it.group, {it.first, it.last}});
    if (!fresh) pos->second = {std::min(pos->second.first, it.first), std::max(pos->second.second, it.last)};
  }
  auto span = [&](const IntervalItem& it) {
    return it.group < 0 ? std::make_pair(it.first, it.last) : group_span.at(it.group);
  };
  std::vector<int> by_first(items.size());
  for (size_t i = 0; i < items.size(); ++i) by_first[i] = static_cast<int>(i);
  std::stable_sort(by_first.begin(), by_first.end(),
                   [&](int a, int b) { return span(items[a]).first < span(items[b]).first; });
  std::vector<std::vector<int>> pieces;
  int reach = -1;
  for (int i : by_first) {
    if (pieces.empty() || span(items[i]).first > reach) pieces.emplace_back();
    pieces.back().push_back(i);
    reach = std::max(reach, span(items[i]).second);
  }
  return pieces;
}

}  // namespace

Packing PackExact(const std::vector<IntervalItem>& items, const Packing& start,
                  WorkBudget& budget, int64_t* nodes_explored, int64_t known_bound) {
  int64_t max_live = 0;
  Packing best = StartFrom(items, start, &max_live);
  const int64_t target = std::max(max_live, known_bound);
  best.proven = best.size <= target;
  if (best.proven || items.empty()) return best;
  const std::vector<std::vector<int>> pieces = TimePieces(items);
  if (pieces.size() == 1) {
    best = PackExactPiece(items, start, target, budget, nodes_explored);
    best.optimal = best.size == max_live;
    best.proven = best.proven || best.size <= target;
    return best;
  }
  // Each piece needs only to fit under the whole problem's max-live; the
  // pieces that do not yet share the budget left, by their number of items.
  size_t left = 0;
  std::vector<Packing> starts(pieces.size());
  for (size_t p = 0; p < pieces.size(); ++p) {
    for (int i : pieces[p]) {
      starts[p].offsets.push_back(start.offsets[i]);
      starts[p].size = std::max(starts[p].size, start.offsets[i] + items[i].bytes);
    }
    if (starts[p].size > target) left += pieces[p].size();
  }
  if (nodes_explored) *nodes_explored = 0;
  Packing out;
  out.offsets.assign(items.size(), 0);
  out.proven = true;
  for (size_t p = 0; p < pieces.size(); ++p) {
    Packing piece = starts[p];
    if (piece.size > target) {
      std::vector<IntervalItem> sub;
      for (int i : pieces[p]) sub.push_back(items[i]);
      WorkBudget share(budget, budget.ShareOfLeft(static_cast<int64_t>(pieces[p].size()),
                                                  static_cast<int64_t>(left)));
      left -= pieces[p].size();
      int64_t explored = 0;
      piece = PackExactPiece(sub, piece, target, share, &explored);
      out.proven = out.proven && piece.proven;
      if (nodes_explored) *nodes_explored += explored;
    }
    for (size_t k = 0; k < pieces[p].size(); ++k) out.offsets[pieces[p][k]] = piece.offsets[k];
    out.size = std::max(out.size, piece.size);
  }
  out.optimal = out.size == max_live;
  out.proven = out.proven || out.size <= target;
  if (out.size < best.size) return out;
  best.proven = best.proven || out.proven;  // out is the least, and best no larger
  return best;
}

Packing PackExactByOffset(const std::vector<IntervalItem>& items, const Packing& start,
                          WorkBudget& budget, int64_t* nodes_explored, int64_t known_bound) {
  int64_t max_live = 0;
  Packing best = StartFrom(items, start, &max_live);
  const int64_t target = std::max(max_live, known_bound);
  best.proven = best.proven || best.size <= target;
  if (best.proven || items.empty()) return best;
  // Canonical packings: every block rests at 0 or on a block below it, so
  // placing blocks in increasing order of base, each at the top of the
  // skyline over its lifetime, reaches every packing of rectangles worth
  // having (a group's profile may leave holes under it that this search does
  // not fill; it is still exact whenever it reaches max-live).
  SkylineState st(items);
  const std::vector<Block>& blocks = st.blocks;
  const int n = st.n;
  std::vector<bool> placed(n, false);
  int64_t explored = 0;
  struct Frame {
    std::vector<std::pair<int64_t, int>> choices;  // (base, block), best first
    size_t next = 0;
    int block = -1;
    std::vector<int64_t> saved;  // skyline over the block's lifetime before placing it
  };
  std::vector<Frame> stack;
  auto open_frame = [&](int64_t floor) {
    Frame f;
    for (int k = 0; k < n; ++k) {
      if (placed[k]) continue;
      int64_t off = st.RestOn(k);
      if (off < floor || off + blocks[k].height >= best.size) continue;
      f.choices.push_back({off, k});
    }
    std::sort(f.choices.begin(), f.choices.end(), [&](const auto& a, const auto& b) {
      if (a.first != b.first) return a.first < b.first;
      return blocks[a.second].height > blocks[b.second].height;
    });
    stack.push_back(std::move(f));
  };
  auto undo = [&](Frame& f) {
    st.Unplace(f.block, f.saved);
    placed[f.block] = false;
    f.block = -1;
  };
  int placed_count = 0;
  open_frame(0);
  while (!stack.empty()) {
    ++explored;
    if (!budget.Spend()) break;
    Frame& f = stack.back();
    if (f.block >= 0) {
      undo(f);
      --placed_count;
    }
    if (f.next >= f.choices.size()) {
      stack.pop_back();
      continue;
    }
    auto [off, k] = f.choices[f.next++];
    const Block& b = blocks[k];
    if (off != st.RestOn(k) || off + b.height >= best.size) continue;
    f.block = k;
    st.Place(k, off, f.saved);
    placed[k] = true;
    ++placed_count;
    if (placed_count == n) {
      Packing p = Expand(items, blocks, st.base);
      if (p.size < best.size) {
        best = std::move(p);
        if (best.size <= target) break;
      }
      continue;
    }
    if (st.Bound() >= best.size) continue;
    open_frame(off);
  }
  if (nodes_explored) *nodes_explored = explored;
  best.optimal = best.size == max_live;
  best.proven = best.proven || best.size <= target;
  return best;
}

bool PackingIsValid(const std::vector<IntervalItem>& items, const Packing& packing) {
  if (packing.offsets.size() != items.size()) return false;
  for (size_t i = 0; i < items.size(); ++i) {
    if (packing.offsets[i] < 0 || packing.offsets[i] + items[i].bytes > packing.size) return false;
    for (size_t j = 0; j < i; ++j) {
      if (items[i].group >= 0 && items[i].group == items[j].group) {
        if (packing.offsets[i] - packing.offsets[j] != items[i].group_offset - items[j].group_offset) {
          return false;
        }
        continue;
      }
      if (items[i].first > items[j].last || items[j].first > items[i].last) continue;
      if (packing.offsets[i] < packing.offsets[j] + items[j].bytes &&
          packing.offsets[j] < packing.offsets[i] + items[i].bytes) {
        return false;
      }
    }
  }
  return true;
}

}  // namespace oc
