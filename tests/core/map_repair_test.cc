// Tiles and local repair: tiled storage shares what an update did not touch,
// and every repaired structure (costs, bit lines, components, jump table)
// equals a from-scratch build after every step of random update sequences,
// on maps spanning many tiles and lines longer than a jump entry's reach.
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engines/jps/jump_table.h"
#include "gridstar/derived_data.h"
#include "gridstar/engines/jps.h"
#include "gridstar/grid_map.h"
#include "gridstar/map_update.h"
#include "gtest/gtest.h"
#include "storage/cow_buffer.h"
#include "testing/reference.h"
#include "testing/status_matchers.h"

namespace gridstar {
namespace {

using internal::CowBuffer;
using testing::MakeRandomMap;

constexpr size_t kPage = 4096;

TEST(CowBufferTest, ForkSharesEveryChunkAndCopiesOnlyWrittenOnes) {
  CowBuffer a = CowBuffer::Create(10 * kPage, kPage).value();
  for (size_t i = 0; i < a.size(); ++i) a.mutable_data()[i] = uint8_t(i % 251);
  ASSERT_OK(a.Seal());
  EXPECT_EQ(a.private_chunks(), 10u);
  CowBuffer b = a.Fork().value();
  EXPECT_EQ(a.private_chunks(), 0u);
  EXPECT_EQ(b.private_chunks(), 0u);
  EXPECT_TRUE(std::equal(a.data(), a.data() + a.size(), b.data()));
  ASSERT_OK(b.MakeWritable(3 * kPage + 10, 2));
  b.mutable_data()[3 * kPage + 10] = 7;
  EXPECT_EQ(b.private_chunks(), 1u);
  EXPECT_EQ(a.data()[3 * kPage + 10], uint8_t((3 * kPage + 10) % 251));
  EXPECT_EQ(b.data()[3 * kPage + 11], uint8_t((3 * kPage + 11) % 251));
  // A range across a chunk border copies both chunks.
  ASSERT_OK(b.MakeWritable(5 * kPage - 1, 2));
  EXPECT_EQ(b.private_chunks(), 3u);
}

// A chain of versions, each written at random: every version keeps its own
// bytes however many come after it and whichever die first.
TEST(CowBufferTest, OldVersionsNeverSeeLaterWrites) {
  std::mt19937 rng(17);
  std::vector<CowBuffer> versions;
  std::vector<std::vector<uint8_t>> models;
  versions.push_back(CowBuffer::Create(16 * kPage, kPage).value());
  ASSERT_OK(versions.back().Seal());
  models.emplace_back(16 * kPage, 0);
  for (int step = 0; step < 60; ++step) {
    SCOPED_TRACE(absl::StrCat("step ", step));
    CowBuffer next = versions.back().Fork().value();
    std::vector<uint8_t> model = models.back();
    for (int k = 0; k < 5; ++k) {
      const size_t at = rng() % next.size();
      ASSERT_OK(next.MakeWritable(at, 1));
      next.mutable_data()[at] = model[at] = uint8_t(rng());
    }
    ASSERT_OK(next.Seal());
    versions.push_back(std::move(next));
    models.push_back(std::move(model));
    // Drop a random old version now and then (never the newest).
    if (versions.size() > 3 && rng() % 2 == 0) {
      const size_t victim = rng() % (versions.size() - 1);
      versions.erase(versions.begin() + static_cast<long>(victim));
      models.erase(models.begin() + static_cast<long>(victim));
    }
    for (size_t v = 0; v < versions.size(); ++v) {
      ASSERT_TRUE(std::equal(models[v].begin(), models[v].end(),
                             versions[v].data()))
          << "version " << v;
    }
  }
}

TEST(CowBufferTest, ChunksGoBackHomeOnceTheOldVersionIsGone) {
  CowBuffer a = CowBuffer::Create(64 * kPage, kPage).value();
  ASSERT_OK(a.Seal());
  CowBuffer b = a.Fork().value();
  for (size_t c = 0; c < 64; c += 8) {
    ASSERT_OK(b.MakeWritable(c * kPage, 1));
    b.mutable_data()[c * kPage] = uint8_t(c + 1);
  }
  ASSERT_OK(b.Seal());
  EXPECT_GT(b.mapping_runs(), 8u);  // Copies sit in spare slots.
  a = CowBuffer();                  // Nobody reads the first version now.
  CowBuffer c = b.Fork().value();
  EXPECT_EQ(c.mapping_runs(), 1u);
  for (size_t k = 0; k < 64; k += 8) {
    EXPECT_EQ(c.data()[k * kPage], uint8_t(k + 1));
  }
}

// One random change list: mostly single cells, some rectangles up to 32 x
// 32; costs 0/1 on uniform maps, 0..5 otherwise.
std::vector<CellChange> RandomChanges(int32_t w, int32_t h, bool uniform,
                                      std::mt19937& rng) {
  std::vector<CellChange> changes;
  for (int k = 1 + static_cast<int>(rng() % 3); k > 0; --k) {
    const int32_t side = rng() % 4 == 0 ? 1 + static_cast<int32_t>(rng() % 32)
                                        : 1;
    CellChange c;
    c.min = {static_cast<int32_t>(rng() % w), static_cast<int32_t>(rng() % h)};
    c.max = {std::min(w, c.min.x + side),
             std::min(h, c.min.y + 1 + static_cast<int32_t>(rng() % side))};
    // Open maps stay open: blocking is as likely as clearing.
    c.cost = static_cast<uint8_t>(uniform ? rng() % 2 : rng() % 6);
    changes.push_back(c);
  }
  return changes;
}

void ExpectSameStructures(const GridMap& got, const GridMap& want) {
  ASSERT_EQ(got.CopyCosts(), want.CopyCosts());
  ASSERT_EQ(got.passable_count(), want.passable_count());
  ASSERT_EQ(got.min_cost(), want.min_cost());
  ASSERT_EQ(got.max_cost(), want.max_cost());
  ASSERT_EQ(got.uniform_cost(), want.uniform_cost());
  ASSERT_EQ(got.component_count(), want.component_count());
  for (int32_t y = 0; y < got.height(); ++y) {
    for (int32_t x = 0; x < got.width(); ++x) {
      ASSERT_EQ(got.component({x, y}), want.component({x, y}))
          << "(" << x << ", " << y << ")";
    }
  }
  if (want.uniform_cost()) {
    ASSERT_EQ(got.row_bit_words(), want.row_bit_words());
    for (int32_t r = 0; r < got.height() + 2; ++r) {
      ASSERT_TRUE(std::equal(got.row_bits(r), got.row_bits(r) + got.row_bit_words(),
                             want.row_bits(r)))
          << "row " << r;
    }
    for (int32_t c = 0; c < got.padded_width(); ++c) {
      ASSERT_TRUE(std::equal(got.column_bits(c),
                             got.column_bits(c) + got.column_bit_words(),
                             want.column_bits(c)))
          << "column " << c;
    }
  }
  ASSERT_EQ(HasJumpTable(got), HasJumpTable(want));
  if (HasJumpTable(want)) {
    ASSERT_EQ(JumpTableBytes(got), JumpTableBytes(want));
    for (int32_t y = 0; y < want.height() + 2; ++y) {
      for (int32_t x = 0; x < want.padded_width(); ++x) {
        for (int d = 0; d < 8; ++d) {
          ASSERT_EQ(
              internal::JumpTableOf(got)
                  ->entries()[internal::JumpTableOf(got)->Entry(x, y) + d],
              internal::JumpTableOf(want)
                  ->entries()[internal::JumpTableOf(want)->Entry(x, y) + d])
              << "padded (" << x << ", " << y << ") direction " << d;
        }
      }
    }
  }
}

TEST(MapRepairTest, EveryStructureEqualsAFreshBuildAfterEveryStep) {
  struct Case {
    const char* name;
    int32_t w, h;
    double blocked;
    uint8_t max_cost;
    int seeds, steps;
  } cases[] = {
      {"small dense", 20, 17, 0.35, 1, 8, 40},
      {"many tiles", 200, 150, 0.3, 1, 3, 30},
      {"open rows past a jump entry's reach", 400, 12, 0.01, 1, 4, 40},
      {"open columns past a jump entry's reach", 9, 420, 0.01, 1, 4, 40},
      {"open field", 300, 300, 0.002, 1, 2, 25},
      // Lines many times a jump entry's reach, nearly open: chains of
      // continue markers whose meaning a change far ahead decides.
      {"open rows of continue markers", 1100, 5, 0.0005, 1, 4, 40},
      {"open columns of continue markers", 4, 1100, 0.0005, 1, 4, 40},
      {"weighted", 130, 90, 0.25, 5, 3, 25},
  };
  DerivedOptions options;
  options.Ask(kJumpTableName);
  for (const Case& c : cases) {
    for (int seed = 1; seed <= c.seeds; ++seed) {
      SCOPED_TRACE(absl::StrCat(c.name, " seed ", seed));
      std::mt19937 rng(static_cast<uint32_t>(seed * 7919 + c.w));
      GridMap map = MakeRandomMap({c.w, c.h, c.blocked, c.max_cost},
                                  static_cast<uint32_t>(seed));
      std::vector<DerivedReport> reports;
      ASSERT_OK(BuildDerived(options, &map, &reports));
      for (int step = 0; step < c.steps; ++step) {
        SCOPED_TRACE(absl::StrCat("step ", step));
        const auto changes = RandomChanges(c.w, c.h, c.max_cost == 1, rng);
        ChangeSummary summary;
        absl::StatusOr<GridMap> next = ApplyChanges(map, changes, &summary);
        ASSERT_OK(next);
        ASSERT_OK(RepairDerived(options, map, summary, &*next, &reports));
        GridMap fresh =
            GridMap::FromCosts(c.w, c.h, next->CopyCosts()).value();
        ASSERT_OK(BuildDerived(options, &fresh, &reports));
        ExpectSameStructures(*next, fresh);
        map = *std::move(next);
      }
    }
  }
}

// The server repairs a table in the background from the last version that
// has one and the changed cells of every update since (several when updates
// come faster than repairs): that must equal a fresh build too.
TEST(MapRepairTest, JumpTableRepairedFromAnOlderVersionWithEveryChangeSince) {
  struct Case {
    const char* name;
    int32_t w, h;
    double blocked;
  } cases[] = {
      {"dense", 40, 33, 0.3},
      {"many tiles", 200, 150, 0.25},
      {"open rows of continue markers", 1100, 6, 0.001},
      {"open field", 300, 300, 0.002},
  };
  DerivedOptions without_table;
  for (const Case& c : cases) {
    for (uint32_t seed = 1; seed <= 3; ++seed) {
      SCOPED_TRACE(absl::StrCat(c.name, " seed ", seed));
      std::mt19937 rng(seed * 31 + static_cast<uint32_t>(c.w));
      GridMap base = MakeRandomMap({c.w, c.h, c.blocked, 1}, seed);
      ASSERT_OK(BuildJumpTable(&base));
      for (int round = 0; round < 6; ++round) {
        SCOPED_TRACE(absl::StrCat("round ", round));
        // 1 to 5 updates without a table, then one repair for them all.
        GridMap map = base;
        std::vector<CellRect> since;
        std::vector<DerivedReport> reports;
        for (int k = 1 + static_cast<int>(rng() % 5); k > 0; --k) {
          ChangeSummary summary;
          absl::StatusOr<GridMap> next =
              ApplyChanges(map, RandomChanges(c.w, c.h, true, rng), &summary);
          ASSERT_OK(next);
          ASSERT_OK(RepairDerived(without_table, map, summary, &*next, &reports));
          since.insert(since.end(), summary.rects.begin(), summary.rects.end());
          map = *std::move(next);
        }
        ASSERT_FALSE(HasJumpTable(map));
        ASSERT_OK(RepairJumpTable(base, since, &map));
        GridMap fresh = GridMap::FromCosts(c.w, c.h, map.CopyCosts()).value();
        ASSERT_OK(BuildJumpTable(&fresh));
        ExpectSameStructures(map, fresh);
        base = std::move(map);
      }
    }
  }
}

TEST(MapRepairTest, AnUpdateCopiesOnlyTheTilesItTouches) {
  GridMap map = MakeRandomMap({1000, 1000, 0.2, 1}, 3);
  ASSERT_OK(BuildJumpTable(&map));
  const std::vector<uint8_t> before = map.CopyCosts();
  Cell c{500, 500};
  ChangeSummary summary;
  GridMap next =
      ApplyChanges(map, {{c, {c.x + 1, c.y + 1}, uint8_t(map.cost(c) ? 0 : 1)}},
                   &summary)
          .value();
  ASSERT_OK(RepairJumpTable(map, summary.rects, &next));
  // One cost tile, a row and a column tile of bit lines, and the table
  // tiles of the rows the repair wrote: far from the 8 MB the table holds.
  const size_t copied = next.UnsharedTileBytes();
  EXPECT_GE(copied, 3 * GridMap::kTileBytes);
  EXPECT_LT(copied, 400 * GridMap::kTileBytes) << copied;
  EXPECT_LT(copied * 20, next.MemoryBytes());
  EXPECT_EQ(map.CopyCosts(), before);  // The old version reads as it was.
  EXPECT_NE(next.cost(c), map.cost(c));
}

// A square sent as its single cells is repaired as one rectangle (the
// repairs walk its lines once), and still equals a fresh build.
TEST(MapRepairTest, ASquareSentAsSingleCellsIsRepairedAsOneRectangle) {
  GridMap map = MakeRandomMap({150, 150, 0.2, 1}, 21);
  ASSERT_OK(BuildJumpTable(&map));
  std::vector<CellChange> cells;
  for (int32_t y = 40; y < 72; ++y) {
    for (int32_t x = 50; x < 82; ++x) {
      // Every cell flips, so every cell changes.
      cells.push_back({{x, y}, {x + 1, y + 1}, uint8_t(map.Passable({x, y}) ? 0 : 1)});
    }
  }
  ChangeSummary summary;
  GridMap next = ApplyChanges(map, cells, &summary).value();
  ASSERT_EQ(summary.rects.size(), 1u);
  EXPECT_TRUE(summary.rects[0] == (CellRect{{50, 40}, {82, 72}}));
  ASSERT_OK(RepairJumpTable(map, summary.rects, &next));
  GridMap fresh = GridMap::FromCosts(150, 150, next.CopyCosts()).value();
  ASSERT_OK(BuildJumpTable(&fresh));
  ExpectSameStructures(next, fresh);
  // Cells that do not make a rectangle stay apart.
  const std::vector<CellChange> apart = {{{0, 0}, {1, 1}, 0},
                                         {{2, 0}, {3, 1}, 0},
                                         {{1, 1}, {2, 2}, 0}};
  GridMap other = ApplyChanges(map, apart, &summary).value();
  size_t cells_covered = 0;
  for (const CellRect& r : summary.rects) {
    cells_covered += static_cast<size_t>((r.max.x - r.min.x) * (r.max.y - r.min.y));
  }
  EXPECT_EQ(cells_covered, static_cast<size_t>(summary.cells_changed));
}

TEST(MapRepairTest, ChangesThatChangeNothingShareEveryTile) {
  GridMap map = MakeRandomMap({300, 300, 0.2, 1}, 5);
  ASSERT_OK(BuildJumpTable(&map));
  ChangeSummary summary;
  const Cell c{10, 10};
  GridMap next =
      ApplyChanges(map, {{c, {c.x + 1, c.y + 1}, map.cost(c)}}, &summary)
          .value();
  EXPECT_EQ(summary.cells_changed, 0);
  EXPECT_TRUE(summary.rects.empty());
  ASSERT_OK(RepairJumpTable(map, summary.rects, &next));
  EXPECT_EQ(next.UnsharedTileBytes(), 0u);
}

TEST(MapRepairTest, LeavingAndRegainingUniformCostRebuildsBitLines) {
  GridMap map = MakeRandomMap({70, 70, 0.2, 1}, 8);
  ChangeSummary summary;
  Cell free{0, 0};
  while (!map.Passable(free)) ++free.x;
  const CellRect one{free, {free.x + 1, free.y + 1}};
  GridMap weighted = ApplyChanges(map, {{one.min, one.max, 3}}, &summary).value();
  EXPECT_FALSE(weighted.uniform_cost());
  GridMap back =
      ApplyChanges(weighted, {{one.min, one.max, 1}}, &summary).value();
  ASSERT_TRUE(back.uniform_cost());
  GridMap fresh = GridMap::FromCosts(70, 70, back.CopyCosts()).value();
  ExpectSameStructures(back, fresh);
}

}  // namespace
}  // namespace gridstar
