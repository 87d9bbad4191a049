#include "compiler/driver/verify.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <queue>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "compiler/driver/report_fields.h"
#include "compiler/driver/verify_regions.h"
#include "compiler/import/importer.h"
#include "compiler/support/json_reader.h"
#include "compiler/support/status.h"
#include "compiler/target/kernel_facts.h"
#include "passes/analysis/overlap_contracts.h"
#include "passes/pipeline/pass.h"
#include "passes/planning/packing_bound.h"
#include "passes/transforms/concat_copy.h"
#include "passes/transforms/patches.h"
#include "passes/transforms/quantized_io.h"
#include "passes/transforms/stream_input.h"
#include "passes/transforms/recompute_clone.h"

namespace oc {
namespace {

constexpr int64_t kInf = std::numeric_limits<int64_t>::max() / 4;

using F = ReportField;

absl::Status Mismatch(const std::string& what) {
  return absl::FailedPreconditionError(absl::StrCat("the report does not verify: ", what));
}

// A field of the report or of one of its objects (report_fields.def).
const JsonValue& At(const JsonValue& object, F field) { return object[ReportKey(field)]; }

// An array of statement ids.
std::vector<int32_t> Ids(const JsonValue& array) {
  std::vector<int32_t> ids;
  for (const JsonValue& id : array.array) ids.push_back(static_cast<int32_t>(id.Int()));
  return ids;
}

int64_t Align(int64_t n, int64_t a) { return (n + a - 1) / a * a; }

// The program's memory, recomputed from the IR alone.
struct Problem {
  int n = 0;
  std::vector<std::vector<int>> preds;  // by statement index
  std::vector<int64_t> scratch;
  struct Buf {
    ValueId root;
    int64_t bytes;
    std::vector<int> writers, readers;
  };
  std::vector<Buf> bufs;
};

// Buffers as the report groups values, with writers and readers taken from
// the program: the grouping is a claim that Simulate() checks byte by byte.
// With --io=arena (`io_in_arena`) a buffer that holds a graph input is
// written by the caller before the first step, and one that holds a graph
// output is read after the last: the same rule as the compiler's schedule graph
// (passes/analysis/memory_model.cc, BuildScheduleGraph), redone here. The input's writers
// and readers gain the statements without predecessors (one of them runs first
// in every order), the output's readers those without successors.
absl::StatusOr<Problem> BuildProblem(const Program& p, const JsonValue& report, int64_t alignment,
                                     const std::vector<bool>& elided, bool io_in_arena) {
  Problem pr;
  const auto& st = p.statements();
  pr.n = static_cast<int>(st.size());
  pr.preds.resize(pr.n);
  pr.scratch.resize(pr.n);
  std::vector<int> def(p.num_values(), -1);
  for (int i = 0; i < pr.n; ++i) {
    pr.scratch[i] = Align(st[i].scratch_bytes, alignment);
    for (ValueId r : st[i].results) def[r] = i;
  }
  std::vector<std::vector<int>> readers(p.num_values());
  for (int i = 0; i < pr.n; ++i) {
    for (ValueId o : st[i].operands) {
      if (o == kNoValue) continue;
      readers[o].push_back(i);
      if (def[o] >= 0 && std::find(pr.preds[i].begin(), pr.preds[i].end(), def[o]) == pr.preds[i].end()) {
        pr.preds[i].push_back(def[o]);
      }
    }
  }
  std::vector<bool> is_input(p.num_values(), false), is_output(p.num_values(), false);
  for (ValueId v : p.inputs()) is_input[v] = true;
  for (ValueId v : p.outputs()) is_output[v] = true;
  std::vector<int> roots, sinks;
  std::vector<bool> has_succ(pr.n, false);
  for (int i = 0; i < pr.n; ++i) {
    if (pr.preds[i].empty()) roots.push_back(i);
    for (int d : pr.preds[i]) has_succ[d] = true;
  }
  for (int i = 0; i < pr.n; ++i) {
    if (!has_succ[i]) sinks.push_back(i);
  }
  for (const JsonValue& b : At(report, F::kBuffers).array) {
    Problem::Buf buf;
    buf.root = static_cast<ValueId>(At(b, F::kBufferValue).Int());
    buf.bytes = At(b, F::kBufferBytes).Int();
    // An empty tensor's buffer has 0 bytes.
    if (buf.bytes < 0 || buf.bytes % alignment) return Mismatch("a buffer size is not aligned");
    for (const JsonValue& h : At(b, F::kBufferHolds).array) {
      int64_t v = h.Int();
      if (v < 0 || v >= static_cast<int64_t>(p.num_values())) return Mismatch("a buffer holds an unknown value");
      if (def[v] >= 0 && !elided[def[v]]) buf.writers.push_back(def[v]);
      buf.readers.insert(buf.readers.end(), readers[v].begin(), readers[v].end());
      if (io_in_arena && is_input[v]) {
        buf.writers.insert(buf.writers.end(), roots.begin(), roots.end());
        buf.readers.insert(buf.readers.end(), roots.begin(), roots.end());
      }
      if (io_in_arena && is_output[v]) buf.readers.insert(buf.readers.end(), sinks.begin(), sinks.end());
    }
    if (buf.writers.empty() && buf.bytes == 0) buf.writers = roots;  // empty: holds no bytes
    if (buf.writers.empty()) return Mismatch("a buffer has no writer");
    if (buf.readers.empty()) buf.readers = buf.writers;
    pr.bufs.push_back(std::move(buf));
  }
  return pr;
}

// Edmonds-Karp on an adjacency matrix-free arc list.
class FlowNet {
 public:
  explicit FlowNet(int n) : adj_(n) {}
  int Add() {
    adj_.emplace_back();
    return static_cast<int>(adj_.size()) - 1;
  }
  void Arc(int u, int v, int64_t c) {
    adj_[u].push_back(static_cast<int>(to_.size()));
    to_.push_back(v);
    cap_.push_back(c);
    adj_[v].push_back(static_cast<int>(to_.size()));
    to_.push_back(u);
    cap_.push_back(0);
  }
  int64_t Run(int s, int t) {
    int64_t flow = 0;
    while (flow < kInf) {
      std::vector<int> via(adj_.size(), -1);
      std::queue<int> q;
      q.push(s);
      via[s] = -2;
      while (!q.empty() && via[t] == -1) {
        int u = q.front();
        q.pop();
        for (int a : adj_[u]) {
          if (cap_[a] > 0 && via[to_[a]] == -1) {
            via[to_[a]] = a;
            q.push(to_[a]);
          }
        }
      }
      if (via[t] == -1) break;
      int64_t f = kInf;
      for (int v = t; v != s; v = to_[via[v] ^ 1]) f = std::min(f, cap_[via[v]]);
      for (int v = t; v != s; v = to_[via[v] ^ 1]) {
        cap_[via[v]] -= f;
        cap_[via[v] ^ 1] += f;
      }
      flow += f;
    }
    return std::min(flow, kInf);
  }

