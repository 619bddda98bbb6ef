// Test oracles written plainly and independently of core/src: a brute-force
// Dijkstra, a move-legality and path checker, and seeded random maps. Used by
// the property tests and the search fuzz target.

#ifndef GRIDSTAR_TESTS_TESTING_REFERENCE_H_
#define GRIDSTAR_TESTS_TESTING_REFERENCE_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <queue>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gridstar/find_path.h"
#include "gridstar/grid_map.h"

namespace gridstar::testing {

inline constexpr double kUnreachable = std::numeric_limits<double>::infinity();

// Cost of the move a->b under `policy` by the documented rules, or -1 when
// illegal. Written from the spec, not shared with core.
inline double ReferenceMoveCost(const GridMap& map, Cell a, Cell b,
                                DiagonalPolicy policy) {
  auto open = [&](int64_t x, int64_t y) {
    return x >= 0 && y >= 0 && x < map.width() && y < map.height() &&
           map.cost({static_cast<int32_t>(x), static_cast<int32_t>(y)}) != 0;
  };
  if (!open(a.x, a.y) || !open(b.x, b.y)) return -1;
  const int64_t dx = int64_t{b.x} - a.x, dy = int64_t{b.y} - a.y;
  if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0)) return -1;
  const double avg = (map.cost(a) + map.cost(b)) / 2.0;
  if (dx == 0 || dy == 0) return avg;
  const bool side1 = open(b.x, a.y), side2 = open(a.x, b.y);
  switch (policy) {
    case DiagonalPolicy::kNever:
      return -1;
    case DiagonalPolicy::kNoCornerCutting:
      if (!(side1 && side2)) return -1;
      break;
    case DiagonalPolicy::kAllowCornerCutting:
      if (!(side1 || side2)) return -1;
      break;
  }
  return std::sqrt(2.0) * avg;
}

// Single-source Dijkstra over the cells of a width x height grid, a plain
// binary heap with duplicates; move_cost(a, b) is the cost of the move a->b
// or negative when illegal. Returns the cost to every cell, row-major;
// kUnreachable where none (everywhere when !start_ok).
template <typename MoveCostFn>
std::vector<double> ReferenceDistancesWith(int w, int h, Cell start,
                                           bool start_ok,
                                           const MoveCostFn& move_cost) {
  std::vector<double> dist(static_cast<size_t>(w) * h, kUnreachable);
  if (!start_ok) return dist;
  using Item = std::pair<double, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue;
  dist[static_cast<size_t>(start.y) * w + start.x] = 0;
  queue.push({0.0, start.y * w + start.x});
  std::vector<bool> done(dist.size(), false);
  while (!queue.empty()) {
    const auto [d, i] = queue.top();
    queue.pop();
    if (done[i]) continue;
    done[i] = true;
    const Cell c{i % w, i / w};
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        const Cell n{c.x + dx, c.y + dy};
        const double step = move_cost(c, n);
        if (step < 0) continue;
        const int j = n.y * w + n.x;
        if (d + step < dist[j]) {
          dist[j] = d + step;
          queue.push({dist[j], j});
        }
      }
    }
  }
  return dist;
}

// ReferenceDistancesWith under ReferenceMoveCost.
inline std::vector<double> ReferenceDistances(const GridMap& map, Cell start,
                                              DiagonalPolicy policy) {
  return ReferenceDistancesWith(
      map.width(), map.height(), start, map.Passable(start),
      [&](Cell a, Cell b) { return ReferenceMoveCost(map, a, b, policy); });
}

inline double Distance(const std::vector<double>& dist, const GridMap& map,
                       Cell c) {
  return dist[static_cast<size_t>(c.y) * map.width() + c.x];
}

