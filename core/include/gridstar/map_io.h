// Readers and writers for the map formats gridstar takes:
//   - Moving AI `.map` text (`type`, `height`, `width`, `map`, then rows;
//     `.`, `G`, `S` are passable with cost 1, everything else is blocked);
//   - PGM, binary `P5` and ASCII `P2`, pixel value = cost, 0 = blocked,
//     maxval at most 255 (pixels are not rescaled by maxval);
//   - raw row-major cost bytes (GridMap::FromCosts).
//
// Every reader validates its whole input and returns InvalidArgument whose
// message names the line or field at fault; sizes read from input are checked
// against MapLimits before anything is allocated, and a size over them is
// ResourceExhausted (GridMap::CheckDimensions). Functions are pure and
// thread-safe.

#ifndef GRIDSTAR_MAP_IO_H_
#define GRIDSTAR_MAP_IO_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "gridstar/grid_map.h"

namespace gridstar {

absl::StatusOr<GridMap> ParseMovingAiMap(absl::string_view text,
                                         const MapLimits& limits = {});

// A Moving AI map with its terrain kept as areas (agents.h): `.` `G` ground
// (area 0), `S` swamp (1), `W` water (2), `T` trees (3), each passable at
// cost 1; `@` `O` and anything else blocked (area 0). default_areas is
// ground and swamp, under which the map searches exactly as
// ParseMovingAiMap reads it (water and trees blocked).
struct MapWithAreas {
  GridMap map;
  std::vector<uint8_t> areas;  // Row-major, one id per cell.
  uint64_t default_areas = 0;
};
absl::StatusOr<MapWithAreas> ParseMovingAiMapWithAreas(
    absl::string_view text, const MapLimits& limits = {});

absl::StatusOr<GridMap> ParsePgm(absl::string_view data,
                                 const MapLimits& limits = {});

// Raw row-major cost bytes, one per cell; the form the API carries.
absl::StatusOr<GridMap> ParseRawMap(int64_t width, int64_t height,
                                    absl::string_view bytes,
                                    const MapLimits& limits = {});

// Picks the reader by content: `P5`/`P2` magic means PGM, `type ` means
// Moving AI. InvalidArgument when neither matches.
absl::StatusOr<GridMap> ParseMapAuto(absl::string_view data,
                                     const MapLimits& limits = {});

// ParseMapAuto keeping a Moving AI map's terrain as areas
// (ParseMovingAiMapWithAreas); a PGM has no areas (empty) and every area as
// its default.
absl::StatusOr<MapWithAreas> ParseMapAutoWithAreas(
    absl::string_view data, const MapLimits& limits = {});

// Writes a map as Moving AI text. Only passable/blocked can be written, so a
// map with any cost other than 0 or 1 is InvalidArgument.
absl::StatusOr<std::string> WriteMovingAiMap(const GridMap& map);

enum class PgmEncoding { kBinary, kAscii };
// Writes a map as PGM with maxval 255 (P5 binary or P2 ASCII).
std::string WritePgm(const GridMap& map, PgmEncoding encoding);

// Reads a whole file. NotFound when it cannot be opened, InvalidArgument when
// it is larger than max_bytes (so a huge file is never read into memory).
absl::StatusOr<std::string> ReadFile(const std::string& path,
                                     size_t max_bytes = size_t{1} << 30);

// Reads a map file in any supported format (see ParseMapAuto).
absl::StatusOr<GridMap> ReadMapFile(const std::string& path,
                                    const MapLimits& limits = {});

}  // namespace gridstar

#endif  // GRIDSTAR_MAP_IO_H_
