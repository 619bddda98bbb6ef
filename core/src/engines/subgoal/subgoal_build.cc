// Building a subgoal graph (subgoal_graph.h): the subgoals, the "blocked or
// subgoal" bit lines the clearance scans read, the edges of every
// subgoal's scan (made symmetric), and the landmarks' distances.

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "engines/subgoal/subgoal_graph.h"
#include "search/graph_landmarks.h"

namespace gridstar::internal {
namespace {

// First set bit of `line` after position `from`. REQUIRES: one exists.
int32_t NextSetBit(const uint64_t* line, int32_t from) {
  int32_t pos = from + 1;
  size_t w = static_cast<size_t>(pos) >> 6;
  uint64_t word = line[w] & (~uint64_t{0} << (pos & 63));
  while (word == 0) word = line[++w];
  return static_cast<int32_t>(w * 64 +
                              static_cast<size_t>(__builtin_ctzll(word)));
}

// Last set bit of `line` before position `from`. REQUIRES: one exists.
int32_t PreviousSetBit(const uint64_t* line, int32_t from) {
  const int32_t pos = from - 1;
  size_t w = static_cast<size_t>(pos) >> 6;
  const int shift = 63 - (pos & 63);
  uint64_t word = (line[w] << shift) >> shift;
  while (word == 0) word = line[--w];
  return static_cast<int32_t>(w * 64 + 63 -
                              static_cast<size_t>(__builtin_clzll(word)));
}

}  // namespace

int32_t SubgoalGraph::Clearance(int32_t x, int32_t y, int dx, int dy,
                                uint32_t* stop) const {
  const uint32_t pw = static_cast<uint32_t>(padded_width_);
  if (dy == 0) {
    const uint64_t* line =
        row_stops_.data() + static_cast<size_t>(y) * row_words_;
    const int32_t at = dx > 0 ? NextSetBit(line, x) : PreviousSetBit(line, x);
    *stop = static_cast<uint32_t>(y) * pw + static_cast<uint32_t>(at);
    return (dx > 0 ? at - x : x - at) - 1;
  }
  const uint64_t* line =
      column_stops_.data() + static_cast<size_t>(x) * column_words_;
  const int32_t at = dy > 0 ? NextSetBit(line, y) : PreviousSetBit(line, y);
  *stop = static_cast<uint32_t>(at) * pw + static_cast<uint32_t>(x);
  return (dy > 0 ? at - y : y - at) - 1;
}

size_t SubgoalGraph::MemoryBytes() const {
  return sizeof(*this) +
         (row_stops_.capacity() + column_stops_.capacity()) * sizeof(uint64_t) +
         (cells_.capacity() + xy_.capacity() + edge_begin_.capacity() +
          targets_.capacity() + word_rank_.capacity()) *
             sizeof(uint32_t) +
         node_bits_.capacity() * sizeof(uint64_t) +
         landmarks_.capacity() * sizeof(float);
}

bool SubgoalGraph::SameAs(const SubgoalGraph& other) const {
  return cells_ == other.cells_ && edge_begin_ == other.edge_begin_ &&
         targets_ == other.targets_;
}

std::shared_ptr<const SubgoalGraph> SubgoalGraph::Build(
    const GridMap& map, const std::function<bool()>& abandon) {
  auto graph = std::make_shared<SubgoalGraph>();
  SubgoalGraph& g = *graph;
  const int32_t pw = map.padded_width();
  const int32_t ph = map.height() + 2;
  g.padded_width_ = pw;
  g.padded_height_ = ph;
  const uint8_t* costs = map.padded_costs();

  // Subgoals, in ascending padded index.
  for (int32_t y = 1; y < ph - 1; ++y) {
    const uint8_t* row =
        costs + static_cast<size_t>(y) * static_cast<size_t>(pw);
    for (int32_t x = 1; x < pw - 1; ++x) {
      if (row[x] == 0) continue;
      const bool corner = IsConvexCorner(row, static_cast<size_t>(x), pw);
      if (corner) {
        g.cells_.push_back(static_cast<uint32_t>(y) *
                               static_cast<uint32_t>(pw) +
                           static_cast<uint32_t>(x));
        g.xy_.push_back(static_cast<uint32_t>(x) |
                        (static_cast<uint32_t>(y) << 16));
      }
    }
  }

  // Stop lines: blocked cells (the border included) and subgoals.
  g.row_words_ = (static_cast<size_t>(pw) + 63) / 64;
  // The subgoals' bits and each word's count of subgoals before it (NodeOf).
  g.node_bits_.assign(g.row_words_ * static_cast<size_t>(ph), 0);
  for (uint32_t v = 0; v < g.node_count(); ++v) {
    g.node_bits_[static_cast<size_t>(g.YOf(v)) * g.row_words_ +
                 (g.XOf(v) >> 6)] |= uint64_t{1} << (g.XOf(v) & 63);
  }
  g.word_rank_.resize(g.node_bits_.size());
  uint32_t before = 0;
  for (size_t w = 0; w < g.node_bits_.size(); ++w) {
    g.word_rank_[w] = before;
    before += static_cast<uint32_t>(__builtin_popcountll(g.node_bits_[w]));
  }
  g.column_words_ = (static_cast<size_t>(ph) + 63) / 64;
  g.row_stops_.assign(g.row_words_ * static_cast<size_t>(ph), 0);
  g.column_stops_.assign(g.column_words_ * static_cast<size_t>(pw), 0);
  auto set_stop = [&g](int32_t x, int32_t y) {
    g.row_stops_[static_cast<size_t>(y) * g.row_words_ + (x >> 6)] |=
        uint64_t{1} << (x & 63);
    g.column_stops_[static_cast<size_t>(x) * g.column_words_ + (y >> 6)] |=
        uint64_t{1} << (y & 63);
  };
  for (int32_t y = 0; y < ph; ++y) {
    const uint8_t* row =
        costs + static_cast<size_t>(y) * static_cast<size_t>(pw);
    for (int32_t x = 0; x < pw; ++x) {
      if (row[x] == 0) set_stop(x, y);
    }
  }
  for (uint32_t v = 0; v < g.node_count(); ++v) set_stop(g.XOf(v), g.YOf(v));

  // Edges: each subgoal's scan, then the reverse of each, deduplicated.
  const uint32_t n = g.node_count();
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  for (uint32_t v = 0; v < n; ++v) {
    if (abandon && v % kAbandonPoll == 0 && abandon()) return nullptr;
    g.Scan(map, g.cells_[v], UINT32_MAX, [&](uint32_t t) {
      if (t != v) pairs.emplace_back(v, t);
    });
  }
  std::vector<uint32_t> degree(static_cast<size_t>(n) + 1, 0);
  for (const auto& e : pairs) {
    ++degree[e.first];
    ++degree[e.second];
  }
  std::vector<uint32_t> begin(static_cast<size_t>(n) + 1, 0);
  for (uint32_t v = 0; v < n; ++v) begin[v + 1] = begin[v] + degree[v];
  std::vector<uint32_t> targets(begin[n]);
  std::vector<uint32_t> fill(begin.begin(), begin.end() - 1);
  for (const auto& e : pairs) {
    targets[fill[e.first]++] = e.second;
    targets[fill[e.second]++] = e.first;
  }
  pairs.clear();
  pairs.shrink_to_fit();
  g.edge_begin_.assign(static_cast<size_t>(n) + 1, 0);
  g.targets_.reserve(targets.size());
  for (uint32_t v = 0; v < n; ++v) {
    auto first = targets.begin() + begin[v],
         last = targets.begin() + begin[v + 1];
    std::sort(first, last);
    last = std::unique(first, last);
    g.targets_.insert(g.targets_.end(), first, last);
    g.edge_begin_[v + 1] = static_cast<uint32_t>(g.targets_.size());
  }
  g.targets_.shrink_to_fit();
  if (abandon && abandon()) return nullptr;
  g.PickLandmarks(map);
  return graph;
}

void SubgoalGraph::PickLandmarks(const GridMap& map) {
  const uint32_t n = node_count();
  if (n == 0) return;
  // Start in the component holding the most subgoals.
  std::vector<uint32_t> per_component(map.component_count() + 1, 0);
  std::vector<uint32_t> component_of(n);
  for (uint32_t v = 0; v < n; ++v) {
    component_of[v] = map.component(Cell{XOf(v) - 1, YOf(v) - 1});
    ++per_component[component_of[v]];
  }
  const uint32_t biggest = static_cast<uint32_t>(
      std::max_element(per_component.begin(), per_component.end()) -
      per_component.begin());
  uint32_t first = 0;
  while (component_of[first] != biggest) ++first;

  const int count = static_cast<int>(
      std::min<uint32_t>(per_component[biggest], kSubgoalLandmarks));
  std::vector<std::vector<float>> columns;
  FarthestFirstLandmarks(
      n, first, count,
      [&](uint32_t u, const auto& visit) {
        const int32_t ux = XOf(u), uy = YOf(u);
        for (const uint32_t* e = EdgesBegin(u); e != EdgesEnd(u); ++e) {
          visit(*e, OctileSteps(ux, uy, XOf(*e), YOf(*e)));
        }
      },
      [&](int, const std::vector<double>& dist) {
        columns.emplace_back(dist.begin(), dist.end());
      });
  landmark_count_ = static_cast<int>(columns.size());
  landmarks_.resize(static_cast<size_t>(n) * columns.size());
  for (uint32_t v = 0; v < n; ++v) {
    for (size_t k = 0; k < columns.size(); ++k) {
      landmarks_[static_cast<size_t>(v) * columns.size() + k] = columns[k][v];
    }
  }
}

}  // namespace gridstar::internal
