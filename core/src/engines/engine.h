// Engine: one search gridstar can run for a PathQuery, and the registry that
// FindPath, ResolveAlgorithm, ValidateAlgorithm and auto's measurement look
// engines up in.
//
// An engine lives in its own folder, core/src/engines/<name>/: its search,
// the structure it precomputes (if any) and the Engine below, defined there
// as the specialisation EngineFor<Algorithm::kX>(). The registry
// (engines/registry.cc) lists one engine per value of
// gridstar/algorithms.inc, the list the Algorithm enum is made from; adding
// an engine is that line, its folder, the proto enum value and its docs row.
//
// An engine with a precomputed structure attaches it to the map in its own
// slot (map/attachment.h) and hands out its DerivedStructure (Structure
// below); nothing outside its folder builds or reads it but through its
// public header, gridstar/engines/<name>.h, when it offers one.
//
// What FindPath does with an engine, in order: Resolve (which engine
// answers the query on this map: itself, or another it stands in for, which
// is resolved in turn), Prepare (its part of the search parameters: the
// heuristic's scale, landmarks), then Run between the query's resolved ends.
//
// Thread-safety: engines are stateless singletons; every method may be
// called from any thread. Run's SearchState belongs to the calling thread.

#ifndef GRIDSTAR_SRC_ENGINES_ENGINE_H_
#define GRIDSTAR_SRC_ENGINES_ENGINE_H_

#include <memory>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "gridstar/derived_structure.h"
#include "gridstar/grid_map.h"
#include "gridstar/path_query.h"
#include "gridstar/types.h"
#include "search/search_loop.h"
#include "search/search_state.h"

namespace gridstar::internal {

class Engine {
 public:
  virtual ~Engine() = default;

  virtual Algorithm algorithm() const = 0;

  // The algorithm that answers `query` on `map`: algorithm() when this
  // engine serves it as asked (its structure present for the query's
  // policy, the map one it is exact on), else the one that runs in its
  // place (ResolveAlgorithm resolves that one in turn). The default serves
  // every query.
  virtual Algorithm Resolve(const GridMap& map, const PathQuery& query) const {
    (void)map;
    (void)query;
    return algorithm();
  }

  // What it serves as asked, in a few words, for messages that say why
  // another engine ran in its place (AlgorithmServes, find_path.h).
  virtual absl::string_view serves() const { return "every map and policy"; }

  // Whether kAuto may measure this engine on `map` for `policy` (an exact
  // engine that serves every goal there), and the order auto measures its
  // candidates in (lower first).
  virtual bool AutoCandidate(const GridMap& map, DiagonalPolicy policy) const {
    (void)map;
    (void)policy;
    return false;
  }
  virtual int auto_order() const { return 0; }

  // Its part of the parameters FindPath prepared for the query's resolved
  // ends (start, goal, budget, max_nodes, consistent = true, h_scale = the
  // map's cheapest cost). The default changes nothing.
  virtual void Prepare(const GridMap& map, const PathQuery& query,
                       SearchParams* params) const {
    (void)map;
    (void)query;
    (void)params;
  }

  // Searches from params.start to params.goal, filling cells, cost,
  // expanded, generated and the partial fields of *result (and, for an
  // any-angle engine, waypoints and smoothed_cost). REQUIRES: Resolve(map,
  // query) == algorithm(), state.BeginSearch(map) done, start != goal.
  virtual void Run(const GridMap& map, const PathQuery& query,
                   const SearchParams& params, SearchState& state,
                   PathResult* result) const = 0;

  // The name of the structure this engine precomputes (its
  // DerivedStructure::name(), how DerivedOptions ask for it); empty for
  // engines without one.
  virtual absl::string_view structure_name() const { return {}; }
  // That structure (derived_structure.h) when `options` ask for it; null
  // otherwise, and for engines without one.
  // BuildDerived and RepairDerived (derived_data.h) drive the structures in
  // structure_order() (lower first; auto's measurement last, so that every
  // other structure's engine is a candidate).
  virtual std::unique_ptr<const DerivedStructure> Structure(
      const DerivedOptions& options) const {
    (void)options;
    return nullptr;
  }
  virtual int structure_order() const { return 0; }

  // True when Run's waypoints are its answer (IsAnyAngle, types.h):
  // FindPath then does not string-pull them.
  bool any_angle() const { return IsAnyAngle(algorithm()); }
};

// An engine whose search is the shared best-first loop over cells
// (best_first.cc), parameterised by Prepare: A* and its variants, alt.
class BestFirstEngine : public Engine {
 public:
  void Run(const GridMap& map, const PathQuery& query,
           const SearchParams& params, SearchState& state,
           PathResult* result) const override {
    RunBestFirst(map, query.movement.diagonal, params, state, result);
  }
};

// Each engine's folder defines the specialisation for its value, with
// GRIDSTAR_DEFINE_ENGINE(kName, ClassName) (a default-constructed
// singleton) or by hand.
template <Algorithm kAlgorithm>
const Engine& EngineFor();

#define GRIDSTAR_DEFINE_ENGINE(enumerator, EngineClass)  \
  template <>                                            \
  const Engine& EngineFor<Algorithm::enumerator>() {     \
    static const EngineClass engine;                     \
    return engine;                                       \
  }

// The engine of `algorithm`; null for a value outside the enum.
const Engine* FindEngine(Algorithm algorithm);

// Every engine, in the enum's order.
absl::Span<const Engine* const> AllEngines();

}  // namespace gridstar::internal

#endif  // GRIDSTAR_SRC_ENGINES_ENGINE_H_