// Checks a returned path: ends as expected, every move legal by
// move_cost(a, b) (negative when illegal), cost the sum of the move costs.
// Returns an empty string when fine, else what is wrong.
template <typename MoveCostFn>
std::string CheckPathWith(const PathResult& r, Cell start, Cell goal,
                          bool expect_goal, const MoveCostFn& move_cost) {
  if (r.cells.empty()) return "empty path";
  if (r.cells.front() != start) return "path does not begin at the start";
  if (expect_goal && r.cells.back() != goal) return "path does not end at goal";
  double sum = 0;
  for (size_t i = 1; i < r.cells.size(); ++i) {
    const double c = move_cost(r.cells[i - 1], r.cells[i]);
    if (c < 0) {
      return "illegal move " + std::to_string(i) + ": (" +
             std::to_string(r.cells[i - 1].x) + "," +
             std::to_string(r.cells[i - 1].y) + ")->(" +
             std::to_string(r.cells[i].x) + "," + std::to_string(r.cells[i].y) +
             ")";
    }
    sum += c;
  }
  if (std::fabs(sum - r.cost) > 1e-9 * (1 + sum)) {
    return "reported cost " + std::to_string(r.cost) + " but moves sum to " +
           std::to_string(sum);
  }
  return "";
}

// CheckPathWith under ReferenceMoveCost.
inline std::string CheckPath(const GridMap& map, const PathResult& r,
                             Cell start, Cell goal, DiagonalPolicy policy,
                             bool expect_goal) {
  return CheckPathWith(r, start, goal, expect_goal, [&](Cell a, Cell b) {
    return ReferenceMoveCost(map, a, b, policy);
  });
}

// True when the component labels of two maps of one size describe the same
// partition of the same passable cells.
inline bool SamePartition(const GridMap& a, const GridMap& b) {
  if (a.component_count() != b.component_count()) return false;
  std::vector<uint32_t> a_to_b(a.component_count() + 1, 0);
  std::vector<uint32_t> b_to_a(b.component_count() + 1, 0);
  for (int32_t y = 0; y < a.height(); ++y) {
    for (int32_t x = 0; x < a.width(); ++x) {
      const uint32_t ca = a.component({x, y}), cb = b.component({x, y});
      if ((ca == 0) != (cb == 0)) return false;
      if (ca == 0) continue;
      if (a_to_b[ca] == 0) a_to_b[ca] = cb;
      if (b_to_a[cb] == 0) b_to_a[cb] = ca;
      if (a_to_b[ca] != cb || b_to_a[cb] != ca) return false;
    }
  }
  return true;
}

// Cost of the straight segment between the centres of a and b by the
// documented rules (segment.h), or -1 when it enters a blocked cell or passes
// a corner the policy forbids (kNever as kNoCornerCutting). Written from the
// rules, not shared with core: every cell of the bounding box is tested for
// the stretch of the segment inside its open square, and every cell corner
// for lying on the segment, in exact integer arithmetic (coordinates doubled,
// so centres are odd and cell edges even).
inline double ReferenceSegmentCost(const GridMap& map, Cell a, Cell b,
                                   DiagonalPolicy policy) {
  struct Fraction {  // num / den, den > 0.
    int64_t num, den;
    bool operator<(const Fraction& o) const { return num * o.den < o.num * den; }
    double value() const { return static_cast<double>(num) / den; }
  };
  auto passable = [&](int64_t x, int64_t y) {
    return x >= 0 && y >= 0 && x < map.width() && y < map.height() &&
           map.cost({static_cast<int32_t>(x), static_cast<int32_t>(y)}) != 0;
  };
  const int64_t ax2 = 2 * int64_t{a.x} + 1, ay2 = 2 * int64_t{a.y} + 1;
  const int64_t dx2 = 2 * (int64_t{b.x} - a.x), dy2 = 2 * (int64_t{b.y} - a.y);
  const double length = std::hypot(dx2 / 2.0, dy2 / 2.0);
  // Where along the segment one coordinate is strictly inside (lo, lo + 2),
  // as a parameter interval; empty (lo >= hi) when never.
  auto interval = [](int64_t start, int64_t delta, int64_t lo,
                     Fraction* from, Fraction* to) {
    if (delta == 0) {
      const bool inside = start > lo && start < lo + 2;
      *from = {inside ? 0 : 1, 1};
      *to = {inside ? 1 : 0, 1};
      return;
    }
    Fraction p{lo - start, delta}, q{lo + 2 - start, delta};
    if (delta < 0) {
      p = {start - lo, -delta};
      q = {start - lo - 2, -delta};
    }
    *from = p < q ? p : q;
    *to = p < q ? q : p;
  };
  double total = 0;
  for (int64_t y = std::min(a.y, b.y); y <= std::max(a.y, b.y); ++y) {
    for (int64_t x = std::min(a.x, b.x); x <= std::max(a.x, b.x); ++x) {
      Fraction x_from, x_to, y_from, y_to;
      interval(ax2, dx2, 2 * x, &x_from, &x_to);
      interval(ay2, dy2, 2 * y, &y_from, &y_to);
      Fraction from{0, 1}, to{1, 1};
      if (from < x_from) from = x_from;
      if (from < y_from) from = y_from;
      if (x_to < to) to = x_to;
      if (y_to < to) to = y_to;
      if (!(from < to)) continue;
      if (!passable(x, y)) return -1;
      total += (to.value() - from.value()) * length *
               map.cost({static_cast<int32_t>(x), static_cast<int32_t>(y)});
    }
  }
  if (dx2 != 0 && dy2 != 0) {
    // Corners (2X, 2Y) on the segment, strictly between its ends.
    for (int64_t cx = std::min(a.x, b.x) + 1; cx <= std::max(a.x, b.x); ++cx) {
      const int64_t num = (2 * cx - ax2) * dy2;  // 2Y - ay2 = num / dx2
      if (num % dx2 != 0) continue;
      const int64_t y2 = ay2 + num / dx2;
      if (y2 % 2 != 0) continue;
      const int64_t cy = y2 / 2;
      const bool down_right = (dx2 > 0) == (dy2 > 0);
      const bool side1 = down_right ? passable(cx, cy - 1) : passable(cx - 1, cy - 1);
      const bool side2 = down_right ? passable(cx - 1, cy) : passable(cx, cy);
      const bool ok = policy == DiagonalPolicy::kAllowCornerCutting
                          ? (side1 || side2)
                          : (side1 && side2);
      if (!ok) return -1;
    }
  }
  return total;
}

