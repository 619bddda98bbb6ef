// Local repair of the jps+ jump table (RepairJumpTable,
// gridstar/engines/jps.h).
//
// An entry depends on its own cell, the next cell in its direction, their
// side cells (straight directions) or the two cells a diagonal passes, and
// the next cell's entry (diagonals: also whether the next cell's straight
// lines end at a jump point). So after cells changed:
//   1. straight entries: for every row (column) within one of a changed
//      rectangle, walk against the direction of travel from the changed
//      cells, recomputing each entry from the one ahead; past the cells
//      whose inputs changed, stop at the first cell whose entry and whose
//      line's answer to "ends at a jump point" both come out as they were
//      (WalkStraight says why that is enough);
//   2. diagonal entries: seeds are the cells within one of a changed
//      rectangle and the cells one diagonal step behind every cell a
//      straight walk visited whose straight line now ends at a jump point
//      where it did not, or the other way round (a diagonal entry reads its
//      next cell's straight lines only through that yes/no, and only walked
//      cells' answers can change: a line that now merely ends further away,
//      as most do after a wall is cleared, seeds nothing); walk back along
//      each seed's diagonal, front seeds first, until an entry comes out as
//      it was.
// Each walk recomputes entries against the current table, so walks may run
// in any order; the property tests compare the result with a table built
// from scratch after every step of random update sequences.

#include <algorithm>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "engines/jps/jps.h"
#include "engines/jps/jump_table.h"
#include "gridstar/engines/jps.h"
#include "gridstar/grid_map.h"
#include "storage/cow_buffer.h"

namespace gridstar {
namespace {

using internal::kJumpContinue;
using internal::kJumpDx;
using internal::kJumpDy;
using internal::kJumpTableStep;

int8_t Extend(int8_t next) {
  if (next == kJumpContinue || next == kJumpTableStep ||
      next == -kJumpTableStep) {
    return kJumpContinue;
  }
  return static_cast<int8_t>(next > 0 ? next + 1 : next - 1);
}

int StraightDirection(int32_t dx, int32_t dy) {
  return dx > 0 ? 0 : dx < 0 ? 1 : dy > 0 ? 2 : 3;
}

class TableRepair {
 public:
  // `previous` is the version before the changes, with its table.
  TableRepair(const GridMap& map, const GridMap& previous,
              internal::CowBuffer* table)
      : map_(map),
        costs_(map.padded_costs()),
        old_costs_(previous.padded_costs()),
        old_table_(internal::JumpTableOf(previous)->entries()),
        blocks_x_(internal::JumpTable::BlocksX(map.width())),
        pw_(map.padded_width()),
        ph_(map.height() + 2),
        table_(table) {}

