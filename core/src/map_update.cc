#include "gridstar/map_update.h"

#include <vector>

#include "absl/strings/str_cat.h"

namespace gridstar {

absl::Status ValidateChanges(int32_t width, int32_t height,
                             absl::Span<const CellChange> changes,
                             absl::FunctionRef<std::string(size_t)> field_of) {
  for (size_t i = 0; i < changes.size(); ++i) {
    const CellChange& c = changes[i];
    if (c.min.x < 0 || c.min.y < 0 || c.max.x > width || c.max.y > height ||
        c.min.x >= c.max.x || c.min.y >= c.max.y) {
      return absl::InvalidArgumentError(
          absl::StrCat(field_of(i), ": [", c.min.x, ", ", c.max.x, ") x [",
                       c.min.y, ", ", c.max.y, ") is empty or not inside the ",
                       width, " x ", height, " map"));
    }
  }
  return absl::OkStatus();
}

ChangeSummary ApplyChangesToCosts(int32_t width,
                                  absl::Span<const CellChange> changes,
                                  absl::Span<uint8_t> costs) {
  ChangeSummary summary;
  for (const CellChange& c : changes) {
    for (int32_t y = c.min.y; y < c.max.y; ++y) {
      uint8_t* row = costs.data() + static_cast<size_t>(y) * width;
      for (int32_t x = c.min.x; x < c.max.x; ++x) {
        uint8_t& cost = row[x];
        if (cost == c.cost) continue;
        // Raised or blocked: distances can only grow.
        summary.only_raised = summary.only_raised &&
                              (c.cost == 0 || (cost != 0 && c.cost > cost));
        ++summary.cells_changed;
        cost = c.cost;
      }
    }
  }
  return summary;
}

absl::StatusOr<GridMap> ApplyChanges(const GridMap& previous,
                                     absl::Span<const CellChange> changes,
                                     ChangeSummary* summary) {
  // Today the next version is built whole from the changed costs; tiles that
  // share what did not change come with the big-world work.
  std::vector<uint8_t> costs = previous.CopyCosts();
  *summary =
      ApplyChangesToCosts(previous.width(), changes, absl::MakeSpan(costs));
  // The previous version's size is valid whatever limits it was built under.
  MapLimits same_size;
  same_size.max_width = previous.width();
  same_size.max_height = previous.height();
  same_size.max_cells = previous.cell_count();
  return GridMap::FromCosts(previous.width(), previous.height(), costs,
                            same_size);
}

}  // namespace gridstar
