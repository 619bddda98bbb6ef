// HpaAbstraction's construction: entrances on cluster borders, costs
// between them inside each cluster, and the repair of the clusters an update
// reaches.

#include <algorithm>
#include <memory>
#include <thread>
#include <vector>

#include "hpa/cluster_search.h"
#include "hpa/hpa.h"

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

// The entrance cells of cluster `r` (local indices, ascending, unique).
std::vector<uint16_t> EntranceNodes(const GridMap& map, const ClusterRect& r) {
  std::vector<uint16_t> nodes;
  std::vector<int32_t> at;
  auto passable = [&](int32_t x, int32_t y) { return map.Passable({x, y}); };
  auto local = [&](int32_t lx, int32_t ly) {
    return static_cast<uint16_t>(ly * kClusterSize + lx);
  };
  // West and east: the columns either side of the border, along y.
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
    for (int32_t i : at) nodes.push_back(local(ours - r.x0, i));
  }
  // North and south: the rows either side, along x.
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
    for (int32_t i : at) nodes.push_back(local(i, ours - r.y0));
  }
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  return nodes;
}

std::shared_ptr<const HpaCluster> BuildCluster(const GridMap& map,
                                               DiagonalPolicy policy,
                                               const ClusterRect& r,
                                               ClusterSearch& search) {
  auto cluster = std::make_shared<HpaCluster>();
  cluster->nodes = EntranceNodes(map, r);
  const size_t n = cluster->nodes.size();
  std::vector<std::vector<HpaCluster::Edge>> adjacent(n);
  search.Begin(map, policy, r.x0, r.y0, r.w, r.h);
  for (size_t i = 0; i + 1 < n; ++i) {
    // Costs are symmetric: node i's search settles the nodes after it.
    const absl::Span<const uint16_t> later(cluster->nodes.data() + i + 1,
                                           n - i - 1);
    search.Dijkstra(cluster->nodes[i], later);
    for (size_t j = i + 1; j < n; ++j) {
      const double d = search.Distance(cluster->nodes[j]);
      if (d < 0) continue;
      adjacent[i].push_back({static_cast<float>(d), static_cast<uint16_t>(j)});
      adjacent[j].push_back({static_cast<float>(d), static_cast<uint16_t>(i)});
    }
  }
  cluster->edge_begin.reserve(n + 1);
  cluster->edge_begin.push_back(0);
  for (size_t i = 0; i < n; ++i) {
    std::sort(adjacent[i].begin(), adjacent[i].end(),
              [](const HpaCluster::Edge& a, const HpaCluster::Edge& b) {
                return a.to < b.to;
              });
    cluster->edges.insert(cluster->edges.end(), adjacent[i].begin(),
                          adjacent[i].end());
    cluster->edge_begin.push_back(static_cast<uint32_t>(cluster->edges.size()));
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
  out->BuildLandmarks(map);
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
    const size_t n = EntranceNodes(map, ClusterRectOf(map, clusters_x, i)).size();
    bytes += sizeof(HpaCluster) + 16 + n * sizeof(uint16_t) +
             (n + 1) * sizeof(uint32_t) +
             n * (n > 0 ? n - 1 : 0) * sizeof(HpaCluster::Edge);
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
    if (a.nodes != b.nodes || a.edge_begin != b.edge_begin ||
        a.edges.size() != b.edges.size()) {
      return false;
    }
    for (size_t e = 0; e < a.edges.size(); ++e) {
      if (a.edges[e].to != b.edges[e].to ||
          a.edges[e].cost != b.edges[e].cost) {
        return false;
      }
    }
  }
  return true;
}

}  // namespace gridstar::internal
