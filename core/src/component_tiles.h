// ComponentTiles: the connected components of a map, kept per square tile
// so that an update relabels only the tiles it touches.
//
// Each kTile x kTile tile labels its passable cells 1..count by 4-connected
// components inside the tile (local labels, in scan order). Two local
// components of neighbouring tiles touch when two passable cells across the
// shared border are 4-adjacent; each tile keeps those pairs for its east and
// south borders. The map's components are the connected components of that
// small graph: every update recomputes the touched tiles' labels and border
// pairs, then the global labels from the graph alone (no cell is visited
// outside the touched tiles). Global labels are canonical: numbered in order
// of tiles (row-major) and local labels, so a repaired labelling equals a
// labelling built from scratch, label for label.
//
// Two cells are mutually reachable under every DiagonalPolicy exactly when
// they are 4-connected (a diagonal move needs one of its orthogonal cells
// free), so one labelling serves all policies.
//
// Thread-safety: immutable once built (Build / Repair run before sharing);
// copies share the tiles.

#ifndef GRIDSTAR_SRC_COMPONENT_TILES_H_
#define GRIDSTAR_SRC_COMPONENT_TILES_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "gridstar/types.h"

namespace gridstar::internal {

class ComponentTiles {
 public:
  static constexpr int kTileShift = 6;
  static constexpr int32_t kTile = 1 << kTileShift;

  // Labels a width x height map whose padded costs (one blocked cell of
  // border, rows width + 2 wide) are `padded`.
  static ComponentTiles Build(const uint8_t* padded, int32_t width,
                              int32_t height);

  // The labelling of the map after cells inside `rects` changed (their
  // costs now in `padded`): the tiles they touch are relabelled, the rest
  // shared with this one. REQUIRES: same size as this labelling's map.
  ComponentTiles Repaired(const uint8_t* padded,
                          const std::vector<CellRect>& rects) const;

  // 0 for a blocked cell, else 1..count(). REQUIRES: c inside the map.
  uint32_t label(Cell c) const {
    const size_t t = static_cast<size_t>(c.y >> kTileShift) * tiles_x_ +
                     static_cast<size_t>(c.x >> kTileShift);
    const uint16_t local =
        (*tile(t).labels)[static_cast<size_t>(c.y & (kTile - 1)) * kTile +
                          static_cast<size_t>(c.x & (kTile - 1))];
    return local == 0 ? 0 : global_[first_[t] + local - 1];
  }
  uint32_t count() const { return count_; }
  // Cells of each label, index 0 unused (for landmark placement).
  std::vector<int64_t> Sizes() const;
  // Computed when the labelling is made (MapInfo asks for it per call).
  size_t MemoryBytes() const { return memory_bytes_; }

 private:
  struct Tile {
    // kTile * kTile, row-major; 0 = blocked or off the map. Shared by the
    // versions of a tile that differ in border pairs only.
    std::shared_ptr<const std::vector<uint16_t>> labels;
    uint16_t count = 0;
    // Touching (this tile's label, neighbour's label) pairs, each once.
    std::vector<std::pair<uint16_t, uint16_t>> east, south;
  };

  std::shared_ptr<const std::vector<uint16_t>> LabelTile(
      const uint8_t* padded, size_t t, uint16_t* count) const;
  // The east and south pairs of tile t from the labels of the current tiles.
  void BorderPairs(size_t t, Tile* out) const;
  void Relabel();
  static size_t TileBytes(const Tile& t);
  size_t CountBytes() const;

  int32_t width_ = 0, height_ = 0;
  size_t tiles_x_ = 0, tiles_y_ = 0;
  // Tiles in pages of kPageTiles: a version copies the pages of the tiles it
  // replaces, and copying a labelling touches one count per page, not per
  // tile (16 K tiles on an 8192 x 8192 map).
  static constexpr size_t kPageShift = 7;
  static constexpr size_t kPageTiles = size_t{1} << kPageShift;
  using Page = std::vector<std::shared_ptr<const Tile>>;
  const Tile& tile(size_t t) const {
    return *(*pages_[t >> kPageShift])[t & (kPageTiles - 1)];
  }
  // REQUIRES: this labelling is not shared yet.
  void SetTile(size_t t, std::shared_ptr<const Tile> tile);
  size_t tile_count_ = 0;
  std::vector<std::shared_ptr<Page>> pages_;  // Read-only once shared.
  std::vector<uint32_t> first_;   // Per tile: its first entry in global_.
  std::vector<uint32_t> global_;  // Per tile component: its global label.
  uint32_t count_ = 0;
  size_t memory_bytes_ = 0;
};

}  // namespace gridstar::internal

#endif  // GRIDSTAR_SRC_COMPONENT_TILES_H_
