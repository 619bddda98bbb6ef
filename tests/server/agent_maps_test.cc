// The server's agent maps (agents/agent_maps.h, agents/map_view.h) through
// the registry: after every step of seeded random sequences of cost and
// area updates, each version's default view and every agent map it holds
// equal a from-scratch build on that version's content, with a directory
// store whose reload gives the same content. Then the cache's bounds
// (pinned classes kept, the least recently used dropped) and the codec's
// round trip of areas, area updates and files written before areas.
#include "agents/agent_maps.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gridstar/agents.h"
#include "gridstar/engines/alt.h"
#include "gridstar/engines/hpa.h"
#include "gridstar/engines/jps.h"
#include "gridstar/engines/subgoal.h"
#include "gridstar/find_path.h"
#include "gridstar/map_update.h"
#include "gridstar/search_context.h"
#include "gtest/gtest.h"
#include "maps/map_registry.h"
#include "store/directory_store.h"
#include "store/map_codec.h"
#include "testing/reference.h"
#include "testing/status_matchers.h"

namespace gridstar::server {
namespace {

std::string Field(size_t i) { return absl::StrCat("changes[", i, "]"); }

// Every cell's costs and the component partition.
void ExpectSameMap(const GridMap& got, const GridMap& want) {
  ASSERT_EQ(got.CopyCosts(), want.CopyCosts());
  ASSERT_TRUE(testing::SamePartition(got, want));
}

TEST(AgentMapsTest, ViewsAndAgentMapsEqualAFreshBuildAfterEveryUpdate) {
  const std::string dir =
      absl::StrCat(::testing::TempDir(), "/gsagentmaps.", getpid());
  ASSERT_EQ(
      std::system(absl::StrCat("rm -rf ", dir, " && mkdir -p ", dir).c_str()),
      0);
  std::mt19937 rng(424242);
  int tables_checked = 0;
  int alt_checked = 0;
  int hpa_checked = 0;
  int graphs_checked = 0;
  for (int run = 0; run < 6; ++run) {
    SCOPED_TRACE(absl::StrCat("run ", run));
    MapRegistry registry(std::make_unique<DirectoryStore>(dir), {});
    testing::RandomMapSpec spec;
    spec.width = 30 + run * 7;
    spec.height = 25 + run * 3;
    spec.max_cost = run % 2 == 0 ? 1 : 6;
    const GridMap terrain = testing::MakeRandomMap(spec, rng());
    // Run 0 starts without areas: its first area update adds them.
    std::vector<uint8_t> areas(static_cast<size_t>(terrain.cell_count()));
    if (run != 0) {
      for (uint8_t& a : areas) a = static_cast<uint8_t>(rng() % 4);
    }
    MapOptions options;
    options.default_areas = run % 3 == 0 ? kAllAreas : 0b0111;
    options.max_agent_size = 1 + run % 3;
    options.Set("jump_table", (run % 2 == 0) ? 1 : 0);
    options.Set("landmarks", run % 2 == 1 ? 2 : 0);  // On the terrain runs.
    options.Set("hpa", (run % 3 != 1) ? 1 : 0);
    options.Set("subgoal_graph", (run % 2 == 0) ? 1 : 0);
    const std::string id = absl::StrCat("m", run);
    ASSERT_OK(registry.Register(id, terrain, options, false, areas));
    // Two classes asked for, so that their maps are kept and repaired.
    AgentClass boat;
    boat.areas = 0b0100;
    AgentClass wary;
    wary.areas = 0b1011;
    wary.area_costs[1] = 3;
    wary.size = 2;
    for (const AgentClass& c : {boat, wary}) {
      ASSERT_OK(registry.Find(id)->AgentMapFor(c));
    }
    std::vector<uint8_t> costs = terrain.CopyCosts();
    for (int step = 0; step < 25; ++step) {
      SCOPED_TRACE(absl::StrCat("step ", step));
      std::vector<CellChange> changes;
      std::vector<AreaChange> area_changes;
      const int n = 1 + static_cast<int>(rng() % 3);
      for (int i = 0; i < n; ++i) {
        const int32_t x = static_cast<int32_t>(rng() % spec.width);
        const int32_t y = static_cast<int32_t>(rng() % spec.height);
        const int32_t side = rng() % 4 == 0 ? 4 : 1;
        const Cell max{std::min(spec.width, x + side),
                       std::min(spec.height, y + side)};
        const uint8_t cost =
            rng() % 3 == 0 ? 0
                           : static_cast<uint8_t>(1 + rng() % spec.max_cost);
        changes.push_back({{x, y}, max, cost});
        // Run 0's first update brings its first areas.
        if (rng() % 2 == 0 || (run == 0 && step == 0)) {
          area_changes.push_back(
              {{x, y}, max, static_cast<uint8_t>(rng() % 4)});
        }
      }
      ASSERT_OK(registry.Update(id, changes, 0, Field, area_changes));
      ApplyChangesToCosts(spec.width, changes, absl::MakeSpan(costs));
      ApplyAreaChanges(spec.width, area_changes, absl::MakeSpan(areas));
      // The background rebuild of landmarks (and of what agent maps wait
      // for: landmarks, subgoal graphs), as the service runs it.
      if (registry.ClaimRebuild(id)) {
        ASSERT_OK(registry.RebuildPending(id));
      }
      std::shared_ptr<const MapSnapshot> s = registry.Find(id);
      if (step == 0) {
        for (const AgentClass& c : {boat, wary}) ASSERT_OK(s->AgentMapFor(c));
      }
      const GridMap fresh_terrain =
          *GridMap::FromCosts(spec.width, spec.height, costs);
      ASSERT_EQ(s->Terrain().CopyCosts(), costs);
      AgentClass by_default;
      by_default.areas = options.default_areas;
      absl::StatusOr<GridMap> view =
          BuildAgentMap(fresh_terrain, areas, by_default);
      ASSERT_OK(view);
      ExpectSameMap(s->map, *view);
      // The pinned sizes and the two classes asked for (asked again when
      // run 0's first areas made every class's key new).
      EXPECT_EQ(s->agent_maps->count(),
                static_cast<size_t>(options.max_agent_size - 1) + 2);
      AgentClass pinned = by_default;
      pinned.size = options.max_agent_size;
      for (const AgentClass& c : {boat, wary, pinned}) {
        absl::StatusOr<std::shared_ptr<const GridMap>> held =
            s->AgentMapFor(c);
        ASSERT_OK(held);
        if (*held == nullptr) continue;  // The default class: the view.
        absl::StatusOr<GridMap> want = BuildAgentMap(fresh_terrain, areas, c);
        ASSERT_OK(want);
        ExpectSameMap(**held, *want);
        // With the map's jump_table option, a uniform agent map carries
        // its table, repaired: equal to a fresh build's.
        ASSERT_EQ(HasJumpTable(*(*held)),
                  options.Asks("jump_table") && want->uniform_cost());
        if (want->uniform_cost() && options.Asks("jump_table")) {
          ASSERT_OK(BuildJumpTable(&*want));
          ASSERT_EQ(JumpTableBytes(*(*held)), JumpTableBytes(*want));
          ASSERT_TRUE(JumpTableEquals(*(*held), *want));
          ++tables_checked;
        }
        // With the hpa option, every agent map carries the abstraction
        // under the class's policy, repaired: equal to a fresh build's.
        if (options.Asks("hpa")) {
          ASSERT_TRUE(HasHpa(*(*held)));
          ASSERT_EQ(HpaPolicy(*(*held)),
                    AgentPolicy(options.default_diagonal, c.size));
          GridMap fresh = *want;
          ASSERT_OK(BuildHpa(&fresh, HpaPolicy(*(*held))));
          ASSERT_TRUE(HpaEquals(*(*held), fresh));
          ++hpa_checked;
        }
        // With subgoal_graph, a uniform agent map carries its graph after
        // the background rebuild: equal to a fresh build's.
        ASSERT_EQ(HasSubgoalGraph(*(*held)),
                  options.Asks("subgoal_graph") && want->uniform_cost());
        if (HasSubgoalGraph(*(*held))) {
          GridMap fresh = *want;
          ASSERT_OK(BuildSubgoalGraph(&fresh));
          ASSERT_TRUE(SubgoalGraphEquals(*(*held), fresh));
          ++graphs_checked;
        }
        // With landmarks asked for, every agent map has them after the
        // rebuild, under the class's policy, and alt stays exact on it.
        if (options.CountOf("landmarks") > 0 && want->passable_count() > 0) {
          ASSERT_EQ(LandmarkCount(*(*held)), options.CountOf("landmarks"));
          const DiagonalPolicy policy =
              AgentPolicy(options.default_diagonal, c.size);
          ASSERT_EQ(LandmarkPolicy(*(*held)), policy);
          SearchContext context;
          // From a landmark (in the largest component) to cells it reaches.
          for (int tries = 0; tries < 40; ++tries) {
            PathQuery q;
            q.start = LandmarkCells(*(*held))[tries % 2];
            q.goal = {static_cast<int32_t>(rng() % spec.width),
                      static_cast<int32_t>(rng() % spec.height)};
            if (!want->Connected(q.start, q.goal)) continue;
            q.movement.diagonal = policy;
            q.algorithm = Algorithm::kAlt;
            absl::StatusOr<PathResult> alt = FindPath(**held, q, context);
            q.algorithm = Algorithm::kAStar;
            absl::StatusOr<PathResult> exact = FindPath(*want, q, context);
            ASSERT_OK(alt);
            ASSERT_OK(exact);
            ASSERT_NEAR(alt->cost, exact->cost, 1e-6 * (1 + exact->cost));
            ++alt_checked;
          }
        }
      }
    }
    // The store gives back the same content.
    MapRegistry again(std::make_unique<DirectoryStore>(dir), {});
    std::vector<std::string> errors;
    ASSERT_OK(again.LoadAll(&errors));
    EXPECT_TRUE(errors.empty());
    std::shared_ptr<const MapSnapshot> loaded = again.Find(id);
    ASSERT_NE(loaded, nullptr);
    EXPECT_EQ(loaded->Terrain().CopyCosts(), costs);
    EXPECT_EQ(std::vector<uint8_t>(loaded->AreaSpan().begin(),
                                   loaded->AreaSpan().end()),
              areas);
    EXPECT_EQ(loaded->options, options);
    ExpectSameMap(loaded->map, registry.Find(id)->map);
  }
  EXPECT_GT(tables_checked, 50);
  EXPECT_GT(alt_checked, 100);
  EXPECT_GT(hpa_checked, 100);
  EXPECT_GT(graphs_checked, 20);
  std::printf(
      "checked %d tables, %d alt paths, %d HPA* abstractions, %d "
      "subgoal graphs\n",
      tables_checked, alt_checked, hpa_checked, graphs_checked);
}

TEST(AgentMapsTest, PinnedSizesCountAgainstTheDerivedBytesLimit) {
  MapRegistry::Limits limits;
  const GridMap map = testing::MakeRandomMap({}, 3);
  limits.max_derived_bytes = 2 * map.MemoryBytes();
  MapRegistry registry(nullptr, limits);
  MapOptions options;
  options.max_agent_size = 4;  // Three maps: more than twice the map.
  EXPECT_TRUE(testing::StatusIs(
      registry.Register("m", map, options, false),
      absl::StatusCode::kResourceExhausted, "max_agent_size: 3 agent maps"));
  EXPECT_EQ(registry.Find("m"), nullptr);
  options.max_agent_size = 3;
  ASSERT_OK(registry.Register("m", map, options, false));
  EXPECT_EQ(registry.Find("m")->agent_maps->count(), 2u);
}

TEST(AgentMapsTest, PinnedClassesStayTheLeastRecentlyUsedGo) {
  const GridMap map = testing::MakeRandomMap({}, 7);
  AgentMaps maps(2);
  AgentClass pinned;
  pinned.size = 3;
  ASSERT_OK(maps.Pin(pinned, map, {}));
  std::vector<AgentClass> classes(4);
  for (int i = 0; i < 4; ++i) {
    classes[i].size = 1;
    classes[i].area_costs[0] = 1 + i;
  }
  double micros = -1;
  ASSERT_OK(maps.Get(classes[0], map, {}, &micros));
  EXPECT_GE(micros, 0);
  ASSERT_OK(maps.Get(classes[1], map, {}));
  ASSERT_OK(maps.Get(classes[0], map, {}, &micros));  // Used again.
  EXPECT_EQ(micros, 0);                               // Held.
  ASSERT_OK(maps.Get(classes[2], map, {}));           // Drops classes[1].
  EXPECT_EQ(maps.count(), 3u);
  ASSERT_OK(maps.Get(classes[0], map, {}, &micros));
  EXPECT_EQ(micros, 0);
  ASSERT_OK(maps.Get(classes[1], map, {}, &micros));  // Built again.
  EXPECT_GE(micros, 0);
  ASSERT_OK(maps.Get(pinned, map, {}, &micros));
  EXPECT_EQ(micros, 0);
  EXPECT_GT(maps.bytes(), 0u);
}

TEST(AgentMapsTest, CodecKeepsAreasAndAreaUpdatesAndReadsOldFiles) {
  StoredMap m;
  m.id = "a";
  m.version = 3;
  m.width = 3;
  m.height = 2;
  m.costs = {1, 1, 0, 2, 2, 2};
  // Without agent fields the file is as before areas existed.
  const std::string plain = codec::EncodeMapFile(m);
  absl::StatusOr<StoredMap> back = codec::DecodeMapFile(plain);
  ASSERT_OK(back);
  EXPECT_TRUE(back->areas.empty());
  EXPECT_EQ(back->options.default_areas, kAllAreas);
  EXPECT_EQ(back->options.max_agent_size, 1);
  m.areas = {0, 2, 0, 1, 1, 3};
  m.options.default_areas = 0b11;
  m.options.max_agent_size = 8;
  back = codec::DecodeMapFile(codec::EncodeMapFile(m));
  ASSERT_OK(back);
  EXPECT_EQ(back->areas, m.areas);
  EXPECT_EQ(back->options, m.options);
  EXPECT_EQ(back->costs, m.costs);
  // An area id out of range is corruption.
  StoredMap corrupt = m;
  corrupt.areas[5] = 64;
  EXPECT_TRUE(testing::StatusIs(
      codec::DecodeMapFile(codec::EncodeMapFile(corrupt)),
      absl::StatusCode::kDataLoss, "area id"));
  // Update records carry area changes after the cost changes.
  StoredUpdate u;
  u.id = "a";
  u.version = 4;
  u.changes = {{{0, 0}, {1, 1}, 5}};
  u.area_changes = {{{1, 0}, {3, 2}, 7}};
  StoredUpdate read;
  ASSERT_OK(codec::DecodeUpdateRecord(codec::EncodeUpdateRecord(u), &read));
  EXPECT_EQ(read.changes, u.changes);
  EXPECT_EQ(read.area_changes, u.area_changes);
  size_t valid = 0;
  ASSERT_OK(codec::ReplayLog(codec::EncodeUpdateRecord(u), &m, &valid));
  EXPECT_EQ(m.version, 4u);
  EXPECT_EQ(m.costs[0], 5);
  EXPECT_EQ(m.areas, (std::vector<uint8_t>{0, 7, 7, 1, 7, 7}));
  // A record without area changes reads as before.
  u.area_changes.clear();
  ASSERT_OK(codec::DecodeUpdateRecord(codec::EncodeUpdateRecord(u), &read));
  EXPECT_TRUE(read.area_changes.empty());
}

}  // namespace
}  // namespace gridstar::server
