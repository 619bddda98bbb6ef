// Jump point search: the online engine (bit-line scans), the jps+ engine
// (precomputed distances) and the table builder. See jps.h for the rules.
//
// Both engines are A* over jump points with the octile heuristic, which is
// consistent for jumps along straight and diagonal lines, so an expanded jump
// point is final and the RadixQueue (lazy deletion) serves as open list. The
// loop is search_loop.h's RunSearchLoop; JumpExpander supplies the jumps. A
// node's successors are pruned by the direction it was reached from, taken
// from its parent; the start tries all eight directions.

#include "engines/jps/jps.h"

#include <algorithm>
#include <cassert>
#include <cstdlib>

namespace gridstar::internal {
namespace {

constexpr uint32_t kNoJump = UINT32_MAX;

int DirectionOf(int32_t dx, int32_t dy) {
  for (int d = 0; d < 8; ++d) {
    if (kJumpDx[d] == dx && kJumpDy[d] == dy) return d;
  }
  return -1;
}

// 64 bits of `line` from bit `bit` on: bit i of the result is bit bit + i.
inline uint64_t Bits64(const uint64_t* line, int64_t bit) {
  const int64_t w = bit >> 6;
  const int s = static_cast<int>(bit & 63);
  const uint64_t lo = line[w] >> s;
  return s == 0 ? lo : lo | (line[w + 1] << (64 - s));
}

// Scans a line (a row moving along x, or a column moving along y) from `pos`
// (exclusive) in direction `step` (+1 or -1). `side_a` and `side_b` are the
// neighbouring lines. Returns the first jump point (a free cell whose
// neighbour in a side line is free while the one behind it is blocked), or,
// when a blocked cell comes first, kNoJump with *last_free set to the last
// free cell before it. Positions are padded coordinates.
inline int32_t Scan(const uint64_t* line, const uint64_t* side_a,
                    const uint64_t* side_b, int32_t pos, int step,
                    int32_t* last_free) {
  if (step > 0) {
    for (int64_t first = pos + 1;; first += 64) {
      const int64_t bit = first + 64;  // Lines start with 64 zero bits.
      const uint64_t free = Bits64(line, bit);
      const uint64_t forced = (Bits64(side_a, bit) & ~Bits64(side_a, bit - 1)) |
                              (Bits64(side_b, bit) & ~Bits64(side_b, bit - 1));
      const uint64_t stop = ~free | forced;
      if (stop == 0) continue;
      const int i = __builtin_ctzll(stop);
      const int32_t p = static_cast<int32_t>(first + i);
      if ((free >> i) & 1) return p;
      *last_free = p - 1;
      return static_cast<int32_t>(kNoJump);
    }
  }
  for (int64_t last = pos - 1;; last -= 64) {
    // Bit 63 of each word read is cell `last`, bit 0 is last - 63.
    const int64_t bit = last + 64 - 63;
    const uint64_t free = Bits64(line, bit);
    const uint64_t forced = (Bits64(side_a, bit) & ~Bits64(side_a, bit + 1)) |
                            (Bits64(side_b, bit) & ~Bits64(side_b, bit + 1));
    const uint64_t stop = ~free | forced;
    if (stop == 0) continue;
    const int i = 63 - __builtin_clzll(stop);
    const int32_t p = static_cast<int32_t>(last - (63 - i));
    if ((free >> i) & 1) return p;
    *last_free = p + 1;
    return static_cast<int32_t>(kNoJump);
  }
}

// Jumps of the online engine.
class OnlineJumper {
 public:
  OnlineJumper(const GridMap& map, const SearchParams& p)
      : map_(map),
        costs_(map.padded_costs()),
        pw_(map.padded_width()),
        goal_(p.goal),
        goal_x_(p.goal_x),
        goal_y_(p.goal_y) {}

