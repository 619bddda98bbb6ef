#include "watch/agent_path.h"

#include <algorithm>
#include <cstdlib>

#include "gridstar/find_path.h"

namespace gridstar::server {

AgentPath::AgentPath(const std::vector<Cell>& cells) {
  for (size_t i = 0; i < cells.size(); ++i) {
    const Cell c = cells[i];
    if (runs_.empty()) {
      runs_.push_back(Run{c, 0, 0, 0, 0});
      cell_count_ = 1;
      continue;
    }
    Run& last = runs_.back();
    const Cell end{last.start.x + static_cast<int32_t>(last.moves) * last.dx,
                   last.start.y + static_cast<int32_t>(last.moves) * last.dy};
    if (c == end) continue;
    const int8_t dx = static_cast<int8_t>(c.x - end.x);
    const int8_t dy = static_cast<int8_t>(c.y - end.y);
    if (last.moves == 0) {
      last.dx = dx;
      last.dy = dy;
      last.moves = 1;
    } else if (dx == last.dx && dy == last.dy) {
      ++last.moves;
    } else {
      const uint64_t first = last.first + last.moves;
      runs_.push_back(Run{end, dx, dy, 1, first});
    }
    ++cell_count_;
  }
  runs_.shrink_to_fit();
}

size_t AgentPath::RunOf(size_t i) const {
  // The last run whose first index is <= i.
  size_t lo = 0;
  size_t hi = runs_.size();
  while (hi - lo > 1) {
    const size_t mid = (lo + hi) / 2;
    if (runs_[mid].first <= i) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

Cell AgentPath::CellAt(size_t i) const {
  const Run& run = runs_[RunOf(i)];
  const int32_t k = static_cast<int32_t>(i - run.first);
  return Cell{run.start.x + k * run.dx, run.start.y + k * run.dy};
}

absl::optional<size_t> AgentPath::Locate(Cell c, size_t hint) const {
  if (runs_.empty()) return absl::nullopt;
  if (hint >= cell_count_) hint = cell_count_ - 1;
  auto on_run = [&](const Run& run) -> absl::optional<uint64_t> {
    const int32_t ox = c.x - run.start.x;
    const int32_t oy = c.y - run.start.y;
    int64_t k;
    if (run.dx != 0) {
      k = ox / run.dx;
      if (ox % run.dx != 0) return absl::nullopt;
    } else {
      if (ox != 0) return absl::nullopt;
      k = run.dy != 0 ? oy / run.dy : 0;
    }
    if (k < 0 || k > static_cast<int64_t>(run.moves)) return absl::nullopt;
    if (oy != k * run.dy) return absl::nullopt;
    return run.first + static_cast<uint64_t>(k);
  };
  const size_t start = RunOf(hint);
  for (size_t r = start; r < runs_.size(); ++r) {
    if (absl::optional<uint64_t> i = on_run(runs_[r]); i && *i >= hint) {
      return static_cast<size_t>(*i);
    }
  }
  for (size_t r = 0; r <= start; ++r) {
    if (absl::optional<uint64_t> i = on_run(runs_[r])) {
      return static_cast<size_t>(*i);
    }
  }
  return absl::nullopt;
}

std::vector<uint32_t> AgentPath::Tiles(int32_t width, int32_t tile_side) const {
  int shift = 0;
  while ((1 << shift) < tile_side) ++shift;
  const uint32_t per_row =
      static_cast<uint32_t>((width + tile_side - 1) >> shift);
  std::vector<uint32_t> tiles;
  uint32_t previous = UINT32_MAX;
  ForEachTouchedCell(0, [&](Cell c) {
    if (c.x < 0 || c.y < 0) return;  // Off the map: no tile to watch.
    const uint32_t t = static_cast<uint32_t>(c.y >> shift) * per_row +
                       static_cast<uint32_t>(c.x >> shift);
    if (t != previous) tiles.push_back(t);
    previous = t;
  });
  std::sort(tiles.begin(), tiles.end());
  tiles.erase(std::unique(tiles.begin(), tiles.end()), tiles.end());
  return tiles;
}

double RemainingCost(const GridMap& map, const AgentPath& path, size_t from,
                     DiagonalPolicy policy) {
  if (from >= path.cell_count()) return -1;
  double cost = 0;
  bool first = true;
  bool legal = true;
  Cell previous;
  path.ForEachCell(from, [&](Cell c) {
    if (!legal) return;
    if (first) {
      legal = map.Passable(c);
      first = false;
    } else {
      const double move = MoveCost(map, previous, c, policy);
      if (move < 0) {
        legal = false;
      } else {
        cost += move;
      }
    }
    previous = c;
  });
  return legal ? cost : -1;
}

}  // namespace gridstar::server
