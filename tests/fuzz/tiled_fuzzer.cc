// Fuzzes the Tiled readers (.tmx XML and .tmj JSON, every layer encoding,
// objects): a map whose areas are in range, InvalidArgument or (a size over
// the limits) ResourceExhausted. Text after a line "--tileset--" is given as
// the external tileset "t.tsx"; a few rules are always given, so rule
// lookups run too.

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_util.h"
#include "gridstar/agents.h"
#include "gridstar/map_import.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const gridstar::MapLimits limits = gridstar::fuzz::SmallLimits();
  absl::string_view input(reinterpret_cast<const char*>(data), size);
  gridstar::TiledOptions options;
  constexpr absl::string_view kMarker = "\n--tileset--\n";
  if (size_t at = input.find(kMarker); at != absl::string_view::npos) {
    options.tilesets["t.tsx"] = std::string(input.substr(at + kMarker.size()));
    input = input.substr(0, at);
  }
  gridstar::TiledRule water;
  water.class_name = "water";
  water.area = 4;
  gridstar::TiledRule gid;
  gid.gid = 3;
  gid.blocked = false;
  options.rules = {water, gid};
  absl::StatusOr<gridstar::MapWithAreas> map =
      gridstar::ParseTiledMap(input, options, limits);
  if (!map.ok()) {
    FUZZ_CHECK(absl::IsInvalidArgument(map.status()) ||
               absl::IsResourceExhausted(map.status()));
    FUZZ_CHECK(!map.status().message().empty());
  } else {
    const size_t cells =
        static_cast<size_t>(map->map.width()) * map->map.height();
    FUZZ_CHECK(map->areas.empty() || map->areas.size() == cells);
    for (uint8_t a : map->areas) FUZZ_CHECK(a < gridstar::kMaxAreas);
  }
  absl::StatusOr<std::vector<std::string>> sources =
      gridstar::TiledTilesetSources(input);
  FUZZ_CHECK(sources.ok() || absl::IsInvalidArgument(sources.status()));
  return 0;
}
