// One connection to the Redis that holds the maps (--store), through
// hiredis: where it is (one address, or the master that Redis Sentinel names),
// who we are (an ACL user and a password read from a file), and one command
// at a time.
//
// Addresses:
//   redis://[USER@]HOST[:PORT][/DB]
//   redis-sentinel://[USER@]HOST[:PORT][,HOST[:PORT]...]/MASTER[/DB]
// (Redis port 6379, Sentinel port 26379, DB 0 to 15.) A password never goes
// in the address: it comes from RedisCredentials (--store_password_file).
//
// With Sentinel, every (re)connection asks the sentinels in turn for the
// master's address (SENTINEL get-master-addr-by-name), connects there and
// checks ROLE is master; after a failover the next command after the broken
// one reconnects to the promoted master.
//
// Thread-safety: RedisConnection serialises its commands with a mutex;
// RedisCredentials may be reloaded from any thread while others connect.
#ifndef GRIDSTAR_SERVER_STORE_REDIS_CONNECTION_H_
#define GRIDSTAR_SERVER_STORE_REDIS_CONNECTION_H_

#include <memory>
#include <mutex>  // std::mutex: TSan sees it (Debian's Abseil is not instrumented).
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

struct redisContext;
struct redisReply;

namespace gridstar::server {

struct RedisAddress {
  // Without sentinels: the Redis to use.
  std::string host;
  int port = 6379;
  int db = 0;
  // The ACL user; empty = the default user.
  std::string user;
  // With Sentinel: the master's name and the sentinels to ask (host, port).
  std::string master_name;
  std::vector<std::pair<std::string, int>> sentinels;
};

// Parses either form above. InvalidArgument naming `field` otherwise (a
// password in the address included: it belongs in the password file).
absl::StatusOr<RedisAddress> ParseRedisUrl(absl::string_view url,
                                           absl::string_view field);

// The password, from a file (its first line that is neither blank nor a '#'
// comment, as the token files), re-read by Reload (SIGHUP). An empty path
// means no password. The password is never logged or put in a message.
class RedisCredentials {
 public:
  // Reads the file now: InvalidArgument naming --store_password_file when
  // it cannot be read or holds no password.
  static absl::StatusOr<std::shared_ptr<RedisCredentials>> FromFile(
      std::string path);
  // Re-reads the file; a file that cannot be read keeps the old password.
  absl::Status Reload();
  std::string password() const;
  bool has_password() const;

 private:
  explicit RedisCredentials(std::string path) : path_(std::move(path)) {}
  const std::string path_;
  mutable std::mutex mu_;
  std::string password_ ABSL_GUARDED_BY(mu_);
};

class RedisConnection {
 public:
  struct ReplyDeleter {
    void operator()(redisReply* r) const;
  };
  using Reply = std::unique_ptr<redisReply, ReplyDeleter>;

  // `credentials` may be null (no password).
  RedisConnection(RedisAddress address, absl::Duration timeout,
                  std::shared_ptr<RedisCredentials> credentials = nullptr)
      : address_(std::move(address)),
        timeout_(timeout),
        credentials_(std::move(credentials)) {}
  ~RedisConnection();
  RedisConnection(const RedisConnection&) = delete;
  RedisConnection& operator=(const RedisConnection&) = delete;

  // Connects now (the first command would otherwise). Unavailable naming
  // the address when Redis (or every sentinel) does not answer;
  // PermissionDenied when Redis refuses the credentials or wants some.
  absl::Status Connect();
  // Runs one command (binary-safe arguments). A reply of Redis's error type
  // becomes Aborted for the scripts' version checks ("VERSION ...": another
  // writer got there first; read again and retry) and Internal otherwise; I/O errors Unavailable (the next command
  // reconnects, asking the sentinels again).
  absl::StatusOr<Reply> Command(const std::vector<std::string>& args);
  // Command, then (when min_replicas > 0) WAIT on the same connection for
  // that many replicas to have it: Unavailable, saying the write is on the
  // master only, when fewer answered within `wait`.
  absl::StatusOr<Reply> CommandReplicated(const std::vector<std::string>& args,
                                          int min_replicas,
                                          absl::Duration wait);
  // "redis HOST:PORT/DB" (with Sentinel: "redis master NAME (HOST:PORT)"),
  // for messages.
  std::string Where() const;

 private:
  absl::Status ConnectLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::StatusOr<Reply> CommandLocked(const std::vector<std::string>& args)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void DisconnectLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // With Sentinel: the master's address now.
  absl::StatusOr<std::pair<std::string, int>> AskSentinels() const;
  std::string WhereLocked() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const RedisAddress address_;
  const absl::Duration timeout_;
  const std::shared_ptr<RedisCredentials> credentials_;
  mutable std::mutex mu_;
  redisContext* context_ ABSL_GUARDED_BY(mu_) = nullptr;
  // Where the connection goes (the master last named, with Sentinel).
  std::string host_ ABSL_GUARDED_BY(mu_);
  int port_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_STORE_REDIS_CONNECTION_H_
