// Worlds (world.h): validation, which links an agent may use, the link
// ends' distance tables and the component graph that decides "no path".

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gridstar/find_path.h"
#include "gridstar/world.h"
#include "planners/world_graph.h"
#include "search/search_loop.h"
#include "search/search_state.h"

namespace gridstar {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

bool CellBefore(Cell a, Cell b) { return a.y != b.y ? a.y < b.y : a.x < b.x; }

absl::Status CheckEnd(absl::Span<const GridMap* const> maps,
                      const WorldCell& end, absl::string_view field) {
  if (end.map < 0 || static_cast<size_t>(end.map) >= maps.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ".map: ", end.map, " is not one of the ",
                     maps.size(), " maps of the world"));
  }
  const GridMap& map = *maps[end.map];
  if (map.Passable(end.cell)) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      field, ": (", end.cell.x, ", ", end.cell.y, ") ",
      map.InBounds(end.cell) ? std::string("is blocked")
                             : absl::StrCat("is outside the ", map.width(),
                                            " x ", map.height(), " map"),
      " (map ", end.map, ")"));
}

}  // namespace

absl::Status ValidateWorldLinks(absl::Span<const GridMap* const> maps,
                                absl::Span<const WorldLink> links,
                                absl::string_view field) {
  for (size_t i = 0; i < links.size(); ++i) {
    const WorldLink& link = links[i];
    const std::string at = absl::StrCat(field, "[", i, "]");
    if (absl::Status s = CheckEnd(maps, link.from, absl::StrCat(at, ".from"));
        !s.ok()) {
      return s;
    }
    if (absl::Status s = CheckEnd(maps, link.to, absl::StrCat(at, ".to"));
        !s.ok()) {
      return s;
    }
    if (!(link.cost >= 0 && link.cost <= kMaxLinkCost)) {
      return absl::InvalidArgumentError(absl::StrCat(
          at, ".cost: ", link.cost, " is outside [0, ", kMaxLinkCost, "]"));
    }
    if (link.areas == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(at,
                       ".areas: no area (the mask is empty), so no agent "
                       "could use the link"));
    }
    if (link.max_agent_size < 1 || link.max_agent_size > kMaxAgentSize) {
      return absl::InvalidArgumentError(
          absl::StrCat(at, ".max_agent_size: ", link.max_agent_size,
                       " is outside [1, ", kMaxAgentSize, "]"));
    }
  }
  return absl::OkStatus();
}

bool LinkAdmits(const WorldLink& link, const AgentClass& agent) {
  return link.open && agent.size <= link.max_agent_size &&
         (agent.areas & link.areas) != 0;
}

std::shared_ptr<const LinkEndTable> LinkEndTable::Build(
    const GridMap& map, DiagonalPolicy policy, absl::Span<const Cell> cells,
    int64_t max_bounded_cells) {
  std::shared_ptr<LinkEndTable> table(new LinkEndTable(map, policy));
  table->cells_.assign(cells.begin(), cells.end());
  std::sort(table->cells_.begin(), table->cells_.end(), CellBefore);
  table->cells_.erase(std::unique(table->cells_.begin(), table->cells_.end()),
                      table->cells_.end());
  const size_t k = table->cells_.size();
  table->costs_.assign(k * k, std::numeric_limits<double>::infinity());
  if (map.cell_count() <= max_bounded_cells) {
    table->BuildByDistances();
  } else {
    table->BuildBySearches();
  }
  return table;
}

void LinkEndTable::BuildBySearches() {
  const size_t k = cells_.size();
  SearchContext context;
  PathQuery query;
  query.algorithm = Algorithm::kAuto;
  query.movement.diagonal = policy_;
  PathResult result;
  for (size_t i = 0; i < k; ++i) {
    const Cell a = cells_[i];
    if (!map_.Passable(a)) continue;
    costs_[i * k + i] = 0;
    for (size_t j = i + 1; j < k; ++j) {
      const Cell b = cells_[j];
      if (!map_.Connected(a, b)) continue;
      query.start = a;
      query.goal = b;
      // Exact: auto runs only optimal engines; the ends are valid and
      // connected, the map within the context (it fits any map).
      if (!FindPath(map_, query, context, &result).ok() || result.partial) {
        continue;
      }
      costs_[i * k + j] = costs_[j * k + i] = result.cost;
    }
  }
}

