// FindGroupPaths: paths for a group of units by path splicing.
//
// One search finds a shared path P from a representative start (the medoid
// of the units' starts, by octile distance) to the representative goal (the
// shared goal, or the representative unit's own). Every other unit then
// searches only from its start to the point of P that looks cheapest to join
// (octile estimate to the point plus P's cost from there on), follows P, and,
// when it has its own goal, leaves P where the rest looks cheapest and
// searches to its goal. Loops where a leg doubles back over P are cut out.
// A unit whose join or leave point is further than max_splice_distance (or
// that lies in another component than P) gets its own search instead.
//
// Spliced paths are legal paths from the unit's start to its goal but not
// always optimal; with report_overhead each spliced unit is also searched
// on its own and the relative excess cost is reported.
//
// Flow fields: with one shared goal, a large group where searches are dear
// (or any group when the caller holds the goal's field, e.g. from a cache)
// is answered from one flow field instead (flow_field.h): one Dijkstra from the goal, then every
// unit follows it, so every path is optimal and none is spliced.
//
// Thread-safety: as FindPath; one SearchContext per calling thread.
#ifndef GRIDSTAR_GROUP_PATHS_H_
#define GRIDSTAR_GROUP_PATHS_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "gridstar/flow_field.h"
#include "gridstar/grid_map.h"
#include "gridstar/path_query.h"
#include "gridstar/query.h"
#include "gridstar/search_context.h"
#include "gridstar/types.h"

namespace gridstar {

inline constexpr int32_t kDefaultSpliceDistance = 64;
inline constexpr int32_t kMaxSpliceDistance = 8192;
inline constexpr int32_t kDefaultFlowFieldMinUnits = 64;

enum class GroupMethod : uint8_t {
  // A flow field when the goal is shared and either a matching field is
  // given, or the group has at least flow_field_min_units units and a field
  // is expected to cost less than the searches: on a map with a measured
  // AutoChoice for the query's policy (auto_choice.h), when the field's
  // measured time per cell times the passable cells is below the units
  // times the legs' engine's measured time per query; on a map without one,
  // when the algorithm does not resolve to jump point search (whose
  // searches are cheap enough that splicing wins). Else splicing.
  kAuto = 0,
  kSplice = 1,
  // A flow field whenever the goal is shared; splicing otherwise.
  kFlowField = 2,
};

inline constexpr GroupMethod kAllGroupMethods[] = {
    GroupMethod::kAuto, GroupMethod::kSplice, GroupMethod::kFlowField};

// "auto", "splice", "flow-field" (types.h: canonical names); ParseGroupMethod
// takes every spelling of types.h's vocabulary and
// returns InvalidArgument (listing them) for any other.
absl::string_view GroupMethodName(GroupMethod method);
absl::StatusOr<GroupMethod> ParseGroupMethod(absl::string_view name);

struct GroupQuery {
  std::vector<Cell> starts;
  // One goal shared by every unit, or exactly one per unit.
  std::vector<Cell> goals;
  // Any algorithm but kBaseline (a yardstick, not for serving).
  Algorithm algorithm = Algorithm::kAStar;
  double weight = 1.5;
  MovementModel movement;
  // Octile distance in cells, in [1, kMaxSpliceDistance].
  int32_t max_splice_distance = kDefaultSpliceDistance;
  bool report_overhead = false;
  GroupMethod method = GroupMethod::kAuto;
  // Group size from which kAuto takes a flow field, at least 1.
  int32_t flow_field_min_units = kDefaultFlowFieldMinUnits;
  // A complete field already computed for the shared goal under `movement`
  // on this map (a server's cache), or null. Not owned; must outlive the
  // call. Used instead of computing one.
  const FlowField* flow_field = nullptr;
  // The deadline and cancellation bound the whole call: units not finished
  // when it passes get StopStatus's DeadlineExceeded (or Cancelled).
  // max_expansions bounds each search of the group: a unit whose search runs
  // out gets ResourceExhausted.
  SearchBudget budget;
};

struct UnitPath {
  // InvalidArgument naming starts[i] / goals[i] for a bad end, NotFound when
  // no path joins them, StopStatus's code when the budget ran out before this
  // unit was done.
  absl::Status status;
  // cells, cost, expanded (summed over this unit's searches), start, goal.
  PathResult path;
  bool spliced = false;
  // With report_overhead, for spliced units: the optimal cost.
  double independent_cost = 0;
};

struct GroupResult {
  std::vector<UnitPath> units;  // One per start, in order.
  // Searches run to build the answer (not those of report_overhead).
  uint64_t searches = 0;
  uint32_t spliced_units = 0;
  // With report_overhead: mean and max of cost / independent cost - 1 over
  // the spliced units.
  double mean_cost_overhead = 0;
  double max_cost_overhead = 0;
  // True when the units followed a flow field; the field, when this call
  // computed it (complete ones only, so a caller may cache it).
  bool used_flow_field = false;
  std::shared_ptr<const FlowField> computed_flow_field;
};

// Returns InvalidArgument, naming the field, for a malformed group: no
// starts, a goal count other than 1 or starts.size(), kBaseline, a splice
// distance, weight, method or flow_field_min_units out of range. Per-unit problems go in that unit's
// status. ResourceExhausted when the map exceeds the context's capacity.
absl::Status FindGroupPaths(const GridMap& map, const GroupQuery& query,
                            SearchContext& context, GroupResult* result);

}  // namespace gridstar

#endif  // GRIDSTAR_GROUP_PATHS_H_
