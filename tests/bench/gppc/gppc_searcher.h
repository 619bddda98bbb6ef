// GppcSearcher: gridstar's core behind the Grid-based Path Planning
// Competition's entry points (classic_entry.cc for gppc-dev/startkit-classic,
// dynamic_entry.cc for gppc-dev/startkit-dynamic). A map of passable and
// blocked cells (cost 1 and 0), searched under the competition's rules
// (octile moves, no corner cutting: kNoCornerCutting) by one exact engine,
// with the structures that engine keeps built at setup and repaired after
// each batch of patches; answers as the turning points of the path (the
// harnesses take straight segments between consecutive points, collinear points
// allowed).
//
// Thread-safety: none; one searcher per harness run (the harnesses are
// single-threaded).
#ifndef GRIDSTAR_TESTS_BENCH_GPPC_GPPC_SEARCHER_H_
#define GRIDSTAR_TESTS_BENCH_GPPC_GPPC_SEARCHER_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "gridstar/derived_data.h"
#include "gridstar/find_path.h"
#include "gridstar/grid_map.h"
#include "gridstar/map_update.h"
#include "gridstar/search_context.h"

namespace gridstar::gppc {

class GppcSearcher {
 public:
  // `passable` row-major, width x height; `structures` as the server's
  // registration takes them, searched with `algorithm`.
  static absl::StatusOr<std::unique_ptr<GppcSearcher>> Create(
      const std::vector<bool>& passable, int width, int height,
      DerivedOptions structures, Algorithm algorithm);

  // The cells of [x, x + w) x [y, y + h) set passable or blocked
  // (row-major `passable`, w x h).
  struct PatchRect {
    int x = 0, y = 0, w = 0, h = 0;
    std::vector<bool> passable;
  };
  // `patches`, in order (a later one wins where they overlap), as one next
  // version of the map, its structures repaired once; only the cells whose
  // value changes are written (none: no new version). Cells off the map
  // are ignored.
  absl::Status Patch(const std::vector<PatchRect>& patches);

  // The turning points of an optimal path from s to g, both ends included;
  // empty when none joins them (or an end is blocked).
  const std::vector<Cell>& Find(Cell s, Cell g);

  const GridMap& map() const { return *map_; }
  // Time the structures took at Create, in microseconds.
  double build_micros() const { return build_micros_; }

 private:
  GppcSearcher() = default;

  DerivedOptions structures_;
  std::unique_ptr<GridMap> map_;
  std::vector<bool> passable_;  // The cells' values, patches written in.
  SearchContext context_;
  PathQuery query_;
  PathResult result_;
  std::vector<Cell> points_;
  double build_micros_ = 0;
};

}  // namespace gridstar::gppc

#endif  // GRIDSTAR_TESTS_BENCH_GPPC_GPPC_SEARCHER_H_