  // The jump point reached from (x, y) in straight direction d (< 4), the
  // goal when it lies on the way, or kNoJump.
  uint32_t Straight(uint32_t, int32_t x, int32_t y, int d) const {
    return d < 2 ? Horizontal(x, y, kJumpDx[d]) : Vertical(x, y, kJumpDy[d]);
  }

  // The diagonal scan from (x, y) in direction d (>= 4) with intermediate
  // jump points pruned: at every diagonal step, the straight jumps along
  // the diagonal's two components; each jump point (or the goal) they find
  // is emitted as emit(index, x, y), a successor of (x, y) itself. Stops at
  // the first wall or corner, or at the goal.
  template <typename Emit>
  GRIDSTAR_ALWAYS_INLINE void Diagonal(uint32_t cur, int32_t x, int32_t y,
                                       int d, Emit& emit) const {
    const int32_t dx = kJumpDx[d], dy = kJumpDy[d];
    const int32_t row = dy * pw_;
    for (uint32_t i = cur;;) {
      // No corner cutting: both cells the diagonal passes must be free.
      if (!costs_[i + dx] || !costs_[i + row] || !costs_[i + row + dx]) {
        return;
      }
      i += row + dx;
      x += dx;
      y += dy;
      if (i == goal_) {
        emit(i, x, y);
        return;
      }
      const uint32_t h = Horizontal(x, y, dx);
      if (h != kNoJump) {
        emit(h, x + static_cast<int32_t>(h - i), y);
      }
      const uint32_t v = Vertical(x, y, dy);
      if (v != kNoJump) {
        emit(v, x, y + (static_cast<int32_t>(v) - static_cast<int32_t>(i)) / pw_);
      }
    }
  }

 private:
  uint32_t Horizontal(int32_t x, int32_t y, int32_t dx) const {
    return Straight<true>(x, y, dx);
  }
  uint32_t Vertical(int32_t x, int32_t y, int32_t dy) const {
    return Straight<false>(x, y, dy);
  }

  // A straight jump from (x, y) along its row (kAlongRow) or its column, by
  // `step`: the jump point, the goal when it lies on the way, or kNoJump.
  template <bool kAlongRow>
  uint32_t Straight(int32_t x, int32_t y, int32_t step) const {
    const int32_t along = kAlongRow ? x : y, across = kAlongRow ? y : x;
    const int32_t goal_along = kAlongRow ? goal_x_ : goal_y_;
    const int32_t goal_across = kAlongRow ? goal_y_ : goal_x_;
    auto line = [this](int32_t i) {
      return kAlongRow ? map_.row_bits(i) : map_.column_bits(i);
    };
    int32_t last_free = 0;
    const int32_t p = Scan(line(across), line(across - 1), line(across + 1),
                           along, step, &last_free);
    const bool jumped = p != static_cast<int32_t>(kNoJump);
    const int32_t reach = jumped ? p : last_free;
    if (across == goal_across && (goal_along - along) * step > 0 &&
        (reach - goal_along) * step >= 0) {
      return goal_;
    }
    if (!jumped) return kNoJump;
    return static_cast<uint32_t>(kAlongRow ? y : p) *
               static_cast<uint32_t>(pw_) +
           static_cast<uint32_t>(kAlongRow ? p : x);
  }

  const GridMap& map_;
  const uint8_t* costs_;
  const int32_t pw_;
  const uint32_t goal_;
  const int32_t goal_x_, goal_y_;
};

// Jumps of jps+: table reads, plus the goal, which the table cannot know.
// An entry of kJumpContinue says the line runs on past kJumpTableStep
// cells: the entry kJumpTableStep cells on continues it.
class TableJumper {
 public:
  TableJumper(const GridMap& map, const SearchParams& p)
      : table_(JumpTableOf(map)->entries()),
        blocks_x_(JumpTableOf(map)->blocks_x()),
        pw_(map.padded_width()),
        goal_(p.goal),
        goal_x_(p.goal_x),
        goal_y_(p.goal_y) {}

