// C identifiers from arbitrary ONNX names, and text safe inside C comments.
#include <random>
#include <set>
#include <string>
#include <vector>

#include "compiler/support/c_names.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace oc {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

bool IsValidCIdentifier(const std::string& s) {
  if (s.empty()) return false;
  if (s[0] >= '0' && s[0] <= '9') return false;
  for (unsigned char c : s) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_';
    if (!ok) return false;
  }
  // Identifiers starting with "__" or "_" + capital are reserved in C.
  if (s.size() >= 2 && s[0] == '_' && (s[1] == '_' || (s[1] >= 'A' && s[1] <= 'Z'))) return false;
  return !IsCKeyword(s);
}

TEST(CNamesTest, PlainNamesAreKept) {
  EXPECT_EQ(SanitizeCIdentifier("x"), "x");
  EXPECT_EQ(SanitizeCIdentifier("conv1_weight"), "conv1_weight");
  EXPECT_EQ(SanitizeCIdentifier("CamelCase9"), "CamelCase9");
}

TEST(CNamesTest, OtherBytesBecomeUnderscores) {
  EXPECT_EQ(SanitizeCIdentifier("conv1.weight"), "conv1_weight");
  EXPECT_EQ(SanitizeCIdentifier("a/b.c"), "a_b_c");
  EXPECT_EQ(SanitizeCIdentifier("a   b"), "a_b");  // runs collapse
  EXPECT_EQ(SanitizeCIdentifier("/model/conv/Conv_output_0"), "model_conv_Conv_output_0");
  EXPECT_EQ(SanitizeCIdentifier("x:0"), "x_0");
}

TEST(CNamesTest, KeywordsGetASuffix) {
  for (const char* k : {"int", "float", "return", "while", "static", "const", "struct",
                        "sizeof", "_Bool", "restrict", "inline", "main", "NULL", "errno"}) {
    std::string s = SanitizeCIdentifier(k);
    EXPECT_NE(s, k);
    EXPECT_TRUE(IsValidCIdentifier(s)) << k << " -> " << s;
  }
  EXPECT_EQ(SanitizeCIdentifier("int"), "int_");
  EXPECT_EQ(SanitizeCIdentifier("return"), "return_");
  EXPECT_TRUE(IsCKeyword("int"));
  EXPECT_TRUE(IsCKeyword("while"));
  EXPECT_FALSE(IsCKeyword("int_"));
  EXPECT_FALSE(IsCKeyword("Int"));
  EXPECT_FALSE(IsCKeyword(""));
}

TEST(CNamesTest, KeywordsHiddenBehindPunctuationGetASuffix) {
  // "int." sanitizes to "int", which must still be escaped.
  EXPECT_EQ(SanitizeCIdentifier("int."), "int_");
  EXPECT_EQ(SanitizeCIdentifier("__for__"), "for_");
  EXPECT_EQ(SanitizeCIdentifier("(void)"), "void_");
}

TEST(CNamesTest, LeadingDigitsAreNotLeading) {
  for (const char* name : {"0", "3d", "0starts_with_digit", "123", "9.5"}) {
    std::string s = SanitizeCIdentifier(name);
    EXPECT_TRUE(IsValidCIdentifier(s)) << name << " -> " << s;
    EXPECT_THAT(s, HasSubstr(std::string(1, name[0]))) << "the digits are kept";
  }
  EXPECT_EQ(SanitizeCIdentifier("3d"), "t3d");
}

TEST(CNamesTest, EmptyAndAllPunctuationNames) {
  EXPECT_EQ(SanitizeCIdentifier(""), "t");
  EXPECT_EQ(SanitizeCIdentifier("_"), "t");
  EXPECT_EQ(SanitizeCIdentifier("___"), "t");
  EXPECT_EQ(SanitizeCIdentifier("/./"), "t");
  EXPECT_EQ(SanitizeCIdentifier(std::string(3, '\0')), "t");
}

TEST(CNamesTest, ReservedLeadingUnderscoresAreDropped) {
  EXPECT_EQ(SanitizeCIdentifier("__x"), "x");
  EXPECT_EQ(SanitizeCIdentifier("_Reserved"), "Reserved");
  EXPECT_TRUE(IsValidCIdentifier(SanitizeCIdentifier("__STDC__")));
}

