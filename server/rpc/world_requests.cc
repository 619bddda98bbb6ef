#include "rpc/world_requests.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "convert/convert.h"

namespace gridstar::server {

absl::StatusOr<StoredLink> LinkOfProto(const v1::Link& link,
                                       const std::string& field) {
  if (!link.has_from() || !link.from().has_cell()) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ".from: required (map_id and cell)"));
  }
  if (!link.has_to() || !link.to().has_cell()) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ".to: required (map_id and cell)"));
  }
  StoredLink out;
  out.id = link.id();
  out.from_map = link.from().map_id();
  out.from = Cell{link.from().cell().x(), link.from().cell().y()};
  out.to_map = link.to().map_id();
  out.to = Cell{link.to().cell().x(), link.to().cell().y()};
  out.cost = link.cost();
  out.both_ways = !link.one_way();
  out.open = !link.closed();
  out.areas = link.areas() == 0 ? kAllAreas : link.areas();
  out.max_agent_size =
      link.max_agent_size() == 0 ? kMaxAgentSize : link.max_agent_size();
  return out;
}

void LinkToProto(const StoredLink& link, v1::Link* out) {
  out->set_id(link.id);
  out->mutable_from()->set_map_id(link.from_map);
  out->mutable_from()->mutable_cell()->set_x(link.from.x);
  out->mutable_from()->mutable_cell()->set_y(link.from.y);
  out->mutable_to()->set_map_id(link.to_map);
  out->mutable_to()->mutable_cell()->set_x(link.to.x);
  out->mutable_to()->mutable_cell()->set_y(link.to.y);
  out->set_cost(link.cost);
  out->set_one_way(!link.both_ways);
  out->set_closed(!link.open);
  out->set_areas(link.areas == kAllAreas ? 0 : link.areas);
  out->set_max_agent_size(
      link.max_agent_size == kMaxAgentSize ? 0 : link.max_agent_size);
}

absl::StatusOr<StoredWorld> WorldOfRequest(
    const v1::RegisterWorldRequest& request) {
  StoredWorld world;
  world.id = request.id();
  world.maps.assign(request.map_ids().begin(), request.map_ids().end());
  for (int i = 0; i < request.links_size(); ++i) {
    absl::StatusOr<StoredLink> link =
        LinkOfProto(request.links(i), absl::StrCat("links[", i, "]"));
    if (!link.ok()) return link.status();
    world.links.push_back(*std::move(link));
  }
  return world;
}

absl::StatusOr<std::vector<LinkEdit>> LinkEditsOfRequest(
    const v1::UpdateLinksRequest& request) {
  std::vector<LinkEdit> edits;
  for (int i = 0; i < request.updates_size(); ++i) {
    const v1::LinkUpdate& u = request.updates(i);
    const std::string field = absl::StrCat("updates[", i, "]");
    LinkEdit e;
    e.link_id = u.link_id();
    e.remove = u.remove();
    if (u.has_add()) {
      if (u.remove()) {
        return absl::InvalidArgumentError(
            absl::StrCat(field, ": add and remove at once"));
      }
      absl::StatusOr<StoredLink> link = LinkOfProto(u.add(), field + ".add");
      if (!link.ok()) return link.status();
      e.add = *std::move(link);
    } else if (!u.remove()) {
      if (u.state() == v1::LinkUpdate::STATE_OPEN) e.open = true;
      if (u.state() == v1::LinkUpdate::STATE_CLOSED) e.open = false;
      if (u.state() != v1::LinkUpdate::STATE_UNCHANGED &&
          u.state() != v1::LinkUpdate::STATE_OPEN &&
          u.state() != v1::LinkUpdate::STATE_CLOSED) {
        return absl::InvalidArgumentError(absl::StrCat(
            field, ".state: unknown value ", static_cast<int>(u.state())));
      }
      if (u.has_cost()) e.cost = u.cost();
      if (!e.open.has_value() && !e.cost.has_value()) {
        return absl::InvalidArgumentError(absl::StrCat(
            field, ": asks for nothing (state, cost, add or remove)"));
      }
    }
    edits.push_back(std::move(e));
  }
  return edits;
}

