#include "cli_common.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "convert/convert.h"
#include "google/protobuf/util/json_util.h"
#include "gridstar/types.h"

ABSL_FLAG(std::string, server, "localhost:50051", "Server address host:port");
ABSL_FLAG(std::string, tls_ca, "",
          "PEM roots that verify the server's certificate; any --tls_* flag "
          "turns TLS on (without --tls_ca: the system's roots). Default: "
          "$GRIDSTAR_TLS_CA");
ABSL_FLAG(
    std::string, tls_cert, "",
    "PEM client certificate, for mutual TLS. Default: $GRIDSTAR_TLS_CERT");
ABSL_FLAG(std::string, tls_key, "",
          "PEM key of --tls_cert. Default: $GRIDSTAR_TLS_KEY");
ABSL_FLAG(std::string, tls_server_name, "",
          "Name to check in the server's certificate instead of --server's "
          "host. Default: $GRIDSTAR_TLS_SERVER_NAME");
ABSL_FLAG(std::string, token_file, "",
          "File whose first line is the key sent as 'authorization: Bearer'; "
          "without it the environment variable GRIDSTAR_TOKEN, if set");
ABSL_FLAG(absl::Duration, deadline, absl::Seconds(10), "Deadline of each call");
ABSL_FLAG(std::string, id, "", "register: the map id");
ABSL_FLAG(bool, replace, false, "register: replace other content under the id");
ABSL_FLAG(std::string, map, "", "scen, load: the registered map id to query");
ABSL_FLAG(std::string, algo, "auto",
          "auto, astar, weighted, dijkstra, baseline, jps, jps+, alt, "
          "bidirectional, hpa, theta, subgoal (any case; jps_plus and "
          "ALGORITHM_JPS_PLUS work too)");
ABSL_FLAG(int, landmarks, 0,
          "register: landmarks for the differential heuristic (0 to 32), built "
          "for the map's default policy");
ABSL_FLAG(std::string, method, "auto", "group: auto, splice or flow-field");
ABSL_FLAG(double, max_cost, 0,
          "flow: leave out cells dearer than this (0 = none)");
ABSL_FLAG(bool, jump_table, true,
          "register: precompute jump distances for jps+ (8 bytes a cell; "
          "kept only on uniform-cost maps)");
ABSL_FLAG(bool, hpa, false,
          "register: build the HPA* abstraction for --algo hpa (about 0.3 "
          "bytes a cell; bounded-suboptimal paths)");
ABSL_FLAG(bool, subgoal_graph, false,
          "register: build the subgoal graph for --algo subgoal (uniform-cost "
          "maps; exact; raced by auto)");
ABSL_FLAG(std::vector<std::string>, structures, {},
          "register: precomputed structures by name, comma-separated, each "
          "NAME or NAME:COUNT (landmarks:16); any an engine keeps (MapInfo "
          "lists them as derived), the four flags above included");
ABSL_FLAG(std::string, diagonal, "",
          "never, no-corner-cutting, allow-corner-cutting (also with '_'; "
          "default: the map's)");
ABSL_FLAG(double, weight, 0,
          "Weight of --algo weighted (0 = server default 1.5)");
ABSL_FLAG(bool, smooth, false, "path: also return smoothed waypoints");
ABSL_FLAG(bool, allow_partial, false, "path: accept a partial path on budget");
ABSL_FLAG(uint64_t, max_expansions, 0, "path: expansion budget (0 = none)");
ABSL_FLAG(int, snap_radius, 0, "path: snap blocked ends within this radius");
ABSL_FLAG(int, agent_size, 0,
          "path, scen, load: the agent's size (1 to 8; 0 = 1): it occupies "
          "that square from its cell right and down");
ABSL_FLAG(std::string, areas, "",
          "path, scen, load: the areas the agent may enter, a bit mask "
          "(decimal or 0x hex; empty = the map's default, on Moving AI maps "
          "ground 0x1 and swamp 0x2; water is 0x4, trees 0x8)");
ABSL_FLAG(std::vector<std::string>, area_costs, {},
          "path, scen, load: cost multiplier per area id, comma separated "
          "(1.5,1,3: area 0 costs 1.5 times, area 2 three times)");
