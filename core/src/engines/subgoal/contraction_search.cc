// A query over the contraction hierarchy (contraction.h): the ends joined to
// the subgoals they reach directly, A* upwards from both sides (octile and
// landmark bounds), the meeting's shortcuts unpacked into subgoal edges,
// those refined into cells.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "engines/subgoal/contraction.h"
#include "search/path_tools.h"
#include "search/search_loop.h"
#include "search/search_state.h"

namespace gridstar::internal {

struct ContractionScratch final : EngineScratch {
  struct Record {
    double distance;
    uint32_t parent;  // kFromEnd for a node joined to the side's end.
    uint32_t stamp;
  };
  struct Entry {
    double key;  // Distance plus the bound on what is left to the other end.
    double distance;
    uint32_t node;
    bool operator>(const Entry& o) const { return key > o.key; }
  };
  static constexpr uint32_t kFromEnd = UINT32_MAX;
  // [0]: from the start, [1]: from the goal.
  std::vector<Record> records[2];
  std::vector<Entry> heaps[2];
  std::vector<uint32_t> seeds[2];  // The nodes each end is joined to.
  uint32_t open = 0, settled = 1;
  std::vector<uint32_t> nodes;  // The unpacked node path.
  std::vector<uint32_t> chain;  // A side's nodes, from the meeting.
  std::vector<std::pair<uint32_t, uint32_t>> unpack;  // Arcs left to unpack.

  void Begin(size_t n) {
    for (auto& r : records) {
      if (r.size() < n) r.resize(n, Record{0, 0, 0});
    }
    if (settled >= UINT32_MAX - 2) {
      for (auto& r : records) {
        for (Record& x : r) x.stamp = 0;
      }
      open = 0;
    }
    open += 2;
    settled = open + 1;
    for (int side = 0; side < 2; ++side) {
      heaps[side].clear();
      seeds[side].clear();
    }
  }

