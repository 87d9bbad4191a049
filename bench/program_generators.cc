#include "bench/program_generators.h"

#include <string>
#include <vector>

#include "bench/graph_generators.h"

namespace oc {

Program RandomRecomputeProgram(uint64_t seed, int statements, int64_t heavy_macs) {
  GenRng rng(seed);
  Program p;
  std::vector<ValueId> values = {p.AddInput("x", DType::kF32, {1, 32})};
  auto add = [&](OpKind op, std::vector<ValueId> operands, Shape shape) {
    const ValueId r = p.AddResultValue("v" + std::to_string(p.statements().size()), DType::kF32,
                                       std::move(shape));
    Statement& s = p.AddStatement(op, std::move(operands), {r});
    s.node_name = p.value(r).name;
    if (op == OpKind::kConcat) s.attrs["axis"] = int64_t{1};
    if (rng.Chance(0.5)) s.macs = heavy_macs;
    values.push_back(r);
  };
  for (int i = 0; i < statements; ++i) {
    const ValueId a = rng.Pick(values);
    const Shape shape = p.value(a).shape;
    std::vector<ValueId> same;  // values of a's shape
    for (ValueId v : values) {
      if (p.value(v).shape == shape) same.push_back(v);
    }
    const int64_t kind = rng.Uniform(0, 5);
    if (kind == 0 && shape[1] < 128) {
      const ValueId b = rng.Pick(values);
      add(OpKind::kConcat, {a, b}, {1, shape[1] + p.value(b).shape[1]});
    } else if (kind <= 2) {
      add(OpKind::kAdd, {a, rng.Pick(same)}, shape);
    } else {
      add(kind == 3 ? OpKind::kRelu : OpKind::kSigmoid, {a}, shape);
    }
  }
  std::vector<bool> read(p.num_values(), false);
  for (const Statement& s : p.statements()) {
    for (ValueId o : s.operands) read[o] = true;
  }
  for (const Statement& s : p.statements()) {
    if (!read[s.results[0]]) p.outputs().push_back(s.results[0]);
  }
  return p;
}

}  // namespace oc
