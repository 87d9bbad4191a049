#include "passes/planning/recompute_exact.h"

#include <algorithm>

#include "passes/analysis/memory_model.h"
#include "passes/analysis/schedule_graph.h"

namespace oc {
namespace {

class Search {
 public:
  Search(const RecomputeOptions& o, WorkBudget& work, int64_t budget, ExactRecomputeResult& r)
      : o_(o), work_(work), budget_(budget), r_(r) {}

  // Decides the clones of originals[k..] (ids, last statement first).
  void Visit(const Program& p, const std::vector<int32_t>& originals, size_t k,
             std::vector<RecomputeClone>& clones, int64_t cost) {
    if (!work_.Spend()) {
      r_.finished = false;
      return;
    }
    if (k == originals.size()) {
      Evaluate(p, clones, cost);
      return;
    }
    const int32_t id = originals[k];
    const Statement* s = nullptr;
    for (const Statement& st : p.statements()) {
      if (st.id == id) s = &st;
    }
    std::vector<int32_t> readers;
    bool is_output = false;
    if (s->results.size() == 1) {
      const ValueId v = s->results[0];
      for (const Statement& st : p.statements()) {
        if (std::find(st.operands.begin(), st.operands.end(), v) != st.operands.end()) {
          readers.push_back(st.id);
        }
      }
      is_output = std::find(p.outputs().begin(), p.outputs().end(), v) != p.outputs().end();
    }
    const int64_t each = RecomputeCost(p, *s);
    // Readers labelled 0 (the original) or 1..cap (clones), labels in order
    // of first use, so that each partition is visited once.
    std::vector<int> label(readers.size(), 0);
    auto recurse = [&](auto&& self, size_t i, int used) -> void {
      if (i == readers.size()) {
        const bool original_read =
            is_output || std::find(label.begin(), label.end(), 0) != label.end();
        if (!original_read || cost + used * each > budget_) return;
        Program q = p;
        const size_t mark = clones.size();
        bool ok = true;
        for (int c = 1; c <= used && ok; ++c) {
          std::vector<int32_t> group;
          for (size_t j = 0; j < readers.size(); ++j) {
            if (label[j] == c) group.push_back(readers[j]);
          }
          auto clone = CloneForReaders(q, id, group);
          ok = clone.ok();
          if (ok) clones.push_back(*clone);
        }
        if (ok) Visit(q, originals, k + 1, clones, cost + used * each);
        clones.resize(mark);
        return;
      }
      for (int l = 0; l <= std::min(used + 1, o_.cap); ++l) {
        label[i] = l;
        self(self, i + 1, std::max(used, l));
      }
    };
    recurse(recurse, 0, 0);
  }

 private:
  void Evaluate(const Program& p, const std::vector<RecomputeClone>& clones, int64_t cost) {
    ++r_.programs;
    MemoryModel m = ComputeMemoryModel(p, o_.alignment, o_.aliases);
    ProgramGraph pg = BuildScheduleGraph(p, m);
    ExactSearchResult e = ExactMinPeakOrder(pg.graph, r_.peak, work_);
    if (!e.finished) r_.finished = false;
    if (e.improved) {
      r_.peak = e.peak;
      r_.clones = clones;
      r_.extra_cost = cost;
    }
  }

  const RecomputeOptions& o_;
  WorkBudget& work_;
  int64_t budget_;
  ExactRecomputeResult& r_;
};

}  // namespace

ExactRecomputeResult ExactMinPeakWithRecompute(const Program& program, const RecomputeOptions& o,
                                               WorkBudget& budget, int max_statements) {
  ExactRecomputeResult r;
  const int n = static_cast<int>(program.statements().size());
  if (n == 0 || n > max_statements) return r;
  r.ran = true;
  r.finished = true;
  // The program's own order bounds the search from above.
  const int64_t given = ComputeMemoryModel(program, o.alignment, o.aliases).peak_bytes;
  r.peak = given + 1;  // so that the program without clones is found too
  std::vector<int32_t> originals;
  for (int i = n - 1; i >= 0; --i) originals.push_back(program.statements()[i].id);
  std::vector<RecomputeClone> clones;
  Search(o, budget, RecomputeBudget(program, o), r).Visit(program, originals, 0, clones, 0);
  if (r.peak > given) {  // cut short before any search ended: only the given order is known
    r.peak = given;
    r.finished = false;
  }
  return r;
}

}  // namespace oc
