// MeasureAutoChoice: the candidates raced on a sample of the map's own
// queries. See auto_choice.h for the contract.

#include "gridstar/auto_choice.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <random>
#include <utility>

#include "absl/time/clock.h"
#include "base/geometry.h"
#include "engines/engine.h"
#include "gridstar/find_path.h"
#include "gridstar/flow_field.h"
#include "gridstar/grid_map.h"
#include "gridstar/group_paths.h"
#include "gridstar/query.h"
#include "gridstar/search_context.h"
#include "map/attachment.h"

namespace gridstar {
namespace {

constexpr double kMinDeadlineMicros = 50;
// Timed runs of each query per candidate (the fastest counts).
constexpr int kRuns = 2;
// Units of the group timed for FindGroupPaths' auto method.
constexpr int kGroupUnits = 16;
// Timed runs of the flow field and of each group method (the fastest
// counts): a process's first fields come from fresh pages (malloc maps big
// blocks anew until its threshold adapts), 3-4x slower than every field
// after (dao/brc202d: 7.8-9.9 ms, then 2.3-2.6 ms), so more runs than for a
// query.
constexpr int kGroupRuns = 4;
// The warm-up query's cut-off, in multiples of the leader's (cold) time.
constexpr double kWarmUpFactor = 10;

double MicrosSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now() - t0)
      .count();
}

// Up to `count` random pairs of distinct passable cells of one component.
// Cells are drawn at random; a map whose passable cells are too sparse for
// that is enumerated instead.
std::vector<std::pair<Cell, Cell>> SampleQueries(const GridMap& map, int count,
                                                 uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::pair<Cell, Cell>> pairs;
  if (map.passable_count() < 2) return pairs;
  std::vector<Cell> passable;  // Filled only for sparse maps.
  auto random_cell = [&]() -> Cell {
    if (!passable.empty()) return passable[rng() % passable.size()];
    for (int attempt = 0; attempt < 64; ++attempt) {
      const Cell c{static_cast<int32_t>(rng() % static_cast<uint64_t>(map.width())),
                   static_cast<int32_t>(rng() % static_cast<uint64_t>(map.height()))};
      if (map.Passable(c)) return c;
    }
    return Cell{-1, -1};
  };
  for (int tries = 0; tries < count * 64 && static_cast<int>(pairs.size()) < count;
       ++tries) {
    Cell s = random_cell();
    if (s.x < 0 && passable.empty()) {
      for (int32_t y = 0; y < map.height(); ++y) {
        for (int32_t x = 0; x < map.width(); ++x) {
          if (map.Passable({x, y})) passable.push_back({x, y});
        }
      }
      s = random_cell();
    }
    const Cell g = random_cell();
    if (g.x < 0 || s == g || !map.Connected(s, g)) continue;
    pairs.emplace_back(s, g);
  }
  return pairs;
}

// The candidate with the least mean among those in the race; -1 if none.
int Leader(const std::vector<AutoCandidate>& c, const std::vector<double>& sum) {
  int best = -1;
  for (size_t i = 0; i < c.size(); ++i) {
    if (c[i].dropped) continue;
    if (best < 0 || sum[i] < sum[static_cast<size_t>(best)]) {
      best = static_cast<int>(i);
    }
  }
  return best;
}

