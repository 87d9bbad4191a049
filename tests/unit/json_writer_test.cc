// The JSON writer: exact layout, escaping, and numbers that stay valid JSON.
#include <cmath>
#include <limits>
#include <string>

#include "compiler/support/json_writer.h"
#include "gtest/gtest.h"

namespace oc {
namespace {

TEST(JsonWriterTest, NestedLayoutIsExact) {
  JsonWriter j;
  j.BeginObject();
  j.Key("a");
  j.Int(1);
  j.Key("b");
  j.BeginArray();
  j.String("x");
  j.Double(1.5);
  j.Bool(true);
  j.EndArray();
  j.Key("c");
  j.BeginObject();
  j.EndObject();
  j.Key("d");
  j.BeginArray();
  j.EndArray();
  j.Key("e");
  j.BeginObject();
  j.Key("f");
  j.Bool(false);
  j.EndObject();
  j.EndObject();
  EXPECT_EQ(j.str(),
            "{\n"
            "  \"a\": 1,\n"
            "  \"b\": [\n"
            "    \"x\",\n"
            "    1.5,\n"
            "    true\n"
            "  ],\n"
            "  \"c\": {},\n"
            "  \"d\": [],\n"
            "  \"e\": {\n"
            "    \"f\": false\n"
            "  }\n"
            "}\n");
}

TEST(JsonWriterTest, ArrayOfObjects) {
  JsonWriter j;
  j.BeginArray();
  for (int i = 0; i < 2; ++i) {
    j.BeginObject();
    j.Key("i");
    j.Int(i);
    j.EndObject();
  }
  j.EndArray();
  EXPECT_EQ(j.str(), "[\n  {\n    \"i\": 0\n  },\n  {\n    \"i\": 1\n  }\n]");
}

TEST(JsonWriterTest, Integers) {
  JsonWriter j;
  j.BeginArray();
  j.Int(0);
  j.Int(-7);
  j.Int(std::numeric_limits<int64_t>::max());
  j.Int(std::numeric_limits<int64_t>::min());
  j.EndArray();
  EXPECT_EQ(j.str(),
            "[\n  0,\n  -7,\n  9223372036854775807,\n  -9223372036854775808\n]");
}

TEST(JsonWriterTest, NonFiniteDoublesBecomeNull) {
  JsonWriter j;
  j.BeginArray();
  j.Double(std::nan(""));
  j.Double(std::numeric_limits<double>::infinity());
  j.Double(-std::numeric_limits<double>::infinity());
  j.Double(0.25);
  j.Double(1e20);
  j.Double(-2.0);
  j.EndArray();
  EXPECT_EQ(j.str(), "[\n  null,\n  null,\n  null,\n  0.25,\n  1e+20,\n  -2\n]");
}

TEST(JsonWriterTest, EscapesStringsAndKeys) {
  EXPECT_EQ(JsonEscape("plain"), "\"plain\"");
  EXPECT_EQ(JsonEscape("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(JsonEscape("line\nnext\ttab"), "\"line\\nnext\\ttab\"");
  EXPECT_EQ(JsonEscape(std::string("\x00\x01\x1f", 3)), "\"\\u0000\\u0001\\u001f\"");
  EXPECT_EQ(JsonEscape("\x7f"), "\"\\u007f\"");
  // Bytes >= 0x80 are escaped one by one, so invalid UTF-8 stays valid JSON.
  EXPECT_EQ(JsonEscape("\xff\xc3"), "\"\\u00ff\\u00c3\"");
  EXPECT_EQ(JsonEscape("</script>"), "\"</script>\"");

  JsonWriter j;
  j.BeginObject();
  j.Key("k\"ey\n");
  j.String("v\\al");
  j.EndObject();
  EXPECT_EQ(j.str(), "{\n  \"k\\\"ey\\n\": \"v\\\\al\"\n}\n");
}

TEST(JsonWriterTest, OutputIsAlwaysAscii) {
  std::string all;
  for (int c = 0; c < 256; ++c) all.push_back(static_cast<char>(c));
  const std::string out = JsonEscape(all);
  for (char c : out) {
    EXPECT_TRUE(c >= 0x20 && c < 0x7f) << static_cast<int>(static_cast<unsigned char>(c));
  }
  EXPECT_EQ(out.front(), '"');
  EXPECT_EQ(out.back(), '"');
}

TEST(JsonWriterTest, TopLevelScalar) {
  JsonWriter j;
  j.String("only");
  EXPECT_EQ(j.str(), "\"only\"");
}

}  // namespace
}  // namespace oc
