// The IR text form: print -> parse -> print is a fixed point, parsing gives
// back the same program, and malformed text is rejected with a line:column.
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "compiler/import/importer.h"
#include "compiler/ir/parser.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/verifier.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "passes/pipeline/pass.h"
#include "tests/unit/test_util.h"

namespace oc {
namespace {

using ::oc::testing::AddF32Constant;
using ::oc::testing::ErrorPosition;
using ::oc::testing::F32Bytes;
using ::oc::testing::SetConv1x1Attrs;
using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

uint32_t Bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}

// Floats are equal when their bits are, or when both are NaN.
bool SameFloat(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return Bits(a) == Bits(b);
}

::testing::AssertionResult SameAttribute(const Attribute& a, const Attribute& b) {
  // An empty list has no element type in the text form: `[]` reads back as
  // an empty integer list whatever it was printed from.
  auto empty_list = [](const Attribute& x) {
    if (auto* i = std::get_if<std::vector<int64_t>>(&x)) return i->empty();
    if (auto* f = std::get_if<std::vector<float>>(&x)) return f->empty();
    return false;
  };
  if (empty_list(a) && empty_list(b)) return ::testing::AssertionSuccess();
  if (a.index() != b.index()) {
    return ::testing::AssertionFailure() << "attribute kinds differ: " << a.index() << " vs "
                                         << b.index();
  }
  if (auto* f = std::get_if<float>(&a)) {
    if (!SameFloat(*f, std::get<float>(b))) {
      return ::testing::AssertionFailure() << *f << " vs " << std::get<float>(b);
    }
    return ::testing::AssertionSuccess();
  }
  if (auto* fv = std::get_if<std::vector<float>>(&a)) {
    const auto& gv = std::get<std::vector<float>>(b);
    if (fv->size() != gv.size()) return ::testing::AssertionFailure() << "list sizes differ";
    for (size_t i = 0; i < fv->size(); ++i) {
      if (!SameFloat((*fv)[i], gv[i])) {
        return ::testing::AssertionFailure() << "element " << i << ": " << (*fv)[i] << " vs "
                                             << gv[i];
      }
    }
    return ::testing::AssertionSuccess();
  }
  if (!(a == b)) return ::testing::AssertionFailure() << "attribute values differ";
  return ::testing::AssertionSuccess();
}

// Structural equality for programs whose values are numbered in definition
// order (inputs, constants, results in program order), as the parser makes
// them.
void ExpectSameProgram(const Program& a, const Program& b) {
  EXPECT_EQ(a.name, b.name);
  ASSERT_EQ(a.num_values(), b.num_values());
  for (size_t i = 0; i < a.num_values(); ++i) {
    const Value& x = a.value(static_cast<ValueId>(i));
    const Value& y = b.value(static_cast<ValueId>(i));
    SCOPED_TRACE("value " + std::to_string(i) + " '" + x.name + "'");
    EXPECT_EQ(x.kind, y.kind);
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.dtype, y.dtype);
    EXPECT_EQ(x.shape, y.shape);
    EXPECT_EQ(x.data, y.data);
    ASSERT_EQ(x.quant.has_value(), y.quant.has_value());
    if (x.quant) {
      EXPECT_EQ(x.quant->axis, y.quant->axis);
      EXPECT_EQ(x.quant->zero_points, y.quant->zero_points);
      ASSERT_EQ(x.quant->scales.size(), y.quant->scales.size());
      for (size_t k = 0; k < x.quant->scales.size(); ++k) {
        EXPECT_TRUE(SameFloat(x.quant->scales[k], y.quant->scales[k]));
      }
    }
  }
  EXPECT_EQ(a.inputs(), b.inputs());
  EXPECT_EQ(a.outputs(), b.outputs());
  ASSERT_EQ(a.statements().size(), b.statements().size());
  for (size_t i = 0; i < a.statements().size(); ++i) {
    const Statement& s = a.statements()[i];
    const Statement& t = b.statements()[i];
    SCOPED_TRACE("statement " + std::to_string(i));
    EXPECT_EQ(s.op, t.op);
    EXPECT_EQ(s.operands, t.operands);
    EXPECT_EQ(s.results, t.results);
    EXPECT_EQ(s.node_name, t.node_name);
    EXPECT_EQ(s.onnx_op, t.onnx_op);
    EXPECT_EQ(s.macs, t.macs);
    EXPECT_EQ(s.scratch_bytes, t.scratch_bytes);
    ASSERT_EQ(s.attrs.size(), t.attrs.size());
    for (const auto& [key, attr] : s.attrs) {
      auto it = t.attrs.find(key);
      ASSERT_NE(it, t.attrs.end()) << "attribute " << key;
      EXPECT_TRUE(SameAttribute(attr, it->second)) << "attribute " << key;
    }
  }
}

