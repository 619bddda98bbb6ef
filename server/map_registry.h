// MapRegistry: the server's registered maps, id -> immutable snapshot.
//
// Readers take a shared_ptr to the current snapshot under a mutex held only
// to copy the pointer, then search without any lock; a search in flight keeps
// the snapshot it started with. Writers (register, update, delete) are
// serialised by a second mutex: they build the new snapshot aside
// (copy-on-write; a map being updated exists twice for a moment), persist it
// when a data directory is set (temp file, fsync, rename, fsync of the
// directory), swap it in, and only then return.
//
// Thread-safety: every method may be called from any thread.
#ifndef GRIDSTAR_SERVER_MAP_REGISTRY_H_
#define GRIDSTAR_SERVER_MAP_REGISTRY_H_

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "gridstar/grid_map.h"
#include "gridstar/types.h"

namespace gridstar::server {

// What a map was registered with besides its cells. Part of its content.
struct MapOptions {
  DiagonalPolicy default_diagonal = DiagonalPolicy::kNoCornerCutting;
  // Keep jump distances for jps+ whenever the map allows them.
  bool jump_table = false;
  // Landmarks for the differential heuristic, built for default_diagonal;
  // 0 = none, at most GridMap::kMaxLandmarks.
  int landmarks = 0;

  friend bool operator==(const MapOptions& a, const MapOptions& b) {
    return a.default_diagonal == b.default_diagonal &&
           a.jump_table == b.jump_table && a.landmarks == b.landmarks;
  }
};

struct MapSnapshot {
  // Builds the derived data `options` asks for: the jump table when the map
  // allows one, and the landmarks, or takes them from `landmarks_of` (the
  // version before, when this one only raised costs or blocked cells).
  MapSnapshot(std::string id_in, uint64_t version_in, MapOptions options_in,
              GridMap map_in, const GridMap* landmarks_of = nullptr);

  std::string id;
  uint64_t version = 0;  // 1 at registration, +1 per change of content.
  MapOptions options;
  GridMap map;
  double jump_table_build_micros = 0;  // 0 when the map has no table.
  double landmark_build_micros = 0;    // 0 when none were built.
};

struct CellChange {
  Cell min;  // Inclusive.
  Cell max;  // Exclusive; a single cell is {c, c + (1, 1)}.
  uint8_t cost;
};

// Checks an id: 1 to 128 characters of [A-Za-z0-9_.-]. InvalidArgument
// naming `field` otherwise.
absl::Status ValidateMapId(absl::string_view id, absl::string_view field);

class MapRegistry {
 public:
  struct Limits {
    size_t max_maps = 1024;
    int64_t max_total_cells = int64_t{1} << 30;
  };

  // An empty data_dir keeps maps in memory only.
  MapRegistry(std::string data_dir, Limits limits);

  // Loads every map file of the data directory. A file that cannot be read
  // or fails its checksum is reported in *errors and skipped.
  absl::Status LoadAll(std::vector<std::string>* errors);

  // Registers a map. Identical content (cells and options) under the
  // same id returns the existing snapshot; other content is AlreadyExists
  // unless `replace`, which makes the next version. ResourceExhausted beyond
  // the registry's limits.
  absl::StatusOr<std::shared_ptr<const MapSnapshot>> Register(
      const std::string& id, GridMap map, MapOptions options, bool replace);

  // Applies the changes in order. NotFound for an unknown id;
  // FailedPrecondition when expected_version != 0 and differs;
  // InvalidArgument (nothing changes) for a change off the map.
  absl::StatusOr<std::shared_ptr<const MapSnapshot>> Update(
      const std::string& id, const std::vector<CellChange>& changes,
      uint64_t expected_version);

  absl::Status Delete(const std::string& id);

  // Null when unknown.
  std::shared_ptr<const MapSnapshot> Find(const std::string& id) const;
  // Ordered by id.
  std::vector<std::shared_ptr<const MapSnapshot>> List() const;

  size_t map_count() const;
  int64_t total_cells() const;
  size_t memory_bytes() const;

 private:
  absl::Status Persist(const MapSnapshot& snapshot) const;
  std::string PathOf(const std::string& id) const;
  void Swap(const std::string& id, std::shared_ptr<const MapSnapshot> next);

  const std::string data_dir_;
  const Limits limits_;
  std::mutex write_mu_;  // Serialises writers; held across persisting.
  mutable std::mutex mu_;  // Guards maps_; held only to copy or swap.
  std::map<std::string, std::shared_ptr<const MapSnapshot>> maps_;
};

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_MAP_REGISTRY_H_
