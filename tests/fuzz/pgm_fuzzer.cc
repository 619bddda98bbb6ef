// Fuzzes the PGM reader (P5 and P2): a map, InvalidArgument or (a size over
// the limits) ResourceExhausted, and both
// encodings written from a map read back to the same costs.

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_util.h"
#include "gridstar/map_io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const gridstar::MapLimits limits = gridstar::fuzz::SmallLimits();
  const absl::string_view bytes(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<gridstar::GridMap> map = gridstar::ParsePgm(bytes, limits);
  if (!map.ok()) {
    FUZZ_CHECK(absl::IsInvalidArgument(map.status()) ||
               absl::IsResourceExhausted(map.status()));
    return 0;
  }
  for (auto e :
       {gridstar::PgmEncoding::kBinary, gridstar::PgmEncoding::kAscii}) {
    absl::StatusOr<gridstar::GridMap> again =
        gridstar::ParsePgm(gridstar::WritePgm(*map, e), limits);
    FUZZ_CHECK(again.ok());
    FUZZ_CHECK(again->CopyCosts() == map->CopyCosts());
  }
  return 0;
}
