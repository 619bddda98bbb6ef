// GridMap: a rectangular grid of terrain costs, the map every search runs on.
//
// Each cell holds a cost byte: 0 = blocked, 1..255 = passable with that
// terrain cost. Built through FromCosts (or a reader in map_io.h) and
// immutable afterwards, so one GridMap may be read by any number of threads
// at once without locking. Copies are cheap and share everything; the next
// version of a map (ApplyChanges in map_update.h) shares every tile it did
// not change with the version before.
//
// Storage: every per-cell array (costs, bit lines, jump distances) is kept
// in tiles of kTileBytes (core/src/storage/cow_buffer.h): a version maps its tiles
// in order into one contiguous read-only range, so searches index plain
// arrays, and an update copies only the tiles it writes. Components are kept
// per square tile of 64 x 64 cells (core/src/map/component_tiles.h).
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
// Opt-in derived data, which costs memory: jump distances for jps+
// (BuildJumpTable) and landmark distances for the differential heuristic
// (BuildLandmarks). Build them before the map is shared between threads.
//
// Invariants: 1 <= width <= limits.max_width, 1 <= height <= limits.max_height,
// width * height <= limits.max_cells; component(c) == 0 iff c is blocked.

#ifndef GRIDSTAR_GRID_MAP_H_
#define GRIDSTAR_GRID_MAP_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "gridstar/auto_choice.h"
#include "gridstar/types.h"

namespace gridstar {

namespace internal {
class ComponentTiles;
class CowBuffer;
class HpaAbstraction;
class SubgoalGraph;
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

  // Precomputes jump distances for jps+: for every padded cell and each of
  // the eight directions, how far the next jump point or wall lies, one
  // signed byte each with a continue marker for lines longer than 127 cells
  // (8 bytes a cell; see core/src/engines/jps/jps.h). The cells are laid out in blocks
  // of kJumpBlockWidth x kJumpBlockHeight, one storage tile each, so that an
  // update's repair along a column or diagonal copies a tile per 32 (16)
  // cells, not per cell. FailedPrecondition unless uniform_cost(). Not
  // thread-safe: call it before sharing the map.
  static constexpr int kJumpBlockShiftX = 4;
  static constexpr int kJumpBlockShiftY = 5;
  static constexpr int32_t kJumpBlockWidth = 1 << kJumpBlockShiftX;
  static constexpr int32_t kJumpBlockHeight = 1 << kJumpBlockShiftY;
  static_assert(kJumpBlockWidth * kJumpBlockHeight * 8 == kTileBytes,
                "a jump block is one tile");
  absl::Status BuildJumpTable();
  bool has_jump_table() const { return jump_table_ != nullptr; }
  size_t JumpTableBytes() const;
  // Bytes a jump table of a width x height map takes (whole blocks).
  static size_t JumpTableBytesFor(int32_t width, int32_t height) {
    return static_cast<size_t>(JumpBlocksX(width)) *
           static_cast<size_t>((height + 2 + kJumpBlockHeight - 1) >>
                               kJumpBlockShiftY) *
           kTileBytes;
  }
  // The first of the eight entries of padded cell (x, y) in jump_table().
  size_t JumpEntry(int32_t x, int32_t y) const {
    return JumpEntryOf(jump_blocks_x_, x, y);
  }
  // The same for a table jump_blocks_x() blocks wide (for search loops that
  // keep the width in a register).
  static size_t JumpEntryOf(int32_t blocks_x, int32_t x, int32_t y) {
    return ((static_cast<size_t>(y >> kJumpBlockShiftY) *
                 static_cast<size_t>(blocks_x) +
             static_cast<size_t>(x >> kJumpBlockShiftX))
                << (kJumpBlockShiftX + kJumpBlockShiftY) |
            static_cast<size_t>(y & (kJumpBlockHeight - 1))
                << kJumpBlockShiftX |
            static_cast<size_t>(x & (kJumpBlockWidth - 1)))
           << 3;
  }
  int32_t jump_blocks_x() const { return jump_blocks_x_; }
  // The table of `previous` (same size, with a table) repaired for the cells
  // of `rects` changed since: only the rows, columns and diagonals whose
  // entries the changes can reach are recomputed, and only the tiles they
  // write are copied. FailedPrecondition unless both maps are uniform-cost
  // (their costs may differ: the table depends only on which cells are
  // passable); ResourceExhausted when tiles cannot be had. Not
  // thread-safe: call it before sharing the map.
  // `previous` may be any earlier version with a table, `rects` then the
  // cells changed by every update since.
  absl::Status RepairJumpTable(const GridMap& previous,
                               absl::Span<const CellRect> rects);
  // Takes other's jump table (shared, not copied). REQUIRES: other has one
  // and the same passable cells (a copy of this map, or a version whose
  // updates changed costs only); not yet shared between threads.
  void ShareJumpTableOf(const GridMap& other);
  // What kAuto runs on this map, measured (auto_choice.h); null when not
  // measured (kAuto follows its rule). Shared by copies and kept by new
  // versions (RepairDerived). Not thread-safe: set it before sharing the
  // map.
  void SetAutoChoice(std::shared_ptr<const AutoChoice> choice) {
    auto_choice_ = std::move(choice);
  }
  const AutoChoice* auto_choice() const { return auto_choice_.get(); }
  const std::shared_ptr<const AutoChoice>& shared_auto_choice() const {
    return auto_choice_;
  }
  // Eight entries per padded cell, indexed JumpEntry(x, y) + direction (see
  // core/src/engines/jps/jps.h). Null without BuildJumpTable.
  const int8_t* jump_table() const { return jump_table_; }

