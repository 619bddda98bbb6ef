// SearchContext: the reusable working memory of one searching thread.
//
// A context holds per-cell node records (g, parent, a generation stamp), the
// open list and scratch space for snapping and smoothing. Starting a search
// bumps a generation counter instead of clearing anything, so a search costs
// time for the cells it touches only; when the counter would wrap, the stamps
// are cleared once and counting starts again.
//
// The per-cell arrays are sized for the largest map searched with this
// context but are backed by memory page by page, only where searches touched
// them: a context that searched a few thousand cells of a huge map holds the
// pages of those cells. They never grow past `max_cells` (the node pool's
// fixed capacity), so a map larger than that is refused with
// ResourceExhausted instead of allocating. With `release_bytes`, the pages are
// handed back once they hold more than that (checked after a search once
// 65,536 node records were created since the last check), so memory follows
// recent searches, not every cell ever searched. With `max_search_nodes`, one search that would create more
// node records stops with PartialReason::kMemory. The open lists keep the
// largest capacity any search needed, so once a context has warmed up on a
// workload its searches allocate nothing (a search larger than any before
// may grow them once).
//
// Thread-safety: not thread-safe. Use one context per thread; one context may
// serve any number of maps, one search at a time.

#ifndef GRIDSTAR_SEARCH_CONTEXT_H_
#define GRIDSTAR_SEARCH_CONTEXT_H_

#include <cstddef>
#include <cstdint>
#include <memory>

namespace gridstar {

namespace internal {
struct SearchState;
}  // namespace internal

struct SearchContextOptions {
  // Largest number of cells (of the map plus its one-cell border) the
  // context will ever hold nodes for. The default fits an 8192 x 8192 map.
  int64_t max_cells = int64_t{8194} * 8194;
  // Node records one search may create; 0 = no limit. A search that needs
  // more stops with its best partial path (PartialReason::kMemory).
  uint64_t max_search_nodes = 0;
  // Touched pages of the per-cell arrays beyond which they are handed back
  // after a search; 0 = never.
  size_t release_bytes = 0;
};

class SearchContext {
 public:
  explicit SearchContext(SearchContextOptions options = {});
  ~SearchContext();
  SearchContext(const SearchContext&) = delete;
  SearchContext& operator=(const SearchContext&) = delete;
  SearchContext(SearchContext&&) noexcept;
  SearchContext& operator=(SearchContext&&) noexcept;

  // Bytes currently held: the touched pages of the per-cell arrays, and the
  // open lists and scratch buffers. Makes a system call proportional to the
  // arrays' size in pages: call it now and then, not per search.
  size_t MemoryBytes() const;
  // Hands the per-cell arrays' pages back to the system now.
  void ReleaseMemory();
  const SearchContextOptions& options() const { return options_; }
  // Cells the arrays are currently sized for, and the fixed capacity.
  int64_t allocated_cells() const;
  int64_t max_cells() const { return options_.max_cells; }

  // Sets the generation counter, so tests can drive it across the wrap.
  void SetGenerationForTesting(uint32_t generation);

  // For the search implementations in core/src only.
  internal::SearchState& state() { return *state_; }
  // Called by them after a search that created `nodes` node records: applies
  // release_bytes.
  void AfterSearch(uint64_t nodes);

 private:
  SearchContextOptions options_;
  std::unique_ptr<internal::SearchState> state_;
};

}  // namespace gridstar

#endif  // GRIDSTAR_SEARCH_CONTEXT_H_