TEST(CNamesTest, NonUtf8AndNonAsciiBytes) {
  EXPECT_EQ(SanitizeCIdentifier("gr\xc3\xb6\xc3\x9f" "e"), "gr_e");
  EXPECT_EQ(SanitizeCIdentifier("\xff\xfe\xfd"), "t");
  EXPECT_EQ(SanitizeCIdentifier("a\xff" "b"), "a_b");
  EXPECT_EQ(SanitizeCIdentifier(std::string("a\0b", 3)), "a_b");
  std::string s = SanitizeCIdentifier("\xe3\x83\x8e\xe3\x83\xbc\xe3\x83\x89");
  EXPECT_TRUE(IsValidCIdentifier(s)) << s;
}

TEST(CNamesTest, LongNamesAreTruncated) {
  std::string long_name(300, 'a');
  EXPECT_EQ(SanitizeCIdentifier(long_name), std::string(48, 'a'));
  EXPECT_EQ(SanitizeCIdentifier(long_name, 10), std::string(10, 'a'));
  // Truncation never leaves a trailing '_'.
  std::string s = SanitizeCIdentifier(std::string(9, 'b') + "." + std::string(20, 'c'), 10);
  EXPECT_EQ(s, std::string(9, 'b'));
  // A long name made only of escaped bytes still yields something valid.
  EXPECT_TRUE(IsValidCIdentifier(SanitizeCIdentifier(std::string(500, '\xff'))));
}

TEST(CNamesTest, RandomBytesAlwaysGiveValidIdentifiers) {
  std::mt19937 rng(1234);
  std::uniform_int_distribution<int> len(0, 80), byte(0, 255);
  for (int i = 0; i < 2000; ++i) {
    std::string raw;
    for (int n = len(rng); n > 0; --n) raw.push_back(static_cast<char>(byte(rng)));
    std::string s = SanitizeCIdentifier(raw);
    ASSERT_TRUE(IsValidCIdentifier(s)) << "'" << s << "'";
    ASSERT_LE(s.size(), 48u + 1u) << s;  // +1: a keyword's '_'
  }
}

TEST(CNamesTest, UniqueNamerGivesDistinctNamesToCollidingInputs) {
  UniqueNamer names;
  EXPECT_EQ(names.Make("a.b"), "a_b");
  EXPECT_EQ(names.Make("a/b"), "a_b_2");
  EXPECT_EQ(names.Make("a b"), "a_b_3");
  // A raw name equal to a generated one does not collide with it.
  EXPECT_NE(names.Make("a_b_2"), "a_b_2");
  EXPECT_EQ(names.Make("int"), "int_");
  EXPECT_NE(names.Make("int_"), "int_");
}

TEST(CNamesTest, UniqueNamerHonoursReservations) {
  UniqueNamer names;
  names.Reserve("model_run");
  names.Reserve("model_arena");
  std::string a = names.Make("model_run");
  std::string b = names.Make("model.arena");
  EXPECT_NE(a, "model_run");
  EXPECT_NE(b, "model_arena");
  EXPECT_TRUE(IsValidCIdentifier(a));
  EXPECT_TRUE(IsValidCIdentifier(b));
}

TEST(CNamesTest, UniqueNamerNeverRepeatsOnAdversarialInputs) {
  // Names that sanitize to the same few bases, including ones that look like
  // generated suffixes, truncate to the same prefix, or are keywords.
  std::vector<std::string> raw;
  const std::string long_prefix(60, 'x');
  for (int i = 0; i < 50; ++i) {
    raw.push_back("t");
    raw.push_back("");
    raw.push_back("t_" + std::to_string(i));
    raw.push_back("t_2");
    raw.push_back(long_prefix + std::to_string(i));  // equal after truncation
    raw.push_back("int");
    raw.push_back("int_" + std::to_string(i % 5));
    raw.push_back(std::string(1, static_cast<char>(0x80 + i)));
  }
  std::mt19937 rng(7);
  std::shuffle(raw.begin(), raw.end(), rng);
  UniqueNamer names;
  std::set<std::string> seen;
  for (const std::string& r : raw) {
    std::string s = names.Make(r);
    EXPECT_TRUE(IsValidCIdentifier(s)) << s;
    EXPECT_TRUE(seen.insert(s).second) << "repeated: " << s;
  }
  EXPECT_EQ(seen.size(), raw.size());
}

// ---- EscapeForCComment ---------------------------------------------------------

