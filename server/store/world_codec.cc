#include "store/world_codec.h"

#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "store/byte_io.h"
#include "store/map_codec.h"

namespace gridstar::server::codec {
namespace {

constexpr uint32_t kMagic = 0x31575347;      // "GSW1", little-endian.
constexpr uint32_t kEditMagic = 0x31455347;  // "GSE1".
constexpr size_t kMaxIdBytes = 128;
// The smallest encoded link (an empty id).
constexpr size_t kMinLinkBytes = 52;
// Edit entries.
constexpr uint32_t kCopyRun = 0;
constexpr uint32_t kNewLink = 1;

void PutCell(std::string* out, Cell c) {
  PutU32(out, static_cast<uint32_t>(c.x));
  PutU32(out, static_cast<uint32_t>(c.y));
}

bool GetCell(absl::string_view* in, Cell* c) {
  uint32_t x = 0, y = 0;
  if (!GetU32(in, &x) || !GetU32(in, &y)) return false;
  c->x = static_cast<int32_t>(x);
  c->y = static_cast<int32_t>(y);
  return true;
}

// `maps` are the world's member maps (the link's ends are indexes into them).
void PutLink(std::string* out, const StoredLink& link,
             const std::vector<std::string>& maps) {
  auto index_of = [&](const std::string& id) {
    for (size_t i = 0; i < maps.size(); ++i) {
      if (maps[i] == id) return static_cast<uint32_t>(i);
    }
    return static_cast<uint32_t>(maps.size());  // REQUIRES says never.
  };
  PutString(out, link.id);
  PutU32(out, index_of(link.from_map));
  PutCell(out, link.from);
  PutU32(out, index_of(link.to_map));
  PutCell(out, link.to);
  uint64_t cost_bits = 0;
  std::memcpy(&cost_bits, &link.cost, sizeof(cost_bits));
  PutU64(out, cost_bits);
  PutU32(out, (link.both_ways ? 1u : 0u) | (link.open ? 2u : 0u));
  PutU64(out, link.areas);
  PutU32(out, static_cast<uint32_t>(link.max_agent_size));
}

bool GetLink(absl::string_view* in, const std::vector<std::string>& maps,
             StoredLink* link) {
  uint32_t from = 0, to = 0, flags = 0, size = 0;
  uint64_t cost_bits = 0;
  if (!GetString(in, kMaxIdBytes, &link->id) || !GetU32(in, &from) ||
      from >= maps.size() || !GetCell(in, &link->from) || !GetU32(in, &to) ||
      to >= maps.size() || !GetCell(in, &link->to) || !GetU64(in, &cost_bits) ||
      !GetU32(in, &flags) || flags > 3 || !GetU64(in, &link->areas) ||
      !GetU32(in, &size)) {
    return false;
  }
  link->from_map = maps[from];
  link->to_map = maps[to];
  std::memcpy(&link->cost, &cost_bits, sizeof(cost_bits));
  link->both_ways = (flags & 1) != 0;
  link->open = (flags & 2) != 0;
  link->max_agent_size = static_cast<int32_t>(size);
  return true;
}

bool DecodePayload(absl::string_view in, StoredWorld* world) {
  uint32_t magic = 0, maps = 0, links = 0;
  if (!GetU32(&in, &magic) || magic != kMagic ||
      !GetU64(&in, &world->version) || world->version == 0 ||
      !GetString(&in, kMaxIdBytes, &world->id) || !GetU32(&in, &maps) ||
      maps > in.size() / 4) {
    return false;
  }
  world->maps.resize(maps);
  for (std::string& id : world->maps) {
    if (!GetString(&in, kMaxIdBytes, &id)) return false;
  }
  // Each link takes at least kMinLinkBytes: a count past that is corrupt,
  // and nothing is reserved for it.
  if (!GetU32(&in, &links) || links > in.size() / kMinLinkBytes) return false;
  world->links.resize(links);
  for (StoredLink& link : world->links) {
    if (!GetLink(&in, world->maps, &link)) return false;
  }
  return in.empty();
}

// An edit record's payload applied to `world` (its version before), which
// it turns into the next version; false, `world` unspecified, when it does
// not parse or does not follow `world`.
bool ApplyEditPayload(absl::string_view in, StoredWorld* world) {
  uint32_t magic = 0, entries = 0;
  uint64_t version = 0;
  std::string id;
  if (!GetU32(&in, &magic) || magic != kEditMagic || !GetU64(&in, &version) ||
      version != world->version + 1 || !GetString(&in, kMaxIdBytes, &id) ||
      id != world->id || !GetU32(&in, &entries) || entries > in.size() / 4) {
    return false;
  }
  std::vector<StoredLink> links;
  // The runs copy each link of the version before at most once between them
  // (the links of a version have distinct ids): a record that copies more is
  // corrupt, and no record makes more links than it holds plus those.
  size_t copied = 0;
  for (uint32_t e = 0; e < entries; ++e) {
    uint32_t kind = 0;
    if (!GetU32(&in, &kind)) return false;
    if (kind == kCopyRun) {
      uint32_t begin = 0, count = 0;
      if (!GetU32(&in, &begin) || !GetU32(&in, &count) ||
          begin > world->links.size() || count > world->links.size() - begin ||
          count > world->links.size() - copied) {
        return false;
      }
      copied += count;
      links.insert(links.end(), world->links.begin() + begin,
                   world->links.begin() + begin + count);
    } else if (kind == kNewLink) {
      StoredLink link;
      if (!GetLink(&in, world->maps, &link)) return false;
      links.push_back(std::move(link));
    } else {
      return false;
    }
  }
  if (!in.empty()) return false;
  world->version = version;
  world->links = std::move(links);
  return true;
}

}  // namespace

std::string EncodeWorldRecord(const StoredWorld& world) {
  std::string payload;
  PutU32(&payload, kMagic);
  PutU64(&payload, world.version);
  PutString(&payload, world.id);
  PutU32(&payload, static_cast<uint32_t>(world.maps.size()));
  for (const std::string& id : world.maps) PutString(&payload, id);
  PutU32(&payload, static_cast<uint32_t>(world.links.size()));
  for (const StoredLink& link : world.links) {
    PutLink(&payload, link, world.maps);
  }
  return FrameRecord(payload);
}

size_t WholeWorldRecordBytes(const StoredWorld& world) {
  size_t bytes = kRecordHeaderBytes + 4 + 8 + 4 + world.id.size() + 4 + 4;
  for (const std::string& id : world.maps) bytes += 4 + id.size();
  for (const StoredLink& link : world.links) {
    bytes += kMinLinkBytes + link.id.size();
  }
  return bytes;
}

std::string EncodeWorldStep(const StoredWorld* before, const StoredWorld& after,
                            bool* whole) {
  *whole = true;
  if (before == nullptr || before->id != after.id ||
      before->maps != after.maps || after.version != before->version + 1) {
    return EncodeWorldRecord(after);
  }
  // Each link of `after` is the next of a run of `before`'s (the same id and
  // content at the next index), the start of a new run (found by id), or
  // written whole.
  absl::flat_hash_map<absl::string_view, uint32_t> index_of;
  for (uint32_t i = 0; i < before->links.size(); ++i) {
    index_of.emplace(before->links[i].id, i);
  }
  std::string entries;
  uint32_t count = 0, run_begin = 0, run_length = 0;
  auto end_run = [&] {
    if (run_length == 0) return;
    PutU32(&entries, kCopyRun);
    PutU32(&entries, run_begin);
    PutU32(&entries, run_length);
    ++count;
    run_length = 0;
  };
  for (const StoredLink& link : after.links) {
    const uint32_t next = run_begin + run_length;
    if (run_length > 0 && next < before->links.size() &&
        before->links[next] == link) {
      ++run_length;
      continue;
    }
    end_run();
    auto it = index_of.find(link.id);
    if (it != index_of.end() && before->links[it->second] == link) {
      run_begin = it->second;
      run_length = 1;
      continue;
    }
    PutU32(&entries, kNewLink);
    PutLink(&entries, link, after.maps);
    ++count;
  }
  end_run();
  std::string payload;
  PutU32(&payload, kEditMagic);
  PutU64(&payload, after.version);
  PutString(&payload, after.id);
  PutU32(&payload, count);
  payload += entries;
  std::string edit = FrameRecord(payload);
  // The whole world is encoded only when it is the shorter: a toggle of a
  // 4096-link world need not encode and checksum 260 KB to find out.
  if (edit.size() >= WholeWorldRecordBytes(after)) {
    return EncodeWorldRecord(after);
  }
  *whole = false;
  return edit;
}

absl::StatusOr<StoredWorld> DecodeWorldRecord(absl::string_view record) {
  StoredWorld world;
  bool whole = false;
  size_t valid = 0;
  absl::Status s = ForEachRecord(
      record, "world record",
      [&](absl::string_view payload, size_t) -> absl::Status {
        if (whole || !DecodePayload(payload, &world)) {
          return absl::DataLossError("world record: does not parse");
        }
        whole = true;
        return absl::OkStatus();
      },
      &valid);
  if (!s.ok()) return s;
  if (!whole || valid != record.size()) {
    return absl::DataLossError("world record: torn or failing its checksum");
  }
  return world;
}

absl::StatusOr<StoredWorld> ReplayWorldFile(absl::string_view data,
                                            WorldFileShape* shape) {
  StoredWorld world;
  *shape = WorldFileShape();
  absl::Status s = ForEachRecord(
      data, "world file",
      [&](absl::string_view payload, size_t offset) -> absl::Status {
        uint32_t magic = 0;
        absl::string_view head = payload;
        GetU32(&head, &magic);
        if (magic == kEditMagic) {
          // Applied to a copy: a record that fails leaves the world as it was
          // for the message.
          StoredWorld next = world;
          if (shape->records == 0 || !ApplyEditPayload(payload, &next)) {
            return absl::DataLossError(
                absl::StrCat("world file: edit record at byte ", offset,
                             " does not follow version ", world.version));
          }
          world = std::move(next);
          ++shape->edits_since_whole;
        } else {
          StoredWorld next;
          if (!DecodePayload(payload, &next)) {
            return absl::DataLossError(absl::StrCat(
                "world file: record at byte ", offset, " does not parse"));
          }
          if (shape->records > 0 &&
              (next.version <= world.version || next.id != world.id)) {
            return absl::DataLossError(absl::StrCat(
                "world file: record at byte ", offset, " has version ",
                next.version, " after ", world.version));
          }
          world = std::move(next);
          shape->whole_record_bytes = payload.size() + kRecordHeaderBytes;
          shape->edits_since_whole = 0;
        }
        ++shape->records;
        return absl::OkStatus();
      },
      &shape->valid_bytes);
  if (!s.ok()) return s;
  if (shape->records == 0) {
    return absl::DataLossError("world file: no whole record");
  }
  return world;
}

}  // namespace gridstar::server::codec