// Prints, parses and prints again; returns the parsed program.
Program ExpectRoundTrip(const Program& p) {
  const std::string first = PrintProgram(p);
  absl::StatusOr<Program> parsed = ParseProgram(first);
  EXPECT_TRUE(parsed.ok()) << parsed.status() << "\n" << first;
  if (!parsed.ok()) return Program();
  const std::string second = PrintProgram(*parsed);
  EXPECT_EQ(first, second);
  return *std::move(parsed);
}

// A program touching every corner of the text form. Values are created in
// definition order, so the parsed program has the same ids.
Program HandBuiltProgram() {
  Program p;
  p.name = "hand_built";
  ValueId x = p.AddInput("x", DType::kF32, {1, 2, 2, 2});
  ValueId q_in = p.AddInput("", DType::kU8, {3});  // an empty name
  p.value(q_in).quant = QuantParams{{0.00392156886f}, {128}, 0};

  ValueId w = AddF32Constant(p, "conv.weight", {2, 2, 1, 1}, {1.0f, -2.5f, 0.1f, 3e-20f});
  ValueId q = p.AddConstant("q \"per channel\"", DType::kI8, {2, 1}, {0x80, 0x7f});
  p.value(q).quant = QuantParams{{0.5f, 0.25f}, {0, -3}, 0};
  p.AddConstant("d", DType::kF64, {1}, {0, 0, 0, 0, 0, 0, 0xf0, 0x3f});
  p.AddConstant("h", DType::kF16, {2}, {0x00, 0x3c, 0x00, 0xc0});
  p.AddConstant("i16", DType::kI16, {1}, {0xff, 0xff});
  p.AddConstant("u16", DType::kU16, {1}, {0x34, 0x12});
  p.AddConstant("i32", DType::kI32, {1}, {1, 2, 3, 4});
  p.AddConstant("u32", DType::kU32, {1}, {0xde, 0xad, 0xbe, 0xef});
  p.AddConstant("i64", DType::kI64, {2}, std::vector<uint8_t>(16, 0xab));
  p.AddConstant("u64", DType::kU64, {1}, std::vector<uint8_t>(8, 0x01));
  p.AddConstant("flags", DType::kBool, {3}, {1, 0, 1});
  p.AddConstant("empty", DType::kF32, {0}, {});
  p.AddConstant("scalar", DType::kF32, {}, F32Bytes({-0.0f}));
  p.AddConstant("name with\nnewline and \xc3\xa9\xff bytes", DType::kU8, {1}, {0x00});

  ValueId c = p.AddResultValue("c", DType::kF32, {1, 2, 2, 2});
  Statement& conv = p.AddStatement(OpKind::kConv, {x, w, kNoValue}, {c});
  SetConv1x1Attrs(conv);
  conv.attrs["act"] = std::string("leaky_relu");
  conv.attrs["act_alpha"] = 0.01f;
  conv.node_name = "conv/0 \"quoted\" \\ back";
  conv.onnx_op = "Conv";
  conv.macs = 16;
  conv.scratch_bytes = 64;

  ValueId s0 = p.AddResultValue("s0", DType::kF32, {1, 1, 2, 2});
  ValueId s1 = p.AddResultValue("s1", DType::kF32, {1, 1, 2, 2});
  p.value(s1).quant = QuantParams{{1.0f}, {0}, 1};
  Statement& split = p.AddStatement(OpKind::kSplit, {c}, {s0, s1});
  split.attrs["axis"] = int64_t{1};
  split.attrs["f_nan"] = kNaN;
  split.attrs["f_inf"] = kInf;
  split.attrs["f_ninf"] = -kInf;
  split.attrs["f_integral"] = 2.0f;
  split.attrs["f_big_integral"] = 123456792.0f;
  split.attrs["f_negzero"] = -0.0f;
  split.attrs["f_denormal"] = std::numeric_limits<float>::denorm_min();
  split.attrs["f_max"] = FLT_MAX;
  split.attrs["f_lowest"] = -FLT_MAX;
  split.attrs["f_tenth"] = 0.1f;
  split.attrs["f_huge"] = 1e20f;
  split.attrs["i_min"] = std::numeric_limits<int64_t>::min();
  split.attrs["i_max"] = std::numeric_limits<int64_t>::max();
  split.attrs["i_neg"] = int64_t{-1};
  split.attrs["ints"] = std::vector<int64_t>{-1, 0, std::numeric_limits<int64_t>::max()};
  split.attrs["ints_empty"] = std::vector<int64_t>{};
  split.attrs["floats"] = std::vector<float>{1.0f, kNaN, -kInf, 0.5f, kInf};
  split.attrs["floats_integral"] = std::vector<float>{1.0f, 2.0f};
  split.attrs["s"] = std::string("he said \"hi\" \\ back\\slash");
  split.attrs["s_bytes"] = std::string("caf\xc3\xa9 \xff\xfe\x01\t\n end", 15);
  split.attrs["s_nul"] = std::string("a\0b", 3);
  split.attrs["s_empty"] = std::string();
  split.node_name = "split";
  split.onnx_op = "Split";

  ValueId cat = p.AddResultValue("cat", DType::kF32, {1, 3, 2, 2});
  Statement& concat = p.AddStatement(OpKind::kConcat, {s1, s0, s1}, {cat});
  concat.attrs["axis"] = int64_t{1};
  concat.node_name = "concat";
  concat.onnx_op = "Concat";

  ValueId r = p.AddResultValue("r", DType::kF32, {1, 3, 2, 2});
  Statement& relu = p.AddStatement(OpKind::kRelu, {cat}, {r});
  relu.node_name = "";
  relu.onnx_op = "";

  p.outputs() = {r, s0, x};
  return p;
}

