#include "rpc/map_requests.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "convert/convert.h"
#include "convert/map_formats.h"
#include "gridstar/agents.h"
#include "gridstar/auto_choice.h"
#include "gridstar/derived_data.h"
#include "gridstar/engines/alt.h"
#include "gridstar/find_path.h"
#include "gridstar/map_import.h"
#include "gridstar/map_io.h"

namespace gridstar::server {

namespace {

// A reader's error with the request's field named: "movingai: line 3: ...",
// "tiled.data: line 12: <layer> ...", "tiled.rules[0]: ..."; a size over the
// limits names the flags.
absl::Status CellsError(v1::RegisterMapRequest::CellsCase cells,
                        const absl::Status& s) {
  absl::string_view message = s.message();
  std::string field;
  switch (cells) {
    case v1::RegisterMapRequest::kRaw:
      field = "raw: ";
      break;
    case v1::RegisterMapRequest::kMovingai:
      field = "movingai: ";
      break;
    case v1::RegisterMapRequest::kPgm:
      field = "pgm: ";
      break;
    case v1::RegisterMapRequest::kPng:
      // libpng's errors already say "png: ".
      field = absl::StartsWith(message, "png: ") ? "" : "png: ";
      break;
    default:
      if (absl::StartsWith(message, "rules[") ||
          absl::StartsWith(message, "layers")) {
        field = "tiled.";
      } else {
        absl::ConsumePrefix(&message, "tiled: ");
        field = "tiled.data: ";
      }
  }
  // Core says which sizes are limits (ResourceExhausted); name the flags.
  return absl::Status(s.code(),
                      absl::StrCat(field, message,
                                   absl::IsResourceExhausted(s)
                                       ? " (--max_map_side, --max_map_cells)"
                                       : ""));
}

}  // namespace

absl::StatusOr<MapWithAreas> MapOfRequest(const v1::RegisterMapRequest& r,
                                          const MapLimits& limits) {
  absl::StatusOr<GridMap> map;
  // Set by the readers that give areas with the cells (images, Tiled).
  std::optional<absl::StatusOr<MapWithAreas>> imported;
  std::vector<uint8_t> text_areas;
  const bool image = r.cells_case() == v1::RegisterMapRequest::kPgm ||
                     r.cells_case() == v1::RegisterMapRequest::kPng;
  if (r.has_image_mapping() && !image) {
    return absl::InvalidArgumentError(
        "image_mapping: only with png or pgm cells");
  }
  absl::StatusOr<ImageMapping> mapping = ImageMapping{};
  if (r.has_image_mapping()) {
    mapping = convert::ImageMappingFromProto(r.image_mapping());
    if (!mapping.ok()) return mapping.status();
  }
  switch (r.cells_case()) {
    case v1::RegisterMapRequest::kRaw:
      if (r.width() <= 0 || r.height() <= 0) {
        return absl::InvalidArgumentError(
            "width, height: required (positive) with raw cells");
      }
      map = ParseRawMap(r.width(), r.height(), r.raw(), limits);
      break;
    case v1::RegisterMapRequest::kMovingai: {
      absl::StatusOr<MapWithAreas> m =
          ParseMovingAiMapWithAreas(r.movingai(), limits);
      if (m.ok()) {
        map = std::move(m->map);
        text_areas = std::move(m->areas);
      } else {
        map = m.status();
      }
      break;
    }
    case v1::RegisterMapRequest::kPgm:
      if (r.has_image_mapping()) {
        imported = ParsePgmMap(r.pgm(), *mapping, limits);
      } else {
        map = ParsePgm(r.pgm(), limits);
      }
      break;
    case v1::RegisterMapRequest::kPng:
      imported = ParsePngMap(r.png(), *mapping, limits);
      break;
    case v1::RegisterMapRequest::kTiled: {
      absl::StatusOr<TiledOptions> options =
          convert::TiledOptionsFromProto(r.tiled());
      if (!options.ok()) return options.status();
      imported = ParseTiledMap(r.tiled().data(), *options, limits);
      break;
    }
    default:
      return absl::InvalidArgumentError(
          "cells: one of raw, movingai, pgm, png or tiled is required");
  }
  if (imported.has_value()) {
    if (imported->ok()) {
      map = std::move((*imported)->map);
      text_areas = std::move((*imported)->areas);
    } else {
      map = imported->status();
    }
  }
  if (!map.ok()) {
    return CellsError(r.cells_case(), map.status());
  }
  if ((r.width() != 0 && r.width() != map->width()) ||
      (r.height() != 0 && r.height() != map->height())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "width, height: ", r.width(), " x ", r.height(),
        " given but the data is ", map->width(), " x ", map->height()));
  }
  std::vector<uint8_t> areas;
  if (!r.areas().empty()) {
    areas.assign(r.areas().begin(), r.areas().end());
    if (absl::Status s =
            ValidateAreas(map->width(), map->height(), areas, "areas");
        !s.ok()) {
      return s;
    }
  } else {
    areas = std::move(text_areas);
  }
  return MapWithAreas{*std::move(map), std::move(areas), 0};
}

