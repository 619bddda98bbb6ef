#include "store/redis_store.h"

#include <hiredis/hiredis.h>

#include <algorithm>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "store/map_codec.h"
#include "store/world_codec.h"

namespace gridstar::server {
namespace {

// Sets the content and forgets the updates (Put); returns the new
// registration number. KEYS: map, log, ver, maps, inc, incarnations,
// events. ARGV: content, version, id.
constexpr absl::string_view kPutScript = R"lua(
redis.call('SET', KEYS[1], ARGV[1])
redis.call('DEL', KEYS[2])
redis.call('SET', KEYS[3], ARGV[2])
redis.call('SADD', KEYS[4], ARGV[3])
local inc = redis.call('INCR', KEYS[6])
redis.call('SET', KEYS[5], inc)
redis.call('XADD', KEYS[7], 'MAXLEN', '~', '10000', '*', 'id', ARGV[3])
return inc
)lua";

// KEYS: map, log, ver, maps, inc, events. ARGV: id.
constexpr absl::string_view kDeleteScript = R"lua(
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[5])
redis.call('SREM', KEYS[4], ARGV[1])
redis.call('XADD', KEYS[6], 'MAXLEN', '~', '10000', '*', 'id', ARGV[1])
return 1
)lua";

// Appends update ARGV[1] when the id is stored at ARGV[1] - 1.
// KEYS: ver, log, events. ARGV: version, record, id.
constexpr absl::string_view kAppendScript = R"lua(
local stored = redis.call('GET', KEYS[1])
if not stored then return redis.error_reply('VERSION the map is not stored') end
if tonumber(stored) ~= tonumber(ARGV[1]) - 1 then
  return redis.error_reply('VERSION the map is stored at version ' .. stored)
end
redis.call('XADD', KEYS[2], ARGV[1] .. '-1', 'u', ARGV[2])
redis.call('SET', KEYS[1], ARGV[1])
redis.call('XADD', KEYS[3], 'MAXLEN', '~', '10000', '*', 'id', ARGV[3])
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

// Content, registration and updates of one id, read at one instant.
// KEYS: map, inc, log.
constexpr absl::string_view kLoadScript = R"lua(
return {redis.call('GET', KEYS[1]), redis.call('GET', KEYS[2]),
        redis.call('XRANGE', KEYS[3], '-', '+')}
)lua";

// Every stored id and its version, flattened. KEYS: maps. ARGV: prefix.
constexpr absl::string_view kVersionsScript = R"lua(
local out = {}
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  out[#out + 1] = id
  out[#out + 1] = redis.call('GET', ARGV[1] .. 'ver:' .. id) or '0'
end
return out
)lua";

// Writes world record ARGV[1] at version ARGV[2] when the id is stored at
// ARGV[2] - 1 (not stored: 0). KEYS: world, wver, worlds, events. ARGV:
// record, version, id, event.
constexpr absl::string_view kPutWorldScript = R"lua(
local stored = tonumber(redis.call('GET', KEYS[2]) or '0')
if stored ~= tonumber(ARGV[2]) - 1 then
  return redis.error_reply('VERSION the world is stored at version ' .. stored)
end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SET', KEYS[2], ARGV[2])
redis.call('SADD', KEYS[3], ARGV[3])
redis.call('XADD', KEYS[4], 'MAXLEN', '~', '10000', '*', 'id', ARGV[4])
return 1
)lua";

// KEYS: world, wver, worlds, events. ARGV: id, event.
constexpr absl::string_view kDeleteWorldScript = R"lua(
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('SREM', KEYS[3], ARGV[1])
redis.call('XADD', KEYS[4], 'MAXLEN', '~', '10000', '*', 'id', ARGV[2])
return 1
)lua";

std::string AsString(const redisReply* r) {
  return r == nullptr || r->str == nullptr ? std::string()
                                           : std::string(r->str, r->len);
}

