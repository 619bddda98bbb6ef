#include "store/world_codec.h"

#include <cstdint>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "store/byte_io.h"
#include "store/map_codec.h"

namespace gridstar::server::codec {
namespace {

constexpr uint32_t kMagic = 0x31575347;  // "GSW1", little-endian.
constexpr size_t kMaxIdBytes = 128;

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
  // Each link takes at least 52 bytes: a count past that is corrupt, and
  // nothing is reserved for it.
  if (!GetU32(&in, &links) || links > in.size() / 52) return false;
  world->links.resize(links);
  for (StoredLink& link : world->links) {
    uint32_t from = 0, to = 0, flags = 0, size = 0;
    uint64_t cost_bits = 0;
    if (!GetString(&in, kMaxIdBytes, &link.id) || !GetU32(&in, &from) ||
        from >= maps || !GetCell(&in, &link.from) || !GetU32(&in, &to) ||
        to >= maps || !GetCell(&in, &link.to) || !GetU64(&in, &cost_bits) ||
        !GetU32(&in, &flags) || flags > 3 || !GetU64(&in, &link.areas) ||
        !GetU32(&in, &size)) {
      return false;
    }
    link.from_map = world->maps[from];
    link.to_map = world->maps[to];
    std::memcpy(&link.cost, &cost_bits, sizeof(cost_bits));
    link.both_ways = (flags & 1) != 0;
    link.open = (flags & 2) != 0;
    link.max_agent_size = static_cast<int32_t>(size);
  }
  return in.empty();
}

}  // namespace

std::string EncodeWorldRecord(const StoredWorld& world) {
  std::string payload;
  PutU32(&payload, kMagic);
  PutU64(&payload, world.version);
  PutString(&payload, world.id);
  PutU32(&payload, static_cast<uint32_t>(world.maps.size()));
  for (const std::string& id : world.maps) PutString(&payload, id);
  auto index_of = [&](const std::string& id) {
    for (size_t i = 0; i < world.maps.size(); ++i) {
      if (world.maps[i] == id) return static_cast<uint32_t>(i);
    }
    return static_cast<uint32_t>(world.maps.size());  // REQUIRES says never.
  };
  PutU32(&payload, static_cast<uint32_t>(world.links.size()));
  for (const StoredLink& link : world.links) {
    PutString(&payload, link.id);
    PutU32(&payload, index_of(link.from_map));
    PutCell(&payload, link.from);
    PutU32(&payload, index_of(link.to_map));
    PutCell(&payload, link.to);
    uint64_t cost_bits = 0;
    std::memcpy(&cost_bits, &link.cost, sizeof(cost_bits));
    PutU64(&payload, cost_bits);
    PutU32(&payload, (link.both_ways ? 1u : 0u) | (link.open ? 2u : 0u));
    PutU64(&payload, link.areas);
    PutU32(&payload, static_cast<uint32_t>(link.max_agent_size));
  }
  return FrameRecord(payload);
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
                                            size_t* valid_bytes,
                                            size_t* records) {
  StoredWorld world;
  *records = 0;
  absl::Status s = ForEachRecord(
      data, "world file",
      [&](absl::string_view payload, size_t offset) -> absl::Status {
        StoredWorld next;
        if (!DecodePayload(payload, &next)) {
          return absl::DataLossError(absl::StrCat("world file: record at byte ",
                                                  offset, " does not parse"));
        }
        if (*records > 0 &&
            (next.version <= world.version || next.id != world.id)) {
          return absl::DataLossError(absl::StrCat(
              "world file: record at byte ", offset, " has version ",
              next.version, " after ", world.version));
        }
        world = std::move(next);
        ++*records;
        return absl::OkStatus();
      },
      valid_bytes);
  if (!s.ok()) return s;
  if (*records == 0) {
    return absl::DataLossError("world file: no whole record");
  }
  return world;
}

}  // namespace gridstar::server::codec