  // As OnlineJumper::Straight.
  GRIDSTAR_ALWAYS_INLINE uint32_t Straight(uint32_t cur, int32_t x, int32_t y,
                                           int d) const {
    int32_t v = Entry(x, y, d);
    const int32_t base = __builtin_expect(v == kJumpContinue, 0)
                             ? FollowContinues(x, y, d, &v)
                             : 0;
    const int32_t reach = base + std::abs(v);
    const int32_t dx = kJumpDx[d], dy = kJumpDy[d];
    // The goal on this line within reach is where the jump stops.
    const int32_t along = dx != 0 ? (goal_x_ - x) * dx : (goal_y_ - y) * dy;
    const int32_t across = dx != 0 ? goal_y_ - y : goal_x_ - x;
    if (across == 0 && along > 0 && along <= reach) return goal_;
    if (v <= 0) return kNoJump;
    return static_cast<uint32_t>(static_cast<int64_t>(cur) +
                                 static_cast<int64_t>(base + v) *
                                     (dy * pw_ + dx));
  }

  // As OnlineJumper::Diagonal, over the table: the diagonal entries lead
  // from one diagonal jump point (a cell whose straight jumps find
  // something) to the next; where the diagonal crosses the goal's row or
  // column, the straight jumps from that cell are taken too, so that they
  // can reach the goal.
  template <typename Emit>
  GRIDSTAR_ALWAYS_INLINE void Diagonal(uint32_t cur, int32_t x, int32_t y,
                                       int d, Emit& emit) const {
    const int32_t dx = kJumpDx[d], dy = kJumpDy[d];
    const int64_t step = dy * pw_ + dx;
    const int32_t gdx = goal_x_ - x, gdy = goal_y_ - y;
    const int32_t goal_k = gdx * dx > 0 && gdy * dy > 0
                               ? std::min(std::abs(gdx), std::abs(gdy))
                               : -1;
    const int hd = dx > 0 ? 0 : 1;  // East 0, west 1 (kMoveDx's order).
    const int vd = dy > 0 ? 2 : 3;  // South 2, north 3.
    auto straights = [&](int32_t k) __attribute__((always_inline)) {
      const uint32_t at =
          static_cast<uint32_t>(static_cast<int64_t>(cur) + k * step);
      const int32_t ax = x + k * dx, ay = y + k * dy;
      const uint32_t h = Straight(at, ax, ay, hd);
      if (h != kNoJump) emit(h, ax + static_cast<int32_t>(h - at), ay);
      const uint32_t v = Straight(at, ax, ay, vd);
      if (v != kNoJump) {
        emit(v, ax,
             ay + (static_cast<int32_t>(v) - static_cast<int32_t>(at)) / pw_);
      }
    };
    for (int32_t t = 0;;) {
      int32_t v = Entry(x + t * dx, y + t * dy, d);
      const int32_t base = __builtin_expect(v == kJumpContinue, 0)
                               ? FollowContinues(x + t * dx, y + t * dy, d, &v)
                               : 0;
      const int32_t next = v > 0 ? base + v : 0;  // 0: a wall comes first.
      const int32_t reach = base + std::abs(v);
      if (goal_k > t && goal_k - t <= reach && (next == 0 || goal_k - t < next)) {
        if (static_cast<uint32_t>(static_cast<int64_t>(cur) + goal_k * step) ==
            goal_) {
          emit(goal_, goal_x_, goal_y_);
          return;
        }
        straights(goal_k);
      }
      if (next == 0) return;
      t += next;
      if (t == goal_k &&
          static_cast<uint32_t>(static_cast<int64_t>(cur) + t * step) ==
              goal_) {
        emit(goal_, goal_x_, goal_y_);
        return;
      }
      straights(t);
    }
  }

 private:
  GRIDSTAR_ALWAYS_INLINE int32_t Entry(int32_t x, int32_t y, int d) const {
    return table_[JumpTable::EntryOf(blocks_x_, x, y) + static_cast<size_t>(d)];
  }

