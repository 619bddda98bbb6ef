// The gridstar CLI's flags and the helpers its commands share.
//
// Thread-safety: flags are read-only once parsed; the helpers are pure.
#ifndef GRIDSTAR_CLIENT_CLI_COMMON_H_
#define GRIDSTAR_CLIENT_CLI_COMMON_H_

#include <string>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "client.h"
#include "convert/names.h"
#include "google/protobuf/message.h"
#include "gridstar/grid_map.h"
#include "gridstar/scenario.h"
#include "gridstar/v1/gridstar.pb.h"

ABSL_DECLARE_FLAG(std::string, server);
ABSL_DECLARE_FLAG(absl::Duration, deadline);
ABSL_DECLARE_FLAG(std::string, tls_ca);
ABSL_DECLARE_FLAG(std::string, tls_cert);
ABSL_DECLARE_FLAG(std::string, tls_key);
ABSL_DECLARE_FLAG(std::string, tls_server_name);
ABSL_DECLARE_FLAG(std::string, token_file);
ABSL_DECLARE_FLAG(std::string, id);
ABSL_DECLARE_FLAG(bool, replace);
ABSL_DECLARE_FLAG(std::string, map);
ABSL_DECLARE_FLAG(std::string, algo);
ABSL_DECLARE_FLAG(int, landmarks);
ABSL_DECLARE_FLAG(std::string, method);
ABSL_DECLARE_FLAG(double, max_cost);
ABSL_DECLARE_FLAG(bool, jump_table);
ABSL_DECLARE_FLAG(bool, hpa);
ABSL_DECLARE_FLAG(bool, subgoal_graph);
ABSL_DECLARE_FLAG(std::vector<std::string>, structures);
ABSL_DECLARE_FLAG(std::string, diagonal);
ABSL_DECLARE_FLAG(double, weight);
ABSL_DECLARE_FLAG(bool, smooth);
ABSL_DECLARE_FLAG(bool, allow_partial);
ABSL_DECLARE_FLAG(uint64_t, max_expansions);
ABSL_DECLARE_FLAG(int, snap_radius);
ABSL_DECLARE_FLAG(int, batch);
ABSL_DECLARE_FLAG(int, concurrency);
ABSL_DECLARE_FLAG(std::string, duration);
ABSL_DECLARE_FLAG(double, rps);
ABSL_DECLARE_FLAG(bool, stream);
ABSL_DECLARE_FLAG(bool, compare);
ABSL_DECLARE_FLAG(bool, overhead);
ABSL_DECLARE_FLAG(bool, trace);
ABSL_DECLARE_FLAG(bool, json);

namespace gridstar::cli {

namespace v1 = ::gridstar::v1;

// Prints the status ("gridstar: NOT_FOUND: ...", with a hint where one
// helps: a plaintext call refused by a TLS port) and returns the exit code 1.
// With --json also prints {"error":{"code":"NOT_FOUND","message":...}} on
// standard output, so that every answer is one JSON line.
int Fail(const absl::Status& s);
// A local file could not be read or written: "gridstar: cannot write P: <errno
// text>" (never a gRPC code: nothing was asked of the server). Returns 1.
int FailLocal(const std::string& what, const std::string& path, int error);
// Whether the connection was set up with TLS (the hint of Fail).
void SetUsingTls(bool tls);
// The canonical code name of a status code number ("NOT_FOUND").
std::string CodeName(int code);
// One line of protobuf's JSON mapping (lowerCamelCase names, enums by name,
// fields at their defaults included) on standard output.
void PrintJson(const google::protobuf::Message& m);
// True when an answer of this algorithm is an any-angle path (its cost is
// smoothed_cost): gridstar::IsAnyAngle through proto/convert.
bool AnyAngle(v1::Algorithm algorithm);
// The canonical name of an API enum value ("jps+"), convert/names.h.
template <typename E>
std::string Name(E value);
// A path request with the flags' algorithm, policy, weight and budgets.
absl::StatusOr<v1::PathRequest> BaseRequest();
void SetEnds(const ScenarioQuery& q, v1::PathRequest* r);
// A flow-field request to goal (gx, gy) with the flags' policy and max cost.
absl::StatusOr<v1::FlowFieldRequest> FlowRequest(const std::string& map_id, int gx, int gy);
// --duration: plain seconds ("20", "2.5") or an absl duration ("90s", "2m").
absl::StatusOr<absl::Duration> LoadDuration();

// A map's cells as GetMap(include_cells) answers them, as a GridMap; the
// answer (its info, its areas) in *got.
absl::StatusOr<GridMap> FetchMapCells(Client& client, const std::string& id,
                                      v1::GetMapResponse* got);
// The structures column of a map's line (" structures=jump_table:1234,...").
std::string StructuresColumn(const v1::MapInfo& m);
// The register command (cli_register.cc).
int Register(Client& client, const std::vector<std::string>& args);
// The scen and load commands (cli_load.cc).
int Scen(Client& client, const std::vector<std::string>& args);
int Load(Client& client, const std::vector<std::string>& args);
// The render command (cli_render.cc).
int Render(Client& client, const std::vector<std::string>& args);
// The path, group and flow commands (cli_search.cc).
int Path(Client& client, const std::vector<std::string>& args);
int Group(Client& client, const std::vector<std::string>& args);
int Flow(Client& client, const std::vector<std::string>& args);
// The world commands (cli_world.cc).
int World(Client& client, const std::vector<std::string>& args);
// The watch command (cli_watch.cc).
int Watch(Client& client, const std::vector<std::string>& args);
// "x,y x,y ..." of packed cells.
std::string CellList(const google::protobuf::RepeatedField<int32_t>& packed);

template <typename E>
std::string Name(E value) {
  return convert::NameOf(value);
}

}  // namespace gridstar::cli

#endif  // GRIDSTAR_CLIENT_CLI_COMMON_H_
