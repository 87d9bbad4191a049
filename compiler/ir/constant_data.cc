#include "compiler/ir/constant_data.h"

namespace oc {

std::vector<uint8_t>& ConstantData::Mutable() {
  if (!bytes_) {
    bytes_ = std::make_shared<std::vector<uint8_t>>();
  } else if (bytes_.use_count() > 1) {
    bytes_ = std::make_shared<std::vector<uint8_t>>(*bytes_);
  }
  return *bytes_;
}

const std::vector<uint8_t>& ConstantData::Empty() {
  static const std::vector<uint8_t> kEmpty;
  return kEmpty;
}

}  // namespace oc
