#include "compiler/support/work_budget.h"

#include <algorithm>

namespace oc {
namespace {

// Units between two looks at the clock: the hard stop's only cost.
constexpr int64_t kClockInterval = 1 << 14;

}  // namespace

bool HardStop::Fired() {
  if (armed_ && !fired_ && std::chrono::steady_clock::now() >= deadline_) fired_ = true;
  return fired_;
}

WorkBudget::WorkBudget(WorkBudget& parent, int64_t units)
    : limit_(std::min(units, parent.Left())), parent_(&parent), stop_(parent.stop_) {
  exhausted_ = parent.exhausted_;
}

void WorkBudget::Charge(int64_t units) {
  spent_ += units;
  if (parent_) parent_->Charge(units);
}

bool WorkBudget::Spend(int64_t units) {
  if (exhausted_) return false;
  Charge(units);
  if (spent_ >= limit_) exhausted_ = true;
  if (stop_ && spent_ >= next_clock_check_) {
    next_clock_check_ = spent_ + kClockInterval;
    if (stop_->Fired()) exhausted_ = true;
  }
  return !exhausted_;
}

int64_t WorkBudget::ShareOfLeft(int64_t num, int64_t den) const {
  return den > 0 ? Left() / den * num + Left() % den * num / den : 0;
}

}  // namespace oc
