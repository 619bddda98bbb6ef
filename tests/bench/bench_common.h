// What gridstar-bench's modes share: its options, the usage message and
// small statistics helpers; the modes other than the query run
// (bench_modes.cc).
//
// Single-threaded tool code.

#ifndef GRIDSTAR_TESTS_BENCH_BENCH_COMMON_H_
#define GRIDSTAR_TESTS_BENCH_BENCH_COMMON_H_

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gridstar/find_path.h"
#include "gridstar/grid_map.h"
#include "gridstar/group_paths.h"
#include "gridstar/scenario.h"

namespace gridstar::bench {

struct Options {
  std::string map, scen, csv;
  PathQuery query;
  int landmarks = 0;   // --landmarks: built for alt and auto.
  bool subgoal_graph = false;  // --subgoal_graph 1: built for auto.
  bool contraction = false;    // --contraction 1: built for auto.
  // --reference: an exact algorithm for the optimum where the scenario has
  // none (kAuto's value here means none given).
  bool has_reference = false;
  Algorithm reference = Algorithm::kAStar;
  int flow = 0;        // --flow N: flow field vs one search, N longest queries.
  int group = 0;       // --group U: a group of U units vs 20 searches.
  int make_terrain = 0;  // --make_terrain SIZE: write a terrain map + scen.
  int updates = 0;       // --updates N: time N updates of the map instead.
  int update_side = 1;   // --update_side K: each a K x K square.
  std::string render;     // --render OUT: picture of one traced query.
  int render_query = -1;  // --render_query I (default: the last query).
  int cell_pixels = 0;    // --cell_pixels K for --render (0 = automatic).
  int replan = 0;         // --replan N: D* Lite vs fresh searches.
  int replan_cells = 1;   // --replan_cells K: cells per change.
  int agent_size = 0;     // --agent_size K: size K against size 1.
  uint64_t areas = 0;     // --areas MASK (0: the map's default filter).
  // --auto_measure Q: with --algo auto, time the engines on Q random
  // queries first (auto_choice.h) as the server does at registration;
  // 0 = auto's rule.
  int auto_measure = 96;
  GroupMethod group_method = GroupMethod::kAuto;  // --group_method.
  uint32_t seed = 1;
  int queries = 500;
  std::string out;
  int tiles = 0;  // --tiles N: draw N map-view tiles (RenderTilePng).
  int progressive = 0;  // --progressive N: capped, then whole, vs whole.
};

// Prints the error and the usage; returns the exit status 2.
int Usage(const std::string& error);

// With --algo auto and --auto_measure Q > 0: measures what auto runs on
// *map (after its table and landmarks are built), sets it, prints it.
void MeasureAuto(const Options& o, GridMap* map);

inline double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  const size_t k =
      std::min(v.size() - 1, static_cast<size_t>(p * (v.size() - 1) + 0.5));
  std::nth_element(v.begin(), v.begin() + k, v.end());
  return v[k];
}

// The indices of the n queries with the longest optimal lengths.
inline std::vector<size_t> Longest(const std::vector<ScenarioQuery>& scen, int n) {
  std::vector<size_t> order(scen.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return scen[a].optimal > scen[b].optimal;
  });
  order.resize(std::min(order.size(), static_cast<size_t>(n)));
  return order;
}

inline double MicrosSince(absl::Time t0) {
  return absl::ToDoubleMicroseconds(absl::Now() - t0);
}

// --make_terrain: writes the terrain map and scenario.
int MakeTerrain(const Options& o);
// --updates N: times N updates of `map`.
int RunUpdates(const Options& o, GridMap map);
// --tiles N: N tiles of 256 x 256 pixels at random places and zooms, as a
// console's map view asks for them; per-tile time percentiles beside the
// same-run yardstick of encoding a blank tile.
int RunTiles(const Options& o, const GridMap& map);
// --flow N: flow fields against single searches.
// --progressive N (bench_modes.cc).
int RunProgressive(const Options& o, const GridMap& map,
                   const std::vector<ScenarioQuery>& scen);
int RunFlow(const Options& o, const GridMap& map,
            const std::vector<ScenarioQuery>& scen);
// --replan N: D* Lite repairs against fresh searches (bench_replan.cc).
int RunReplan(const Options& o, const GridMap& map,
              const std::vector<ScenarioQuery>& scen);
// --agent_size K [--areas MASK]: agent maps (bench_agents.cc).
int RunAgents(const Options& o, const std::vector<ScenarioQuery>& scen);
// --group U: group paths against independent searches.
int RunGroup(const Options& o, const GridMap& map,
             const std::vector<ScenarioQuery>& scen);

}  // namespace gridstar::bench

#endif  // GRIDSTAR_TESTS_BENCH_BENCH_COMMON_H_
