#include "gppc/gppc_searcher.h"

#include <string>
#include <utility>

#include "absl/time/clock.h"

namespace gridstar::gppc {

absl::StatusOr<std::unique_ptr<GppcSearcher>> GppcSearcher::Create(
    const std::vector<bool>& passable, int width, int height,
    DerivedOptions structures, Algorithm algorithm) {
  std::vector<uint8_t> costs(passable.size());
  for (size_t i = 0; i < passable.size(); ++i) costs[i] = passable[i] ? 1 : 0;
  absl::StatusOr<GridMap> map = GridMap::FromCosts(width, height, costs);
  if (!map.ok()) return map.status();
  std::unique_ptr<GppcSearcher> s(new GppcSearcher());
  s->structures_ = std::move(structures);
  s->map_ = std::make_unique<GridMap>(*std::move(map));
  const absl::Time begin = absl::Now();
  std::vector<DerivedReport> reports;
  if (absl::Status st = BuildDerived(s->structures_, s->map_.get(), &reports);
      !st.ok()) {
    return st;
  }
  s->build_micros_ = absl::ToDoubleMicroseconds(absl::Now() - begin);
  s->query_.algorithm = algorithm;
  s->query_.movement.diagonal = DiagonalPolicy::kNoCornerCutting;
  return s;
}

absl::Status GppcSearcher::Patch(int x, int y, int w, int h,
                                 const std::vector<bool>& passable) {
  // Each row's runs of cells the patch changes, of one new value, as one
  // rectangle; cells it leaves as they are cost nothing, and a patch that
  // changes nothing makes no version.
  std::vector<CellChange> changes;
  auto changed = [&](int r, int c) {
    const Cell cell{x + c, y + r};
    return map_->InBounds(cell) &&
           map_->Passable(cell) != passable[static_cast<size_t>(r) * w + c];
  };
  for (int r = 0; r < h; ++r) {
    int c = 0;
    while (c < w) {
      if (!changed(r, c)) {
        ++c;
        continue;
      }
      const bool open = passable[static_cast<size_t>(r) * w + c];
      int end = c + 1;
      while (end < w && changed(r, end) &&
             passable[static_cast<size_t>(r) * w + end] == open) {
        ++end;
      }
      changes.push_back({{x + c, y + r},
                         {x + end, y + r + 1},
                         static_cast<uint8_t>(open ? 1 : 0)});
      c = end;
    }
  }
  if (changes.empty()) return absl::OkStatus();
  if (absl::Status s =
          ValidateChanges(map_->width(), map_->height(), changes,
                          [](size_t) { return std::string("patch"); });
      !s.ok()) {
    return s;
  }
  ChangeSummary summary;
  absl::StatusOr<GridMap> next = ApplyChanges(*map_, changes, &summary);
  if (!next.ok()) return next.status();
  std::vector<DerivedReport> reports;
  if (absl::Status s =
          RepairDerived(structures_, *map_, summary, &*next, &reports);
      !s.ok()) {
    return s;
  }
  map_ = std::make_unique<GridMap>(*std::move(next));
  return absl::OkStatus();
}

const std::vector<Cell>& GppcSearcher::Find(Cell s, Cell g) {
  points_.clear();
  query_.start = s;
  query_.goal = g;
  if (!FindPath(*map_, query_, context_, &result_).ok() ||
      result_.cells.empty()) {
    return points_;
  }
  const std::vector<Cell>& cells = result_.cells;
  points_.push_back(cells.front());
  for (size_t i = 1; i + 1 < cells.size(); ++i) {
    const Cell a = cells[i - 1], b = cells[i], c = cells[i + 1];
    if (b.x - a.x != c.x - b.x || b.y - a.y != c.y - b.y) points_.push_back(b);
  }
  if (cells.size() > 1) points_.push_back(cells.back());
  return points_;
}

}  // namespace gridstar::gppc
