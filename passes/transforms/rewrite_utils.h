// Small helpers shared by rewriting passes.
#ifndef ONNX_TO_C_PASSES_TRANSFORMS_REWRITE_UTILS_H_
#define ONNX_TO_C_PASSES_TRANSFORMS_REWRITE_UTILS_H_

#include <cstring>
#include <vector>

#include "compiler/ir/program.h"

namespace oc {

inline bool IsGraphOutput(const Program& p, ValueId v) {
  for (ValueId out : p.outputs()) {
    if (out == v) return true;
  }
  return false;
}

inline std::vector<float> ConstantAsFloats(const Value& v) {
  std::vector<float> out(v.NumElements());
  std::memcpy(out.data(), v.data.data(), out.size() * sizeof(float));
  return out;
}

inline std::vector<uint8_t> FloatsAsBytes(const std::vector<float>& f) {
  std::vector<uint8_t> out(f.size() * sizeof(float));
  std::memcpy(out.data(), f.data(), out.size());
  return out;
}

// Removes the statements marked in `erase` (indices in program order).
inline void EraseStatements(Program& p, const std::vector<bool>& erase) {
  std::vector<Statement> kept;
  auto& stmts = p.statements();
  for (size_t i = 0; i < stmts.size(); ++i) {
    if (!erase[i]) kept.push_back(std::move(stmts[i]));
  }
  stmts = std::move(kept);
}

}  // namespace oc

#endif  // ONNX_TO_C_PASSES_TRANSFORMS_REWRITE_UTILS_H_
