// GridMap: a rectangular grid of terrain costs, the map every search runs on.
//
// Each cell holds a cost byte: 0 = blocked, 1..255 = passable with that
// terrain cost. Built through FromCosts (or a reader in map_io.h) and
// immutable afterwards, so one GridMap may be read by any number of threads
// at once without locking. Copies are cheap and share everything; the next
// version of a map (ApplyChanges in map_update.h) shares every tile it did
// not change with the version before.
//
// Storage: every per-cell array (costs, bit lines; jps+'s jump distances
// too, in its attachment) is kept in tiles of kTileBytes
// (core/src/storage/cow_buffer.h): a version maps its tiles in order into one
// contiguous read-only range, so searches index plain arrays, and an update
// copies only the tiles it writes. Components are kept per square tile of
// 64 x 64 cells (core/src/map/component_tiles.h).
//
// Derived data computed at construction (and repaired by updates):
//   - a padded copy of the costs, one blocked cell of border on every side,
//     so that searches can look at all eight neighbours without bounds checks;
//   - connected components. Under every DiagonalPolicy a diagonal move needs
//     at least one of its two orthogonal cells passable, so two cells are
//     mutually reachable exactly when they are 4-connected: one labelling
//     serves all policies;
//   - on uniform-cost maps only (the maps jump point search is exact on): the
//     passable cells as bit lines, one per padded row and one per padded
//     column (the transpose), so jumps scan 64 cells a word.
//
// Opt-in derived data, which costs memory, belongs to the engines that use
// it (jps+'s jump table, alt's landmarks, ...: structures.h): each attaches
// its structure to the map in a slot of its own (attachment() below), built
// before the map is shared between threads.
//
// Invariants: 1 <= width <= limits.max_width, 1 <= height <= limits.max_height,
// width * height <= limits.max_cells; component(c) == 0 iff c is blocked.

#ifndef GRIDSTAR_GRID_MAP_H_
#define GRIDSTAR_GRID_MAP_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "gridstar/types.h"

namespace gridstar {

namespace internal {
class ComponentTiles;
class CowBuffer;
class MapAttachment;
}  // namespace internal

struct CellChange;
struct ChangeSummary;

// Size limits checked before anything is allocated.
struct MapLimits {
  int64_t max_width = 8192;
  int64_t max_height = 8192;
  int64_t max_cells = int64_t{8192} * 8192;
};

class GridMap {
 public:
  // Checks a width and height against `limits` without allocating. Readers
  // call this before they trust a size read from input. InvalidArgument
  // naming the field for a side below 1; ResourceExhausted naming it for a
  // size over the limits (a limit, not malformed input).
  static absl::Status CheckDimensions(int64_t width, int64_t height,
                                      const MapLimits& limits);

  // Builds a map from row-major cost bytes (costs[y * width + x]).
  // CheckDimensions's errors, or InvalidArgument when
  // costs.size() != width * height.
  static absl::StatusOr<GridMap> FromCosts(int64_t width, int64_t height,
                                           absl::Span<const uint8_t> costs,
                                           const MapLimits& limits = {});

  // Bytes of one storage tile of the per-cell arrays (see the top).
  static constexpr size_t kTileBytes = 4096;

  GridMap(const GridMap&) = default;
  GridMap& operator=(const GridMap&) = default;
  GridMap(GridMap&&) noexcept = default;
  GridMap& operator=(GridMap&&) noexcept = default;

  int32_t width() const { return width_; }
  int32_t height() const { return height_; }
  int64_t cell_count() const { return int64_t{width_} * height_; }

  bool InBounds(Cell c) const {
    return c.x >= 0 && c.y >= 0 && c.x < width_ && c.y < height_;
  }
  // REQUIRES: InBounds(c).
  uint8_t cost(Cell c) const { return padded_costs_[PaddedIndex(c)]; }
  // False for blocked cells and for cells off the map.
  bool Passable(Cell c) const { return InBounds(c) && cost(c) != 0; }

  // OkStatus when c is passable, else InvalidArgument "<field>: (x, y) is
  // blocked" or "... is outside the W x H map": the one wording every caller
  // that validates a cell uses.
  absl::Status CheckPassable(absl::string_view field, Cell c) const;

  // True when some cell is passable and all passable cells cost the same.
  bool uniform_cost() const {
    return passable_count_ > 0 && min_cost_ == max_cost_;
  }

  // Cheapest and dearest passable cost; both 0 when nothing is passable.
  uint8_t min_cost() const { return min_cost_; }
  uint8_t max_cost() const { return max_cost_; }
  int64_t passable_count() const { return passable_count_; }

  // Component label of a cell: 0 when blocked, else 1..component_count().
  // REQUIRES: InBounds(c).
  uint32_t component(Cell c) const;
  uint32_t component_count() const;
  // Cells of each component, index 0 unused.
  std::vector<int64_t> ComponentSizes() const;
  // True when both cells are passable and in the same component.
  bool Connected(Cell a, Cell b) const {
    return Passable(a) && Passable(b) && component(a) == component(b);
  }

  // The costs as row-major bytes, as FromCosts takes them.
  std::vector<uint8_t> CopyCosts() const;

