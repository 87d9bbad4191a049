// The rewriting passes on tiny constant programs: what they fold or fuse
// (with exact numbers) and where they must leave the program alone.
#include <string>
#include <vector>

#include "compiler/ir/printer.h"
#include "compiler/ir/verifier.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "passes/pipeline/pass.h"
#include "tests/unit/test_util.h"

namespace oc {
namespace {

using ::oc::testing::AddF32Constant;
using ::oc::testing::AddOp;
using ::oc::testing::DefiningStatement;
using ::oc::testing::F32Values;
using ::oc::testing::FindValue;
using ::oc::testing::SetConv1x1Attrs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// x[1,2,1,2] -> conv(w[2,2,1,1], b?) -> c[1,2,1,2]
struct ConvProgram {
  Program p;
  ValueId x, w, b, c;
};

ConvProgram MakeConv(bool with_bias) {
  ConvProgram t;
  t.x = t.p.AddInput("x", DType::kF32, {1, 2, 1, 2});
  t.w = AddF32Constant(t.p, "w", {2, 2, 1, 1}, {1.0f, 2.0f, 3.0f, 4.0f});
  t.b = with_bias ? AddF32Constant(t.p, "b", {2}, {0.5f, -1.0f}) : kNoValue;
  std::vector<ValueId> operands = {t.x, t.w};
  if (with_bias) operands.push_back(t.b);
  t.c = AddOp(t.p, OpKind::kConv, operands, "c", {1, 2, 1, 2}, "conv0");
  SetConv1x1Attrs(t.p.statements().back());
  t.p.statements().back().onnx_op = "Conv";
  t.p.statements().back().macs = 8;
  return t;
}

absl::Status RunPass(Program& p, const std::string& pass, PassStats* stats_out = nullptr) {
  PassStats stats;
  absl::Status st = RunPipeline(p, {pass}, stats);
  if (stats_out) *stats_out = stats;
  return st;
}

// ---- fold-channel-affine --------------------------------------------------------

// conv -> channel_affine(scale, bias) -> output
ConvProgram MakeConvAffine(bool with_bias) {
  ConvProgram t = MakeConv(with_bias);
  ValueId scale = AddF32Constant(t.p, "scale", {2}, {2.0f, -0.5f});
  ValueId bias = AddF32Constant(t.p, "bias", {2}, {1.0f, 3.0f});
  ValueId y = AddOp(t.p, OpKind::kChannelAffine, {t.c, scale, bias}, "y", {1, 2, 1, 2}, "bn0");
  t.p.outputs() = {y};
  return t;
}

TEST(FoldChannelAffineTest, FoldsScaleAndBiasIntoTheConvolution) {
  ConvProgram t = MakeConvAffine(/*with_bias=*/true);
  OC_ASSERT_OK(VerifyProgram(t.p));
  PassStats stats;
  OC_ASSERT_OK(RunPass(t.p, "fold-channel-affine", &stats));
  EXPECT_EQ(stats.counters["fold-channel-affine.folded"], 1);
  const Program& p = t.p;
  ASSERT_EQ(p.statements().size(), 1u) << PrintProgram(p);
  const Statement& conv = p.statements()[0];
  EXPECT_EQ(conv.op, OpKind::kConv);
  EXPECT_EQ(conv.node_name, "conv0+bn0");
  EXPECT_EQ(conv.onnx_op, "Conv");
  EXPECT_EQ(conv.macs, 8);
  ASSERT_EQ(conv.operands.size(), 3u);
  EXPECT_EQ(p.value(conv.results[0]).name, "y");
  EXPECT_EQ(p.outputs(), conv.results);
  // w'[o] = w[o] * scale[o]; b'[o] = b[o] * scale[o] + bias[o]
  const Value& w = p.value(conv.operands[1]);
  const Value& b = p.value(conv.operands[2]);
  EXPECT_TRUE(w.IsConstant());
  EXPECT_EQ(w.shape, (Shape{2, 2, 1, 1}));
  EXPECT_EQ(w.name, "w.folded");
  EXPECT_THAT(F32Values(w), ElementsAre(2.0f, 4.0f, -1.5f, -2.0f));
  EXPECT_EQ(b.shape, (Shape{2}));
  EXPECT_EQ(b.name, "y.folded_bias");
  EXPECT_THAT(F32Values(b), ElementsAre(0.5f * 2.0f + 1.0f, -1.0f * -0.5f + 3.0f));
  // The old weights, bias, scale and shift are gone.
  EXPECT_EQ(FindValue(p, "w"), kNoValue);
  EXPECT_EQ(FindValue(p, "b"), kNoValue);
  EXPECT_EQ(FindValue(p, "scale"), kNoValue);
  EXPECT_EQ(FindValue(p, "bias"), kNoValue);
  EXPECT_EQ(FindValue(p, "c"), kNoValue);
  EXPECT_EQ(p.num_values(), 4u);  // x, w', b', y
}

TEST(FoldChannelAffineTest, ConvWithoutBiasGetsTheShiftAsBias) {
  ConvProgram t = MakeConvAffine(/*with_bias=*/false);
  OC_ASSERT_OK(RunPass(t.p, "fold-channel-affine"));
  ASSERT_EQ(t.p.statements().size(), 1u);
  const Statement& conv = t.p.statements()[0];
  ASSERT_EQ(conv.operands.size(), 3u);
  EXPECT_THAT(F32Values(t.p.value(conv.operands[1])), ElementsAre(2.0f, 4.0f, -1.5f, -2.0f));
  EXPECT_THAT(F32Values(t.p.value(conv.operands[2])), ElementsAre(1.0f, 3.0f));
}

TEST(FoldChannelAffineTest, AbsentBiasOperandCountsAsZero) {
  ConvProgram t = MakeConvAffine(/*with_bias=*/false);
  t.p.statements()[0].operands.push_back(kNoValue);  // conv(x, w, _)
  OC_ASSERT_OK(VerifyProgram(t.p));
  OC_ASSERT_OK(RunPass(t.p, "fold-channel-affine"));
  ASSERT_EQ(t.p.statements().size(), 1u);
  EXPECT_THAT(F32Values(t.p.value(t.p.statements()[0].operands[2])), ElementsAre(1.0f, 3.0f));
}

TEST(FoldChannelAffineTest, SharedWeightsAreNotModifiedInPlace) {
  // A second conv reads the same weights: it must keep the original values.
  ConvProgram t = MakeConvAffine(/*with_bias=*/true);
  ValueId c2 = AddOp(t.p, OpKind::kConv, {t.x, t.w, t.b}, "c2", {1, 2, 1, 2}, "conv1");
  SetConv1x1Attrs(t.p.statements().back());
  t.p.outputs().push_back(c2);
  OC_ASSERT_OK(RunPass(t.p, "fold-channel-affine"));
  ASSERT_EQ(t.p.statements().size(), 2u);
  const Statement* other = DefiningStatement(t.p, FindValue(t.p, "c2"));
  ASSERT_NE(other, nullptr);
  EXPECT_EQ(t.p.value(other->operands[1]).name, "w");
  EXPECT_THAT(F32Values(t.p.value(other->operands[1])), ElementsAre(1.0f, 2.0f, 3.0f, 4.0f));
  EXPECT_THAT(F32Values(t.p.value(other->operands[2])), ElementsAre(0.5f, -1.0f));
  const Statement* folded = DefiningStatement(t.p, FindValue(t.p, "y"));
  ASSERT_NE(folded, nullptr);
  EXPECT_THAT(F32Values(t.p.value(folded->operands[1])), ElementsAre(2.0f, 4.0f, -1.5f, -2.0f));
}

TEST(FoldChannelAffineTest, DoesNotFoldWhenTheConvResultHasTwoUsers) {
  ConvProgram t = MakeConvAffine(/*with_bias=*/true);
  ValueId r = AddOp(t.p, OpKind::kRelu, {t.c}, "r", {1, 2, 1, 2});
  t.p.outputs().push_back(r);
  const std::string before = PrintProgram(t.p);
  PassStats stats;
  OC_ASSERT_OK(RunPass(t.p, "fold-channel-affine", &stats));
  EXPECT_EQ(PrintProgram(t.p), before);
  EXPECT_EQ(stats.counters["fold-channel-affine.folded"], 0);
}

TEST(FoldChannelAffineTest, DoesNotFoldWhenTheConvResultIsAGraphOutput) {
  ConvProgram t = MakeConvAffine(/*with_bias=*/true);
  t.p.outputs().push_back(t.c);
  const std::string before = PrintProgram(t.p);
  OC_ASSERT_OK(RunPass(t.p, "fold-channel-affine"));
  EXPECT_EQ(PrintProgram(t.p), before);
}

TEST(FoldChannelAffineTest, DoesNotFoldIntoAConvWithAFusedActivation) {
  ConvProgram t = MakeConvAffine(/*with_bias=*/true);
  t.p.statements()[0].attrs["act"] = std::string("relu");
  const std::string before = PrintProgram(t.p);
  OC_ASSERT_OK(RunPass(t.p, "fold-channel-affine"));
  EXPECT_EQ(PrintProgram(t.p), before);
}

TEST(FoldChannelAffineTest, DoesNotFoldARuntimeScale) {
  ConvProgram t = MakeConv(/*with_bias=*/true);
  ValueId scale = t.p.AddInput("scale", DType::kF32, {2});
  ValueId bias = AddF32Constant(t.p, "bias", {2}, {1.0f, 3.0f});
  ValueId y = AddOp(t.p, OpKind::kChannelAffine, {t.c, scale, bias}, "y", {1, 2, 1, 2});
  t.p.outputs() = {y};
  const std::string before = PrintProgram(t.p);
  OC_ASSERT_OK(RunPass(t.p, "fold-channel-affine"));
  EXPECT_EQ(PrintProgram(t.p), before);
}

TEST(FoldChannelAffineTest, DoesNotFoldAfterANonConvolution) {
  Program p;
  ValueId x = p.AddInput("x", DType::kF32, {1, 2, 1, 2});
  ValueId r = AddOp(p, OpKind::kRelu, {x}, "r", {1, 2, 1, 2});
  ValueId scale = AddF32Constant(p, "scale", {2}, {2.0f, -0.5f});
  ValueId bias = AddF32Constant(p, "bias", {2}, {1.0f, 3.0f});
  ValueId y = AddOp(p, OpKind::kChannelAffine, {r, scale, bias}, "y", {1, 2, 1, 2});
  p.outputs() = {y};
  const std::string before = PrintProgram(p);
  OC_ASSERT_OK(RunPass(p, "fold-channel-affine"));
  EXPECT_EQ(PrintProgram(p), before);
}

TEST(FoldChannelAffineTest, DoesNotFoldNonFloatWeights) {
  // i32 weights have the same byte size as f32 ones, so this is safe to run.
  ConvProgram t = MakeConvAffine(/*with_bias=*/true);
  t.p.value(t.w).dtype = DType::kI32;
  const std::string before = PrintProgram(t.p);
  OC_ASSERT_OK(RunPass(t.p, "fold-channel-affine"));
  EXPECT_EQ(PrintProgram(t.p), before);
}

// ---- fuse-activation --------------------------------------------------------------

// conv -> act -> output
ConvProgram MakeConvAct(OpKind act, std::map<std::string, Attribute> attrs = {}) {
  ConvProgram t = MakeConv(/*with_bias=*/true);
  ValueId y = AddOp(t.p, act, {t.c}, "y", {1, 2, 1, 2}, "act0");
  t.p.statements().back().attrs = std::move(attrs);
  t.p.outputs() = {y};
  return t;
}

TEST(FuseActivationTest, FusesReluIntoConv) {
  ConvProgram t = MakeConvAct(OpKind::kRelu);
  PassStats stats;
  OC_ASSERT_OK(RunPass(t.p, "fuse-activation", &stats));
  EXPECT_EQ(stats.counters["fuse-activation.fused"], 1);
  ASSERT_EQ(t.p.statements().size(), 1u) << PrintProgram(t.p);
  const Statement& s = t.p.statements()[0];
  EXPECT_EQ(s.op, OpKind::kConv);
  EXPECT_EQ(s.Str("act"), "relu");
  EXPECT_FALSE(s.Has("act_alpha"));
  EXPECT_FALSE(s.Has("act_beta"));
  EXPECT_EQ(s.node_name, "conv0+act0");
  EXPECT_EQ(t.p.value(s.results[0]).name, "y");
  EXPECT_EQ(t.p.outputs(), s.results);
  // The weights are untouched.
  EXPECT_THAT(F32Values(t.p.value(s.operands[1])), ElementsAre(1.0f, 2.0f, 3.0f, 4.0f));
  EXPECT_THAT(F32Values(t.p.value(s.operands[2])), ElementsAre(0.5f, -1.0f));
  EXPECT_EQ(FindValue(t.p, "c"), kNoValue);
  EXPECT_EQ(t.p.num_values(), 4u);
}

TEST(FuseActivationTest, CarriesActivationParameters) {
  struct Case {
    OpKind op;
    std::map<std::string, Attribute> attrs;
    const char* act;
    float alpha, beta;
  };
  const std::vector<Case> cases = {
      {OpKind::kClip, {{"alpha", 0.0f}, {"beta", 6.0f}}, "clip", 0.0f, 6.0f},
      {OpKind::kLeakyRelu, {{"alpha", 0.125f}}, "leaky_relu", 0.125f, 0.0f},
      {OpKind::kHardSigmoid, {{"alpha", 0.2f}, {"beta", 0.5f}}, "hard_sigmoid", 0.2f, 0.5f},
      {OpKind::kHardSwish, {}, "hard_swish", 0.0f, 0.0f},
      {OpKind::kSigmoid, {}, "sigmoid", 0.0f, 0.0f},
      {OpKind::kTanh, {}, "tanh", 0.0f, 0.0f},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.act);
    ConvProgram t = MakeConvAct(c.op, c.attrs);
    OC_ASSERT_OK(RunPass(t.p, "fuse-activation"));
    ASSERT_EQ(t.p.statements().size(), 1u);
    const Statement& s = t.p.statements()[0];
    EXPECT_EQ(s.Str("act"), c.act);
    EXPECT_EQ(s.Float("act_alpha"), c.alpha);
    EXPECT_EQ(s.Float("act_beta"), c.beta);
    EXPECT_EQ(s.Has("act_alpha"), c.attrs.count("alpha") != 0);
  }
}

TEST(FuseActivationTest, GemmKeepsItsOwnAlphaAndBeta) {
  Program p;
  ValueId a = p.AddInput("a", DType::kF32, {2, 3});
  ValueId b = AddF32Constant(p, "b", {3, 2}, {1, 2, 3, 4, 5, 6});
  ValueId g = AddOp(p, OpKind::kGemm, {a, b}, "g", {2, 2}, "gemm0");
  p.statements().back().attrs = {{"alpha", 0.5f}, {"beta", 2.0f}, {"trans_a", int64_t{0}},
                                 {"trans_b", int64_t{0}}};
  ValueId y = AddOp(p, OpKind::kClip, {g}, "y", {2, 2}, "clip0");
  p.statements().back().attrs = {{"alpha", -1.0f}, {"beta", 1.0f}};
  p.outputs() = {y};
  OC_ASSERT_OK(RunPass(p, "fuse-activation"));
  ASSERT_EQ(p.statements().size(), 1u);
  const Statement& s = p.statements()[0];
  EXPECT_EQ(s.op, OpKind::kGemm);
  EXPECT_EQ(s.Float("alpha"), 0.5f);
  EXPECT_EQ(s.Float("beta"), 2.0f);
  EXPECT_EQ(s.Str("act"), "clip");
  EXPECT_EQ(s.Float("act_alpha"), -1.0f);
  EXPECT_EQ(s.Float("act_beta"), 1.0f);
}

TEST(FuseActivationTest, DoesNotFuseWhenTheConvResultHasTwoUsers) {
  ConvProgram t = MakeConvAct(OpKind::kRelu);
  ValueId s = AddOp(t.p, OpKind::kSigmoid, {t.c}, "s", {1, 2, 1, 2});
  t.p.outputs().push_back(s);
  const std::string before = PrintProgram(t.p);
  PassStats stats;
  OC_ASSERT_OK(RunPass(t.p, "fuse-activation", &stats));
  EXPECT_EQ(PrintProgram(t.p), before);
  EXPECT_EQ(stats.counters["fuse-activation.fused"], 0);
}

TEST(FuseActivationTest, DoesNotFuseWhenTheConvResultIsAGraphOutput) {
  ConvProgram t = MakeConvAct(OpKind::kRelu);
  t.p.outputs().push_back(t.c);
  const std::string before = PrintProgram(t.p);
  OC_ASSERT_OK(RunPass(t.p, "fuse-activation"));
  EXPECT_EQ(PrintProgram(t.p), before);
}

TEST(FuseActivationTest, FusesOnlyOneActivation) {
  ConvProgram t = MakeConvAct(OpKind::kRelu);
  ValueId y = t.p.outputs()[0];
  ValueId z = AddOp(t.p, OpKind::kTanh, {y}, "z", {1, 2, 1, 2}, "tanh0");
  t.p.outputs() = {z};
  OC_ASSERT_OK(RunPass(t.p, "fuse-activation"));
  ASSERT_EQ(t.p.statements().size(), 2u) << PrintProgram(t.p);
  EXPECT_EQ(t.p.statements()[0].Str("act"), "relu");
  EXPECT_EQ(t.p.statements()[1].op, OpKind::kTanh);
  // Running again changes nothing: the conv already has an activation.
  const std::string once = PrintProgram(t.p);
  OC_ASSERT_OK(RunPass(t.p, "fuse-activation"));
  EXPECT_EQ(PrintProgram(t.p), once);
}

TEST(FuseActivationTest, DoesNotFuseIntoOtherProducersOrOtherOps) {
  Program p;
  ValueId x = p.AddInput("x", DType::kF32, {4});
  ValueId a = AddOp(p, OpKind::kAdd, {x, x}, "a", {4});
  ValueId r = AddOp(p, OpKind::kRelu, {a}, "r", {4});       // producer is not a conv
  ValueId e = AddOp(p, OpKind::kExp, {r}, "e", {4});        // exp is not fusable
  p.outputs() = {e};
  const std::string before = PrintProgram(p);
  OC_ASSERT_OK(RunPass(p, "fuse-activation"));
  EXPECT_EQ(PrintProgram(p), before);
}

// ---- dce ------------------------------------------------------------------------------

TEST(DceTest, RemovesUnusedStatementsAndConstants) {
  Program p;
  ValueId x = p.AddInput("x", DType::kF32, {4});
  ValueId unused_input = p.AddInput("unused_input", DType::kF32, {4});
  ValueId k = AddF32Constant(p, "k", {4}, {1, 2, 3, 4});
  AddF32Constant(p, "orphan", {4}, {5, 6, 7, 8});  // read by nothing
  ValueId dead_k = AddF32Constant(p, "dead_k", {4}, {9, 9, 9, 9});
  ValueId a = AddOp(p, OpKind::kAdd, {x, k}, "a", {4});
  ValueId d1 = AddOp(p, OpKind::kMul, {a, dead_k}, "d1", {4});  // dead chain
  AddOp(p, OpKind::kRelu, {d1}, "d2", {4});
  ValueId r = AddOp(p, OpKind::kRelu, {a}, "r", {4});
  AddOp(p, OpKind::kSigmoid, {unused_input}, "d3", {4});
  p.outputs() = {r};
  OC_ASSERT_OK(VerifyProgram(p));
  PassStats stats;
  OC_ASSERT_OK(RunPass(p, "dce", &stats));
  EXPECT_EQ(stats.counters["dce.removed"], 3);
  ASSERT_EQ(p.statements().size(), 2u) << PrintProgram(p);
  EXPECT_EQ(p.statements()[0].op, OpKind::kAdd);
  EXPECT_EQ(p.statements()[1].op, OpKind::kRelu);
  for (const char* gone : {"orphan", "dead_k", "d1", "d2", "d3"}) {
    EXPECT_EQ(FindValue(p, gone), kNoValue) << gone;
  }
  // Graph inputs stay even when nothing reads them.
  EXPECT_EQ(p.inputs().size(), 2u);
  EXPECT_NE(FindValue(p, "unused_input"), kNoValue);
  EXPECT_EQ(p.num_values(), 5u);  // x, unused_input, k, a, r
  EXPECT_EQ(p.value(p.outputs()[0]).name, "r");
  EXPECT_EQ(PrintProgram(p),
            "program @model {\n"
            "  %0 = input \"x\" : f32[4]\n"
            "  %1 = input \"unused_input\" : f32[4]\n"
            "  %2 = const \"k\" : f32[4] hex \"0000803f000000400000404000008040\"\n"
            "  %3 \"a\" = add(%0, %2) : f32[4] loc(\"a_node\", \"\")\n"
            "  %4 \"r\" = relu(%3) : f32[4] loc(\"r_node\", \"\")\n"
            "  output %4\n"
            "}\n");
}

TEST(DceTest, KeepsASplitWhenOneResultIsUsed) {
  Program p;
  ValueId x = p.AddInput("x", DType::kF32, {4});
  ValueId s0 = p.AddResultValue("s0", DType::kF32, {2});
  ValueId s1 = p.AddResultValue("s1", DType::kF32, {2});
  p.AddStatement(OpKind::kSplit, {x}, {s0, s1}).attrs["axis"] = int64_t{0};
  ValueId r = AddOp(p, OpKind::kRelu, {s1}, "r", {2});
  p.outputs() = {r};
  OC_ASSERT_OK(RunPass(p, "dce"));
  ASSERT_EQ(p.statements().size(), 2u);
  EXPECT_EQ(p.statements()[0].results.size(), 2u);
  EXPECT_NE(FindValue(p, "s0"), kNoValue);
}

TEST(DceTest, KeepsEverythingReachingAnOutput) {
  ConvProgram t = MakeConvAffine(/*with_bias=*/true);
  const std::string before = PrintProgram(t.p);
  PassStats stats;
  OC_ASSERT_OK(RunPass(t.p, "dce", &stats));
  EXPECT_EQ(PrintProgram(t.p), before);
  EXPECT_EQ(stats.counters["dce.removed"], 0);
}

TEST(DceTest, NoOutputsMeansNoStatements) {
  Program p;
  ValueId x = p.AddInput("x", DType::kF32, {4});
  AddOp(p, OpKind::kRelu, {x}, "r", {4});
  OC_ASSERT_OK(RunPass(p, "dce"));
  EXPECT_TRUE(p.statements().empty());
  EXPECT_EQ(p.num_values(), 1u);
}

// ---- the pipeline ------------------------------------------------------------------

TEST(PipelineTest, DefaultPipelineFoldsThenFuses) {
  // conv -> channel_affine -> relu: fold first, then fuse into the folded conv.
  ConvProgram t = MakeConvAffine(/*with_bias=*/true);
  ValueId y = t.p.outputs()[0];
  ValueId r = AddOp(t.p, OpKind::kRelu, {y}, "r", {1, 2, 1, 2}, "relu0");
  t.p.outputs() = {r};
  PassStats stats;
  OC_ASSERT_OK(RunPipeline(t.p, DefaultPipeline(), stats));
  ASSERT_EQ(t.p.statements().size(), 1u) << PrintProgram(t.p);
  const Statement& s = t.p.statements()[0];
  EXPECT_EQ(s.Str("act"), "relu");
  EXPECT_EQ(s.node_name, "conv0+bn0+relu0");
  EXPECT_THAT(F32Values(t.p.value(s.operands[1])), ElementsAre(2.0f, 4.0f, -1.5f, -2.0f));
  EXPECT_EQ(stats.counters["fold-channel-affine.folded"], 1);
  EXPECT_EQ(stats.counters["fuse-activation.fused"], 1);
}

TEST(PipelineTest, UnknownPassIsAnError) {
  Program p;
  PassStats stats;
  absl::Status st = RunPipeline(p, {"dce", "no-such-pass"}, stats);
  ASSERT_FALSE(st.ok());
  EXPECT_THAT(std::string(st.message()), HasSubstr("unknown pass 'no-such-pass'"));
}

TEST(PipelineTest, VerifyEachCatchesAnInvalidProgram) {
  Program p;
  ValueId x = p.AddInput("x", DType::kF32, {4});
  ValueId r = AddOp(p, OpKind::kRelu, {x}, "r", {5});  // invalid: unary changes shape
  p.outputs() = {r};
  PassStats stats;
  absl::Status st = RunPipeline(p, {"dce"}, stats);
  ASSERT_FALSE(st.ok());
  EXPECT_THAT(std::string(st.message()), HasSubstr("the IR is invalid after pass dce"));
  st = RunPipeline(p, {"verify"}, stats);
  ASSERT_FALSE(st.ok());
  EXPECT_THAT(std::string(st.message()), HasSubstr("pass verify:"));
}

TEST(PipelineTest, EveryRegisteredPassIsFoundByName) {
  for (const PassInfo& info : RegisteredPasses()) {
    EXPECT_EQ(FindPass(info.name), &info);
    EXPECT_FALSE(info.summary.empty());
  }
  EXPECT_EQ(FindPass("nope"), nullptr);
  for (const std::string& name : DefaultPipeline()) EXPECT_NE(FindPass(name), nullptr) << name;
}

}  // namespace
}  // namespace oc