ABSL_FLAG(int, batch, 1,
          "scen, load: queries per FindPaths call (1 = FindPath)");
ABSL_FLAG(int, concurrency, 1, "scen, load: client threads");
ABSL_FLAG(
    std::string, duration, "10",
    "load: how long to run, in seconds (20, 2.5) or with a unit (90s, 2m); "
    "every thread sends at least one request whatever the duration");
ABSL_FLAG(double, rps, 0,
          "load: target queries per second in all (0 = as fast as possible)");
ABSL_FLAG(bool, stream, false,
          "load: send through one FindPathsStream per thread, keeping --batch "
          "requests in flight on each (latency per request)");
ABSL_FLAG(bool, compare, false,
          "group: also time one FindPath call per unit, one after another from "
          "this process, and print both wall times");
ABSL_FLAG(
    bool, overhead, true,
    "group: also search each unit on its own and report the splicing overhead");

ABSL_FLAG(bool, json, false,
          "Print each answer as one line of JSON (protobuf's JSON mapping: "
          "lowerCamelCase fields, enums by name), errors as "
          "{\"error\":{\"code\":...,\"message\":...}}");

namespace gridstar::cli {
namespace {
bool using_tls = false;
}  // namespace

void SetUsingTls(bool tls) { using_tls = tls; }

bool AnyAngle(v1::Algorithm algorithm) {
  const absl::StatusOr<Algorithm> a = convert::AlgorithmFromProto(algorithm, "algorithm");
  return a.ok() && IsAnyAngle(*a);
}

std::string CodeName(int code) {
  return absl::StatusCodeToString(static_cast<absl::StatusCode>(code));
}

void PrintJson(const google::protobuf::Message& m) {
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  std::string out;
  if (!google::protobuf::util::MessageToJsonString(m, &out, options).ok()) {
    out = "{}";
  }
  std::printf("%s\n", out.c_str());
}

namespace {
// With --json: the failure as one JSON line on standard output.
void PrintJsonError(absl::string_view code, absl::string_view message) {
  if (!absl::GetFlag(FLAGS_json)) return;
  std::printf("{\"error\":{\"code\":\"%s\",\"message\":%s}}\n",
              std::string(code).c_str(), convert::JsonQuote(message).c_str());
}
}  // namespace

int Fail(const absl::Status& s) {
  std::string hint;
  if (s.code() == absl::StatusCode::kUnavailable) {
    const absl::string_view m = s.message();
    if (!using_tls && (absl::StrContains(m, "Socket closed") ||
                       absl::StrContains(m, "Connection reset") ||
                       absl::StrContains(m, "handshake"))) {
      hint = absl::StrCat(
          "\n  hint: the server at ", absl::GetFlag(FLAGS_server),
          " closed a plaintext connection, as a TLS port does: pass "
          "--tls_ca CA.pem (or set GRIDSTAR_TLS_CA)");
    } else if (absl::StrContains(m, "Connection refused")) {
      hint = absl::StrCat(
          "\n  hint: nothing listens at ", absl::GetFlag(FLAGS_server),
          ": is gridstar-server running there (--server HOST:PORT)?");
    }
  }
  std::fprintf(stderr, "gridstar: %s%s\n", s.ToString().c_str(), hint.c_str());
  PrintJsonError(absl::StatusCodeToString(s.code()), s.message());
  return 1;
}

int FailLocal(const std::string& what, const std::string& path, int error) {
  const std::string message =
      absl::StrCat("cannot ", what, " ", path, ": ", std::strerror(error));
  std::fprintf(stderr, "gridstar: %s\n", message.c_str());
  PrintJsonError("LOCAL", message);
  return 1;
}

std::string CellList(const google::protobuf::RepeatedField<int32_t>& packed) {
  std::string out;
  for (int i = 0; i + 1 < packed.size(); i += 2) {
    absl::StrAppend(&out, i ? " " : "", packed[i], ",", packed[i + 1]);
  }
  return out;
}

absl::StatusOr<GridMap> FetchMapCells(Client& client, const std::string& id,
                                      v1::GetMapResponse* got) {
  v1::GetMapRequest get;
  get.set_id(id);
  get.set_include_cells(true);
  absl::StatusOr<v1::GetMapResponse> answer = client.GetMap(get);
  if (!answer.ok()) return answer.status();
  *got = *std::move(answer);
  return GridMap::FromCosts(
      got->info().width(), got->info().height(),
      std::vector<uint8_t>(got->raw().begin(), got->raw().end()));
}

absl::StatusOr<v1::PathRequest> BaseRequest() {
  v1::PathRequest r;
  absl::StatusOr<Algorithm> a = ParseAlgorithm(absl::GetFlag(FLAGS_algo));
  if (!a.ok()) return a.status();
  r.set_algorithm(convert::AlgorithmToProto(*a));
  if (!absl::GetFlag(FLAGS_diagonal).empty()) {
    absl::StatusOr<DiagonalPolicy> p =
        ParseDiagonalPolicy(absl::GetFlag(FLAGS_diagonal));
    if (!p.ok()) return p.status();
    r.set_diagonal(convert::PolicyToProto(*p));
  }
  r.set_weight(absl::GetFlag(FLAGS_weight));
  r.set_smooth(absl::GetFlag(FLAGS_smooth));
  r.set_allow_partial(absl::GetFlag(FLAGS_allow_partial));
  r.set_max_expansions(absl::GetFlag(FLAGS_max_expansions));
  r.set_snap_radius(absl::GetFlag(FLAGS_snap_radius));
  r.set_agent_size(absl::GetFlag(FLAGS_agent_size));
  const std::string areas = absl::GetFlag(FLAGS_areas);
  if (!areas.empty()) {
    uint64_t mask = 0;
    const bool hex = absl::StartsWithIgnoreCase(areas, "0x");
    if (!(hex ? absl::SimpleHexAtoi(areas.substr(2), &mask)
              : absl::SimpleAtoi(areas, &mask))) {
      return absl::InvalidArgumentError(
          absl::StrCat("--areas: '", areas, "' is not a bit mask"));
    }
    r.set_areas(mask);
  }
  for (const std::string& c : absl::GetFlag(FLAGS_area_costs)) {
    double v = 0;
    if (!absl::SimpleAtod(c, &v)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--area_costs: '", c, "' is not a number"));
    }
    r.add_area_costs(v);
  }
  return r;
}

absl::StatusOr<v1::FlowFieldRequest> FlowRequest(const std::string& map_id,
                                                 int gx, int gy) {
  v1::FlowFieldRequest r;
  r.set_map_id(map_id);
  r.mutable_goal()->set_x(gx);
  r.mutable_goal()->set_y(gy);
  r.set_max_cost(absl::GetFlag(FLAGS_max_cost));
  absl::StatusOr<v1::PathRequest> base = BaseRequest();
  if (!base.ok()) return base.status();
  r.set_diagonal(base->diagonal());
  return r;
}

void SetEnds(const ScenarioQuery& q, v1::PathRequest* r) {
  r->mutable_start()->set_x(q.start.x);
  r->mutable_start()->set_y(q.start.y);
  r->mutable_goal()->set_x(q.goal.x);
  r->mutable_goal()->set_y(q.goal.y);
}

absl::StatusOr<absl::Duration> LoadDuration() {
  const std::string text = absl::GetFlag(FLAGS_duration);
  double seconds;
  absl::Duration d;
  if (absl::SimpleAtod(text, &seconds)) {
    d = absl::Seconds(seconds);
  } else if (!absl::ParseDuration(text, &d)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--duration: '", text,
                     "' is neither seconds (20) nor a duration (90s)"));
  }
  if (!(d > absl::ZeroDuration())) {
    return absl::InvalidArgumentError(
        absl::StrCat("--duration: '", text, "' must be positive"));
  }
  return d;
}

// " structures=NAME:BYTES,..." for a map's precomputed structures, each
// with the bytes this version holds ("pending" while the server finishes
// it after an update); empty for none.
std::string StructuresColumn(const v1::MapInfo& m) {
  std::string column;
  for (const v1::DerivedInfo& d : m.derived()) {
    absl::StrAppend(&column, column.empty() ? " structures=" : ",", d.name(),
                    ":", d.current() ? absl::StrCat(d.bytes()) : "pending");
  }
  return column;
}

}  // namespace gridstar::cli
