// WorldIndex (world.h): the part of a world's abstract graph no query's
// ends change, built once and read by many queries.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/geometry.h"
#include "gridstar/world.h"
#include "planners/world_graph.h"

namespace gridstar {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// The table of `view` when it was built from this very map under `policy`.
const LinkEndTable* FreshTable(const WorldMapView& view,
                               DiagonalPolicy policy) {
  if (view.ends == nullptr || !view.ends->BuiltFrom(*view.map) ||
      view.ends->policy() != policy) {
    return nullptr;
  }
  return view.ends;
}

// Dijkstra from every node over the links and the edges between ends (all
// exact), keeping each least cost and the step into each node.
void AllPairs(internal::WorldIndexData& d) {
  const int n = d.size();
  d.distance.resize(static_cast<size_t>(n) * n);
  d.before.resize(static_cast<size_t>(n) * n);
  d.before_link.resize(static_cast<size_t>(n) * n);
  for (int source = 0; source < n; ++source) {
    const size_t row = static_cast<size_t>(source) * n;
    internal::AbstractDijkstra(
        n, source, -1,
        [&](int u, auto relax) {
          for (const internal::LinkArc& a : d.arcs[u])
            relax(a.to, a.cost, a.link);
          for (const internal::WeightedEdge& e : d.edges[u]) {
            relax(e.to, e.weight, -1);
          }
        },
        &d.distance[row], &d.before[row], &d.before_link[row]);
  }
}

}  // namespace

namespace internal {

double WorldIndexData::EdgeWeight(int m, Cell a, int row_a, Cell b, int row_b,
                                  bool* exact) const {
  const GridMap& map = maps[m];
  *exact = true;
  if (!map.Connected(a, b)) return kInfinity;
  const LinkEndTable* t = tables[m];
  if (t != nullptr && row_a >= 0 && row_b >= 0) return t->Cost(row_a, row_b);
  *exact = false;
  double bound = internal::CellDistance(a, b, policy) *
                 static_cast<double>(map.min_cost());
  if (t == nullptr || !t->has_bounds()) return bound;
  if (row_a >= 0) return std::max(bound, t->LowerBound(row_a, b));
  if (row_b >= 0) return std::max(bound, t->LowerBound(row_b, a));
  // Neither is an end: the triangle inequality through each end.
  for (int i = 0; i < static_cast<int>(t->cells().size()); ++i) {
    if (!map.Connected(a, t->cells()[i])) continue;
    bound = std::max({bound, t->LowerBound(i, a) - t->UpperBound(i, b),
                      t->LowerBound(i, b) - t->UpperBound(i, a)});
  }
  return bound;
}

}  // namespace internal

WorldIndex::WorldIndex()
    : data_(std::make_unique<internal::WorldIndexData>()) {}
WorldIndex::~WorldIndex() = default;

absl::StatusOr<std::shared_ptr<const WorldIndex>> WorldIndex::Build(
    absl::Span<const WorldMapView> maps, absl::Span<const WorldLink> links,
    const AgentClass& agent, DiagonalPolicy policy, bool all_pairs) {
  for (size_t i = 0; i < links.size(); ++i) {
    for (const WorldCell* end : {&links[i].from, &links[i].to}) {
      if (end->map < 0 || static_cast<size_t>(end->map) >= maps.size() ||
          !maps[end->map].map->InBounds(end->cell)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "links[", i, "]: an end lies outside the world's maps"));
      }
    }
  }
  std::shared_ptr<WorldIndex> index(new WorldIndex());
  internal::WorldIndexData& d = *index->data_;
  d.policy = policy;
  d.agent = agent;
  for (const WorldMapView& view : maps) {
    d.maps.push_back(*view.map);
    d.tables.push_back(FreshTable(view, policy));
  }
  d.by_map.resize(maps.size());
  absl::flat_hash_map<uint64_t, int> ids;
  auto node_of = [&](const WorldCell& c) {
    const uint64_t key = (uint64_t{static_cast<uint32_t>(c.map)} << 48) ^
                         (uint64_t{static_cast<uint32_t>(c.cell.y)} << 24) ^
                         static_cast<uint32_t>(c.cell.x);
    auto [it, added] = ids.try_emplace(key, d.size());
    if (added) {
      const LinkEndTable* t = d.tables[c.map];
      d.nodes.push_back(
          internal::WorldNode{c, t == nullptr ? -1 : t->IndexOf(c.cell)});
      d.by_map[c.map].push_back(it->second);
      d.arcs.emplace_back();
    }
    return it->second;
  };
  for (const internal::UsableLink& u :
       internal::UsableLinks(maps, links, agent)) {
    const WorldLink& link = links[u.index];
    const int a = node_of(link.from), b = node_of(link.to);
    d.arcs[a].push_back(internal::LinkArc{b, link.cost, u.index});
    if (link.both_ways)
      d.arcs[b].push_back(internal::LinkArc{a, link.cost, u.index});
  }
  // Edges between the ends of each map.
  d.edges.resize(d.nodes.size());
  for (int u = 0; u < d.size(); ++u) {
    const internal::WorldNode& nu = d.nodes[u];
    for (int v : d.by_map[nu.at.map]) {
      if (v == u) continue;
      const internal::WorldNode& nv = d.nodes[v];
      bool exact = false;
      const double w = d.EdgeWeight(nu.at.map, nu.at.cell, nu.table_row,
                                    nv.at.cell, nv.table_row, &exact);
      if (!exact) d.all_exact = false;
      if (w < kInfinity) d.edges[u].push_back({v, w, exact});
    }
  }
  // The component graph: each end's (map, component), joined by the links.
  for (int u = 0; u < d.size(); ++u) {
    auto [it, added] = d.component_id.try_emplace(
        d.ComponentKey(d.nodes[u].at), static_cast<int>(d.component_id.size()));
    if (added) d.component_arcs.emplace_back();
  }
  for (int u = 0; u < d.size(); ++u) {
    const int from = d.component_id[d.ComponentKey(d.nodes[u].at)];
    for (const internal::LinkArc& a : d.arcs[u]) {
      d.component_arcs[from].push_back(
          d.component_id[d.ComponentKey(d.nodes[a.to].at)]);
    }
  }
  if (all_pairs && d.all_exact && d.size() <= kMaxAllPairsEnds) AllPairs(d);
  return std::shared_ptr<const WorldIndex>(std::move(index));
}

bool WorldIndex::BuiltFrom(absl::Span<const WorldMapView> maps) const {
  const internal::WorldIndexData& d = *data_;
  if (maps.size() != d.maps.size()) return false;
  for (size_t m = 0; m < maps.size(); ++m) {
    if (maps[m].map->padded_costs() != d.maps[m].padded_costs() ||
        FreshTable(maps[m], d.policy) != d.tables[m]) {
      return false;
    }
  }
  return true;
}

bool WorldIndex::all_pairs() const { return !data_->distance.empty(); }
int WorldIndex::ends() const { return data_->size(); }

size_t WorldIndex::MemoryBytes() const {
  const internal::WorldIndexData& d = *data_;
  size_t bytes = sizeof(*this) + sizeof(d) +
                 d.nodes.capacity() * sizeof(internal::WorldNode) +
                 d.distance.capacity() * sizeof(double) +
                 (d.before.capacity() + d.before_link.capacity()) * sizeof(int);
  for (const auto& a : d.arcs)
    bytes += a.capacity() * sizeof(internal::LinkArc);
  for (const auto& e : d.edges) {
    bytes += e.capacity() * sizeof(internal::WeightedEdge);
  }
  return bytes;
}

}  // namespace gridstar