void ExpectSafeForComment(const std::string& raw, const std::string& out) {
  SCOPED_TRACE("input of " + std::to_string(raw.size()) + " bytes");
  EXPECT_EQ(out.find("*/"), std::string::npos) << out;
  EXPECT_EQ(out.find("/*"), std::string::npos) << out;
  EXPECT_EQ(out.find("??"), std::string::npos) << out;
  EXPECT_EQ(out.find("\\\n"), std::string::npos) << out;
  EXPECT_EQ(out.find("\\\r"), std::string::npos) << out;
  for (char c : out) {
    EXPECT_TRUE(c >= 0x20 && c < 0x7f) << "byte " << static_cast<int>(static_cast<uint8_t>(c));
  }
  // A trailing backslash would splice the next line into a // comment.
  if (!out.empty()) {
    EXPECT_NE(out.back(), '\\') << out;
  }
}

TEST(CNamesTest, EscapeForCCommentKeepsPlainText) {
  EXPECT_EQ(EscapeForCComment("Conv_0 weight"), "Conv_0 weight");
  EXPECT_EQ(EscapeForCComment(""), "");
  // Exporters' path-like names read as they are.
  EXPECT_EQ(EscapeForCComment("/blocks/blocks.0/Conv"), "/blocks/blocks.0/Conv");
  EXPECT_EQ(EscapeForCComment("a:b 'c' \"d\" 2*3 x/y ? !"), "a:b 'c' \"d\" 2*3 x/y ? !");
}

TEST(CNamesTest, EscapeForCCommentEscapesDangerousBytes) {
  EXPECT_EQ(EscapeForCComment("*/"), "\\x2a/");
  EXPECT_EQ(EscapeForCComment("/a/*b*/c"), "/a\\x2f*b\\x2a/c");
  EXPECT_EQ(EscapeForCComment("tail*"), "tail\\x2a");
  EXPECT_EQ(EscapeForCComment("?\?="), "\\x3f?=");
  EXPECT_EQ(EscapeForCComment("a\\\nb"), "a\\x5c\\x0ab");
  EXPECT_EQ(EscapeForCComment("a\\b"), "a\\x5cb");
  EXPECT_EQ(EscapeForCComment("\xc3\xa9"), "\\xc3\\xa9");
  EXPECT_EQ(EscapeForCComment(std::string("\0", 1)), "\\x00");
  for (const std::string& raw :
       {std::string("end */ start /* x"), std::string("trigraph ?\?/\nnext"),
        std::string("back\\\nslash"), std::string("back\\\r\nslash"), std::string("tail\\"),
        std::string("**//**"), std::string("?\?)?\?<?\?>"), std::string("\xff\xfe\x01\x7f")}) {
    ExpectSafeForComment(raw, EscapeForCComment(raw));
  }
}

TEST(CNamesTest, EscapeForCCommentTruncates) {
  std::string out = EscapeForCComment(std::string(500, 'a'), 20);
  EXPECT_EQ(out, std::string(20, 'a') + "...");
  // An escape is never cut in half.
  out = EscapeForCComment(std::string(100, '\\'), 10);
  EXPECT_EQ(out, "\\x5c\\x5c\\x5c...");
  ExpectSafeForComment(std::string(100, '\\'), out);
  out = EscapeForCComment(std::string(100, '*'), 10);
  EXPECT_EQ(out, std::string(10, '*') + "...");
  ExpectSafeForComment(std::string(100, '*'), out);
}

TEST(CNamesTest, EscapeForCCommentIsSafeOnRandomBytes) {
  std::mt19937 rng(99);
  // Bias towards the interesting characters.
  const std::string special = "*/?\\\"\n\r\t\xff\x80 ";
  std::uniform_int_distribution<int> len(0, 300), pick(0, 3), byte(0, 255),
      sp(0, static_cast<int>(special.size()) - 1);
  for (int i = 0; i < 2000; ++i) {
    std::string raw;
    for (int n = len(rng); n > 0; --n) {
      raw.push_back(pick(rng) == 0 ? static_cast<char>(byte(rng)) : special[sp(rng)]);
    }
    size_t max_length = 1 + i % 150;
    std::string out = EscapeForCComment(raw, max_length);
    ExpectSafeForComment(raw, out);
    // At most one escape (4 bytes) past the limit, then "...".
    EXPECT_LE(out.size(), max_length + 3 + 3);
    if (HasFailure()) break;
  }
}

}  // namespace
}  // namespace oc
