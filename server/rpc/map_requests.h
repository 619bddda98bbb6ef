// The map administration side of the API: a RegisterMapRequest's cells
// parsed into a GridMap, and a snapshot described as MapInfo.
//
// Thread-safety: pure functions.
#ifndef GRIDSTAR_SERVER_MAP_REQUESTS_H_
#define GRIDSTAR_SERVER_MAP_REQUESTS_H_

#include "absl/status/statusor.h"
#include "gridstar/grid_map.h"
#include "gridstar/map_io.h"
#include "gridstar/v1/gridstar.pb.h"
#include "maps/map_registry.h"

namespace gridstar::server {

// The request's cells (raw, movingai or pgm) as a terrain within `limits`,
// with its areas (the request's `areas`, or the Moving AI text's terrain;
// empty when none). InvalidArgument naming "cells" (or width, height,
// areas) for malformed data; ResourceExhausted for a size over the limits,
// naming the flags.
absl::StatusOr<MapWithAreas> MapOfRequest(const v1::RegisterMapRequest& request,
                                          const MapLimits& limits);

// The request's options: default_diagonal, jump_table, landmarks, hpa,
// default_areas (resolved: 0 is ground and swamp for movingai cells, every
// area otherwise), max_agent_size, validated.
absl::StatusOr<MapOptions> MapOptionsOfRequest(
    const v1::RegisterMapRequest& request);

void MapInfoToProto(const MapSnapshot& snapshot, v1::MapInfo* info);

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_MAP_REQUESTS_H_