  // Follows the continue markers of the line from (x, y) in direction d:
  // returns the steps they cover and sets *v to the entry that ends them.
  __attribute__((noinline)) int32_t FollowContinues(int32_t x, int32_t y, int d,
                                                    int32_t* v) const {
    int32_t base = 0;
    while (*v == kJumpContinue) {
      base += kJumpTableStep;
      *v = table_[JumpTable::EntryOf(blocks_x_, x + base * kJumpDx[d],
                                     y + base * kJumpDy[d]) +
                  static_cast<size_t>(d)];
    }
    return base;
  }

  const int8_t* table_;
  const int32_t blocks_x_;
  const int32_t pw_;
  const uint32_t goal_;
  const int32_t goal_x_, goal_y_;
};

// The directions worth trying from `cur` (x, y), reached from `parent`.
inline unsigned Successors(const uint8_t* costs, int32_t pw, uint32_t cur,
                           int32_t x, int32_t y, uint32_t parent,
                           int32_t parent_x, int32_t parent_y) {
  if (parent == cur) return 0xff;  // The start.
  // The last leg of the way from the parent: a diagonal run, then a straight
  // one along the longer axis (Diagonal's successors), so the direction of
  // arrival is straight unless the two offsets are equal.
  const int32_t run_x = x - parent_x, run_y = y - parent_y;
  const int32_t ax = std::abs(run_x), ay = std::abs(run_y);
  const int32_t dx = ax >= ay ? (run_x > 0) - (run_x < 0) : 0;
  const int32_t dy = ay >= ax ? (run_y > 0) - (run_y < 0) : 0;
  auto bit = [](int32_t ddx, int32_t ddy) {
    return 1u << DirectionOf(ddx, ddy);
  };
  auto free = [&](int32_t ox, int32_t oy) {
    return costs[static_cast<int64_t>(cur) + oy * pw + ox] != 0;
  };
  if (dx != 0 && dy != 0) return bit(dx, 0) | bit(0, dy) | bit(dx, dy);
  unsigned dirs = bit(dx, dy);
  for (int32_t s : {-1, 1}) {
    if (dx != 0) {
      if (free(0, s) && !free(-dx, s)) dirs |= bit(0, s) | bit(dx, s);
    } else {
      if (free(s, 0) && !free(s, -dy)) dirs |= bit(s, 0) | bit(s, dy);
    }
  }
  return dirs;
}

// Writes the path through the jump points ending at `last`, filling in the
// cells between each jump point and its parent: a diagonal run from the
// parent, then a straight run along the longer axis. The cells between two
// jump points number the larger of the two offsets, so the path's length is
// known before a cell is written: one pass to count, one to fill from the
// back, no reversal.
template <typename Nodes>
void ReconstructJumps(const GridMap& map, Nodes nodes, uint32_t start,
                      uint32_t last, PathResult* result) {
  const int32_t pw = map.padded_width();
  size_t count = 1;
  for (uint32_t i = last; i != start; i = nodes[i].parent) {
    const uint32_t p = nodes[i].parent;
    const int32_t ox = static_cast<int32_t>(i % pw) - static_cast<int32_t>(p % pw);
    const int32_t oy = static_cast<int32_t>(i / pw) - static_cast<int32_t>(p / pw);
    count += static_cast<size_t>(std::max(std::abs(ox), std::abs(oy)));
  }
  std::vector<Cell>& cells = result->cells;
  cells.resize(count);
  Cell* out = cells.data() + count;
  Cell c = map.CellOfPaddedIndex(last);
  *--out = c;
  for (uint32_t i = last; i != start; i = nodes[i].parent) {
    const Cell to = map.CellOfPaddedIndex(nodes[i].parent);
    // Back from c to `to`: the straight run first, then the diagonal.
    for (;;) {
      const int32_t ox = to.x - c.x, oy = to.y - c.y;
      const int32_t ax = std::abs(ox), ay = std::abs(oy);
      if (ax >= ay) c.x += (ox > 0) - (ox < 0);
      if (ay >= ax) c.y += (oy > 0) - (oy < 0);
      *--out = c;
      if (c == to) break;
    }
  }
  assert(out == cells.data());
  result->cost = nodes[last].g;
}

// The successors of a jump point: one jump in each direction the pruning
// rules leave, with the octile heuristic (consistent along jumps).
template <typename Jumper>
class JumpExpander {
 public:
  static constexpr bool kTies = false;
  static constexpr bool kDivideByMultiply = false;
  static constexpr bool kDiagonal = true;

