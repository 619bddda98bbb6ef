// Opens the map store the server's flags name: a DirectoryStore for
// --data_dir (made with its parents when missing) or a RedisStore for
// --store (credentials from the password file; waits for Redis up to
// connect_timeout with a logged backoff, but not past refused credentials).
// Messages go to stderr as the server's own.
//
// Thread-safety: call once, from main, before any thread.
#ifndef GRIDSTAR_SERVER_STORE_SETUP_H_
#define GRIDSTAR_SERVER_STORE_SETUP_H_

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "store/map_store.h"
#include "store/redis_connection.h"

namespace gridstar::server {

struct StoreSettings {
  std::string data_dir;       // --data_dir
  std::string url;            // --store
  std::string password_file;  // --store_password_file
  int min_replicas = 0;       // --store_min_replicas
  absl::Duration replica_timeout = absl::Seconds(5);
  absl::Duration connect_timeout = absl::Seconds(120);
};

// OK with *store set (null: memory only) and, for Redis, *credentials_out
// (re-read on SIGHUP); else why, naming the flag: InvalidArgument for bad
// settings (an unreadable password file), another code when the store
// cannot be used (both --store and --data_dir, a bad URL, Redis away past
// --store_connect_timeout, credentials it refuses).
absl::Status OpenStore(const StoreSettings& settings,
                       std::unique_ptr<MapStore>* store,
                       std::shared_ptr<RedisCredentials>* credentials_out);

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_STORE_SETUP_H_