  // Landmarks for the differential heuristic (ALT) of kAlt and kAuto:
  // `count` cells of the largest component picked far apart (the first is
  // the cell farthest from an arbitrary one, each next the cell farthest from
  // all before it), with the exact distance from each to every cell under
  // `policy` (8 * count bytes a cell). Searches use them only under that
  // policy, where h(n) = max(octile * min_cost, max over landmarks L of
  // |d(L, goal) - d(L, n)|) stays admissible and consistent.
  // InvalidArgument for count outside [1, kMaxLandmarks] or an unknown
  // policy; FailedPrecondition when no cell is passable. Not thread-safe:
  // call it before sharing the map.
  static constexpr int kMaxLandmarks = 32;
  absl::Status BuildLandmarks(int count, DiagonalPolicy policy);
  int landmark_count() const { return landmark_count_; }
  DiagonalPolicy landmark_policy() const { return landmark_policy_; }
  const std::vector<Cell>& landmarks() const { return landmarks_; }
  size_t LandmarkBytes() const {
    return landmark_distances_ == nullptr
               ? 0
               : landmark_distances_->capacity() * sizeof(double);
  }
  // landmark_count() distances to the cell at a padded index, -1 for a cell
  // no landmark reaches (another component, or blocked).
  // REQUIRES: landmark_count() > 0.
  const double* landmark_distances(uint32_t padded_index) const {
    return landmark_distances_->data() +
           static_cast<size_t>(padded_index) * landmark_count_;
  }
  // Shares the landmarks of `other`, a map of the same size of which this
  // one raises costs or blocks cells only: distances can then only grow, so
  // the old bounds stay admissible and consistent (and nothing is searched).
  // REQUIRES: same width and height; not yet shared between threads.
  void ShareLandmarksOf(const GridMap& other);

