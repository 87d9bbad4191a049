// ErrorList: several independent errors in one status, printed as notes.
#include "compiler/support/error_list.h"

#include <string>

#include "gtest/gtest.h"

namespace oc {
namespace {

TEST(ErrorList, EmptyIsOk) {
  ErrorList errors;
  EXPECT_TRUE(errors.Add(absl::OkStatus()));
  EXPECT_TRUE(errors.empty());
  EXPECT_TRUE(errors.ToStatus().ok());
}

TEST(ErrorList, FirstIsTheMessageOthersRideAlong) {
  ErrorList errors;
  EXPECT_FALSE(errors.Add(absl::UnimplementedError("first")));
  EXPECT_TRUE(errors.Add(absl::OkStatus()));
  EXPECT_FALSE(errors.Add(absl::InvalidArgumentError("second\nwith a newline")));
  EXPECT_FALSE(errors.Add(absl::InvalidArgumentError("third")));
  absl::Status status = errors.ToStatus();
  EXPECT_EQ(status.code(), absl::StatusCode::kUnimplemented);
  EXPECT_EQ(status.message(), "first");
  EXPECT_EQ(MoreErrors(status), (std::vector<std::string>{"second\nwith a newline", "third"}));
  EXPECT_TRUE(MoreErrors(absl::InternalError("alone")).empty());
}

TEST(ErrorList, KeepsAtMostTheLimit) {
  ErrorList errors;
  for (int i = 0; i < 3 * ErrorList::kMaxErrors; ++i) {
    errors.Add(absl::InvalidArgumentError(std::to_string(i)));
  }
  EXPECT_TRUE(errors.full());
  std::vector<std::string> more = MoreErrors(errors.ToStatus());
  ASSERT_EQ(static_cast<int>(more.size()), ErrorList::kMaxErrors - 1);
  EXPECT_EQ(more.back(), std::to_string(ErrorList::kMaxErrors - 1));
}

}  // namespace
}  // namespace oc
