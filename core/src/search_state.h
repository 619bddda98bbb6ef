// Internal working memory of a SearchContext, and the pieces every search
// implementation shares: generation stamps, the two open lists (an indexed
// 4-ary heap and a radix heap), heuristics and path reconstruction.
//
// Not thread-safe (one per context). All per-cell arrays are indexed by the
// GridMap's padded index.

#ifndef GRIDSTAR_SRC_SEARCH_STATE_H_
#define GRIDSTAR_SRC_SEARCH_STATE_H_

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <vector>

#include "absl/time/clock.h"
#include "gridstar/find_path.h"
#include "gridstar/grid_map.h"
#include "gridstar/search_context.h"

namespace gridstar::internal {

inline constexpr double kSqrt2 = 1.41421356237309504880;

// One cell's search record. `stamp` says whether the record belongs to the
// current search: stamp == open_mark (on the open list) or closed_mark
// (expanded); any other value means not seen yet, whatever g holds.
struct Node {
  double g;
  uint32_t parent;
  uint32_t stamp;
};
static_assert(sizeof(Node) == 16, "Node should stay one quarter cache line");

// An indexed 4-ary min-heap of cells keyed by f, ties broken towards the
// smaller h (the deeper node), with decrease-key. Four 16-byte children fill
// one cache line, and decrease-key keeps one entry per cell, so the heap never
// holds stale duplicates. `pos` maps a cell to its slot while it is open.
//
// The key is one integer, so every comparison is a single branch-free compare:
// f >= 0, and the bit patterns of non-negative doubles order as the values
// do. Its low 12 bits are replaced by a monotone code of h, so f values within
// 2^12 ulps (a relative 1e-12) count as tied and go to the smaller h. That
// perturbs the order by less than floating-point noise already does.
class OpenList {
 public:
  static constexpr bool kLazy = false;
  struct Entry {
    uint64_t key;
    uint32_t cell;
  };

  static uint64_t MakeKey(double f, double h) {
    uint64_t fbits;
    std::memcpy(&fbits, &f, sizeof(f));
    const float hf = static_cast<float>(h);
    uint32_t hbits;
    std::memcpy(&hbits, &hf, sizeof(hf));
    // Sign (0), the 8 exponent bits and the top 3 mantissa bits of h.
    return (fbits & ~uint64_t{0xfff}) | (hbits >> 19);
  }

  void Clear() { size_ = 0; }
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  // Grows the storage to hold n entries (never shrinks).
  void Reserve(size_t n) {
    if (n <= capacity_) return;
    // Slot 0 sits 16 bytes before a 64-byte boundary, so each group of four
    // children (slots 4i+1 .. 4i+4) fills exactly one cache line.
    Storage fresh(static_cast<Entry*>(
        ::operator new((n + 3) * sizeof(Entry), std::align_val_t(kLine))));
    Entry* heap = fresh.get() + 3;
    if (size_ > 0) std::memcpy(heap, heap_, size_ * sizeof(Entry));
    storage_ = std::move(fresh);
    heap_ = heap;
    capacity_ = n;
  }
  void set_positions(uint32_t* pos) { pos_ = pos; }

  void Push(uint32_t cell, double f, double h) {
    if (size_ == capacity_) Reserve(2 * capacity_ + 64);
    heap_[size_++] = {MakeKey(f, h), cell};
    SiftUp(size_ - 1);
  }
  // REQUIRES: cell is in the heap and f is not above its current key.
  void Decrease(uint32_t cell, double f, double h) {
    const size_t i = pos_[cell];
    assert(i < size_ && heap_[i].cell == cell);
    heap_[i].key = MakeKey(f, h);
    SiftUp(i);
  }
  // Removes the least entry; *f gets its f (to within the key's 1e-12).
  // REQUIRES: !empty().
  uint32_t PopMin(double* f) {
    const uint32_t top = heap_[0].cell;
    std::memcpy(f, &heap_[0].key, sizeof(*f));
    const Entry last = heap_[--size_];
    if (size_ > 0) SiftDown(last);
    return top;
  }