TEST(IrTextTest, HandBuiltProgramIsValid) {
  Program p = HandBuiltProgram();
  OC_EXPECT_OK(VerifyProgram(p));
}

TEST(IrTextTest, HandBuiltProgramRoundTrips) {
  Program p = HandBuiltProgram();
  Program parsed = ExpectRoundTrip(p);
  ExpectSameProgram(p, parsed);
  OC_EXPECT_OK(VerifyProgram(parsed));
}

TEST(IrTextTest, PrintedFormOfSpecialValues) {
  const std::string text = PrintProgram(HandBuiltProgram());
  EXPECT_THAT(text, StartsWith("program @hand_built {\n"));
  EXPECT_THAT(text, HasSubstr("f_nan = nan"));
  EXPECT_THAT(text, HasSubstr("f_inf = inf"));
  EXPECT_THAT(text, HasSubstr("f_ninf = -inf"));
  EXPECT_THAT(text, HasSubstr("f_integral = 2.0"));
  EXPECT_THAT(text, HasSubstr("f_big_integral = 123456792.0"));
  EXPECT_THAT(text, HasSubstr("f_negzero = -0.0"));
  EXPECT_THAT(text, HasSubstr("i_min = -9223372036854775808"));
  EXPECT_THAT(text, HasSubstr("ints_empty = []"));
  EXPECT_THAT(text, HasSubstr("floats = [1.0, nan, -inf, 0.5, inf]"));
  EXPECT_THAT(text, HasSubstr("s = \"he said \\x22hi\\x22 \\x5c back\\x5cslash\""));
  EXPECT_THAT(text, HasSubstr("s_nul = \"a\\x00b\""));
  EXPECT_THAT(text, HasSubstr("= conv(%0, %2, _)"));
  EXPECT_THAT(text, HasSubstr(" = split(%"));
  EXPECT_THAT(text, HasSubstr("%1 = input \"\" : u8[3] quant(0, [0.00392156886], [128])"));
  EXPECT_THAT(text, HasSubstr(": i8[2,1] quant(0, [0.5, 0.25], [0, -3]) hex \"807f\""));
  EXPECT_THAT(text, HasSubstr("= const \"empty\" : f32[0] hex \"\""));
  EXPECT_THAT(text, HasSubstr("= const \"scalar\" : f32[] hex \"00000080\""));
  EXPECT_THAT(text, HasSubstr("macs 16 scratch 64"));
  // Everything the printer writes is printable ASCII (plus newlines).
  for (char c : text) {
    EXPECT_TRUE(c == '\n' || (c >= 0x20 && c < 0x7f)) << "byte " << static_cast<int>(c);
  }
}

