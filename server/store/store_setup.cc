#include "store/store_setup.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "store/directory_store.h"
#include "store/redis_store.h"

namespace gridstar::server {

absl::Status OpenStore(const StoreSettings& settings,
                       std::unique_ptr<MapStore>* store,
                       std::shared_ptr<RedisCredentials>* credentials_out) {
  const std::string& store_url = settings.url;
  if (!store_url.empty() && !settings.data_dir.empty()) {
    return absl::FailedPreconditionError("--store and --data_dir: choose one");
  }
  if (!settings.data_dir.empty()) {
    const std::string& dir = settings.data_dir;
    bool created = false;
    if (absl::Status s = DirectoryStore::CreateDir(dir, &created); !s.ok()) {
      return absl::FailedPreconditionError(
          absl::StrCat("--data_dir: ", s.message()));
    }
    if (created) {
      std::fprintf(stderr, "gridstar-server: created data_dir %s (mode 0700)\n",
                   dir.c_str());
    }
    *store = std::make_unique<DirectoryStore>(dir);
  } else if (!store_url.empty()) {
    absl::StatusOr<RedisAddress> address = ParseRedisUrl(store_url, "--store");
    if (!address.ok()) {
      return absl::FailedPreconditionError(address.status().message());
    }
    absl::StatusOr<std::shared_ptr<RedisCredentials>> credentials =
        RedisCredentials::FromFile(settings.password_file);
    if (!credentials.ok()) {
      return absl::InvalidArgumentError(credentials.status().message());
    }
    *credentials_out = *credentials;
    RedisStore::Options redis_options;
    redis_options.address = *address;
    redis_options.credentials = *credentials_out;
    redis_options.min_replicas = std::max(0, settings.min_replicas);
    redis_options.replica_timeout = settings.replica_timeout;
    auto redis = std::make_unique<RedisStore>(redis_options);
    // Nothing durable can be served without the store: wait for it (it may
    // start after us), then refuse to start (an orchestrator restarts the
    // replica) rather than serve nothing. Credentials it refuses are not
    // retried.
    const absl::Time give_up = absl::Now() + settings.connect_timeout;
    absl::Duration backoff = absl::Milliseconds(200);
    for (int attempt = 1;; ++attempt) {
      const absl::Status s = redis->Connect();
      if (s.ok()) {
        if (attempt > 1) {
          std::fprintf(stderr,
                       "gridstar-server: --store: reached after %d attempts\n",
                       attempt);
        }
        break;
      }
      if (s.code() != absl::StatusCode::kUnavailable ||
          absl::Now() + backoff > give_up) {
        return absl::Status(s.code() == absl::StatusCode::kInvalidArgument
                                ? absl::StatusCode::kFailedPrecondition
                                : s.code(),
                            absl::StrCat("--store: ", s.message()));
      }
      std::fprintf(
          stderr,
          "gridstar-server: --store: %s; trying again in %s (attempt %d; "
          "--store_connect_timeout %s)\n",
          std::string(s.message()).c_str(),
          absl::FormatDuration(backoff).c_str(), attempt,
          absl::FormatDuration(settings.connect_timeout).c_str());
      absl::SleepFor(backoff);
      backoff = std::min(backoff * 2, absl::Seconds(5));
    }
    *store = std::move(redis);
  }
  return absl::OkStatus();
}

}  // namespace gridstar::server
