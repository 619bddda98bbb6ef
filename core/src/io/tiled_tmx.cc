// Tiled's XML: .tmx maps and .tsx tilesets, through pugixml. Messages name
// the line of the element at fault.

#include <algorithm>
#include <pugixml.hpp>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "io/text_util.h"
#include "io/tiled_model.h"

namespace gridstar::internal {
namespace {

// Line numbers of byte offsets in the document.
class Lines {
 public:
  explicit Lines(absl::string_view text) {
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') newlines_.push_back(i);
    }
  }
  int Of(ptrdiff_t offset) const {
    return static_cast<int>(std::lower_bound(newlines_.begin(), newlines_.end(),
                                             static_cast<size_t>(offset)) -
                            newlines_.begin()) +
           1;
  }

 private:
  std::vector<size_t> newlines_;
};

absl::StatusOr<pugi::xml_document*> Load(absl::string_view data,
                                         pugi::xml_document* doc,
                                         const Lines& lines,
                                         absl::string_view what) {
  pugi::xml_parse_result result =
      doc->load_buffer(data.data(), data.size(), pugi::parse_default);
  if (!result) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, ": line ", lines.Of(result.offset),
                     ": not well-formed XML: ", result.description()));
  }
  return doc;
}

class TmxReader {
 public:
  TmxReader(const Lines& lines, std::string prefix)
      : lines_(lines), prefix_(std::move(prefix)) {}

  std::string Where(const pugi::xml_node& node) const {
    return absl::StrCat(prefix_, "line ", lines_.Of(node.offset_debug()), ": <",
                        node.name(), ">");
  }

  absl::Status Int(const pugi::xml_node& node, const char* name, int64_t* out,
                   bool required = true) const {
    pugi::xml_attribute a = node.attribute(name);
    if (!a) {
      if (!required) return absl::OkStatus();
      return absl::InvalidArgumentError(
          absl::StrCat(Where(node), ": attribute ", name, " is missing"));
    }
    if (!ParseStrictInt(absl::StripAsciiWhitespace(a.value()), out)) {
      return absl::InvalidArgumentError(
          absl::StrCat(Where(node), ": attribute ", name, "=", Quote(a.value()),
                       " is not a whole number"));
    }
    return absl::OkStatus();
  }

  absl::Status Number(const pugi::xml_node& node, const char* name,
                      double* out) const {
    pugi::xml_attribute a = node.attribute(name);
    if (!a) return absl::OkStatus();
    if (!absl::SimpleAtod(a.value(), out)) {
      return absl::InvalidArgumentError(
          absl::StrCat(Where(node), ": attribute ", name, "=", Quote(a.value()),
                       " is not a number"));
    }
    return absl::OkStatus();
  }

  absl::Status Properties(const pugi::xml_node& node,
                          TiledEffect* effect) const {
    for (pugi::xml_node p : node.child("properties").children("property")) {
      const char* value =
          p.attribute("value") ? p.attribute("value").value() : p.text().get();
      if (absl::Status s = ReadTiledProperty(p.attribute("name").value(),
                                             p.attribute("type").value(), value,
                                             Where(p), effect);
          !s.ok()) {
        return s;
      }
    }
    return absl::OkStatus();
  }

  static std::string ClassOf(const pugi::xml_node& node) {
    return node.attribute("class") ? node.attribute("class").value()
                                   : node.attribute("type").value();
  }

