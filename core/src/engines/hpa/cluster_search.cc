#include "engines/hpa/cluster_search.h"

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <functional>

#include "base/geometry.h"

namespace gridstar::internal {

ClusterSearch::ClusterSearch()
    : local_(size_t{kStride} * kStride, 0),
      g_(kCells, 0.0),
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
  local_current_ = false;
}

void ClusterSearch::CopyRectangle() {
  if (local_current_) return;
  local_current_ = true;
  std::fill(local_.begin(), local_.end(), 0);
  const uint8_t* row = costs_ + int64_t{y0_ + 1} * padded_width_ + (x0_ + 1);
  uint8_t least = 255, most = 0;
  for (int y = 0; y < h_; ++y, row += padded_width_) {
    std::copy(row, row + w_, &local_[static_cast<size_t>(y + 1) * kStride + 1]);
    for (int x = 0; x < w_; ++x) {
      if (row[x] == 0) continue;
      least = std::min(least, row[x]);
      most = std::max(most, row[x]);
    }
  }
  uniform_cost_ = least == most ? least : 0;
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
  CopyRectangle();
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
  targets_left_ = 0;
  for (uint16_t t : targets) {
    if (target_[t] != open_) {
      target_[t] = open_;
      ++targets_left_;
    }
  }
  switch (policy_) {
    case DiagonalPolicy::kNever:
      return RunWith<kAStar, DiagonalPolicy::kNever>(source, goal);
    case DiagonalPolicy::kNoCornerCutting:
      return RunWith<kAStar, DiagonalPolicy::kNoCornerCutting>(source, goal);
    case DiagonalPolicy::kAllowCornerCutting:
      return RunWith<kAStar, DiagonalPolicy::kAllowCornerCutting>(source,
                                                                  goal);
  }
  return 0;
}

template <DiagonalPolicy kPolicy>
uint64_t ClusterSearch::UniformDijkstra(uint16_t source) {
  constexpr bool kDiagonal = kPolicy != DiagonalPolicy::kNever;
  const double steps[2] = {static_cast<double>(uniform_cost_),
                           kSqrt2 * static_cast<double>(uniform_cost_)};
  size_t head[2] = {0, 0};
  fifo_[0].clear();
  fifo_[1].clear();
  g_[source] = 0;
  parent_[source] = source;
  stamp_[source] = open_;
  fifo_[0].push_back({0.0, source});
  uint64_t expanded = 0;
  const uint8_t* const local = local_.data();
  for (;;) {
    // The least head of the two queues.
    const bool straight_left = head[0] < fifo_[0].size();
    const bool diagonal_left = head[1] < fifo_[1].size();
    if (!straight_left && !diagonal_left) break;
    const int q = !straight_left                   ? 1
                  : !diagonal_left                 ? 0
                  : fifo_[1][head[1]].g < fifo_[0][head[0]].g ? 1
                                                               : 0;
    const QueuedCell popped = fifo_[q][head[q]++];
    const uint16_t cur = popped.local;
    if (stamp_[cur] == closed_ || popped.g != g_[cur]) continue;
    stamp_[cur] = closed_;
    ++expanded;
    if (target_[cur] == open_ && --targets_left_ == 0) break;
    const int x = cur % kClusterSize, y = cur / kClusterSize;
    const int lp = (y + 1) * kStride + x + 1;
    const double g = popped.g;
    for (int m = 0; m < (kDiagonal ? 8 : 4); ++m) {
      if (local[lp + kMoveDy[m] * kStride + kMoveDx[m]] == 0) continue;
      if (m >= 4 &&
          !DiagonalAllowed<kPolicy>(local[lp + kMoveDx[m]],
                                    local[lp + kMoveDy[m] * kStride])) {
        continue;
      }
      const uint16_t next =
          static_cast<uint16_t>(cur + kMoveDy[m] * kClusterSize + kMoveDx[m]);
      if (stamp_[next] == closed_) continue;
      const double ng = g + steps[m >= 4];
      if (stamp_[next] != open_ || ng < g_[next]) {
        g_[next] = ng;
        parent_[next] = cur;
        stamp_[next] = open_;
        fifo_[m >= 4].push_back({ng, next});
      }
    }
  }
  return expanded;
}

