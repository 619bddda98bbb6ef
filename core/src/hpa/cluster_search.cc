#include "hpa/cluster_search.h"

#include <algorithm>
#include <cassert>
#include <functional>

#include "geometry.h"

namespace gridstar::internal {

ClusterSearch::ClusterSearch()
    : g_(kCells, 0.0),
      parent_(kCells, 0),
      stamp_(kCells, 0),
      target_(kCells, 0) {}

void ClusterSearch::Begin(const GridMap& map, DiagonalPolicy policy,
                          int32_t x0, int32_t y0, int32_t w, int32_t h) {
  assert(w >= 1 && h >= 1 && w <= kClusterSize && h <= kClusterSize);
  costs_ = map.padded_costs();
  padded_width_ = map.padded_width();
  policy_ = policy;
  min_cost_ = std::max<double>(1, map.min_cost());
  x0_ = x0;
  y0_ = y0;
  w_ = w;
  h_ = h;
}

uint64_t ClusterSearch::Dijkstra(uint16_t source,
                                 absl::Span<const uint16_t> targets) {
  return Run<false>(source, 0, targets);
}

uint64_t ClusterSearch::AStar(uint16_t source, uint16_t goal) {
  return Run<true>(source, goal, {});
}

template <bool kAStar>
uint64_t ClusterSearch::Run(uint16_t source, uint16_t goal,
                            absl::Span<const uint16_t> targets) {
  if (closed_ >= UINT32_MAX - 2) {
    std::fill(stamp_.begin(), stamp_.end(), 0);
    std::fill(target_.begin(), target_.end(), 0);
    open_ = 0;
  }
  open_ += 2;
  closed_ = open_ + 1;
  open_list_.Clear();
  // Targets are marked with this search's open stamp (duplicates counted
  // once).
  size_t targets_left = 0;
  for (uint16_t t : targets) {
    if (target_[t] != open_) {
      target_[t] = open_;
      ++targets_left;
    }
  }
  const bool diagonal = policy_ != DiagonalPolicy::kNever;
  const int gx = goal % kClusterSize, gy = goal / kClusterSize;
  auto heuristic = [&](int x, int y) {
    if constexpr (!kAStar) return 0.0;
    return min_cost_ * GridDistance(x - gx, y - gy, diagonal);
  };
  auto push = [&](double f, double h, uint16_t local) {
    open_list_.Push(local, f, h);
  };
  g_[source] = 0;
  parent_[source] = source;
  stamp_[source] = open_;
  {
    const double h = heuristic(source % kClusterSize, source / kClusterSize);
    push(h, h, source);
  }
  uint64_t expanded = 0;
  // The padded index of local (0, 0).
  const int64_t origin =
      int64_t{y0_ + 1} * padded_width_ + int64_t{x0_ + 1};
  while (!open_list_.empty()) {
    double f;
    const uint16_t cur = static_cast<uint16_t>(open_list_.PopMin(&f));
    if (stamp_[cur] == closed_) continue;
    stamp_[cur] = closed_;
    ++expanded;
    if constexpr (kAStar) {
      if (cur == goal) break;
    } else {
      if (target_[cur] == open_ && --targets_left == 0) break;
    }
    const int x = cur % kClusterSize, y = cur / kClusterSize;
    const int64_t pi = origin + int64_t{y} * padded_width_ + x;
    const double cost_here = costs_[pi];
    const double g = g_[cur];
    for (int m = 0; m < 8; ++m) {
      const int nx = x + kMoveDx[m], ny = y + kMoveDy[m];
      if (nx < 0 || ny < 0 || nx >= w_ || ny >= h_) continue;
      const int64_t npi = pi + int64_t{kMoveDy[m]} * padded_width_ + kMoveDx[m];
      const uint8_t c = costs_[npi];
      if (c == 0) continue;
      double step = 0.5 * (cost_here + c);
      if (m >= 4) {
        if (!diagonal) break;  // Diagonals are the last four moves.
        const uint8_t side_x = costs_[pi + kMoveDx[m]];
        const uint8_t side_y = costs_[pi + int64_t{kMoveDy[m]} * padded_width_];
        const bool ok = policy_ == DiagonalPolicy::kNoCornerCutting
                            ? DiagonalAllowed<DiagonalPolicy::kNoCornerCutting>(
                                  side_x, side_y)
                            : DiagonalAllowed<
                                  DiagonalPolicy::kAllowCornerCutting>(side_x,
                                                                       side_y);
        if (!ok) continue;
        step *= kSqrt2;
      }
      const uint16_t next = static_cast<uint16_t>(ny * kClusterSize + nx);
      if (stamp_[next] == closed_) continue;
      const double ng = g + step;
      if (stamp_[next] != open_ || ng < g_[next]) {
        g_[next] = ng;
        parent_[next] = cur;
        stamp_[next] = open_;
        const double h = heuristic(nx, ny);
        push(ng + h, h, next);
      }
    }
  }
  return expanded;
}

bool ClusterSearch::StraightPath(uint16_t from, uint16_t to,
                                 std::vector<Cell>* out) const {
  const int fx = from % kClusterSize, fy = from / kClusterSize;
  const int tx = to % kClusterSize, ty = to / kClusterSize;
  const int sx = tx > fx ? 1 : tx < fx ? -1 : 0;
  const int sy = ty > fy ? 1 : ty < fy ? -1 : 0;
  const int ax = std::abs(tx - fx), ay = std::abs(ty - fy);
  const bool diagonal = policy_ != DiagonalPolicy::kNever;
  const int d = diagonal ? std::min(ax, ay) : 0;
  // Two shapes, each up to three runs of one move: diagonals first or last
  // (under kNever: x moves first or last).
  struct Run {
    int count, dx, dy;
  };
  const Run shapes[2][3] = {
      {{d, sx, sy}, {ax - d, sx, 0}, {ay - d, 0, sy}},
      {{ay - d, 0, sy}, {ax - d, sx, 0}, {d, sx, sy}}};
  const int64_t origin = int64_t{y0_ + 1} * padded_width_ + int64_t{x0_ + 1};
  const size_t first = out->size();
  for (const auto& shape : shapes) {
    int x = fx, y = fy;
    bool legal = true;
    for (const Run& run : shape) {
      for (int i = 0; i < run.count && legal; ++i) {
        const int64_t pi = origin + int64_t{y} * padded_width_ + x;
        const int64_t npi = pi + int64_t{run.dy} * padded_width_ + run.dx;
        legal = costs_[npi] != 0;
        if (legal && run.dx != 0 && run.dy != 0) {
          const uint8_t side_x = costs_[pi + run.dx];
          const uint8_t side_y = costs_[pi + int64_t{run.dy} * padded_width_];
          legal = policy_ == DiagonalPolicy::kNoCornerCutting
                      ? DiagonalAllowed<DiagonalPolicy::kNoCornerCutting>(
                            side_x, side_y)
                      : DiagonalAllowed<DiagonalPolicy::kAllowCornerCutting>(
                            side_x, side_y);
        }
        if (!legal) break;
        x += run.dx;
        y += run.dy;
        out->push_back(CellOf(static_cast<uint16_t>(y * kClusterSize + x)));
      }
      if (!legal) break;
    }
    if (legal) return true;
    out->resize(first);
  }
  return false;
}

void ClusterSearch::AppendPathTo(uint16_t local, bool skip_source,
                                 std::vector<Cell>* out) const {
  const size_t first = out->size();
  AppendPathFrom(local, false, out);
  std::reverse(out->begin() + static_cast<std::ptrdiff_t>(first), out->end());
  if (skip_source) out->erase(out->begin() + static_cast<std::ptrdiff_t>(first));
}

void ClusterSearch::AppendPathFrom(uint16_t local, bool skip_local,
                                   std::vector<Cell>* out) const {
  assert(stamp_[local] == closed_);
  for (uint16_t i = local;; i = parent_[i]) {
    if (!(skip_local && i == local)) out->push_back(CellOf(i));
    if (parent_[i] == i) break;
  }
}

}  // namespace gridstar::internal