void WorldInfoToProto(const WorldSnapshot& world,
                      const std::vector<WorldRegistry::TableState>& tables,
                      bool with_links, v1::WorldInfo* info) {
  info->set_id(world.id);
  info->set_version(world.version);
  for (const std::string& m : world.maps) info->add_map_ids(m);
  uint32_t open = 0;
  size_t bytes = sizeof(world);
  for (const StoredLink& link : world.links) {
    if (with_links) LinkToProto(link, info->add_links());
    if (link.open) ++open;
    bytes += sizeof(link) + link.id.size() + link.from_map.size() +
             link.to_map.size();
  }
  info->set_link_count(static_cast<uint32_t>(world.links.size()));
  info->set_open_links(open);
  for (const WorldRegistry::TableState& t : tables) {
    info->add_table_map_versions(t.map_version);
    info->add_tables_current(t.current);
    bytes += t.bytes;
  }
  info->set_memory_bytes(bytes);
  info->set_bytes_per_link(world.links.empty() ? 0
                                               : static_cast<double>(bytes) /
                                                     world.links.size());
}

absl::Status WorldAskFromProto(const v1::WorldPathRequest& r,
                               const WorldSnapshot& world,
                               absl::string_view prefix, WorldAsk* ask) {
  for (const auto& [name, end, out] :
       {std::make_tuple("start", &r.start(), &ask->query.start),
        std::make_tuple("goal", &r.goal(), &ask->query.goal)}) {
    const std::string field = absl::StrCat(prefix, name);
    if (!end->has_cell()) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ": required (map_id and cell)"));
    }
    const int m = world.MapIndex(end->map_id());
    if (m < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".map_id: '", end->map_id().substr(0, 128),
                       "' is not a map of world '", world.id, "'"));
    }
    out->map = m;
    out->cell = Cell{end->cell().x(), end->cell().y()};
  }
  // The leg query as a PathRequest with these fields reads it.
  v1::PathRequest leg;
  *leg.mutable_start() = r.start().cell();
  *leg.mutable_goal() = r.goal().cell();
  leg.set_algorithm(r.algorithm());
  leg.set_weight(r.weight());
  leg.set_diagonal(r.diagonal());
  leg.set_max_expansions(r.max_expansions());
  leg.set_smooth(r.smooth());
  leg.set_trace(r.trace());
  ask->query.leg = PathQuery{};
  if (absl::Status s = convert::PathQueryFromProto(
          leg, DiagonalPolicy::kNoCornerCutting, prefix, &ask->query.leg);
      !s.ok()) {
    return s;
  }
  ask->diagonal_from_map = r.diagonal() == v1::DIAGONAL_POLICY_UNSPECIFIED;
  ask->allow_partial = r.allow_partial();
  ask->areas = r.areas();
  ask->area_costs.assign(r.area_costs().begin(), r.area_costs().end());
  ask->agent_size = r.agent_size();
  return absl::OkStatus();
}

WorldPathAnswer WorldPathAnswerFrom(WorldResult result,
                                    const PreparedWorld& prepared) {
  WorldPathAnswer a;
  for (WorldLeg& leg : result.legs) {
    WorldPathAnswer::Leg l;
    l.map_id = prepared.world->maps[leg.map];
    l.map_version = prepared.maps[leg.map]->version;
    l.cells = std::move(leg.path.cells);
    l.cost = leg.path.cost;
    l.waypoints = std::move(leg.path.waypoints);
    l.smoothed_cost = leg.path.smoothed_cost;
    l.expanded = leg.path.expanded;
    l.algorithm = leg.path.algorithm;
    l.trace = std::move(leg.path.trace);
    a.legs.push_back(std::move(l));
  }
  for (int32_t i : result.links) {
    a.link_ids.push_back(prepared.world->links[prepared.link_ids[i]].id);
  }
  a.cost = result.cost;
  a.partial = result.partial;
  a.world_version = prepared.world->version;
  a.searches = result.searches;
  a.expanded = result.expanded;
  a.search_micros = result.micros;
  return a;
}

