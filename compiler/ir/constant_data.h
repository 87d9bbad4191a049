// A constant's bytes, shared by the copies of a program until one of them
// changes them: the planning search copies the program for every candidate,
// and a model's weights are most of its bytes.
#ifndef ONNX_TO_C_IR_CONSTANT_DATA_H_
#define ONNX_TO_C_IR_CONSTANT_DATA_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace oc {

class ConstantData {
 public:
  ConstantData() = default;
  ConstantData(std::vector<uint8_t> bytes)  // NOLINT: a vector converts implicitly
      : bytes_(std::make_shared<std::vector<uint8_t>>(std::move(bytes))) {}

  const std::vector<uint8_t>& bytes() const { return bytes_ ? *bytes_ : Empty(); }
  operator const std::vector<uint8_t>&() const { return bytes(); }  // NOLINT
  size_t size() const { return bytes().size(); }
  bool empty() const { return bytes().empty(); }
  const uint8_t* data() const { return bytes().data(); }
  const uint8_t& operator[](size_t i) const { return bytes()[i]; }
  std::vector<uint8_t>::const_iterator begin() const { return bytes().begin(); }
  std::vector<uint8_t>::const_iterator end() const { return bytes().end(); }

  // The bytes to change, copied first when another program shares them.
  std::vector<uint8_t>& Mutable();
  void clear() { bytes_.reset(); }
  void shrink_to_fit() {}
  void push_back(uint8_t b) { Mutable().push_back(b); }
  void pop_back() { Mutable().pop_back(); }

  friend bool operator==(const ConstantData& a, const ConstantData& b) {
    return a.bytes_ == b.bytes_ || a.bytes() == b.bytes();
  }
  friend bool operator!=(const ConstantData& a, const ConstantData& b) { return !(a == b); }

 private:
  static const std::vector<uint8_t>& Empty();
  std::shared_ptr<std::vector<uint8_t>> bytes_;
};

}  // namespace oc

#endif  // ONNX_TO_C_IR_CONSTANT_DATA_H_