  size_t MemoryBytes() const override {
    return (records[0].capacity() + records[1].capacity()) * sizeof(Record) +
           (heaps[0].capacity() + heaps[1].capacity()) * sizeof(Entry) +
           (seeds[0].capacity() + seeds[1].capacity()) * sizeof(uint32_t) +
           (nodes.capacity() + chain.capacity()) * sizeof(uint32_t) +
           unpack.capacity() * sizeof(std::pair<uint32_t, uint32_t>);
  }
};

namespace {

using Scratch = ContractionScratch;

// Labels closer than this are the same length (contraction.h).
constexpr double kTie = 1e-9;

// Appends the pieces of the arc between ranks a and b (either may be the
// lower) as the ranks after a, in order: its subgoal edges, a shortcut
// marked straight kept whole.
void Unpack(const ContractionHierarchy& ch, uint32_t a, uint32_t b,
            Scratch& s) {
  s.unpack.clear();
  s.unpack.push_back({a, b});
  while (!s.unpack.empty()) {
    const auto [x, y] = s.unpack.back();
    s.unpack.pop_back();
    const ContractionHierarchy::Arc* arc =
        x < y ? ch.FindArc(x, y) : ch.FindArc(y, x);
    if (arc->RefinesStraight()) {
      s.nodes.push_back(y);
      continue;
    }
    // x .. via first: pushed last.
    const uint32_t via = arc->Via();
    s.unpack.push_back({via, y});
    s.unpack.push_back({x, via});
  }
}

}  // namespace

void RunContraction(const GridMap& map, const ContractionHierarchy& ch,
                    const SearchParams& p, SearchState& state, PathResult* r) {
  const SubgoalGraph& graph = ch.graph();
  // A budget that runs out before the answer: partial answers need a search
  // that closes in on the goal, the subgoal graph's own, which answers.
  auto subgoal_instead = [&] {
    r->cells.clear();
    r->algorithm = Algorithm::kSubgoal;
    state.BeginSearch(map);
    RunSubgoal(map, graph, p, state, r);
  };
  const bool budgeted = Budgeted(p);
  Scratch& s = state.Scratch<Scratch>(Algorithm::kContraction);
  const uint32_t n = graph.node_count();
  s.Begin(n);
  const uint32_t pw = static_cast<uint32_t>(map.padded_width());
  const int32_t ends_x[2] = {static_cast<int32_t>(p.start % pw),
                             static_cast<int32_t>(p.goal % pw)};
  const int32_t ends_y[2] = {static_cast<int32_t>(p.start / pw),
                             static_cast<int32_t>(p.goal / pw)};
  const uint32_t ends[2] = {p.start, p.goal};
  uint64_t generated = 0;

  // Each end joined to its subgoals (itself when it is one); the start
  // also straight to the goal when it reaches it directly.
  double best = std::numeric_limits<double>::infinity();
  uint32_t meet = UINT32_MAX;  // UINT32_MAX with a finite best: direct.
  auto seed = [&](int side, uint32_t v, double distance) {
    Scratch::Record& rec = s.records[side][v];
    if (rec.stamp == s.open) {
      rec.distance = std::min(rec.distance, distance);  // Scanned twice.
      return;
    }
    rec = Scratch::Record{distance, Scratch::kFromEnd, s.open};
    s.seeds[side].push_back(v);
  };
  for (int side = 0; side < 2; ++side) {
    const int64_t node = graph.NodeOf(ends[side]);
    if (node >= 0) {
      seed(side, ch.RankOf(static_cast<uint32_t>(node)), 0);
      continue;
    }
    const bool target = side == 0 && graph.NodeOf(p.goal) < 0;
    const bool direct = graph.Scan(
        map, ends[side], target ? p.goal : UINT32_MAX, [&](uint32_t v) {
          seed(side, ch.RankOf(v),
               OctileSteps(ends_x[side], ends_y[side], graph.XOf(v),
                           graph.YOf(v)));
        });
    if (direct) {
      // No path is shorter than the octile distance: that is the answer,
      // the goal's side is not scanned and nothing is searched.
      best = OctileSteps(ends_x[0], ends_y[0], ends_x[1], ends_y[1]);
      s.seeds[0].clear();
      break;
    }
  }

  // Each end's landmark distances: a subgoal's own, else the least through
  // the subgoals it is joined to (as the subgoal graph's search has them).
  const int landmarks = graph.landmark_count();
  float end_landmarks[2][kSubgoalLandmarks];
  int used[2][kSubgoalLandmarks];
  int used_count[2] = {0, 0};
  for (int side = 0; side < 2; ++side) {
    float least[kSubgoalLandmarks];
    std::fill(least, least + kSubgoalLandmarks,
              std::numeric_limits<float>::infinity());
    auto fold = [&](auto count) {
      for (const uint32_t v : s.seeds[side]) {
        const float* l = graph.Landmarks(ch.NodeOfRank(v));
        const double step = s.records[side][v].distance;
        for (int k = 0; k < count; ++k) {
          least[k] = std::min(least[k], static_cast<float>(l[k] + step));
        }
      }
    };
    // A fixed count (the usual one) lets the compiler unroll and vectorise.
    if (landmarks == kSubgoalLandmarks) {
      fold(std::integral_constant<int, kSubgoalLandmarks>());
    } else {
      fold(landmarks);
    }
    for (int k = 0; k < landmarks; ++k) {
      if (std::isfinite(least[k])) {
        end_landmarks[side][used_count[side]] = least[k];
        used[side][used_count[side]++] = k;
      }
    }
  }

  // A* upwards: each side's heuristic is the larger of the octile distance
  // to the other side's end and the landmarks' differential bound to it,
  // less its float error (admissible; consistent up to that rounding, which
  // reopening a settled node reached cheaper absorbs).
#if defined(__SSE2__)
  // All eight landmarks at once: the same bound in float lanes, with a
  // larger allowance for the float arithmetic (each operation within 2^-24
  // of the exact result), and 0 in the lanes of landmarks the end does not
  // reach (h is never below 0).
  const bool lanes = landmarks == kSubgoalLandmarks;
  __m128 lane_b[2][2], lane_mask[2][2];
  if (lanes) {
    for (int side = 0; side < 2; ++side) {
      alignas(16) float b[kSubgoalLandmarks] = {};
      alignas(16) uint32_t mask[kSubgoalLandmarks] = {};
      for (int i = 0; i < used_count[side]; ++i) {
        b[used[side][i]] = end_landmarks[side][i];
        mask[used[side][i]] = UINT32_MAX;
      }
      for (int half = 0; half < 2; ++half) {
        lane_b[side][half] = _mm_load_ps(b + 4 * half);
        lane_mask[side][half] = _mm_castsi128_ps(
            _mm_load_si128(reinterpret_cast<const __m128i*>(mask + 4 * half)));
      }
    }
  }
  const __m128 abs_mask = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
  const __m128 lane_error = _mm_set1_ps(3e-7f);
#endif
  auto estimate = [&](int side, uint32_t v) {
    const int other = 1 - side;
    double h =
        OctileSteps(ch.XOfRank(v), ch.YOfRank(v), ends_x[other], ends_y[other]);
    const float* l = graph.Landmarks(ch.NodeOfRank(v));
#if defined(__SSE2__)
    if (lanes) {
      __m128 best_lane = _mm_setzero_ps();
      for (int half = 0; half < 2; ++half) {
        const __m128 a = _mm_loadu_ps(l + 4 * half);
        const __m128 b = lane_b[other][half];
        const __m128 gap = _mm_and_ps(abs_mask, _mm_sub_ps(a, b));
        const __m128 bound = _mm_and_ps(
            lane_mask[other][half],
            _mm_sub_ps(gap, _mm_mul_ps(lane_error, _mm_add_ps(a, b))));
        // A NaN lane (never expected) keeps the running maximum.
        best_lane = _mm_max_ps(bound, best_lane);
      }
      best_lane = _mm_max_ps(best_lane, _mm_movehl_ps(best_lane, best_lane));
      best_lane =
          _mm_max_ss(best_lane, _mm_shuffle_ps(best_lane, best_lane, 1));
      const double bound = static_cast<double>(_mm_cvtss_f32(best_lane)) - 1e-5;
      return bound > h ? bound : h;
    }
#endif
    for (int i = 0; i < used_count[other]; ++i) {
      const double a = l[used[other][i]], b = end_landmarks[other][i];
      // Float distances are within 2^-24 of the exact ones, each.
      const double bound = std::fabs(a - b) - 1.2e-7 * (a + b) - 1e-6;
      if (bound > h) h = bound;
    }
    return h;
  };

  // Labels v with `distance` on `side` when that is new or shorter and can
  // still beat the best meeting (a key no smaller than the bound is never
  // settled, and no meeting through it is shorter); false otherwise.
  auto reach = [&](int side, uint32_t v, double distance, uint32_t parent) {
    Scratch::Record& rec = s.records[side][v];
    if ((rec.stamp == s.open || rec.stamp == s.settled) &&
        distance >= rec.distance - kTie) {
      return false;
    }
    const double key = distance + estimate(side, v);
    if (key >= best) return false;
    rec = Scratch::Record{distance, parent, s.open};
    ++generated;
    s.heaps[side].push_back({key, distance, v});
    std::push_heap(s.heaps[side].begin(), s.heaps[side].end(),
                   std::greater<>());
    return true;
  };
  for (int side = 0; side < 2; ++side) {
    std::vector<Scratch::Entry>& heap = s.heaps[side];
    for (const uint32_t v : s.seeds[side]) {
      const double distance = s.records[side][v].distance;
      heap.push_back({distance + estimate(side, v), distance, v});
    }
    std::make_heap(heap.begin(), heap.end(), std::greater<>());
    generated += s.seeds[side].size();
  }

  // Upwards from both sides, the smaller key first, until neither can beat
  // the best meeting.
  uint64_t expanded = 0;
  auto top = [&](int side) {
    return s.heaps[side].empty() ? std::numeric_limits<double>::infinity()
                                 : s.heaps[side].front().key;
  };
  while (true) {
    const double top0 = top(0), top1 = top(1);
    if (std::min(top0, top1) >= best) break;
    if (budgeted &&
        BudgetExhausted(p, expanded + 1, generated) != PartialReason::kNone) {
      subgoal_instead();
      return;
    }
    const int side = top0 <= top1 ? 0 : 1;
    std::vector<Scratch::Entry>& heap = s.heaps[side];
    std::pop_heap(heap.begin(), heap.end(), std::greater<>());
    const Scratch::Entry e = heap.back();
    heap.pop_back();
    Scratch::Record& rec = s.records[side][e.node];
    if (rec.stamp != s.open || e.distance != rec.distance) continue;
    const double distance = rec.distance;
    rec.stamp = s.settled;
    ++expanded;
    if (p.trace != nullptr)
      p.trace->push_back(graph.CellOf(ch.NodeOfRank(e.node)));
    const Scratch::Record& other = s.records[1 - side][e.node];
    if ((other.stamp == s.open || other.stamp == s.settled) &&
        distance + other.distance < best) {
      best = distance + other.distance;
      meet = e.node;
    }
    // No stall on demand: under the A* bounds a node it would skip is rarely
    // settled (Enigma: 39.0 settled a query with it, 39.7 without), and the
    // look at every arc's far end it takes cost more than that saved.
    for (const ContractionHierarchy::Arc* a = ch.ArcsBegin(e.node);
         a != ch.ArcsEnd(e.node); ++a) {
      // A meeting seen at once tightens the bound sooner (a label not
      // improved was looked at when it was set).
      if (!reach(side, a->to, distance + a->length, e.node)) continue;
      const Scratch::Record& there = s.records[1 - side][a->to];
      if ((there.stamp == s.open || there.stamp == s.settled) &&
          distance + a->length + there.distance < best) {
        best = distance + a->length + there.distance;
        meet = a->to;
      }
    }
  }

  // The node path: start side up to the meeting, then down to the goal's.
  s.nodes.clear();
  if (meet != UINT32_MAX) {
    std::vector<uint32_t>& up = s.chain;  // The start side, meeting first.
    up.clear();
    for (uint32_t v = meet;; v = s.records[0][v].parent) {
      up.push_back(v);
      if (s.records[0][v].parent == Scratch::kFromEnd) break;
    }
    s.nodes.push_back(up.back());
    for (size_t i = up.size() - 1; i > 0; --i) {
      Unpack(ch, up[i], up[i - 1], s);
    }
    for (uint32_t v = meet; s.records[1][v].parent != Scratch::kFromEnd;) {
      const uint32_t next = s.records[1][v].parent;
      Unpack(ch, v, next, s);
      v = next;
    }
  }
  std::vector<Cell>& cells = r->cells;
  cells.clear();
  cells.push_back(Cell{ends_x[0] - 1, ends_y[0] - 1});
  double steps = 0;
  bool legal = true;
  int32_t ax = ends_x[0], ay = ends_y[0];
  auto step_to = [&](int32_t bx, int32_t by) {
    if (!legal || (bx == ax && by == ay)) return;
    legal = AppendOctilePath(map.padded_costs(), map.padded_width(),
                             DiagonalPolicy::kNoCornerCutting, Cell{ax, ay},
                             Cell{bx, by}, &cells);
    steps += OctileSteps(ax, ay, bx, by);
    ax = bx;
    ay = by;
  };
  for (const uint32_t rank : s.nodes) {
    const uint32_t v = ch.NodeOfRank(rank);
    step_to(graph.XOf(v), graph.YOf(v));
  }
  step_to(ends_x[1], ends_y[1]);
  if (!legal || best == std::numeric_limits<double>::infinity()) {
    // Never expected (the ends are in one component, every edge was
    // scanned diagonal first from one of its ends); should it happen, the
    // subgoal graph's own search answers and says so.
    subgoal_instead();
    return;
  }
  r->cost = steps * map.min_cost();
  r->expanded = expanded;
  r->generated = generated;
}

}  // namespace gridstar::internal
