// The verifier: a valid program passes, and each invariant, broken on its
// own, is rejected with a message that says which one.
#include <functional>
#include <string>
#include <vector>

#include "compiler/ir/parser.h"
#include "compiler/ir/verifier.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/unit/test_util.h"

namespace oc {
namespace {

using ::oc::testing::AddF32Constant;
using ::oc::testing::AddOp;
using ::oc::testing::SetConv1x1Attrs;
using ::testing::HasSubstr;

// x[1,2,2,2] -> conv(w, b) -> relu -> reshape -> copy (output)
struct Base {
  Program p;
  ValueId x, w, b, c, r, v, out;
  int conv, relu, reshape, copy;  // statement indices
};

Base MakeBase() {
  Base t;
  Program& p = t.p;
  t.x = p.AddInput("x", DType::kF32, {1, 2, 2, 2});
  t.w = AddF32Constant(p, "w", {2, 2, 1, 1}, {1, 2, 3, 4});
  t.b = AddF32Constant(p, "b", {2}, {0.5f, -0.5f});
  t.c = AddOp(p, OpKind::kConv, {t.x, t.w, t.b}, "c", {1, 2, 2, 2});
  SetConv1x1Attrs(p.statements().back());
  t.conv = 0;
  t.r = AddOp(p, OpKind::kRelu, {t.c}, "r", {1, 2, 2, 2});
  t.relu = 1;
  t.v = AddOp(p, OpKind::kReshape, {t.r}, "v", {1, 8});
  t.reshape = 2;
  t.out = AddOp(p, OpKind::kCopy, {t.v}, "out", {1, 8});
  t.copy = 3;
  p.outputs() = {t.out};
  return t;
}

void ExpectRejected(const Program& p, const std::string& message_part) {
  absl::Status st = VerifyProgram(p);
  ASSERT_FALSE(st.ok()) << "expected an error containing '" << message_part << "'";
  EXPECT_THAT(std::string(st.message()), HasSubstr(message_part));
}

TEST(VerifierTest, BaseProgramIsValid) {
  Base t = MakeBase();
  OC_EXPECT_OK(VerifyProgram(t.p));
}

TEST(VerifierTest, RejectsUseBeforeDefinition) {
  Base t = MakeBase();
  // Move the relu in front of the conv that defines its operand.
  std::swap(t.p.statements()[t.conv], t.p.statements()[t.relu]);
  ExpectRejected(t.p, "reads a value before it is defined");
}

TEST(VerifierTest, RejectsAStatementReadingItsOwnResult) {
  Base t = MakeBase();
  t.p.statements()[t.relu].operands = {t.r};
  ExpectRejected(t.p, "reads a value before it is defined");
}

TEST(VerifierTest, RejectsAnOperandIdOutOfRange) {
  Base t = MakeBase();
  t.p.statements()[t.relu].operands = {static_cast<ValueId>(t.p.num_values() + 3)};
  ExpectRejected(t.p, "reads a value before it is defined");
}

TEST(VerifierTest, RejectsTooFewOperands) {
  Base t = MakeBase();
  t.p.statements()[t.conv].operands = {t.x};
  ExpectRejected(t.p, "has 1 operands, expected 2..3");
}

TEST(VerifierTest, RejectsTooManyOperands) {
  Base t = MakeBase();
  t.p.statements()[t.relu].operands = {t.c, t.c};
  ExpectRejected(t.p, "has 2 operands, expected 1..1");
}

TEST(VerifierTest, RejectsAnAbsentRequiredOperand) {
  Base t = MakeBase();
  t.p.statements()[t.conv].operands = {t.x, kNoValue, t.b};
  ExpectRejected(t.p, "misses required operand 1");
}

TEST(VerifierTest, AcceptsAnAbsentOptionalOperand) {
  Base t = MakeBase();
  t.p.statements()[t.conv].operands = {t.x, t.w, kNoValue};
  OC_EXPECT_OK(VerifyProgram(t.p));
}

TEST(VerifierTest, RejectsAViewThatChangesTheSize) {
  Base t = MakeBase();
  t.p.value(t.v).shape = {1, 9};
  t.p.value(t.out).shape = {1, 9};
  ExpectRejected(t.p, "is a view but changes the size or type");
}

TEST(VerifierTest, RejectsAViewThatChangesTheType) {
  Base t = MakeBase();
  t.p.value(t.v).dtype = DType::kI32;  // same byte size, other type
  t.p.value(t.out).dtype = DType::kI32;
  ExpectRejected(t.p, "is a view but changes the size or type");
}

TEST(VerifierTest, RejectsAUnaryOpThatChangesTheShape) {
  Base t = MakeBase();
  t.p.value(t.r).shape = {1, 2, 4};  // same element count, other shape
  ExpectRejected(t.p, "must keep its operand's shape and type");
}

TEST(VerifierTest, RejectsAUnaryOpThatChangesTheType) {
  Base t = MakeBase();
  t.p.value(t.r).dtype = DType::kI32;
  ExpectRejected(t.p, "must keep its operand's shape and type");
}

TEST(VerifierTest, RejectsABinaryOpMixingTypes) {
  Program p;
  ValueId a = p.AddInput("a", DType::kF32, {2});
  ValueId b = p.AddInput("b", DType::kI32, {2});
  ValueId r = AddOp(p, OpKind::kAdd, {a, b}, "r", {2});
  p.outputs() = {r};
  ExpectRejected(p, "mixes element types");
}

TEST(VerifierTest, RejectsABinaryResultOfLowerRank) {
  Program p;
  ValueId a = p.AddInput("a", DType::kF32, {2, 2});
  ValueId b = p.AddInput("b", DType::kF32, {2});
  ValueId r = AddOp(p, OpKind::kAdd, {a, b}, "r", {4});
  p.outputs() = {r};
  ExpectRejected(p, "bad broadcast shape");
}

struct MissingAttrCase {
  OpKind op;
  std::vector<std::string> required;
};

TEST(VerifierTest, RejectsEachMissingRequiredAttribute) {
  const std::vector<MissingAttrCase> cases = {
      {OpKind::kConv, {"strides", "dilations", "pads", "group"}},
      {OpKind::kMaxPool, {"kernel", "strides", "pads"}},
      {OpKind::kAveragePool, {"kernel", "strides", "pads"}},
      {OpKind::kConcat, {"axis"}},
      {OpKind::kSoftmax, {"axis"}},
      {OpKind::kGather, {"axis", "indices"}},
      {OpKind::kSlice, {"starts", "steps"}},
      {OpKind::kTranspose, {"perm"}},
      {OpKind::kPad, {"pads", "mode"}},
      {OpKind::kReduceMean, {"axes"}},
      {OpKind::kResize, {"mode", "coord_mode"}},
  };
  for (const MissingAttrCase& c : cases) {
    for (const std::string& missing : c.required) {
      SCOPED_TRACE(std::string(OpName(c.op)) + " without " + missing);
      Program p;
      ValueId x = p.AddInput("x", DType::kF32, {1, 2, 2, 2});
      std::vector<ValueId> operands = {x};
      if (c.op == OpKind::kConv) {
        operands.push_back(AddF32Constant(p, "w", {2, 2, 1, 1}, {1, 2, 3, 4}));
      }
      ValueId r = AddOp(p, c.op, operands, "r", {1, 2, 2, 2}, "the_node");
      Statement& s = p.statements().back();
      for (const std::string& key : c.required) s.attrs[key] = int64_t{0};
      OC_ASSERT_OK(VerifyProgram(p));  // complete: accepted
      s.attrs.erase(missing);
      p.outputs() = {r};
      ExpectRejected(p, "misses attribute '" + missing + "'");
      // The message names the statement's op and node.
      ExpectRejected(p, std::string("(") + std::string(OpName(c.op)) + ", node 'the_node')");
    }
  }
}

// An empty tensor (a zero dimension) is a legal buffer of 0 bytes, wherever it
// flows.
TEST(VerifierTest, AcceptsEmptyInputsAndResults) {
  Base t = MakeBase();
  for (ValueId v : {t.x, t.c, t.r}) t.p.value(v).shape = {1, 2, 0, 2};
  for (ValueId v : {t.v, t.out}) t.p.value(v).shape = {1, 0};
  OC_EXPECT_OK(VerifyProgram(t.p));
}

TEST(VerifierTest, RejectsANegativeDimension) {
  Base t = MakeBase();
  t.p.value(t.r).shape = {1, -2, 2, 2};
  ExpectRejected(t.p, "value 'r' has a dimension -2");
}

TEST(VerifierTest, AcceptsAnEmptyConstant) {
  Base t = MakeBase();
  t.p.AddConstant("nothing", DType::kF32, {0, 3}, {});
  OC_EXPECT_OK(VerifyProgram(t.p));
}

TEST(VerifierTest, RejectsAnEmptyConstantWithBadDimsOrData) {
  {
    Base t = MakeBase();
    t.p.AddConstant("neg_after_zero", DType::kF32, {0, -1}, {});
    ExpectRejected(t.p, "dimension -1");
  }
  {
    Base t = MakeBase();
    t.p.AddConstant("empty_with_bytes", DType::kF32, {0}, {1, 2, 3, 4});
    ExpectRejected(t.p, "holds 4 bytes, its type needs 0");
  }
}

TEST(VerifierTest, RejectsATooLargeTensor) {
  Base t = MakeBase();
  t.p.AddInput("huge", DType::kF32, {1 << 20, 1 << 10});  // 2^32 bytes
  ExpectRejected(t.p, "value 'huge' is too large");
  Base u = MakeBase();
  u.p.AddInput("overflow", DType::kU8, {int64_t{1} << 40, int64_t{1} << 40});
  ExpectRejected(u.p, "value 'overflow' is too large");
  Base v = MakeBase();
  v.p.AddInput("just_fits", DType::kU8, {kMaxTensorBytes});
  OC_EXPECT_OK(VerifyProgram(v.p));
}

TEST(VerifierTest, RejectsConstantDataLengthMismatch) {
  Base t = MakeBase();
  t.p.value(t.w).data.pop_back();
  ExpectRejected(t.p, "constant 'w' holds 15 bytes, its type needs 16");
  Base u = MakeBase();
  u.p.value(u.b).data.push_back(0);
  ExpectRejected(u.p, "constant 'b' holds 9 bytes, its type needs 8");
}

TEST(VerifierTest, RejectsAnOutputNeverDefined) {
  Base t = MakeBase();
  ValueId ghost = t.p.AddResultValue("ghost", DType::kF32, {2});
  t.p.outputs().push_back(ghost);
  ExpectRejected(t.p, "a graph output is never defined");
  Base u = MakeBase();
  u.p.outputs() = {static_cast<ValueId>(u.p.num_values())};
  ExpectRejected(u.p, "a graph output is never defined");
}

TEST(VerifierTest, RejectsAValueDefinedTwice) {
  Base t = MakeBase();
  t.p.statements()[t.copy].results = {t.r};  // copy has no shape rule
  ExpectRejected(t.p, "redefines value 'r'");
}

TEST(VerifierTest, RejectsAStatementDefiningAnInputOrConstant) {
  Base t = MakeBase();
  t.p.statements()[t.relu].results = {t.b};
  ExpectRejected(t.p, "has a bad result");
}

TEST(VerifierTest, RejectsAStatementWithoutResults) {
  Base t = MakeBase();
  t.p.statements()[t.copy].results.clear();
  t.p.outputs() = {t.v};
  ExpectRejected(t.p, "has no result");
}

TEST(VerifierTest, RejectsSeveralResultsOutsideSplit) {
  Base t = MakeBase();
  ValueId extra = t.p.AddResultValue("extra", DType::kF32, {1, 2, 2, 2});
  t.p.statements()[t.relu].results.push_back(extra);
  ExpectRejected(t.p, "has several results");
}

TEST(VerifierTest, RejectsAGraphInputThatIsNotAnInput) {
  Base t = MakeBase();
  t.p.inputs().push_back(t.w);
  ExpectRejected(t.p, "a graph input is not an input value");
}

TEST(VerifierTest, RejectsChannelAffineWithWrongChannelCount) {
  Program p;
  ValueId x = p.AddInput("x", DType::kF32, {1, 2, 1, 2});
  ValueId scale = AddF32Constant(p, "scale", {1}, {2.0f});
  ValueId bias = AddF32Constant(p, "bias", {3}, {1.0f, 2.0f, 3.0f});
  ValueId y = AddOp(p, OpKind::kChannelAffine, {x, scale, bias}, "y", {1, 2, 1, 2});
  p.outputs() = {y};
  ExpectRejected(p, "channel");
}

TEST(VerifierTest, ParsedTextIsVerifiedToo) {
  // The parser builds what the text says; the verifier is what rejects it.
  absl::StatusOr<Program> p = ParseProgram(
      "program @t {\n"
      "  %0 = input \"x\" : f32[2]\n"
      "  %1 \"r\" = relu(%0) : f32[3] loc(\"n\", \"Relu\")\n"
      "  output %1\n"
      "}\n");
  ASSERT_TRUE(p.ok()) << p.status();
  ExpectRejected(*p, "must keep its operand's shape and type");
}

}  // namespace
}  // namespace oc