  JumpExpander(const GridMap& map, const SearchParams& p, const Jumper& jumper)
      : map_(&map),
        jumper_(jumper),
        costs_(map.padded_costs()),
        pw_(map.padded_width()),
        goal_x_(p.goal_x),
        goal_y_(p.goal_y),
        h_scale_(p.h_scale),
        unit_(map.min_cost()) {}

  GRIDSTAR_ALWAYS_INLINE double Heuristic(int32_t x, int32_t y,
                                          uint32_t) const {
    return h_scale_ * GridDistance(x - goal_x_, y - goal_y_, true);
  }

  template <typename Relax>
  GRIDSTAR_ALWAYS_INLINE void Expand(uint32_t cur, int32_t x, int32_t y,
                                     double g, uint32_t parent,
                                     Relax& relax) const {
    const int32_t pw = pw_;
    const double unit = unit_;
    const Jumper& jumper = jumper_;
    unsigned dirs = Successors(costs_, pw, cur, x, y, parent,
                               static_cast<int32_t>(parent % pw),
                               static_cast<int32_t>(parent / pw));
    // Every move costs `unit` per step: a successor costs its octile
    // distance (a diagonal run, then a straight one).
    auto emit = [&](uint32_t next, int32_t nx, int32_t ny)
        __attribute__((always_inline)) {
      relax(next, g + unit * GridDistance(nx - x, ny - y, true), nx, ny);
    };
    while (dirs != 0) {
      const int d = __builtin_ctz(dirs);
      dirs &= dirs - 1;
      if (d >= 4) {
        jumper.Diagonal(cur, x, y, d, emit);
        continue;
      }
      const uint32_t next = jumper.Straight(cur, x, y, d);
      if (next == kNoJump) continue;
      const int32_t offset = static_cast<int32_t>(next) - static_cast<int32_t>(cur);
      // A straight jump: along the row, or a whole number of rows.
      const bool along_row = d < 2;
      relax(next, g + unit * std::abs(along_row ? offset : offset / pw),
            along_row ? x + offset : x, along_row ? y : y + offset / pw);
    }
  }

  template <typename Nodes>
  void Reconstruct(const SearchState&, Nodes nodes, uint32_t start,
                   uint32_t last, PathResult* result) const {
    ReconstructJumps(*map_, nodes, start, last, result);
  }