template <bool kAStar, DiagonalPolicy kPolicy>
uint64_t ClusterSearch::RunWith(uint16_t source, uint16_t goal) {
  constexpr bool kDiagonal = kPolicy != DiagonalPolicy::kNever;
  if constexpr (!kAStar) {
    if (uniform_cost_ != 0) return UniformDijkstra<kPolicy>(source);
  }
  const int gx = goal % kClusterSize, gy = goal / kClusterSize;
  auto heuristic = [&](int x, int y) {
    if constexpr (!kAStar) return 0.0;
    return min_cost_ * GridDistance(x - gx, y - gy, kDiagonal);
  };
  g_[source] = 0;
  parent_[source] = source;
  stamp_[source] = open_;
  {
    const double h = heuristic(source % kClusterSize, source / kClusterSize);
    open_list_.Push(source, h, h);
  }
  uint64_t expanded = 0;
  const uint8_t* const local = local_.data();
  while (!open_list_.empty()) {
    double f;
    const uint16_t cur = static_cast<uint16_t>(open_list_.PopMin(&f));
    if (stamp_[cur] == closed_) continue;
    stamp_[cur] = closed_;
    ++expanded;
    if constexpr (kAStar) {
      if (cur == goal) break;
    } else {
      if (target_[cur] == open_ && --targets_left_ == 0) break;
    }
    const int x = cur % kClusterSize, y = cur / kClusterSize;
    const int lp = (y + 1) * kStride + x + 1;
    const double cost_here = local[lp];
    const double g = g_[cur];
    for (int m = 0; m < (kDiagonal ? 8 : 4); ++m) {
      const uint8_t c = local[lp + kMoveDy[m] * kStride + kMoveDx[m]];
      if (c == 0) continue;
      double step = 0.5 * (cost_here + c);
      if (m >= 4) {
        // The ring is walls, and a diagonal between two cells of the
        // rectangle has its orthogonal cells in it.
        if (!DiagonalAllowed<kPolicy>(local[lp + kMoveDx[m]],
                                      local[lp + kMoveDy[m] * kStride])) {
          continue;
        }
        step *= kSqrt2;
      }
      const uint16_t next =
          static_cast<uint16_t>(cur + kMoveDy[m] * kClusterSize + kMoveDx[m]);
      if (stamp_[next] == closed_) continue;
      const double ng = g + step;
      if (stamp_[next] != open_ || ng < g_[next]) {
        g_[next] = ng;
        parent_[next] = cur;
        stamp_[next] = open_;
        const double h = heuristic(x + kMoveDx[m], y + kMoveDy[m]);
        open_list_.Push(next, ng + h, h);
      }
    }
  }
  return expanded;
}

bool ClusterSearch::AppendTurnsFrom(uint16_t local, size_t max_turns,
                                    std::vector<uint16_t>* out) const {
  assert(stamp_[local] == closed_);
  const size_t first = out->size();
  int last_step = 0;  // The move into the cell before, as a local offset.
  for (uint16_t i = local; parent_[i] != i; i = parent_[i]) {
    const int step = int{parent_[i]} - int{i};
    if (i != local && step != last_step) {
      if (out->size() - first == max_turns) {
        out->resize(first);
        return false;
      }
      out->push_back(i);
    }
    last_step = step;
  }
  return true;
}

void ClusterSearch::AppendTurnPath(uint16_t from,
                                   absl::Span<const uint16_t> turns,
                                   uint16_t to, std::vector<Cell>* out) const {
  int x = from % kClusterSize, y = from / kClusterSize;
  auto walk = [&](uint16_t target) {
    const int tx = target % kClusterSize, ty = target / kClusterSize;
    const int sx = tx > x ? 1 : tx < x ? -1 : 0;
    const int sy = ty > y ? 1 : ty < y ? -1 : 0;
    assert(tx == x || ty == y || std::abs(tx - x) == std::abs(ty - y));
    while (x != tx || y != ty) {
      x += sx;
      y += sy;
      out->push_back(CellOf(static_cast<uint16_t>(y * kClusterSize + x)));
    }
  };
  for (uint16_t t : turns) walk(t);
  walk(to);
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
