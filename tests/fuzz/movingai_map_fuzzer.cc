// Fuzzes the Moving AI .map reader: any input gives a map, InvalidArgument or
// (a size over the limits) ResourceExhausted,
// and a map read back from what the writer makes of it is the same map.

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_util.h"
#include "gridstar/map_io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const gridstar::MapLimits limits = gridstar::fuzz::SmallLimits();
  const absl::string_view text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<gridstar::GridMap> map =
      gridstar::ParseMovingAiMap(text, limits);
  if (!map.ok()) {
    FUZZ_CHECK(absl::IsInvalidArgument(map.status()) ||
               absl::IsResourceExhausted(map.status()));
    FUZZ_CHECK(!map.status().message().empty());
    return 0;
  }
  absl::StatusOr<std::string> written = gridstar::WriteMovingAiMap(*map);
  FUZZ_CHECK(written.ok());
  absl::StatusOr<gridstar::GridMap> again =
      gridstar::ParseMovingAiMap(*written, limits);
  FUZZ_CHECK(again.ok());
  FUZZ_CHECK(again->CopyCosts() == map->CopyCosts());
  return 0;
}
