// Fuzzes the raw-bytes map builder with sizes taken from the input, and
// checks the derived data: counts, cheapest cost and component labels (two
// 4-adjacent passable cells always share a label; blocked cells have none).

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "fuzz_util.h"
#include "gridstar/map_io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 8) return 0;
  int32_t w, h;
  std::memcpy(&w, data, 4);
  std::memcpy(&h, data + 4, 4);
  gridstar::MapLimits limits;
  limits.max_width = limits.max_height = 1024;
  limits.max_cells = 1 << 16;
  const absl::string_view cells(reinterpret_cast<const char*>(data + 8),
                                size - 8);
  absl::StatusOr<gridstar::GridMap> map =
      gridstar::ParseRawMap(w, h, cells, limits);
  if (!map.ok()) {
    FUZZ_CHECK(absl::IsInvalidArgument(map.status()) ||
               absl::IsResourceExhausted(map.status()));
    return 0;
  }
  FUZZ_CHECK(map->width() == w && map->height() == h);
  int64_t passable = 0;
  uint8_t lo = 255;
  for (int32_t y = 0; y < h; ++y) {
    for (int32_t x = 0; x < w; ++x) {
      const uint8_t c =
          static_cast<uint8_t>(cells[static_cast<size_t>(y) * w + x]);
      FUZZ_CHECK(map->cost({x, y}) == c);
      FUZZ_CHECK((map->component({x, y}) == 0) == (c == 0));
      if (c == 0) continue;
      ++passable;
      if (c < lo) lo = c;
      FUZZ_CHECK(map->component({x, y}) <= map->component_count());
      if (map->Passable({x + 1, y})) {
        FUZZ_CHECK(map->component({x + 1, y}) == map->component({x, y}));
      }
      if (map->Passable({x, y + 1})) {
        FUZZ_CHECK(map->component({x, y + 1}) == map->component({x, y}));
      }
    }
  }
  FUZZ_CHECK(map->passable_count() == passable);
  FUZZ_CHECK(map->min_cost() == (passable ? lo : 0));
  return 0;
}
