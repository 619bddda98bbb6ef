// gridstar as an entry of the competition's dynamic track
// (gppc-dev/startkit-dynamic: its harness loads this as lib/libGPPCentry.so;
// tests/bench/gppc_compare.sh builds it). The map and the engine's
// structures are built in gppc_search_init; the patches between two
// queries are applied as one new version of the map with its structures
// repaired (ApplyChanges and RepairDerived, as the server's UpdateCells
// does), which the harness times as the query's snapshot time. jps by
// default: it keeps no structure to
// repair; measured on the startkit's switch_sc1_Aurora (7,390 patches of a
// 1024 x 1024 map, 2,200 queries), patches and queries took 0.94 s in all
// with jps and 3.0 s with jps+ (its jump table repaired after each batch),
// the subgoal graph far longer (docs/performance.md, "gridstar in the GPPC
// harnesses").

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "gppc/entry_options.h"
#include "gppc/gppc_api.h"
#include "gppc/gppc_searcher.h"

namespace {

struct Entry {
  std::unique_ptr<gridstar::gppc::GppcSearcher> searcher;
  std::vector<gppc_point> points;
  std::vector<bool> bits;  // The initial map's.
  std::vector<gridstar::gppc::GppcSearcher::PatchRect> patches;  // Reused.
};

std::string& EntryName() {
  static std::string name;
  return name;
}

void ReadPatch(const gppc_patch& p, std::vector<bool>* bits) {
  const int n = static_cast<int>(p.width) * p.height;
  bits->assign(static_cast<size_t>(n), false);
  for (int i = 0; i < n; ++i) (*bits)[i] = (p.bitarray[i >> 3] >> (i & 7)) & 1;
}

[[noreturn]] void Fail(const absl::Status& s) {
  std::fprintf(stderr, "gridstar: %s\n", s.ToString().c_str());
  std::abort();
}

}  // namespace

extern "C" {

void gppc_preprocess_init_map(gppc_patch, const char*) {}

void* gppc_search_init(gppc_patch active_map, const char*) {
  const gridstar::gppc::EntryOptions o =
      gridstar::gppc::EntryOptionsFromEnv(gridstar::Algorithm::kJps);
  EntryName() = o.name;
  auto entry = std::make_unique<Entry>();
  ReadPatch(active_map, &entry->bits);
  auto searcher = gridstar::gppc::GppcSearcher::Create(
      entry->bits, active_map.width, active_map.height, o.structures,
      o.algorithm);
  if (!searcher.ok()) Fail(searcher.status());
  entry->searcher = *std::move(searcher);
  std::fprintf(stderr, "gridstar: %s set up in %.1f ms\n", o.name.c_str(),
               entry->searcher->build_micros() / 1000);
  return entry.release();
}

void gppc_map_change(void* data, const gppc_patch* changes,
                     uint32_t changes_length) {
  // Every patch since the last query as one new version.
  auto* entry = static_cast<Entry*>(data);
  entry->patches.resize(changes_length);
  for (uint32_t i = 0; i < changes_length; ++i) {
    const gppc_patch& p = changes[i];
    auto& rect = entry->patches[i];
    rect.x = p.pos.x;
    rect.y = p.pos.y;
    rect.w = p.width;
    rect.h = p.height;
    ReadPatch(p, &rect.passable);
  }
  if (absl::Status s = entry->searcher->Patch(entry->patches); !s.ok()) {
    Fail(s);
  }
}

gppc_path gppc_get_path(void* data, gppc_point start, gppc_point goal) {
  auto* entry = static_cast<Entry*>(data);
  entry->points.clear();
  for (const gridstar::Cell& c :
       entry->searcher->Find({start.x, start.y}, {goal.x, goal.y})) {
    entry->points.push_back(
        gppc_point{static_cast<uint16_t>(c.x), static_cast<uint16_t>(c.y)});
  }
  return gppc_path{entry->points.empty() ? nullptr : entry->points.data(),
                   static_cast<uint32_t>(entry->points.size()), 0};
}

void gppc_free_data(void* data) { delete static_cast<Entry*>(data); }

const char* gppc_get_name() {
  if (EntryName().empty()) {
    EntryName() =
        gridstar::gppc::EntryOptionsFromEnv(gridstar::Algorithm::kJps).name;
  }
  return EntryName().c_str();
}

}  // extern "C"
