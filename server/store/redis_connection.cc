#include "store/redis_connection.h"

#include <hiredis/hiredis.h>
#include <poll.h>
#include <sys/time.h>

#include <algorithm>
#include <cstdio>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gridstar/map_io.h"

namespace gridstar::server {
namespace {

std::string AsString(const redisReply* r) {
  return r == nullptr || r->str == nullptr ? std::string()
                                           : std::string(r->str, r->len);
}

// "HOST[:PORT]" into *host and *port (kept when absent); false when malformed.
bool ParseHostPort(absl::string_view text, std::string* host, int* port) {
  if (const size_t colon = text.rfind(':'); colon != absl::string_view::npos) {
    if (!absl::SimpleAtoi(text.substr(colon + 1), port) || *port < 1 ||
        *port > 65535) {
      return false;
    }
    text = text.substr(0, colon);
  }
  if (text.empty()) return false;
  *host = std::string(text);
  return true;
}

// A connection to host:port with the timeout on connect and each command.
// Null context or Unavailable.
absl::StatusOr<redisContext*> Open(const std::string& host, int port,
                                   absl::Duration timeout,
                                   absl::string_view where) {
  const timeval tv = absl::ToTimeval(timeout);
  redisContext* c = redisConnectWithTimeout(host.c_str(), port, tv);
  if (c == nullptr)
    return absl::UnavailableError(absl::StrCat(where, ": cannot connect"));
  if (c->err != 0) {
    absl::Status s = absl::UnavailableError(
        absl::StrCat(where, ": cannot connect: ", c->errstr));
    redisFree(c);
    return s;
  }
  redisSetTimeout(c, tv);
  return c;
}

}  // namespace

absl::StatusOr<RedisAddress> ParseRedisUrl(absl::string_view url,
                                           absl::string_view field) {
  auto bad = [&](absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat(
        field, ": '", url, "' ", why,
        " (want redis://[USER@]HOST[:PORT][/DB] or "
        "redis-sentinel://[USER@]HOST[:PORT][,HOST[:PORT]...]/MASTER[/DB])"));
  };
  RedisAddress address;
  absl::string_view rest = url;
  const bool sentinel = absl::ConsumePrefix(&rest, "redis-sentinel://");
  if (!sentinel && !absl::ConsumePrefix(&rest, "redis://")) {
    return bad("does not start redis:// or redis-sentinel://");
  }
  if (const size_t at = rest.find('@'); at != absl::string_view::npos) {
    const absl::string_view user = rest.substr(0, at);
    if (absl::StrContains(user, ':')) {
      return bad("holds a password: give it in --store_password_file");
    }
    if (user.empty()) return bad("names an empty user");
    address.user = std::string(user);
    rest = rest.substr(at + 1);
  }
  std::vector<absl::string_view> parts = absl::StrSplit(rest, '/');
  if (sentinel) {
    if (parts.size() < 2 || parts.size() > 3 || parts[1].empty()) {
      return bad("names no master");
    }
    for (absl::string_view s : absl::StrSplit(parts[0], ',')) {
      std::pair<std::string, int> where{"", 26379};
      if (!ParseHostPort(s, &where.first, &where.second)) {
        return bad(
            "has a sentinel without a host or with a port outside 1 to 65535");
      }
      address.sentinels.push_back(where);
    }
    address.master_name = std::string(parts[1]);
    parts.erase(parts.begin() + 1);
  } else {
    if (parts.size() > 2) return bad("has more than one '/'");
    if (!ParseHostPort(parts[0], &address.host, &address.port)) {
      return bad(parts[0].empty() || parts[0][0] == ':'
                     ? "names no host"
                     : "has a port outside 1 to 65535");
    }
  }
  if (parts.size() == 2 && (!absl::SimpleAtoi(parts[1], &address.db) ||
                            address.db < 0 || address.db > 15)) {
    return bad("has a database number outside 0 to 15");
  }
  return address;
}

absl::StatusOr<std::shared_ptr<RedisCredentials>> RedisCredentials::FromFile(
    std::string path) {
  std::shared_ptr<RedisCredentials> c(new RedisCredentials(std::move(path)));
  if (!c->path_.empty()) {
    if (absl::Status s = c->Reload(); !s.ok()) return s;
  }
  return c;
}

absl::Status RedisCredentials::Reload() {
  if (path_.empty()) return absl::OkStatus();
  absl::StatusOr<std::string> text = ReadFile(path_, size_t{1} << 16);
  if (!text.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--store_password_file: cannot read ", text.status().message()));
  }
  for (absl::string_view line : absl::StrSplit(*text, '\n')) {
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || line[0] == '#') continue;
    std::lock_guard<std::mutex> lock(mu_);
    password_ = std::string(line);
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(
      absl::StrCat("--store_password_file: '", path_, "' holds no password"));
}

std::string RedisCredentials::password() const {
  std::lock_guard<std::mutex> lock(mu_);
  return password_;
}

