// Fuzzes world paths (world.h): the bytes make 1 to 3 small maps, up to 7
// links of every kind (ends anywhere on the maps, blocked ones included),
// end tables on some maps, maybe an index of all pairs, and a query under
// one of the policies and exact algorithms. FindWorldPath never crashes; it
// answers InvalidArgument for ends off the maps or blocked, and otherwise
// exactly what Dijkstra over the union graph answers (NotFound for no path),
// with legs that are legal moves joined by the links.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "fuzz_util.h"
#include "gridstar/move_cost.h"
#include "gridstar/world.h"

namespace {

using gridstar::fuzz::Bytes;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gridstar;  // NOLINT(build/namespaces)
  Bytes in(data, size);
  const int n = 1 + in.Next() % 3;
  std::vector<GridMap> maps;
  for (int m = 0; m < n; ++m) {
    const int w = 1 + in.Next() % 8, h = 1 + in.Next() % 8;
    std::vector<uint8_t> costs(static_cast<size_t>(w) * h);
    for (uint8_t& c : costs) c = in.Next() % 4;  // 0 blocked, 1..3.
    maps.push_back(*GridMap::FromCosts(w, h, costs));
  }
  auto cell_on = [&](int m) {
    return Cell{in.Next() % maps[m].width(), in.Next() % maps[m].height()};
  };
  std::vector<WorldLink> links(in.Next() % 8);
  for (WorldLink& l : links) {
    l.from.map = in.Next() % n;
    l.from.cell = cell_on(l.from.map);
    l.to.map = in.Next() % n;
    l.to.cell = cell_on(l.to.map);
    l.cost = in.Next() / 4.0;
    const uint8_t flags = in.Next();
    l.both_ways = (flags & 1) != 0;
    l.open = (flags & 2) != 0;
  }
  const DiagonalPolicy policy = kAllDiagonalPolicies[in.Next() % 3];
  std::vector<std::shared_ptr<const LinkEndTable>> tables;
  std::vector<WorldMapView> views;
  for (int m = 0; m < n; ++m) {
    std::vector<Cell> ends;
    for (const WorldLink& l : links) {
      if (l.from.map == m) ends.push_back(l.from.cell);
      if (l.to.map == m) ends.push_back(l.to.cell);
    }
    tables.push_back(
        (in.Next() & 1) ? LinkEndTable::Build(maps[m], policy, ends) : nullptr);
    views.push_back(WorldMapView{&maps[m], tables.back().get()});
  }
  constexpr Algorithm kExact[] = {Algorithm::kAStar, Algorithm::kJps,
                                  Algorithm::kJpsPlus, Algorithm::kAuto,
                                  Algorithm::kBidirectional};
  WorldQuery q;
  q.leg.algorithm = kExact[in.Next() % 5];
  q.leg.movement.diagonal = policy;
  q.start.map = in.Next() % n;
  q.start.cell = cell_on(q.start.map);
  q.goal.map = in.Next() % n;
  q.goal.cell = cell_on(q.goal.map);
  const bool indexed = (in.Next() & 1) != 0;

  static SearchContext context;  // Reused: its arrays are lazily backed.
  WorldResult r;
  absl::Status s;
  if (indexed) {
    absl::StatusOr<std::shared_ptr<const WorldIndex>> index =
        WorldIndex::Build(views, links, q.agent, policy, true);
    FUZZ_CHECK(index.ok());
    s = FindWorldPath(**index, q, context, &r);
  } else {
    s = FindWorldPath(views, links, q, context, &r);
  }
  if (!maps[q.start.map].Passable(q.start.cell) ||
      !maps[q.goal.map].Passable(q.goal.cell)) {
    FUZZ_CHECK(absl::IsInvalidArgument(s));
    return 0;
  }
  const double expected = WorldDijkstraCost(views, links, q);
  if (expected == std::numeric_limits<double>::infinity()) {
    FUZZ_CHECK(absl::IsNotFound(s));
    return 0;
  }
  FUZZ_CHECK(s.ok());
  FUZZ_CHECK(std::fabs(r.cost - expected) <= 1e-9 * (1 + expected));
  FUZZ_CHECK(r.legs.size() == r.links.size() + 1);
  double total = 0;
  for (size_t i = 0; i < r.legs.size(); ++i) {
    const WorldLeg& leg = r.legs[i];
    const double cost = PathCost(maps[leg.map], leg.path.cells, policy);
    FUZZ_CHECK(cost >= 0);
    total += cost;
    if (i < r.links.size()) total += links[r.links[i]].cost;
  }
  FUZZ_CHECK(r.legs.front().path.cells.front() == q.start.cell);
  FUZZ_CHECK(r.legs.back().path.cells.back() == q.goal.cell);
  FUZZ_CHECK(std::fabs(total - r.cost) <= 1e-9 * (1 + total));
  return 0;
}
