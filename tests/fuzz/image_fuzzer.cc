// Fuzzes the image readers (PNG through libpng, PGM through a mapping): the
// first byte picks the mapping (value, threshold inverted, or a palette of
// three colours), the rest is the file. A map whose areas are in range,
// InvalidArgument or ResourceExhausted; a PGM that reads unmapped reads
// through every mapping but a palette, and through the value mapping to the
// same costs.

#include <cstddef>
#include <cstdint>

#include "fuzz_util.h"
#include "gridstar/agents.h"
#include "gridstar/map_import.h"

namespace {

void CheckMap(const absl::StatusOr<gridstar::MapWithAreas>& map) {
  if (!map.ok()) {
    FUZZ_CHECK(absl::IsInvalidArgument(map.status()) ||
               absl::IsResourceExhausted(map.status()));
    return;
  }
  const size_t cells =
      static_cast<size_t>(map->map.width()) * map->map.height();
  FUZZ_CHECK(map->areas.empty() || map->areas.size() == cells);
  for (uint8_t a : map->areas) FUZZ_CHECK(a < gridstar::kMaxAreas);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const gridstar::MapLimits limits = gridstar::fuzz::SmallLimits();
  gridstar::ImageMapping mapping;
  switch (data[0] % 3) {
    case 0:
      mapping.mode = gridstar::ImageMapping::Mode::kValue;
      break;
    case 1:
      mapping.invert = true;
      mapping.threshold = 1 + data[0] % 255;
      break;
    default:
      mapping.mode = gridstar::ImageMapping::Mode::kPalette;
      mapping.palette = {{0xffffff, 1, 0}, {0x000000, 0, 0}, {0x2080ff, 9, 5}};
  }
  const absl::string_view file(reinterpret_cast<const char*>(data) + 1,
                               size - 1);
  CheckMap(gridstar::ParsePngMap(file, mapping, limits));
  absl::StatusOr<gridstar::MapWithAreas> pgm =
      gridstar::ParsePgmMap(file, mapping, limits);
  CheckMap(pgm);
  absl::StatusOr<gridstar::GridMap> unmapped = gridstar::ParsePgm(file, limits);
  // A PGM that reads reads through every mapping but a palette (which may
  // miss a level); through the value mapping to the same costs.
  if (unmapped.ok() && mapping.mode != gridstar::ImageMapping::Mode::kPalette) {
    FUZZ_CHECK(pgm.ok());
  }
  if (unmapped.ok() && mapping.mode == gridstar::ImageMapping::Mode::kValue) {
    FUZZ_CHECK(pgm->map.CopyCosts() == unmapped->CopyCosts());
  }
  return 0;
}
