// The stored form of a world (map_store.h's StoredWorld): one record, the
// whole world at one version, framed as map_codec.h's log records (length,
// masked CRC-32C, payload).
//
// The directory store keeps a world in `<id>.gsworld`: such records
// appended, one per version, fdatasync'd before the write is acknowledged;
// the last good record is the world. A torn last record (cut short, or its
// checksum failing at the end of the file) was never acknowledged and is
// dropped; a bad record followed by more, a record that does not parse or
// versions out of order is corruption. Redis keeps the latest record.
//
//   payload := magic u32 "GSW1" | version u64 | id (u32 length + bytes)
//              | map_count u32 | map ids (u32 length + bytes each)
//              | link_count u32 | links
//   link    := id (u32 length + bytes) | from_map u32 (index into the
//              map ids) | from.x i32 | from.y i32 | to_map u32 | to.x i32
//              | to.y i32 | cost f64 (IEEE bits as u64) | flags u32 (bit 0
//              both ways, bit 1 open) | areas u64 | max_agent_size u32
// All integers little-endian. Ids are at most 128 bytes.
//
// Thread-safety: pure functions.
#ifndef GRIDSTAR_SERVER_STORE_WORLD_CODEC_H_
#define GRIDSTAR_SERVER_STORE_WORLD_CODEC_H_

#include <cstddef>
#include <string>

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

// The world a `.gsworld` file holds (its last good record), by the rules
// above; *valid_bytes is the length up to the last good record (what a
// torn tail is cut to) and *records their count. DataLoss for corruption,
// or when no whole record is there.
absl::StatusOr<StoredWorld> ReplayWorldFile(absl::string_view data,
                                            size_t* valid_bytes,
                                            size_t* records);

}  // namespace gridstar::server::codec

#endif  // GRIDSTAR_SERVER_STORE_WORLD_CODEC_H_
