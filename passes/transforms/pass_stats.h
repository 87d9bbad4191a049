// The counters a pass reports, by "<pass>.<counter>" (they feed the report
// and `--stats`): IR rewrites and memory stages add to the same map.
#ifndef ONNX_TO_C_PASSES_TRANSFORMS_PASS_STATS_H_
#define ONNX_TO_C_PASSES_TRANSFORMS_PASS_STATS_H_

#include <cstdint>
#include <map>
#include <string>

namespace oc {

struct PassStats {
  std::map<std::string, int64_t> counters;
  void Add(const std::string& pass, const std::string& counter, int64_t n) {
    counters[pass + "." + counter] += n;
  }
};

}  // namespace oc

#endif  // ONNX_TO_C_PASSES_TRANSFORMS_PASS_STATS_H_