  absl::Status Run(absl::Span<const CellRect> rects) {
    std::vector<uint32_t> walked[4];
    for (const CellRect& r : rects) {
      // Padded coordinates of the rectangle.
      const int32_t x0 = r.min.x + 1, x1 = r.max.x + 1;
      const int32_t y0 = r.min.y + 1, y1 = r.max.y + 1;
      for (int d = 0; d < 4; ++d) {
        const int32_t dx = kJumpDx[d], dy = kJumpDy[d];
        // Lines within one of the rectangle, across the direction.
        const bool row = dx != 0;
        const int32_t lo = std::max(1, (row ? y0 : x0) - 1);
        const int32_t hi = std::min((row ? ph_ : pw_) - 2, row ? y1 : x1);
        // Along the line, the cells whose own inputs changed: those in the
        // rectangle and the one behind it.
        const int32_t a0 = row ? x0 : y0, a1 = row ? x1 : y1;
        const int32_t step = row ? dx : dy;
        const int32_t front = step > 0 ? a1 - 1 : a0;
        const int32_t zone = a1 - a0 + 1;
        for (int32_t across = lo; across <= hi; ++across) {
          const int32_t sx = row ? front : across, sy = row ? across : front;
          WalkStraight(sx, sy, d, zone, &walked[d]);
          if (!status_.ok()) return status_;
        }
      }
    }
    for (int d = 4; d < 8; ++d) {
      const int32_t dx = kJumpDx[d], dy = kJumpDy[d];
      std::vector<uint32_t> seeds;
      for (const CellRect& r : rects) {
        for (int32_t y = std::max(1, r.min.y); y <= std::min(ph_ - 2, r.max.y + 1);
             ++y) {
          for (int32_t x = std::max(1, r.min.x);
               x <= std::min(pw_ - 2, r.max.x + 1); ++x) {
            seeds.push_back(Index(x, y));
          }
        }
      }
      const int32_t delta = dy * pw_ + dx;
      for (int s : {StraightDirection(dx, 0), StraightDirection(0, dy)}) {
        for (uint32_t n : walked[s]) {
          const int32_t nx = static_cast<int32_t>(n % pw_);
          const int32_t ny = static_cast<int32_t>(n / pw_);
          if (EndsAtJump(nx, ny, s) == EndedAtJump(nx, ny, s)) continue;
          seeds.push_back(static_cast<uint32_t>(static_cast<int64_t>(n) -
                                                delta));
        }
      }
      // Front seeds first: an entry is recomputed after the one ahead.
      auto ahead = [&](uint32_t i) {
        return dx * static_cast<int64_t>(i % pw_) +
               dy * static_cast<int64_t>(i / pw_);
      };
      // (Ties broken by index, so that duplicates sit side by side.)
      std::sort(seeds.begin(), seeds.end(), [&](uint32_t a, uint32_t b) {
        const int64_t ha = ahead(a), hb = ahead(b);
        return ha != hb ? ha > hb : a < b;
      });
      seeds.erase(std::unique(seeds.begin(), seeds.end()), seeds.end());
      absl::flat_hash_set<uint32_t> done;
      for (uint32_t seed : seeds) {
        WalkDiagonal(seed, d, &done);
        if (!status_.ok()) return status_;
      }
    }
    return status_;
  }

 private:
  uint32_t Index(int32_t x, int32_t y) const {
    return static_cast<uint32_t>(y) * static_cast<uint32_t>(pw_) +
           static_cast<uint32_t>(x);
  }
  bool Inside(int32_t x, int32_t y) const {
    return x >= 1 && y >= 1 && x <= pw_ - 2 && y <= ph_ - 2;
  }
  bool Free(int32_t x, int32_t y) const { return costs_[Index(x, y)] != 0; }
  int8_t Get(int32_t x, int32_t y, int d) const {
    return static_cast<int8_t>(
        table_->Read(internal::JumpTable::EntryOf(blocks_x_, x, y) + d));
  }
  void Set(int32_t x, int32_t y, int d, int8_t v) {
    if (Get(x, y, d) == v) return;
    const size_t offset = internal::JumpTable::EntryOf(blocks_x_, x, y);
    status_.Update(table_->MakeWritable(offset, 8));
    if (!status_.ok()) return;
    table_->mutable_data()[offset + d] = static_cast<uint8_t>(v);
  }

  // Whether the straight line from free cell (x, y) in direction d ends at a
  // jump point, by the current table (following continue markers).
  bool EndsAtJump(int32_t x, int32_t y, int d) const {
    if (!Inside(x, y) || !Free(x, y)) return false;
    for (;;) {
      const int8_t v = Get(x, y, d);
      if (v != kJumpContinue) return v > 0;
      x += kJumpTableStep * kJumpDx[d];
      y += kJumpTableStep * kJumpDy[d];
    }
  }

  // EndsAtJump of the version before the changes, by its table.
  bool EndedAtJump(int32_t x, int32_t y, int d) const {
    if (!Inside(x, y) || old_costs_[Index(x, y)] == 0) return false;
    for (;;) {
      const int8_t v =
          old_table_[internal::JumpTable::EntryOf(blocks_x_, x, y) + d];
      if (v != kJumpContinue) return v > 0;
      x += kJumpTableStep * kJumpDx[d];
      y += kJumpTableStep * kJumpDy[d];
    }
  }

  // Straight entry of (x, y) in direction d given the next cell's entry and
  // whether its line ends at a jump point; *ends says the same of (x, y).
  int8_t StraightEntry(int32_t x, int32_t y, int d, bool next_ends,
                       bool* ends) const {
    *ends = false;
    if (!Free(x, y)) return 0;
    const int32_t dx = kJumpDx[d], dy = kJumpDy[d];
    const int32_t nx = x + dx, ny = y + dy;
    if (!Free(nx, ny)) return 0;
    for (int32_t s : {-1, 1}) {
      const int32_t sx = dx != 0 ? 0 : s, sy = dx != 0 ? s : 0;
      if (Free(nx + sx, ny + sy) && !Free(x + sx, y + sy)) {
        *ends = true;
        return 1;
      }
    }
    *ends = next_ends;
    return Extend(Get(nx, ny, d));
  }

