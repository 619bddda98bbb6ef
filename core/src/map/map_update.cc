#include "gridstar/map_update.h"

#include <algorithm>
#include <memory>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "map/attachment.h"
#include "map/component_tiles.h"
#include "storage/cow_buffer.h"

namespace gridstar {

absl::Status CheckRectInside(int32_t width, int32_t height, Cell min, Cell max,
                             absl::string_view field) {
  if (min.x < 0 || min.y < 0 || max.x > width || max.y > height ||
      min.x >= max.x || min.y >= max.y) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ": [", min.x, ", ", max.x, ") x [", min.y, ", ",
                     max.y, ") is empty or not inside the ", width, " x ",
                     height, " map"));
  }
  return absl::OkStatus();
}

absl::Status ValidateChanges(int32_t width, int32_t height,
                             absl::Span<const CellChange> changes,
                             absl::FunctionRef<std::string(size_t)> field_of) {
  for (size_t i = 0; i < changes.size(); ++i) {
    const CellChange& c = changes[i];
    if (absl::Status s = CheckRectInside(width, height, c.min, c.max, field_of(i));
        !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

namespace {

// Records in *summary that a cell went from cost `old` to `cost` (!= old).
void NoteChange(uint8_t old, uint8_t cost, ChangeSummary* summary) {
  // Raised or blocked: distances can only grow.
  summary->only_raised =
      summary->only_raised && (cost == 0 || (old != 0 && cost > old));
  ++summary->cells_changed;
}

// Merges rectangles that together make a larger one without covering any
// other cell: runs of equal-height rectangles side by side in a row, then
// equal-width runs stacked in a column. Clients often send a square as its
// single cells; the repairs then walk the square's lines once, not per cell.
void MergeRects(std::vector<CellRect>* rects) {
  if (rects->size() < 2) return;
  auto merge = [](std::vector<CellRect>* r, bool along_x) {
    std::sort(r->begin(), r->end(), [&](const CellRect& a, const CellRect& b) {
      return along_x ? std::tie(a.min.y, a.max.y, a.min.x) <
                           std::tie(b.min.y, b.max.y, b.min.x)
                     : std::tie(a.min.x, a.max.x, a.min.y) <
                           std::tie(b.min.x, b.max.x, b.min.y);
    });
    std::vector<CellRect> out;
    for (const CellRect& c : *r) {
      if (!out.empty()) {
        CellRect& last = out.back();
        const bool joins =
            along_x ? last.min.y == c.min.y && last.max.y == c.max.y &&
                          c.min.x <= last.max.x
                    : last.min.x == c.min.x && last.max.x == c.max.x &&
                          c.min.y <= last.max.y;
        if (joins) {
          if (along_x) last.max.x = std::max(last.max.x, c.max.x);
          if (!along_x) last.max.y = std::max(last.max.y, c.max.y);
          continue;
        }
      }
      out.push_back(c);
    }
    *r = std::move(out);
  };
  merge(rects, true);
  merge(rects, false);
}

}  // namespace

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
        NoteChange(cost, c.cost, &summary);
        cost = c.cost;
      }
    }
  }
  return summary;
}

absl::StatusOr<GridMap> ApplyChanges(const GridMap& previous,
                                     absl::Span<const CellChange> changes,
                                     ChangeSummary* summary) {
  *summary = ChangeSummary();
  GridMap next;
  next.width_ = previous.width_;
  next.height_ = previous.height_;
  next.padded_size_ = previous.padded_size_;
  next.cost_counts_ = previous.cost_counts_;
  // What holds across versions (auto's measurement) is kept; the rest is
  // for each structure's Repair (derived_data.h).
  for (size_t i = 0; i < previous.attachments_.size(); ++i) {
    const auto& a = previous.attachments_[i];
    if (a != nullptr && a->KeptByNewVersions()) next.attachments_[i] = a;
  }
  absl::StatusOr<internal::CowBuffer> costs = previous.costs_buffer_->Fork();
  if (!costs.ok()) return costs.status();
  const size_t pw = static_cast<size_t>(previous.width_) + 2;
  for (const CellChange& c : changes) {
    bool changed = false;
    for (int32_t y = c.min.y; y < c.max.y; ++y) {
      const size_t offset = (static_cast<size_t>(y) + 1) * pw +
                            static_cast<size_t>(c.min.x) + 1;
      const size_t length = static_cast<size_t>(c.max.x - c.min.x);
      // Tiles are copied only for rows that really change (read without
      // touching this version's pages: CowBuffer::Read).
      bool unchanged = true;
      for (size_t i = 0; i < length && unchanged; ++i) {
        unchanged = costs->Read(offset + i) == c.cost;
      }
      if (unchanged) continue;
      if (absl::Status s = costs->MakeWritable(offset, length); !s.ok()) {
        return s;
      }
      uint8_t* out = costs->mutable_data() + offset;
      for (size_t i = 0; i < length; ++i) {
        const uint8_t old = out[i];
        if (old == c.cost) continue;
        NoteChange(old, c.cost, summary);
        --next.cost_counts_[old];
        ++next.cost_counts_[c.cost];
        out[i] = c.cost;
      }
      changed = true;
    }
    if (changed) summary->rects.push_back(CellRect{c.min, c.max});
  }
  MergeRects(&summary->rects);
  if (absl::Status s = costs->Seal(); !s.ok()) return s;
  next.SetCosts(std::make_shared<const internal::CowBuffer>(*std::move(costs)));
  next.StatsFromCounts();
  next.components_ = std::make_shared<const internal::ComponentTiles>(
      previous.components_->Repaired(next.padded_costs_, summary->rects));
  if (next.uniform_cost()) {
    // Bit lines say only which cells are passable: repairable from any
    // uniform-cost version before.
    absl::Status s = previous.row_bits_buffer_ != nullptr
                         ? next.RepairBitLines(previous, summary->rects)
                         : next.BuildBitLines();
    if (!s.ok()) return s;
  }
  return next;
}

}  // namespace gridstar
