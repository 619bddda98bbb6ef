// SearchContext: the reusable working memory of one searching thread.
//
// A context holds per-cell node records (g, parent, a generation stamp), the
// open list and scratch space for snapping and smoothing. Starting a search
// bumps a generation counter instead of clearing anything, so a search costs
// time for the cells it touches only; when the counter would wrap, the stamps
// are cleared once and counting starts again.
//
// The per-cell arrays grow to the largest map searched with this context and
// never shrink; they never grow past `max_cells` (the node pool's fixed
// capacity), so a map larger than that is refused with ResourceExhausted
// instead of allocating. The open lists keep the largest capacity any search
// needed, so once a context has warmed up on a workload its searches allocate
// nothing (a search larger than any before may grow them once).
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
};

class SearchContext {
 public:
  explicit SearchContext(SearchContextOptions options = {});
  ~SearchContext();
  SearchContext(const SearchContext&) = delete;
  SearchContext& operator=(const SearchContext&) = delete;
  SearchContext(SearchContext&&) noexcept;
  SearchContext& operator=(SearchContext&&) noexcept;

  // Bytes currently held by the node pool, open list and scratch buffers.
  size_t MemoryBytes() const;
  // Cells the arrays are currently sized for, and the fixed capacity.
  int64_t allocated_cells() const;
  int64_t max_cells() const { return options_.max_cells; }

  // Sets the generation counter, so tests can drive it across the wrap.
  void SetGenerationForTesting(uint32_t generation);

  // For the search implementations in core/src only.
  internal::SearchState& state() { return *state_; }

 private:
  SearchContextOptions options_;
  std::unique_ptr<internal::SearchState> state_;
};

}  // namespace gridstar

#endif  // GRIDSTAR_SEARCH_CONTEXT_H_