 private:
  std::vector<std::vector<int>> adj_;
  std::vector<int> to_;
  std::vector<int64_t> cap_;
};

// The least live bytes at v's step over ideals containing `in`, excluding `out`.
int64_t MinLiveAt(const Problem& pr, int v, const std::vector<int>& in, const std::vector<int>& out) {
  FlowNet net(pr.n + 2);
  const int s = pr.n, t = pr.n + 1;
  int64_t fixed = pr.scratch[v];
  for (int c = 0; c < pr.n; ++c) {
    for (int p : pr.preds[c]) net.Arc(c, p, kInf);
  }
  for (const auto& b : pr.bufs) {
    if (std::find(b.writers.begin(), b.writers.end(), v) != b.writers.end()) {
      fixed += b.bytes;
      continue;
    }
    int mid = net.Add(), pay = net.Add();
    for (int w : b.writers) net.Arc(w, mid, kInf);
    net.Arc(mid, pay, b.bytes);
    for (int r : b.readers) net.Arc(pay, r, kInf);
  }
  for (int p : pr.preds[v]) net.Arc(s, p, kInf);
  for (int u : in) net.Arc(s, u, kInf);
  for (int u : out) net.Arc(u, t, kInf);
  net.Arc(v, t, kInf);
  int64_t cut = net.Run(s, t);
  return cut >= kInf ? kInf : fixed + cut;
}

// Live bytes at v's step when exactly `ideal` ran before it.
absl::StatusOr<int64_t> LiveWithIdeal(const Problem& pr, int v, const std::vector<bool>& in_ideal) {
  if (in_ideal[v]) return Mismatch("a witness ideal contains its own statement");
  for (int c = 0; c < pr.n; ++c) {
    if (!in_ideal[c]) continue;
    for (int p : pr.preds[c]) {
      if (!in_ideal[p]) return Mismatch("a witness ideal is not closed under dependencies");
    }
  }
  for (int p : pr.preds[v]) {
    if (!in_ideal[p]) return Mismatch("a witness ideal misses an input of its statement");
  }
  int64_t live = pr.scratch[v];
  for (const auto& b : pr.bufs) {
    bool writer_in = false, writes_v = false, reader_out = false;
    for (int w : b.writers) {
      writer_in = writer_in || in_ideal[w];
      writes_v = writes_v || w == v;
    }
    for (int r : b.readers) reader_out = reader_out || !in_ideal[r];
    if (writes_v || (writer_in && reader_out)) live += b.bytes;
  }
  return live;
}


// Where a value's bytes are, as the report claims.
struct Placement {
  int space = -1;  // 0: arena, 1 + k: input k, 1001 + k: output k, 2001 + k: input k streamed
  int64_t offset = 0, bytes = 0;
  bool operator==(const Placement& o) const {
    return space == o.space && offset == o.offset && bytes == o.bytes;
  }
};

bool Overlaps(const Placement& a, const Placement& b) {
  return a.space == b.space && a.offset < b.offset + b.bytes && b.offset < a.offset + a.bytes;
}

// Runs the order over byte-level "last writer" maps of every space and checks
// that each read finds the bytes its value means, which is what makes views,
// in-place writes and concats written in place safe.
class Simulator {
 public:
  // `overlap_ok[s]`: statement s may write its result over operand 0 (an
  // overlap contract whose placement has been checked).
  Simulator(const Program& p, const std::vector<Placement>& where, const std::vector<bool>& elided,
            const std::vector<bool>& overlap_ok)
      : p_(p), where_(where), elided_(elided), overlap_ok_(overlap_ok),
        def_(p.DefiningStatementIndex()) {}

  absl::Status Run(const std::vector<int>& order, int64_t arena_bytes) {
    std::map<int, int64_t> sizes = {{0, arena_bytes}};
    for (const Value& v : p_.values()) {
      if (v.IsConstant()) continue;
      const Placement& pl = where_[v.id];
      sizes[pl.space] = std::max(sizes[pl.space], pl.offset + pl.bytes);
      if (pl.space == 0 && pl.offset + pl.bytes > arena_bytes) return Mismatch("a value lies outside the arena");
    }
    for (const auto& [space, size] : sizes) memory_[space].assign(static_cast<size_t>(size), kUnwritten);
    for (ValueId in : p_.inputs()) {
      const Placement& pl = where_[in];
      std::fill_n(memory_[pl.space].begin() + pl.offset, pl.bytes, kCaller);
    }
    const auto& st = p_.statements();
    for (int s : order) {
      for (ValueId o : st[s].operands) {
        if (o == kNoValue || p_.value(o).IsConstant()) continue;
        OC_RETURN_IF_ERROR(CheckHolds(o, absl::StrCat("statement ", st[s].id)));
      }
      if (elided_[s]) continue;
      const bool in_place_ok = GetOpInfo(st[s].op).effect == MemoryEffect::kInPlace;
      for (ValueId r : st[s].results) {
        const Placement& pr = where_[r];
        if (pr.space >= 1 && pr.space <= 1000) return Mismatch("a statement writes into a graph input");
        for (ValueId o : st[s].operands) {
          if (o == kNoValue || p_.value(o).IsConstant() || !Overlaps(pr, where_[o])) continue;
          if (overlap_ok_[s] && o == st[s].operands[0]) continue;
          if (!(in_place_ok && pr == where_[o])) {
            return Mismatch(absl::StrCat("statement ", st[s].id, " overwrites its own operand"));
          }
        }
        std::fill_n(memory_[pr.space].begin() + pr.offset, pr.bytes, s);
      }
    }
    for (ValueId out : p_.outputs()) OC_RETURN_IF_ERROR(CheckHolds(out, "the end of the run"));
    return absl::OkStatus();
  }

 private:
  static constexpr int kUnwritten = -1, kCaller = -2;

  // The writer each byte of v must come from.
  std::vector<int> Expected(ValueId v) {
    auto it = expected_.find(v);
    if (it != expected_.end()) return it->second;
    std::vector<int> e;
    const int d = def_[v];
    const int64_t bytes = p_.value(v).ByteSize();
    if (d < 0) {
      e.assign(static_cast<size_t>(bytes), kCaller);
    } else if (!elided_[d]) {
      e.assign(static_cast<size_t>(bytes), d);
    } else {
      const Statement& s = p_.statements()[d];
      if (s.op == OpKind::kConcat) {
        for (ValueId x : s.operands) {
          std::vector<int> part = Expected(x);
          e.insert(e.end(), part.begin(), part.end());
        }
      } else {  // a view or a split: a slice of the operand
        std::vector<int> whole = Expected(s.operands[0]);
        int64_t start = where_[v].offset - where_[s.operands[0]].offset;
        if (start < 0 || start + bytes > static_cast<int64_t>(whole.size())) {
          e.assign(static_cast<size_t>(bytes), kUnwritten - 1);
        } else {
          e.assign(whole.begin() + start, whole.begin() + start + bytes);
        }
      }
    }
    expected_[v] = e;
    return e;
  }

