// Internal working memory of a SearchContext: the per-cell node records with
// their generation stamps, the open lists and the engines' scratch space
// (each engine's own, EngineScratch, in a slot of its own).
//
// The per-cell arrays are LazyArrays: sized for the largest map searched,
// but backed by memory only where searches touched them, so a worker that
// searched a corner of a huge map holds pages for that corner. An untouched
// record reads as zero, and stamp 0 is never a live mark.
//
// Not thread-safe (one per context). All per-cell arrays are indexed by the
// GridMap's padded index.

#ifndef GRIDSTAR_SRC_SEARCH_SEARCH_STATE_H_
#define GRIDSTAR_SRC_SEARCH_SEARCH_STATE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "gridstar/grid_map.h"
#include "gridstar/types.h"
#include "search/open_lists.h"
#include "storage/lazy_array.h"
#include "storage/sparse_nodes.h"

namespace gridstar::internal {

// One cell's search record. `stamp` says whether the record belongs to the
// current search: stamp == open_mark (on the open list) or closed_mark
// (expanded); any other value means not seen yet, whatever g holds.
struct Node {
  double g;
  uint32_t parent;
  uint32_t stamp;
};
static_assert(sizeof(Node) == 16, "Node should stay one quarter cache line");

// Scratch space of one engine, defined in its folder (core/src/engines/):
// made on a context's first search by that engine (SearchState::Scratch) and
// kept, with its capacity, for the context's life.
class EngineScratch {
 public:
  virtual ~EngineScratch() = default;
  virtual size_t MemoryBytes() const = 0;
};
// Slots for engines' scratch, one per Algorithm value (engines/registry.cc
// checks every value fits).
inline constexpr size_t kEngineScratchSlots = 16;

// Whether jump point search keeps its records in SearchState::sparse on
// `map`: when its per-cell arrays would be memory files whose pages come on
// first touch (lazy_array.h), which cost jps+ on the 8192 x 8192 world 9x
// its search.
inline bool UseSparseNodes(const GridMap& map) {
  return map.padded_size() > LazyArray<Node>::kPopulateElements;
}

struct SearchState {
  LazyArray<Node> nodes;
  // Jump point search's records on maps too big for `nodes` to be had whole
  // (UseSparseNodes).
  SparseNodes<Node> sparse;
  // The backward search's records (bidirectional search only).
  LazyArray<Node> back_nodes;
  LazyArray<uint32_t> heap_pos;
  OpenList open;
  RadixQueue radix;
  // Cells whose f ties the last minimum taken from `open`: expanded next,
  // last in first out, without touching the heap.
  std::vector<uint32_t> ties;
  // Bidirectional search's forward and backward open lists, kept to reuse
  // their capacity.
  RadixQueue bidirectional_open[2];
  // The baseline's std::priority_queue storage, kept to reuse its capacity.
  std::vector<std::pair<double, uint32_t>> baseline_queue;
  // Scratch for smoothing: cost of the grid path up to each cell.
  std::vector<double> prefix_cost;
  // The cells a traced search expanded (SearchParams::trace).
  std::vector<uint32_t> trace;
  // Engines' own scratch space, by their Algorithm value (Scratch).
  std::array<std::unique_ptr<EngineScratch>, kEngineScratchSlots> engine_scratch;
  uint32_t open_mark = 0;
  uint32_t closed_mark = 1;
  // Node records created since the pages were last measured or handed back.
  uint64_t nodes_since_check = 0;

  // The scratch space of engine `owner`, of type T (an EngineScratch with a
  // default constructor), made on first use. REQUIRES: every call for one
  // owner names the same T.
  template <typename T>
  T& Scratch(Algorithm owner) {
    std::unique_ptr<EngineScratch>& slot =
        engine_scratch[static_cast<size_t>(owner)];
    if (slot == nullptr) slot = std::make_unique<T>();
    return static_cast<T&>(*slot);
  }

  // Sizes the arrays for `map` (never shrinking) and starts a new generation.
  // REQUIRES: map.padded_size() fits the context's capacity (checked by
  // FindPath before calling).
  void BeginSearch(const GridMap& map) {
    const size_t n = map.padded_size();
    if (open_mark >= UINT32_MAX - 2) {
      // The stamps would wrap: hand the pages back, so that every record
      // reads as zero and no old stamp can match.
      nodes.Release();
      back_nodes.Release();
      sparse.Clear();
      open_mark = 0;
    }
    nodes.Grow(n);  // Also repopulates small arrays after a release.
    ties.clear();
    radix.Clear();
    open_mark += 2;
    closed_mark = open_mark + 1;
  }

  // Sizes and empties the indexed heap and its position array, which only
  // searches with an inconsistent heuristic use, so that contexts serving
  // only astar and dijkstra never hold them.
  void PrepareIndexedOpenList(const GridMap& map) {
    const size_t n = map.padded_size();
    heap_pos.Grow(n);
    // The heap grows as it fills (at most every passable cell once).
    open.set_positions(heap_pos.data());
    open.Clear();
  }

  // Sizes the backward records for `map`, which only bidirectional search
  // uses, so that contexts serving other searches never hold them. Their
  // stamps follow BeginSearch's marks like `nodes`.
  void PrepareBackward(const GridMap& map) {
    const size_t n = map.padded_size();
    back_nodes.Grow(n);
  }

  // Hands the per-cell arrays' pages back to the system.
  void ReleasePages() {
    nodes.Release();
    back_nodes.Release();
    heap_pos.Release();
    sparse = SparseNodes<Node>();
    nodes_since_check = 0;
  }

  // Memory held: the per-cell arrays' touched pages, the rest's capacity.
  size_t MemoryBytes() const {
    size_t bytes = nodes.ResidentBytes() + back_nodes.ResidentBytes() +
                   heap_pos.ResidentBytes() +
                   bidirectional_open[0].MemoryBytes() +
                   bidirectional_open[1].MemoryBytes() +
                   open.capacity() * sizeof(OpenList::Entry) +
                   ties.capacity() * sizeof(uint32_t) + radix.MemoryBytes() +
                   baseline_queue.capacity() * sizeof(baseline_queue[0]) +
                   prefix_cost.capacity() * sizeof(double) +
                   trace.capacity() * sizeof(uint32_t) + sparse.MemoryBytes();
    for (const std::unique_ptr<EngineScratch>& scratch : engine_scratch) {
      if (scratch != nullptr) bytes += scratch->MemoryBytes();
    }
    return bytes;
  }
};

}  // namespace gridstar::internal

#endif  // GRIDSTAR_SRC_SEARCH_SEARCH_STATE_H_
