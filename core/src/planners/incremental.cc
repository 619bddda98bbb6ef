// D* Lite (Koenig & Likhachev 2002), the optimised form: a backward search
// from the goal whose keys carry km, the heuristic distance the start has
// moved, so that the open list need not be re-sorted as the agent walks.
#include "gridstar/incremental.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "gridstar/move_cost.h"

namespace gridstar {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

struct DStarLite::State {
  struct Node {
    double g = kInf;
    double rhs = kInf;
    double k1 = 0;
    double k2 = 0;
    bool open = false;
  };
  struct Entry {
    double k1;
    double k2;
    uint32_t cell;
  };
  // Min-heap order on (k1, k2).
  static bool Later(const Entry& a, const Entry& b) {
    return a.k1 > b.k1 || (a.k1 == b.k1 && a.k2 > b.k2);
  }

  Options options;
  Cell start;
  Cell goal;
  Cell last;  // The start when km was last raised.
  double km = 0;
  bool planned = false;
  int32_t width = 0;
  int32_t height = 0;
  double h_scale = 1;
  absl::flat_hash_map<uint32_t, Node> nodes;
  std::vector<Entry> heap;
  const GridMap* map = nullptr;  // During Plan.
  uint64_t expanded = 0;

  uint32_t Index(Cell c) const {
    return static_cast<uint32_t>(c.y) * static_cast<uint32_t>(width) +
           static_cast<uint32_t>(c.x);
  }
  Cell CellOf(uint32_t i) const {
    return Cell{static_cast<int32_t>(i % static_cast<uint32_t>(width)),
                static_cast<int32_t>(i / static_cast<uint32_t>(width))};
  }
  double H(Cell a, Cell b) const {
    const double dx = std::abs(a.x - b.x);
    const double dy = std::abs(a.y - b.y);
    if (options.diagonal == DiagonalPolicy::kNever) return (dx + dy) * h_scale;
    return (std::max(dx, dy) + (std::sqrt(2.0) - 1) * std::min(dx, dy)) *
           h_scale;
  }
  double G(uint32_t i) const {
    auto it = nodes.find(i);
    return it == nodes.end() ? kInf : it->second.g;
  }
  std::pair<double, double> Key(uint32_t i, const Node& n) const {
    const double m = std::min(n.g, n.rhs);
    return {m + H(start, CellOf(i)) + km, m};
  }
  int Directions() const {
    return options.diagonal == DiagonalPolicy::kNever ? 4 : 8;
  }
  static constexpr int kDx[8] = {1, -1, 0, 0, 1, -1, 1, -1};
  static constexpr int kDy[8] = {0, 0, 1, -1, 1, 1, -1, -1};

  void Reset() {
    nodes.clear();
    heap.clear();
    km = 0;
    last = start;
    h_scale = std::max<double>(1, map->min_cost());
    width = map->width();
    height = map->height();
    Node& g = nodes[Index(goal)];
    g.rhs = 0;
    Push(Index(goal), g);
    planned = true;
  }

  void Push(uint32_t i, Node& n) {
    const auto [k1, k2] = Key(i, n);
    n.k1 = k1;
    n.k2 = k2;
    n.open = true;
    heap.push_back(Entry{k1, k2, i});
    std::push_heap(heap.begin(), heap.end(), Later);
  }

  // Drops stale heap entries; true when a valid one is on top.
  bool Top() {
    while (!heap.empty()) {
      const Entry& e = heap.front();
      auto it = nodes.find(e.cell);
      if (it != nodes.end() && it->second.open && it->second.k1 == e.k1 &&
          it->second.k2 == e.k2) {
        return true;
      }
      std::pop_heap(heap.begin(), heap.end(), Later);
      heap.pop_back();
    }
    return false;
  }

