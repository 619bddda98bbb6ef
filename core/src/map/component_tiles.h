// ComponentTiles: the connected components of a map, kept per square tile
// and per region of tiles, so that an update relabels only the tiles it
// touches and re-joins only their regions.
//
// Three levels:
//   tile    each kTile x kTile tile labels its passable cells 1..count by
//           4-connected components inside the tile (local labels, in scan
//           order). Two local components of neighbouring tiles touch when
//           two passable cells across the shared border are 4-adjacent; each
//           tile keeps those pairs for its east and south borders.
//   region  each square of (1 << region_shift)^2 tiles joins its tiles'
//           components through the pairs between its own tiles: region
//           components, numbered in order of their first tile component
//           (tiles row-major inside the region, then local labels). Each
//           region keeps the pairs that cross its east and south borders as
//           edges between region components (its own and its neighbour's).
//   map     the region components joined by those edges: the map's labels,
//           numbered in order of regions (row-major), then region components.
// An update relabels its tiles and their border pairs, re-joins the regions
// holding them, recomputes the crossing edges of those regions and of their
// west and north neighbours (whose edges name them), then joins the small
// graph of region components (no cell and no tile outside the touched
// regions is visited). Labels are canonical for a region size: a repaired
// labelling equals one built from scratch, label for label.
//
// Two cells are mutually reachable under every DiagonalPolicy exactly when
// they are 4-connected (a diagonal move needs one of its orthogonal cells
// free), so one labelling serves all policies.
//
// Thread-safety: immutable once built (Build / Repaired run before
// sharing); copies share tiles and regions.

#ifndef GRIDSTAR_SRC_MAP_COMPONENT_TILES_H_
#define GRIDSTAR_SRC_MAP_COMPONENT_TILES_H_

#include <array>
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
  // Regions of 8 x 8 tiles (512 x 512 cells): a one-cell update re-joins 64
  // tiles, and the map-level graph of an 8192 x 8192 map has 256 regions.
  static constexpr int kDefaultRegionShift = 3;

  // Labels a width x height map whose padded costs (one blocked cell of
  // border, rows width + 2 wide) are `padded`, with regions of
  // (1 << region_shift)^2 tiles. REQUIRES: 0 <= region_shift <= 8.
  static ComponentTiles Build(const uint8_t* padded, int32_t width,
                              int32_t height,
                              int region_shift = kDefaultRegionShift);

  // The labelling of the map after cells inside `rects` changed (their
  // costs now in `padded`): the tiles they touch are relabelled, the rest
  // shared with this one. REQUIRES: same size as this labelling's map.
  ComponentTiles Repaired(const uint8_t* padded,
                          const std::vector<CellRect>& rects) const;

  // 0 for a blocked cell, else 1..count(). REQUIRES: c inside the map.
  uint32_t label(Cell c) const {
    const size_t tx = static_cast<size_t>(c.x >> kTileShift);
    const size_t ty = static_cast<size_t>(c.y >> kTileShift);
    const uint16_t local =
        (*tile(ty * tiles_x_ + tx)
              .labels)[static_cast<size_t>(c.y & (kTile - 1)) * kTile +
                       static_cast<size_t>(c.x & (kTile - 1))];
    if (local == 0) return 0;
    const size_t r = (ty >> region_shift_) * regions_x_ + (tx >> region_shift_);
    const Region& region = *regions_[r];
    const size_t mask = (size_t{1} << region_shift_) - 1;
    const size_t slot = ((ty & mask) << region_shift_) + (tx & mask);
    return top_[region_base_[r] +
                region.comp[region.first[slot] + local - 1]];
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
  struct Region {
    // Per tile slot (row-major inside the region): its first node, the
    // nodes being the tile components of the region in slot order.
    std::vector<uint32_t> first;
    // Per node: its region component, 0..count-1.
    std::vector<uint32_t> comp;
    uint32_t count = 0;
    // Region components touching across this region's east and south
    // borders: (own component, neighbour region, its component), sorted,
    // each once.
    std::vector<std::array<uint32_t, 3>> edges;
  };

  std::shared_ptr<const std::vector<uint16_t>> LabelTile(
      const uint8_t* padded, size_t t, uint16_t* count) const;
  // The east and south pairs of tile t from the labels of the current tiles.
  void BorderPairs(size_t t, Tile* out) const;
  // Region r's nodes and components from its tiles (edges left empty).
  std::shared_ptr<Region> JoinRegion(size_t r) const;
  // The crossing edges of region r (`region` is r's new state, the
  // neighbours' states are those of regions_).
  void RegionEdges(size_t r, Region* region) const;
  // The map's labels from the regions.
  void JoinRegions();
  // The tile at (tx, ty) of region r's slot, or npos when off the map.
  size_t TileOfSlot(size_t r, size_t slot) const;
  static size_t TileBytes(const Tile& t);
  static size_t RegionBytes(const Region& r);
  size_t CountBytes() const;

  int32_t width_ = 0, height_ = 0;
  size_t tiles_x_ = 0, tiles_y_ = 0;
  int region_shift_ = kDefaultRegionShift;
  size_t regions_x_ = 0, regions_y_ = 0;
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
  std::vector<std::shared_ptr<const Region>> regions_;
  std::vector<uint32_t> region_base_;  // Per region: its first entry in top_.
  std::vector<uint32_t> top_;  // Per region component: its map label.
  uint32_t count_ = 0;
  size_t memory_bytes_ = 0;
};

}  // namespace gridstar::internal

#endif  // GRIDSTAR_SRC_MAP_COMPONENT_TILES_H_