bool RedisCredentials::has_password() const {
  std::lock_guard<std::mutex> lock(mu_);
  return !password_.empty();
}

void RedisConnection::ReplyDeleter::operator()(redisReply* r) const {
  freeReplyObject(r);
}

RedisConnection::~RedisConnection() {
  std::lock_guard<std::mutex> lock(mu_);
  DisconnectLocked();
}

std::string RedisConnection::WhereLocked() const {
  if (!address_.master_name.empty()) {
    return absl::StrCat(
        "redis master ", address_.master_name,
        host_.empty() ? "" : absl::StrCat(" (", host_, ":", port_, ")"), "/",
        address_.db);
  }
  return absl::StrCat("redis ", address_.host, ":", address_.port, "/",
                      address_.db);
}

std::string RedisConnection::Where() const {
  std::lock_guard<std::mutex> lock(mu_);
  return WhereLocked();
}

absl::Status RedisConnection::Connect() {
  std::lock_guard<std::mutex> lock(mu_);
  return ConnectLocked();
}

void RedisConnection::DisconnectLocked() {
  if (context_ != nullptr) redisFree(context_);
  context_ = nullptr;
}

absl::StatusOr<std::pair<std::string, int>> RedisConnection::AskSentinels()
    const {
  std::string errors;
  for (const auto& [host, port] : address_.sentinels) {
    const std::string where = absl::StrCat("sentinel ", host, ":", port);
    absl::StatusOr<redisContext*> c = Open(host, port, timeout_, where);
    if (!c.ok()) {
      absl::StrAppend(&errors, errors.empty() ? "" : "; ",
                      c.status().message());
      continue;
    }
    Reply reply(static_cast<redisReply*>(
        redisCommand(*c, "SENTINEL get-master-addr-by-name %s",
                     address_.master_name.c_str())));
    int master_port = 0;
    const bool ok = reply != nullptr && reply->type == REDIS_REPLY_ARRAY &&
                    reply->elements == 2 &&
                    absl::SimpleAtoi(AsString(reply->element[1]), &master_port);
    std::string master_host = ok ? AsString(reply->element[0]) : "";
    if (!ok) {
      absl::StrAppend(
          &errors, errors.empty() ? "" : "; ", where, ": ",
          reply == nullptr ? (*c)->errstr
          : reply->type == REDIS_REPLY_ERROR
              ? AsString(reply.get())
              : absl::StrCat("knows no master '", address_.master_name, "'"));
    }
    redisFree(*c);
    if (ok) return std::make_pair(master_host, master_port);
  }
  return absl::UnavailableError(
      absl::StrCat("redis master ", address_.master_name,
                   ": no sentinel named it: ", errors));
}