  void UpdateVertex(uint32_t i) {
    const Cell c = CellOf(i);
    double rhs = 0;
    if (!(c == goal)) {
      rhs = kInf;
      for (int d = 0; d < Directions(); ++d) {
        const Cell n{c.x + kDx[d], c.y + kDy[d]};
        if (!map->InBounds(n)) continue;
        const double g = G(Index(n));
        if (g == kInf) continue;
        const double cost = MoveCost(*map, c, n, options.diagonal);
        if (cost >= 0) rhs = std::min(rhs, cost + g);
      }
    }
    auto it = nodes.find(i);
    if (it == nodes.end()) {
      if (rhs == kInf) return;  // Unknown and unreachable: stays implicit.
      it = nodes.emplace(i, Node{}).first;
    }
    Node& n = it->second;
    n.rhs = rhs;
    if (n.g != n.rhs) {
      Push(i, n);
    } else {
      n.open = false;
    }
  }

  // u's g fell to `g` (an overconsistent cell settled): a neighbour's rhs,
  // the least over its successors, can only fall to the move through u, so
  // it is lowered in O(1) instead of taken again over all its successors
  // (Koenig & Likhachev 2002, the optimised D* Lite).
  void LowerNeighbours(Cell u, double g) {
    for (int d = 0; d < Directions(); ++d) {
      const Cell c{u.x + kDx[d], u.y + kDy[d]};
      if (!map->InBounds(c) || c == goal) continue;
      const double cost = MoveCost(*map, c, u, options.diagonal);
      if (cost < 0 || !(cost + g < kInf)) continue;
      const uint32_t i = Index(c);
      Node& n = nodes[i];
      if (!(cost + g < n.rhs)) continue;
      n.rhs = cost + g;
      if (n.g != n.rhs) {
        Push(i, n);
      } else {
        n.open = false;
      }
    }
  }

  void UpdateNeighbours(Cell c) {
    for (int d = 0; d < Directions(); ++d) {
      const Cell n{c.x + kDx[d], c.y + kDy[d]};
      if (map->InBounds(n)) UpdateVertex(Index(n));
    }
  }