// The update records of stream entries [[id, [field, value]], ...].
absl::Status RecordsOf(const redisReply* entries,
                       std::vector<std::string>* records) {
  for (size_t i = 0; i < entries->elements; ++i) {
    const redisReply* entry = entries->element[i];
    if (entry->type != REDIS_REPLY_ARRAY || entry->elements != 2 ||
        entry->element[1]->elements != 2) {
      return absl::DataLossError("update stream: an entry without 'u'");
    }
    records->push_back(AsString(entry->element[1]->element[1]));
  }
  return absl::OkStatus();
}

// The world stored under `id`: NotFound when none; DataLoss when its
// record fails its checksum or does not parse.
absl::StatusOr<StoredWorld> LoadWorldWith(RedisConnection& connection,
                                          const std::string& prefix,
                                          const std::string& id) {
  absl::StatusOr<RedisConnection::Reply> r =
      connection.Command({"GET", prefix + "world:" + id});
  if (!r.ok()) return r.status();
  if ((*r)->type != REDIS_REPLY_STRING) {
    return absl::NotFoundError(absl::StrCat("world ", id, ": not stored"));
  }
  absl::StatusOr<StoredWorld> world =
      codec::DecodeWorldRecord(AsString(r->get()));
  if (world.ok() && world->id != id) {
    return absl::DataLossError(absl::StrCat(
        "world ", id, ": the record holds world '", world->id, "'"));
  }
  return world;
}

}  // namespace

// Waits on <prefix>events; catches maps up from their streams.
class RedisStore::Follower final : public MapStoreFollower {
 public:
  Follower(const Options& options, std::shared_ptr<Seen> seen,
           std::string last_event)
      : prefix_(options.key_prefix),
        // A blocking read holds the connection: its own, with room for the
        // longest wait on top of the command timeout.
        connection_(options.address, options.timeout + absl::Seconds(60),
                    options.credentials),
        seen_(std::move(seen)),
        last_event_(std::move(last_event)) {}

  absl::StatusOr<std::vector<std::string>> WaitForWrites(
      absl::Duration wait) override {
    absl::StatusOr<Reply> r = connection_.Command(
        {"XREAD", "COUNT", "1000", "BLOCK",
         absl::StrCat(std::max<int64_t>(1, absl::ToInt64Milliseconds(wait))),
         "STREAMS", prefix_ + "events", last_event_});
    if (!r.ok()) return r.status();
    std::vector<std::string> ids;
    if ((*r)->type != REDIS_REPLY_ARRAY || (*r)->elements == 0) return ids;
    // [[stream, [[entry id, ["id", map id]], ...]]]
    const redisReply* entries = (*r)->element[0]->element[1];
    for (size_t i = 0; i < entries->elements; ++i) {
      const redisReply* entry = entries->element[i];
      last_event_ = AsString(entry->element[0]);
      if (entry->element[1]->elements == 2) {
        ids.push_back(AsString(entry->element[1]->element[1]));
      }
    }
    return ids;
  }

