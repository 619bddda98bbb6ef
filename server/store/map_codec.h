// The on-disk format of the directory store (directory_store.h): one map
// file and one update log per map.
//
// Map file `<id>.gsmap` (written whole: temp file, fsync, rename, fsync of the
// directory). All integers little-endian u64:
//     magic    8 bytes "GSMAP001"
//     id_len   then id_len bytes of id
//     version  >= 1
//     flags    bits 0..7 the default DiagonalPolicy (0..2), bit 8 jump_table,
//              bits 9..14 the landmark count (<= 32), bit 15 hpa, bit 16
//              "agent fields follow", bits 17..19 max_agent_size - 1, bit
//              20 subgoal_graph, bit 21 "named structures follow", the
//              rest 0
//     width, height
//     costs    width * height bytes, row-major
//     with bit 21 (structures other than the four with header bits, by
//     their DerivedStructure name): n (1..64), then n times name_len
//       (1..64), name_len bytes of name, count
//     with bit 16 (a map with areas, or default areas other than all):
//       default_areas, areas_len (0 or width * height), areas_len bytes
//     checksum FNV-1a 64 of every byte before it
// A file that fails any check is corrupt: the map is reported and skipped.
//
// Update log `<id>.gslog` (appended, fsync'd before the update is
// acknowledged): a sequence of records, no header.
//     record   := length u32 | crc u32 | payload (length bytes)
//     crc      CRC-32C (Castagnoli) of the payload, masked as leveldb does
//              (rotated right 15 bits plus 0xa282ead8) so that a log holding
//              its own checksums does not verify by accident
//     payload  := version u64 | count u32 | count x change
//                 [ area_count u32 | area_count x area_change ]
//     change   := min.x i32 | min.y i32 | max.x i32 | max.y i32 | cost u8
//     area_change := min.x i32 | min.y i32 | max.x i32 | max.y i32 | area u8
//     (the area part only when the update set areas)
// All integers little-endian. Records follow the map file's version in
// order: version + 1, + 2, ... Recovery reads records until the end:
//   - a last record cut short (fewer bytes left than its header or length
//     says) or whose checksum fails is a torn write, never acknowledged:
//     it is dropped (and the file truncated before it);
//   - a record at or below the map file's version was folded in by a
//     compaction that crashed before truncating the log: skipped;
//   - anything else (a bad record followed by more data, a version gap, a
//     payload that does not parse, a change outside the map) is corruption:
//     the map is reported and skipped.
//
// Thread-safety: pure functions.
#ifndef GRIDSTAR_SERVER_STORE_MAP_CODEC_H_
#define GRIDSTAR_SERVER_STORE_MAP_CODEC_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "store/map_store.h"

namespace gridstar::server::codec {

inline constexpr absl::string_view kMapSuffix = ".gsmap";
inline constexpr absl::string_view kLogSuffix = ".gslog";
inline constexpr size_t kRecordHeaderBytes = 8;

std::string EncodeMapFile(const StoredMap& map);
// DataLoss naming what is wrong.
absl::StatusOr<StoredMap> DecodeMapFile(absl::string_view data);

// One log record (header and payload) for `update`.
std::string EncodeUpdateRecord(const StoredUpdate& update);

// One whole record (header and payload) back into an update: DataLoss when
// it is torn, fails its checksum or does not parse.
absl::Status DecodeUpdateRecord(absl::string_view record, StoredUpdate* update);

// The records of a log read by the rules above, for a map file at
// `map.version`; each applied to map.costs in order (and map.version
// advanced). *valid_bytes is the length of the log up to the last good
// record (what a torn tail is truncated to). DataLoss for corruption.
absl::Status ReplayLog(absl::string_view log, StoredMap* map,
                       size_t* valid_bytes);

// A record (length, masked CRC-32C, payload) around `payload`.
std::string FrameRecord(absl::string_view payload);

// Walks the records of a log by the rules above: `each` gets every whole
// record's payload that passes its checksum, with its offset, in order, and
// its error stops the walk and is returned; a torn last record ends the walk
// (*valid_bytes is where it begins); a bad checksum before the end is
// DataLoss ("<what>: record at byte N fails its checksum").
absl::Status ForEachRecord(
    absl::string_view log, absl::string_view what,
    absl::FunctionRef<absl::Status(absl::string_view payload, size_t offset)>
        each,
    size_t* valid_bytes);

// CRC-32C of `data`, and the masked form records store.
uint32_t Crc32c(absl::string_view data);
inline uint32_t MaskCrc(uint32_t crc) {
  return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}

}  // namespace gridstar::server::codec

#endif  // GRIDSTAR_SERVER_STORE_MAP_CODEC_H_
