// The world side of the API: RegisterWorld, UpdateLinks and WorldPath
// requests read into the world registry's and core's types, and worlds and
// world paths written back.
//
// Thread-safety: pure functions.
#ifndef GRIDSTAR_SERVER_RPC_WORLD_REQUESTS_H_
#define GRIDSTAR_SERVER_RPC_WORLD_REQUESTS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "gridstar/v1/gridstar.pb.h"
#include "gridstar/world.h"
#include "maps/world_registry.h"
#include "watch/watch_events.h"

namespace gridstar::server {

// A Link as stored: areas 0 = every area, max_agent_size 0 = any.
// InvalidArgument naming "<field>.from" / ".to" when an end is missing.
absl::StatusOr<StoredLink> LinkOfProto(const v1::Link& link,
                                       const std::string& field);
void LinkToProto(const StoredLink& link, v1::Link* out);

// The request's world (version 0: the registry sets it), its fields read;
// the registry validates the rest.
absl::StatusOr<StoredWorld> WorldOfRequest(
    const v1::RegisterWorldRequest& request);

// The request's edits. InvalidArgument naming "updates[i]..." for an edit
// that asks for nothing, or for two things at once (add with remove).
absl::StatusOr<std::vector<LinkEdit>> LinkEditsOfRequest(
    const v1::UpdateLinksRequest& request);

// A world's info; `tables` from WorldRegistry::Tables, `with_links` to list
// the links.
void WorldInfoToProto(const WorldSnapshot& world,
                      const std::vector<WorldRegistry::TableState>& tables,
                      bool with_links, v1::WorldInfo* info);

// A world path request read against `world`: ends by map id (naming
// "<prefix>start.map_id: 'x' is not a map of world 'w'"), the leg query as
// PathRequest's (algorithm, weight, diagonal, max_expansions, smooth,
// trace). The agent class (areas, area_costs, agent_size) is read when the
// maps are (WorldRegistry::Prepare).
struct WorldAsk {
  WorldQuery query;
  bool diagonal_from_map = false;
  bool allow_partial = false;
  uint64_t areas = 0;
  std::vector<double> area_costs;
  int32_t agent_size = 0;
};
absl::Status WorldAskFromProto(const v1::WorldPathRequest& request,
                               const WorldSnapshot& world,
                               absl::string_view prefix, WorldAsk* ask);

// An item's code and message; a failed item carries no path
// (service_worlds.cc).
void SetWorldItem(const absl::Status& s, v1::WorldPathItemResult* item);

// World agents' requests and answers (watch_events.h: WorldPathAsk,
// WorldPathAnswer) from and to the proto. InvalidArgument naming
// "<prefix>algorithm" / "<prefix>diagonal" for a value outside its enum.
absl::Status WorldPathAskFromProto(const v1::WorldPathRequest& r,
                                   absl::string_view prefix, WorldPathAsk* ask);
v1::WorldPathRequest WorldPathAskToProto(const WorldPathAsk& ask);
void WorldPathAnswerToProto(const WorldPathAnswer& a,
                            v1::WorldPathResponse* out);

// The answer of core's `result` (its vectors moved): legs by map id and
// version, links by id.
WorldPathAnswer WorldPathAnswerFrom(WorldResult result,
                                    const PreparedWorld& prepared);

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_RPC_WORLD_REQUESTS_H_