void LinkEndTable::BuildByDistances() {
  const size_t k = cells_.size();
  // Two floats a block.
  while (static_cast<size_t>(map_.cell_count()) /
             (static_cast<size_t>(block_) * block_) * 2 * sizeof(float) >
         kMaxBoundBytesPerEnd) {
    block_ *= 2;
  }
  blocks_across_ = static_cast<size_t>((map_.width() + block_ - 1) / block_);
  blocks_per_end_ = blocks_across_ *
                    static_cast<size_t>((map_.height() + block_ - 1) / block_);
  constexpr float kFar = std::numeric_limits<float>::infinity();
  lower_.assign(k * blocks_per_end_, kFar);
  upper_.assign(k * blocks_per_end_, 0);
  SearchContextOptions options;
  options.max_cells = static_cast<int64_t>(map_.padded_size());
  SearchContext context(options);
  internal::SearchState& state = context.state();
  for (size_t i = 0; i < k; ++i) {
    if (!map_.Passable(cells_[i])) continue;
    uint64_t expanded = 0;
    internal::RunDistanceSearch(map_, cells_[i], policy_, kInfinity,
                                SearchBudget(), 0, state, &expanded);
    for (size_t j = 0; j < k; ++j) {
      if (!map_.Passable(cells_[j])) continue;
      const internal::Node& node = state.nodes[map_.PaddedIndex(cells_[j])];
      if (node.stamp == state.closed_mark) costs_[i * k + j] = node.g;
    }
    for (int32_t y = 0; y < map_.height(); ++y) {
      for (int32_t x = 0; x < map_.width(); ++x) {
        const internal::Node& node = state.nodes[map_.PaddedIndex({x, y})];
        if (node.stamp != state.closed_mark) continue;
        // Rounded outward, so that the float bounds stay bounds.
        float low = static_cast<float>(node.g);
        if (low > node.g) low = std::nextafter(low, -kFar);
        float high = static_cast<float>(node.g);
        if (high < node.g) high = std::nextafter(high, kFar);
        const size_t at = BoundAt(static_cast<int>(i), Cell{x, y});
        lower_[at] = std::min(lower_[at], low);
        upper_[at] = std::max(upper_[at], high);
      }
    }
  }
}

int LinkEndTable::IndexOf(Cell c) const {
  auto it = std::lower_bound(cells_.begin(), cells_.end(), c, CellBefore);
  return it != cells_.end() && *it == c ? static_cast<int>(it - cells_.begin())
                                        : -1;
}

size_t LinkEndTable::MemoryBytes() const {
  return sizeof(*this) + cells_.capacity() * sizeof(Cell) +
         costs_.capacity() * sizeof(double) +
         (lower_.capacity() + upper_.capacity()) * sizeof(float);
}

absl::Status ValidateWorldQuery(absl::Span<const WorldMapView> maps,
                                const WorldQuery& query) {
  if (absl::Status s = ValidatePathQuery(query.leg); !s.ok()) return s;
  if (query.leg.snap_radius != 0) {
    return absl::InvalidArgumentError(
        "snap_radius: ends are not snapped across a world (give passable "
        "cells, snap_radius 0)");
  }
  if (absl::Status s = ValidateAgentClass(query.agent); !s.ok()) return s;
  std::vector<const GridMap*> grids;
  grids.reserve(maps.size());
  for (const WorldMapView& view : maps) grids.push_back(view.map);
  if (absl::Status s = CheckEnd(grids, query.start, "start"); !s.ok()) {
    return s;
  }
  return CheckEnd(grids, query.goal, "goal");
}

namespace internal {

std::vector<UsableLink> UsableLinks(absl::Span<const WorldMapView> maps,
                                    absl::Span<const WorldLink> links,
                                    const AgentClass& agent) {
  std::vector<UsableLink> usable;
  for (size_t i = 0; i < links.size(); ++i) {
    const WorldLink& link = links[i];
    if (!LinkAdmits(link, agent)) continue;
    if (!maps[link.from.map].map->Passable(link.from.cell) ||
        !maps[link.to.map].map->Passable(link.to.cell)) {
      continue;
    }
    usable.push_back(UsableLink{static_cast<int32_t>(i)});
  }
  return usable;
}

}  // namespace internal
}  // namespace gridstar
