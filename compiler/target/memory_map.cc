#include "compiler/target/memory_map.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "compiler/support/c_names.h"
#include "compiler/support/json_reader.h"

namespace oc {
namespace {

using Kind = JsonValue::Kind;

// Region sizes up to 1 TiB: far beyond any board, well inside int64 sums.
constexpr double kMaxRegionBytes = 1099511627776.0;

absl::Status Bad(const std::string& what) {
  return absl::InvalidArgumentError(absl::StrCat("memory map: ", what));
}

bool IsRegionName(const std::string& name) {
  if (name.empty() || name.size() > 32 || IsCKeyword(name)) return false;
  if (!(name[0] >= 'a' && name[0] <= 'z')) return false;
  for (char ch : name) {
    if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_')) return false;
  }
  return true;
}

bool IsSectionName(const std::string& section) {
  if (section.empty() || section.size() > 128) return false;
  for (char ch : section) {
    const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                    ch == '_' || ch == '.' || ch == '$' || ch == '-';
    if (!ok) return false;
  }
  return true;
}

// A whole number in [1, max].
bool IsPositiveCount(const JsonValue& v, double max) {
  return v.kind == Kind::kNumber && v.number >= 1 && v.number <= max && std::floor(v.number) == v.number;
}

absl::StatusOr<MemoryRegion> ParseRegion(const JsonValue& r, size_t index) {
  const std::string where = absl::StrCat("region ", index);
  if (r.kind != Kind::kObject) return Bad(absl::StrCat(where, " is not an object"));
  for (const auto& [key, value] : r.object) {
    static const std::set<std::string> kKeys = {"name", "size", "cost", "alignment", "section", "description"};
    if (!kKeys.count(key)) return Bad(absl::StrCat(where, ": unknown key '", key, "'"));
  }
  MemoryRegion region;
  const JsonValue& name = r["name"];
  if (name.kind != Kind::kString || !IsRegionName(name.string)) {
    return Bad(absl::StrCat(where, ": \"name\" must be a lower-case C identifier (a-z, 0-9, _) of at most 32 "
                            "characters"));
  }
  region.name = name.string;
  const std::string named = absl::StrCat("region '", region.name, "'");
  if (!IsPositiveCount(r["size"], kMaxRegionBytes)) {
    return Bad(absl::StrCat(named, ": \"size\" must be a whole number of bytes, at least 1 (zero-sized regions "
                            "are not allowed)"));
  }
  region.size = r["size"].Int();
  if (!r["cost"].IsNull()) {
    const JsonValue& cost = r["cost"];
    if (cost.kind != Kind::kNumber || !(cost.number > 0) || !std::isfinite(cost.number) || cost.number > 1e6) {
      return Bad(absl::StrCat(named, ": \"cost\" must be a number above 0 (a relative access cost per byte)"));
    }
    region.cost = cost.number;
  }
  if (!r["alignment"].IsNull()) {
    const JsonValue& a = r["alignment"];
    if (!IsPositiveCount(a, 65536) || (a.Int() & (a.Int() - 1)) != 0) {
      return Bad(absl::StrCat(named, ": \"alignment\" must be a power of two up to 65536"));
    }
    region.alignment = a.Int();
  }
  region.section = absl::StrCat(".bss.arena.", region.name);
  if (!r["section"].IsNull()) {
    if (r["section"].kind != Kind::kString || !IsSectionName(r["section"].string)) {
      return Bad(absl::StrCat(named, ": \"section\" must be a linker section name (letters, digits, . _ $ -)"));
    }
    region.section = r["section"].string;
  }
  if (!r["description"].IsNull() && r["description"].kind != Kind::kString) {
    return Bad(absl::StrCat(named, ": \"description\" must be a string"));
  }
  return region;
}

}  // namespace

int64_t MemoryMap::TotalBytes() const {
  int64_t total = 0;
  for (const MemoryRegion& r : regions) total += r.size;
  return total;
}

int64_t MemoryMap::LargestRegionBytes() const {
  int64_t largest = 0;
  for (const MemoryRegion& r : regions) largest = std::max(largest, r.size);
  return largest;
}

absl::StatusOr<MemoryMap> ParseMemoryMap(absl::string_view json_text) {
  absl::StatusOr<JsonValue> doc = ParseJson(json_text);
  if (!doc.ok()) return Bad(absl::StrCat("not JSON: ", doc.status().message()));
  if (doc->kind != Kind::kObject) return Bad("the top level must be an object with \"regions\"");
  for (const auto& [key, value] : doc->object) {
    if (key != "regions" && key != "description") return Bad(absl::StrCat("unknown key '", key, "'"));
  }
  const JsonValue& regions = (*doc)["regions"];
  if (regions.kind != Kind::kArray || regions.array.empty()) {
    return Bad("\"regions\" must be a non-empty array of regions");
  }
  if (regions.array.size() > 16) return Bad("at most 16 regions");
  MemoryMap map;
  std::set<std::string> names, sections;
  for (size_t i = 0; i < regions.array.size(); ++i) {
    absl::StatusOr<MemoryRegion> region = ParseRegion(regions.array[i], i);
    if (!region.ok()) return region.status();
    if (!names.insert(region->name).second) {
      return Bad(absl::StrCat("two regions are named '", region->name, "'"));
    }
    if (!sections.insert(region->section).second) {
      return Bad(absl::StrCat("region '", region->name, "': section '", region->section,
                              "' is another region's too"));
    }
    map.regions.push_back(*region);
  }
  return map;
}

absl::StatusOr<MemoryMap> ReadMemoryMap(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read memory map '", path, "'"));
  std::stringstream text;
  text << in.rdbuf();
  absl::StatusOr<MemoryMap> map = ParseMemoryMap(text.str());
  if (!map.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", map.status().message()));
  }
  return map;
}

}  // namespace oc
