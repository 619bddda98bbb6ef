// The stored form of a world (map_store.h's StoredWorld), framed as
// map_codec.h's log records (length, masked CRC-32C, payload): a whole
// record (the world at one version), or an edit record (the next version,
// as what changed since the version before).
//
// The directory store keeps a world in `<id>.gsworld`: one record appended
// per version, fdatasync'd before the write is acknowledged; a whole record
// first, then whole or edit records; the world is the last good record's
// version. An edit record is written when the member maps did not change
// and it is the shorter (a link toggle of a 96-link world: about 120 bytes
// against 6 KB, a write the disk makes durable sooner). A torn last record
// (cut short, or its checksum failing at the end of the file) was never
// acknowledged and is dropped; a bad record followed by more, a record that
// does not parse, versions out of order or an edit that does not follow
// the version before it is corruption. Redis keeps the latest whole record.
//
//   whole   := magic u32 "GSW1" | version u64 | id (u32 length + bytes)
//              | map_count u32 | map ids (u32 length + bytes each)
//              | link_count u32 | links
//   link    := id (u32 length + bytes) | from_map u32 (index into the
//              map ids) | from.x i32 | from.y i32 | to_map u32 | to.x i32
//              | to.y i32 | cost f64 (IEEE bits as u64) | flags u32 (bit 0
//              both ways, bit 1 open) | areas u64 | max_agent_size u32
//   edit    := magic u32 "GSE1" | version u64 (the one before + 1) | id
//              | entry_count u32 | entries: the links of the new version,
//              in order, each entry either
//                0 u32 | begin u32 | count u32 (the version before's links
//                        [begin, begin + count), as they were), or
//                1 u32 | link (the member maps are the version before's);
//              the runs copy each link of the version before at most once
// All integers little-endian. Ids are at most 128 bytes.
//
// Thread-safety: pure functions.
#ifndef GRIDSTAR_SERVER_STORE_WORLD_CODEC_H_
#define GRIDSTAR_SERVER_STORE_WORLD_CODEC_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "store/map_store.h"

namespace gridstar::server::codec {

inline constexpr absl::string_view kWorldSuffix = ".gsworld";

// One framed record of `world`. REQUIRES: every link's maps are among
// world.maps.
std::string EncodeWorldRecord(const StoredWorld& world);

// One whole framed record back into a world: DataLoss when it is torn,
// fails its checksum or does not parse.
absl::StatusOr<StoredWorld> DecodeWorldRecord(absl::string_view record);

// The record a `.gsworld` file takes to go from `before` (its last
// version; null when the file is new or was not read) to `after`: an edit
// record when `after` follows `before` by one version with the same id and
// member maps and that is the shorter, else the whole world.
// REQUIRES: every link's maps are among after.maps.
// *whole says which it is.
std::string EncodeWorldStep(const StoredWorld* before, const StoredWorld& after,
                            bool* whole);

// EncodeWorldRecord(world).size(), without encoding it.
size_t WholeWorldRecordBytes(const StoredWorld& world);

// What ReplayWorldFile read.
struct WorldFileShape {
  size_t valid_bytes = 0;  // Up to the last good record: a torn tail's cut.
  size_t records = 0;      // Good records.
  size_t whole_record_bytes = 0;  // The last whole record's, framed.
  size_t edits_since_whole = 0;   // Edit records after it.
};

// The world a `.gsworld` file holds (its last good record), by the rules
// above, and *shape. DataLoss for corruption, or when no whole record is
// there.
absl::StatusOr<StoredWorld> ReplayWorldFile(absl::string_view data,
                                            WorldFileShape* shape);

}  // namespace gridstar::server::codec

#endif  // GRIDSTAR_SERVER_STORE_WORLD_CODEC_H_
