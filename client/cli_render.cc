// `gridstar render`: fetches a map (GetMap with its cells), optionally one
// path (with its trace) or one flow field, and writes a PNG or SVG picture
// drawn by render.h.
//
//   render ID OUT                      the map alone
//   render ID OUT SX SY GX GY          a path (--algo, --diagonal, --smooth,
//                                      --trace: the cells it expanded)
//   render ID OUT GX GY --flow         the goal's flow field as arrows
// OUT ending in .svg, or --svg, writes SVG; else PNG.

#include <cerrno>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cli_common.h"
#include "convert/convert.h"
#include "gridstar/grid_map.h"
#include "gridstar/render.h"

ABSL_FLAG(bool, trace, false,
          "path, render: ask for the cells the search expanded (render draws "
          "them by expansion order; path prints their count)");
ABSL_FLAG(bool, flow, false, "render: draw the flow field of GX GY");
ABSL_FLAG(bool, svg, false, "render: write SVG (also when OUT ends in .svg)");
ABSL_FLAG(int, cell_pixels, 0,
          "render: pixels per cell side (0 = fit the longer side in 2048 px)");
ABSL_FLAG(bool, legend, true,
          "render: a strip below the map naming every colour (areas, their "
          "costs, what blocks the agent, the path, markers) under a caption");
ABSL_FLAG(int, arrow_spacing, 0,
          "render: cells between flow arrows (0 = about every 16 px)");

namespace gridstar::cli {

int Render(Client& client, const std::vector<std::string>& args) {
  std::vector<int> v;
  for (size_t i = 2; i < args.size(); ++i) {
    int n = 0;
    if (!absl::SimpleAtoi(args[i], &n)) {
      v.clear();
      break;
    }
    v.push_back(n);
  }
  const bool flow = absl::GetFlag(FLAGS_flow);
  const size_t want = flow ? 2 : v.empty() ? 0 : 4;
  if (args.size() < 2 || v.size() != want || args.size() != 2 + want) {
    std::fprintf(stderr,
                 "usage: gridstar render ID OUT [SX SY GX GY] [--algo A "
                 "--trace --smooth --svg --cell_pixels N]\n"
                 "       gridstar render ID OUT GX GY --flow [--arrow_spacing "
                 "N]\n");
    return 2;
  }
  const std::string& id = args[0];
  const std::string& out_path = args[1];
  v1::GetMapResponse fetched;
  absl::StatusOr<GridMap> map = FetchMapCells(client, id, &fetched);
  if (!map.ok()) return Fail(map.status());
  const v1::GetMapResponse* got = &fetched;

  render::Scene scene;
  scene.map = &*map;
  scene.areas.assign(got->areas().begin(), got->areas().end());
  // The query flags, read once: the path's request, and the agent of the
  // picture (--areas, else the map's default areas). A map drawn alone
  // draws whatever they say.
  const absl::StatusOr<v1::PathRequest> asked = BaseRequest();
  scene.allowed_areas = asked.ok() && asked->areas() != 0
                            ? asked->areas()
                            : got->info().default_areas();
  scene.caption = absl::StrCat(id, " v", got->info().version(), " ",
                               map->width(), "x", map->height());
  std::string summary;
  if (flow) {
    absl::StatusOr<v1::FlowFieldRequest> r = FlowRequest(id, v[0], v[1]);
    if (!r.ok()) return Fail(r.status());
    absl::StatusOr<v1::FlowFieldResponse> field = client.ComputeFlowField(*r);
    if (!field.ok()) return Fail(field.status());
    if (field->width() != map->width() || field->height() != map->height()) {
      return Fail(absl::AbortedError(
          "the map changed size between GetMap and ComputeFlowField; retry"));
    }
    scene.flow_directions.assign(field->directions().begin(),
                                 field->directions().end());
    scene.goal = convert::CellFromProto(field->goal());
    summary = absl::StrCat("reached=", field->reached_cells());
    absl::StrAppend(&scene.caption, ": flow field to (", v[0], ",", v[1], "), ",
                    field->reached_cells(), " cells reached");
  } else if (!v.empty()) {
    if (!asked.ok()) return Fail(asked.status());
    v1::PathRequest r = *asked;
    r.set_map_id(id);
    r.mutable_start()->set_x(v[0]);
    r.mutable_start()->set_y(v[1]);
    r.mutable_goal()->set_x(v[2]);
    r.mutable_goal()->set_y(v[3]);
    r.set_trace(absl::GetFlag(FLAGS_trace));
    absl::StatusOr<v1::PathResponse> path = client.FindPath(r);
    if (!path.ok()) return Fail(path.status());
    scene.path = convert::UnpackCells(path->cells());
    scene.waypoints = convert::UnpackCells(path->waypoints());
    scene.trace = convert::UnpackCells(path->trace());
    scene.start = convert::CellFromProto(path->start());
    scene.goal = convert::CellFromProto(path->goal());
    summary = absl::StrCat("cost=", path->cost(), " cells=", scene.path.size(),
                           " algorithm=", Name(path->algorithm()),
                           " expanded=", path->expanded(),
                           " traced=", scene.trace.size(),
                           path->trace_truncated() ? " (truncated)" : "",
                           " version=", path->map_version());
    const bool theta = AnyAngle(path->algorithm());
    absl::StrAppend(
        &scene.caption, ": ", Name(path->algorithm()), " cost ",
        absl::StrFormat("%.2f", theta ? path->smoothed_cost() : path->cost()),
        ", ", scene.path.size(), " cells, ", path->expanded(), " expanded");
  }
  render::RenderOptions options;
  options.cell_pixels = absl::GetFlag(FLAGS_cell_pixels);
  options.arrow_spacing = absl::GetFlag(FLAGS_arrow_spacing);
  options.legend = absl::GetFlag(FLAGS_legend);
  const bool svg =
      absl::GetFlag(FLAGS_svg) || absl::EndsWithIgnoreCase(out_path, ".svg");
  absl::StatusOr<std::string> picture = svg ? render::RenderSvg(scene, options)
                                            : render::RenderPng(scene, options);
  if (!picture.ok()) return Fail(picture.status());
  errno = 0;
  std::ofstream out(out_path, std::ios::binary | std::ios::trunc);
  if (!out) return FailLocal("write", out_path, errno != 0 ? errno : EIO);
  out.write(picture->data(), static_cast<std::streamsize>(picture->size()));
  out.close();
  if (!out) return FailLocal("write", out_path, errno != 0 ? errno : EIO);
  const int k = *render::CellPixels(*map, options);
  // The map's part of the picture (the legend strip, when drawn, is below).
  if (absl::GetFlag(FLAGS_json)) {
    std::printf(
        "{\"wrote\":%s,\"format\":\"%s\",\"mapWidthPx\":%d,"
        "\"mapHeightPx\":%d,\"bytes\":%zu,\"caption\":%s}\n",
        convert::JsonQuote(out_path).c_str(), svg ? "svg" : "png",
        map->width() * k, map->height() * k, picture->size(),
        convert::JsonQuote(scene.caption).c_str());
    return 0;
  }
  std::printf("wrote %s (%s, %dx%d px, %zu bytes)%s%s\n", out_path.c_str(),
              svg ? "svg" : "png", map->width() * k, map->height() * k,
              picture->size(), summary.empty() ? "" : " ", summary.c_str());
  return 0;
}

}  // namespace gridstar::cli
