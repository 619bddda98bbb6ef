// gridstar world ...: worlds of linked maps from the command line.
//
//   gridstar world register ID FILE [--replace]   maps and links from FILE
//   gridstar world get ID | list | delete ID
//   gridstar world path ID MAP SX SY MAP GX GY [path options]
//   gridstar world render ID OUT.png [MAP SX SY MAP GX GY] [--cell_pixels N]
//   gridstar world open|close|remove ID LINK
//   gridstar world cost ID LINK COST
//
// The world file, one item a line ('#' starts a comment):
//   map ID [FILE]      a member map, registered from FILE first when given
//                      (any format `register` reads, by extension)
//   link ID MAP X Y MAP X Y [cost C] [one-way] [closed] [areas A,B,...]
//        [max_size N]  a link from the first cell to the second
// A malformed line stops before anything is sent, naming FILE:LINE.

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "cli_common.h"
#include "convert/convert.h"
#include "gridstar/map_io.h"
#include "gridstar/render.h"

ABSL_DECLARE_FLAG(int, cell_pixels);

namespace gridstar::cli {
namespace {

struct WorldFile {
  v1::RegisterWorldRequest request;
  // (map id, file) of the map lines that name a file.
  std::vector<std::pair<std::string, std::string>> files;
};

absl::Status LineError(const std::string& path, int line,
                       const std::string& what) {
  return absl::InvalidArgumentError(absl::StrCat(path, ":", line, ": ", what));
}

bool Coordinate(absl::string_view text, int32_t* out) {
  return absl::SimpleAtoi(text, out);
}

absl::StatusOr<WorldFile> ParseWorldFile(const std::string& id,
                                         const std::string& path,
                                         absl::string_view text) {
  WorldFile out;
  out.request.set_id(id);
  int number = 0;
  for (absl::string_view raw : absl::StrSplit(text, '\n')) {
    ++number;
    absl::string_view line = raw.substr(0, raw.find('#'));
    std::vector<std::string> w =
        absl::StrSplit(line, absl::ByAnyChar(" \t\r"), absl::SkipEmpty());
    if (w.empty()) continue;
    if (w[0] == "map") {
      if (w.size() != 2 && w.size() != 3) {
        return LineError(path, number, "expected: map ID [FILE]");
      }
      out.request.add_map_ids(w[1]);
      if (w.size() == 3) out.files.emplace_back(w[1], w[2]);
      continue;
    }
    if (w[0] != "link") {
      return LineError(path, number,
                       absl::StrCat("'", w[0], "' is not map or link"));
    }
    if (w.size() < 8) {
      return LineError(path, number,
                       "expected: link ID MAP X Y MAP X Y [cost C] [one-way] "
                       "[closed] [areas A,B,...] [max_size N]");
    }
    v1::Link* l = out.request.add_links();
    l->set_id(w[1]);
    l->mutable_from()->set_map_id(w[2]);
    l->mutable_to()->set_map_id(w[5]);
    int32_t v[4];
    if (!Coordinate(w[3], &v[0]) || !Coordinate(w[4], &v[1]) ||
        !Coordinate(w[6], &v[2]) || !Coordinate(w[7], &v[3])) {
      return LineError(path, number, "a coordinate is not a whole number");
    }
    l->mutable_from()->mutable_cell()->set_x(v[0]);
    l->mutable_from()->mutable_cell()->set_y(v[1]);
    l->mutable_to()->mutable_cell()->set_x(v[2]);
    l->mutable_to()->mutable_cell()->set_y(v[3]);
    l->set_cost(1);
    for (size_t i = 8; i < w.size(); ++i) {
      const bool has_value = i + 1 < w.size();
      if (w[i] == "one-way") {
        l->set_one_way(true);
      } else if (w[i] == "closed") {
        l->set_closed(true);
      } else if (w[i] == "cost" && has_value) {
        double cost = 0;
        if (!absl::SimpleAtod(w[++i], &cost)) {
          return LineError(path, number, "cost: not a number");
        }
        l->set_cost(cost);
      } else if (w[i] == "max_size" && has_value) {
        int32_t size = 0;
        if (!absl::SimpleAtoi(w[++i], &size)) {
          return LineError(path, number, "max_size: not a whole number");
        }
        l->set_max_agent_size(size);
      } else if (w[i] == "areas" && has_value) {
        uint64_t mask = 0;
        for (absl::string_view a : absl::StrSplit(w[++i], ',')) {
          int area = 0;
          if (!absl::SimpleAtoi(a, &area) || area < 0 || area >= 64) {
            return LineError(path, number,
                             absl::StrCat("areas: '", a, "' is not 0..63"));
          }
          mask |= uint64_t{1} << area;
        }
        l->set_areas(mask);
      } else {
        return LineError(path, number,
                         absl::StrCat("'", w[i],
                                      "' is not cost C, one-way, "
                                      "closed, areas A,B or "
                                      "max_size N"));
      }
    }
  }
  return out;
}

void PrintWorld(const v1::WorldInfo& w) {
  std::printf("%s version=%llu maps=%d links=%u open=%u bytes=%llu\n",
              w.id().c_str(), static_cast<unsigned long long>(w.version()),
              w.map_ids_size(), w.link_count(), w.open_links(),
              static_cast<unsigned long long>(w.memory_bytes()));
  for (const v1::Link& l : w.links()) {
    std::printf("  link %s %s (%d, %d) %s %s (%d, %d) cost=%g%s%s\n",
                l.id().c_str(), l.from().map_id().c_str(), l.from().cell().x(),
                l.from().cell().y(), l.one_way() ? "->" : "<->",
                l.to().map_id().c_str(), l.to().cell().x(), l.to().cell().y(),
                l.cost(), l.closed() ? " closed" : "",
                l.max_agent_size() != 0
                    ? absl::StrCat(" max_size=", l.max_agent_size()).c_str()
                    : "");
  }
}

int Answer(const absl::StatusOr<v1::WorldInfo>& info) {
  if (!info.ok()) return Fail(info.status());
  if (absl::GetFlag(FLAGS_json)) {
    PrintJson(*info);
  } else {
    PrintWorld(*info);
  }
  return 0;
}

int WorldRegister(Client& client, const std::vector<std::string>& args) {
  if (args.size() != 2) {
    std::fprintf(stderr,
                 "usage: gridstar world register ID FILE [--replace]\n");
    return 2;
  }
  absl::StatusOr<std::string> text = ReadFile(args[1], int64_t{1} << 24);
  if (!text.ok()) {
    std::fprintf(stderr, "gridstar: cannot read %s\n",
                 std::string(text.status().message()).c_str());
    return 1;
  }
  absl::StatusOr<WorldFile> file = ParseWorldFile(args[0], args[1], *text);
  if (!file.ok()) {
    std::fprintf(stderr, "gridstar: %s\n",
                 std::string(file.status().message()).c_str());
    return 2;
  }
  // Map files are read relative to the world file's folder.
  const size_t slash = args[1].rfind('/');
  const std::string folder =
      slash == std::string::npos ? "" : args[1].substr(0, slash + 1);
  const std::string saved_id = absl::GetFlag(FLAGS_id);
  for (const auto& [id, map_file] : file->files) {
    absl::SetFlag(&FLAGS_id, id);
    const std::string where =
        !map_file.empty() && map_file[0] == '/' ? map_file : folder + map_file;
    // `register` prints nothing on success without --json.
    if (int rc = Register(client, {where}); rc != 0) return rc;
  }
  absl::SetFlag(&FLAGS_id, saved_id);
  file->request.set_replace(absl::GetFlag(FLAGS_replace));
  return Answer(client.RegisterWorld(file->request));
}

// The world path request of `args` (ID MAP SX SY MAP GX GY) and the path
// flags; nullopt after printing the usage.
absl::StatusOr<std::optional<v1::WorldPathRequest>> WorldRequest(
    const std::vector<std::string>& args, absl::string_view usage) {
  int32_t v[4];
  if (args.size() != 7 || !Coordinate(args[2], &v[0]) ||
      !Coordinate(args[3], &v[1]) || !Coordinate(args[5], &v[2]) ||
      !Coordinate(args[6], &v[3])) {
    std::fprintf(stderr, "usage: %s\n", std::string(usage).c_str());
    return std::nullopt;
  }
  absl::StatusOr<v1::PathRequest> base = BaseRequest();
  if (!base.ok()) return base.status();
  if (base->snap_radius() != 0) {
    return absl::InvalidArgumentError(
        "--snap_radius: ends are not snapped across a world");
  }
  v1::WorldPathRequest r;
  r.set_world_id(args[0]);
  r.mutable_start()->set_map_id(args[1]);
  r.mutable_start()->mutable_cell()->set_x(v[0]);
  r.mutable_start()->mutable_cell()->set_y(v[1]);
  r.mutable_goal()->set_map_id(args[4]);
  r.mutable_goal()->mutable_cell()->set_x(v[2]);
  r.mutable_goal()->mutable_cell()->set_y(v[3]);
  r.set_algorithm(base->algorithm());
  r.set_weight(base->weight());
  r.set_diagonal(base->diagonal());
  r.set_max_expansions(base->max_expansions());
  r.set_smooth(base->smooth());
  r.set_allow_partial(base->allow_partial());
  r.set_trace(absl::GetFlag(FLAGS_trace));
  r.set_areas(base->areas());
  *r.mutable_area_costs() = base->area_costs();
  r.set_agent_size(base->agent_size());
  return std::optional<v1::WorldPathRequest>(std::move(r));
}

int WorldPath(Client& client, const std::vector<std::string>& args) {
  absl::StatusOr<std::optional<v1::WorldPathRequest>> asked = WorldRequest(
      args, "gridstar world path ID MAP SX SY MAP GX GY [path options]");
  if (!asked.ok()) return Fail(asked.status());
  if (!asked->has_value()) return 2;
  const v1::WorldPathRequest& r = **asked;
  absl::StatusOr<v1::WorldPathResponse> out = client.FindWorldPath(r);
  if (!out.ok()) return Fail(out.status());
  if (absl::GetFlag(FLAGS_json)) {
    PrintJson(*out);
    return 0;
  }
  for (int i = 0; i < out->legs_size(); ++i) {
    const v1::WorldLeg& leg = out->legs(i);
    const int n = leg.cells_size() / 2;
    std::printf(
        "leg %d map=%s version=%llu cells=%d cost=%.6f from=(%d, %d) "
        "to=(%d, %d) algo=%s\n",
        i, leg.map_id().c_str(),
        static_cast<unsigned long long>(leg.map_version()), n, leg.cost(),
        leg.cells(0), leg.cells(1), leg.cells(2 * n - 2), leg.cells(2 * n - 1),
        Name(leg.algorithm()).c_str());
    if (i < out->link_ids_size()) {
      std::printf("link %s\n", out->link_ids(i).c_str());
    }
  }
  std::printf(
      "cost=%.6f legs=%d links=%d world_version=%llu searches=%u "
      "expanded=%llu search_us=%.0f%s\n",
      out->cost(), out->legs_size(), out->link_ids_size(),
      static_cast<unsigned long long>(out->world_version()), out->searches(),
      static_cast<unsigned long long>(out->expanded()), out->search_micros(),
      out->partial() ? " partial" : "");
  return 0;
}

int WorldEdit(Client& client, const std::string& verb,
              const std::vector<std::string>& args) {
  const bool cost = verb == "cost";
  if (args.size() != (cost ? 3u : 2u)) {
    std::fprintf(stderr, "usage: gridstar world %s ID LINK%s\n", verb.c_str(),
                 cost ? " COST" : "");
    return 2;
  }
  v1::UpdateLinksRequest r;
  r.set_id(args[0]);
  v1::LinkUpdate* u = r.add_updates();
  u->set_link_id(args[1]);
  if (verb == "open") u->set_state(v1::LinkUpdate::STATE_OPEN);
  if (verb == "close") u->set_state(v1::LinkUpdate::STATE_CLOSED);
  if (verb == "remove") u->set_remove(true);
  if (cost) {
    double c = 0;
    if (!absl::SimpleAtod(args[2], &c)) {
      std::fprintf(stderr, "gridstar: COST: '%s' is not a number\n",
                   args[2].c_str());
      return 2;
    }
    u->set_cost(c);
  }
  return Answer(client.UpdateLinks(r));
}

int WorldRender(Client& client, const std::vector<std::string>& args) {
  if (args.size() != 2 && args.size() != 8) {
    std::fprintf(stderr,
                 "usage: gridstar world render ID OUT.png [MAP SX SY MAP GX "
                 "GY] [path options] [--cell_pixels N]\n");
    return 2;
  }
  absl::StatusOr<v1::WorldInfo> world = client.GetWorld(args[0]);
  if (!world.ok()) return Fail(world.status());
  std::optional<v1::WorldPathResponse> path;
  if (args.size() == 8) {
    std::vector<std::string> query = {args[0]};
    query.insert(query.end(), args.begin() + 2, args.end());
    absl::StatusOr<std::optional<v1::WorldPathRequest>> asked = WorldRequest(
        query, "gridstar world render ID OUT.png MAP SX SY MAP GX GY");
    if (!asked.ok()) return Fail(asked.status());
    if (!asked->has_value()) return 2;
    absl::StatusOr<v1::WorldPathResponse> got = client.FindWorldPath(**asked);
    if (!got.ok()) return Fail(got.status());
    path = *std::move(got);
  }
  // Each member map with its cells; the legs on it.
  std::vector<GridMap> maps;
  render::WorldScene scene;
  for (const std::string& id : world->map_ids()) {
    v1::GetMapResponse fetched;
    absl::StatusOr<GridMap> map = FetchMapCells(client, id, &fetched);
    if (!map.ok()) return Fail(map.status());
    const v1::GetMapResponse* got = &fetched;
    maps.push_back(*std::move(map));
    render::WorldScene::Panel panel;
    panel.title = absl::StrCat(id, " v", got->info().version());
    panel.scene.areas.assign(got->areas().begin(), got->areas().end());
    panel.scene.allowed_areas = got->info().default_areas();
    scene.panels.push_back(std::move(panel));
  }
  auto index_of = [&](const std::string& id) {
    for (int i = 0; i < world->map_ids_size(); ++i) {
      if (world->map_ids(i) == id) return i;
    }
    return -1;
  };
  for (size_t i = 0; i < maps.size(); ++i) scene.panels[i].scene.map = &maps[i];
  std::vector<std::string> taken;
  if (path.has_value()) {
    for (const v1::WorldLeg& leg : path->legs()) {
      const int m = index_of(leg.map_id());
      if (m < 0) continue;
      std::vector<Cell> cells = convert::UnpackCells(leg.cells());
      std::vector<Cell>& drawn = scene.panels[m].scene.path;
      drawn.insert(drawn.end(), cells.begin(), cells.end());
    }
    const v1::WorldLeg& first = path->legs(0);
    const v1::WorldLeg& last = path->legs(path->legs_size() - 1);
    scene.panels[index_of(first.map_id())].scene.start =
        Cell{first.cells(0), first.cells(1)};
    scene.panels[index_of(last.map_id())].scene.goal = Cell{
        last.cells(last.cells_size() - 2), last.cells(last.cells_size() - 1)};
    taken.assign(path->link_ids().begin(), path->link_ids().end());
  }
  for (const v1::Link& l : world->links()) {
    render::WorldScene::LinkMark mark;
    mark.from_panel = index_of(l.from().map_id());
    mark.to_panel = index_of(l.to().map_id());
    mark.from = Cell{l.from().cell().x(), l.from().cell().y()};
    mark.to = Cell{l.to().cell().x(), l.to().cell().y()};
    mark.open = !l.closed();
    mark.both_ways = !l.one_way();
    mark.taken = std::find(taken.begin(), taken.end(), l.id()) != taken.end();
    scene.links.push_back(mark);
  }
  scene.caption = absl::StrCat(world->id(), " v", world->version(), ": ",
                               world->map_ids_size(), " maps, ",
                               world->link_count(), " links");
  if (path.has_value()) {
    absl::StrAppend(&scene.caption, "; path cost ",
                    absl::StrFormat("%.2f", path->cost()), " over ",
                    path->legs_size(), " legs");
  }
  render::RenderOptions options;
  options.cell_pixels = absl::GetFlag(FLAGS_cell_pixels);
  absl::StatusOr<std::string> picture = render::RenderWorldPng(scene, options);
  if (!picture.ok()) return Fail(picture.status());
  errno = 0;
  std::ofstream out(args[1], std::ios::binary | std::ios::trunc);
  if (!out) return FailLocal("write", args[1], errno != 0 ? errno : EIO);
  out.write(picture->data(), static_cast<std::streamsize>(picture->size()));
  out.close();
  if (!out) return FailLocal("write", args[1], errno != 0 ? errno : EIO);
  std::printf("wrote %s (png, %zu bytes): %s\n", args[1].c_str(),
              picture->size(), scene.caption.c_str());
  return 0;
}

}  // namespace

int World(Client& client, const std::vector<std::string>& args) {
  const std::string verb = args.empty() ? "" : args[0];
  const std::vector<std::string> rest(args.begin() + (args.empty() ? 0 : 1),
                                      args.end());
  if (verb == "register") return WorldRegister(client, rest);
  if (verb == "path") return WorldPath(client, rest);
  if (verb == "render") return WorldRender(client, rest);
  if (verb == "open" || verb == "close" || verb == "remove" || verb == "cost") {
    return WorldEdit(client, verb, rest);
  }
  if (verb == "get" && rest.size() == 1) {
    return Answer(client.GetWorld(rest[0]));
  }
  if (verb == "delete" && rest.size() == 1) {
    absl::Status s = client.DeleteWorld(rest[0]);
    if (!s.ok()) return Fail(s);
    if (absl::GetFlag(FLAGS_json)) std::printf("{}\n");
    return 0;
  }
  if (verb == "list" && rest.empty()) {
    absl::StatusOr<v1::ListWorldsResponse> list = client.ListWorlds();
    if (!list.ok()) return Fail(list.status());
    if (absl::GetFlag(FLAGS_json)) {
      PrintJson(*list);
      return 0;
    }
    for (const v1::WorldInfo& w : list->worlds()) PrintWorld(w);
    return 0;
  }
  std::fprintf(stderr,
               "usage: gridstar world register ID FILE | get ID | list | "
               "delete ID | path ID MAP SX SY MAP GX GY | render ID OUT.png "
               "[MAP SX SY MAP GX GY] | open|close|remove "
               "ID LINK | cost ID LINK COST\n");
  return 2;
}

}  // namespace gridstar::cli
