// The register command: a map file to RegisterMap, its format by extension
// (.png, .tmx/.tmj/.json Tiled maps with their external tilesets read from
// beside them, .pgm) or by content (PGM magic, else Moving AI text).

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "cli_common.h"
#include "gridstar/map_import.h"
#include "gridstar/map_io.h"

ABSL_FLAG(
    std::string, image_mode, "",
    "register: how a PNG's or PGM's pixels become cells: threshold (light "
    "floor, dark walls; a PNG's default), value (the level is the cost; "
    "a PGM's default) or palette (--palette)");
ABSL_FLAG(int, threshold, 0,
          "register: threshold mode's level (1 to 255) from which a pixel is "
          "floor; 0 = 128");
ABSL_FLAG(bool, invert, false,
          "register: images: dark floor and light walls (threshold), or cost "
          "255 - level (value)");
ABSL_FLAG(int, floor_cost, 0,
          "register: threshold mode's floor cost (1 to 255); 0 = 1");
ABSL_FLAG(std::string, palette, "",
          "register: palette mode's colours, comma-separated, each "
          "#RRGGBB=COST or #RRGGBB=COST:AREA (COST 0 blocks)");
ABSL_FLAG(std::vector<std::string>, tiled_layers, {},
          "register: a Tiled map's tile and object layers (or groups) to use, "
          "comma-separated; default all");
ABSL_FLAG(std::string, tiled_rules, "",
          "register: what a Tiled map's tiles and objects do, over their "
          "properties: rules separated by ';', each SELECTOR:SETTINGS with "
          "SELECTOR gid=N, tile=TILESET/ID or class=NAME and SETTINGS "
          "comma-separated cost=N, blocked=true|false, area=N (e.g. "
          "\"class=water:area=2,cost=3;gid=7:blocked=true\")");