namespace {

// The structures a registration asks for, by name and count (0 = the
// structure's default): the four fields that name one each, then
// `structures`. Names are checked by ValidateDerivedOptions.
absl::StatusOr<std::map<std::string, int, std::less<>>> StructuresOfRequest(
    const v1::RegisterMapRequest& r) {
  std::map<std::string, int, std::less<>> structures;
  if (r.jump_table()) structures["jump_table"] = 1;
  if (r.landmarks() != 0) structures["landmarks"] = r.landmarks();
  if (r.hpa()) structures["hpa"] = 1;
  if (r.subgoal_graph()) structures["subgoal_graph"] = 1;
  for (int i = 0; i < r.structures_size(); ++i) {
    const v1::StructureRequest& request = r.structures(i);
    const std::string field = absl::StrCat("structures[", i, "]");
    if (request.name().empty()) {
      return absl::InvalidArgumentError(absl::StrCat(field, ".name: empty"));
    }
    if (!structures.emplace(request.name(), request.count()).second) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ": '", request.name(),
                       "' is asked for twice (here and by an earlier request "
                       "or its own field)"));
    }
  }
  return structures;
}

}  // namespace

absl::StatusOr<MapOptions> MapOptionsOfRequest(
    const v1::RegisterMapRequest& r) {
  absl::StatusOr<DiagonalPolicy> policy =
      convert::PolicyFromProto(r.default_diagonal(), "default_diagonal",
                               DiagonalPolicy::kNoCornerCutting);
  if (!policy.ok()) return policy.status();
  MapOptions options;
  options.default_diagonal = *policy;
  if (absl::StatusOr<std::map<std::string, int, std::less<>>> structures =
          StructuresOfRequest(r);
      structures.ok()) {
    options.structures = *std::move(structures);
  } else {
    return structures.status();
  }
  options.default_areas = r.default_areas() != 0 ? r.default_areas()
                          : r.cells_case() == v1::RegisterMapRequest::kMovingai
                              ? kMovingAiDefaultAreas
                              : kAllAreas;
  if (r.max_agent_size() < 0 || r.max_agent_size() > kMaxAgentSize) {
    return absl::InvalidArgumentError(
        absl::StrCat("max_agent_size: ", r.max_agent_size(), " is outside [0, ",
                     kMaxAgentSize, "]"));
  }
  options.max_agent_size = std::max(1, r.max_agent_size());
  if (absl::Status s = ValidateDerivedOptions(options.derived()); !s.ok()) {
    return s;
  }
  // A count of 0 is the structure's default: stored resolved.
  for (const auto& structure : DerivedStructuresFor(options.derived())) {
    int& count = options.structures[std::string(structure->name())];
    if (count == 0) count = structure->default_count();
  }
  return options;
}