  absl::StatusOr<TiledTileset> Tileset(const pugi::xml_node& node,
                                       uint32_t first_gid) const {
    TiledTileset tileset;
    tileset.first_gid = first_gid;
    tileset.name = node.attribute("name").value();
    tileset.where = Where(node);
    if (absl::Status s = Int(node, "tilecount", &tileset.tile_count, false);
        !s.ok()) {
      return s;
    }
    for (pugi::xml_node tile : node.children("tile")) {
      int64_t id = 0;
      if (absl::Status s = Int(tile, "id", &id); !s.ok()) return s;
      if (id < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat(Where(tile), ": id ", id, " is negative"));
      }
      TiledTileset::Tile& t = tileset.tiles[id];
      t.class_name = ClassOf(tile);
      if (absl::Status s = Properties(tile, &t.effect); !s.ok()) return s;
    }
    return tileset;
  }

  absl::Status Layers(const pugi::xml_node& parent, bool parent_used,
                      const TiledOptions& options, TiledBuilder* builder) {
    for (pugi::xml_node node : parent.children()) {
      const absl::string_view kind = node.name();
      if (kind != "layer" && kind != "objectgroup" && kind != "group") continue;
      const bool used =
          builder->UsesLayer(node.attribute("name").value(), parent_used);
      absl::Status s;
      if (kind == "group") {
        // A group named in TiledOptions::layers brings all its members.
        s = Layers(node, used && !options.layers.empty(), options, builder);
      } else if (!used) {
        continue;
      } else if (kind == "layer") {
        s = TileLayer(node, builder);
      } else {
        s = ObjectGroup(node, builder);
      }
      if (!s.ok()) return s;
    }
    return absl::OkStatus();
  }

  absl::Status TileLayer(const pugi::xml_node& layer, TiledBuilder* builder) {
    const std::string where =
        absl::StrCat(Where(layer), " ", Quote(layer.attribute("name").value()));
    int64_t width = builder->width(), height = builder->height();
    if (absl::Status s = Int(layer, "width", &width, false); !s.ok()) return s;
    if (absl::Status s = Int(layer, "height", &height, false); !s.ok()) {
      return s;
    }
    if (width != builder->width() || height != builder->height()) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ": ", width, " x ", height, " is not the map's size"));
    }
    pugi::xml_node data = layer.child("data");
    if (!data) {
      return absl::InvalidArgumentError(absl::StrCat(where, ": has no <data>"));
    }
    if (data.child("chunk")) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ": chunks (an infinite map's data) are not read"));
    }
    const size_t count = static_cast<size_t>(width * height);
    const std::string encoding = data.attribute("encoding").value();
    std::vector<uint32_t> gids;
    if (encoding.empty()) {
      gids.reserve(count);
      for (pugi::xml_node tile : data.children("tile")) {
        if (gids.size() == count) {
          return absl::InvalidArgumentError(absl::StrCat(
              Where(tile), ": more than the layer's ", count, " tiles"));
        }
        int64_t gid = 0;
        if (absl::Status s = Int(tile, "gid", &gid, false); !s.ok()) return s;
        if (gid < 0 || gid > 0xffffffffLL) {
          return absl::InvalidArgumentError(
              absl::StrCat(Where(tile), ": gid ", gid, " is not a tile id"));
        }
        gids.push_back(static_cast<uint32_t>(gid));
      }
      if (gids.size() != count) {
        return absl::InvalidArgumentError(absl::StrCat(
            where, ": ", gids.size(), " <tile> elements, expected ", count));
      }
    } else {
      absl::StatusOr<std::vector<uint32_t>> decoded =
          DecodeTiledLayerData(encoding, data.attribute("compression").value(),
                               data.text().get(), count, where);
      if (!decoded.ok()) return decoded.status();
      gids = *std::move(decoded);
    }
    return builder->AddTileLayer(gids, where);
  }

  absl::Status ObjectGroup(const pugi::xml_node& group, TiledBuilder* builder) {
    for (pugi::xml_node node : group.children("object")) {
      TiledObject object;
      object.where =
          absl::StrCat(Where(node), " ", node.attribute("id").value(), " ",
                       Quote(node.attribute("name").value()));
      if (node.attribute("template")) {
        return absl::InvalidArgumentError(
            absl::StrCat(object.where, ": uses the object template ",
                         Quote(node.attribute("template").value()),
                         ", which is not read (export the map with Tiled's "
                         "--detach-templates)"));
      }
      object.class_name = ClassOf(node);
      for (auto [name, out] : {std::pair{"x", &object.x},
                               {"y", &object.y},
                               {"width", &object.width},
                               {"height", &object.height},
                               {"rotation", &object.rotation_degrees}}) {
        if (absl::Status s = Number(node, name, out); !s.ok()) return s;
      }
      if (absl::Status s = Properties(node, &object.effect); !s.ok()) return s;
      if (node.attribute("gid")) {
        int64_t gid = 0;
        if (absl::Status s = Int(node, "gid", &gid); !s.ok()) return s;
        if (gid <= 0 || gid > 0xffffffffLL) {
          return absl::InvalidArgumentError(
              absl::StrCat(object.where, ": gid ", gid, " is not a tile id"));
        }
        object.shape = TiledObject::Shape::kTile;
        object.gid = static_cast<uint32_t>(gid);
      } else if (node.child("ellipse")) {
        object.shape = TiledObject::Shape::kEllipse;
      } else if (pugi::xml_node polygon = node.child("polygon")) {
        object.shape = TiledObject::Shape::kPolygon;
        for (absl::string_view pair :
             absl::StrSplit(polygon.attribute("points").value(), ' ',
                            absl::SkipWhitespace())) {
          std::pair<absl::string_view, absl::string_view> xy =
              absl::StrSplit(pair, absl::MaxSplits(',', 1));
          double px = 0, py = 0;
          if (!absl::SimpleAtod(xy.first, &px) ||
              !absl::SimpleAtod(xy.second, &py)) {
            return absl::InvalidArgumentError(absl::StrCat(
                Where(polygon), ": point ", Quote(pair), " is not x,y"));
          }
          object.points.emplace_back(px, py);
        }
      } else {
        for (const char* kind : {"point", "polyline", "text"}) {
          if (node.child(kind)) {
            object.shape = TiledObject::Shape::kNoArea;
            object.no_area_kind = kind;
          }
        }
      }
      if (absl::Status s = builder->AddObject(object); !s.ok()) return s;
    }
    return absl::OkStatus();
  }

 private:
  const Lines& lines_;
  std::string prefix_;
};

}  // namespace