  absl::Status CheckHolds(ValueId v, const std::string& when) {
    const Placement& pl = where_[v];
    std::vector<int> want = Expected(v);
    for (int64_t i = 0; i < pl.bytes; ++i) {
      if (memory_[pl.space][pl.offset + i] != want[i]) {
        return Mismatch(absl::StrCat("value ", v, " ('", p_.value(v).name, "') is clobbered before ", when));
      }
    }
    return absl::OkStatus();
  }

  const Program& p_;
  const std::vector<Placement>& where_;
  const std::vector<bool>& elided_;
  const std::vector<bool>& overlap_ok_;
  std::vector<int> def_;
  std::map<int, std::vector<int>> memory_;
  std::map<ValueId, std::vector<int>> expected_;
};

// An overlap contract the report claims, once checked: buffers (indices into
// Problem::bufs) and the statement.
struct CheckedOverlap {
  int statement, input_buf, output_buf;
  int64_t displacement;
  ValueId input, output;
};

// The statements reachable from `from` along `adj` (itself included).
std::vector<bool> Reachable(int n, int from, const std::vector<std::vector<int>>& adj) {
  std::vector<bool> seen(n, false);
  std::vector<int> stack = {from};
  seen[from] = true;
  while (!stack.empty()) {
    int v = stack.back();
    stack.pop_back();
    for (int u : adj[v]) {
      if (!seen[u]) {
        seen[u] = true;
        stack.push_back(u);
      }
    }
  }
  return seen;
}

// One claimed contract's statement, its sizes and what to call it in errors.
struct ContractClaim {
  const JsonValue& json;
  const Statement& st;
  const CheckedOverlap& c;
  int64_t in_bytes, out_bytes, scratch;
  std::string what;
};

// Planes: plane by plane, the output displaced far enough below the input
// that no plane overwrites input still to be read, with a plane of scratch.
absl::Status CheckPlanes(const ContractClaim& k, int64_t planes) {
  if (At(k.json, F::kOverlapPlanes).Int() != planes) {
    return Mismatch(k.what + " has the wrong number of planes");
  }
  const int64_t in_plane = k.in_bytes / planes, out_plane = k.out_bytes / planes;
  if (k.c.displacement < std::max<int64_t>(0, (planes - 1) * (out_plane - in_plane))) {
    return Mismatch(k.what + " displaces its output too little: a plane would overwrite live input");
  }
  if (k.scratch < out_plane) return Mismatch(k.what + " has a scratch smaller than a plane");
  return absl::OkStatus();
}

// Last element first: result i lands on input elements i.. (read) when
// the output starts (n - 1) * (in_elem - out_elem) bytes or more into the input.
absl::Status CheckElements(const Program& p, const ContractClaim& k) {
  const int64_t n = p.value(k.st.operands[0]).NumElements();
  if (At(k.json, F::kOverlapElements).Int() != n || n == 0) {
    return Mismatch(k.what + " has the wrong number of elements");
  }
  if (-k.c.displacement < std::max<int64_t>(0, (n - 1) * (k.in_bytes / n - k.out_bytes / n))) {
    return Mismatch(k.what + " starts its output too early: an element would overwrite live input");
  }
  return absl::OkStatus();
}

// Row streaming, the claimed rows being the output's N x H. Rows (first to
// last): the channels-last kernel computes output row (n, oy) while it still
// reads input rows n * h_in + max(0, oy * stride - pad) and later. Rows up
// (last first): while computing output row (n, oy) the kernel still reads
// input rows up to n * h_in + its window's last row inside the input.
absl::Status CheckRows(const Program& p, const ContractClaim& k, bool up) {
  const Shape& xs = p.value(k.st.operands[0]).shape;
  const Shape& ys = p.value(k.st.results[0]).shape;
  const std::vector<int64_t> strides = k.st.Ints("strides"), pads = k.st.Ints("pads");
  if (At(k.json, F::kOverlapRows).Int() != ys[0] * ys[2] || strides.empty() || pads.empty() || xs[0] != ys[0]) {
    return Mismatch(k.what + " has the wrong number of rows");
  }
  const int64_t reach = up ? RowStreamingReach(p, k.st) : 0;
  const int64_t in_row = k.in_bytes / (xs[0] * xs[2]), out_row = k.out_bytes / (ys[0] * ys[2]);
  for (int64_t r = 0; r < ys[0] * ys[2]; ++r) {
    const int64_t n = r / ys[2], oy = r % ys[2];
    if (!up) {
      const int64_t first = std::min(std::max<int64_t>(oy * strides[0] - pads[0], 0), xs[2]);
      if (k.c.displacement < (r + 1) * out_row - (n * xs[2] + first) * in_row) {
        return Mismatch(k.what + " displaces its output too little: a row would overwrite live input");
      }
    } else {
      const int64_t last = std::min(std::max<int64_t>(oy * strides[0] - pads[0] + reach, -1), xs[2] - 1);
      if (-k.c.displacement + r * out_row < (n * xs[2] + last + 1) * in_row) {
        return Mismatch(k.what + " raises its output too little: a row would overwrite live input");
      }
    }
  }
  return absl::OkStatus();
}

// Float: a block of output channels (float); 8-bit: one pixel's input
// channels (int16), in scratch, the output right over the input.
absl::Status CheckPixels(const Program& p, const ContractClaim& k) {
  const int64_t block = At(k.json, F::kOverlapBlock).Int();
  const int64_t needed = k.st.op == OpKind::kQLinearConv ? p.value(k.st.operands[0]).shape[1] * 2
                                                          : p.value(k.st.results[0]).shape[1] * block * 4;
  if (k.c.displacement != 0 || block < 1 || k.scratch < needed) {
    return Mismatch(k.what + " needs displacement 0 and a block of output channels of scratch");
  }
  return absl::OkStatus();
}

// The claimed access order against the kernel's: the kernels' plane-by-plane
// and block-by-block orders are the facts taken from the compiler
// (IsPerPlaneKernel, IsPixelwiseConv); the arithmetic that makes them safe
// is redone here.
absl::Status CheckAccessOrder(const Program& p, const ContractClaim& k, int64_t alignment) {
  const std::string& kind = At(k.json, F::kOverlapKind).string;
  const bool elements = kind == "elements";
  const bool rows_up = kind == "rows_up";
  if ((k.c.displacement < 0 && !elements && !rows_up) || k.c.displacement % alignment || k.scratch < 0 ||
      k.scratch % alignment) {
    return Mismatch(k.what + " has a negative or misaligned displacement or scratch");
  }
  int64_t planes = 0;
  if (kind == "planes" && IsPerPlaneKernel(p, k.st, &planes)) return CheckPlanes(k, planes);
  if (elements && IsElementwiseNarrowing(p, k.st)) return CheckElements(p, k);
  if (kind == "rows" && IsRowStreamingConv(p, k.st)) return CheckRows(p, k, /*up=*/false);
  if (rows_up && IsRowStreamingConv(p, k.st)) return CheckRows(p, k, /*up=*/true);
  if (kind == "pixels" && IsPixelwiseConv(p, k.st)) return CheckPixels(p, k);
  return Mismatch(k.what + " claims an access order its kernel does not have");
}

// The input dies at the statement and the output starts there, in every
// order; each value fills its buffer (checked against the placements
// later). Returns the bytes the contract saves at its step.
absl::StatusOr<int64_t> CheckLifetimesAndCredit(const Problem& pr, const ContractClaim& k,
                                                const std::vector<std::vector<int>>& succs,
                                                int64_t alignment) {
  std::vector<bool> before = Reachable(pr.n, k.c.statement, pr.preds),
                    after = Reachable(pr.n, k.c.statement, succs);
  for (int rd : pr.bufs[k.c.input_buf].readers) {
    if (!before[rd]) return Mismatch(k.what + " has an input that a later statement may read");
  }
  for (int w : pr.bufs[k.c.output_buf].writers) {
    if (!after[w]) return Mismatch(k.what + " has an output written before its statement");
  }
  const int64_t in_a = pr.bufs[k.c.input_buf].bytes, out_a = pr.bufs[k.c.output_buf].bytes;
  if (in_a != Align(k.in_bytes, alignment) || out_a != Align(k.out_bytes, alignment)) {
    return Mismatch(k.what + " overlaps values that do not fill their buffers");
  }
  // Their sizes minus their union, the output `displacement` below the input.
  const int64_t credit = in_a + out_a - (std::max(in_a, out_a - k.c.displacement) -
                                         std::min<int64_t>(0, -k.c.displacement));
  if (At(k.json, F::kOverlapCreditBytes).Int() != credit) {
    return Mismatch(k.what + " claims the wrong credit");
  }
  return credit;
}

// Checks each claimed overlap contract against the kernel's access order
// and the program's dependencies, and charges its scratch and credit to the
// statement's step.
absl::StatusOr<std::vector<CheckedOverlap>> CheckOverlaps(const Program& p, const JsonValue& report,
                                                          int64_t alignment,
                                                          const std::vector<int>& statement_of_id,
                                                          Problem& pr) {
  std::vector<CheckedOverlap> out;
  const JsonValue& buffers = At(report, F::kBuffers);
  std::map<int64_t, int> buf_of_value;
  for (size_t b = 0; b < pr.bufs.size(); ++b) {
    for (const JsonValue& h : At(buffers.array[b], F::kBufferHolds).array) {
      buf_of_value[h.Int()] = static_cast<int>(b);
    }
  }
  std::vector<std::vector<int>> succs(pr.n);
  for (int c = 0; c < pr.n; ++c) {
    for (int d : pr.preds[c]) succs[d].push_back(c);
  }
  std::vector<bool> has_contract(pr.n, false);
  for (const JsonValue& o : At(report, F::kOverlaps).array) {
    const int64_t id = At(o, F::kOverlapStatement).Int();
    const int i = id >= 0 && id < static_cast<int64_t>(statement_of_id.size()) ? statement_of_id[id] : -1;
    if (i < 0 || has_contract[i]) return Mismatch("an overlap names an unknown or repeated statement");
    has_contract[i] = true;
    const Statement& st = p.statements()[i];
    const std::string what = absl::StrCat("the overlap at statement ", id);
    if (st.operands.empty() || st.results.size() != 1 ||
        At(o, F::kOverlapInputValue).Int() != st.operands[0] ||
        At(o, F::kOverlapOutputValue).Int() != st.results[0] || !buf_of_value.count(st.operands[0]) ||
        !buf_of_value.count(st.results[0])) {
      return Mismatch(what + " does not name its statement's input and output");
    }
    CheckedOverlap c{i, buf_of_value[st.operands[0]], buf_of_value[st.results[0]],
                     At(o, F::kOverlapDisplacement).Int(), st.operands[0], st.results[0]};
    for (const JsonValue& h : At(buffers.array[c.input_buf], F::kBufferHolds).array) {
      if (std::find(p.outputs().begin(), p.outputs().end(), h.Int()) != p.outputs().end()) {
        return Mismatch(what + " writes over a graph output");
      }
    }
    const ContractClaim claim{o, st, c, p.value(st.operands[0]).ByteSize(), p.value(st.results[0]).ByteSize(),
                              At(o, F::kOverlapScratchBytes).Int(), what};
    OC_RETURN_IF_ERROR(CheckAccessOrder(p, claim, alignment));
    OC_ASSIGN_OR_RETURN(const int64_t credit, CheckLifetimesAndCredit(pr, claim, succs, alignment));
    pr.scratch[i] += claim.scratch - credit;
    out.push_back(c);
  }
  return out;
}

// A statement may run no code only when its results are already in place.
absl::Status CheckElision(const Program& p, const Statement& s, const std::vector<Placement>& where) {
  auto outer_is_one = [&](const Shape& shape, int64_t axis) {
    for (int64_t d = 0; d < axis; ++d) {
      if (shape[d] != 1) return false;
    }
    return true;
  };
  if (GetOpInfo(s.op).effect == MemoryEffect::kView) {
    const Placement& a = where[s.operands[0]];
    const Placement& r = where[s.results[0]];
    if (a.space == r.space && a.offset == r.offset) return absl::OkStatus();
  } else if (s.op == OpKind::kConcat && outer_is_one(p.value(s.results[0]).shape, s.Int("axis"))) {
    Placement at = where[s.results[0]];
    bool ok = true;
    for (ValueId x : s.operands) {
      ok = ok && where[x].space == at.space && where[x].offset == at.offset;
      at.offset += where[x].bytes;
    }
    if (ok) return absl::OkStatus();
  } else if (s.op == OpKind::kSplit && outer_is_one(p.value(s.operands[0]).shape, s.Int("axis"))) {
    Placement at = where[s.operands[0]];
    bool ok = true;
    for (ValueId r : s.results) {
      ok = ok && where[r].space == at.space && where[r].offset == at.offset;
      at.offset += where[r].bytes;
    }
    if (ok) return absl::OkStatus();
  }
  return Mismatch(absl::StrCat("statement ", s.id, " is elided but its results are not in place"));
}

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open '", path, "'"));
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}


// What the report claims, in the rebuilt program's terms, and what the steps
// below establish on the way (each uses what the ones before it read).
struct Claims {
  explicit Claims(const JsonValue& report) : r(report) {}
  const JsonValue& r;
  Program p;
  bool has_clones = false;
  int64_t alignment = 0;
  std::vector<int> index_of_id;  // statement index by id, -1: none
  std::vector<int> order, step_of;
  std::vector<Placement> where;  // by value id
  std::vector<bool> elided;
  Problem pr;
  std::vector<CheckedOverlap> overlaps;
  std::vector<std::pair<int, int>> interval;  // per buffer: first and last step
  int64_t peak = 0;

