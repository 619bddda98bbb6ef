// DirectoryStore: the MapStore of --data_dir. Per map, a map file written
// whole and an append-only update log (formats in map_codec.h); per world,
// a file of whole-world records appended one per version (world_codec.h).
//
// Durability: a map file is written to a temp file, fsync'd, renamed over
// the old one and the directory fsync'd; an update is one record appended to
// the log and fdatasync'd (and the directory fsync'd when that created the
// log) before AppendUpdate returns. Compaction rewrites the map file at the
// latest version, then removes the log; a crash between the two leaves
// records at or below the file's version, which recovery skips.
//
// A world file gets one record appended per version (fdatasync'd);
// CompactWorld, called after the write was answered, rewrites it with only
// the last record (temp file, fsync, rename, fsync of the directory) once it
// holds more than max(kMinCompactBytes, 64 records' worth).
//
// Compaction bound: a log is worth folding in once it holds more than half
// the map file's bytes, and at least kMinCompactBytes. Start-up then replays
// at most about half a map's worth of records, and each update's bytes are
// rewritten at most about twice over (the map file grows by one map each time
// the log grows by half a map); below 1 MiB a rewrite would cost more than
// it saves.
//
// Thread-safety: safe from any thread; writes to one id must not overlap (the
// registry's per-map lock sees to it).
#ifndef GRIDSTAR_SERVER_STORE_DIRECTORY_STORE_H_
#define GRIDSTAR_SERVER_STORE_DIRECTORY_STORE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>  // std::mutex: TSan sees it (Debian's Abseil is not instrumented).
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "store/map_store.h"
#include "store/world_codec.h"

namespace gridstar::server {

class DirectoryStore final : public MapStore {
 public:
  static constexpr uint64_t kMinCompactBytes = uint64_t{1} << 20;
  // A world file is compacted past max(kMinCompactBytes, 64 whole records),
  // or once replaying its edits would copy more links than this (each edit
  // record is replayed onto a copy of the version before).
  static constexpr uint64_t kMaxEditReplayLinks = uint64_t{1} << 22;

  // REQUIRES: `dir` exists (LoadAll reports it otherwise; CreateDir makes
  // it).
  explicit DirectoryStore(std::string dir) : dir_(std::move(dir)) {}

  // Makes `dir` and its missing parents (mode 0700: maps are the
  // operator's, not every local user's). OK when it exists already as a
  // directory; *created says whether anything was made. Unavailable with
  // the path and errno text when it cannot be made, FailedPrecondition when
  // it exists but is not a directory.
  static absl::Status CreateDir(const std::string& dir, bool* created);

  absl::Status LoadAll(std::vector<StoredMap>* maps,
                       std::vector<std::string>* errors) override;
  absl::Status Put(const StoredMap& map) override;
  absl::Status Delete(const std::string& id) override;
  absl::Status AppendUpdate(const StoredUpdate& update) override;
  bool WantsCompaction(const std::string& id) const override;
  absl::Status Compact(const StoredMap& map) override;
  absl::Status LoadWorlds(std::vector<StoredWorld>* worlds,
                          std::vector<std::string>* errors) override;
  absl::Status PutWorld(const StoredWorld& world) override;
  absl::Status CompactWorld(const StoredWorld& world) override;
  absl::Status DeleteWorld(const std::string& id) override;

  const std::string& dir() const { return dir_; }

 private:
  struct Sizes {
    uint64_t map_bytes = 0;
    uint64_t log_bytes = 0;
  };
  struct WorldFile {
    // The stored version: last's, 0 when none is known.
    uint64_t version() const { return last != nullptr ? last->version : 0; }
    uint64_t bytes = 0;
    // The last whole record's bytes and the edit records after it
    // (world_codec.h), which decide when the file is compacted.
    uint64_t whole_record_bytes = 0;
    uint64_t edits_since_whole = 0;
    // The world at its stored version, what the next version's edit record
    // is made against.
    std::shared_ptr<const StoredWorld> last;
  };
  static WorldFile WorldFileOf(const StoredWorld& world,
                               const codec::WorldFileShape& shape);
  std::string MapPath(const std::string& id) const;
  std::string WorldPath(const std::string& id) const;
  std::string LogPath(const std::string& id) const;
  // Writes the map file (temp, fsync, rename, fsync of the directory).
  absl::Status WriteMapFile(const StoredMap& map);
  // Removes the log (and fsyncs the directory) when there is one.
  absl::Status RemoveLog(const std::string& id);

  const std::string dir_;
  mutable std::mutex mu_;
  std::map<std::string, Sizes> sizes_ ABSL_GUARDED_BY(mu_);
  // The stored worlds (loaded or written by this process).
  std::map<std::string, WorldFile> worlds_ ABSL_GUARDED_BY(mu_);
  bool worlds_loaded_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_STORE_DIRECTORY_STORE_H_
