// gridstar's competition entries (classic_entry.cc, dynamic_entry.cc)
// called as the harnesses call them, without a startkit: on seeded random
// maps, for every exact engine an entry can run, every answer is checked as
// the harnesses' validators check it (each segment straight along one of
// the eight directions, through passable cells, no corner cut; the ends the
// query's) and its Euclidean length equal to A*'s from scratch; on the
// dynamic track after every step of a random patch sequence, against A* on
// a map built afresh from the patched cells.

#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gppc/gppc_api.h"
#include "gppc/gppc_searcher.h"
#include "gridstar/find_path.h"
#include "gtest/gtest.h"

namespace gridstar::gppc {
namespace {

constexpr const char* kEngines[] = {"auto",    "jps+",         "jps",
                                    "subgoal", "contraction",  "astar",
                                    "alt",     "bidirectional"};

std::vector<bool> RandomBits(int w, int h, double blocked, std::mt19937& rng) {
  std::vector<bool> bits(static_cast<size_t>(w) * h);
  std::bernoulli_distribution wall(blocked);
  for (size_t i = 0; i < bits.size(); ++i) bits[i] = !wall(rng);
  return bits;
}

// A*'s cost on a map built afresh, -1 when no path.
double Reference(const std::vector<bool>& bits, int w, int h, Cell s, Cell g) {
  std::vector<uint8_t> costs(bits.size());
  for (size_t i = 0; i < bits.size(); ++i) costs[i] = bits[i] ? 1 : 0;
  const GridMap map = *GridMap::FromCosts(w, h, costs);
  PathQuery q;
  q.start = s;
  q.goal = g;
  q.algorithm = Algorithm::kAStar;
  q.movement.diagonal = DiagonalPolicy::kNoCornerCutting;
  SearchContext context;
  absl::StatusOr<PathResult> r = FindPath(map, q, context);
  return r.ok() ? r->cost : -1;
}

// The harness's rules: the Euclidean length of a valid path from s to g, or
// -1 with a failure recorded.
template <typename Point>
double CheckedLength(const std::vector<bool>& bits, int w, int h,
                     const std::vector<Point>& path, Cell s, Cell g) {
  auto open = [&](int x, int y) {
    return x >= 0 && y >= 0 && x < w && y < h &&
           bits[static_cast<size_t>(y) * w + x];
  };
  EXPECT_EQ(path.front().x, s.x);
  EXPECT_EQ(path.front().y, s.y);
  EXPECT_EQ(path.back().x, g.x);
  EXPECT_EQ(path.back().y, g.y);
  double length = 0;
  for (size_t i = 0; i + 1 < path.size(); ++i) {
    const int x0 = path[i].x, y0 = path[i].y, x1 = path[i + 1].x,
              y1 = path[i + 1].y;
    const int dx = (x1 > x0) - (x1 < x0), dy = (y1 > y0) - (y1 < y0);
    const int n = std::max(std::abs(x1 - x0), std::abs(y1 - y0));
    if (dx != 0 && dy != 0 && std::abs(x1 - x0) != std::abs(y1 - y0)) {
      ADD_FAILURE() << "segment " << i << " is not along one of 8 directions";
      return -1;
    }
    for (int k = 0; k <= n; ++k) {
      const int x = x0 + k * dx, y = y0 + k * dy;
      const bool corners =
          k == n || dx == 0 || dy == 0 || (open(x + dx, y) && open(x, y + dy));
      if (!open(x, y) || !corners) {
        ADD_FAILURE() << "segment " << i << " crosses (" << x << ", " << y
                      << ") or cuts its corner";
        return -1;
      }
    }
    length += std::hypot(x1 - x0, y1 - y0);
  }
  return length;
}

Cell RandomOpen(const std::vector<bool>& bits, int w, int h,
                std::mt19937& rng) {
  for (;;) {
    const Cell c{static_cast<int32_t>(rng() % w),
                 static_cast<int32_t>(rng() % h)};
    if (bits[static_cast<size_t>(c.y) * w + c.x]) return c;
  }
}

TEST(GppcEntryTest, ClassicAnswersAreValidAndOptimalOnEveryEngine) {
  for (const char* engine : kEngines) {
    setenv("GRIDSTAR_GPPC_ALGORITHM", engine, 1);
    for (uint32_t seed = 1; seed <= 4; ++seed) {
      SCOPED_TRACE(absl::StrCat(engine, " seed ", seed));
      std::mt19937 rng(seed);
      const int w = 30 + static_cast<int>(rng() % 50),
                h = 20 + static_cast<int>(rng() % 50);
      const std::vector<bool> bits = RandomBits(w, h, 0.3, rng);
      void* data = PrepareForSearch(bits, w, h, "");
      EXPECT_EQ(GetName(), absl::StrCat("gridstar-", engine));
      for (int q = 0; q < 40; ++q) {
        const Cell s = RandomOpen(bits, w, h, rng),
                   g = RandomOpen(bits, w, h, rng);
        std::vector<GPPC::xyLoc> path;
        ASSERT_TRUE(GetPath(data, {int16_t(s.x), int16_t(s.y)},
                            {int16_t(g.x), int16_t(g.y)}, path));
        const double best = Reference(bits, w, h, s, g);
        if (best < 0) {
          EXPECT_TRUE(path.empty());
          continue;
        }
        ASSERT_FALSE(path.empty());
        EXPECT_NEAR(CheckedLength(bits, w, h, path, s, g), best, 1e-6);
      }
      delete static_cast<GppcSearcher*>(data);  // The track frees nothing.
    }
  }
  unsetenv("GRIDSTAR_GPPC_ALGORITHM");
}

// Bits of a patch as the dynamic harness packs them (row-major, least
// significant bit first).
std::vector<uint8_t> Pack(const std::vector<bool>& bits) {
  std::vector<uint8_t> out((bits.size() + 7) / 8, 0);
  for (size_t i = 0; i < bits.size(); ++i) {
    if (bits[i]) out[i >> 3] |= uint8_t(1u << (i & 7));
  }
  return out;
}

TEST(GppcEntryTest, DynamicAnswersStayOptimalAfterEveryPatch) {
  for (const char* engine : kEngines) {
    setenv("GRIDSTAR_GPPC_ALGORITHM", engine, 1);
    for (uint32_t seed = 1; seed <= 3; ++seed) {
      SCOPED_TRACE(absl::StrCat(engine, " seed ", seed));
      std::mt19937 rng(seed);
      const int w = 40 + static_cast<int>(rng() % 40),
                h = 30 + static_cast<int>(rng() % 40);
      std::vector<bool> bits = RandomBits(w, h, 0.25, rng);
      std::vector<uint8_t> packed = Pack(bits);
      void* data = gppc_search_init(
          gppc_patch{packed.data(), uint16_t(w), uint16_t(h), {0, 0}}, "");
      EXPECT_EQ(std::string(gppc_get_name()),
                absl::StrCat("gridstar-", engine));
      for (int step = 0; step < 15; ++step) {
        SCOPED_TRACE(absl::StrCat("step ", step));
        // One or two patches: a rectangle of fresh random cells.
        std::vector<gppc_patch> patches;
        std::vector<std::vector<uint8_t>> storage;
        for (int p = 0; p < 1 + static_cast<int>(rng() % 2); ++p) {
          const int pw = 1 + static_cast<int>(rng() % 10),
                    ph = 1 + static_cast<int>(rng() % 10);
          const int px = static_cast<int>(rng() % (w - pw + 1)),
                    py = static_cast<int>(rng() % (h - ph + 1));
          const std::vector<bool> cells = RandomBits(pw, ph, 0.4, rng);
          for (int y = 0; y < ph; ++y) {
            for (int x = 0; x < pw; ++x) {
              bits[static_cast<size_t>(py + y) * w + px + x] =
                  cells[static_cast<size_t>(y) * pw + x];
            }
          }
          storage.push_back(Pack(cells));
          patches.push_back(gppc_patch{storage.back().data(),
                                       uint16_t(pw),
                                       uint16_t(ph),
                                       {uint16_t(px), uint16_t(py)}});
        }
        gppc_map_change(data, patches.data(),
                        static_cast<uint32_t>(patches.size()));
        for (int q = 0; q < 8; ++q) {
          const Cell s = RandomOpen(bits, w, h, rng),
                     g = RandomOpen(bits, w, h, rng);
          const gppc_path got =
              gppc_get_path(data, {uint16_t(s.x), uint16_t(s.y)},
                            {uint16_t(g.x), uint16_t(g.y)});
          EXPECT_EQ(got.incomplete, 0);
          const double best = Reference(bits, w, h, s, g);
          if (best < 0) {
            EXPECT_EQ(got.length, 0u);
            continue;
          }
          ASSERT_GT(got.length, 0u);
          const std::vector<gppc_point> path(got.path, got.path + got.length);
          EXPECT_NEAR(CheckedLength(bits, w, h, path, s, g), best, 1e-6);
        }
      }
      gppc_free_data(data);
    }
  }
  unsetenv("GRIDSTAR_GPPC_ALGORITHM");
}

}  // namespace
}  // namespace gridstar::gppc
