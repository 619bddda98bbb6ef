#include "gridstar/search_context.h"

#include "search_state.h"

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

void SearchContext::SetGenerationForTesting(uint32_t generation) {
  state_->open_mark = generation;
  state_->closed_mark = generation + 1;
}

}  // namespace gridstar