// Group costs for FindGroupPaths' auto method, on one goal of the sample:
// a flow field's time per cell reached, and a group of kGroupUnits units
// (the sample's starts) spliced and following the field, per unit. Each
// the fastest of kGroupRuns runs (the first ones also size arrays and fault
// in pages that a server's workers and heap have long had).
void MeasureGroups(const GridMap& map, const AutoMeasureOptions& options,
                   const std::vector<std::pair<Cell, Cell>>& pairs,
                   SearchContext& context, AutoChoice* choice) {
  const Cell goal = pairs[0].second;
  FlowFieldQuery fq;
  fq.goal = goal;
  fq.movement.diagonal = options.policy;
  // A field is cut off at the measurement's own budget (a whole huge world
  // takes seconds); its time per cell reached is what counts.
  if (options.max_micros > 0) {
    fq.budget.deadline = absl::Now() + absl::Microseconds(static_cast<int64_t>(
                                           options.max_micros));
  }
  double field_us = -1;
  for (int run_index = 0; run_index < kGroupRuns; ++run_index) {
    const auto f0 = std::chrono::steady_clock::now();
    absl::StatusOr<FlowField> field = ComputeFlowField(map, fq, context);
    const double us = MicrosSince(f0);
    if (!field.ok() || field->reached() == 0) return;
    const double per_cell = us / static_cast<double>(field->reached());
    if (choice->flow_us_per_cell == 0 || per_cell < choice->flow_us_per_cell) {
      choice->flow_us_per_cell = per_cell;
    }
    if (!field->complete()) return;  // A huge world: no group timings.
    if (field_us < 0 || us < field_us) field_us = us;
  }
  GroupQuery g;
  g.goals = {goal};
  g.algorithm = choice->algorithm;
  g.movement.diagonal = options.policy;
  double distance = 0;  // Summed over the units: octile, cells.
  for (const auto& [start, unused] : pairs) {
    if (static_cast<int>(g.starts.size()) == kGroupUnits) break;
    if (!map.Connected(start, goal) || start == goal) continue;
    g.starts.push_back(start);
    distance += internal::CellDistance(start, goal,
                                      DiagonalPolicy::kNoCornerCutting);
  }
  if (g.starts.empty()) return;
  const double units = static_cast<double>(g.starts.size());
  GroupResult r;
  for (const GroupMethod method : {GroupMethod::kSplice, GroupMethod::kFlowField}) {
    g.method = method;
    double fastest = -1;
    for (int run_index = 0; run_index < kGroupRuns; ++run_index) {
      const auto g0 = std::chrono::steady_clock::now();
      if (!FindGroupPaths(map, g, context, &r).ok()) return;
      const double us = MicrosSince(g0);
      if (fastest < 0 || us < fastest) fastest = us;
    }
    if (method == GroupMethod::kSplice) {
      choice->splice_us_per_cell = fastest / distance;
      double cost = 0;
      for (const UnitPath& u : r.units) cost += u.path.cost;
      choice->splice_detour = cost / (distance * map.min_cost());
    } else {
      choice->follow_us_per_unit = std::max(0.0, fastest - field_us) / units;
    }
  }
}

}  // namespace

std::vector<Algorithm> AutoCandidatesFor(const GridMap& map,
                                         DiagonalPolicy policy) {
  std::vector<const internal::Engine*> candidates;
  for (const internal::Engine* engine : internal::AllEngines()) {
    if (engine->AutoCandidate(map, policy)) candidates.push_back(engine);
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const internal::Engine* a, const internal::Engine* b) {
                     return a->auto_order() < b->auto_order();
                   });
  std::vector<Algorithm> out;
  for (const internal::Engine* engine : candidates) {
    out.push_back(engine->algorithm());
  }
  return out;
}