  // The statement index an id in the report names, or -1.
  int Index(const JsonValue& v) const {
    int64_t id = v.Int();
    return id >= 0 && id < static_cast<int64_t>(index_of_id.size()) ? index_of_id[id] : -1;
  }
};

// One patched region: rebuilt per patch (the same deterministic rewrite, so
// the same statement ids).
absl::Status RebuildPatchRegion(Program& p, const JsonValue& claim) {
  const std::optional<PatchRegion> region =
      RegionBetween(p, static_cast<ValueId>(At(claim, F::kPatchedInputValue).Int()),
                    static_cast<ValueId>(At(claim, F::kPatchedOutputValue).Int()));
  if (!region || region->statements != Ids(At(claim, F::kPatchedStatements))) return Mismatch("the patch region is not one");
  const JsonValue& grid = At(claim, F::kPatchedGrid);
  if (grid.array.size() != 2) return Mismatch("bad patch grid");
  const PatchGrid patch_grid{grid.array[0].Int(), grid.array[1].Int(), At(claim, F::kPatchedReuse).boolean,
                             At(claim, F::kPatchedReuseAll).boolean};
  auto made = ApplyPatches(p, *region, patch_grid);
  if (!made.ok()) return Mismatch(std::string(made.status().message()));
  if (made->statements != Ids(At(claim, F::kPatchedPatchStatements)) ||
      made->patched_macs - made->region_macs != At(claim, F::kPatchedExtraMacs).Int()) {
    return Mismatch("the patch statements or their extra MACs do not match the rewrite");
  }
  return absl::OkStatus();
}

// Patches: every claimed region in turn, the first being the report's
// `region`; everything after is checked on the patched program.
absl::Status RebuildPatches(Program& p, const JsonValue& patches) {
  const JsonValue& regions = At(patches, F::kPatchesRegions);
  if (!At(patches, F::kPatchesApplied).boolean) {
    return regions.array.empty() ? absl::OkStatus() : Mismatch("patch regions listed but none applied");
  }
  if (regions.array.empty()) return Mismatch("patches applied but no region listed");
  const JsonValue& first = regions.array[0];
  const JsonValue& region_json = At(patches, F::kPatchesRegion);
  const JsonValue& grid = At(patches, F::kPatchesGrid);
  if (At(region_json, F::kRegionInputValue).Int() != At(first, F::kPatchedInputValue).Int() ||
      At(region_json, F::kRegionOutputValue).Int() != At(first, F::kPatchedOutputValue).Int() ||
      Ids(At(region_json, F::kRegionStatements)) != Ids(At(first, F::kPatchedStatements)) ||
      grid.array.size() != 2 || At(first, F::kPatchedGrid).array.size() != 2 ||
      grid.array[0].Int() != At(first, F::kPatchedGrid).array[0].Int() ||
      grid.array[1].Int() != At(first, F::kPatchedGrid).array[1].Int() ||
      Ids(At(patches, F::kPatchesPatchStatements)) != Ids(At(first, F::kPatchedPatchStatements)) ||
      At(patches, F::kPatchesExtraMacs).Int() != At(first, F::kPatchedExtraMacs).Int()) {
    return Mismatch("the first patch region differs from the report's region");
  }
  for (const JsonValue& claim : regions.array) OC_RETURN_IF_ERROR(RebuildPatchRegion(p, claim));
  return absl::OkStatus();
}

// Concat operands copied into their slices: the same rewrite, so the same
// statement and value ids.
absl::Status RebuildConcatCopies(Program& p, const JsonValue& copies) {
  for (const JsonValue& c : copies.array) {
    auto made = CopyConcatOperand(p, static_cast<int32_t>(At(c, F::kCopyConcat).Int()),
                                  static_cast<int>(At(c, F::kCopyOperand).Int()));
    if (!made.ok()) return Mismatch(std::string(made.status().message()));
    if (made->statement != At(c, F::kCopyStatement).Int() || made->value != At(c, F::kCopyValue).Int()) {
      return Mismatch("a concat copy does not match its statement or value id");
    }
  }
  return absl::OkStatus();
}

// Selective recompute: rebuild the claimed clones (same op, attributes and
// operands as their original, so they compute the same bits); everything
// after is then checked on that program.
absl::Status RebuildClones(Program& p, const JsonValue& clones) {
  for (const JsonValue& c : clones.array) {
    auto made = CloneForReaders(p, static_cast<int32_t>(At(c, F::kCloneCloneOf).Int()),
                                Ids(At(c, F::kCloneReaders)));
    if (!made.ok()) return Mismatch(std::string(made.status().message()));
    if (made->statement != At(c, F::kCloneStatement).Int() || made->value != At(c, F::kCloneValue).Int() ||
        made->original != At(c, F::kCloneOriginal).Int()) {
      return Mismatch("a recompute clone does not match its statement or value id");
    }
  }
  return absl::OkStatus();
}

// --quantized-io: the report's 8-bit inputs and outputs are the rebuilt
// program's, in order, with the same type and zero point and the scale to the
// report's six digits.
absl::Status CheckQuantizedIo(const Program& p, const JsonValue& records) {
  size_t k = 0;
  for (const bool input : {true, false}) {
    const std::vector<ValueId>& values = input ? p.inputs() : p.outputs();
    for (size_t i = 0; i < values.size(); ++i) {
      const Value& v = p.value(values[i]);
      if (!IsQuantizedIo(v)) continue;
      if (k >= records.array.size()) return Mismatch("quantized_io leaves out an 8-bit input or output");
      const JsonValue& e = records.array[k++];
      const double scale = v.quant->scales[0];
      if (At(e, F::kQioKind).string != (input ? "input" : "output") ||
          At(e, F::kQioIndex).Int() != static_cast<int64_t>(i) || At(e, F::kQioName).string != v.name ||
          At(e, F::kQioType).string != (v.dtype == DType::kI8 ? "int8" : "uint8") ||
          At(e, F::kQioZeroPoint).Int() != v.quant->zero_points[0] ||
          std::abs(At(e, F::kQioScale).number - scale) > 1e-5 * std::abs(scale)) {
        return Mismatch(absl::StrCat("quantized_io entry ", k - 1, " differs from the program's"));
      }
    }
  }
  if (k != records.array.size()) return Mismatch("quantized_io names more inputs and outputs than are 8-bit");
  return absl::OkStatus();
}

// The program the report is about: the model imported with the report's
// dimensions, the IR passes as the compiler ran them (fuse-qdq depends on
// where the inputs live), then the claimed patches and clones.
absl::Status RebuildProgram(Claims& c, const std::string& model_path) {
  ImportOptions import_options;
  for (const auto& [dim, value] : At(c.r, F::kDimValues).object) {
    if (value.kind != JsonValue::Kind::kNumber || value.Int() < 1) return Mismatch("bad dim_values");
    import_options.dim_values[dim] = value.Int();
  }
  PipelineState rewritten;
  OC_ASSIGN_OR_RETURN(rewritten.program, ImportOnnxFile(model_path, import_options));
  rewritten.memory.aliases.io_in_arena = At(c.r, F::kIoInArena).boolean;
  const JsonValue& quantized_io = At(c.r, F::kQuantizedIo);
  if (!quantized_io.array.empty()) {
    OC_RETURN_IF_ERROR(ConvertQuantizedIo(rewritten.program, rewritten.stats));
  }
  OC_RETURN_IF_ERROR(CheckQuantizedIo(rewritten.program, quantized_io));
  std::vector<std::string> rewrites = DefaultPipeline();
  if (At(c.r, F::kLayout).string == "nhwc") rewrites.push_back("channels-last");
  OC_RETURN_IF_ERROR(RunPipeline(rewritten, rewrites));
  c.p = std::move(rewritten.program);
  OC_RETURN_IF_ERROR(RebuildConcatCopies(c.p, At(c.r, F::kConcatCopies)));
  OC_RETURN_IF_ERROR(RebuildPatches(c.p, At(c.r, F::kPatches)));
  const JsonValue& clones = At(At(c.r, F::kRecompute), F::kRecomputeClones);
  OC_RETURN_IF_ERROR(RebuildClones(c.p, clones));
  c.has_clones = !clones.array.empty();
  return absl::OkStatus();
}

// 1. The order: every statement once (dependencies first: CheckDependencies).
absl::Status ReadOrder(Claims& c) {
  const auto& stmts = c.p.statements();
  auto by_id = [](const Statement& a, const Statement& b) { return a.id < b.id; };
  c.index_of_id.assign(stmts.empty() ? 0 : 1 + std::max_element(stmts.begin(), stmts.end(), by_id)->id, -1);
  for (size_t i = 0; i < stmts.size(); ++i) c.index_of_id[stmts[i].id] = static_cast<int>(i);
  const JsonValue& order_json = At(c.r, F::kOrder);
  if (order_json.array.size() != stmts.size()) return Mismatch("the order does not list every statement");
  c.step_of.assign(stmts.size(), -1);
  for (const JsonValue& v : order_json.array) {
    int i = c.Index(v);
    if (i < 0 || c.step_of[i] >= 0) return Mismatch("the order names an unknown or repeated statement");
    c.step_of[i] = static_cast<int>(c.order.size());
    c.order.push_back(i);
  }
  return absl::OkStatus();
}

// Placements and elided statements, as claimed; then checked by simulation.
absl::Status ReadPlacements(Claims& c) {
  const Program& p = c.p;
  c.where.assign(p.num_values(), Placement());
  for (const JsonValue& v : At(c.r, F::kValues).array) {
    int64_t id = At(v, F::kValueId).Int();
    if (id < 0 || id >= static_cast<int64_t>(p.num_values())) return Mismatch("unknown value");
    const std::string& space = At(v, F::kValueSpace).string;
    const int index = static_cast<int>(At(v, F::kValueIndex).Int());
    Placement& pl = c.where[id];
    pl.space = space == "arena" ? 0 : space == "input" ? 1 + index : space == "streamed" ? 2001 + index : 1001 + index;
    if (space == "streamed" && (index != At(c.r, F::kStreamInput).Int() || p.inputs()[index] != id)) {
      return Mismatch("a value other than the stream_input is streamed");
    }
    pl.offset = At(v, F::kValueOffset).Int();
    pl.bytes = At(v, F::kValueBytes).Int();
    if (pl.offset < 0 || pl.bytes != p.value(id).ByteSize()) return Mismatch("a value has a bad placement");
  }
  for (const Value& v : p.values()) {
    if (!v.IsConstant() && c.where[v.id].space < 0) return Mismatch("a value has no placement");
  }
  c.elided.assign(p.statements().size(), false);
  for (const JsonValue& e : At(c.r, F::kElidedStatements).array) {
    int i = c.Index(e);
    if (i < 0) return Mismatch("an elided statement is unknown");
    c.elided[i] = true;
    OC_RETURN_IF_ERROR(CheckElision(p, p.statements()[i], c.where));
  }
  return absl::OkStatus();
}

// The fast kernels' scratch: each claim must name the kernel a statement
// can run with scratch (the band, the column), with that kernel's size.
absl::Status CheckKernelScratch(Claims& c) {
  auto& stmts = c.p.statements();
  for (const JsonValue& k : At(c.r, F::kKernelScratch).array) {
    const int i = c.Index(At(k, F::kScratchStatement));
    if (i < 0) return Mismatch("a kernel scratch names an unknown statement");
    const ScratchKernel fast = FastKernelWithScratch(c.p, stmts[i]);
    const int64_t bytes = fast.bytes;
    const int64_t claimed = At(k, F::kScratchBytes).Int();
    const std::string& kernel = At(k, F::kScratchKernel).string;
    if (kernel != fast.name || bytes == 0 || claimed != bytes || stmts[i].scratch_bytes != 0) {
      return Mismatch(absl::StrCat("statement ", stmts[i].id, " cannot have ", claimed, " bytes of ", kernel,
                                   " scratch"));
    }
    stmts[i].scratch_bytes = bytes;
  }
  return absl::OkStatus();
}

// Where the graph's inputs and outputs live: all in the arena with
// io_in_arena, all in caller buffers without; total_ram_bytes adds the latter.
absl::Status CheckCallerIo(const Claims& c) {
  const bool io_in_arena = At(c.r, F::kIoInArena).boolean;
  const std::vector<Placement>& where = c.where;
  std::map<int, int64_t> caller_io;
  const int64_t streamed = At(c.r, F::kStreamInput).Int();
  if (streamed >= static_cast<int64_t>(c.p.inputs().size())) return Mismatch("stream_input names no graph input");
  if (streamed >= 0) {
    if (const absl::Status st = CheckStreamableInput(c.p, static_cast<int>(streamed)); !st.ok()) {
      return Mismatch(std::string(st.message()));
    }
    if (where[c.p.inputs()[streamed]].space != 2001 + streamed) return Mismatch("the stream_input is not streamed");
  }
  for (ValueId v : c.p.inputs()) {
    if (where[v].space > 2000) continue;  // streamed: in no memory
    if ((where[v].space == 0) != io_in_arena) return Mismatch("a graph input is not where io_in_arena says");
    if (where[v].space != 0) caller_io[where[v].space] = where[v].bytes;
  }
  for (ValueId v : c.p.outputs()) {
    if (io_in_arena && where[v].space != 0) return Mismatch("a graph output is not in the arena");
    if (where[v].space != 0) caller_io[where[v].space] = where[v].bytes;
  }
  int64_t caller_io_bytes = 0;
  for (const auto& [space, bytes] : caller_io) caller_io_bytes += bytes;
  const int64_t claimed_io = At(c.r, F::kCallerIoBytes).Int();
  const int64_t claimed_total = At(c.r, F::kTotalRamBytes).Int();
  if (claimed_io != caller_io_bytes || claimed_total != At(c.r, F::kArenaBytes).Int() + caller_io_bytes) {
    return Mismatch(absl::StrCat("caller_io_bytes is ", claimed_io, " and total_ram_bytes ", claimed_total,
                                 " but the placements give ", caller_io_bytes, " and the arena plus that"));
  }
  return absl::OkStatus();
}

// The buffers and the overlap contracts, checked against the program; then
// that the order runs every statement after its inputs.
absl::Status CheckBuffersAndDependencies(Claims& c) {
  OC_ASSIGN_OR_RETURN(c.pr, BuildProblem(c.p, c.r, c.alignment, c.elided, At(c.r, F::kIoInArena).boolean));
  OC_ASSIGN_OR_RETURN(c.overlaps, CheckOverlaps(c.p, c.r, c.alignment, c.index_of_id, c.pr));
  for (int s = 0; s < c.pr.n; ++s) {
    for (int d : c.pr.preds[s]) {
      if (c.step_of[d] > c.step_of[s]) return Mismatch("the order runs a statement before its inputs");
    }
  }
  return absl::OkStatus();
}

// 2. The peak of that order, with this file's own liveness rule.
absl::Status CheckPeak(Claims& c, std::ostream& log) {
  const Problem& pr = c.pr;
  std::vector<int64_t> live(pr.n, 0);
  for (const auto& b : pr.bufs) {
    int first = pr.n, last = -1;
    for (int w : b.writers) first = std::min(first, c.step_of[w]);
    for (int rd : b.readers) last = std::max(last, c.step_of[rd]);
    last = std::max(last, first);
    c.interval.push_back({first, last});
    for (int s = first; s <= last; ++s) live[s] += b.bytes;
  }
  for (int s = 0; s < pr.n; ++s) {
    live[s] += pr.scratch[c.order[s]];
    c.peak = std::max(c.peak, live[s]);
  }
  const int64_t claimed = At(c.r, F::kPeakBytes).Int();
  if (c.peak != claimed) {
    return Mismatch(absl::StrCat("peak_bytes is ", claimed, " but the order's peak is ", c.peak));
  }
  log << "verify: order of " << pr.n << " statements is valid, peak " << c.peak << " bytes\n";
  return absl::OkStatus();
}

// 3. The lower bound, recomputed from the witness.
absl::Status CheckBound(const Claims& c, std::ostream& log) {
  const Problem& pr = c.pr;
  const int64_t lb = At(c.r, F::kLowerBoundBytes).Int();
  const JsonValue& w = At(c.r, F::kWitness);
  const std::string kind = At(w, F::kWitnessKind).string;
  std::vector<int> nodes;
  for (const JsonValue& v : At(w, F::kWitnessStatements).array) {
    if (c.Index(v) < 0) return Mismatch("the witness names an unknown statement");
    nodes.push_back(c.Index(v));
  }
  int64_t recomputed = 0;
  if (kind == "node" && nodes.size() == 1) {
    recomputed = MinLiveAt(pr, nodes[0], {}, {});
  } else if (kind == "pair" && nodes.size() == 2) {
    int u = nodes[0], v = nodes[1];
    recomputed = std::min(std::max(MinLiveAt(pr, v, {u}, {}), MinLiveAt(pr, u, {}, {v})),
                          std::max(MinLiveAt(pr, u, {v}, {}), MinLiveAt(pr, v, {}, {u})));
  } else if (lb != 0) {
    return Mismatch("the witness has an unknown kind");
  }
  if (recomputed != lb) {
    return Mismatch(absl::StrCat("lower_bound_bytes is ", lb, " but the witness gives ", recomputed));
  }
  // The minimizing ideal reported for a node bound reaches the bound.
  const JsonValue& cuts = At(w, F::kWitnessCuts);
  if (kind == "node" && cuts.array.size() == 1) {
    std::vector<bool> in_ideal(pr.n, false);
    for (const JsonValue& v : At(cuts.array[0], F::kCutIdeal).array) {
      if (c.Index(v) < 0) return Mismatch("a witness ideal names an unknown statement");
      in_ideal[c.Index(v)] = true;
    }
    OC_ASSIGN_OR_RETURN(int64_t at, LiveWithIdeal(pr, nodes[0], in_ideal));
    if (at != lb) return Mismatch("the witness ideal does not reach the bound");
  }
  if (lb > c.peak) return Mismatch("the lower bound exceeds the peak of an actual order");
  // The order bound says nothing about other choices of what to recompute.
  if (At(c.r, F::kCertifiedOptimal).boolean != (lb == c.peak && !c.has_clones)) {
    return Mismatch("certified_optimal is wrong");
  }
  log << "verify: lower bound " << lb << " bytes (" << kind << ") recomputed; "
      << (c.has_clones ? "it bounds the orders of this recompute program only, no certificate"
          : lb == c.peak ? "the order is certified optimal"
                         : absl::StrCat("gap ", c.peak - lb, " bytes"))
      << "\n";
  return absl::OkStatus();
}

// Every value lies inside the bytes the buffers holding it account for
// together (several: the parts of a concat buffer, which must then be
// contiguous under it); every arena value belongs to a buffer.
absl::Status CheckValuesInBuffers(const Claims& c, const std::vector<int64_t>& offset) {
  const std::vector<Placement>& where = c.where;
  std::vector<bool> accounted(c.p.num_values(), false);
  std::map<int64_t, std::vector<std::pair<int64_t, int64_t>>> spans_of_value;
  for (size_t i = 0; i < c.pr.bufs.size(); ++i) {
    for (const JsonValue& h : At(At(c.r, F::kBuffers).array[i], F::kBufferHolds).array) {
      if (where[h.Int()].space != 0) {
        return Mismatch(absl::StrCat("value ", h.Int(), " lies outside its buffer"));
      }
      spans_of_value[h.Int()].push_back({offset[i], offset[i] + c.pr.bufs[i].bytes});
      accounted[h.Int()] = true;
    }
  }
  for (auto& [v, spans] : spans_of_value) {
    std::sort(spans.begin(), spans.end());
    const Placement& pl = where[v];
    int64_t covered = pl.offset;  // bytes of v below this are inside a holding buffer
    for (const auto& [lo, hi] : spans) {
      if (lo > covered) break;
      covered = std::max(covered, hi);
    }
    if (spans.front().first > pl.offset || covered < pl.offset + pl.bytes) {
      return Mismatch(absl::StrCat("value ", v, " lies outside its buffer"));
    }
  }
  for (const Value& v : c.p.values()) {
    if (!v.IsConstant() && where[v.id].space == 0 && !accounted[v.id] && v.ByteSize() > 0) {
      return Mismatch(absl::StrCat("arena value ", v.id, " belongs to no buffer"));
    }
  }
  return absl::OkStatus();
}

// A contract's buffers may share bytes: output exactly `displacement` below
// the input, live together at the contract's step only.
bool ContractAllows(const Claims& c, const std::vector<int64_t>& offset, size_t a, size_t b) {
  for (const CheckedOverlap& o : c.overlaps) {
    if (!((o.input_buf == static_cast<int>(a) && o.output_buf == static_cast<int>(b)) ||
          (o.input_buf == static_cast<int>(b) && o.output_buf == static_cast<int>(a)))) {
      continue;
    }
    return offset[o.output_buf] == offset[o.input_buf] - o.displacement &&
           c.where[o.input].space == 0 && c.where[o.input].offset == offset[o.input_buf] &&
           c.where[o.output].space == 0 && c.where[o.output].offset == offset[o.output_buf] &&
           c.interval[o.input_buf].second == c.step_of[o.statement] &&
           c.interval[o.output_buf].first == c.step_of[o.statement];
  }
  return false;
}

// 4. The arena plan: inside the arena, aligned, no overlap while live, and
// every read finds the bytes it means (aliases are safe).
absl::Status CheckArenaPlan(const Claims& c, std::ostream& log) {
  const std::vector<Problem::Buf>& bufs = c.pr.bufs;
  const int64_t arena = At(c.r, F::kArenaBytes).Int();
  std::vector<int64_t> offset(bufs.size(), -1);
  for (size_t i = 0; i < bufs.size(); ++i) {
    offset[i] = At(At(c.r, F::kBuffers).array[i], F::kBufferOffset).Int();
  }
  OC_RETURN_IF_ERROR(CheckValuesInBuffers(c, offset));
  std::vector<bool> overlap_ok(c.pr.n, false);
  for (const CheckedOverlap& o : c.overlaps) {
    overlap_ok[o.statement] = ContractAllows(c, offset, o.input_buf, o.output_buf);
  }
  OC_RETURN_IF_ERROR(Simulator(c.p, c.where, c.elided, overlap_ok).Run(c.order, arena));
  for (size_t i = 0; i < bufs.size(); ++i) {
    if (offset[i] < 0) return Mismatch(absl::StrCat("no offset for buffer of value ", bufs[i].root));
    if (offset[i] % c.alignment || offset[i] + bufs[i].bytes > arena) {
      return Mismatch(absl::StrCat("buffer of value ", bufs[i].root, " is misaligned or outside the arena"));
    }
    for (size_t j = 0; j < i; ++j) {
      const auto& [first_i, last_i] = c.interval[i];
      const auto& [first_j, last_j] = c.interval[j];
      bool together = first_i <= last_j && first_j <= last_i;
      bool overlap = offset[i] < offset[j] + bufs[j].bytes && offset[j] < offset[i] + bufs[i].bytes;
      if (together && overlap && !ContractAllows(c, offset, i, j)) {
        return Mismatch(absl::StrCat("buffers of values ", bufs[i].root, " and ", bufs[j].root,
                                     " overlap while both are live"));
      }
    }
  }
  if (arena < c.peak) return Mismatch("the arena is smaller than the peak");
  log << "verify: arena plan of " << arena << " bytes is valid (" << bufs.size() << " buffers)\n";
  return absl::OkStatus();
}

// 5. The arena's lower bound, re-derived from the buffers as placed: the
// parts of one concat buffer and the two sides of an overlap contract keep
// fixed offsets from each other (the plan was just checked to), so they are
// groups at those offsets; the statements' scratch lives one step. The
// claimed bound and the claim that the arena meets it must agree.
absl::Status CheckArenaBound(const Claims& c, std::ostream& log) {
  const std::vector<Problem::Buf>& bufs = c.pr.bufs;
  std::vector<int> group(bufs.size());
  for (size_t i = 0; i < bufs.size(); ++i) group[i] = static_cast<int>(i);
  std::function<int(int)> find = [&](int i) { return group[i] == i ? i : group[i] = find(group[i]); };
  // The parts of one buffer hold the value that spans them all (the concat's).
  std::map<ValueId, int> holder;
  const JsonValue& entries = At(c.r, F::kBuffers);
  for (size_t i = 0; i < bufs.size(); ++i) {
    for (const JsonValue& v : At(entries.array[i], F::kBufferHolds).array) {
      auto [at, fresh] = holder.insert({static_cast<ValueId>(v.Int()), static_cast<int>(i)});
      if (!fresh) group[find(static_cast<int>(i))] = find(at->second);
    }
  }
  for (const CheckedOverlap& o : c.overlaps) group[find(o.input_buf)] = find(o.output_buf);
  std::map<int, int64_t> lowest;  // group -> its lowest offset
  std::vector<int64_t> offset(bufs.size());
  for (size_t i = 0; i < bufs.size(); ++i) {
    offset[i] = At(entries.array[i], F::kBufferOffset).Int();
    auto [at, fresh] = lowest.insert({find(static_cast<int>(i)), offset[i]});
    if (!fresh) at->second = std::min(at->second, offset[i]);
  }
  std::map<int, int> members;
  for (size_t i = 0; i < bufs.size(); ++i) ++members[find(static_cast<int>(i))];
  std::vector<IntervalItem> items;
  for (size_t i = 0; i < bufs.size(); ++i) {
    const int g = find(static_cast<int>(i));
    const bool grouped = members[g] > 1;
    items.push_back({bufs[i].bytes, c.interval[i].first, c.interval[i].second, grouped ? g : -1,
                     grouped ? offset[i] - lowest[g] : 0});
  }
  for (int s = 0; s < c.pr.n; ++s) {
    if (c.pr.scratch[c.order[s]] > 0) items.push_back({c.pr.scratch[c.order[s]], s, s});
  }
  const int64_t bound = std::max(c.peak, GroupExtentBound(items).bytes);
  const int64_t arena = At(c.r, F::kArenaBytes).Int();
  if (At(c.r, F::kArenaLowerBoundBytes).Int() != bound) {
    return Mismatch(absl::StrCat("arena_lower_bound_bytes is ", At(c.r, F::kArenaLowerBoundBytes).Int(),
                                 " but the buffers give ", bound));
  }
  if (At(c.r, F::kArenaCertified).boolean != (arena == bound) ||
      (At(c.r, F::kArenaCertified).boolean && !At(c.r, F::kArenaProvenOptimal).boolean)) {
    return Mismatch("arena_certified disagrees with the arena and its bound");
  }
  log << "verify: arena lower bound " << bound << " bytes"
      << (arena == bound ? ": the arena is certified optimal for this order" : "") << "\n";
  return absl::OkStatus();
}

}  // namespace