namespace gridstar::cli {
namespace {

int Usage(const std::string& what) {
  std::fprintf(stderr, "gridstar: %s\n", what.c_str());
  return 2;
}

std::string Lower(absl::string_view s) { return absl::AsciiStrToLower(s); }

// --palette into the mapping; false (and a message) when malformed.
bool ParsePalette(const std::string& flag, v1::ImageMapping* mapping,
                  std::string* error) {
  for (absl::string_view entry :
       absl::StrSplit(flag, ',', absl::SkipWhitespace())) {
    entry = absl::StripAsciiWhitespace(entry);
    std::pair<absl::string_view, absl::string_view> colour_cost =
        absl::StrSplit(entry, absl::MaxSplits('=', 1));
    std::pair<absl::string_view, absl::string_view> cost_area =
        absl::StrSplit(colour_cost.second, absl::MaxSplits(':', 1));
    absl::string_view hex = colour_cost.first;
    uint32_t rgb = 0, cost = 0, area = 0;
    const bool ok =
        absl::ConsumePrefix(&hex, "#") && hex.size() == 6 &&
        absl::SimpleHexAtoi(hex, &rgb) &&
        absl::SimpleAtoi(cost_area.first, &cost) &&
        (cost_area.second.empty() || absl::SimpleAtoi(cost_area.second, &area));
    if (!ok) {
      *error = absl::StrCat("--palette: '", entry,
                            "' is not #RRGGBB=COST or #RRGGBB=COST:AREA");
      return false;
    }
    v1::PaletteColour* c = mapping->add_palette();
    c->set_rgb(rgb);
    c->set_cost(cost);
    c->set_area(area);
  }
  return true;
}

// --tiled_rules into the map's rules; false (and a message) when malformed.
bool ParseTiledRules(const std::string& flag, v1::TiledMap* tiled,
                     std::string* error) {
  for (absl::string_view text :
       absl::StrSplit(flag, ';', absl::SkipWhitespace())) {
    text = absl::StripAsciiWhitespace(text);
    const std::string bad =
        absl::StrCat("--tiled_rules: '", text,
                     "' is not SELECTOR:SETTINGS (gid=N, tile=TILESET/ID or "
                     "class=NAME, then cost=N, blocked=true|false, area=N)");
    std::pair<absl::string_view, absl::string_view> parts =
        absl::StrSplit(text, absl::MaxSplits(':', 1));
    std::pair<absl::string_view, absl::string_view> selector =
        absl::StrSplit(parts.first, absl::MaxSplits('=', 1));
    v1::TiledRule* rule = tiled->add_rules();
    if (selector.first == "gid") {
      uint32_t gid = 0;
      if (!absl::SimpleAtoi(selector.second, &gid)) return *error = bad, false;
      rule->set_gid(gid);
    } else if (selector.first == "tile") {
      const size_t slash = selector.second.rfind('/');
      int32_t id = 0;
      if (slash == absl::string_view::npos ||
          !absl::SimpleAtoi(selector.second.substr(slash + 1), &id)) {
        return *error = bad, false;
      }
      rule->set_tileset(std::string(selector.second.substr(0, slash)));
      rule->set_tile(id);
    } else if (selector.first == "class") {
      rule->set_class_name(std::string(selector.second));
    } else {
      return *error = bad, false;
    }
    for (absl::string_view setting :
         absl::StrSplit(parts.second, ',', absl::SkipWhitespace())) {
      std::pair<absl::string_view, absl::string_view> kv = absl::StrSplit(
          absl::StripAsciiWhitespace(setting), absl::MaxSplits('=', 1));
      int32_t n = 0;
      if (kv.first == "cost" && absl::SimpleAtoi(kv.second, &n)) {
        rule->set_cost(n);
      } else if (kv.first == "area" && absl::SimpleAtoi(kv.second, &n)) {
        rule->set_area(n);
      } else if (kv.first == "blocked" &&
                 (kv.second == "true" || kv.second == "false")) {
        rule->set_blocked(kv.second == "true");
      } else {
        return *error = bad, false;
      }
    }
  }
  return true;
}

}  // namespace

int Register(Client& client, const std::vector<std::string>& args) {
  if (args.size() != 1 || absl::GetFlag(FLAGS_id).empty()) {
    std::fprintf(stderr,
                 "usage: gridstar register --id ID [--replace] FILE "
                 "(.map, .pgm, .png, .tmx, .tmj)\n");
    return 2;
  }
  const std::string& path = args[0];
  absl::StatusOr<std::string> data = ReadFile(path, int64_t{1} << 30);
  if (!data.ok()) {
    std::fprintf(stderr, "gridstar: cannot read %s\n",
                 std::string(data.status().message()).c_str());
    return 1;
  }
  v1::RegisterMapRequest r;
  r.set_id(absl::GetFlag(FLAGS_id));
  r.set_replace(absl::GetFlag(FLAGS_replace));
  r.set_jump_table(absl::GetFlag(FLAGS_jump_table));
  r.set_landmarks(absl::GetFlag(FLAGS_landmarks));
  r.set_hpa(absl::GetFlag(FLAGS_hpa));
  r.set_subgoal_graph(absl::GetFlag(FLAGS_subgoal_graph));
  for (const std::string& spec : absl::GetFlag(FLAGS_structures)) {
    std::pair<std::string, std::string> parts = absl::StrSplit(spec, ':');
    v1::StructureRequest* s = r.add_structures();
    s->set_name(parts.first);
    int count = 0;
    if (!parts.second.empty() && !absl::SimpleAtoi(parts.second, &count)) {
      return Usage(absl::StrCat("--structures ", spec,
                                ": the count after ':' is not a number"));
    }
    s->set_count(count);
  }

  const std::string name = Lower(path);
  const bool tiled = absl::EndsWith(name, ".tmx") ||
                     absl::EndsWith(name, ".tmj") ||
                     absl::EndsWith(name, ".json");
  const bool png = absl::EndsWith(name, ".png");
  const bool pgm = absl::EndsWith(name, ".pgm") ||
                   absl::StartsWith(*data, "P5") ||
                   absl::StartsWith(*data, "P2");
  const bool image_flags = !absl::GetFlag(FLAGS_image_mode).empty() ||
                           absl::GetFlag(FLAGS_threshold) != 0 ||
                           absl::GetFlag(FLAGS_invert) ||
                           absl::GetFlag(FLAGS_floor_cost) != 0 ||
                           !absl::GetFlag(FLAGS_palette).empty();
  const bool tiled_flags = !absl::GetFlag(FLAGS_tiled_layers).empty() ||
                           !absl::GetFlag(FLAGS_tiled_rules).empty();
  if (image_flags && (tiled || !(png || pgm))) {
    return Usage(
        "--image_mode, --threshold, --invert, --floor_cost and --palette "
        "apply to .png and .pgm files");
  }
  if (tiled_flags && !tiled) {
    return Usage(
        "--tiled_layers and --tiled_rules apply to Tiled maps "
        "(.tmx, .tmj)");
  }
  std::string error;
  if (image_flags) {
    v1::ImageMapping* mapping = r.mutable_image_mapping();
    const std::string mode = Lower(absl::GetFlag(FLAGS_image_mode));
    if (mode == "value") {
      mapping->set_mode(v1::IMAGE_MODE_VALUE);
    } else if (mode == "palette" ||
               (mode.empty() && !absl::GetFlag(FLAGS_palette).empty())) {
      mapping->set_mode(v1::IMAGE_MODE_PALETTE);
    } else if (mode == "threshold" || mode.empty()) {
      mapping->set_mode(v1::IMAGE_MODE_THRESHOLD);
    } else {
      return Usage(absl::StrCat("--image_mode: '", mode,
                                "' is not threshold, value or palette"));
    }
    mapping->set_threshold(absl::GetFlag(FLAGS_threshold));
    mapping->set_invert(absl::GetFlag(FLAGS_invert));
    mapping->set_floor_cost(absl::GetFlag(FLAGS_floor_cost));
    if (!ParsePalette(absl::GetFlag(FLAGS_palette), mapping, &error)) {
      return Usage(error);
    }
  }
  if (tiled) {
    v1::TiledMap* t = r.mutable_tiled();
    absl::StatusOr<std::map<std::string, std::string, std::less<>>> tilesets =
        ReadTiledTilesetsBeside(path, *data);
    if (!tilesets.ok()) {
      std::fprintf(stderr, "gridstar: %s\n",
                   std::string(tilesets.status().message()).c_str());
      return 1;
    }
    for (auto& [source, contents] : *tilesets) {
      v1::TiledFile* f = t->add_tilesets();
      f->set_source(source);
      f->set_data(std::move(contents));
    }
    for (const std::string& layer : absl::GetFlag(FLAGS_tiled_layers)) {
      t->add_layers(layer);
    }
    if (!ParseTiledRules(absl::GetFlag(FLAGS_tiled_rules), t, &error)) {
      return Usage(error);
    }
    t->set_data(*std::move(data));
  } else if (png) {
    r.set_png(*std::move(data));
  } else if (pgm) {
    r.set_pgm(*std::move(data));
  } else {
    r.set_movingai(*std::move(data));
  }
  absl::StatusOr<v1::MapInfo> info = client.RegisterMap(r);
  if (!info.ok()) return Fail(info.status());
  if (r.has_pgm() && !r.has_image_mapping()) {
    // A PGM drawn the usual way (white floor) reads as cost 255 a cell.
    if (absl::StatusOr<GridMap> read = ParsePgm(r.pgm());
        read.ok() && read->passable_count() > 0 && read->min_cost() == 255) {
      std::fprintf(stderr,
                   "gridstar: note: every passable cell of %s costs 255 (its "
                   "pixel value); for white floor on black walls register "
                   "it with --image_mode threshold (cost 1 floors)\n",
                   path.c_str());
    }
  }
  if (absl::GetFlag(FLAGS_json)) {
    PrintJson(*info);
    return 0;
  }
  std::printf("%s version=%llu size=%dx%d%s\n", info->id().c_str(),
              static_cast<unsigned long long>(info->version()), info->width(),
              info->height(), StructuresColumn(*info).c_str());
  return 0;
}

}  // namespace gridstar::cli