 private:
  void Place(size_t i, const Entry& e) {
    heap_[i] = e;
    pos_[e.cell] = static_cast<uint32_t>(i);
  }
  void SiftUp(size_t i) {
    const Entry e = heap_[i];
    while (i > 0) {
      const size_t parent = (i - 1) / 4;
      if (e.key >= heap_[parent].key) break;
      Place(i, heap_[parent]);
      i = parent;
    }
    Place(i, e);
  }
  // Puts e into the hole at the root and sifts it down.
  void SiftDown(const Entry& e) {
    const size_t n = size_;
    const Entry* h = heap_;
    size_t i = 0;
    for (;;) {
      const size_t first = 4 * i + 1;
      if (first >= n) break;
      size_t best = first;
      if (first + 4 <= n) {
        // All four children exist: pick the least without branches.
        const size_t a = h[first + 1].key < h[first].key ? first + 1 : first;
        const size_t b =
            h[first + 3].key < h[first + 2].key ? first + 3 : first + 2;
        best = h[b].key < h[a].key ? b : a;
      } else {
        for (size_t c = first + 1; c < n; ++c) {
          if (h[c].key < h[best].key) best = c;
        }
      }
      if (h[best].key >= e.key) break;
      Place(i, h[best]);
      i = best;
    }
    Place(i, e);
  }

  static constexpr size_t kLine = 64;
  struct AlignedDelete {
    void operator()(Entry* p) const {
      ::operator delete(p, std::align_val_t(kLine));
    }
  };
  using Storage = std::unique_ptr<Entry, AlignedDelete>;
  static_assert(sizeof(Entry) == 16, "four entries per cache line");

  Storage storage_;
  Entry* heap_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
  uint32_t* pos_ = nullptr;
};

// A radix heap of (key, cell) with lazy deletion, for searches whose keys
// never fall below the last minimum taken (A* with a consistent heuristic,
// Dijkstra). Bucket i holds the keys whose highest bit differing from the last
// minimum is bit i - 1; bucket 0 holds keys equal to it. A pop takes from
// bucket 0, or first finds the least key of the lowest non-empty bucket and
// spreads that bucket into lower ones. Every operation is a sequential append
// or scan: no per-cell position array and no compare chain per heap level,
// which on large maps is where an indexed heap spends its time.
//
// A key below the last minimum (floating-point noise of a consistent
// heuristic, or an h code that breaks an f tie the other way) is raised to it,
// so it counts as a tie of the current minimum.
class RadixQueue {
 public:
  static constexpr bool kLazy = true;
  using Entry = OpenList::Entry;

  void Clear() {
    for (std::vector<Entry>& b : buckets_) b.clear();
    last_ = 0;
    size_ = 0;
  }
  bool empty() const { return size_ == 0; }

  void Push(uint32_t cell, double f, double h) {
    const uint64_t key = std::max(OpenList::MakeKey(f, h), last_);
    buckets_[BucketOf(key)].push_back({key, cell});
    ++size_;
  }

  // Removes a least entry; *f gets its f (to within the key's 1e-12).
  // REQUIRES: !empty().
  uint32_t PopMin(double* f) {
    if (buckets_[0].empty()) {
      size_t i = 1;
      while (buckets_[i].empty()) ++i;
      std::vector<Entry>& from = buckets_[i];
      uint64_t least = from[0].key;
      for (const Entry& e : from) least = std::min(least, e.key);
      last_ = least;
      for (const Entry& e : from) buckets_[BucketOf(e.key)].push_back(e);
      from.clear();
    }
    const Entry e = buckets_[0].back();
    buckets_[0].pop_back();
    --size_;
    std::memcpy(f, &e.key, sizeof(*f));
    return e.cell;
  }

  size_t MemoryBytes() const {
    size_t bytes = 0;
    for (const std::vector<Entry>& b : buckets_) {
      bytes += b.capacity() * sizeof(Entry);
    }
    return bytes;
  }

 private:
  size_t BucketOf(uint64_t key) const {
    return key == last_
               ? 0
               : 64 - static_cast<size_t>(__builtin_clzll(key ^ last_));
  }