absl::Status ReadTmx(absl::string_view data, const TiledOptions& options,
                     TiledBuilder* builder) {
  const Lines lines(data);
  pugi::xml_document doc;
  if (absl::StatusOr<pugi::xml_document*> loaded =
          Load(data, &doc, lines, "tiled");
      !loaded.ok()) {
    return loaded.status();
  }
  TmxReader reader(lines, "");
  pugi::xml_node map = doc.child("map");
  if (!map) {
    return absl::InvalidArgumentError(
        "tiled: the XML has no <map> element (a .tmx map)");
  }
  int64_t width = 0, height = 0, tile_width = 0, tile_height = 0;
  for (auto [name, out] : {std::pair{"width", &width},
                           {"height", &height},
                           {"tilewidth", &tile_width},
                           {"tileheight", &tile_height}}) {
    if (absl::Status s = reader.Int(map, name, out); !s.ok()) return s;
  }
  const absl::string_view infinite = map.attribute("infinite").value();
  if (absl::Status s = builder->Begin(
          width, height, static_cast<double>(tile_width),
          static_cast<double>(tile_height),
          map.attribute("orientation").value(),
          infinite == "1" || infinite == "true", reader.Where(map));
      !s.ok()) {
    return s;
  }
  for (pugi::xml_node node : map.children("tileset")) {
    int64_t first_gid = 0;
    if (absl::Status s = reader.Int(node, "firstgid", &first_gid); !s.ok()) {
      return s;
    }
    if (first_gid <= 0 || first_gid > 0x0fffffff) {
      return absl::InvalidArgumentError(absl::StrCat(
          reader.Where(node), ": firstgid ", first_gid, " is not a tile id"));
    }
    absl::StatusOr<TiledTileset> tileset =
        node.attribute("source")
            ? ReadExternalTileset(options, node.attribute("source").value(),
                                  static_cast<uint32_t>(first_gid),
                                  reader.Where(node))
            : reader.Tileset(node, static_cast<uint32_t>(first_gid));
    if (!tileset.ok()) return tileset.status();
    if (absl::Status s = builder->AddTileset(*std::move(tileset)); !s.ok()) {
      return s;
    }
  }
  return reader.Layers(map, false, options, builder);
}

absl::StatusOr<std::vector<std::string>> TmxTilesetSources(
    absl::string_view data) {
  const Lines lines(data);
  pugi::xml_document doc;
  if (absl::StatusOr<pugi::xml_document*> loaded =
          Load(data, &doc, lines, "tiled");
      !loaded.ok()) {
    return loaded.status();
  }
  std::vector<std::string> sources;
  for (pugi::xml_node node : doc.child("map").children("tileset")) {
    if (node.attribute("source")) {
      sources.push_back(node.attribute("source").value());
    }
  }
  return sources;
}

absl::StatusOr<TiledTileset> ReadTsx(absl::string_view data, uint32_t first_gid,
                                     absl::string_view where) {
  const Lines lines(data);
  pugi::xml_document doc;
  if (absl::StatusOr<pugi::xml_document*> loaded =
          Load(data, &doc, lines, where);
      !loaded.ok()) {
    return loaded.status();
  }
  pugi::xml_node node = doc.child("tileset");
  if (!node) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": the XML has no <tileset> element"));
  }
  TmxReader reader(lines, absl::StrCat(where, ": "));
  return reader.Tileset(node, first_gid);
}

}  // namespace gridstar::internal
