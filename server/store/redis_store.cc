#include "store/redis_store.h"

#include <hiredis/hiredis.h>
#include <sys/time.h>

#include <algorithm>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "store/map_codec.h"

namespace gridstar::server {
namespace {

// Sets the content and forgets the updates (Put).
// KEYS: map, log, ver, maps. ARGV: content, version, id.
constexpr absl::string_view kPutScript = R"lua(
redis.call('SET', KEYS[1], ARGV[1])
redis.call('DEL', KEYS[2])
redis.call('SET', KEYS[3], ARGV[2])
redis.call('SADD', KEYS[4], ARGV[3])
return 1
)lua";

// KEYS: map, log, ver, maps. ARGV: id.
constexpr absl::string_view kDeleteScript = R"lua(
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
redis.call('SREM', KEYS[4], ARGV[1])
return 1
)lua";

// Appends update ARGV[1] when the id is stored at ARGV[1] - 1.
// KEYS: ver, log. ARGV: version, record.
constexpr absl::string_view kAppendScript = R"lua(
local stored = redis.call('GET', KEYS[1])
if not stored then return redis.error_reply('VERSION the map is not stored') end
if tonumber(stored) ~= tonumber(ARGV[1]) - 1 then
  return redis.error_reply('VERSION the map is stored at version ' .. stored)
end
redis.call('XADD', KEYS[2], ARGV[1] .. '-1', 'u', ARGV[2])
redis.call('SET', KEYS[1], ARGV[1])
return 1
)lua";

// Rewrites the content at version ARGV[2], the latest, and trims the
// updates it holds. KEYS: map, log, ver. ARGV: content, version.
constexpr absl::string_view kCompactScript = R"lua(
local stored = redis.call('GET', KEYS[3])
if stored ~= ARGV[2] then
  return redis.error_reply('VERSION the map is stored at version ' .. tostring(stored))
end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('XTRIM', KEYS[2], 'MINID', tostring(tonumber(ARGV[2]) + 1))
return 1
)lua";

}  // namespace

absl::StatusOr<RedisAddress> ParseRedisUrl(absl::string_view url,
                                           absl::string_view field) {
  auto bad = [&](absl::string_view why) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ": '", url, "' ", why,
                     " (want redis://HOST[:PORT][/DB])"));
  };
  constexpr absl::string_view kScheme = "redis://";
  if (!absl::StartsWith(url, kScheme)) return bad("does not start redis://");
  absl::string_view rest = url.substr(kScheme.size());
  RedisAddress address;
  if (const size_t slash = rest.find('/'); slash != absl::string_view::npos) {
    const absl::string_view db = rest.substr(slash + 1);
    if (!absl::SimpleAtoi(db, &address.db) || address.db < 0 ||
        address.db > 15) {
      return bad("has a database number outside 0 to 15");
    }
    rest = rest.substr(0, slash);
  }
  if (const size_t colon = rest.rfind(':'); colon != absl::string_view::npos) {
    if (!absl::SimpleAtoi(rest.substr(colon + 1), &address.port) ||
        address.port < 1 || address.port > 65535) {
      return bad("has a port outside 1 to 65535");
    }
    rest = rest.substr(0, colon);
  }
  if (rest.empty()) return bad("names no host");
  address.host = std::string(rest);
  return address;
}

void RedisStore::ReplyDeleter::operator()(redisReply* r) const {
  freeReplyObject(r);
}

RedisStore::RedisStore(Options options) : options_(std::move(options)) {}

RedisStore::~RedisStore() {
  std::lock_guard<std::mutex> lock(mu_);
  DisconnectLocked();
}

std::string RedisStore::Where() const {
  return absl::StrCat("redis ", options_.address.host, ":",
                      options_.address.port, "/", options_.address.db);
}

std::string RedisStore::Key(absl::string_view kind,
                            absl::string_view id) const {
  return absl::StrCat(options_.key_prefix, kind, id);
}

absl::Status RedisStore::Connect() {
  std::lock_guard<std::mutex> lock(mu_);
  return ConnectLocked();
}

void RedisStore::DisconnectLocked() {
  if (context_ != nullptr) redisFree(context_);
  context_ = nullptr;
}