TEST(IrTextTest, ParsedSpecialValuesAreExact) {
  absl::StatusOr<Program> parsed = ParseProgram(PrintProgram(HandBuiltProgram()));
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  const Statement& split = parsed->statements()[1];
  ASSERT_EQ(split.op, OpKind::kSplit);
  EXPECT_TRUE(std::isnan(split.Float("f_nan")));
  EXPECT_EQ(split.Float("f_inf"), kInf);
  EXPECT_EQ(split.Float("f_ninf"), -kInf);
  EXPECT_TRUE(std::holds_alternative<float>(split.attrs.at("f_integral")));
  EXPECT_EQ(split.Float("f_integral"), 2.0f);
  EXPECT_TRUE(std::signbit(split.Float("f_negzero")));
  EXPECT_EQ(split.Float("f_denormal"), std::numeric_limits<float>::denorm_min());
  EXPECT_EQ(split.Float("f_max"), FLT_MAX);
  EXPECT_EQ(split.Float("f_tenth"), 0.1f);
  EXPECT_EQ(split.Int("i_min"), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(split.Int("i_max"), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(split.Str("s_bytes"), std::string("caf\xc3\xa9 \xff\xfe\x01\t\n end", 15));
  EXPECT_EQ(split.Str("s_nul"), std::string("a\0b", 3));
  EXPECT_TRUE(split.Ints("ints_empty").empty());
  std::vector<float> floats = split.Floats("floats_integral");
  EXPECT_EQ(floats, (std::vector<float>{1.0f, 2.0f}));
  EXPECT_EQ(parsed->statements()[0].operands[2], kNoValue);
  EXPECT_EQ(parsed->statements()[1].results.size(), 2u);
}

TEST(IrTextTest, EmptyFloatListReadsBackAsAnEmptyList) {
  Program p;
  ValueId x = p.AddInput("x", DType::kF32, {2});
  ValueId r = p.AddResultValue("r", DType::kF32, {2});
  Statement& s = p.AddStatement(OpKind::kRelu, {x}, {r});
  s.attrs["floats_empty"] = std::vector<float>{};
  p.outputs() = {r};
  Program parsed = ExpectRoundTrip(p);
  ASSERT_EQ(parsed.statements().size(), 1u);
  EXPECT_TRUE(parsed.statements()[0].Floats("floats_empty").empty());
  EXPECT_TRUE(parsed.statements()[0].Has("floats_empty"));
}

TEST(IrTextTest, EmptyProgramRoundTrips) {
  Program p;
  p.name = "nothing";
  EXPECT_EQ(PrintProgram(p), "program @nothing {\n}\n");
  Program parsed = ExpectRoundTrip(p);
  EXPECT_EQ(parsed.num_values(), 0u);
}

TEST(IrTextTest, ConstantsAddedAfterStatementsStillRoundTrip) {
  // Passes append constants after the results they feed (fold-channel-affine
  // does); the printer renumbers so the text still parses to a fixed point.
  Program p;
  ValueId x = p.AddInput("x", DType::kF32, {2});
  ValueId r = p.AddResultValue("r", DType::kF32, {2});
  p.AddStatement(OpKind::kRelu, {x}, {r}).node_name = "relu";
  ValueId k = AddF32Constant(p, "late", {2}, {1.5f, -2.0f});
  ValueId a = p.AddResultValue("a", DType::kF32, {2});
  p.AddStatement(OpKind::kAdd, {r, k}, {a}).node_name = "add";
  p.outputs() = {a};
  OC_ASSERT_OK(VerifyProgram(p));
  const std::string text = PrintProgram(p);
  EXPECT_THAT(text, HasSubstr("%1 = const \"late\""));
  EXPECT_THAT(text, HasSubstr("%2 \"r\" = relu(%0)"));
  EXPECT_THAT(text, HasSubstr("%3 \"a\" = add(%2, %1)"));
  EXPECT_THAT(text, HasSubstr("output %3"));
  ExpectRoundTrip(p);
}

TEST(IrTextTest, ElidedConstantsDoNotParse) {
  Program p;
  AddF32Constant(p, "big", {4}, {1, 2, 3, 4});
  const std::string text = PrintProgram(p, {.max_constant_bytes = 8});
  EXPECT_THAT(text, HasSubstr(": f32[4] elided"));
  EXPECT_FALSE(ParseProgram(text).ok());
  EXPECT_THAT(PrintProgram(p, {.max_constant_bytes = 16}), HasSubstr("hex \"0000803f"));
}

TEST(IrTextTest, FormatFloatRoundTripsEveryExponent) {
  // %.9g is enough for any float: check one value per binade and a few
  // neighbours, through the parser's attribute path.
  std::vector<float> values;
  for (int e = -149; e <= 127; ++e) {
    float v = std::ldexp(1.0f, e);
    values.push_back(v);
    values.push_back(std::nextafter(v, kInf));
    values.push_back(-std::nextafter(v, 0.0f));
  }
  Program p;
  ValueId x = p.AddInput("x", DType::kF32, {1});
  ValueId r = p.AddResultValue("r", DType::kF32, {1});
  p.AddStatement(OpKind::kRelu, {x}, {r}).attrs["values"] = values;
  p.outputs() = {r};
  Program parsed = ExpectRoundTrip(p);
  ASSERT_EQ(parsed.statements().size(), 1u);
  std::vector<float> back = parsed.statements()[0].Floats("values");
  ASSERT_EQ(back.size(), values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_EQ(Bits(back[i]), Bits(values[i])) << FormatFloat(values[i]);
  }
}

TEST(IrTextTest, QuoteStringEscapesEverythingOutsidePrintableAscii) {
  EXPECT_EQ(QuoteString("plain text"), "\"plain text\"");
  EXPECT_EQ(QuoteString("a\"b\\c"), "\"a\\x22b\\x5cc\"");
  EXPECT_EQ(QuoteString(std::string("\x00\x7f\x80\xff", 4)), "\"\\x00\\x7f\\x80\\xff\"");
  EXPECT_EQ(QuoteString("\n"), "\"\\x0a\"");
}

TEST(IrTextTest, FormatShape) {
  EXPECT_EQ(FormatShape({}), "scalar");
  EXPECT_EQ(FormatShape({1, 3, 32, 32}), "1x3x32x32");
  EXPECT_EQ(FormatShape({7}), "7");
}

// ---- programs imported from the test models ---------------------------------

std::string ModelPath(const std::string& name) {
  return std::string(ONNX_TO_C_SOURCE_DIR) + "/models/" + name + "/model.onnx";
}

class ImportedModelRoundTrip : public ::testing::TestWithParam<const char*> {};

TEST_P(ImportedModelRoundTrip, ImportedProgramRoundTrips) {
  absl::StatusOr<Program> p = ImportOnnxFile(ModelPath(GetParam()), {});
  ASSERT_TRUE(p.ok()) << p.status();
  ASSERT_GT(p->statements().size(), 0u);
  Program parsed = ExpectRoundTrip(*p);
  EXPECT_EQ(parsed.statements().size(), p->statements().size());
  EXPECT_EQ(parsed.num_values(), p->num_values());
  OC_EXPECT_OK(VerifyProgram(parsed));
}

TEST_P(ImportedModelRoundTrip, OptimizedProgramRoundTrips) {
  absl::StatusOr<Program> p = ImportOnnxFile(ModelPath(GetParam()), {});
  ASSERT_TRUE(p.ok()) << p.status();
  PassStats stats;
  OC_ASSERT_OK(RunPipeline(*p, DefaultPipeline(), stats));
  Program parsed = ExpectRoundTrip(*p);
  OC_EXPECT_OK(VerifyProgram(parsed));
  // The parsed program optimizes to nothing new: the pipeline is idempotent.
  PassStats again;
  OC_ASSERT_OK(RunPipeline(parsed, DefaultPipeline(), again));
  EXPECT_EQ(PrintProgram(parsed), PrintProgram(*p));
}

INSTANTIATE_TEST_SUITE_P(Models, ImportedModelRoundTrip,
                         ::testing::Values("conv_bn_relu", "cnn_small", "residual_block",
                                           "mlp_small", "hostile_names", "hostile_long_name",
                                           "slice_reverse", "constant_nodes",
                                           "channel_shuffle", "gemm_alpha_beta"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           return std::string(info.param);
                         });

// ---- parse errors ---------------------------------------------------------------

// A valid program; the error tests break one line of it.
constexpr char kValid[] =
    "program @t {\n"                                                // 1
    "  %0 = input \"x\" : f32[2]\n"                                 // 2
    "  %1 = const \"k\" : f32[2] hex \"0000803f00000040\"\n"        // 3
    "  %2 \"r\" = add(%0, %1) : f32[2] loc(\"n\", \"Add\")\n"       // 4
    "  output %2\n"                                                 // 5
    "}\n";

// Replaces line `line` (1-based) of kValid.
std::string WithLine(int line, const std::string& replacement) {
  std::vector<std::string> lines = absl::StrSplit(kValid, '\n');
  lines[line - 1] = replacement;
  return absl::StrJoin(lines, "\n");
}

// 1-based column of `needle` in `line_text`.
int Column(const std::string& line_text, const std::string& needle) {
  size_t at = line_text.find(needle);
  EXPECT_NE(at, std::string::npos) << needle;
  return static_cast<int>(at) + 1;
}

struct ParseErrorCase {
  const char* name;
  int line;
  const char* text;      // the replacement for `line`
  const char* at;        // the error's column is where this starts in `text`
  const char* message;   // substring of the error
};

// For test names and failure messages (the default prints raw bytes).
void PrintTo(const ParseErrorCase& c, std::ostream* os) { *os << c.name; }

class ParseErrorTest : public ::testing::TestWithParam<ParseErrorCase> {};

TEST_P(ParseErrorTest, ReportsLineAndColumn) {
  const ParseErrorCase& c = GetParam();
  absl::StatusOr<Program> p = ParseProgram(WithLine(c.line, c.text));
  ASSERT_FALSE(p.ok()) << WithLine(c.line, c.text);
  EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(p.status().message()), HasSubstr(c.message));
  std::pair<int, int> pos = ErrorPosition(p.status());
  EXPECT_EQ(pos.first, c.line) << p.status();
  EXPECT_EQ(pos.second, Column(c.text, c.at)) << p.status();
}

INSTANTIATE_TEST_SUITE_P(
    IrParse, ParseErrorTest,
    ::testing::Values(
        ParseErrorCase{"undefined_operand", 4,
                       "  %2 \"r\" = add(%0, %7) : f32[2] loc(\"n\", \"Add\")", "%7",
                       "use of undefined value %7"},
        ParseErrorCase{"undefined_output", 5, "  output %2, %9", "%9",
                       "use of undefined value %9"},
        ParseErrorCase{"unknown_op", 4,
                       "  %2 \"r\" = frobnicate(%0, %1) : f32[2] loc(\"n\", \"Add\")",
                       "frobnicate", "unknown op 'frobnicate'"},
        ParseErrorCase{"unknown_dtype", 2, "  %0 = input \"x\" : f33[2]", "f33",
                       "unknown element type 'f33'"},
        ParseErrorCase{"unknown_result_dtype", 4,
                       "  %2 \"r\" = add(%0, %1) : float[2] loc(\"n\", \"Add\")", "float",
                       "unknown element type 'float'"},
        ParseErrorCase{"bad_hex_digit", 3, "  %1 = const \"k\" : f32[2] hex \"0000803f000000zz\"",
                       "\"0000", "bad hex digit"},
        ParseErrorCase{"odd_hex", 3, "  %1 = const \"k\" : f32[2] hex \"0000803f0000004\"",
                       "\"0000", "odd number of hex digits"},
        ParseErrorCase{"unterminated_string", 2, "  %0 = input \"x : f32[2]", "\"x",
                       "unterminated string"},
        ParseErrorCase{"bad_escape", 2, "  %0 = input \"x\\n\" : f32[2]", "\"x",
                       "bad escape"},
        ParseErrorCase{"bad_dim", 2, "  %0 = input \"x\" : f32[2.5]", "2.5",
                       "expected an integer"},
        ParseErrorCase{"missing_hex", 3, "  %1 = const \"k\" : f32[2] \"0000803f00000040\"",
                       "\"0000", "expected 'hex'"},
        ParseErrorCase{"stray_character", 4,
                       "  %2 \"r\" = add(%0, %1) ; f32[2] loc(\"n\", \"Add\")", ";",
                       "unexpected character ';'"},
        ParseErrorCase{"attribute_twice", 4,
                       "  %2 \"r\" = add(%0, %1) {a = 1, a = 2} : f32[2] loc(\"n\", \"Add\")",
                       "}", "attribute 'a' given twice"},
        ParseErrorCase{"bad_attribute_value", 4,
                       "  %2 \"r\" = add(%0, %1) {a = b} : f32[2] loc(\"n\", \"Add\")", "b}",
                       "expected an attribute value"}),
    [](const ::testing::TestParamInfo<ParseErrorCase>& info) { return info.param.name; });

TEST(IrParseErrorTest, DuplicateDefinitionIsRejected) {
  // Redefining an input and redefining a result both fail with a position.
  for (const std::string& text :
       {WithLine(3, "  %0 = const \"k\" : f32[2] hex \"0000803f00000040\""),
        WithLine(4, "  %0 \"r\" = add(%0, %0) : f32[2] loc(\"n\", \"Add\")")}) {
    absl::StatusOr<Program> p = ParseProgram(text);
    ASSERT_FALSE(p.ok()) << text;
    EXPECT_THAT(std::string(p.status().message()), HasSubstr("value %0 is defined twice"));
    EXPECT_GT(ErrorPosition(p.status()).first, 0) << p.status();
  }
}

TEST(IrParseErrorTest, DuplicateDefinitionPointsAtTheRedefinition) {
  const std::string line = "  %0 = const \"k\" : f32[2] hex \"0000803f00000040\"";
  absl::StatusOr<Program> p = ParseProgram(WithLine(3, line));
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(ErrorPosition(p.status()), std::make_pair(3, Column(line, "%0")));
}

TEST(IrParseErrorTest, HexBytesMustBeTwoHexDigits) {
  for (const char* bad : {"-1000000", " 1000000", "+1000000"}) {
    std::string text = std::string("program @t {\n  %0 = const \"k\" : f32[1] hex \"") + bad +
                       "\"\n  output %0\n}\n";
    EXPECT_FALSE(ParseProgram(text).ok()) << bad;
  }
  EXPECT_FALSE(ParseProgram("program @t {\n  %0 = input \"x\\x-1\" : f32[1]\n}\n").ok());
}

TEST(IrParseErrorTest, EndOfInputAndTrailingText) {
  absl::StatusOr<Program> p = ParseProgram("program @t {\n  %0 = input \"x\" : f32[2]\n");
  ASSERT_FALSE(p.ok());
  EXPECT_THAT(std::string(p.status().message()), HasSubstr("unexpected end of input"));
  EXPECT_EQ(ErrorPosition(p.status()).first, 3);

  p = ParseProgram("program @t {\n}\nprogram @u {\n}\n");
  ASSERT_FALSE(p.ok());
  EXPECT_THAT(std::string(p.status().message()), HasSubstr("unexpected text after the program"));
  EXPECT_EQ(ErrorPosition(p.status()), std::make_pair(3, 1));

  p = ParseProgram("");
  ASSERT_FALSE(p.ok());
  EXPECT_THAT(std::string(p.status().message()), HasSubstr("expected 'program'"));
  EXPECT_EQ(ErrorPosition(p.status()), std::make_pair(1, 1));
}

TEST(IrParseErrorTest, CommentsAndBlankLinesAreIgnored) {
  const std::string text =
      "// leading comment\n"
      "program @t {   // trailing\n"
      "\n"
      "  %0 = input \"x\" : f32[2]   // the input\n"
      "  output %0\n"
      "}\n";
  absl::StatusOr<Program> p = ParseProgram(text);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->inputs().size(), 1u);
  EXPECT_EQ(p->outputs(), p->inputs());
}

TEST(IrTextTest, ProgramNameThatIsNotAnIdentifierRoundTrips) {
  Program p;
  p.name = "my-net";
  ExpectRoundTrip(p);
}

}  // namespace
}  // namespace oc
