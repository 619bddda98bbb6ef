#include "gppc/gppc_searcher.h"

#include <algorithm>
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
  s->passable_ = passable;
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

absl::Status GppcSearcher::Patch(const std::vector<PatchRect>& patches) {
  // Every patch written in order into the cells' values (a later one wins),
  // then, over each patch's rectangle, the cells whose value now differs
  // from the map's, each row's runs of one new value as one rectangle (a
  // cell in two rectangles comes twice, the second time a no-op).
  const int32_t width = map_->width();
  for (const PatchRect& p : patches) {
    for (int r = 0; r < p.h; ++r) {
      for (int c = 0; c < p.w; ++c) {
        if (!map_->InBounds({p.x + c, p.y + r})) continue;
        passable_[static_cast<size_t>(p.y + r) * width + p.x + c] =
            p.passable[static_cast<size_t>(r) * p.w + c];
      }
    }
  }
  std::vector<CellChange> changes;
  for (const PatchRect& p : patches) {
    const int32_t x0 = std::max(p.x, 0), x1 = std::min(p.x + p.w, width);
    const int32_t y0 = std::max(p.y, 0),
                  y1 = std::min(p.y + p.h, map_->height());
    for (int32_t y = y0; y < y1; ++y) {
      const size_t row = static_cast<size_t>(y) * width;
      auto changed = [&](int32_t x) {
        return map_->Passable({x, y}) != passable_[row + x];
      };
      for (int32_t x = x0; x < x1;) {
        if (!changed(x)) {
          ++x;
          continue;
        }
        const bool open = passable_[row + x];
        int32_t end = x + 1;
        while (end < x1 && changed(end) && passable_[row + end] == open) ++end;
        changes.push_back(
            {{x, y}, {end, y + 1}, static_cast<uint8_t>(open ? 1 : 0)});
        x = end;
      }
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
