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

void WorldPathResponseFrom(const WorldResult& result,
                           const PreparedWorld& prepared,
                           v1::WorldPathResponse* out) {
  for (const WorldLeg& leg : result.legs) {
    v1::WorldLeg* l = out->add_legs();
    l->set_map_id(prepared.world->maps[leg.map]);
    l->set_map_version(prepared.maps[leg.map]->version);
    convert::PackCells(leg.path.cells, l->mutable_cells());
    l->set_cost(leg.path.cost);
    convert::PackCells(leg.path.waypoints, l->mutable_waypoints());
    l->set_smoothed_cost(leg.path.smoothed_cost);
    l->set_expanded(leg.path.expanded);
    l->set_algorithm(convert::AlgorithmToProto(leg.path.algorithm));
    convert::PackCells(leg.path.trace, l->mutable_trace());
  }
  for (int32_t i : result.links) {
    out->add_link_ids(prepared.world->links[prepared.link_ids[i]].id);
  }
  out->set_cost(result.cost);
  out->set_partial(result.partial);
  out->set_world_version(prepared.world->version);
  out->set_searches(result.searches);
  out->set_expanded(result.expanded);
  out->set_search_micros(result.micros);
}

}  // namespace gridstar::server
