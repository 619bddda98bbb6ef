// The map formats' options of RegisterMapRequest (image_mapping, tiled) as
// core's (map_import.h), validated, with errors naming the request's fields
// ("image_mapping.palette[2].cost: 300 is outside [0, 255]",
// "tiled.rules[0]: ...").
//
// Thread-safety: pure functions.
#ifndef GRIDSTAR_PROTO_CONVERT_MAP_FORMATS_H_
#define GRIDSTAR_PROTO_CONVERT_MAP_FORMATS_H_

#include "absl/status/statusor.h"
#include "gridstar/map_import.h"
#include "gridstar/v1/gridstar.pb.h"

namespace gridstar::convert {

// Zero fields take their defaults (threshold 128, floor cost 1, mode
// THRESHOLD).
absl::StatusOr<ImageMapping> ImageMappingFromProto(const v1::ImageMapping& m);

// The options of a TiledMap; its `data` is the caller's to read.
absl::StatusOr<TiledOptions> TiledOptionsFromProto(const v1::TiledMap& t);

}  // namespace gridstar::convert

#endif  // GRIDSTAR_PROTO_CONVERT_MAP_FORMATS_H_