  // Walks back from (x, y) against direction d. Past the `zone` cells
  // whose inputs changed, the first cell whose entry and whose line's
  // answer to "ends at a jump point" both come out as they were ends the
  // walk: a cell's entry and answer are made from its own neighbourhood
  // (unchanged there) and the entry and answer of the cell ahead, so every
  // cell behind comes out as it was too. (A continue marker that came out
  // as it was may still mean another end of its line: then its answer
  // changed, and the walk goes on. Without the answer a walk would have to
  // go on through every continue marker: a one-cell change on an open road
  // would walk the road's whole length.)
  void WalkStraight(int32_t x, int32_t y, int d, int32_t zone,
                    std::vector<uint32_t>* walked) {
    const int32_t dx = kJumpDx[d], dy = kJumpDy[d];
    bool next_ends = EndsAtJump(x + dx, y + dy, d);
    for (int32_t k = 0; Inside(x, y); ++k, x -= dx, y -= dy) {
      const uint32_t i = Index(x, y);
      bool ends = false;
      const int8_t v = StraightEntry(x, y, d, next_ends, &ends);
      const int8_t old = Get(x, y, d);
      walked->push_back(i);
      Set(x, y, d, v);
      if (!status_.ok()) return;
      if (k >= zone && v == old && ends == EndedAtJump(x, y, d)) return;
      next_ends = ends;
    }
  }

  int8_t DiagonalEntry(int32_t x, int32_t y, int d) const {
    const int32_t dx = kJumpDx[d], dy = kJumpDy[d];
    const int32_t nx = x + dx, ny = y + dy;
    if (!Free(x, y) || !Free(nx, y) || !Free(x, ny) || !Free(nx, ny)) return 0;
    if (EndsAtJump(nx, ny, StraightDirection(dx, 0)) ||
        EndsAtJump(nx, ny, StraightDirection(0, dy))) {
      return 1;
    }
    return Extend(Get(nx, ny, d));
  }

  void WalkDiagonal(uint32_t seed, int d, absl::flat_hash_set<uint32_t>* done) {
    int32_t x = static_cast<int32_t>(seed % pw_);
    int32_t y = static_cast<int32_t>(seed / pw_);
    for (; Inside(x, y); x -= kJumpDx[d], y -= kJumpDy[d]) {
      const uint32_t i = Index(x, y);
      if (!done->insert(i).second) return;  // Walked from a seed ahead.
      const int8_t v = DiagonalEntry(x, y, d);
      const int8_t old = Get(x, y, d);
      Set(x, y, d, v);
      if (!status_.ok() || v == old) return;
    }
  }

  const GridMap& map_;
  const uint8_t* costs_;
  const uint8_t* old_costs_;
  const int8_t* old_table_;  // Same layout as table_ (same map size).
  const int32_t blocks_x_;
  const int32_t pw_, ph_;
  internal::CowBuffer* table_;
  absl::Status status_;
};

}  // namespace

absl::Status RepairJumpTable(const GridMap& previous,
                             absl::Span<const CellRect> rects, GridMap* next) {
  const internal::JumpTable* before = internal::JumpTableOf(previous);
  if (before == nullptr || previous.width() != next->width() ||
      previous.height() != next->height() || !next->uniform_cost() ||
      !previous.uniform_cost()) {
    return absl::FailedPreconditionError(
        "jump_table: repair needs two uniform-cost versions of one map, the "
        "first with a table");
  }
  absl::StatusOr<internal::CowBuffer> table = before->buffer()->Fork();
  if (!table.ok()) return table.status();
  if (absl::Status s = TableRepair(*next, previous, &*table).Run(rects);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = table->Seal(); !s.ok()) return s;
  next->Attach(
      Algorithm::kJpsPlus,
      std::make_shared<const internal::JumpTable>(
          std::make_shared<const internal::CowBuffer>(*std::move(table)),
          next->width()));
  return absl::OkStatus();
}

}  // namespace gridstar
