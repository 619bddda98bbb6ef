#include "store/map_codec.h"

#include <algorithm>
#include <array>
#include <utility>

#include "absl/strings/str_cat.h"
#include "gridstar/agents.h"
#include "gridstar/engines/alt.h"
#include "gridstar/grid_map.h"
#include "gridstar/map_update.h"
#include "store/byte_io.h"

namespace gridstar::server::codec {
namespace {

// The structures the first format's header has bits for.
bool IsHeaderStructure(absl::string_view name) {
  return name == "jump_table" || name == "landmarks" || name == "hpa" ||
         name == "subgoal_graph";
}

constexpr char kMagic[8] = {'G', 'S', 'M', 'A', 'P', '0', '0', '1'};

uint64_t Fnv1a(absl::string_view data) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : data) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::array<uint32_t, 256> MakeCrcTable() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0x82f63b78u : c >> 1;
    table[i] = c;
  }
  return table;
}

// Decodes a record's payload. False when it does not parse.
bool DecodePayload(absl::string_view in, StoredUpdate* update) {
  uint32_t count;
  if (!GetU64(&in, &update->version) || !GetU32(&in, &count) ||
      in.size() < static_cast<size_t>(count) * 17) {
    return false;
  }
  update->changes.resize(count);
  for (CellChange& c : update->changes) {
    uint32_t v[4] = {0, 0, 0, 0};
    for (uint32_t& x : v) GetU32(&in, &x);
    c.min = {static_cast<int32_t>(v[0]), static_cast<int32_t>(v[1])};
    c.max = {static_cast<int32_t>(v[2]), static_cast<int32_t>(v[3])};
    c.cost = static_cast<uint8_t>(in[0]);
    in.remove_prefix(1);
  }
  update->area_changes.clear();
  if (in.empty()) return true;
  uint32_t area_count;
  if (!GetU32(&in, &area_count) || area_count == 0 ||
      in.size() != static_cast<size_t>(area_count) * 17) {
    return false;
  }
  update->area_changes.resize(area_count);
  for (AreaChange& c : update->area_changes) {
    uint32_t v[4] = {0, 0, 0, 0};
    for (uint32_t& x : v) GetU32(&in, &x);
    c.min = {static_cast<int32_t>(v[0]), static_cast<int32_t>(v[1])};
    c.max = {static_cast<int32_t>(v[2]), static_cast<int32_t>(v[3])};
    c.area = static_cast<uint8_t>(in[0]);
    in.remove_prefix(1);
  }
  return true;
}

}  // namespace

uint32_t Crc32c(absl::string_view data) {
  static const std::array<uint32_t, 256> kTable = MakeCrcTable();
  uint32_t c = 0xffffffffu;
  for (unsigned char b : data) c = kTable[(c ^ b) & 0xff] ^ (c >> 8);
  return c ^ 0xffffffffu;
}

std::string EncodeMapFile(const StoredMap& m) {
  std::string out(kMagic, sizeof(kMagic));
  PutU64(&out, m.id.size());
  out += m.id;
  PutU64(&out, m.version);
  const bool agent_fields = !m.areas.empty() ||
                            m.options.default_areas != kAllAreas ||
                            m.options.max_agent_size > 1;
  // The structures of the first format keep their header bits (a file
  // asking only for those reads the same as before); any other is named in
  // a section after the cells (bit 21).
  std::vector<std::pair<std::string, int>> named;
  for (const auto& [name, count] : m.options.structures) {
    if (!IsHeaderStructure(name)) named.emplace_back(name, count);
  }
  PutU64(&out,
         static_cast<uint64_t>(m.options.default_diagonal) |
             (m.options.Asks("jump_table") ? uint64_t{1} << 8 : 0) |
             (static_cast<uint64_t>(m.options.CountOf("landmarks")) << 9) |
             (m.options.Asks("hpa") ? uint64_t{1} << 15 : 0) |
             (agent_fields ? uint64_t{1} << 16 : 0) |
             (static_cast<uint64_t>(std::max(1, m.options.max_agent_size) - 1)
              << 17) |
             (m.options.Asks("subgoal_graph") ? uint64_t{1} << 20 : 0) |
             (named.empty() ? 0 : uint64_t{1} << 21));
  PutU64(&out, static_cast<uint64_t>(m.width));
  PutU64(&out, static_cast<uint64_t>(m.height));
  out.append(reinterpret_cast<const char*>(m.costs.data()), m.costs.size());
  if (!named.empty()) {
    PutU64(&out, named.size());
    for (const auto& [name, count] : named) {
      PutU64(&out, name.size());
      out += name;
      PutU64(&out, static_cast<uint64_t>(count));
    }
  }
  if (agent_fields) {
    PutU64(&out, m.options.default_areas);
    PutU64(&out, m.areas.size());
    out.append(reinterpret_cast<const char*>(m.areas.data()), m.areas.size());
  }
  PutU64(&out, Fnv1a(out));
  return out;
}

