// Error lines quoting a model's names stay one printable line.
#include <string>

#include "compiler/support/printable.h"
#include "gtest/gtest.h"

namespace oc {
namespace {

TEST(PrintableLine, KeepsAsciiAndWellFormedUtf8) {
  EXPECT_EQ(PrintableLine("node 'conv_1' (Conv)"), "node 'conv_1' (Conv)");
  EXPECT_EQ(PrintableLine("gr\xc3\xb6\xc3\x9f" "e \xe2\x82\xac \xe3\x83\x8e"),
            "gr\xc3\xb6\xc3\x9f" "e \xe2\x82\xac \xe3\x83\x8e");
  EXPECT_EQ(PrintableLine("\xf0\x9f\x98\x80"), "\xf0\x9f\x98\x80");
}

TEST(PrintableLine, EscapesControlCharacters) {
  EXPECT_EQ(PrintableLine("a\nerror: b"), "a\\x0aerror: b");
  EXPECT_EQ(PrintableLine("\x1b[2J\r\t"), "\\x1b[2J\\x0d\\x09");
  EXPECT_EQ(PrintableLine(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(PrintableLine("\x7f"), "\\x7f");
  EXPECT_EQ(PrintableLine("\xc2\x85"), "\\xc2\\x85");  // NEL, a C1 control
}

TEST(PrintableLine, EscapesInvalidUtf8) {
  EXPECT_EQ(PrintableLine("\xff\xfe"), "\\xff\\xfe");
  EXPECT_EQ(PrintableLine("\xc0\xaf"), "\\xc0\\xaf");              // overlong '/'
  EXPECT_EQ(PrintableLine("\xed\xa0\x80"), "\\xed\\xa0\\x80");      // a surrogate
  EXPECT_EQ(PrintableLine("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // above U+10FFFF
  EXPECT_EQ(PrintableLine("\xe2\x82"), "\\xe2\\x82");              // cut short
}

TEST(PrintableLine, EscapesLineSeparatorsAndBidiControls) {
  EXPECT_EQ(PrintableLine("\xe2\x80\xa8"), "\\xe2\\x80\\xa8");  // U+2028
  EXPECT_EQ(PrintableLine("\xe2\x80\xae"), "\\xe2\\x80\\xae");  // U+202E
  EXPECT_EQ(PrintableLine("\xe2\x81\xa6"), "\\xe2\\x81\\xa6");  // U+2066
  EXPECT_EQ(PrintableLine("\xef\xbb\xbf"), "\\xef\\xbb\\xbf");  // U+FEFF
}

}  // namespace
}  // namespace oc
