// gridstar as an entry of the competition's classic track
// (gppc-dev/startkit-classic: its main.cpp, ScenarioLoader.cpp and Timer.cpp
// link with this file in place of the startkit's Entry.cpp;
// tests/bench/gppc_compare.sh builds it). The map is built with the engine's
// structures in PrepareForSearch (the harness times GetPath calls only; the
// script reports the setup apart), auto's with the contraction tier;
// PreprocessMap writes nothing.

#include <cstdio>
#include <cstdlib>
#include <memory>

#include "gppc/entry_options.h"
#include "gppc/gppc_api.h"
#include "gppc/gppc_searcher.h"
#include "gridstar/engines/subgoal.h"

namespace {

std::string& EntryName() {
  static std::string name;
  return name;
}

}  // namespace

void PreprocessMap(const std::vector<bool>&, int, int, const std::string&) {}

void* PrepareForSearch(const std::vector<bool>& bits, int width, int height,
                       const std::string&) {
  gridstar::gppc::EntryOptions o =
      gridstar::gppc::EntryOptionsFromEnv(gridstar::Algorithm::kAuto);
  // The classic track's maps never change: auto races the contraction tier
  // too (the dynamic entry's would be rebuilt after every patch).
  if (o.algorithm == gridstar::Algorithm::kAuto) {
    o.structures.Ask(gridstar::kContractionName);
  }
  EntryName() = o.name;
  auto searcher = gridstar::gppc::GppcSearcher::Create(
      bits, width, height, o.structures, o.algorithm);
  if (!searcher.ok()) {
    std::fprintf(stderr, "gridstar: %s\n",
                 searcher.status().ToString().c_str());
    std::abort();
  }
  std::fprintf(stderr, "gridstar: %s set up in %.1f ms\n", o.name.c_str(),
               (*searcher)->build_micros() / 1000);
  return searcher->release();
}

bool GetPath(void* data, GPPC::xyLoc s, GPPC::xyLoc g,
             std::vector<GPPC::xyLoc>& path) {
  auto* searcher = static_cast<gridstar::gppc::GppcSearcher*>(data);
  path.clear();
  for (const gridstar::Cell& c : searcher->Find({s.x, s.y}, {g.x, g.y})) {
    path.push_back(
        GPPC::xyLoc{static_cast<int16_t>(c.x), static_cast<int16_t>(c.y)});
  }
  return true;
}

std::string GetName() {
  if (EntryName().empty()) {
    EntryName() =
        gridstar::gppc::EntryOptionsFromEnv(gridstar::Algorithm::kAuto).name;
  }
  return EntryName();
}