  // The HPA* abstraction (Algorithm::kHpa; core/src/engines/hpa/hpa.h): clusters of
  // 64 x 64 cells, entrances on their borders and the exact costs between a
  // cluster's entrances inside it, for one diagonal policy. BuildHpa makes
  // it from scratch; RepairHpaFrom rebuilds only the clusters (and the
  // neighbours across a border) that `rects` reach and shares the rest
  // with `previous`, whose abstraction must be for `policy`. Not
  // thread-safe: call before sharing the map.
  absl::Status BuildHpa(DiagonalPolicy policy);
  void RepairHpaFrom(const GridMap& previous, absl::Span<const CellRect> rects);
  bool has_hpa() const { return hpa_ != nullptr; }
  // REQUIRES: has_hpa().
  DiagonalPolicy hpa_policy() const;
  size_t HpaBytes() const;
  const internal::HpaAbstraction* hpa() const { return hpa_.get(); }
  // True when both maps carry equal abstractions (or neither has one).
  bool HpaEquals(const GridMap& other) const;
  // At least the bytes BuildHpa would take on this map (every pair of a
  // cluster's entrances joined): counts the entrances, a pass over the
  // cluster borders, without building anything, so that limits are checked
  // first.
  size_t HpaBytesFor() const;

  // The subgoal graph (Algorithm::kSubgoal; core/src/engines/subgoal/
  // subgoal_graph.h): the exact method for huge uniform-cost maps under
  // kNoCornerCutting. Built from scratch (no local repair: an updated
  // version has none until its owner builds it again). FailedPrecondition
  // on a map of mixed costs. Not thread-safe: call before sharing the map.
  absl::Status BuildSubgoalGraph();
  bool has_subgoal_graph() const { return subgoal_graph_ != nullptr; }
  const internal::SubgoalGraph* subgoal_graph() const {
    return subgoal_graph_.get();
  }
  size_t SubgoalGraphBytes() const;
  // Its subgoals and (directed) edges; 0 without a graph.
  size_t SubgoalGraphNodes() const;
  size_t SubgoalGraphEdges() const;
  // Shares the graph of `other`, a map with the same passable cells.
  // REQUIRES: not yet shared between threads.
  void ShareSubgoalGraphOf(const GridMap& other) {
    subgoal_graph_ = other.subgoal_graph_;
  }
  // An estimate of SubgoalGraphBytes after BuildSubgoalGraph, from a count
  // of the subgoals (one pass over the map): the bit lines, and per subgoal
  // its records, its landmark distances and 80 edges (the shared maps
  // average 3 to 20 edges a subgoal, the 8192 x 8192 world 68).
  size_t SubgoalGraphBytesFor() const;
  // True when both maps carry graphs with the same nodes and edges (or
  // neither has one).
  bool SubgoalGraphEquals(const GridMap& other) const;

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
  void SetJumpTable(std::shared_ptr<const internal::CowBuffer> table);
  static int32_t JumpBlocksX(int32_t width) {
    return (width + 2 + kJumpBlockWidth - 1) >> kJumpBlockShiftX;
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
  std::shared_ptr<const internal::CowBuffer> jump_table_buffer_;
  const uint8_t* padded_costs_ = nullptr;
  size_t padded_size_ = 0;
  std::shared_ptr<const internal::ComponentTiles> components_;
  size_t row_bit_words_ = 0;
  size_t column_bit_words_ = 0;
  const uint64_t* row_bits_ = nullptr;
  const uint64_t* column_bits_ = nullptr;
  const int8_t* jump_table_ = nullptr;
  int32_t jump_blocks_x_ = 0;
  std::shared_ptr<const AutoChoice> auto_choice_;
  int landmark_count_ = 0;
  DiagonalPolicy landmark_policy_ = DiagonalPolicy::kNoCornerCutting;
  std::vector<Cell> landmarks_;
  // Shared, not copied, by copies of the map and by ShareLandmarksOf.
  std::shared_ptr<const std::vector<double>> landmark_distances_;
  // Shared by copies of the map; versions share its untouched clusters.
  std::shared_ptr<const internal::HpaAbstraction> hpa_;
  // Shared by copies of the map; never carried to a new version.
  std::shared_ptr<const internal::SubgoalGraph> subgoal_graph_;
};

}  // namespace gridstar

#endif  // GRIDSTAR_GRID_MAP_H_