  std::vector<Entry> buckets_[65];
  uint64_t last_ = 0;
  size_t size_ = 0;
};

struct SearchState {
  std::vector<Node> nodes;
  std::vector<uint32_t> heap_pos;
  OpenList open;
  RadixQueue radix;
  // Cells whose f ties the last minimum taken from `open`: expanded next,
  // last in first out, without touching the heap.
  std::vector<uint32_t> ties;
  // The baseline's std::priority_queue storage, kept to reuse its capacity.
  std::vector<std::pair<double, uint32_t>> baseline_queue;
  // Scratch for smoothing: cost of the grid path up to each cell.
  std::vector<double> prefix_cost;
  uint32_t open_mark = 0;
  uint32_t closed_mark = 1;

  // Sizes the arrays for `map` (never shrinking) and starts a new generation.
  // REQUIRES: map.padded_size() fits the context's capacity (checked by
  // FindPath before calling).
  void BeginSearch(const GridMap& map) {
    const size_t n = map.padded_size();
    if (nodes.size() < n) nodes.resize(n, Node{0, 0, 0});
    const size_t passable = static_cast<size_t>(map.passable_count()) + 1;
    if (ties.capacity() < passable) ties.reserve(passable);
    ties.clear();
    radix.Clear();
    if (open_mark >= UINT32_MAX - 2) {
      // The stamps would wrap: clear them once so no old stamp can match.
      for (Node& node : nodes) node.stamp = 0;
      open_mark = 0;
    }
    open_mark += 2;
    closed_mark = open_mark + 1;
  }

  // Sizes and empties the indexed heap and its position array, which only
  // searches with an inconsistent heuristic use, so that contexts serving
  // only astar and dijkstra never hold them.
  void PrepareIndexedOpenList(const GridMap& map) {
    const size_t n = map.padded_size();
    if (heap_pos.size() < n) heap_pos.resize(n, 0);
    // The heap holds at most every passable cell once.
    const size_t need = static_cast<size_t>(map.passable_count()) + 1;
    if (open.capacity() < need) open.Reserve(need);
    open.set_positions(heap_pos.data());
    open.Clear();
  }

