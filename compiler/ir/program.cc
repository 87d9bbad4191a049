#include "compiler/ir/program.h"

#include <cstdint>
#include <utility>

namespace oc {

int64_t NumElements(const Shape& shape) {
  // Saturates instead of overflowing: shapes from a hostile model can be
  // absurd before the checks that reject them have run.
  int64_t n = 1;
  for (int64_t d : shape) {
    if (__builtin_mul_overflow(n, d, &n)) return d < 0 ? INT64_MIN : INT64_MAX;
  }
  return n;
}

int64_t Statement::Int(const std::string& key, int64_t fallback) const {
  auto it = attrs.find(key);
  if (it == attrs.end()) return fallback;
  if (auto* v = std::get_if<int64_t>(&it->second)) return *v;
  if (auto* f = std::get_if<float>(&it->second)) return static_cast<int64_t>(*f);
  return fallback;
}

float Statement::Float(const std::string& key, float fallback) const {
  auto it = attrs.find(key);
  if (it == attrs.end()) return fallback;
  if (auto* v = std::get_if<float>(&it->second)) return *v;
  if (auto* i = std::get_if<int64_t>(&it->second)) return static_cast<float>(*i);
  return fallback;
}

std::string Statement::Str(const std::string& key, const std::string& fallback) const {
  auto it = attrs.find(key);
  if (it == attrs.end()) return fallback;
  if (auto* v = std::get_if<std::string>(&it->second)) return *v;
  return fallback;
}

std::vector<int64_t> Statement::Ints(const std::string& key) const {
  auto it = attrs.find(key);
  if (it == attrs.end()) return {};
  if (auto* v = std::get_if<std::vector<int64_t>>(&it->second)) return *v;
  return {};
}

std::vector<float> Statement::Floats(const std::string& key) const {
  auto it = attrs.find(key);
  if (it == attrs.end()) return {};
  if (auto* v = std::get_if<std::vector<float>>(&it->second)) return *v;
  if (auto* iv = std::get_if<std::vector<int64_t>>(&it->second)) {
    return std::vector<float>(iv->begin(), iv->end());
  }
  return {};
}

ValueId Program::AddInput(std::string name, DType dtype, Shape shape) {
  Value v;
  v.id = static_cast<ValueId>(values_.size());
  v.kind = ValueKind::kInput;
  v.name = std::move(name);
  v.dtype = dtype;
  v.shape = std::move(shape);
  values_.push_back(std::move(v));
  inputs_.push_back(values_.back().id);
  return values_.back().id;
}

ValueId Program::AddConstant(std::string name, DType dtype, Shape shape,
                             std::vector<uint8_t> data) {
  Value v;
  v.id = static_cast<ValueId>(values_.size());
  v.kind = ValueKind::kConstant;
  v.name = std::move(name);
  v.dtype = dtype;
  v.shape = std::move(shape);
  v.data = std::move(data);
  values_.push_back(std::move(v));
  return values_.back().id;
}

ValueId Program::AddResultValue(std::string name, DType dtype, Shape shape) {
  Value v;
  v.id = static_cast<ValueId>(values_.size());
  v.kind = ValueKind::kResult;
  v.name = std::move(name);
  v.dtype = dtype;
  v.shape = std::move(shape);
  values_.push_back(std::move(v));
  return values_.back().id;
}

Statement& Program::AddStatement(OpKind op, std::vector<ValueId> operands,
                                 std::vector<ValueId> results) {
  Statement s;
  s.id = next_statement_id_++;
  s.op = op;
  s.operands = std::move(operands);
  s.results = std::move(results);
  statements_.push_back(std::move(s));
  return statements_.back();
}

std::vector<int> Program::DefiningStatementIndex() const {
  std::vector<int> def(values_.size(), -1);
  for (size_t i = 0; i < statements_.size(); ++i) {
    for (ValueId r : statements_[i].results) def[r] = static_cast<int>(i);
  }
  return def;
}

std::vector<std::vector<int>> Program::UsersIndex() const {
  std::vector<std::vector<int>> users(values_.size());
  for (size_t i = 0; i < statements_.size(); ++i) {
    for (ValueId o : statements_[i].operands) {
      if (o == kNoValue) continue;
      if (users[o].empty() || users[o].back() != static_cast<int>(i)) {
        users[o].push_back(static_cast<int>(i));
      }
    }
  }
  return users;
}

void Program::CompactValues() {
  std::vector<bool> live(values_.size(), false);
  for (ValueId id : inputs_) live[id] = true;
  for (ValueId id : outputs_) live[id] = true;
  for (const Statement& s : statements_) {
    for (ValueId o : s.operands) {
      if (o != kNoValue) live[o] = true;
    }
    for (ValueId r : s.results) live[r] = true;
  }
  std::vector<ValueId> remap(values_.size(), kNoValue);
  std::deque<Value> kept;
  for (size_t i = 0; i < values_.size(); ++i) {
    if (!live[i]) continue;
    remap[i] = static_cast<ValueId>(kept.size());
    kept.push_back(std::move(values_[i]));
    kept.back().id = remap[i];
  }
  values_ = std::move(kept);
  auto fix = [&](std::vector<ValueId>& ids) {
    for (ValueId& id : ids) {
      if (id != kNoValue) id = remap[id];
    }
  };
  fix(inputs_);
  fix(outputs_);
  for (Statement& s : statements_) {
    fix(s.operands);
    fix(s.results);
  }
}

}  // namespace oc