  absl::StatusOr<std::vector<std::pair<std::string, uint64_t>>> StoredVersions()
      override {
    absl::StatusOr<Reply> r = connection_.Command(
        {"EVAL", std::string(kVersionsScript), "1", prefix_ + "maps", prefix_});
    if (!r.ok()) return r.status();
    std::vector<std::pair<std::string, uint64_t>> out;
    for (size_t i = 0; i + 1 < (*r)->elements; i += 2) {
      uint64_t version = 0;
      (void)absl::SimpleAtoi(AsString((*r)->element[i + 1]), &version);
      out.emplace_back(AsString((*r)->element[i]), version);
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  absl::StatusOr<StoreCatchUp> CatchUp(const std::string& id,
                                       uint64_t version) override {
    StoreCatchUp out;
    absl::StatusOr<Reply> inc =
        connection_.Command({"GET", prefix_ + "inc:" + id});
    if (!inc.ok()) return inc.status();
    if ((*inc)->type != REDIS_REPLY_STRING) {
      out.stored = false;
      return out;
    }
    long long incarnation = 0;
    (void)absl::SimpleAtoi(AsString(inc->get()), &incarnation);
    bool same_registration = false;
    {
      std::lock_guard<std::mutex> lock(seen_->mu);
      auto it = seen_->incarnation.find(id);
      same_registration =
          it != seen_->incarnation.end() && it->second == incarnation;
    }
    if (version > 0 && same_registration) {
      absl::StatusOr<Reply> log = connection_.Command(
          {"XRANGE", prefix_ + "log:" + id, absl::StrCat(version + 1), "+"});
      if (!log.ok()) return log.status();
      std::vector<std::string> records;
      if (absl::Status s = RecordsOf(log->get(), &records); !s.ok()) return s;
      // A stream that starts right after the held version brings it there
      // (all of the way, or as far as it went when read: a later event
      // brings the rest); one compacted past it does not (the content does).
      uint64_t at = version;
      for (const std::string& record : records) {
        StoredUpdate u;
        if (absl::Status s = codec::DecodeUpdateRecord(record, &u); !s.ok()) {
          return s;
        }
        if (u.version != at + 1) break;
        u.id = id;
        out.updates.push_back(std::move(u));
        ++at;
      }
      if (!out.updates.empty()) return out;
      if (records.empty()) {
        // Current, unless a compaction trimmed every update past the held
        // version: then the content.
        absl::StatusOr<Reply> ver =
            connection_.Command({"GET", prefix_ + "ver:" + id});
        if (!ver.ok()) return ver.status();
        uint64_t stored = 0;
        (void)absl::SimpleAtoi(AsString(ver->get()), &stored);
        if (stored <= version) return out;
      }
    }
    uint64_t content_bytes = 0, log_bytes = 0;
    long long loaded_incarnation = 0;
    absl::StatusOr<StoredMap> map =
        LoadOne(connection_, prefix_, id, &loaded_incarnation, &content_bytes,
                &log_bytes);
    if (absl::IsNotFound(map.status())) {
      out.stored = false;
      return out;
    }
    if (!map.ok()) return map.status();
    {
      std::lock_guard<std::mutex> lock(seen_->mu);
      seen_->incarnation[id] = loaded_incarnation;
    }
    out.has_content = true;
    out.content = *std::move(map);
    return out;
  }

  absl::StatusOr<StoredWorld> LoadWorld(const std::string& id) override {
    return LoadWorldWith(connection_, prefix_, id);
  }

  absl::StatusOr<std::vector<std::string>> StoredWorldIds() override {
    absl::StatusOr<Reply> r =
        connection_.Command({"SMEMBERS", prefix_ + "worlds"});
    if (!r.ok()) return r.status();
    std::vector<std::string> ids;
    for (size_t i = 0; i < (*r)->elements; ++i) {
      ids.push_back(AsString((*r)->element[i]));
    }
    std::sort(ids.begin(), ids.end());
    return ids;
  }

 private:
  const std::string prefix_;
  RedisConnection connection_;
  std::shared_ptr<Seen> seen_;
  std::string last_event_;
};

RedisStore::RedisStore(Options options)
    : options_(std::move(options)),
      connection_(options_.address, options_.timeout, options_.credentials) {}

RedisStore::~RedisStore() = default;

std::string RedisStore::Key(absl::string_view kind,
                            absl::string_view id) const {
  return absl::StrCat(options_.key_prefix, kind, id);
}

absl::Status RedisStore::Connect() { return connection_.Connect(); }

absl::StatusOr<std::unique_ptr<MapStoreFollower>> RedisStore::NewFollower() {
  // Events from the last one now: nothing after the caller's LoadAll is
  // missed (what came between is caught up twice, harmlessly).
  absl::StatusOr<Reply> last = connection_.Command(
      {"XREVRANGE", Key("events", ""), "+", "-", "COUNT", "1"});
  if (!last.ok()) return last.status();
  std::string last_event = "0-0";
  if ((*last)->elements == 1)
    last_event = AsString((*last)->element[0]->element[0]);
  return std::unique_ptr<MapStoreFollower>(
      new Follower(options_, seen_, std::move(last_event)));
}

absl::StatusOr<StoredMap> RedisStore::LoadOne(RedisConnection& connection,
                                              const std::string& prefix,
                                              const std::string& id,
                                              long long* incarnation,
                                              uint64_t* content_bytes,
                                              uint64_t* log_bytes) {
  // One script: a write between the reads cannot mix two registrations.
  absl::StatusOr<Reply> all = connection.Command(
      {"EVAL", std::string(kLoadScript), "3", prefix + "map:" + id,
       prefix + "inc:" + id, prefix + "log:" + id});
  if (!all.ok()) return all.status();
  if ((*all)->type != REDIS_REPLY_ARRAY || (*all)->elements != 3) {
    return absl::DataLossError(absl::StrCat(id, ": unexpected reply"));
  }
  const redisReply* content = (*all)->element[0];
  if (content->type != REDIS_REPLY_STRING) {
    return absl::NotFoundError(absl::StrCat(id, ": no content stored"));
  }
  (void)absl::SimpleAtoi(AsString((*all)->element[1]), incarnation);
  absl::StatusOr<StoredMap> map = codec::DecodeMapFile(AsString(content));
  if (!map.ok()) return map.status();
  *content_bytes = content->len;
  std::vector<std::string> records;
  if (absl::Status s = RecordsOf((*all)->element[2], &records); !s.ok()) {
    return s;
  }
  *log_bytes = 0;
  for (const std::string& record : records) {
    size_t valid = 0;
    if (absl::Status s = codec::ReplayLog(record, &*map, &valid); !s.ok()) {
      return s;
    }
    if (valid != record.size()) {
      return absl::DataLossError("update stream: an entry fails its checksum");
    }
    *log_bytes += record.size();
  }
  map->id = id;
  return map;
}

absl::Status RedisStore::LoadAll(std::vector<StoredMap>* maps,
                                 std::vector<std::string>* errors) {
  maps->clear();
  absl::StatusOr<Reply> ids =
      connection_.Command({"SMEMBERS", Key("maps", "")});
  if (!ids.ok()) return ids.status();
  std::vector<std::string> sorted;
  for (size_t i = 0; i < (*ids)->elements; ++i) {
    sorted.push_back(AsString((*ids)->element[i]));
  }
  std::sort(sorted.begin(), sorted.end());
  std::map<std::string, Sizes> sizes;
  for (const std::string& id : sorted) {
    long long incarnation = 0;
    Sizes size;
    absl::StatusOr<StoredMap> map =
        LoadOne(connection_, options_.key_prefix, id, &incarnation,
                &size.content_bytes, &size.log_bytes);
    if (absl::IsUnavailable(map.status())) return map.status();
    if (!map.ok()) {
      errors->push_back(absl::StrCat(id, ": ", map.status().message()));
      continue;
    }
    {
      std::lock_guard<std::mutex> lock(seen_->mu);
      seen_->incarnation[id] = incarnation;
    }
    sizes[id] = size;
    maps->push_back(*std::move(map));
  }
  std::lock_guard<std::mutex> lock(mu_);
  sizes_ = std::move(sizes);
  return absl::OkStatus();
}

absl::Status RedisStore::Put(const StoredMap& map) {
  const std::string content = codec::EncodeMapFile(map);
  absl::StatusOr<Reply> r = connection_.CommandReplicated(
      {"EVAL", std::string(kPutScript), "7", Key("map:", map.id),
       Key("log:", map.id), Key("ver:", map.id), Key("maps", ""),
       Key("inc:", map.id), Key("incarnations", ""), Key("events", ""), content,
       absl::StrCat(map.version), map.id},
      options_.min_replicas, options_.replica_timeout);
  if (!r.ok()) return r.status();
  {
    // This process's own registration: its followers need not reload it.
    std::lock_guard<std::mutex> lock(seen_->mu);
    seen_->incarnation[map.id] = (*r)->integer;
  }
  std::lock_guard<std::mutex> lock(mu_);
  sizes_[map.id] = {content.size(), 0};
  return absl::OkStatus();
}

absl::Status RedisStore::Delete(const std::string& id) {
  absl::StatusOr<Reply> r = connection_.CommandReplicated(
      {"EVAL", std::string(kDeleteScript), "6", Key("map:", id),
       Key("log:", id), Key("ver:", id), Key("maps", ""), Key("inc:", id),
       Key("events", ""), id},
      options_.min_replicas, options_.replica_timeout);
  if (!r.ok()) return r.status();
  std::lock_guard<std::mutex> lock(mu_);
  sizes_.erase(id);
  return absl::OkStatus();
}

absl::Status RedisStore::AppendUpdate(const StoredUpdate& update) {
  const std::string record = codec::EncodeUpdateRecord(update);
  absl::StatusOr<Reply> r = connection_.CommandReplicated(
      {"EVAL", std::string(kAppendScript), "3", Key("ver:", update.id),
       Key("log:", update.id), Key("events", ""), absl::StrCat(update.version),
       record, update.id},
      options_.min_replicas, options_.replica_timeout);
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
  absl::StatusOr<Reply> r = connection_.CommandReplicated(
      {"EVAL", std::string(kCompactScript), "3", Key("map:", map.id),
       Key("log:", map.id), Key("ver:", map.id), content,
       absl::StrCat(map.version)},
      options_.min_replicas, options_.replica_timeout);
  if (!r.ok()) return r.status();
  std::lock_guard<std::mutex> lock(mu_);
  sizes_[map.id] = {content.size(), 0};
  return absl::OkStatus();
}

absl::Status RedisStore::LoadWorlds(std::vector<StoredWorld>* worlds,
                                    std::vector<std::string>* errors) {
  worlds->clear();
  absl::StatusOr<Reply> ids =
      connection_.Command({"SMEMBERS", Key("worlds", "")});
  if (!ids.ok()) return ids.status();
  std::vector<std::string> sorted;
  for (size_t i = 0; i < (*ids)->elements; ++i) {
    sorted.push_back(AsString((*ids)->element[i]));
  }
  std::sort(sorted.begin(), sorted.end());
  for (const std::string& id : sorted) {
    absl::StatusOr<StoredWorld> world =
        LoadWorldWith(connection_, options_.key_prefix, id);
    if (absl::IsUnavailable(world.status())) return world.status();
    if (!world.ok()) {
      errors->push_back(
          absl::StrCat("world ", id, ": ", world.status().message()));
      continue;
    }
    worlds->push_back(*std::move(world));
  }
  return absl::OkStatus();
}

absl::Status RedisStore::PutWorld(const StoredWorld& world) {
  absl::StatusOr<Reply> r = connection_.CommandReplicated(
      {"EVAL", std::string(kPutWorldScript), "4", Key("world:", world.id),
       Key("wver:", world.id), Key("worlds", ""), Key("events", ""),
       codec::EncodeWorldRecord(world), absl::StrCat(world.version), world.id,
       absl::StrCat(kWorldWritePrefix, world.id)},
      options_.min_replicas, options_.replica_timeout);
  return r.status();
}

absl::Status RedisStore::DeleteWorld(const std::string& id) {
  absl::StatusOr<Reply> r = connection_.CommandReplicated(
      {"EVAL", std::string(kDeleteWorldScript), "4", Key("world:", id),
       Key("wver:", id), Key("worlds", ""), Key("events", ""), id,
       absl::StrCat(kWorldWritePrefix, id)},
      options_.min_replicas, options_.replica_timeout);
  return r.status();
}

}  // namespace gridstar::server