  size_t MemoryBytes() const {
    return nodes.capacity() * sizeof(Node) +
           heap_pos.capacity() * sizeof(uint32_t) +
           open.capacity() * sizeof(OpenList::Entry) +
           ties.capacity() * sizeof(uint32_t) + radix.MemoryBytes() +
           baseline_queue.capacity() * sizeof(baseline_queue[0]) +
           prefix_cost.capacity() * sizeof(double);
  }
};

// Distance in moves of unit cost: octile with diagonals, Manhattan without.
inline double GridDistance(int32_t dx, int32_t dy, bool diagonal) {
  const double ax = std::abs(dx), ay = std::abs(dy);
  if (!diagonal) return ax + ay;
  return std::max(ax, ay) + (kSqrt2 - 1.0) * std::min(ax, ay);
}

// Writes the path ending at `last` (following parents back to `start`) into
// result->cells, start first.
inline void ReconstructPath(const GridMap& map, const SearchState& s,
                            uint32_t start, uint32_t last, PathResult* result) {
  result->cells.clear();
  for (uint32_t i = last;; i = s.nodes[i].parent) {
    result->cells.push_back(map.CellOfPaddedIndex(i));
    if (i == start) break;
  }
  std::reverse(result->cells.begin(), result->cells.end());
  result->cost = s.nodes[last].g;
}

// Keeps the expanded cell closest to the goal, for partial results.
struct BestSoFar {
  uint32_t cell;
  double distance;
  double g;
  void Offer(uint32_t c, double d, double cost) {
    if (d < distance || (d == distance && cost < g)) {
      cell = c;
      distance = d;
      g = cost;
    }
  }
};

// Parameters of one best-first search, prepared by FindPath.
struct SearchParams {
  uint32_t start;
  uint32_t goal;
  int32_t goal_x;  // Padded coordinates.
  int32_t goal_y;
  double h_scale;           // 0 for Dijkstra.
  uint64_t max_expansions;  // 0 = none.
  // True when the heuristic is consistent (astar, dijkstra): keys then never
  // fall below the last minimum, which lets the engine use a RadixQueue.
  bool consistent;
  absl::Time deadline;
  // Also set when a cancellation flag is given: both are checked together.
  bool has_deadline;
  const std::atomic<bool>* cancelled;  // May be null.
  // Differential heuristic (astar engine only): landmark_count distances per
  // padded cell, and the goal's. Null when the query has none.
  const double* landmarks = nullptr;
  const double* goal_landmarks = nullptr;
  int landmark_count = 0;
  // Exhaustive searches (distance fields) set goal to kNoGoal, h_scale to 0
  // and may stop once g exceeds max_g; the cells closed are then exact.
  double max_g = std::numeric_limits<double>::infinity();
};

inline constexpr uint32_t kNoGoal = UINT32_MAX;

// Whether a search with `expanded` cells so far must stop for its budget.
inline PartialReason BudgetExhausted(const SearchParams& p, uint64_t expanded) {
  if (p.max_expansions != 0 && expanded >= p.max_expansions) {
    return PartialReason::kMaxExpansions;
  }
  // The clock is read every 256 expansions only, starting with the first.
  if (p.has_deadline && (expanded & 255) == 1) {
    if (p.cancelled != nullptr &&
        p.cancelled->load(std::memory_order_relaxed)) {
      return PartialReason::kCancelled;
    }
    if (absl::Now() >= p.deadline) return PartialReason::kDeadline;
  }
  return PartialReason::kNone;
}

// Writes the outcome of a search: the path to the goal when it was expanded,
// else the path to `best` flagged partial.
inline void FinishSearch(const GridMap& map, const SearchState& s,
                         const SearchParams& p, const BestSoFar& best,
                         PartialReason stop, uint64_t expanded,
                         uint64_t generated, PathResult* result) {
  result->expanded = expanded;
  result->generated = generated;
  if (p.goal == kNoGoal) {
    // An exhaustive search: the caller reads the node records.
    result->partial = stop != PartialReason::kNone;
    result->partial_reason = stop;
    return;
  }
  if (stop == PartialReason::kNone && s.nodes[p.goal].stamp == s.closed_mark) {
    ReconstructPath(map, s, p.start, p.goal, result);
    return;
  }
  // Out of budget. (An open list running dry cannot happen, since FindPath
  // has checked that start and goal share a component; were it to, the
  // result would still be a valid partial path.)
  assert(stop != PartialReason::kNone);
  result->partial = true;
  result->partial_reason = stop;
  ReconstructPath(map, s, p.start, best.cell, result);
}

// The engines. Each fills cells, cost, expanded, generated and the partial
// fields of *result.
void RunBestFirst(const GridMap& map, DiagonalPolicy policy,
                  const SearchParams& params, SearchState& state,
                  PathResult* result);
void RunBaseline(const GridMap& map, DiagonalPolicy policy,
                 const SearchParams& params, SearchState& state,
                 PathResult* result);

// NotFound for ends in different components: the one wording of FindPath
// and of group paths answered from a flow field.
absl::Status NoPathError(Cell start, Cell goal);

// ResourceExhausted when `map` does not fit the context's fixed capacity.
absl::Status CheckCapacity(const GridMap& map, const SearchContext& context);

// Dijkstra from `source` over its component under `policy`, stopping once g
// exceeds max_g or at the deadline / cancellation. Afterwards a cell was
// reached, with its exact distance in state.nodes[padded].g and its parent
// (one move closer to the source), iff its stamp is state.closed_mark.
// Returns why it stopped early (kNone: it finished). REQUIRES: source
// passable and the map within the context's capacity.
PartialReason RunDistanceSearch(const GridMap& map, Cell source,
                                DiagonalPolicy policy, double max_g,
                                absl::Time deadline,
                                const std::atomic<bool>* cancelled,
                                SearchState& state, uint64_t* expanded);

// Moves an invalid end to the nearest passable cell within `radius`,
// preferring cells of component `prefer` (0 = no preference). False if none.
bool SnapToPassable(const GridMap& map, Cell from, int32_t radius,
                    uint32_t prefer, Cell* out);

// String-pulls result->cells into result->waypoints / smoothed_cost.
void SmoothPath(const GridMap& map, DiagonalPolicy policy, SearchState& state,
                PathResult* result);

}  // namespace gridstar::internal

#endif  // GRIDSTAR_SRC_SEARCH_STATE_H_
