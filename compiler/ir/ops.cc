#include "compiler/ir/ops.h"

#include <cstdint>

namespace oc {
namespace {

constexpr OpInfo kOpInfos[] = {
#define OC_OP(Enum, Name, Category, MinOps, MaxOps, Effect, Results, Attrs, Emit)         \
  {OpKind::Enum, Name, OpCategory::Category, MinOps, MaxOps, MemoryEffect::Effect, \
   ResultCount::Results, Attrs},
#include "compiler/ir/ops.def"
};

}  // namespace

const OpInfo& GetOpInfo(OpKind kind) { return kOpInfos[static_cast<int>(kind)]; }

std::optional<OpKind> ParseOpName(absl::string_view name) {
  for (const OpInfo& info : kOpInfos) {
    if (info.name == name) return info.kind;
  }
  return std::nullopt;
}

}  // namespace oc