absl::Status VerifyReport(const std::string& report_path, const std::string& model_path,
                          std::ostream& log) {
  OC_ASSIGN_OR_RETURN(std::string text, ReadFile(report_path));
  OC_ASSIGN_OR_RETURN(JsonValue r, ParseJson(text));
  if (At(r, F::kSchemaVersion).Int() != 1) return Mismatch("unknown schema_version");
  Claims c(r);
  OC_RETURN_IF_ERROR(RebuildProgram(c, model_path));
  c.alignment = At(r, F::kAlignment).Int();
  if (c.alignment <= 0) return Mismatch("bad alignment");
  OC_RETURN_IF_ERROR(ReadOrder(c));
  OC_RETURN_IF_ERROR(ReadPlacements(c));
  OC_RETURN_IF_ERROR(CheckKernelScratch(c));
  OC_RETURN_IF_ERROR(CheckCallerIo(c));
  OC_RETURN_IF_ERROR(CheckBuffersAndDependencies(c));
  OC_RETURN_IF_ERROR(CheckPeak(c, log));
  OC_RETURN_IF_ERROR(CheckBound(c, log));
  OC_RETURN_IF_ERROR(CheckArenaPlan(c, log));
  OC_RETURN_IF_ERROR(CheckArenaBound(c, log));
  return CheckMemoryRegions(c.p, r, c.elided, log);
}

}  // namespace oc
