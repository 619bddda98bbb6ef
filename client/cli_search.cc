// `gridstar path`, `group` and `flow`: one search each, printed so that a
// person sees what was computed (cells, waypoints, snapped ends, the trace,
// why another engine ran) or, with --json, one JSON object per answer.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cli_common.h"
#include "convert/convert.h"
#include "gridstar/group_paths.h"
#include "gridstar/types.h"

namespace gridstar::cli {
namespace {

// Parses every argument from `first` on as an integer; false at the first
// that is not one.
bool Ints(const std::vector<std::string>& args, size_t first,
          std::vector<int>* out) {
  for (size_t i = first; i < args.size(); ++i) {
    int n = 0;
    if (!absl::SimpleAtoi(args[i], &n)) return false;
    out->push_back(n);
  }
  return true;
}

void PrintPath(const v1::PathRequest& asked, const v1::PathResponse& out) {
  std::printf("%s\n", CellList(out.cells()).c_str());
  const bool theta = AnyAngle(out.algorithm());
  // An any-angle answer (Theta*'s) is its path: that is the cost; the grid
  // cells it crosses have their own.
  std::string cost = theta ? absl::StrFormat("cost=%.4f grid_cost=%.4f",
                                             out.smoothed_cost(), out.cost())
                           : absl::StrFormat("cost=%.4f", out.cost());
  std::printf(
      "%s cells=%d algorithm=%s expanded=%llu partial=%d version=%llu "
      "queue_us=%.0f search_us=%.0f",
      cost.c_str(), out.cells_size() / 2, Name(out.algorithm()).c_str(),
      static_cast<unsigned long long>(out.expanded()), out.partial() ? 1 : 0,
      static_cast<unsigned long long>(out.map_version()), out.queue_micros(),
      out.search_micros());
  if (out.partial())
    std::printf(" partial_reason=%s", Name(out.partial_reason()).c_str());
  if (out.waypoints_size() > 0 && !theta) {
    std::printf(" smoothed_cost=%.4f", out.smoothed_cost());
  }
  std::printf("\n");
  if (out.waypoints_size() > 0) {
    std::printf("waypoints (%d): %s\n", out.waypoints_size() / 2,
                CellList(out.waypoints()).c_str());
  }
  for (const auto& [name, want, got] :
       {std::tuple<const char*, const v1::Cell&, const v1::Cell&>{
            "start", asked.start(), out.start()},
        {"goal", asked.goal(), out.goal()}}) {
    if (want.x() != got.x() || want.y() != got.y()) {
      std::printf("snapped %s: %d,%d -> %d,%d\n", name, want.x(), want.y(),
                  got.x(), got.y());
    }
  }
  if (asked.trace()) {
    std::printf("trace (%d cells%s): %s\n", out.trace_size() / 2,
                out.trace_truncated() ? ", truncated" : "",
                CellList(out.trace()).c_str());
  }
  if (!out.note().empty()) std::printf("note: %s\n", out.note().c_str());
}

}  // namespace

int Path(Client& client, const std::vector<std::string>& args) {
  std::vector<int> v;
  if (args.size() != 5 || !Ints(args, 1, &v)) {
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
  if (absl::GetFlag(FLAGS_json)) {
    PrintJson(*out);
  } else {
    PrintPath(*r, *out);
  }
  return 0;
}

int Group(Client& client, const std::vector<std::string>& args) {
  // group ID GX GY SX SY [SX SY ...]: one shared goal for every unit.
  std::vector<int> v;
  if (args.empty() || !Ints(args, 1, &v) || v.size() < 4 || v.size() % 2 != 0) {
    std::fprintf(stderr, "usage: gridstar group ID GX GY SX SY [SX SY ...]\n");
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
  int failed = 0;
  for (int i = 0; i < out->units_size(); ++i) {
    if (out->units(i).code() != 0) ++failed;
  }
  if (absl::GetFlag(FLAGS_json)) {
    PrintJson(*out);
  } else {
    for (int i = 0; i < out->units_size(); ++i) {
      const v1::UnitPath& u = out->units(i);
      if (u.code() != 0) {
        std::printf("unit %d: %s: %s\n", i, CodeName(u.code()).c_str(),
                    u.message().c_str());
      } else {
        std::printf("unit %d: cost=%.4f cells=%d spliced=%d optimal=%.4f\n", i,
                    u.path().cost(), u.path().cells_size() / 2,
                    u.spliced() ? 1 : 0, u.independent_cost());
      }
    }
    std::printf(
        "units=%d failed=%d searches=%llu spliced=%u flow_field=%d cached=%d "
        "mean_overhead=%.4f max_overhead=%.4f search_us=%.0f\n",
        out->units_size(), failed,
        static_cast<unsigned long long>(out->searches()), out->spliced_units(),
        out->flow_field() ? 1 : 0, out->flow_field_cached() ? 1 : 0,
        out->mean_cost_overhead(), out->max_cost_overhead(),
        out->search_micros());
  }
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
  if (failed > 0) {
    std::fprintf(stderr, "gridstar: %d of %d units failed\n", failed,
                 out->units_size());
    return 1;
  }
  return 0;
}

int Flow(Client& client, const std::vector<std::string>& args) {
  std::vector<int> v;
  if (args.size() != 3 || !Ints(args, 1, &v)) {
    std::fprintf(
        stderr,
        "usage: gridstar flow ID GX GY [--diagonal P] [--max_cost C]\n");
    return 2;
  }
  absl::StatusOr<v1::FlowFieldRequest> r = FlowRequest(args[0], v[0], v[1]);
  if (!r.ok()) return Fail(r.status());
  absl::StatusOr<v1::FlowFieldResponse> out = client.ComputeFlowField(*r);
  if (!out.ok()) return Fail(out.status());
  if (absl::GetFlag(FLAGS_json)) {
    PrintJson(*out);
    return 0;
  }
  float farthest = 0;
  for (float c : out->costs()) farthest = std::max(farthest, c);
  std::printf(
      "size=%dx%d reached=%lld farthest_cost=%.4f complete=%d cached=%d "
      "version=%llu search_us=%.0f\n",
      out->width(), out->height(), static_cast<long long>(out->reached_cells()),
      farthest, out->complete() ? 1 : 0, out->cached() ? 1 : 0,
      static_cast<unsigned long long>(out->map_version()),
      out->search_micros());
  return 0;
}

}  // namespace gridstar::cli