namespace {

MapCell MapCellOf(const v1::WorldCell& c) {
  return MapCell{c.map_id(), Cell{c.cell().x(), c.cell().y()}};
}

void SetWorldCell(const MapCell& c, v1::WorldCell* out) {
  out->set_map_id(c.map_id);
  out->mutable_cell()->set_x(c.cell.x);
  out->mutable_cell()->set_y(c.cell.y);
}

}  // namespace

absl::Status WorldPathAskFromProto(const v1::WorldPathRequest& r,
                                   absl::string_view prefix,
                                   WorldPathAsk* ask) {
  absl::StatusOr<Algorithm> algorithm = convert::AlgorithmFromProto(
      r.algorithm(), absl::StrCat(prefix, "algorithm"));
  if (!algorithm.ok()) return algorithm.status();
  ask->diagonal.reset();
  if (r.diagonal() != v1::DIAGONAL_POLICY_UNSPECIFIED) {
    absl::StatusOr<DiagonalPolicy> policy =
        convert::PolicyFromProto(r.diagonal(), absl::StrCat(prefix, "diagonal"),
                                 DiagonalPolicy::kNoCornerCutting);
    if (!policy.ok()) return policy.status();
    ask->diagonal = *policy;
  }
  ask->world_id = r.world_id();
  ask->start = MapCellOf(r.start());
  ask->goal = MapCellOf(r.goal());
  ask->algorithm = *algorithm;
  ask->weight = r.weight();
  ask->max_expansions = r.max_expansions();
  ask->smooth = r.smooth();
  ask->allow_partial = r.allow_partial();
  ask->trace = r.trace();
  ask->areas = r.areas();
  ask->area_costs.assign(r.area_costs().begin(), r.area_costs().end());
  ask->agent_size = r.agent_size();
  return absl::OkStatus();
}

v1::WorldPathRequest WorldPathAskToProto(const WorldPathAsk& ask) {
  v1::WorldPathRequest r;
  r.set_world_id(ask.world_id);
  SetWorldCell(ask.start, r.mutable_start());
  SetWorldCell(ask.goal, r.mutable_goal());
  r.set_algorithm(convert::AlgorithmToProto(ask.algorithm));
  r.set_weight(ask.weight);
  if (ask.diagonal.has_value()) {
    r.set_diagonal(convert::PolicyToProto(*ask.diagonal));
  }
  r.set_max_expansions(ask.max_expansions);
  r.set_smooth(ask.smooth);
  r.set_allow_partial(ask.allow_partial);
  r.set_trace(ask.trace);
  r.set_areas(ask.areas);
  for (double c : ask.area_costs) r.add_area_costs(c);
  r.set_agent_size(ask.agent_size);
  return r;
}

void WorldPathAnswerToProto(const WorldPathAnswer& a,
                            v1::WorldPathResponse* out) {
  for (const WorldPathAnswer::Leg& leg : a.legs) {
    v1::WorldLeg* l = out->add_legs();
    l->set_map_id(leg.map_id);
    l->set_map_version(leg.map_version);
    convert::PackCells(leg.cells, l->mutable_cells());
    l->set_cost(leg.cost);
    convert::PackCells(leg.waypoints, l->mutable_waypoints());
    l->set_smoothed_cost(leg.smoothed_cost);
    l->set_expanded(leg.expanded);
    l->set_algorithm(convert::AlgorithmToProto(leg.algorithm));
    convert::PackCells(leg.trace, l->mutable_trace());
  }
  for (const std::string& id : a.link_ids) out->add_link_ids(id);
  out->set_cost(a.cost);
  out->set_partial(a.partial);
  out->set_world_version(a.world_version);
  out->set_searches(a.searches);
  out->set_expanded(a.expanded);
  out->set_queue_micros(a.queue_micros);
  out->set_search_micros(a.search_micros);
}

}  // namespace gridstar::server
