// The engine registry: one engine per line of gridstar/algorithms.inc, each
// defined in its folder as EngineFor<Algorithm::kX>() (engine.h).

#include <array>
#include <cstddef>

#include "engines/engine.h"

namespace gridstar::internal {

// Every engine has a scratch slot in a SearchState and an attachment slot in
// a GridMap.
#define GRIDSTAR_ALGORITHM(enumerator, value, name, optimal, any_angle) \
  static_assert((value) < kEngineScratchSlots,                          \
                "raise kEngineScratchSlots (search/search_state.h)");   \
  static_assert((value) < GridMap::kAttachmentSlots,                    \
                "raise GridMap::kAttachmentSlots (gridstar/grid_map.h)");
#include "gridstar/algorithms.inc"
#undef GRIDSTAR_ALGORITHM

absl::Span<const Engine* const> AllEngines() {
  static const Engine* const kEngines[] = {
#define GRIDSTAR_ALGORITHM(enumerator, value, name, optimal, any_angle) \
  &EngineFor<Algorithm::enumerator>(),
#include "gridstar/algorithms.inc"
#undef GRIDSTAR_ALGORITHM
  };
  return kEngines;
}

const Engine* FindEngine(Algorithm algorithm) {
  // By value: Algorithm is a uint8_t, so every value has a slot.
  static const std::array<const Engine*, 256> kByValue = [] {
    std::array<const Engine*, 256> by_value{};
    for (const Engine* engine : AllEngines()) {
      by_value[static_cast<size_t>(engine->algorithm())] = engine;
    }
    return by_value;
  }();
  return kByValue[static_cast<size_t>(algorithm)];
}

}  // namespace gridstar::internal
