// RedisStore: a MapStore in Redis (--store=redis://HOST:PORT[/DB]), through
// one hiredis connection.
//
// Keys, under a prefix (default "gridstar:"):
//   <prefix>maps          set of the stored map ids;
//   <prefix>map:<id>      the content at some version (the map-file bytes of
//                         store/map_codec.h: version, options, costs, CRC);
//   <prefix>ver:<id>      the id's latest acknowledged version;
//   <prefix>log:<id>      a stream of the updates since the content, one
//                         entry per version (entry id "<version>-1", field
//                         "u": the checksummed update record of map_codec.h);
//   <prefix>inc:<id>      the registration the content belongs to (a number
//                         from <prefix>incarnations, new at every Put: a map
//                         deleted and registered again is told apart);
//   <prefix>worlds        set of the stored world ids;
//   <prefix>world:<id>    a world's record (store/world_codec.h), whole;
//   <prefix>wver:<id>     its version (a write names the version it makes:
//                         applied only when this is one less);
//   <prefix>events        a stream of the ids written (field "id"; a world
//                         as "world:<id>"), trimmed to about 10,000
//                         entries: what followers wait on.
// Every write is one Lua script, so it happens whole or not at all, and an
// update is appended only when <prefix>ver:<id> is its version - 1: updates
// arriving through different connections (replicas) are totally ordered and
// a stale writer fails with Aborted instead of forking the log.
// A write returns OK once Redis has applied it; surviving a crash of Redis
// itself is Redis's persistence setting (appendonly / appendfsync).
// Compaction rewrites the content at the latest version and trims the
// stream's entries up to it (XTRIM MINID), past the same bound as the
// directory store: max(1 MiB, half the content) of update records.
//
// Followers (NewFollower) wait on the events stream with XREAD BLOCK on a
// connection of their own and catch a map up with its stream's entries
// after the version a replica holds, or with the content when those cannot
// get there.
//
// Errors: Unavailable naming the address when Redis cannot be reached or
// the connection breaks (the next call reconnects); DataLoss for stored
// bytes that fail their checksums (LoadAll reports the map and skips it).
//
// Thread-safety: safe from any thread (one connection under a mutex).

#ifndef GRIDSTAR_SERVER_STORE_REDIS_STORE_H_
#define GRIDSTAR_SERVER_STORE_REDIS_STORE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>  // std::mutex: TSan sees it (Debian's Abseil is not instrumented).
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "store/map_store.h"
#include "store/redis_connection.h"

namespace gridstar::server {

class RedisStore final : public MapStore {
 public:
  static constexpr uint64_t kMinCompactBytes = uint64_t{1} << 20;

  struct Options {
    RedisAddress address;
    std::string key_prefix = "gridstar:";
    // Connecting, and each command.
    absl::Duration timeout = absl::Seconds(10);
    // The password (null: none); the ACL user is the address's.
    std::shared_ptr<RedisCredentials> credentials;
    // A write is acknowledged only once this many replicas have it (WAIT),
    // within replica_timeout; otherwise it fails Unavailable saying so (it
    // is on the master, and survives unless the master fails before it
    // replicates). 0 = once the master applied it.
    int min_replicas = 0;
    absl::Duration replica_timeout = absl::Seconds(5);
  };

  explicit RedisStore(Options options);
  ~RedisStore() override;
  RedisStore(const RedisStore&) = delete;
  RedisStore& operator=(const RedisStore&) = delete;

  // Connects now (the first command would otherwise): Unavailable naming
  // the address when Redis (or every sentinel) does not answer,
  // PermissionDenied when it refuses the credentials or wants some.
  absl::Status Connect();

  absl::Status LoadAll(std::vector<StoredMap>* maps,
                       std::vector<std::string>* errors) override;
  absl::Status Put(const StoredMap& map) override;
  absl::Status Delete(const std::string& id) override;
  absl::Status AppendUpdate(const StoredUpdate& update) override;
  bool WantsCompaction(const std::string& id) const override;
  absl::Status Compact(const StoredMap& map) override;
  absl::StatusOr<std::unique_ptr<MapStoreFollower>> NewFollower() override;
  absl::Status LoadWorlds(std::vector<StoredWorld>* worlds,
                          std::vector<std::string>* errors) override;
  absl::Status PutWorld(const StoredWorld& world) override;
  absl::Status DeleteWorld(const std::string& id) override;

 private:
  class Follower;
  using Reply = RedisConnection::Reply;

  // The registrations this process has seen, by id (written or loaded),
  // shared with its followers: a follower reloads a map whose
  // registration it has not seen.
  struct Seen {
    std::mutex mu;
    std::map<std::string, long long> incarnation;
  };

  std::string Key(absl::string_view kind, absl::string_view id) const;
  // After a write: WAIT for options_.min_replicas (OK when 0).
  absl::Status WaitForReplicas(absl::string_view what);
  // The content and updates of `id` from Redis through `connection`:
  // NotFound when not stored; DataLoss when corrupt.
  static absl::StatusOr<StoredMap> LoadOne(RedisConnection& connection,
                                           const std::string& prefix,
                                           const std::string& id,
                                           long long* incarnation,
                                           uint64_t* content_bytes,
                                           uint64_t* log_bytes);

  struct Sizes {
    uint64_t content_bytes = 0;
    uint64_t log_bytes = 0;  // Update records since the content.
  };

  const Options options_;
  RedisConnection connection_;
  std::shared_ptr<Seen> seen_ = std::make_shared<Seen>();
  mutable std::mutex mu_;
  std::map<std::string, Sizes> sizes_ ABSL_GUARDED_BY(mu_);
};

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_STORE_REDIS_STORE_H_
