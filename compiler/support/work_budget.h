// Search budgets in work units (states expanded, flows computed, packing
// nodes visited), never in wall-clock time: the same input and budget give
// the same result on any machine and under any load, as solvers do in their
// deterministic modes. One unit is roughly one elementary step of a search
// loop over a statement; each search says what it charges.
//
// A hard stop (the CLI's --time-limit) may still cut every search short; it
// is checked only every few thousand units, and when it fires the compile
// says so, since its result then depends on the machine.
#ifndef ONNX_TO_C_SUPPORT_WORK_BUDGET_H_
#define ONNX_TO_C_SUPPORT_WORK_BUDGET_H_

#include <chrono>
#include <cstdint>

namespace oc {

// A wall-clock limit shared by every search of one compile.
class HardStop {
 public:
  HardStop() = default;  // never fires
  explicit HardStop(std::chrono::steady_clock::time_point deadline)
      : armed_(true), deadline_(deadline) {}
  // True once the deadline has passed (and from then on).
  bool Fired();
  bool fired() const { return fired_; }

 private:
  bool armed_ = false;
  bool fired_ = false;
  std::chrono::steady_clock::time_point deadline_;
};

class WorkBudget {
 public:
  // `units` of work; `stop` (may be null) outlives the budget.
  explicit WorkBudget(int64_t units, HardStop* stop = nullptr) : limit_(units), stop_(stop) {}
  // A part of `parent`: at most `units` of what it has left; what the part
  // spends is spent from the parent too. The parent outlives the part.
  WorkBudget(WorkBudget& parent, int64_t units);

  // Charges `units`; false once the budget is spent (or the hard stop fired).
  bool Spend(int64_t units = 1);
  bool Exhausted() const { return exhausted_; }
  int64_t spent() const { return spent_; }
  int64_t limit() const { return limit_; }
  int64_t Left() const { return limit_ > spent_ ? limit_ - spent_ : 0; }
  // `num`/`den` of what is left (for a part).
  int64_t ShareOfLeft(int64_t num, int64_t den) const;

 private:
  void Charge(int64_t units);

  int64_t limit_;
  int64_t spent_ = 0;
  int64_t next_clock_check_ = 0;
  bool exhausted_ = false;
  WorkBudget* parent_ = nullptr;
  HardStop* stop_ = nullptr;
};

}  // namespace oc

#endif  // ONNX_TO_C_SUPPORT_WORK_BUDGET_H_
