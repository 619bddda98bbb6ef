#include "gridstar/search_context.h"

#include "search/search_state.h"

namespace gridstar {

SearchContext::SearchContext(SearchContextOptions options)
    : options_(options), state_(std::make_unique<internal::SearchState>()) {}
SearchContext::~SearchContext() = default;
SearchContext::SearchContext(SearchContext&&) noexcept = default;
SearchContext& SearchContext::operator=(SearchContext&&) noexcept = default;

size_t SearchContext::MemoryBytes() const {
  return sizeof(*this) + sizeof(internal::SearchState) + state_->MemoryBytes();
}

int64_t SearchContext::allocated_cells() const {
  return static_cast<int64_t>(state_->nodes.size());
}

void SearchContext::ReleaseMemory() { state_->ReleasePages(); }

void SearchContext::AfterSearch(uint64_t nodes) {
  if (options_.release_bytes == 0) return;
  internal::SearchState& s = *state_;
  s.nodes_since_check += nodes;
  // Measured after 65,536 new records (which can have touched at most that
  // many new pages, 256 MiB, since the last look): a release is a batch of
  // work for the kernel, and between looks small searches pay nothing.
  constexpr uint64_t kCheckEvery = uint64_t{1} << 16;
  if (s.nodes_since_check < kCheckEvery) return;
  s.nodes_since_check = 0;
  if (s.nodes.ResidentBytes() + s.back_nodes.ResidentBytes() +
          s.heap_pos.ResidentBytes() + s.sparse.MemoryBytes() >
      options_.release_bytes) {
    s.ReleasePages();
  }
}

void SearchContext::SetGenerationForTesting(uint32_t generation) {
  state_->open_mark = generation;
  state_->closed_mark = generation + 1;
  state_->sparse.Clear();
}

}  // namespace gridstar
