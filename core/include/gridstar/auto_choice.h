// AutoChoice: which exact engine Algorithm::kAuto runs on a map, chosen by
// timing the candidates on the map itself.
//
// The fastest exact engine depends on the map: jps+ where jump points are
// sparse, online jps or the subgoal graph where they are dense (mazes,
// rooms, random obstacles), A* with landmarks or bidirectional A* on
// terrain. No fixed rule gets every map right, so
// MeasureAutoChoice times every engine that applies on a sample of random
// queries of the map and keeps the fastest; the map carries the result
// (SetAutoChoice, below), and ResolveAlgorithm (find_path.h) runs it for
// kAuto queries under the policy it was measured for, wherever it still applies
// (jps+ needs the table, subgoal its graph, alt landmarks that reach the
// goal, jps a uniform map): elsewhere kAuto's documented rule decides as
// before.
//
// The same measurement gives group searches their cost model: a flow field's
// time per cell it reaches plus following it per unit, against splicing's
// time per cell of the units' distance to the goal (timed on a group of the
// sample, and scaled by how much more a group's paths wind than the timed
// group's did), so that FindGroupPaths'
// kAuto method follows a field exactly when sweeping the map is expected to
// cost less than splicing the units.
//
// Only exact engines are candidates (astar, alt, bidirectional, jps, jps+,
// subgoal):
// kAuto never answers with a bounded-suboptimal path (hpa, weighted) nor an
// any-angle one (theta).
//
// Thread-safety: MeasureAutoChoice reads the map only (it may be shared) and
// uses its own search context. An AutoChoice is immutable once made.

#ifndef GRIDSTAR_AUTO_CHOICE_H_
#define GRIDSTAR_AUTO_CHOICE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/strings/string_view.h"
#include "gridstar/types.h"

namespace gridstar {

class GridMap;

// The name of auto's measured choice as a precomputed structure: how
// DerivedOptions asks for it, and how MapInfo.derived names it.
inline constexpr absl::string_view kAutoChoiceName = "auto_choice";

// One engine's part in a measurement.
struct AutoCandidate {
  Algorithm algorithm = Algorithm::kAStar;
  // Mean microseconds per sampled query (whole FindPath calls, the faster
  // of two runs each), over the queries it ran.
  double mean_us = 0;
  // Timed queries it ran.
  int queries = 0;
  // Left the race: on some query both its runs took more than
  // kAutoDropFactor times the leader's (they were cut off by a deadline).
  bool dropped = false;
};

// A candidate slower than this many times the fastest on one query leaves
// the race (so that A* on a huge world costs a few jps searches, not
// seconds).
inline constexpr double kAutoDropFactor = 3.0;

struct AutoChoice {
  // The policy the queries were measured under; kAuto queries under another
  // policy follow the rule.
  DiagonalPolicy policy = DiagonalPolicy::kNoCornerCutting;
  // The engine with the least mean among those not dropped (should every
  // one have been dropped: the one that ran the most queries).
  Algorithm algorithm = Algorithm::kAStar;
  // Its mean microseconds per query.
  double search_us = 0;
  // A flow field's microseconds per cell reached (one field to a sampled
  // goal, under `policy`); 0 when not measured.
  double flow_us_per_cell = 0;
  // FindGroupPaths to that goal with 16 of the sample's starts, the legs
  // on `algorithm`: splicing's microseconds per cell of octile distance
  // from the units to the goal (a unit's legs cost about in proportion to
  // its distance), and following the field's microseconds per unit beyond
  // the field itself. 0 when not measured (the field was cut off: a huge
  // world).
  double splice_us_per_cell = 0;
  double follow_us_per_unit = 0;
  // How far the timed group's paths wound: the units' summed path cost over
  // the cost of their summed octile distances (>= 1). A group whose
  // representative's path winds more is priced up by the ratio of the two
  // (group_paths.cc). 0 when not measured.
  double splice_detour = 0;
  // Every candidate, in the order they were listed.
  std::vector<AutoCandidate> candidates;
  // Timed queries (each run by every candidate still in the race).
  int queries = 0;
  // Wall time the whole measurement took.
  double micros = 0;
};

struct AutoMeasureOptions {
  DiagonalPolicy policy = DiagonalPolicy::kNoCornerCutting;
  // Random queries to time, after one untimed warm-up query. 1..1000.
  // (24, the default before commit e984dce, left close calls to the sample: on
  // dao/brc202d subgoal and jps+ came out within 1% and subgoal was kept,
  // while 100 or 400 queries, like the scenario, put jps+ 25% ahead.)
  int queries = 96;
  // The measurement stops after the query that passes this much wall time
  // (the queries timed so far decide); 0 = no limit.
  double max_micros = 500'000;
  // Also time a flow field and a group (for FindGroupPaths' kAuto method).
  bool flow_field = true;
  // Seed of the query sample.
  uint64_t seed = 1;
};

// The engines kAuto may choose among on `map` under `policy` (each engine
// says whether it is one: core/src/engines/engine.h), in the order a
// measurement lists them: subgoal (when the map has its graph), jps+ (when
// it has a jump table) and jps (uniform maps under kNoCornerCutting), alt
// (when its landmarks were built for `policy`), bidirectional, astar.
std::vector<Algorithm> AutoCandidatesFor(const GridMap& map,
                                         DiagonalPolicy policy);

// Times AutoCandidatesFor(map, options.policy) on options.queries random
// queries (both ends passable and in one component, start != goal). Each
// query is run first by the leader so far, untimed (it warms the caches for
// that part of the map and sets the query's deadline: kAutoDropFactor times
// its time, at least 50 us), then by every candidate still in the race,
// timed twice in a row (the faster run counts), in an order rotating from
// query to query; a candidate whose runs both miss the deadline leaves the
// race. Returns a choice of
// kAStar with no candidates timed when the map has no two connected
// passable cells (nothing to measure).
AutoChoice MeasureAutoChoice(const GridMap& map,
                             const AutoMeasureOptions& options);

// The measured choice attached to a map (in auto's slot); kept by every new
// version of the map (ApplyChanges carries it).
void SetAutoChoice(GridMap* map, std::shared_ptr<const AutoChoice> choice);
// Null when not measured (kAuto follows its rule).
const AutoChoice* AutoChoiceOf(const GridMap& map);
size_t AutoChoiceBytes(const GridMap& map);

}  // namespace gridstar

#endif  // GRIDSTAR_AUTO_CHOICE_H_
