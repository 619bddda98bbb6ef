// gridstar: command-line client of gridstar-server.
//   gridstar maps | health
//   gridstar register --id ID [--replace] [--landmarks K] FILE
//   gridstar delete ID
//   gridstar update ID X Y COST [X Y COST ...]
//   gridstar group ID GX GY SX SY [SX SY ...] [--method M]
//   gridstar flow ID GX GY [--max_cost C]
//   gridstar path ID SX SY GX GY [--algo A] [--diagonal P] [--smooth] ...
//   gridstar watch ID [AGENT SX SY GX GY ...] [--agents FILE] [--events N]
//   gridstar worlds | world register|get|delete|path|open|close|cost ...
//   gridstar scen --map ID SCEN [--batch N] [--concurrency C]
//   gridstar load --map ID SCEN --concurrency C --duration S [--batch N]
//                 [--rps R] [--stream]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "cli_common.h"
#include "client.h"
#include "convert/convert.h"
#include "convert/names.h"
#include "google/protobuf/descriptor.h"
#include "gridstar/group_paths.h"
#include "gridstar/map_io.h"
#include "gridstar/scenario.h"
#include "gridstar/types.h"
#include "program_flags.h"

namespace gridstar::cli {

int Run(const std::vector<std::string>& argv) {
  if (argv.empty()) {
    std::fprintf(stderr, "gridstar: give a command (see --help)\n");
    return 2;
  }
  if (argv[0] == "names") {
    // The one vocabulary (types.h): every enum value's canonical name.
    for (const google::protobuf::EnumDescriptor* e : convert::AllEnums()) {
      for (int i = 0; i < e->value_count(); ++i) {
        if (convert::IsUnspecified(e->value(i))) continue;
        const std::string name = convert::EnumValueName(e, e->value(i)->number());
        if (absl::GetFlag(FLAGS_json)) {
          std::printf("{\"enum\":\"%s\",\"value\":%d,\"name\":\"%s\",\"proto\":\"%s\"}\n",
                      e->name().c_str(), e->value(i)->number(), name.c_str(),
                      e->value(i)->name().c_str());
        } else {
          std::printf("%s %d %s\n", e->name().c_str(), e->value(i)->number(), name.c_str());
        }
      }
    }
    return 0;
  }
  ClientOptions options;
  options.deadline = absl::GetFlag(FLAGS_deadline);
  // Each TLS flag falls back to its environment variable (GRIDSTAR_TLS_CA,
  // ...), so that a container's health check speaks TLS without flags.
  auto flag_or_env = [](const std::string& flag, const char* env) {
    const char* value = std::getenv(env);
    return !flag.empty() || value == nullptr ? flag : std::string(value);
  };
  if (absl::Status s = LoadClientSecurity(
          flag_or_env(absl::GetFlag(FLAGS_tls_ca), "GRIDSTAR_TLS_CA"),
          flag_or_env(absl::GetFlag(FLAGS_tls_cert), "GRIDSTAR_TLS_CERT"),
          flag_or_env(absl::GetFlag(FLAGS_tls_key), "GRIDSTAR_TLS_KEY"),
          absl::GetFlag(FLAGS_token_file), &options);
      !s.ok()) {
    return Fail(s);
  }
  options.tls_server_name =
      flag_or_env(absl::GetFlag(FLAGS_tls_server_name), "GRIDSTAR_TLS_SERVER_NAME");
  SetUsingTls(options.tls);
  const bool json = absl::GetFlag(FLAGS_json);
  Client client(absl::GetFlag(FLAGS_server), options);
  const std::string& cmd = argv[0];
  const std::vector<std::string> args(argv.begin() + 1, argv.end());
  if (cmd == "health") {
    absl::Status s = client.Health();
    if (!s.ok()) return Fail(s);
    std::printf(json ? "{\"status\":\"SERVING\"}\n" : "SERVING\n");
    return 0;
  }
  if (cmd == "maps") {
    absl::StatusOr<v1::ListMapsResponse> list = client.ListMaps();
    if (!list.ok()) return Fail(list.status());
    if (json) {
      PrintJson(*list);
      return 0;
    }
    for (const v1::MapInfo& m : list->maps()) {
      // auto's measurement: each engine's mean us per query ("-" once
      // dropped from the race).
      std::string measured;
      for (const v1::AutoCandidate& c : m.auto_candidates()) {
        absl::StrAppend(&measured, measured.empty() ? " measured_us=" : ",",
                        Name(c.algorithm()), ":",
                        c.dropped() ? std::string("-")
                                    : absl::StrFormat("%.1f", c.mean_us()));
      }
      const std::string structures = StructuresColumn(m);
      std::printf(
          "%s version=%llu size=%dx%d passable=%lld components=%u bytes=%llu "
          "auto=%s%s%s\n",
          m.id().c_str(), static_cast<unsigned long long>(m.version()),
          m.width(), m.height(), static_cast<long long>(m.passable_cells()),
          m.components(), static_cast<unsigned long long>(m.memory_bytes()),
          Name(m.auto_algorithm()).c_str(), structures.c_str(),
          measured.c_str());
    }
    return 0;
  }
  if (cmd == "register") return Register(client, args);
  if (cmd == "delete") {
    if (args.size() != 1) {
      std::fprintf(stderr, "usage: gridstar delete ID\n");
      return 2;
    }
    absl::Status s = client.DeleteMap(args[0]);
    if (!s.ok()) return Fail(s);
    if (json) std::printf("{}\n");
    return 0;
  }
  if (cmd == "update") {
    // update ID X Y COST [X Y COST ...]
    v1::UpdateCellsRequest r;
    bool ok = args.size() >= 4 && (args.size() - 1) % 3 == 0;
    if (ok) r.set_id(args[0]);
    for (size_t i = 1; ok && i + 2 < args.size(); i += 3) {
      int x = 0, y = 0, cost = 0;
      ok = absl::SimpleAtoi(args[i], &x) && absl::SimpleAtoi(args[i + 1], &y) &&
           absl::SimpleAtoi(args[i + 2], &cost) && cost >= 0;
      v1::CellUpdate* u = r.add_cells();
      u->mutable_cell()->set_x(x);
      u->mutable_cell()->set_y(y);
      u->set_cost(static_cast<uint32_t>(cost));
    }
    if (!ok) {
      std::fprintf(stderr,
                   "usage: gridstar update ID X Y COST [X Y COST ...]\n");
      return 2;
    }
    absl::StatusOr<v1::MapInfo> info = client.UpdateCells(r);
    if (!info.ok()) return Fail(info.status());
    if (json) {
      PrintJson(*info);
      return 0;
    }
    std::printf(
        "%s version=%llu passable=%lld components=%u\n", info->id().c_str(),
        static_cast<unsigned long long>(info->version()),
        static_cast<long long>(info->passable_cells()), info->components());
    return 0;
  }
  if (cmd == "path") return Path(client, args);
  if (cmd == "group") return Group(client, args);
  if (cmd == "flow") return Flow(client, args);
  if (cmd == "watch") return Watch(client, args);
  if (cmd == "scen") return Scen(client, args);
  if (cmd == "load") return Load(client, args);
  if (cmd == "render") return Render(client, args);
  if (cmd == "world") return World(client, args);
  if (cmd == "worlds") return World(client, {"list"});
  std::fprintf(stderr, "gridstar: unknown command '%s' (see --help)\n",
               cmd.c_str());
  return 2;
}

}  // namespace gridstar::cli

