// The memory map's parser (compiler/target/memory_map.h): a good map with its
// defaults, and the errors for bad ones (each names the region and the key).
#include <string>

#include "gtest/gtest.h"
#include "compiler/target/memory_map.h"

namespace oc {
namespace {

std::string ErrorOf(const std::string& json) {
  const absl::StatusOr<MemoryMap> map = ParseMemoryMap(json);
  return map.ok() ? std::string("ok") : std::string(map.status().message());
}

TEST(MemoryMapTest, ParsesRegionsWithDefaults) {
  const absl::StatusOr<MemoryMap> map = ParseMemoryMap(
      R"({"description": "two banks", "regions": [{"name": "dtcm", "size": 131072, "cost": 1},
          {"name": "psram", "size": 8388608, "cost": 8, "alignment": 32, "section": ".psram_bss",
           "description": "external"}]})");
  ASSERT_TRUE(map.ok()) << map.status();
  ASSERT_EQ(map->regions.size(), 2u);
  EXPECT_EQ(map->regions[0].name, "dtcm");
  EXPECT_EQ(map->regions[0].size, 131072);
  EXPECT_EQ(map->regions[0].cost, 1);
  EXPECT_EQ(map->regions[0].alignment, 0);
  EXPECT_EQ(map->regions[0].section, ".bss.arena.dtcm");
  EXPECT_EQ(map->regions[1].cost, 8);
  EXPECT_EQ(map->regions[1].alignment, 32);
  EXPECT_EQ(map->regions[1].section, ".psram_bss");
  EXPECT_EQ(map->TotalBytes(), 131072 + 8388608);
  EXPECT_EQ(map->LargestRegionBytes(), 8388608);
  // The cost defaults to 1.
  const absl::StatusOr<MemoryMap> plain = ParseMemoryMap(R"({"regions": [{"name": "sram", "size": 16}]})");
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->regions[0].cost, 1);
}

TEST(MemoryMapTest, BadMapsGetClearErrors) {
  EXPECT_EQ(ErrorOf(R"({"regions": [{"name": "a", "size": 16}, {"name": "a", "size": 32}]})"),
            "memory map: two regions are named 'a'");
  EXPECT_NE(ErrorOf(R"({"regions": [{"name": "a", "size": 0}]})").find("region 'a': \"size\""),
            std::string::npos);
  EXPECT_EQ(ErrorOf(R"({"regions": [{"name": "a", "size": 16, "speed": 2}]})"),
            "memory map: region 0: unknown key 'speed'");
  EXPECT_EQ(ErrorOf(R"({"regions": [], "banks": 2})"), "memory map: unknown key 'banks'");
  EXPECT_NE(ErrorOf(R"({"regions": []})").find("non-empty array"), std::string::npos);
  EXPECT_NE(ErrorOf(R"({"regions": [{"name": "Bad-Name", "size": 16}]})").find("lower-case C identifier"),
            std::string::npos);
  EXPECT_NE(ErrorOf(R"({"regions": [{"name": "int", "size": 16}]})").find("lower-case C identifier"),
            std::string::npos);
  EXPECT_NE(ErrorOf(R"({"regions": [{"name": "a", "size": 16.5}]})").find("whole number"), std::string::npos);
  EXPECT_NE(ErrorOf(R"({"regions": [{"name": "a", "size": 16, "cost": 0}]})").find("\"cost\""),
            std::string::npos);
  EXPECT_NE(ErrorOf(R"({"regions": [{"name": "a", "size": 16, "alignment": 24}]})").find("power of two"),
            std::string::npos);
  EXPECT_NE(ErrorOf(R"({"regions": [{"name": "a", "size": 16, "section": ".x"},
                                    {"name": "b", "size": 16, "section": ".x"}]})")
                .find("another region's"),
            std::string::npos);
  EXPECT_NE(ErrorOf("[1, 2").find("not JSON"), std::string::npos);
}

TEST(MemoryMapTest, MissingFileIsNamed) {
  const absl::StatusOr<MemoryMap> map = ReadMemoryMap("/nonexistent/board.json");
  ASSERT_FALSE(map.ok());
  EXPECT_NE(map.status().message().find("/nonexistent/board.json"), std::string::npos);
}

}  // namespace
}  // namespace oc
