// AgentPath: a watched agent's path as the watch index keeps it, compressed
// to straight runs (a path of n cells with k turns costs k runs, not n
// cells), with the questions the index asks of it: where a reported
// position lies on it, which cells its moves depend on (the path's cells
// and, for each diagonal move, its two corner cells), which tiles those
// fall in, and what the part still to walk costs on a (changed) map.
//
// Thread-safety: a plain value; const methods may run concurrently.
// Invariants: runs_ chain (each run ends where the next starts); every move
// is one of the eight king moves.
#ifndef GRIDSTAR_SERVER_WATCH_AGENT_PATH_H_
#define GRIDSTAR_SERVER_WATCH_AGENT_PATH_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/types/optional.h"
#include "gridstar/grid_map.h"
#include "gridstar/types.h"

namespace gridstar::server {

class AgentPath {
 public:
  AgentPath() = default;
  // REQUIRES: each cell one king move (or no move) from the one before.
  // Repeated cells are dropped.
  explicit AgentPath(const std::vector<Cell>& cells);

  bool empty() const { return cell_count_ == 0; }
  // Cells of the path, both ends included.
  size_t cell_count() const { return cell_count_; }
  // REQUIRES: i < cell_count().
  Cell CellAt(size_t i) const;
  Cell last() const { return CellAt(cell_count_ - 1); }

  // The index of `c` on the path: the first one at or after `hint` (a unit
  // walks forward), else the first one before it. Nullopt when the path
  // does not pass `c`.
  absl::optional<size_t> Locate(Cell c, size_t hint) const;

  // Calls fn(cell) for each cell from index `from` on, in order.
  template <typename Fn>
  void ForEachCell(size_t from, Fn fn) const;
  // Calls fn(cell) for every cell the legality of the moves from index
  // `from` on depends on: those cells and both corner cells of each
  // diagonal move (a cell may come more than once).
  template <typename Fn>
  void ForEachTouchedCell(size_t from, Fn fn) const;

  // The tiles (tile_side x tile_side, numbered row-major on a map `width`
  // wide) of every touched cell of the whole path, sorted, each once.
  // REQUIRES: tile_side a power of two.
  std::vector<uint32_t> Tiles(int32_t width, int32_t tile_side) const;

  // Bytes this path holds.
  size_t memory_bytes() const { return runs_.capacity() * sizeof(Run); }

 private:
  struct Run {
    Cell start;
    int8_t dx = 0;
    int8_t dy = 0;
    uint32_t moves = 0;  // Cells start + k * (dx, dy) for k in [0, moves].
    uint64_t first = 0;  // Index of `start` on the path.
  };
  // The run holding index i (the later one where two share a cell).
  size_t RunOf(size_t i) const;

  std::vector<Run> runs_;
  size_t cell_count_ = 0;
};

// The cost of the path from index `from` to its end on `map` under
// `policy` (each move as MoveCost prices it), or -1 when a move is no
// longer legal there (a cell blocked or off the map, a diagonal its corner
// cells now forbid) or the cell at `from` is blocked.
double RemainingCost(const GridMap& map, const AgentPath& path, size_t from,
                     DiagonalPolicy policy);

// ---- Implementation of the templates ----

template <typename Fn>
void AgentPath::ForEachCell(size_t from, Fn fn) const {
  if (from >= cell_count_) return;
  for (size_t r = RunOf(from); r < runs_.size(); ++r) {
    const Run& run = runs_[r];
    const uint64_t k0 = from > run.first ? from - run.first : 0;
    // A run's end is the next run's start: visit it only on the last run.
    const uint64_t k1 = r + 1 < runs_.size() ? run.moves : run.moves + 1;
    for (uint64_t k = k0; k < k1; ++k) {
      fn(Cell{run.start.x + static_cast<int32_t>(k) * run.dx,
              run.start.y + static_cast<int32_t>(k) * run.dy});
    }
  }
}

template <typename Fn>
void AgentPath::ForEachTouchedCell(size_t from, Fn fn) const {
  if (from >= cell_count_) return;
  for (size_t r = RunOf(from); r < runs_.size(); ++r) {
    const Run& run = runs_[r];
    const uint64_t k0 = from > run.first ? from - run.first : 0;
    for (uint64_t k = k0; k <= run.moves; ++k) {
      const Cell c{run.start.x + static_cast<int32_t>(k) * run.dx,
                   run.start.y + static_cast<int32_t>(k) * run.dy};
      fn(c);
      if (k < run.moves && run.dx != 0 && run.dy != 0) {
        fn(Cell{c.x + run.dx, c.y});
        fn(Cell{c.x, c.y + run.dy});
      }
    }
  }
}

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_WATCH_AGENT_PATH_H_