  // Bytes held by this map and all its derived data.
  size_t MemoryBytes() const;
  // Bytes of storage tiles no other version shares: for a version made by
  // an update, what the update copied. Takes a lock per array; for tests
  // and figures, not per search.
  size_t UnsharedTileBytes() const;
  // Bytes of the attached structures alone (attachment() below).
  size_t AttachmentBytes() const;

  // The structure engine `owner` attached to this map (its jump table,
  // landmarks, abstraction, ...; core/src/map/attachment.h), null when none.
  // GridMap holds one slot per Algorithm value and nothing else of them:
  // each engine's folder defines, builds and reads its own (structures.h is
  // what code outside the engines may do with them). Copies share them;
  // ApplyChanges keeps only those that say they hold across versions.
  static constexpr int kAttachmentSlots = 16;
  const internal::MapAttachment* attachment(Algorithm owner) const {
    return attachments_[SlotOf(owner)].get();
  }
  const std::shared_ptr<const internal::MapAttachment>& shared_attachment(
      Algorithm owner) const {
    return attachments_[SlotOf(owner)];
  }
  // Replaces what owner attached (null removes it). Not thread-safe: call it
  // before sharing the map.
  void Attach(Algorithm owner,
              std::shared_ptr<const internal::MapAttachment> structure);

  // Bit lines of uniform-cost maps (empty otherwise): bit 64 + i of a line is
  // 1 when padded cell i of that padded row (column) is passable; the 64
  // leading and the trailing bits are 0, so a scan may read a whole word on
  // either side of any cell.
  size_t row_bit_words() const { return row_bit_words_; }
  size_t column_bit_words() const { return column_bit_words_; }
  // REQUIRES: uniform_cost(), 0 <= padded_row < height() + 2.
  const uint64_t* row_bits(int32_t padded_row) const {
    return row_bits_ + static_cast<size_t>(padded_row) * row_bit_words_;
  }
  // REQUIRES: uniform_cost(), 0 <= padded_column < width() + 2.
  const uint64_t* column_bits(int32_t padded_column) const {
    return column_bits_ +
           static_cast<size_t>(padded_column) * column_bit_words_;
  }

  // The padded layout, for search implementations: row r of the padding is
  // map row r - 1, column c is map column c - 1; the border is blocked.
  int32_t padded_width() const { return width_ + 2; }
  size_t padded_size() const { return padded_size_; }
  const uint8_t* padded_costs() const { return padded_costs_; }
  // REQUIRES: InBounds(c).
  uint32_t PaddedIndex(Cell c) const {
    return static_cast<uint32_t>(c.y + 1) * static_cast<uint32_t>(width_ + 2) +
           static_cast<uint32_t>(c.x + 1);
  }
  Cell CellOfPaddedIndex(uint32_t index) const {
    const uint32_t pw = static_cast<uint32_t>(width_ + 2);
    return Cell{static_cast<int32_t>(index % pw) - 1,
                static_cast<int32_t>(index / pw) - 1};
  }

 private:
  friend absl::StatusOr<GridMap> ApplyChanges(
      const GridMap& previous, absl::Span<const CellChange> changes,
      ChangeSummary* summary);

  GridMap() = default;
  absl::Status BuildBitLines();
  absl::Status RepairBitLines(const GridMap& previous,
                              absl::Span<const CellRect> rects);
  void SetCosts(std::shared_ptr<const internal::CowBuffer> costs);
  void SetBitLines(std::shared_ptr<const internal::CowBuffer> rows,
                   std::shared_ptr<const internal::CowBuffer> columns);
  static size_t SlotOf(Algorithm owner) {
    return static_cast<size_t>(owner);  // < kAttachmentSlots: registry.cc.
  }
  // min_cost_, max_cost_ and passable_count_ from cost_counts_.
  void StatsFromCounts();

  int32_t width_ = 0;
  int32_t height_ = 0;
  uint8_t min_cost_ = 0;
  uint8_t max_cost_ = 0;
  int64_t passable_count_ = 0;
  // Cells of each cost 0..255, for min_cost_ / max_cost_ after updates.
  std::vector<int64_t> cost_counts_;
  // The tiled arrays, shared by copies and (tile by tile) by versions; the
  // raw pointers below point into them.
  std::shared_ptr<const internal::CowBuffer> costs_buffer_;
  std::shared_ptr<const internal::CowBuffer> row_bits_buffer_;
  std::shared_ptr<const internal::CowBuffer> column_bits_buffer_;
  const uint8_t* padded_costs_ = nullptr;
  size_t padded_size_ = 0;
  std::shared_ptr<const internal::ComponentTiles> components_;
  size_t row_bit_words_ = 0;
  size_t column_bit_words_ = 0;
  const uint64_t* row_bits_ = nullptr;
  const uint64_t* column_bits_ = nullptr;
  // Engines' structures by their Algorithm value (attachment.h).
  std::array<std::shared_ptr<const internal::MapAttachment>, kAttachmentSlots>
      attachments_;
};

}  // namespace gridstar

#endif  // GRIDSTAR_GRID_MAP_H_