 private:
  // Values, not references: the loop keeps its copy in registers.
  const GridMap* map_;
  Jumper jumper_;
  const uint8_t* costs_;
  int32_t pw_;
  int32_t goal_x_, goal_y_;
  double h_scale_;
  double unit_;
};

template <typename Jumper>
void JpsSearch(const GridMap& map, const SearchParams& p, SearchState& s,
               const Jumper& jumper, PathResult* result) {
  JumpExpander<Jumper> expander(map, p, jumper);
  if (UseSparseNodes(map)) {
    s.sparse.Begin(s.open_mark);
    RunSearchLoop(map, p, s, s.radix, expander, result,
                  SparseNodesRef{&s.sparse});
    return;
  }
  RunSearchLoop(map, p, s, s.radix, expander, result);
}

}  // namespace

void RunJps(const GridMap& map, const SearchParams& params, SearchState& state,
            PathResult* result) {
  JpsSearch(map, params, state, OnlineJumper(map, params), result);
}

void RunJpsPlus(const GridMap& map, const SearchParams& params,
                SearchState& state, PathResult* result) {
  JpsSearch(map, params, state, TableJumper(map, params), result);
}

void ComputeJumpTable(const GridMap& map, int8_t* table) {
  const int32_t pw = map.padded_width();
  const int32_t ph = map.height() + 2;
  const uint8_t* costs = map.padded_costs();
  const int32_t blocks_x = JumpTable::BlocksX(map.width());
  // Bit d (straight d only): the straight line from the cell in direction d
  // ends at a jump point, not a wall. Kept aside, since an entry that says
  // "continue" does not show it.
  std::vector<uint8_t> ends_at_jump(map.padded_size(), 0);
  auto index = [&](int32_t x, int32_t y) {
    return static_cast<size_t>(y) * static_cast<size_t>(pw) +
           static_cast<size_t>(x);
  };
  auto free = [&](int32_t x, int32_t y) { return costs[index(x, y)] != 0; };
  auto at = [&](int32_t x, int32_t y, int d) -> int8_t& {
    return table[JumpTable::EntryOf(blocks_x, x, y) + static_cast<size_t>(d)];
  };
  // Extends the entry of the next cell by one step; a distance beyond
  // kJumpTableStep becomes "continue".
  auto extend = [](int8_t next) -> int8_t {
    if (next == kJumpContinue || next == kJumpTableStep ||
        next == -kJumpTableStep) {
      return kJumpContinue;
    }
    return static_cast<int8_t>(next > 0 ? next + 1 : next - 1);
  };
  // The entry of free cell (x, y) in direction d, from the next cell's.
  auto entry = [&](int32_t x, int32_t y, int d) -> int8_t {
    const int32_t dx = kJumpDx[d], dy = kJumpDy[d];
    const int32_t nx = x + dx, ny = y + dy;
    if (d < 4) {
      const uint8_t bit = static_cast<uint8_t>(1u << d);
      if (!free(nx, ny)) return 0;
      // Forced at (nx, ny): a side cell free whose cell behind is not.
      for (int32_t s : {-1, 1}) {
        const int32_t sx = dx != 0 ? 0 : s, sy = dx != 0 ? s : 0;
        if (free(nx + sx, ny + sy) && !free(x + sx, y + sy)) {
          ends_at_jump[index(x, y)] |= bit;
          return 1;
        }
      }
      ends_at_jump[index(x, y)] |= ends_at_jump[index(nx, ny)] & bit;
      return extend(at(nx, ny, d));
    }
    // No corner cutting: both cells the diagonal passes must be free.
    if (!free(nx, y) || !free(x, ny) || !free(nx, ny)) return 0;
    // A straight jump from the next cell finds something: it is a jump point.
    const uint8_t straight = static_cast<uint8_t>((1u << DirectionOf(dx, 0)) |
                                                  (1u << DirectionOf(0, dy)));
    if ((ends_at_jump[index(nx, ny)] & straight) != 0) return 1;
    return extend(at(nx, ny, d));
  };
  // Cells are visited against the direction of travel, so that the next
  // cell's entry is ready, and the straight directions (0..3) before the
  // diagonals, which read them.
  for (int d = 0; d < 8; ++d) {
    const int32_t dx = kJumpDx[d], dy = kJumpDy[d];
    for (int32_t yi = 1; yi < ph - 1; ++yi) {
      const int32_t y = dy > 0 ? ph - 1 - yi : yi;
      for (int32_t xi = 1; xi < pw - 1; ++xi) {
        const int32_t x = dx > 0 ? pw - 1 - xi : xi;
        if (free(x, y)) at(x, y, d) = entry(x, y, d);
      }
    }
  }
}

}  // namespace gridstar::internal
