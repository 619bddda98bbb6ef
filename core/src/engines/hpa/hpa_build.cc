// HpaAbstraction's construction: entrances on cluster borders, costs
// between them inside each cluster, and the repair of the clusters an update
// reaches.

#include <algorithm>
#include <memory>
#include <thread>
#include <vector>

#include "engines/hpa/cluster_search.h"
#include "engines/hpa/hpa.h"

namespace gridstar::internal {
namespace {

// The transitions along a border line of `length` cells: position i is open
// when open(i); each maximal open run gives its middle (short runs) or its
// two ends. Appends the positions to *out.
template <typename Open>
void Transitions(int32_t length, const Open& open, std::vector<int32_t>* out) {
  int32_t i = 0;
  while (i < length) {
    if (!open(i)) {
      ++i;
      continue;
    }
    int32_t j = i;
    while (j + 1 < length && open(j + 1)) ++j;
    if (j - i + 1 < kSplitRun) {
      out->push_back((i + j) / 2);
    } else {
      out->push_back(i);
      out->push_back(j);
    }
    i = j + 1;
  }
}

// The entrance cells of cluster `r` (local indices, ascending, unique) and
// each one's crossings: bit m when the cell is a transition of the border
// that move m (kMoveDx/kMoveDy, m < 4) crosses, so the cell across is an
// entrance of the neighbour (it computes the same transitions).
struct Entrances {
  std::vector<uint16_t> nodes;
  std::vector<uint8_t> crossings;
};
Entrances EntranceNodes(const GridMap& map, const ClusterRect& r) {
  std::vector<std::pair<uint16_t, uint8_t>> found;
  std::vector<int32_t> at;
  auto passable = [&](int32_t x, int32_t y) { return map.Passable({x, y}); };
  auto local = [&](int32_t lx, int32_t ly) {
    return static_cast<uint16_t>(ly * kClusterSize + lx);
  };
  // West (move 1) and east (move 0): the columns either side, along y.
  for (const int side : {0, 1}) {
    const int32_t ours = side == 0 ? r.x0 : r.x0 + r.w - 1;
    const int32_t theirs = side == 0 ? r.x0 - 1 : r.x0 + r.w;
    if (theirs < 0 || theirs >= map.width()) continue;
    at.clear();
    Transitions(
        r.h,
        [&](int32_t i) {
          return passable(ours, r.y0 + i) && passable(theirs, r.y0 + i);
        },
        &at);
    const uint8_t bit = side == 0 ? 1 << 1 : 1 << 0;
    for (int32_t i : at) found.push_back({local(ours - r.x0, i), bit});
  }
  // North (move 3) and south (move 2): the rows either side, along x.
  for (const int side : {0, 1}) {
    const int32_t ours = side == 0 ? r.y0 : r.y0 + r.h - 1;
    const int32_t theirs = side == 0 ? r.y0 - 1 : r.y0 + r.h;
    if (theirs < 0 || theirs >= map.height()) continue;
    at.clear();
    Transitions(
        r.w,
        [&](int32_t i) {
          return passable(r.x0 + i, ours) && passable(r.x0 + i, theirs);
        },
        &at);
    const uint8_t bit = side == 0 ? 1 << 3 : 1 << 2;
    for (int32_t i : at) found.push_back({local(i, ours - r.y0), bit});
  }
  std::sort(found.begin(), found.end());
  Entrances out;
  for (const auto& [cell, bit] : found) {
    if (!out.nodes.empty() && out.nodes.back() == cell) {
      out.crossings.back() |= bit;
    } else {
      out.nodes.push_back(cell);
      out.crossings.push_back(bit);
    }
  }
  return out;
}

std::shared_ptr<const HpaCluster> BuildCluster(const GridMap& map,
                                               DiagonalPolicy policy,
                                               const ClusterRect& r,
                                               ClusterSearch& search) {
  auto cluster = std::make_shared<HpaCluster>();
  Entrances entrances = EntranceNodes(map, r);
  cluster->nodes = std::move(entrances.nodes);
  cluster->crossings = std::move(entrances.crossings);
  const size_t n = cluster->nodes.size();
  cluster->node_costs.reserve(n);
  for (uint16_t local : cluster->nodes) {
    cluster->node_costs.push_back(map.cost(
        {r.x0 + local % kClusterSize, r.y0 + local / kClusterSize}));
  }
  // Each node's edges, with their turns at turns_scratch[first, first +
  // edge.turn_count).
  struct Pending {
    HpaCluster::Edge edge;
    uint32_t first;
  };
  std::vector<std::vector<Pending>> adjacent(n);
  std::vector<uint16_t> turns_scratch;
  search.Begin(map, policy, r.x0, r.y0, r.w, r.h);
  for (size_t i = 0; i + 1 < n; ++i) {
    // Costs are symmetric: node i's search settles the nodes after it.
    const absl::Span<const uint16_t> later(cluster->nodes.data() + i + 1,
                                           n - i - 1);
    search.Dijkstra(cluster->nodes[i], later);
    for (size_t j = i + 1; j < n; ++j) {
      const double d = search.Distance(cluster->nodes[j]);
      if (d < 0) continue;
      // The turns from j back to i, then the same reversed for i to j.
      const uint32_t back = static_cast<uint32_t>(turns_scratch.size());
      search.AppendTurnsFrom(cluster->nodes[j], kMaxStoredTurns,
                             &turns_scratch);
      const uint16_t count =
          static_cast<uint16_t>(turns_scratch.size() - back);
      const uint32_t forth = static_cast<uint32_t>(turns_scratch.size());
      for (uint32_t k = forth; k > back; --k) {
        turns_scratch.push_back(turns_scratch[k - 1]);
      }
      const float cost = static_cast<float>(d);
      adjacent[i].push_back(
          {{cost, static_cast<uint16_t>(j), count}, forth});
      adjacent[j].push_back(
          {{cost, static_cast<uint16_t>(i), count}, back});
    }
  }
  cluster->edge_begin.reserve(n + 1);
  cluster->edge_begin.push_back(0);
  cluster->turn_begin.reserve(n + 1);
  cluster->turn_begin.push_back(0);
  for (size_t i = 0; i < n; ++i) {
    std::sort(adjacent[i].begin(), adjacent[i].end(),
              [](const Pending& a, const Pending& b) {
                return a.edge.to < b.edge.to;
              });
    for (const Pending& p : adjacent[i]) {
      cluster->edges.push_back(p.edge);
      cluster->turns.insert(cluster->turns.end(),
                            turns_scratch.begin() + p.first,
                            turns_scratch.begin() + p.first +
                                p.edge.turn_count);
    }
    cluster->edge_begin.push_back(static_cast<uint32_t>(cluster->edges.size()));
    cluster->turn_begin.push_back(static_cast<uint32_t>(cluster->turns.size()));
  }
  return cluster;
}

// Builds the clusters listed in `which` into *clusters, on up to
// hardware_concurrency threads (at most 8).
void BuildClusters(const GridMap& map, DiagonalPolicy policy,
                   int32_t clusters_x, const std::vector<int32_t>& which,
                   std::vector<std::shared_ptr<const HpaCluster>>* clusters) {
  const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  // A repair's few clusters are worth a thread each too: a one-cell change
  // rebuilds up to five.
  const size_t threads = std::min<size_t>({hardware, 8, which.size()});
  auto work = [&](size_t part) {
    ClusterSearch search;
    for (size_t k = part; k < which.size(); k += std::max<size_t>(threads, 1)) {
      const int32_t index = which[k];
      (*clusters)[index] =
          BuildCluster(map, policy, ClusterRectOf(map, clusters_x, index), search);
    }
  };
  if (threads <= 1) {
    work(0);
    return;
  }
  std::vector<std::thread> pool;
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(work, t);
  work(0);
  for (std::thread& t : pool) t.join();
}

}  // namespace

int HpaCluster::Find(uint16_t local) const {
  auto it = std::lower_bound(nodes.begin(), nodes.end(), local);
  return it != nodes.end() && *it == local
             ? static_cast<int>(it - nodes.begin())
             : -1;
}

absl::Span<const uint16_t> HpaCluster::TurnsOf(uint32_t i, uint32_t j) const {
  uint32_t first = turn_begin[i];
  for (uint32_t e = edge_begin[i]; e < edge_begin[i + 1]; ++e) {
    if (edges[e].to == j) {
      return absl::Span<const uint16_t>(turns.data() + first,
                                        edges[e].turn_count);
    }
    first += edges[e].turn_count;
  }
  return {};
}

std::shared_ptr<const HpaAbstraction> HpaAbstraction::Build(
    const GridMap& map, DiagonalPolicy policy) {
  auto out = std::make_shared<HpaAbstraction>();
  out->policy_ = policy;
  out->clusters_x_ = (map.width() + kClusterSize - 1) / kClusterSize;
  out->clusters_y_ = (map.height() + kClusterSize - 1) / kClusterSize;
  const int32_t count = out->clusters_x_ * out->clusters_y_;
  out->clusters_.resize(static_cast<size_t>(count));
  std::vector<int32_t> all(static_cast<size_t>(count));
  for (int32_t i = 0; i < count; ++i) all[i] = i;
  BuildClusters(map, policy, out->clusters_x_, all, &out->clusters_);
  out->clusters_built_ = all.size();
  out->ComputeOffsets();
  out->BuildLandmarks();
  return out;
}

std::shared_ptr<const HpaAbstraction> HpaAbstraction::Repair(
    const HpaAbstraction& previous, const GridMap& next,
    absl::Span<const CellRect> rects) {
  auto out = std::make_shared<HpaAbstraction>(previous);
  const int32_t cx_count = out->clusters_x_, cy_count = out->clusters_y_;
  std::vector<bool> marked(static_cast<size_t>(cx_count) * cy_count, false);
  std::vector<int32_t> which;
  auto mark = [&](int32_t cx, int32_t cy) {
    if (cx < 0 || cy < 0 || cx >= cx_count || cy >= cy_count) return;
    const int32_t index = cy * cx_count + cx;
    if (!marked[index]) {
      marked[index] = true;
      which.push_back(index);
    }
  };
  for (const CellRect& rect : rects) {
    const int32_t cx0 = rect.min.x / kClusterSize;
    const int32_t cx1 = (rect.max.x - 1) / kClusterSize;
    const int32_t cy0 = rect.min.y / kClusterSize;
    const int32_t cy1 = (rect.max.y - 1) / kClusterSize;
    for (int32_t cy = cy0; cy <= cy1; ++cy) {
      for (int32_t cx = cx0; cx <= cx1; ++cx) {
        mark(cx, cy);
        // A changed cell on a border line changes that border's entrances,
        // and so the neighbour across it.
        const int32_t x0 = cx * kClusterSize, y0 = cy * kClusterSize;
        const int32_t x1 = std::min(x0 + kClusterSize, next.width()) - 1;
        const int32_t y1 = std::min(y0 + kClusterSize, next.height()) - 1;
        const bool rows = rect.min.y <= y1 && rect.max.y > y0;
        const bool columns = rect.min.x <= x1 && rect.max.x > x0;
        if (rows && rect.min.x <= x0 && rect.max.x > x0) mark(cx - 1, cy);
        if (rows && rect.min.x <= x1 && rect.max.x > x1) mark(cx + 1, cy);
        if (columns && rect.min.y <= y0 && rect.max.y > y0) mark(cx, cy - 1);
        if (columns && rect.min.y <= y1 && rect.max.y > y1) mark(cx, cy + 1);
      }
    }
  }
  BuildClusters(next, out->policy_, cx_count, which, &out->clusters_);
  out->clusters_built_ = which.size();
  out->ComputeOffsets();
  return out;
}

size_t HpaAbstraction::BytesUpperBound(const GridMap& map) {
  const int32_t clusters_x = (map.width() + kClusterSize - 1) / kClusterSize;
  const int32_t clusters_y = (map.height() + kClusterSize - 1) / kClusterSize;
  const int32_t count = clusters_x * clusters_y;
  size_t bytes = sizeof(HpaAbstraction) + (size_t{1} + count) * sizeof(uint32_t) +
                 static_cast<size_t>(count) *
                     sizeof(std::shared_ptr<const HpaCluster>);
  for (int32_t i = 0; i < count; ++i) {
    const size_t n =
        EntranceNodes(map, ClusterRectOf(map, clusters_x, i)).nodes.size();
    bytes += sizeof(HpaCluster) + 16 + n * (sizeof(uint16_t) + 2) +
             (n + 1) * sizeof(uint32_t) +
             (n + 1) * sizeof(uint32_t) +
             n * (n > 0 ? n - 1 : 0) *
                 (sizeof(HpaCluster::Edge) + kMaxStoredTurns * sizeof(uint16_t));
  }
  return bytes;
}

void HpaAbstraction::ComputeOffsets() {
  offsets_.assign(clusters_.size() + 1, 0);
  for (size_t i = 0; i < clusters_.size(); ++i) {
    offsets_[i + 1] =
        offsets_[i] + static_cast<uint32_t>(clusters_[i]->nodes.size());
  }
}

size_t HpaAbstraction::edge_count() const {
  size_t edges = 0;
  for (const auto& c : clusters_) edges += c->edges.size();
  return edges;
}

size_t HpaAbstraction::MemoryBytes() const {
  size_t bytes = sizeof(*this) + offsets_.capacity() * sizeof(uint32_t) +
                 clusters_.capacity() * sizeof(clusters_[0]);
  // A shared_ptr's control block sits with its object (make_shared).
  for (const auto& c : clusters_) bytes += c->MemoryBytes() + 16;
  return bytes;
}

bool HpaAbstraction::SameAs(const HpaAbstraction& other) const {
  if (policy_ != other.policy_ || clusters_x_ != other.clusters_x_ ||
      clusters_y_ != other.clusters_y_ || offsets_ != other.offsets_) {
    return false;
  }
  for (size_t i = 0; i < clusters_.size(); ++i) {
    const HpaCluster& a = *clusters_[i];
    const HpaCluster& b = *other.clusters_[i];
    if (a.nodes != b.nodes || a.crossings != b.crossings ||
        a.node_costs != b.node_costs || a.edge_begin != b.edge_begin ||
        a.edges.size() != b.edges.size() || a.turn_begin != b.turn_begin ||
        a.turns != b.turns) {
      return false;
    }
    for (size_t e = 0; e < a.edges.size(); ++e) {
      if (a.edges[e].to != b.edges[e].to ||
          a.edges[e].cost != b.edges[e].cost ||
          a.edges[e].turn_count != b.edges[e].turn_count) {
        return false;
      }
    }
  }
  return true;
}

}  // namespace gridstar::internal
