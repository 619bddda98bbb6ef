// Internal: a PGM's pixels as read, before they become costs (ParsePgm) or
// go through an image mapping (ParsePgmMap).

#ifndef GRIDSTAR_SRC_IO_PGM_PIXELS_H_
#define GRIDSTAR_SRC_IO_PGM_PIXELS_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "gridstar/grid_map.h"

namespace gridstar::internal {

struct PgmPixels {
  int64_t width = 0;
  int64_t height = 0;
  int maxval = 255;              // 1 to max_maxval.
  std::vector<uint16_t> values;  // Row-major, each at most maxval.
};

// ParsePgm's validation and errors, without building a map; maxval up to
// `max_maxval` (255 for costs, 65535 for images read through a mapping,
// whose binary samples then take two bytes, most significant first).
absl::StatusOr<PgmPixels> ReadPgmPixels(absl::string_view data,
                                        const MapLimits& limits,
                                        int max_maxval);

}  // namespace gridstar::internal

#endif  // GRIDSTAR_SRC_IO_PGM_PIXELS_H_
