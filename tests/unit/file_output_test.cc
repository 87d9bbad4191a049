// Writing generated files: contents land exactly, directories are created,
// a path that is a file is refused, and no temporary file is left behind.
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "compiler/support/file_output.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/unit/test_util.h"

namespace oc {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class FileOutputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::path(::testing::TempDir()) / "oc_file_output_XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    root_ = tmpl;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }

  static std::string Read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  static void Write(const fs::path& path, const std::string& contents) {
    std::ofstream out(path, std::ios::binary);
    out << contents;
  }
  // Every entry (files, directories, hidden files) directly in `dir`.
  static std::set<std::string> Listing(const fs::path& dir) {
    std::set<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
    return names;
  }
  // Every regular file below `dir`, recursively.
  static std::set<std::string> AllFiles(const fs::path& dir) {
    std::set<std::string> names;
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
      if (e.is_regular_file()) names.insert(fs::relative(e.path(), dir).string());
    }
    return names;
  }

  fs::path root_;
};

TEST_F(FileOutputTest, WritesFilesAndCreatesDirectories) {
  const fs::path dir = root_ / "out" / "nested";
  const std::string binary("a\0b\r\n\xff", 6);
  ASSERT_TRUE(WriteFilesAtomically(dir.string(), {{"model.c", "int x;\n"},
                                                  {"model.h", ""},
                                                  {"blob.bin", binary}})
                  .ok());
  EXPECT_EQ(Listing(dir), (std::set<std::string>{"model.c", "model.h", "blob.bin"}));
  EXPECT_EQ(Read(dir / "model.c"), "int x;\n");
  EXPECT_EQ(Read(dir / "model.h"), "");
  EXPECT_EQ(Read(dir / "blob.bin"), binary);
}

TEST_F(FileOutputTest, OverwritesExistingFilesAndKeepsOthers) {
  Write(root_ / "model.c", "old contents that are longer than the new ones");
  Write(root_ / "unrelated.txt", "keep me");
  ASSERT_TRUE(WriteFilesAtomically(root_.string(), {{"model.c", "new"}}).ok());
  EXPECT_EQ(Read(root_ / "model.c"), "new");
  EXPECT_EQ(Read(root_ / "unrelated.txt"), "keep me");
  EXPECT_EQ(Listing(root_), (std::set<std::string>{"model.c", "unrelated.txt"}));
}

// A file that already holds the new contents keeps its timestamp, so build
// tools (Ninja's restat, Make) do not rebuild what depends on it.
TEST_F(FileOutputTest, UnchangedFilesKeepTheirTimestamp) {
  ASSERT_TRUE(WriteFilesAtomically(root_.string(), {{"model.h", "same"}, {"model.c", "old"}}).ok());
  ASSERT_TRUE(WriteFileAtomically((root_ / "r.json").string(), "{}").ok());
  const auto past = fs::file_time_type::clock::now() - std::chrono::hours(1);
  for (const char* f : {"model.h", "model.c", "r.json"}) fs::last_write_time(root_ / f, past);
  ASSERT_TRUE(WriteFilesAtomically(root_.string(), {{"model.h", "same"}, {"model.c", "new"}}).ok());
  ASSERT_TRUE(WriteFileAtomically((root_ / "r.json").string(), "{}").ok());
  EXPECT_EQ(fs::last_write_time(root_ / "model.h"), past);
  EXPECT_EQ(fs::last_write_time(root_ / "r.json"), past);
  EXPECT_GT(fs::last_write_time(root_ / "model.c"), past);
  EXPECT_EQ(Read(root_ / "model.c"), "new");
  EXPECT_EQ(Listing(root_), (std::set<std::string>{"model.c", "model.h", "r.json"}));
}

TEST_F(FileOutputTest, RefusesADirectoryPathThatIsAFile) {
  const fs::path file = root_ / "not_a_dir";
  Write(file, "data");
  absl::Status st = WriteFilesAtomically(file.string(), {{"model.c", "x"}});
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(st.message()), HasSubstr("is not a directory"));
  EXPECT_EQ(Read(file), "data");
  EXPECT_EQ(Listing(root_), (std::set<std::string>{"not_a_dir"}));
}