absl::StatusOr<StoredMap> DecodeMapFile(absl::string_view data) {
  if (data.size() < sizeof(kMagic) + 8 ||
      data.substr(0, sizeof(kMagic)) !=
          absl::string_view(kMagic, sizeof(kMagic))) {
    return absl::DataLossError("not a gridstar map file (bad magic)");
  }
  absl::string_view tail = data.substr(data.size() - 8);
  uint64_t sum;
  GetU64(&tail, &sum);
  if (sum != Fnv1a(data.substr(0, data.size() - 8))) {
    return absl::DataLossError("checksum mismatch");
  }
  absl::string_view in =
      data.substr(sizeof(kMagic), data.size() - 8 - sizeof(kMagic));
  uint64_t id_len, version, flags, width, height;
  if (!GetU64(&in, &id_len) || id_len > in.size()) {
    return absl::DataLossError("truncated id");
  }
  StoredMap m;
  m.id = std::string(in.substr(0, id_len));
  in.remove_prefix(id_len);
  if (!GetU64(&in, &version) || !GetU64(&in, &flags) || !GetU64(&in, &width) ||
      !GetU64(&in, &height) || (flags & 0xff) > 2 ||
      ((flags >> 9) & 63) > kMaxLandmarks || (flags >> 22) != 0 ||
      version == 0) {
    return absl::DataLossError("truncated or invalid header");
  }
  const bool agent_fields = ((flags >> 16) & 1) != 0;
  const bool named_section = ((flags >> 21) & 1) != 0;
  if (width < 1 || height < 1 || width > 1u << 20 || height > 1u << 20 ||
      (agent_fields || named_section ? width * height > in.size()
                                     : width * height != in.size())) {
    return absl::DataLossError("size out of range or cells truncated");
  }
  absl::string_view cells = in.substr(0, width * height);
  in.remove_prefix(width * height);
  if (named_section) {
    uint64_t n = 0;
    if (!GetU64(&in, &n) || n == 0 || n > 64) {
      return absl::DataLossError("structures section truncated or invalid");
    }
    for (uint64_t i = 0; i < n; ++i) {
      uint64_t name_len = 0, count = 0;
      if (!GetU64(&in, &name_len) || name_len == 0 || name_len > 64 ||
          name_len > in.size()) {
        return absl::DataLossError("structure name truncated or invalid");
      }
      std::string name(in.substr(0, name_len));
      in.remove_prefix(name_len);
      if (!GetU64(&in, &count) || count > 1u << 20 || IsHeaderStructure(name) ||
          !m.options.structures
               .emplace(std::move(name), static_cast<int>(count))
               .second) {
        return absl::DataLossError("structure count truncated or invalid");
      }
    }
  }
  if (agent_fields ? in.size() < 16 : !in.empty()) {
    return absl::DataLossError("trailing bytes or agent fields truncated");
  }
  m.options.max_agent_size = static_cast<int>((flags >> 17) & 7) + 1;
  if (agent_fields) {
    uint64_t areas_len = 0;
    GetU64(&in, &m.options.default_areas);
    GetU64(&in, &areas_len);
    if ((areas_len != 0 && areas_len != width * height) ||
        areas_len != in.size()) {
      return absl::DataLossError("areas truncated or of the wrong size");
    }
    m.areas.assign(in.begin(), in.end());
    for (uint8_t a : m.areas) {
      if (a >= kMaxAreas) return absl::DataLossError("area id out of range");
    }
  }
  m.version = version;
  m.options.default_diagonal = static_cast<DiagonalPolicy>(flags & 0xff);
  if (((flags >> 8) & 1) != 0) m.options.structures["jump_table"] = 1;
  if (const int landmarks = static_cast<int>((flags >> 9) & 63);
      landmarks > 0) {
    m.options.structures["landmarks"] = landmarks;
  }
  if (((flags >> 15) & 1) != 0) m.options.structures["hpa"] = 1;
  if (((flags >> 20) & 1) != 0) m.options.structures["subgoal_graph"] = 1;
  m.width = static_cast<int32_t>(width);
  m.height = static_cast<int32_t>(height);
  m.costs.assign(cells.begin(), cells.end());
  return m;
}