  absl::Status ComputeShortestPath() {
    const uint32_t s = Index(start);
    while (true) {
      const bool any = Top();
      Node start_node;
      if (auto it = nodes.find(s); it != nodes.end()) start_node = it->second;
      const auto start_key = Key(s, start_node);
      // Keys are sums of irrational step costs: two that tie exactly on
      // paper may differ in their last bits, and the k2 tie-break that
      // makes the paper's termination test exact would then be skipped.
      // So every key whose k1 is within rounding of the start's is settled
      // too (a little more work, the same answer).
      const double slack = 1e-9 * std::max(1.0, std::abs(start_key.first));
      const bool top_before =
          any && (start_key.first == kInf ||
                  heap.front().k1 <= start_key.first + slack);
      if (!top_before && start_node.rhs == start_node.g) break;
      if (!any) break;  // Nothing left to settle: start unreachable.
      const Entry top = heap.front();
      std::pop_heap(heap.begin(), heap.end(), Later);
      heap.pop_back();
      ++expanded;
      Node& n = nodes[top.cell];
      const auto fresh = Key(top.cell, n);
      const Cell c = CellOf(top.cell);
      if (top.k1 < fresh.first ||
          (top.k1 == fresh.first && top.k2 < fresh.second)) {
        Push(top.cell, n);
      } else if (n.g > n.rhs) {
        n.g = n.rhs;
        n.open = false;
        LowerNeighbours(c, n.g);  // May rehash: n is not used after this.
      } else {
        n.g = kInf;
        UpdateVertex(top.cell);
        UpdateNeighbours(c);
      }
      if (options.max_nodes != 0 && nodes.size() > options.max_nodes) {
        const size_t held = nodes.size();
        nodes.clear();
        heap.clear();
        planned = false;
        return absl::ResourceExhaustedError(absl::StrCat(
            "D* Lite: more than ", options.max_nodes, " node records (",
            held, "); search afresh"));
      }
    }
    return absl::OkStatus();
  }
};

DStarLite::DStarLite(Cell start, Cell goal, Options options)
    : state_(std::make_unique<State>()) {
  state_->options = options;
  state_->start = start;
  state_->goal = goal;
  state_->last = start;
}

DStarLite::~DStarLite() = default;
DStarLite::DStarLite(DStarLite&&) noexcept = default;
DStarLite& DStarLite::operator=(DStarLite&&) noexcept = default;

void DStarLite::MoveStart(Cell start) { state_->start = start; }
Cell DStarLite::start() const { return state_->start; }
Cell DStarLite::goal() const { return state_->goal; }
size_t DStarLite::nodes() const { return state_->nodes.size(); }
size_t DStarLite::memory_bytes() const {
  return state_->nodes.capacity() *
             (sizeof(std::pair<uint32_t, State::Node>) + 1) +
         state_->heap.capacity() * sizeof(State::Entry) + sizeof(State);
}

absl::Status DStarLite::Plan(const GridMap& map,
                             absl::Span<const CellChange> changed,
                             PathResult* out) {
  State& st = *state_;
  if (absl::Status s = map.CheckPassable("start", st.start); !s.ok()) return s;
  if (absl::Status s = map.CheckPassable("goal", st.goal); !s.ok()) return s;
  st.map = &map;
  st.expanded = 0;
  const bool fresh = !st.planned || map.width() != st.width ||
                     map.height() != st.height ||
                     map.min_cost() < st.h_scale;
  if (fresh) {
    st.Reset();
  } else {
    if (!(st.start == st.last)) {
      st.km += st.H(st.last, st.start);
      st.last = st.start;
    }
    // Every edge a changed cell takes part in (as an end or as a corner of
    // a diagonal) joins two cells of its 3 x 3 block.
    for (const CellChange& r : changed) {
      const int32_t x0 = std::max(0, r.min.x - 1);
      const int32_t y0 = std::max(0, r.min.y - 1);
      const int32_t x1 = std::min(map.width(), r.max.x + 1);
      const int32_t y1 = std::min(map.height(), r.max.y + 1);
      for (int32_t y = y0; y < y1; ++y) {
        for (int32_t x = x0; x < x1; ++x) st.UpdateVertex(st.Index({x, y}));
      }
    }
  }
  // The components make "no path" exact in O(1): a repair would have to
  // drain the whole component to learn it. (The changes are taken in
  // first, so the state stays whole.)
  if (!map.Connected(st.start, st.goal)) {
    st.map = nullptr;
    out->cells.clear();
    out->cost = 0;
    out->expanded = 0;
    return absl::NotFoundError("no path joins start and goal");
  }
  absl::Status s = st.ComputeShortestPath();
  out->cells.clear();
  out->cost = 0;
  out->expanded = st.expanded;
  out->algorithm = Algorithm::kAStar;
  out->partial = false;
  out->start = st.start;
  out->goal = st.goal;
  if (!s.ok()) {
    st.map = nullptr;
    return s;
  }
  if (st.G(st.Index(st.start)) == kInf) {
    st.map = nullptr;
    return absl::NotFoundError("no path joins start and goal");
  }
  // Down the g values: each step to the neighbour minimising c + g.
  Cell c = st.start;
  out->cells.push_back(c);
  const size_t guard = st.nodes.size() + 1;
  while (!(c == st.goal) && out->cells.size() <= guard) {
    double best = kInf;
    Cell next = c;
    for (int d = 0; d < st.Directions(); ++d) {
      const Cell n{c.x + State::kDx[d], c.y + State::kDy[d]};
      if (!map.InBounds(n)) continue;
      const double move = MoveCost(map, c, n, st.options.diagonal);
      if (move < 0) continue;
      const double v = move + st.G(st.Index(n));
      if (v < best) {
        best = v;
        next = n;
      }
    }
    if (best == kInf) break;
    out->cost += MoveCost(map, c, next, st.options.diagonal);
    c = next;
    out->cells.push_back(c);
  }
  st.map = nullptr;
  if (!(c == st.goal)) {
    return absl::InternalError("D* Lite: the g values lead nowhere");
  }
  return absl::OkStatus();
}

}  // namespace gridstar