// The first passable cell in row-major order and the last cell of its
// component: a connected pair far apart, for tests that need one.
inline std::pair<Cell, Cell> FarConnectedPair(const GridMap& map) {
  Cell first{-1, -1}, last{-1, -1};
  for (int32_t y = 0; y < map.height(); ++y) {
    for (int32_t x = 0; x < map.width(); ++x) {
      if (!map.Passable({x, y})) continue;
      if (first.x < 0) first = {x, y};
      if (map.component({x, y}) == map.component(first)) last = {x, y};
    }
  }
  return {first, last};
}

// Parameters of a random map.
struct RandomMapSpec {
  int width = 16;
  int height = 16;
  double blocked = 0.2;    // Share of blocked cells.
  int max_cost = 1;        // Costs drawn from min_cost..max_cost.
  bool corridors = false;  // Carve one-cell-wide corridors into solid rock.
  int min_cost = 1;
};

inline GridMap MakeRandomMap(const RandomMapSpec& spec, uint32_t seed) {
  std::mt19937 rng(seed);
  const size_t n = static_cast<size_t>(spec.width) * spec.height;
  std::vector<uint8_t> costs(n);
  std::uniform_int_distribution<int> cost(spec.min_cost, spec.max_cost);
  std::uniform_real_distribution<double> u(0, 1);
  if (spec.corridors) {
    // A random walk on even cells, knocking through walls: a maze of
    // one-cell corridors.
    costs.assign(n, 0);
    int x = 0, y = 0;
    for (int step = 0; step < spec.width * spec.height; ++step) {
      costs[static_cast<size_t>(y) * spec.width + x] =
          static_cast<uint8_t>(cost(rng));
      const int dir = static_cast<int>(rng() % 4);
      const int dx[4] = {2, -2, 0, 0}, dy[4] = {0, 0, 2, -2};
      const int nx = x + dx[dir], ny = y + dy[dir];
      if (nx < 0 || ny < 0 || nx >= spec.width || ny >= spec.height) continue;
      costs[static_cast<size_t>((y + ny) / 2) * spec.width + (x + nx) / 2] =
          static_cast<uint8_t>(cost(rng));
      x = nx;
      y = ny;
    }
  } else {
    for (auto& c : costs) {
      c = u(rng) < spec.blocked ? 0 : static_cast<uint8_t>(cost(rng));
    }
  }
  return *GridMap::FromCosts(spec.width, spec.height, costs);
}

}  // namespace gridstar::testing

#endif  // GRIDSTAR_TESTS_TESTING_REFERENCE_H_
