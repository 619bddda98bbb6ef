// JumpTable: the jump distances of jps+ for one version of a map, attached
// to it in Algorithm::kJpsPlus's slot (map/attachment.h). Built by
// BuildJumpTable, repaired by RepairJumpTable (jump_repair.cc), shared by
// ShareJumpTable (gridstar/engines/jps.h); the entries are what jps.h's
// ComputeJumpTable says.
//
// Layout: eight signed bytes per padded cell, the cells in blocks of
// kJumpBlockWidth x kJumpBlockHeight, one storage tile each, so that an
// update's repair along a column or diagonal copies a tile per 32 (16)
// cells, not per cell.
//
// Thread-safety: immutable once attached.

#ifndef GRIDSTAR_SRC_ENGINES_JPS_JUMP_TABLE_H_
#define GRIDSTAR_SRC_ENGINES_JPS_JUMP_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "gridstar/derived_structure.h"
#include "gridstar/grid_map.h"
#include "map/attachment.h"
#include "storage/cow_buffer.h"

namespace gridstar::internal {

class JumpTable final : public MapAttachment {
 public:
  static constexpr int kJumpBlockShiftX = 4;
  static constexpr int kJumpBlockShiftY = 5;
  static constexpr int32_t kJumpBlockWidth = 1 << kJumpBlockShiftX;
  static constexpr int32_t kJumpBlockHeight = 1 << kJumpBlockShiftY;
  static_assert(kJumpBlockWidth * kJumpBlockHeight * 8 == GridMap::kTileBytes,
                "a jump block is one tile");

  // REQUIRES: `buffer` holds BytesFor(width, height) sealed bytes.
  JumpTable(std::shared_ptr<const CowBuffer> buffer, int32_t width)
      : buffer_(std::move(buffer)),
        entries_(reinterpret_cast<const int8_t*>(buffer_->data())),
        blocks_x_(BlocksX(width)) {}

  static int32_t BlocksX(int32_t width) {
    return (width + 2 + kJumpBlockWidth - 1) >> kJumpBlockShiftX;
  }
  // Bytes a table of a width x height map takes (whole blocks).
  static size_t BytesFor(int32_t width, int32_t height) {
    return static_cast<size_t>(BlocksX(width)) *
           static_cast<size_t>((height + 2 + kJumpBlockHeight - 1) >>
                               kJumpBlockShiftY) *
           GridMap::kTileBytes;
  }
  // The first of the eight entries of padded cell (x, y) in a table
  // blocks_x blocks wide.
  static size_t EntryOf(int32_t blocks_x, int32_t x, int32_t y) {
    return ((static_cast<size_t>(y >> kJumpBlockShiftY) *
                 static_cast<size_t>(blocks_x) +
             static_cast<size_t>(x >> kJumpBlockShiftX))
                << (kJumpBlockShiftX + kJumpBlockShiftY) |
            static_cast<size_t>(y & (kJumpBlockHeight - 1))
                << kJumpBlockShiftX |
            static_cast<size_t>(x & (kJumpBlockWidth - 1)))
           << 3;
  }
  size_t Entry(int32_t x, int32_t y) const { return EntryOf(blocks_x_, x, y); }

  // Eight entries per padded cell, indexed Entry(x, y) + direction.
  const int8_t* entries() const { return entries_; }
  int32_t blocks_x() const { return blocks_x_; }
  const std::shared_ptr<const CowBuffer>& buffer() const { return buffer_; }

  size_t HeldBytes() const override { return buffer_->size(); }
  size_t UnsharedTileBytes() const override {
    return buffer_->private_chunks() * buffer_->chunk_bytes();
  }

 private:
  const std::shared_ptr<const CowBuffer> buffer_;
  const int8_t* const entries_;
  const int32_t blocks_x_;
};

// Its DerivedStructure (derived_structure.h) when `options` ask for it,
// else null.
std::unique_ptr<const DerivedStructure> JumpTableStructure(const DerivedOptions& options);

// map's table, null without one.
inline const JumpTable* JumpTableOf(const GridMap& map) {
  return AttachedTo<JumpTable>(map, Algorithm::kJpsPlus);
}

}  // namespace gridstar::internal

#endif  // GRIDSTAR_SRC_ENGINES_JPS_JUMP_TABLE_H_
