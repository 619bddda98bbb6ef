// gridstar: command-line client of gridstar-server.
//   gridstar maps | health
//   gridstar register --id ID [--replace] [--landmarks K] FILE
//   gridstar delete ID
//   gridstar update ID X Y COST [X Y COST ...]
//   gridstar group ID GX GY SX SY [SX SY ...] [--method M]
//   gridstar flow ID GX GY [--max_cost C]
//   gridstar path ID SX SY GX GY [--algo A] [--diagonal P] [--smooth] ...
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
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "cli_common.h"
#include "client.h"
#include "convert/convert.h"
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
  Client client(absl::GetFlag(FLAGS_server), options);
  const std::string& cmd = argv[0];
  const std::vector<std::string> args(argv.begin() + 1, argv.end());
  if (cmd == "health") {
    absl::Status s = client.Health();
    if (!s.ok()) return Fail(s);
    std::printf("SERVING\n");
    return 0;
  }
  if (cmd == "maps") {
    absl::StatusOr<v1::ListMapsResponse> list = client.ListMaps();
    if (!list.ok()) return Fail(list.status());
    for (const v1::MapInfo& m : list->maps()) {
      // auto's measurement: each engine's mean us per query ("-" once
      // dropped from the race).
      std::string measured;
      for (const v1::AutoCandidate& c : m.auto_candidates()) {
        absl::StrAppend(&measured, measured.empty() ? " measured_us=" : ",",
                        absl::AsciiStrToLower(absl::StripPrefix(
                            v1::Algorithm_Name(c.algorithm()), "ALGORITHM_")),
                        ":",
                        c.dropped() ? std::string("-")
                                    : absl::StrFormat("%.1f", c.mean_us()));
      }
      std::printf(
          "%s version=%llu size=%dx%d passable=%lld components=%u bytes=%llu "
          "jump_table_bytes=%llu hpa_bytes=%llu auto=%s%s\n",
          m.id().c_str(), static_cast<unsigned long long>(m.version()),
          m.width(), m.height(), static_cast<long long>(m.passable_cells()),
          m.components(), static_cast<unsigned long long>(m.memory_bytes()),
          static_cast<unsigned long long>(m.jump_table_bytes()),
          static_cast<unsigned long long>(m.hpa_bytes()),
          v1::Algorithm_Name(m.auto_algorithm()).c_str(), measured.c_str());
    }
    return 0;
  }
  if (cmd == "register") {
    if (args.size() != 1 || absl::GetFlag(FLAGS_id).empty()) {
      std::fprintf(stderr,
                   "usage: gridstar register --id ID [--replace] FILE\n");
      return 2;
    }
    absl::StatusOr<std::string> data = ReadFile(args[0], int64_t{1} << 30);
    if (!data.ok()) return Fail(data.status());
    v1::RegisterMapRequest r;
    r.set_id(absl::GetFlag(FLAGS_id));
    r.set_replace(absl::GetFlag(FLAGS_replace));
    r.set_jump_table(absl::GetFlag(FLAGS_jump_table));
    r.set_landmarks(absl::GetFlag(FLAGS_landmarks));
    r.set_hpa(absl::GetFlag(FLAGS_hpa));
    r.set_subgoal_graph(absl::GetFlag(FLAGS_subgoal_graph));
    if (data->rfind("P5", 0) == 0 || data->rfind("P2", 0) == 0) {
      r.set_pgm(*data);
    } else {
      r.set_movingai(*data);
    }
    absl::StatusOr<v1::MapInfo> info = client.RegisterMap(r);
    if (!info.ok()) return Fail(info.status());
    std::printf("%s version=%llu size=%dx%d\n", info->id().c_str(),
                static_cast<unsigned long long>(info->version()), info->width(),
                info->height());
    return 0;
  }
  if (cmd == "delete") {
    if (args.size() != 1) {
      std::fprintf(stderr, "usage: gridstar delete ID\n");
      return 2;
    }
    absl::Status s = client.DeleteMap(args[0]);
    return s.ok() ? 0 : Fail(s);
  }
  if (cmd == "path") {
    int v[4];
    if (args.size() != 5 || !absl::SimpleAtoi(args[1], &v[0]) ||
        !absl::SimpleAtoi(args[2], &v[1]) ||
        !absl::SimpleAtoi(args[3], &v[2]) ||
        !absl::SimpleAtoi(args[4], &v[3])) {
      std::fprintf(stderr, "usage: gridstar path ID SX SY GX GY [options]\n");
      return 2;
    }
    absl::StatusOr<v1::PathRequest> r = BaseRequest();
    if (!r.ok()) return Fail(r.status());
    r->set_map_id(args[0]);
    r->mutable_start()->set_x(v[0]);
    r->mutable_start()->set_y(v[1]);
    r->mutable_goal()->set_x(v[2]);
    r->mutable_goal()->set_y(v[3]);
    r->set_trace(absl::GetFlag(FLAGS_trace));
    absl::StatusOr<v1::PathResponse> out = client.FindPath(*r);
    if (!out.ok()) return Fail(out.status());
    std::string cells;
    for (int i = 0; i + 1 < out->cells_size(); i += 2) {
      absl::StrAppend(&cells, i ? " " : "", out->cells(i), ",",
                      out->cells(i + 1));
    }
    std::printf("%s\n", cells.c_str());
    std::printf(
        "cost=%.4f cells=%d algorithm=%s expanded=%llu partial=%d version=%llu "
        "queue_us=%.0f search_us=%.0f",
        out->cost(), out->cells_size() / 2,
        v1::Algorithm_Name(out->algorithm()).c_str(),
        static_cast<unsigned long long>(out->expanded()),
        out->partial() ? 1 : 0,
        static_cast<unsigned long long>(out->map_version()),
        out->queue_micros(), out->search_micros());
    if (out->waypoints_size() > 0) {
      std::printf(" waypoints=%d smoothed_cost=%.4f", out->waypoints_size() / 2,
                  out->smoothed_cost());
    }
    if (absl::GetFlag(FLAGS_trace)) {
      std::printf(" traced=%d%s", out->trace_size() / 2,
                  out->trace_truncated() ? " (truncated)" : "");
    }
    std::printf("\n");
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
    std::printf(
        "%s version=%llu passable=%lld components=%u\n", info->id().c_str(),
        static_cast<unsigned long long>(info->version()),
        static_cast<long long>(info->passable_cells()), info->components());
    return 0;
  }
  if (cmd == "group") {
    // group ID GX GY SX SY [SX SY ...]: one shared goal for every unit.
    std::vector<int> v;
    for (size_t i = 1; i < args.size(); ++i) {
      int n;
      if (!absl::SimpleAtoi(args[i], &n)) break;
      v.push_back(n);
    }
    if (args.empty() || v.size() < 4 || v.size() % 2 != 0 ||
        v.size() + 1 != args.size()) {
      std::fprintf(stderr,
                   "usage: gridstar group ID GX GY SX SY [SX SY ...]\n");
      return 2;
    }
    v1::GroupPathsRequest r;
    r.set_map_id(args[0]);
    r.add_goals()->set_x(v[0]);
    r.mutable_goals(0)->set_y(v[1]);
    for (size_t i = 2; i + 1 < v.size(); i += 2) {
      v1::Cell* c = r.add_starts();
      c->set_x(v[i]);
      c->set_y(v[i + 1]);
    }
    absl::StatusOr<v1::PathRequest> base = BaseRequest();
    if (!base.ok()) return Fail(base.status());
    r.set_algorithm(base->algorithm());
    r.set_diagonal(base->diagonal());
    r.set_report_overhead(absl::GetFlag(FLAGS_overhead));
    absl::StatusOr<GroupMethod> method =
        ParseGroupMethod(absl::GetFlag(FLAGS_method));
    if (!method.ok()) {
      std::fprintf(stderr, "gridstar: --%s\n",
                   std::string(method.status().message()).c_str());
      return 2;
    }
    r.set_method(convert::GroupMethodToProto(*method));
    const auto group_start = std::chrono::steady_clock::now();
    absl::StatusOr<v1::GroupPathsResponse> out = client.FindGroupPaths(r);
    const double group_us = std::chrono::duration<double, std::micro>(
                                std::chrono::steady_clock::now() - group_start)
                                .count();
    if (!out.ok()) return Fail(out.status());
    for (int i = 0; i < out->units_size(); ++i) {
      const v1::UnitPath& u = out->units(i);
      if (u.code() != 0) {
        std::printf("unit %d: error %d %s\n", i, u.code(), u.message().c_str());
      } else {
        std::printf("unit %d: cost=%.4f cells=%d spliced=%d optimal=%.4f\n", i,
                    u.path().cost(), u.path().cells_size() / 2,
                    u.spliced() ? 1 : 0, u.independent_cost());
      }
    }
    std::printf(
        "units=%d searches=%llu spliced=%u flow_field=%d cached=%d "
        "mean_overhead=%.4f max_overhead=%.4f search_us=%.0f\n",
        out->units_size(), static_cast<unsigned long long>(out->searches()),
        out->spliced_units(), out->flow_field() ? 1 : 0,
        out->flow_field_cached() ? 1 : 0, out->mean_cost_overhead(),
        out->max_cost_overhead(), out->search_micros());
    if (absl::GetFlag(FLAGS_compare)) {
      const auto t0 = std::chrono::steady_clock::now();
      for (const v1::Cell& c : r.starts()) {
        v1::PathRequest one = *base;
        one.set_map_id(r.map_id());
        *one.mutable_start() = c;
        *one.mutable_goal() = r.goals(0);
        absl::StatusOr<v1::PathResponse> path = client.FindPath(one);
        if (!path.ok()) return Fail(path.status());
      }
      const double each_us = std::chrono::duration<double, std::micro>(
                                 std::chrono::steady_clock::now() - t0)
                                 .count();
      std::printf("group_wall_us=%.0f independent_wall_us=%.0f ratio=%.3f\n",
                  group_us, each_us, group_us / each_us);
    }
    return 0;
  }
  if (cmd == "flow") {
    int gx = 0, gy = 0;
    if (args.size() != 3 || !absl::SimpleAtoi(args[1], &gx) ||
        !absl::SimpleAtoi(args[2], &gy)) {
      std::fprintf(
          stderr,
          "usage: gridstar flow ID GX GY [--diagonal P] [--max_cost C]\n");
      return 2;
    }
    v1::FlowFieldRequest r;
    r.set_map_id(args[0]);
    r.mutable_goal()->set_x(gx);
    r.mutable_goal()->set_y(gy);
    r.set_max_cost(absl::GetFlag(FLAGS_max_cost));
    absl::StatusOr<v1::PathRequest> base = BaseRequest();
    if (!base.ok()) return Fail(base.status());
    r.set_diagonal(base->diagonal());
    absl::StatusOr<v1::FlowFieldResponse> out = client.ComputeFlowField(r);
    if (!out.ok()) return Fail(out.status());
    float farthest = 0;
    for (float c : out->costs()) farthest = std::max(farthest, c);
    std::printf(
        "size=%dx%d reached=%lld farthest_cost=%.4f complete=%d cached=%d "
        "version=%llu search_us=%.0f\n",
        out->width(), out->height(),
        static_cast<long long>(out->reached_cells()), farthest,
        out->complete() ? 1 : 0, out->cached() ? 1 : 0,
        static_cast<unsigned long long>(out->map_version()),
        out->search_micros());
    return 0;
  }
  if (cmd == "scen") return Scen(client, args);
  if (cmd == "load") return Load(client, args);
  if (cmd == "render") return Render(client, args);
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
      "  register --id ID FILE               a Moving AI .map or PGM file\n"
      "  delete ID\n"
      "  update ID X Y COST [X Y COST ...]    COST 0 blocks the cell\n"
      "  path ID SX SY GX GY                 one path (--algo, --diagonal, "
      "--smooth, --trace, ...)\n"
      "  group ID GX GY SX SY [SX SY ...]    units to one shared goal (--method)\n"
      "  flow ID GX GY                       the goal's flow field, summarised\n"
      "  render ID OUT.png|OUT.svg [SX SY GX GY [--trace] | GX GY --flow]\n"
      "  scen --map ID SCEN                  a Moving AI scenario, checked\n"
      "  load --map ID SCEN --concurrency C --duration S   a load test\n"
      "Coordinates are cells, x right and y down from (0, 0) at the top left.";
  info.groups = {
      {"Connection",
       {"server", "deadline", "token_file", "tls_ca", "tls_cert", "tls_key",
        "tls_server_name"}},
      {"register", {"id", "replace", "jump_table", "landmarks", "hpa", "subgoal_graph"}},
      {"path, scen, load: the query",
       {"algo", "diagonal", "weight", "smooth", "allow_partial", "max_expansions",
        "snap_radius", "agent_size", "areas", "area_costs", "trace"}},
      {"group, flow", {"method", "max_cost", "overhead", "compare"}},
      {"scen, load", {"map", "batch", "concurrency", "duration", "rps", "stream"}},
      {"render", {"flow", "svg", "cell_pixels", "arrow_spacing"}}};
  info.sources = {"client/"};
  const std::vector<std::string> positional =
      gridstar::ParseProgramFlags(argc, argv, info);
  std::vector<std::string> args(positional.begin() + 1, positional.end());
  return gridstar::cli::Run(args);
}
