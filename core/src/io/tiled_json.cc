// Tiled's JSON: .tmj maps and .tsj tilesets, through nlohmann::json.
// Messages name the element by its path (layers[2] "walls").

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "io/text_util.h"
#include "io/tiled_model.h"

namespace gridstar::internal {
namespace {

using Json = nlohmann::json;

absl::StatusOr<Json> Load(absl::string_view data, absl::string_view what) {
  Json json;
  try {
    json = Json::parse(data.begin(), data.end());
  } catch (const Json::parse_error& e) {
    int line = 1;
    for (size_t i = 0; i < e.byte && i < data.size(); ++i) {
      line += data[i] == '\n';
    }
    return Invalid(what,
                   absl::StrCat("line ", line, ": not valid JSON: ", e.what()));
  } catch (const Json::exception& e) {  // A number out of double's range.
    return Invalid(what, absl::StrCat("not valid JSON: ", e.what()));
  }
  if (!json.is_object()) return Invalid(what, "not a JSON object");
  return json;
}

const Json* Find(const Json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

absl::Status Int(const Json& object, const char* key, absl::string_view where,
                 int64_t* out, bool required = true) {
  const Json* v = Find(object, key);
  if (v == nullptr) {
    return required ? Invalid(where, absl::StrCat(key, ": missing"))
                    : absl::OkStatus();
  }
  if (v->is_number_integer()) {
    *out = v->get<int64_t>();
    if (v->is_number_unsigned() && v->get<uint64_t>() > (uint64_t{1} << 62)) {
      return Invalid(where, absl::StrCat(key, ": ", v->dump(), " is too big"));
    }
    return absl::OkStatus();
  }
  if (v->is_number_float()) {
    const double d = v->get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 1e15) {
      *out = static_cast<int64_t>(d);
      return absl::OkStatus();
    }
  }
  return Invalid(where,
                 absl::StrCat(key, ": ", v->dump(), " is not a whole number"));
}

absl::Status Number(const Json& object, const char* key,
                    absl::string_view where, double* out) {
  const Json* v = Find(object, key);
  if (v == nullptr) return absl::OkStatus();
  if (!v->is_number()) {
    return Invalid(where,
                   absl::StrCat(key, ": ", v->dump(), " is not a number"));
  }
  *out = v->get<double>();
  return absl::OkStatus();
}

std::string String(const Json& object, const char* key) {
  const Json* v = Find(object, key);
  return v != nullptr && v->is_string() ? v->get<std::string>() : "";
}

std::string ClassOf(const Json& object) {
  const std::string c = String(object, "class");
  return c.empty() ? String(object, "type") : c;
}

absl::Status Properties(const Json& object, absl::string_view where,
                        TiledEffect* effect) {
  const Json* properties = Find(object, "properties");
  if (properties == nullptr) return absl::OkStatus();
  if (!properties->is_array()) {
    return Invalid(where, "properties: not an array");
  }
  for (size_t i = 0; i < properties->size(); ++i) {
    const Json& p = (*properties)[i];
    const std::string at = absl::StrCat(where, " properties[", i, "]");
    const Json* value = Find(p, "value");
    if (value == nullptr) continue;
    std::string text;
    if (value->is_string()) {
      text = value->get<std::string>();
    } else if (value->is_boolean()) {
      text = value->get<bool>() ? "true" : "false";
    } else if (value->is_number()) {
      text = value->dump();
    } else {
      text = value->dump();
    }
    if (absl::Status s = ReadTiledProperty(String(p, "name"), String(p, "type"),
                                           text, at, effect);
        !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<TiledTileset> Tileset(const Json& json, uint32_t first_gid,
                                     const std::string& where) {
  TiledTileset tileset;
  tileset.first_gid = first_gid;
  tileset.name = String(json, "name");
  tileset.where = where;
  if (absl::Status s =
          Int(json, "tilecount", where, &tileset.tile_count, false);
      !s.ok()) {
    return s;
  }
  const Json* tiles = Find(json, "tiles");
  if (tiles == nullptr) return tileset;
  if (!tiles->is_array()) return Invalid(where, "tiles: not an array");
  for (size_t i = 0; i < tiles->size(); ++i) {
    const Json& tile = (*tiles)[i];
    const std::string at = absl::StrCat(where, " tiles[", i, "]");
    int64_t id = 0;
    if (absl::Status s = Int(tile, "id", at, &id); !s.ok()) return s;
    if (id < 0) return Invalid(at, absl::StrCat("id ", id, " is negative"));
    TiledTileset::Tile& t = tileset.tiles[id];
    t.class_name = ClassOf(tile);
    if (absl::Status s = Properties(tile, at, &t.effect); !s.ok()) return s;
  }
  return tileset;
}

absl::Status TileLayer(const Json& layer, const std::string& where,
                       TiledBuilder* builder) {
  int64_t width = builder->width(), height = builder->height();
  if (absl::Status s = Int(layer, "width", where, &width, false); !s.ok()) {
    return s;
  }
  if (absl::Status s = Int(layer, "height", where, &height, false); !s.ok()) {
    return s;
  }
  if (width != builder->width() || height != builder->height()) {
    return Invalid(
        where, absl::StrCat(width, " x ", height, " is not the map's size"));
  }
  if (Find(layer, "chunks") != nullptr) {
    return Invalid(where, "chunks (an infinite map's data) are not read");
  }
  const size_t count = static_cast<size_t>(width * height);
  const Json* data = Find(layer, "data");
  if (data == nullptr) return Invalid(where, "data: missing");
  std::vector<uint32_t> gids;
  if (data->is_array()) {
    if (data->size() != count) {
      return Invalid(where, absl::StrCat("data: ", data->size(),
                                         " tiles, expected ", count));
    }
    gids.resize(count);
    for (size_t i = 0; i < count; ++i) {
      const Json& v = (*data)[i];
      if (!v.is_number_unsigned() || v.get<uint64_t>() > 0xffffffffULL) {
        return Invalid(where, absl::StrCat("data[", i, "]: ", v.dump(),
                                           " is not a tile id"));
      }
      gids[i] = static_cast<uint32_t>(v.get<uint64_t>());
    }
  } else if (data->is_string()) {
    std::string encoding = String(layer, "encoding");
    if (encoding.empty()) encoding = "base64";
    absl::StatusOr<std::vector<uint32_t>> decoded =
        DecodeTiledLayerData(encoding, String(layer, "compression"),
                             data->get_ref<const std::string&>(), count, where);
    if (!decoded.ok()) return decoded.status();
    gids = *std::move(decoded);
  } else {
    return Invalid(where, "data: neither an array nor a string");
  }
  return builder->AddTileLayer(gids, where);
}

absl::Status ObjectGroup(const Json& layer, const std::string& where,
                         TiledBuilder* builder) {
  const Json* objects = Find(layer, "objects");
  if (objects == nullptr) return absl::OkStatus();
  if (!objects->is_array()) return Invalid(where, "objects: not an array");
  for (size_t i = 0; i < objects->size(); ++i) {
    const Json& json = (*objects)[i];
    TiledObject object;
    object.where =
        absl::StrCat(where, " objects[", i, "] ", Quote(String(json, "name")));
    if (const std::string t = String(json, "template"); !t.empty()) {
      return Invalid(object.where,
                     absl::StrCat("uses the object template ", Quote(t),
                                  ", which is not read (export the map with "
                                  "Tiled's --detach-templates)"));
    }
    object.class_name = ClassOf(json);
    for (auto [name, out] : {std::pair{"x", &object.x},
                             {"y", &object.y},
                             {"width", &object.width},
                             {"height", &object.height},
                             {"rotation", &object.rotation_degrees}}) {
      if (absl::Status s = Number(json, name, object.where, out); !s.ok()) {
        return s;
      }
    }
    if (absl::Status s = Properties(json, object.where, &object.effect);
        !s.ok()) {
      return s;
    }
    auto flag = [&](const char* key) {
      const Json* v = Find(json, key);
      return v != nullptr && v->is_boolean() && v->get<bool>();
    };
    if (Find(json, "gid") != nullptr) {
      int64_t gid = 0;
      if (absl::Status s = Int(json, "gid", object.where, &gid); !s.ok()) {
        return s;
      }
      if (gid <= 0 || gid > 0xffffffffLL) {
        return Invalid(object.where,
                       absl::StrCat("gid ", gid, " is not a tile id"));
      }
      object.shape = TiledObject::Shape::kTile;
      object.gid = static_cast<uint32_t>(gid);
    } else if (flag("ellipse")) {
      object.shape = TiledObject::Shape::kEllipse;
    } else if (const Json* polygon = Find(json, "polygon")) {
      object.shape = TiledObject::Shape::kPolygon;
      if (!polygon->is_array()) {
        return Invalid(object.where, "polygon: not an array");
      }
      for (const Json& point : *polygon) {
        double px = NAN, py = NAN;
        if (absl::Status s = Number(point, "x", object.where, &px); !s.ok()) {
          return s;
        }
        if (absl::Status s = Number(point, "y", object.where, &py); !s.ok()) {
          return s;
        }
        object.points.emplace_back(px, py);
      }
    } else if (flag("point") || Find(json, "polyline") != nullptr ||
               Find(json, "text") != nullptr) {
      object.shape = TiledObject::Shape::kNoArea;
      object.no_area_kind = flag("point")                       ? "point"
                            : Find(json, "polyline") != nullptr ? "polyline"
                                                                : "text";
    }
    if (absl::Status s = builder->AddObject(object); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status Layers(const Json& parent, const std::string& prefix,
                    bool parent_used, const TiledOptions& options,
                    TiledBuilder* builder) {
  const Json* layers = Find(parent, "layers");
  if (layers == nullptr) return absl::OkStatus();
  if (!layers->is_array()) return Invalid(prefix, "layers: not an array");
  for (size_t i = 0; i < layers->size(); ++i) {
    const Json& layer = (*layers)[i];
    const std::string name = String(layer, "name");
    const std::string where =
        absl::StrCat(prefix, "layers[", i, "] ", Quote(name));
    const std::string type = String(layer, "type");
    if (type != "tilelayer" && type != "objectgroup" && type != "group") {
      continue;
    }
    const bool used = builder->UsesLayer(name, parent_used);
    absl::Status s;
    if (type == "group") {
      // A group named in TiledOptions::layers brings all its members.
      s = Layers(layer, absl::StrCat(where, " "),
                 used && !options.layers.empty(), options, builder);
    } else if (!used) {
      continue;
    } else if (type == "tilelayer") {
      s = TileLayer(layer, where, builder);
    } else {
      s = ObjectGroup(layer, where, builder);
    }
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ReadTiledJson(absl::string_view data, const TiledOptions& options,
                           TiledBuilder* builder) {
  absl::StatusOr<Json> json = Load(data, "tiled");
  if (!json.ok()) return json.status();
  int64_t width = 0, height = 0;
  double tile_width = 0, tile_height = 0;
  if (absl::Status s = Int(*json, "width", "tiled", &width); !s.ok()) return s;
  if (absl::Status s = Int(*json, "height", "tiled", &height); !s.ok()) {
    return s;
  }
  if (absl::Status s = Number(*json, "tilewidth", "tiled", &tile_width);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = Number(*json, "tileheight", "tiled", &tile_height);
      !s.ok()) {
    return s;
  }
  const Json* infinite = Find(*json, "infinite");
  if (absl::Status s = builder->Begin(
          width, height, tile_width, tile_height, String(*json, "orientation"),
          infinite != nullptr && infinite->is_boolean() &&
              infinite->get<bool>(),
          "tiled");
      !s.ok()) {
    return s;
  }
  if (const Json* tilesets = Find(*json, "tilesets")) {
    if (!tilesets->is_array())
      return Invalid("tiled", "tilesets: not an array");
    for (size_t i = 0; i < tilesets->size(); ++i) {
      const Json& t = (*tilesets)[i];
      const std::string where = absl::StrCat("tilesets[", i, "]");
      int64_t first_gid = 0;
      if (absl::Status s = Int(t, "firstgid", where, &first_gid); !s.ok()) {
        return s;
      }
      if (first_gid <= 0 || first_gid > 0x0fffffff) {
        return Invalid(
            where, absl::StrCat("firstgid ", first_gid, " is not a tile id"));
      }
      const std::string source = String(t, "source");
      absl::StatusOr<TiledTileset> tileset =
          !source.empty()
              ? ReadExternalTileset(options, source,
                                    static_cast<uint32_t>(first_gid), where)
              : Tileset(t, static_cast<uint32_t>(first_gid), where);
      if (!tileset.ok()) return tileset.status();
      if (absl::Status s = builder->AddTileset(*std::move(tileset)); !s.ok()) {
        return s;
      }
    }
  }
  return Layers(*json, "", false, options, builder);
}

absl::StatusOr<std::vector<std::string>> TiledJsonTilesetSources(
    absl::string_view data) {
  absl::StatusOr<Json> json = Load(data, "tiled");
  if (!json.ok()) return json.status();
  std::vector<std::string> sources;
  if (const Json* tilesets = Find(*json, "tilesets");
      tilesets != nullptr && tilesets->is_array()) {
    for (const Json& t : *tilesets) {
      if (std::string source = String(t, "source"); !source.empty()) {
        sources.push_back(std::move(source));
      }
    }
  }
  return sources;
}

absl::StatusOr<TiledTileset> ReadTsj(absl::string_view data, uint32_t first_gid,
                                     absl::string_view where) {
  absl::StatusOr<Json> json = Load(data, where);
  if (!json.ok()) return json.status();
  return Tileset(*json, first_gid, std::string(where));
}

}  // namespace gridstar::internal