absl::Status RedisStore::ConnectLocked() {
  if (context_ != nullptr) return absl::OkStatus();
  const timeval tv = absl::ToTimeval(options_.timeout);
  redisContext* c =
      redisConnectWithTimeout(options_.address.host.c_str(),
                              options_.address.port, tv);
  if (c == nullptr) {
    return absl::UnavailableError(absl::StrCat(Where(), ": cannot connect"));
  }
  if (c->err != 0) {
    absl::Status s = absl::UnavailableError(
        absl::StrCat(Where(), ": cannot connect: ", c->errstr));
    redisFree(c);
    return s;
  }
  redisSetTimeout(c, tv);
  context_ = c;
  if (options_.address.db != 0) {
    const std::string db = absl::StrCat(options_.address.db);
    auto* r = static_cast<redisReply*>(
        redisCommand(context_, "SELECT %s", db.c_str()));
    Reply reply(r);
    if (reply == nullptr || reply->type == REDIS_REPLY_ERROR) {
      absl::Status s = absl::UnavailableError(absl::StrCat(
          Where(), ": SELECT failed: ",
          reply == nullptr ? context_->errstr : reply->str));
      DisconnectLocked();
      return s;
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<RedisStore::Reply> RedisStore::Command(
    const std::vector<std::string>& args) {
  std::lock_guard<std::mutex> lock(mu_);
  if (absl::Status s = ConnectLocked(); !s.ok()) return s;
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
    absl::Status s = absl::UnavailableError(
        absl::StrCat(Where(), ": ", args[0], " failed: ", context_->errstr));
    DisconnectLocked();
    return s;
  }
  if (reply->type == REDIS_REPLY_ERROR) {
    const absl::string_view message(reply->str, reply->len);
    if (absl::StartsWith(message, "VERSION ")) {
      return absl::FailedPreconditionError(
          absl::StrCat(Where(), ": ", message.substr(8)));
    }
    return absl::InternalError(
        absl::StrCat(Where(), ": ", args[0], ": ", message));
  }
  return reply;
}

absl::Status RedisStore::LoadAll(std::vector<StoredMap>* maps,
                                 std::vector<std::string>* errors) {
  maps->clear();
  absl::StatusOr<Reply> ids = Command({"SMEMBERS", Key("maps", "")});
  if (!ids.ok()) return ids.status();
  std::vector<std::string> sorted;
  for (size_t i = 0; i < (*ids)->elements; ++i) {
    const redisReply* e = (*ids)->element[i];
    sorted.emplace_back(e->str, e->len);
  }
  std::sort(sorted.begin(), sorted.end());
  std::map<std::string, Sizes> sizes;
  for (const std::string& id : sorted) {
    absl::StatusOr<Reply> content = Command({"GET", Key("map:", id)});
    if (!content.ok()) return content.status();
    if ((*content)->type != REDIS_REPLY_STRING) {
      errors->push_back(absl::StrCat(id, ": listed, but no content stored"));
      continue;
    }
    const absl::string_view bytes((*content)->str, (*content)->len);
    absl::StatusOr<StoredMap> map = codec::DecodeMapFile(bytes);
    if (!map.ok()) {
      errors->push_back(absl::StrCat(id, ": ", map.status().message()));
      continue;
    }
    Sizes& size = sizes[id];
    size.content_bytes = bytes.size();
    absl::StatusOr<Reply> log =
        Command({"XRANGE", Key("log:", id), absl::StrCat(map->version + 1),
                 "+"});
    if (!log.ok()) return log.status();
    absl::Status replayed = absl::OkStatus();
    for (size_t i = 0; i < (*log)->elements && replayed.ok(); ++i) {
      // An entry: [entry id, [field, value]].
      const redisReply* entry = (*log)->element[i];
      if (entry->elements != 2 || entry->element[1]->elements != 2) {
        replayed = absl::DataLossError("update stream: an entry without 'u'");
        break;
      }
      const redisReply* value = entry->element[1]->element[1];
      const absl::string_view record(value->str, value->len);
      size_t valid = 0;
      replayed = codec::ReplayLog(record, &*map, &valid);
      if (replayed.ok() && valid != record.size()) {
        replayed = absl::DataLossError(absl::StrCat(
            "update stream: entry ", entry->element[0]->str,
            " fails its checksum"));
      }
      size.log_bytes += record.size();
    }
    if (!replayed.ok()) {
      errors->push_back(absl::StrCat(id, ": ", replayed.message()));
      continue;
    }
    map->id = id;
    maps->push_back(*std::move(map));
  }
  std::lock_guard<std::mutex> lock(mu_);
  sizes_ = std::move(sizes);
  return absl::OkStatus();
}

absl::Status RedisStore::Put(const StoredMap& map) {
  const std::string content = codec::EncodeMapFile(map);
  absl::StatusOr<Reply> r = Command(
      {"EVAL", std::string(kPutScript), "4", Key("map:", map.id),
       Key("log:", map.id), Key("ver:", map.id), Key("maps", ""),
       content, absl::StrCat(map.version), map.id});
  if (!r.ok()) return r.status();
  std::lock_guard<std::mutex> lock(mu_);
  sizes_[map.id] = {content.size(), 0};
  return absl::OkStatus();
}

absl::Status RedisStore::Delete(const std::string& id) {
  absl::StatusOr<Reply> r =
      Command({"EVAL", std::string(kDeleteScript), "4", Key("map:", id),
               Key("log:", id), Key("ver:", id), Key("maps", ""), id});
  if (!r.ok()) return r.status();
  std::lock_guard<std::mutex> lock(mu_);
  sizes_.erase(id);
  return absl::OkStatus();
}

absl::Status RedisStore::AppendUpdate(const StoredUpdate& update) {
  const std::string record = codec::EncodeUpdateRecord(update);
  absl::StatusOr<Reply> r = Command(
      {"EVAL", std::string(kAppendScript), "2", Key("ver:", update.id),
       Key("log:", update.id), absl::StrCat(update.version), record});
  if (!r.ok()) return r.status();
  std::lock_guard<std::mutex> lock(mu_);
  sizes_[update.id].log_bytes += record.size();
  return absl::OkStatus();
}

bool RedisStore::WantsCompaction(const std::string& id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = sizes_.find(id);
  if (it == sizes_.end()) return false;
  return it->second.log_bytes >= kMinCompactBytes &&
         it->second.log_bytes > it->second.content_bytes / 2;
}

absl::Status RedisStore::Compact(const StoredMap& map) {
  const std::string content = codec::EncodeMapFile(map);
  absl::StatusOr<Reply> r = Command(
      {"EVAL", std::string(kCompactScript), "3", Key("map:", map.id),
       Key("log:", map.id), Key("ver:", map.id), content,
       absl::StrCat(map.version)});
  if (!r.ok()) return r.status();
  std::lock_guard<std::mutex> lock(mu_);
  sizes_[map.id] = {content.size(), 0};
  return absl::OkStatus();
}

}  // namespace gridstar::server