absl::Status RedisConnection::ConnectLocked() {
  if (context_ != nullptr) {
    // Redis sends nothing unasked on this connection: anything to read
    // before a command is the end of it (the server restarted or closed
    // it). Reconnect before sending rather than fail the command.
    pollfd p{context_->fd, POLLIN | POLLRDHUP, 0};
    if (::poll(&p, 1, 0) == 0) return absl::OkStatus();
    DisconnectLocked();
  }
  if (!address_.sentinels.empty()) {
    absl::StatusOr<std::pair<std::string, int>> master = AskSentinels();
    if (!master.ok()) return master.status();
    if (master->first != host_ || master->second != port_) {
      std::fprintf(stderr,
                   "gridstar-server: store: the sentinels name %s:%d the "
                   "master of '%s'\n",
                   master->first.c_str(), master->second,
                   address_.master_name.c_str());
    }
    host_ = master->first;
    port_ = master->second;
  } else {
    host_ = address_.host;
    port_ = address_.port;
  }
  absl::StatusOr<redisContext*> c = Open(host_, port_, timeout_, WhereLocked());
  if (!c.ok()) return c.status();
  context_ = *c;
  auto fail = [&](absl::Status s) {
    DisconnectLocked();
    return s;
  };
  const std::string password =
      credentials_ != nullptr ? credentials_->password() : std::string();
  if (!password.empty()) {
    Reply reply(static_cast<redisReply*>(
        address_.user.empty()
            ? redisCommand(context_, "AUTH %b", password.data(),
                           password.size())
            : redisCommand(context_, "AUTH %s %b", address_.user.c_str(),
                           password.data(), password.size())));
    if (reply == nullptr) {
      return fail(absl::UnavailableError(
          absl::StrCat(WhereLocked(), ": AUTH failed: ", context_->errstr)));
    }
    if (reply->type == REDIS_REPLY_ERROR) {
      // Redis's message names neither the password nor anything secret.
      return fail(absl::PermissionDeniedError(absl::StrCat(
          WhereLocked(), ": refused the credentials of ",
          address_.user.empty() ? "the default user"
                                : absl::StrCat("user '", address_.user, "'"),
          " (--store, --store_password_file): ", AsString(reply.get()))));
    }
  }
  // Asked of every connection, so that missing credentials show here and
  // not at the first write; with Sentinel it also checks we reached the
  // master (a failed-over master comes back as a replica).
  Reply role(static_cast<redisReply*>(redisCommand(context_, "ROLE")));
  if (role == nullptr) {
    return fail(absl::UnavailableError(
        absl::StrCat(WhereLocked(), ": ROLE failed: ", context_->errstr)));
  }
  if (role->type == REDIS_REPLY_ERROR) {
    const std::string message = AsString(role.get());
    if (absl::StartsWith(message, "NOAUTH")) {
      return fail(absl::PermissionDeniedError(
          absl::StrCat(WhereLocked(),
                       ": wants a password: give it in --store_password_file (",
                       message, ")")));
    }
    return fail(absl::UnavailableError(
        absl::StrCat(WhereLocked(), ": ROLE: ", message)));
  }
  if (role->type == REDIS_REPLY_ARRAY && role->elements > 0 &&
      AsString(role->element[0]) != "master") {
    return fail(absl::UnavailableError(
        absl::StrCat(WhereLocked(), ": is a ", AsString(role->element[0]),
                     ", not a master (a failover under way?)")));
  }
  if (address_.db != 0) {
    const std::string db = absl::StrCat(address_.db);
    Reply reply(static_cast<redisReply*>(
        redisCommand(context_, "SELECT %s", db.c_str())));
    if (reply == nullptr || reply->type == REDIS_REPLY_ERROR) {
      return fail(absl::UnavailableError(
          absl::StrCat(WhereLocked(), ": SELECT failed: ",
                       reply == nullptr ? context_->errstr : reply->str)));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<RedisConnection::Reply> RedisConnection::Command(
    const std::vector<std::string>& args) {
  std::lock_guard<std::mutex> lock(mu_);
  if (absl::Status s = ConnectLocked(); !s.ok()) return s;
  return CommandLocked(args);
}

absl::StatusOr<RedisConnection::Reply> RedisConnection::CommandReplicated(
    const std::vector<std::string>& args, int min_replicas,
    absl::Duration wait) {
  std::lock_guard<std::mutex> lock(mu_);
  if (absl::Status s = ConnectLocked(); !s.ok()) return s;
  absl::StatusOr<Reply> reply = CommandLocked(args);
  if (!reply.ok() || min_replicas <= 0) return reply;
  // The same connection, no reconnect in between: WAIT counts this write.
  absl::StatusOr<Reply> acks = CommandLocked(
      {"WAIT", absl::StrCat(min_replicas),
       absl::StrCat(std::max<int64_t>(1, absl::ToInt64Milliseconds(wait)))});
  if (!acks.ok()) {
    return absl::UnavailableError(absl::StrCat(
        acks.status().message(), " (after ", args[0],
        " was applied on the master: it may or may not survive a failover)"));
  }
  if ((*acks)->integer < min_replicas) {
    return absl::UnavailableError(absl::StrCat(
        WhereLocked(), ": ", (*acks)->integer, " of the ", min_replicas,
        " replicas asked for (--store_min_replicas) had the write within ",
        absl::FormatDuration(wait),
        " (--store_replica_timeout): it is on the master and survives unless "
        "the master fails before it replicates; read the map's version before "
        "retrying"));
  }
  return reply;
}

absl::StatusOr<RedisConnection::Reply> RedisConnection::CommandLocked(
    const std::vector<std::string>& args) {
  std::vector<const char*> argv;
  std::vector<size_t> argvlen;
  for (const std::string& a : args) {
    argv.push_back(a.data());
    argvlen.push_back(a.size());
  }
  Reply reply(static_cast<redisReply*>(redisCommandArgv(
      context_, static_cast<int>(args.size()), argv.data(), argvlen.data())));
  if (reply == nullptr) {
    // The connection is unusable after an I/O error: the next call
    // reconnects.
    absl::Status s = absl::UnavailableError(absl::StrCat(
        WhereLocked(), ": ", args[0], " failed: ", context_->errstr));
    DisconnectLocked();
    return s;
  }
  if (reply->type == REDIS_REPLY_ERROR) {
    const absl::string_view message(reply->str, reply->len);
    if (absl::StartsWith(message, "VERSION ")) {
      return absl::AbortedError(
          absl::StrCat(WhereLocked(), ": ", message.substr(8)));
    }
    // A master demoted under us (READONLY) or a failover: reconnect next
    // time, asking the sentinels again.
    if (absl::StartsWith(message, "READONLY") ||
        absl::StartsWith(message, "LOADING") ||
        absl::StartsWith(message, "NOAUTH")) {
      absl::Status s = absl::UnavailableError(
          absl::StrCat(WhereLocked(), ": ", args[0], ": ", message));
      DisconnectLocked();
      return s;
    }
    return absl::InternalError(
        absl::StrCat(WhereLocked(), ": ", args[0], ": ", message));
  }
  return reply;
}

}  // namespace gridstar::server