TEST_F(FileOutputTest, RefusesADirectoryBelowAFile) {
  Write(root_ / "file", "data");
  absl::Status st = WriteFilesAtomically((root_ / "file" / "sub").string(), {{"a.c", "x"}});
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(Read(root_ / "file"), "data");
  EXPECT_EQ(AllFiles(root_), (std::set<std::string>{"file"}));
}

TEST_F(FileOutputTest, AFailedWriteLeavesNothingBehind) {
  // The second file cannot be created (its name is longer than a file name
  // may be): the first must not appear, and no temporary file may remain.
  absl::Status st = WriteFilesAtomically(
      root_.string(), {{"a.c", "first"}, {std::string(300, 'b') + ".c", "second"}});
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(AllFiles(root_), std::set<std::string>{});
}

TEST_F(FileOutputTest, RefusesNamesThatAreNotPlainFileNames) {
  for (const std::string& name : {std::string("../escape.c"), std::string("sub/a.c"),
                                  std::string("/tmp/abs.c"), std::string(".."), std::string(""),
                                  std::string("a\0b.c", 5)}) {
    absl::Status st = WriteFilesAtomically((root_ / "out").string(), {{"ok.c", "x"}, {name, "y"}});
    ASSERT_FALSE(st.ok()) << name;
    EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(st.message()), HasSubstr("not a plain file name"));
  }
  EXPECT_EQ(AllFiles(root_), std::set<std::string>{});
  EXPECT_FALSE(fs::exists(root_.parent_path() / "escape.c"));
}

TEST_F(FileOutputTest, AFailedRenameLeavesNothingBehind) {
  fs::create_directory(root_ / "b.c");
  absl::Status st = WriteFilesAtomically(root_.string(), {{"a.c", "first"}, {"b.c", "second"}});
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(AllFiles(root_), std::set<std::string>{});
}

TEST_F(FileOutputTest, AFailedRenameLeavesNoTemporaries) {
  fs::create_directory(root_ / "b.c");
  absl::Status st = WriteFilesAtomically(root_.string(), {{"a.c", "first"}, {"b.c", "second"}});
  ASSERT_FALSE(st.ok());
  for (const std::string& f : AllFiles(root_)) {
    EXPECT_THAT(f, ::testing::Not(HasSubstr(".tmp"))) << f;
  }
}

TEST_F(FileOutputTest, SingleFileAtAPath) {
  const fs::path path = root_ / "reports" / "r.json";
  ASSERT_TRUE(WriteFileAtomically(path.string(), "{}\n").ok());
  EXPECT_EQ(Read(path), "{}\n");
  ASSERT_TRUE(WriteFileAtomically(path.string(), "{\"v\": 2}\n").ok());
  EXPECT_EQ(Read(path), "{\"v\": 2}\n");
  EXPECT_EQ(Listing(root_ / "reports"), (std::set<std::string>{"r.json"}));
}

TEST_F(FileOutputTest, SingleFileRefusesADirectory) {
  fs::create_directory(root_ / "dir");
  absl::Status st = WriteFileAtomically((root_ / "dir").string(), "x");
  ASSERT_FALSE(st.ok());
  EXPECT_THAT(std::string(st.message()), HasSubstr("is a directory"));
  EXPECT_TRUE(fs::is_directory(root_ / "dir"));
  EXPECT_EQ(AllFiles(root_), std::set<std::string>{});
}

TEST_F(FileOutputTest, SingleFileBelowAFileFailsCleanly) {
  Write(root_ / "file", "data");
  absl::Status st = WriteFileAtomically((root_ / "file" / "r.json").string(), "x");
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(Read(root_ / "file"), "data");
  EXPECT_EQ(AllFiles(root_), (std::set<std::string>{"file"}));
}

}  // namespace
}  // namespace oc