std::string EncodeUpdateRecord(const StoredUpdate& u) {
  std::string payload;
  payload.reserve(12 + u.changes.size() * 17);
  PutU64(&payload, u.version);
  PutU32(&payload, static_cast<uint32_t>(u.changes.size()));
  for (const CellChange& c : u.changes) {
    PutU32(&payload, static_cast<uint32_t>(c.min.x));
    PutU32(&payload, static_cast<uint32_t>(c.min.y));
    PutU32(&payload, static_cast<uint32_t>(c.max.x));
    PutU32(&payload, static_cast<uint32_t>(c.max.y));
    payload.push_back(static_cast<char>(c.cost));
  }
  if (!u.area_changes.empty()) {
    PutU32(&payload, static_cast<uint32_t>(u.area_changes.size()));
    for (const AreaChange& c : u.area_changes) {
      PutU32(&payload, static_cast<uint32_t>(c.min.x));
      PutU32(&payload, static_cast<uint32_t>(c.min.y));
      PutU32(&payload, static_cast<uint32_t>(c.max.x));
      PutU32(&payload, static_cast<uint32_t>(c.max.y));
      payload.push_back(static_cast<char>(c.area));
    }
  }
  return FrameRecord(payload);
}

std::string FrameRecord(absl::string_view payload) {
  std::string out;
  out.reserve(kRecordHeaderBytes + payload.size());
  PutU32(&out, static_cast<uint32_t>(payload.size()));
  PutU32(&out, MaskCrc(Crc32c(payload)));
  out.append(payload.data(), payload.size());
  return out;
}

absl::Status DecodeUpdateRecord(absl::string_view record,
                                StoredUpdate* update) {
  absl::string_view in = record;
  uint32_t length, crc;
  if (in.size() < kRecordHeaderBytes) {
    return absl::DataLossError("update record: torn header");
  }
  GetU32(&in, &length);
  GetU32(&in, &crc);
  if (length != in.size()) {
    return absl::DataLossError("update record: wrong length");
  }
  if (MaskCrc(Crc32c(in)) != crc) {
    return absl::DataLossError("update record: fails its checksum");
  }
  if (!DecodePayload(in, update)) {
    return absl::DataLossError("update record: does not parse");
  }
  return absl::OkStatus();
}

absl::Status ForEachRecord(
    absl::string_view log, absl::string_view what,
    absl::FunctionRef<absl::Status(absl::string_view payload, size_t offset)>
        each,
    size_t* valid_bytes) {
  size_t offset = 0;
  *valid_bytes = 0;
  while (offset < log.size()) {
    absl::string_view in = log.substr(offset);
    uint32_t length, crc;
    if (in.size() < kRecordHeaderBytes) break;  // A torn header.
    GetU32(&in, &length);
    GetU32(&in, &crc);
    if (length > in.size()) break;  // A torn payload.
    const absl::string_view payload = in.substr(0, length);
    const size_t end = offset + kRecordHeaderBytes + length;
    if (MaskCrc(Crc32c(payload)) != crc) {
      if (end == log.size()) break;  // The torn last record.
      return absl::DataLossError(absl::StrCat(what, ": record at byte ", offset,
                                              " fails its checksum"));
    }
    if (absl::Status s = each(payload, offset); !s.ok()) return s;
    offset = end;
    *valid_bytes = offset;
  }
  return absl::OkStatus();
}

absl::Status ReplayLog(absl::string_view log, StoredMap* map,
                       size_t* valid_bytes) {
  StoredUpdate update;
  return ForEachRecord(
      log, "update log",
      [&](absl::string_view payload, size_t offset) -> absl::Status {
        if (!DecodePayload(payload, &update)) {
          return absl::DataLossError(absl::StrCat("update log: record at byte ",
                                                  offset, " does not parse"));
        }
        if (update.version <= map->version) return absl::OkStatus();
        if (update.version != map->version + 1) {
          return absl::DataLossError(absl::StrCat(
              "update log: record at byte ", offset, " has version ",
              update.version, " after ", map->version));
        }
        absl::Status valid = ValidateChanges(
            map->width, map->height, update.changes,
            [](size_t i) { return absl::StrCat("change ", i); });
        if (valid.ok()) {
          valid = ValidateAreaChanges(
              map->width, map->height, update.area_changes,
              [](size_t i) { return absl::StrCat("area change ", i); });
        }
        if (!valid.ok()) {
          return absl::DataLossError(absl::StrCat(
              "update log: record at byte ", offset, ": ", valid.message()));
        }
        ApplyChangesToCosts(map->width, update.changes,
                            absl::MakeSpan(map->costs));
        if (!update.area_changes.empty()) {
          if (map->areas.empty()) map->areas.assign(map->costs.size(), 0);
          ApplyAreaChanges(map->width, update.area_changes,
                           absl::MakeSpan(map->areas));
        }
        map->version = update.version;
        return absl::OkStatus();
      },
      valid_bytes);
}

}  // namespace gridstar::server::codec
