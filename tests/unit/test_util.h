// Small helpers shared by the unit tests.
#ifndef ONNX_TO_C_TESTS_UNIT_TEST_UTIL_H_
#define ONNX_TO_C_TESTS_UNIT_TEST_UTIL_H_

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "compiler/ir/program.h"
#include "gtest/gtest.h"

namespace oc::testing {

// Bytes of one arena: which value's content each byte holds (-1: none).
// Reading a byte of the input that no longer holds it is the bug an overlap
// contract must never allow (the access-order simulations).
class ByteArena {
 public:
  explicit ByteArena(int64_t size) : owner_(static_cast<size_t>(size), -1) {}
  void Write(int64_t from, int64_t bytes, int who) {
    std::fill_n(owner_.begin() + from, bytes, who);
  }
  bool Holds(int64_t from, int64_t bytes, int who) const {
    return std::all_of(owner_.begin() + from, owner_.begin() + from + bytes,
                       [&](int o) { return o == who; });
  }

 private:
  std::vector<int> owner_;
};

inline std::vector<uint8_t> F32Bytes(const std::vector<float>& values) {
  std::vector<uint8_t> out(values.size() * sizeof(float));
  if (!values.empty()) std::memcpy(out.data(), values.data(), out.size());
  return out;
}

inline std::vector<float> F32Values(const Value& v) {
  std::vector<float> out(v.data.size() / sizeof(float));
  if (!out.empty()) std::memcpy(out.data(), v.data.data(), out.size() * sizeof(float));
  return out;
}

inline ValueId AddF32Constant(Program& p, const std::string& name, Shape shape,
                              const std::vector<float>& values) {
  return p.AddConstant(name, DType::kF32, std::move(shape), F32Bytes(values));
}

// Adds `op(operands) -> one new f32 result of `shape`` and returns the result.
inline ValueId AddOp(Program& p, OpKind op, std::vector<ValueId> operands,
                     const std::string& result_name, Shape shape,
                     const std::string& node_name = "") {
  ValueId r = p.AddResultValue(result_name, DType::kF32, std::move(shape));
  Statement& s = p.AddStatement(op, std::move(operands), {r});
  s.node_name = node_name.empty() ? result_name + "_node" : node_name;
  return r;
}

// Conv attributes the verifier requires (1x1 kernel, no padding).
inline void SetConv1x1Attrs(Statement& s) {
  s.attrs["strides"] = std::vector<int64_t>{1, 1};
  s.attrs["dilations"] = std::vector<int64_t>{1, 1};
  s.attrs["pads"] = std::vector<int64_t>{0, 0, 0, 0};
  s.attrs["group"] = int64_t{1};
  s.attrs["kernel"] = std::vector<int64_t>{1, 1};
}

// The statement defining `v`, or nullptr.
inline const Statement* DefiningStatement(const Program& p, ValueId v) {
  for (const Statement& s : p.statements()) {
    for (ValueId r : s.results) {
      if (r == v) return &s;
    }
  }
  return nullptr;
}

// Index of the first value named `name`, or kNoValue.
inline ValueId FindValue(const Program& p, const std::string& name) {
  for (const Value& v : p.values()) {
    if (v.name == name) return v.id;
  }
  return kNoValue;
}

// "L:C: " at the start of a parse error; returns {line, column} or {-1, -1}.
inline std::pair<int, int> ErrorPosition(const absl::Status& st) {
  std::string m(st.message());
  int line = -1, col = -1;
  if (std::sscanf(m.c_str(), "%d:%d: ", &line, &col) != 2) return {-1, -1};
  return {line, col};
}

}  // namespace oc::testing


#define OC_ASSERT_OK(expr)                                     \
  do {                                                         \
    const ::absl::Status oc_test_status_ = (expr);             \
    ASSERT_TRUE(oc_test_status_.ok()) << oc_test_status_;      \
  } while (0)

#define OC_EXPECT_OK(expr)                                     \
  do {                                                         \
    const ::absl::Status oc_test_status_ = (expr);             \
    EXPECT_TRUE(oc_test_status_.ok()) << oc_test_status_;      \
  } while (0)

#endif  // ONNX_TO_C_TESTS_UNIT_TEST_UTIL_H_