namespace {

// The per-structure fields MapInfo had before `derived` (deprecated, filled
// for existing clients from `derived`): frozen, a structure added later
// appears in `derived` only.
void DeprecatedDerivedFields(const MapSnapshot& s, v1::MapInfo* info) {
  info->set_jump_table(s.options.Asks("jump_table"));
  info->set_landmarks(s.options.CountOf("landmarks"));
  info->set_hpa(s.options.Asks("hpa"));
  info->set_subgoal_graph(s.options.Asks("subgoal_graph"));
  info->set_jump_table_current(true);
  info->set_landmarks_current(true);
  info->set_subgoal_graph_current(true);
  for (const v1::DerivedInfo& d : info->derived()) {
    if (d.name() == "jump_table") {
      info->set_jump_table_bytes(d.bytes());
      info->set_jump_table_build_micros(d.build_micros());
      info->set_jump_table_current(d.current());
    } else if (d.name() == "landmarks") {
      info->set_landmark_bytes(d.bytes());
      info->set_landmark_build_micros(d.build_micros());
      info->set_landmarks_current(d.current());
    } else if (d.name() == "hpa") {
      info->set_hpa_bytes(d.bytes());
      info->set_hpa_build_micros(d.build_micros());
    } else if (d.name() == "subgoal_graph") {
      info->set_subgoal_graph_bytes(d.bytes());
      info->set_subgoal_graph_build_micros(d.build_micros());
      info->set_subgoal_graph_current(d.current());
    }
  }
}

}  // namespace

void MapInfoToProto(const MapSnapshot& s, v1::MapInfo* info) {
  info->set_id(s.id);
  info->set_version(s.version);
  info->set_width(s.map.width());
  info->set_height(s.map.height());
  info->set_passable_cells(s.map.passable_count());
  info->set_components(s.map.component_count());
  info->set_memory_bytes(s.MemoryBytes());
  info->set_default_areas(s.options.default_areas);
  info->set_has_areas(s.areas != nullptr);
  info->set_max_agent_size(s.options.max_agent_size);
  info->set_agent_maps(static_cast<uint32_t>(s.agent_maps->count()));
  info->set_agent_map_bytes(s.agent_maps->bytes());
  info->set_agent_map_build_micros(s.agent_maps->build_micros());
  info->set_default_diagonal(
      convert::PolicyToProto(s.options.default_diagonal));
  // The structures built for this map: its options', and auto's
  // measurement where the registry took one (--auto_measure_queries; later
  // versions keep it).
  DerivedOptions built = s.options.derived();
  bool measured = AutoChoiceOf(s.map) != nullptr;
  for (const DerivedReport& r : s.derived) {
    measured = measured || r.name == kAutoChoiceName;
  }
  if (measured) built.Ask(kAutoChoiceName);
  for (const auto& structure : DerivedStructuresFor(built)) {
    v1::DerivedInfo* d = info->add_derived();
    d->set_name(std::string(structure->name()));
    d->set_bytes(structure->HeldBytes(s.map));
    d->set_build_micros(s.BuildMicros(structure->name()));
    d->set_current(!s.Pending(structure->name()));
  }
  DeprecatedDerivedFields(s, info);
  // What auto runs under the default policy, for a goal the landmarks reach.
  PathQuery q;
  q.algorithm = Algorithm::kAuto;
  q.movement.diagonal = s.options.default_diagonal;
  if (LandmarkCount(s.map) > 0) q.goal = LandmarkCells(s.map)[0];
  info->set_auto_algorithm(
      convert::AlgorithmToProto(ResolveAlgorithm(s.map, q)));
  if (const AutoChoice* choice = AutoChoiceOf(s.map); choice != nullptr) {
    for (const AutoCandidate& c : choice->candidates) {
      v1::AutoCandidate* out = info->add_auto_candidates();
      out->set_algorithm(convert::AlgorithmToProto(c.algorithm));
      out->set_mean_us(c.mean_us);
      out->set_queries(c.queries);
      out->set_dropped(c.dropped);
    }
    info->set_auto_measure_queries(choice->queries);
    info->set_auto_measure_micros(choice->micros);
    info->set_auto_flow_us_per_cell(choice->flow_us_per_cell);
  }
}

}  // namespace gridstar::server