int main(int argc, char** argv) {
  gridstar::ProgramInfo info;
  info.name = "gridstar";
  info.usage =
      "gridstar COMMAND [args] [flags]: client of gridstar-server.\n"
      "Commands:\n"
      "  health                              is the server serving?\n"
      "  maps                                the maps held, one a line\n"
      "  register --id ID FILE               a map file: Moving AI .map, .pgm, "
      ".png, Tiled .tmx or .tmj\n"
      "  delete ID\n"
      "  update ID X Y COST [X Y COST ...]    COST 0 blocks the cell\n"
      "  path ID SX SY GX GY                 one path (--algo, --diagonal, "
      "--smooth, --trace, ...)\n"
      "  watch ID [AGENT SX SY GX GY ...]     watched agents: prints each "
      "event "
      "(--agents FILE, --events N)\n"
      "  group ID GX GY SX SY [SX SY ...]    units to one shared goal "
      "(--method)\n"
      "  flow ID GX GY                       the goal's flow field, "
      "summarised\n"
      "  render ID OUT.png|OUT.svg [SX SY GX GY [--trace] | GX GY --flow]\n"
      "  worlds                              the worlds of linked maps held\n"
      "  world register ID FILE              a world: maps and links from "
      "FILE (docs/worlds.md)\n"
      "  world get ID | delete ID\n"
      "  world path ID MAP SX SY MAP GX GY   a path across the world "
      "(the path options)\n"
      "  world render ID OUT.png [MAP SX SY MAP GX GY]   its maps side by "
      "side, the links, a path\n"
      "  world open|close|remove ID LINK     a door opened, closed; a link "
      "removed\n"
      "  world cost ID LINK COST             a link re-costed\n"
      "  scen --map ID SCEN                  a Moving AI scenario, checked\n"
      "  load --map ID SCEN --concurrency C --duration S   a load test\n"
      "  names                               every enum value's name "
      "(algorithms, "
      "policies, ...)\n"
      "Coordinates are cells, x right and y down from (0, 0) at the top left.";
  info.groups = {
      {"Connection",
       {"server", "deadline", "token_file", "tls_ca", "tls_cert", "tls_key",
        "tls_server_name"}},
      {"register",
       {"id", "replace", "jump_table", "landmarks", "hpa", "subgoal_graph",
        "structures"}},
      {"register: images (.png, .pgm)",
       {"image_mode", "threshold", "invert", "floor_cost", "palette"}},
      {"register: Tiled maps (.tmx, .tmj)", {"tiled_layers", "tiled_rules"}},
      {"path, scen, load: the query",
       {"algo", "diagonal", "weight", "smooth", "allow_partial",
        "max_expansions", "snap_radius", "agent_size", "areas", "area_costs",
        "trace"}},
      {"group, flow", {"method", "max_cost", "overhead", "compare"}},
      {"watch", {"agents", "events", "watch_for", "replan_if_cheaper"}},
      {"Output", {"json"}},
      {"scen, load",
       {"map", "batch", "concurrency", "duration", "rps", "stream"}},
      {"render", {"flow", "svg", "cell_pixels", "arrow_spacing", "legend"}}};
  info.sources = {"client/"};
  const std::vector<std::string> positional =
      gridstar::ParseProgramFlags(argc, argv, info);
  std::vector<std::string> args(positional.begin() + 1, positional.end());
  return gridstar::cli::Run(args);
}