AutoChoice MeasureAutoChoice(const GridMap& map,
                             const AutoMeasureOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  AutoChoice choice;
  choice.policy = options.policy;
  const int wanted = std::clamp(options.queries, 1, 1000);
  const std::vector<std::pair<Cell, Cell>> pairs =
      SampleQueries(map, wanted + 1, options.seed);
  if (pairs.size() < 2) {
    choice.micros = MicrosSince(t0);
    return choice;
  }
  for (Algorithm a : AutoCandidatesFor(map, options.policy)) {
    AutoCandidate c;
    c.algorithm = a;
    choice.candidates.push_back(c);
  }
  std::vector<AutoCandidate>& candidates = choice.candidates;
  const size_t n = candidates.size();
  std::vector<double> sum(n, 0);
  SearchContext context;
  PathResult result;

  // Runs candidate i on a pair with a deadline `limit_us` from now (none
  // when <= 0); the call's micros, or -1 when the deadline cut it off.
  auto run = [&](size_t i, const std::pair<Cell, Cell>& pair,
                 double limit_us) -> double {
    PathQuery q;
    q.start = pair.first;
    q.goal = pair.second;
    q.algorithm = candidates[i].algorithm;
    q.movement.diagonal = options.policy;
    if (limit_us > 0) {
      q.budget.deadline =
          absl::Now() + absl::Microseconds(static_cast<int64_t>(limit_us));
    }
    const absl::Status s = FindPath(map, q, context, &result);
    if (!s.ok() || result.partial) return -1;
    return result.micros;
  };

  // The warm-up: every candidate once, untimed (its context's first search
  // sizes the arrays; caches warm), cut off generously, never dropped.
  double cold_leader = -1;
  for (size_t i = 0; i < n; ++i) {
    const double limit =
        cold_leader < 0 ? 0
                        : std::max(kMinDeadlineMicros, kWarmUpFactor * cold_leader);
    const double us = run(i, pairs[0], limit);
    if (i == 0) cold_leader = us;
  }

  for (size_t k = 1; k < pairs.size(); ++k) {
    const int lead = Leader(candidates, sum);
    if (lead < 0) break;
    // The leader first, then the others against its time.
    std::vector<size_t> order{static_cast<size_t>(lead)};
    for (size_t i = 0; i < n; ++i) {
      if (i != static_cast<size_t>(lead) && !candidates[i].dropped) {
        order.push_back(i);
      }
    }
    // The leader's untimed run sets this query's deadline and warms the
    // caches for the query's part of the map, so that no candidate pays
    // for being first; then every candidate, the order rotating.
    const double leader_us = std::max(run(order[0], pairs[k], 0), 0.0);
    const double limit = std::max(kMinDeadlineMicros, kAutoDropFactor * leader_us);
    std::rotate(order.begin(), order.begin() + static_cast<long>(k % order.size()),
                order.end());
    // Each candidate runs the query kRuns times in a row and counts its
    // fastest run: on a shared machine the fastest run is the one least
    // disturbed.
    // A candidate leaves the race only when all its runs miss the cut-off
    // (one run cut off is as likely a disturbance as slowness).
    for (size_t i : order) {
      double fastest = -1;
      for (int run_index = 0; run_index < kRuns; ++run_index) {
        const double us = run(i, pairs[k], limit);
        if (us >= 0) fastest = fastest < 0 ? us : std::min(fastest, us);
      }
      if (fastest < 0) {
        candidates[i].dropped = true;
        continue;
      }
      sum[i] += fastest;
      ++candidates[i].queries;
    }
    ++choice.queries;
    if (options.max_micros > 0 && MicrosSince(t0) > options.max_micros) break;
  }

  for (size_t i = 0; i < n; ++i) {
    if (candidates[i].queries > 0) {
      candidates[i].mean_us = sum[i] / candidates[i].queries;
    }
  }
  int best = -1;
  for (size_t i = 0; i < n; ++i) {
    if (candidates[i].dropped || candidates[i].queries < choice.queries) {
      continue;
    }
    if (best < 0 || candidates[i].mean_us <
                        candidates[static_cast<size_t>(best)].mean_us) {
      best = static_cast<int>(i);
    }
  }
  if (best < 0) {
    // Every candidate left the race (a machine disturbed throughout): the
    // one that ran the most queries, the least mean among those.
    for (size_t i = 0; i < n; ++i) {
      if (candidates[i].queries == 0) continue;
      if (best < 0 ||
          candidates[i].queries > candidates[static_cast<size_t>(best)].queries ||
          (candidates[i].queries == candidates[static_cast<size_t>(best)].queries &&
           candidates[i].mean_us < candidates[static_cast<size_t>(best)].mean_us)) {
        best = static_cast<int>(i);
      }
    }
  }
  if (best >= 0) {
    choice.algorithm = candidates[static_cast<size_t>(best)].algorithm;
    choice.search_us = candidates[static_cast<size_t>(best)].mean_us;
  }

  if (options.flow_field) MeasureGroups(map, options, pairs, context, &choice);
  choice.micros = MicrosSince(t0);
  return choice;
}

}  // namespace gridstar

// --- The measured choice attached to its map (auto_choice.h).

namespace gridstar {
namespace {

class AttachedChoice final : public internal::MapAttachment {
 public:
  explicit AttachedChoice(std::shared_ptr<const AutoChoice> choice)
      : choice_(std::move(choice)) {}
  const AutoChoice& choice() const { return *choice_; }
  size_t HeldBytes() const override {
    return sizeof(*this) + sizeof(AutoChoice) +
           choice_->candidates.capacity() * sizeof(AutoCandidate);
  }
  // Measured at registration; every version keeps it.
  bool KeptByNewVersions() const override { return true; }

 private:
  const std::shared_ptr<const AutoChoice> choice_;
};

}  // namespace

void SetAutoChoice(GridMap* map, std::shared_ptr<const AutoChoice> choice) {
  map->Attach(Algorithm::kAuto,
              choice == nullptr
                  ? nullptr
                  : std::make_shared<const AttachedChoice>(std::move(choice)));
}

const AutoChoice* AutoChoiceOf(const GridMap& map) {
  const auto* attached =
      internal::AttachedTo<AttachedChoice>(map, Algorithm::kAuto);
  return attached == nullptr ? nullptr : &attached->choice();
}

size_t AutoChoiceBytes(const GridMap& map) {
  return internal::HeldBytesOf(map, Algorithm::kAuto);
}


}  // namespace gridstar
