// What the server's world suites share (server_world_test.cc,
// server_world_durability_test.cc): three random maps of terrain, random
// worlds over them, the reference answer (WorldDijkstraCost) and calls.
#ifndef GRIDSTAR_TESTS_SERVER_WORLD_TEST_UTIL_H_
#define GRIDSTAR_TESTS_SERVER_WORLD_TEST_UTIL_H_

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gridstar/agents.h"
#include "gridstar/world.h"
#include "gtest/gtest.h"
#include "server/server_test_util.h"

namespace gridstar::testing::worlds {

using namespace ::gridstar::testing::server_suite;  // NOLINT(build/namespaces)

inline constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Three random maps of terrain, held here as the server holds them.
struct Maps {
  std::vector<std::string> ids;
  std::vector<GridMap> grids;
};

inline Maps MakeMaps(uint32_t seed) {
  std::mt19937 rng(seed);
  Maps m;
  for (int i = 0; i < 3; ++i) {
    const int w = 12 + static_cast<int>(rng() % 10),
              h = 10 + static_cast<int>(rng() % 10);
    std::vector<uint8_t> costs(static_cast<size_t>(w) * h);
    for (uint8_t& c : costs) c = rng() % 5 == 0 ? 0 : 1 + rng() % 3;
    m.ids.push_back(absl::StrCat("floor", i));
    m.grids.push_back(*GridMap::FromCosts(w, h, costs));
  }
  return m;
}

inline grpc::Status RegisterRaw(v1::Pathfinding::Stub& stub,
                                const std::string& id, const GridMap& map) {
  v1::RegisterMapRequest r;
  r.set_id(id);
  r.set_width(map.width());
  r.set_height(map.height());
  const std::vector<uint8_t> costs = map.CopyCosts();
  r.set_raw(std::string(costs.begin(), costs.end()));
  r.set_replace(true);
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  v1::MapInfo info;
  return stub.RegisterMap(&ctx, r, &info);
}

inline Cell Passable(const GridMap& map, std::mt19937& rng) {
  for (;;) {
    const Cell c{static_cast<int32_t>(rng() % map.width()),
                 static_cast<int32_t>(rng() % map.height())};
    if (map.Passable(c)) return c;
  }
}

inline v1::Link MakeLink(const std::string& id, const std::string& from_map,
                         Cell from, const std::string& to_map, Cell to,
                         double cost) {
  v1::Link l;
  l.set_id(id);
  l.mutable_from()->set_map_id(from_map);
  l.mutable_from()->mutable_cell()->set_x(from.x);
  l.mutable_from()->mutable_cell()->set_y(from.y);
  l.mutable_to()->set_map_id(to_map);
  l.mutable_to()->mutable_cell()->set_x(to.x);
  l.mutable_to()->mutable_cell()->set_y(to.y);
  l.set_cost(cost);
  return l;
}

inline v1::RegisterWorldRequest RandomWorld(const Maps& m, uint32_t seed) {
  std::mt19937 rng(seed);
  v1::RegisterWorldRequest r;
  r.set_id("tower");
  for (const std::string& id : m.ids) r.add_map_ids(id);
  for (int i = 0; i < 10; ++i) {
    const int a = static_cast<int>(rng() % 3), b = static_cast<int>(rng() % 3);
    v1::Link l =
        MakeLink(absl::StrCat("l", i), m.ids[a], Passable(m.grids[a], rng),
                 m.ids[b], Passable(m.grids[b], rng), rng() % 6);
    l.set_one_way(rng() % 4 == 0);
    l.set_closed(rng() % 6 == 0);
    *r.add_links() = l;
  }
  return r;
}

// The world as core sees it, for the reference.
inline std::vector<WorldLink> CoreLinks(const Maps& m,
                                        const v1::WorldInfo& info) {
  std::vector<WorldLink> links;
  auto index = [&](const std::string& id) {
    for (size_t i = 0; i < m.ids.size(); ++i) {
      if (m.ids[i] == id) return static_cast<int32_t>(i);
    }
    return int32_t{-1};
  };
  for (const v1::Link& l : info.links()) {
    WorldLink w;
    w.from = {index(l.from().map_id()),
              {l.from().cell().x(), l.from().cell().y()}};
    w.to = {index(l.to().map_id()), {l.to().cell().x(), l.to().cell().y()}};
    w.cost = l.cost();
    w.both_ways = !l.one_way();
    w.open = !l.closed();
    links.push_back(w);
  }
  return links;
}

// The least cost for an agent of `agent` (its size; the maps have no
// areas), under the maps' default policy, by Dijkstra over the union graph.
inline double Reference(const Maps& m, const v1::WorldInfo& info,
                        WorldCell start, WorldCell goal,
                        const AgentClass& agent = AgentClass()) {
  std::vector<GridMap> agent_maps;
  for (const GridMap& g : m.grids) {
    agent_maps.push_back(*BuildAgentMap(g, {}, agent));
  }
  std::vector<WorldMapView> views;
  for (const GridMap& g : agent_maps)
    views.push_back(WorldMapView{&g, nullptr});
  WorldQuery q;
  q.start = start;
  q.goal = goal;
  q.agent = agent;
  q.leg.movement.diagonal =
      AgentPolicy(DiagonalPolicy::kNoCornerCutting, agent.size);
  if (!agent_maps[start.map].Passable(start.cell) ||
      !agent_maps[goal.map].Passable(goal.cell)) {
    return -1;  // An end the agent cannot stand on.
  }
  return WorldDijkstraCost(views, CoreLinks(m, info), q);
}

inline v1::WorldPathRequest Query(
    const Maps& m, WorldCell start, WorldCell goal,
    v1::Algorithm algorithm = v1::ALGORITHM_UNSPECIFIED) {
  v1::WorldPathRequest r;
  r.set_world_id("tower");
  r.mutable_start()->set_map_id(m.ids[start.map]);
  r.mutable_start()->mutable_cell()->set_x(start.cell.x);
  r.mutable_start()->mutable_cell()->set_y(start.cell.y);
  r.mutable_goal()->set_map_id(m.ids[goal.map]);
  r.mutable_goal()->mutable_cell()->set_x(goal.cell.x);
  r.mutable_goal()->mutable_cell()->set_y(goal.cell.y);
  r.set_algorithm(algorithm);
  return r;
}

inline grpc::Status FindWorld(v1::Pathfinding::Stub& stub,
                              const v1::WorldPathRequest& r,
                              v1::WorldPathResponse* out) {
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  return stub.FindWorldPath(&ctx, r, out);
}

inline grpc::Status RegisterWorld(v1::Pathfinding::Stub& stub,
                                  const v1::RegisterWorldRequest& r,
                                  v1::WorldInfo* out) {
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  return stub.RegisterWorld(&ctx, r, out);
}

inline grpc::Status UpdateLinks(v1::Pathfinding::Stub& stub,
                                const v1::UpdateLinksRequest& r,
                                v1::WorldInfo* out) {
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  return stub.UpdateLinks(&ctx, r, out);
}

inline v1::WorldInfo GetWorld(v1::Pathfinding::Stub& stub,
                              const std::string& id) {
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  v1::GetWorldRequest g;
  g.set_id(id);
  v1::WorldInfo info;
  (void)stub.GetWorld(&ctx, g, &info);
  return info;
}

// Answers for random ends on every exact algorithm equal the reference's,
// and each answer's legs are legal and add up.
inline void ExpectExact(v1::Pathfinding::Stub& stub, const Maps& m,
                        const v1::WorldInfo& info, uint32_t seed, int queries) {
  std::mt19937 rng(seed);
  const v1::Algorithm algorithms[] = {
      v1::ALGORITHM_UNSPECIFIED, v1::ALGORITHM_ASTAR,
      v1::ALGORITHM_DIJKSTRA,    v1::ALGORITHM_JPS,
      v1::ALGORITHM_JPS_PLUS,    v1::ALGORITHM_BIDIRECTIONAL,
      v1::ALGORITHM_ALT,         v1::ALGORITHM_SUBGOAL};
  for (int i = 0; i < queries; ++i) {
    const int a = static_cast<int>(rng() % 3), b = static_cast<int>(rng() % 3);
    const WorldCell start{a, Passable(m.grids[a], rng)};
    const WorldCell goal{b, Passable(m.grids[b], rng)};
    const v1::Algorithm algorithm = algorithms[i % std::size(algorithms)];
    SCOPED_TRACE(absl::StrCat("query ", i, " algorithm ", algorithm));
    const double expected = Reference(m, info, start, goal);
    v1::WorldPathResponse got;
    const grpc::Status s =
        FindWorld(stub, Query(m, start, goal, algorithm), &got);
    if (expected == kInfinity) {
      EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION)
          << s.error_message();
      continue;
    }
    ASSERT_TRUE(s.ok()) << s.error_message();
    EXPECT_NEAR(got.cost(), expected, 1e-9 * (1 + expected));
    ASSERT_EQ(got.legs_size(), got.link_ids_size() + 1);
    EXPECT_EQ(got.world_version(), info.version());
    double sum = 0;
    for (const v1::WorldLeg& leg : got.legs()) {
      int idx = 0;
      while (m.ids[idx] != leg.map_id()) ++idx;
      const double cost = PathCost(m.grids[idx], Unpack(leg.cells()),
                                   DiagonalPolicy::kNoCornerCutting);
      EXPECT_NEAR(cost, leg.cost(), 1e-9 * (1 + cost));
      sum += leg.cost();
    }
    for (const std::string& link : got.link_ids()) {
      for (const v1::Link& l : info.links()) {
        if (l.id() == link) sum += l.cost();
      }
    }
    EXPECT_NEAR(sum, got.cost(), 1e-9 * (1 + sum));
  }
}

}  // namespace gridstar::testing::worlds

#endif  // GRIDSTAR_TESTS_SERVER_WORLD_TEST_UTIL_H_
