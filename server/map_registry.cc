#include "map_registry.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "gridstar/map_io.h"

namespace gridstar::server {
namespace {

// File layout: magic, then little-endian fields, then an FNV-1a checksum of
// everything before it.
constexpr char kMagic[8] = {'G', 'S', 'M', 'A', 'P', '0', '0', '1'};
constexpr absl::string_view kSuffix = ".gsmap";

uint64_t Fnv1a(absl::string_view data) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : data) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

void PutU64(std::string* out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out->push_back(static_cast<char>(v >> (8 * i)));
}

bool GetU64(absl::string_view* in, uint64_t* v) {
  if (in->size() < 8) return false;
  *v = 0;
  for (int i = 0; i < 8; ++i) {
    *v |= static_cast<uint64_t>(static_cast<unsigned char>((*in)[i])) << (8 * i);
  }
  in->remove_prefix(8);
  return true;
}

std::string Encode(const MapSnapshot& s) {
  std::string out(kMagic, sizeof(kMagic));
  PutU64(&out, s.id.size());
  out += s.id;
  PutU64(&out, s.version);
  // The policy's byte, and options above it: bit 8 jump_table, bits 9..14
  // the landmark count.
  PutU64(&out, static_cast<uint64_t>(s.options.default_diagonal) |
                   (s.options.jump_table ? uint64_t{1} << 8 : 0) |
                   (static_cast<uint64_t>(s.options.landmarks) << 9));
  PutU64(&out, static_cast<uint64_t>(s.map.width()));
  PutU64(&out, static_cast<uint64_t>(s.map.height()));
  const std::vector<uint8_t> costs = s.map.CopyCosts();
  out.append(reinterpret_cast<const char*>(costs.data()), costs.size());
  PutU64(&out, Fnv1a(out));
  return out;
}

absl::StatusOr<MapSnapshot> Decode(absl::string_view data) {
  if (data.size() < sizeof(kMagic) + 8 ||
      data.substr(0, sizeof(kMagic)) != absl::string_view(kMagic, sizeof(kMagic))) {
    return absl::DataLossError("not a gridstar map file (bad magic)");
  }
  absl::string_view tail = data.substr(data.size() - 8);
  uint64_t sum;
  GetU64(&tail, &sum);
  if (sum != Fnv1a(data.substr(0, data.size() - 8))) {
    return absl::DataLossError("checksum mismatch");
  }
  absl::string_view in = data.substr(sizeof(kMagic), data.size() - 8 - sizeof(kMagic));
  uint64_t id_len, version, flags, width, height;
  if (!GetU64(&in, &id_len) || id_len > in.size()) {
    return absl::DataLossError("truncated id");
  }
  std::string id(in.substr(0, id_len));
  in.remove_prefix(id_len);
  if (!GetU64(&in, &version) || !GetU64(&in, &flags) || !GetU64(&in, &width) ||
      !GetU64(&in, &height) || (flags & 0xff) > 2 ||
      ((flags >> 9) & 63) > GridMap::kMaxLandmarks || (flags >> 15) != 0 ||
      version == 0) {
    return absl::DataLossError("truncated or invalid header");
  }
  if (width > 1u << 20 || height > 1u << 20) {
    return absl::DataLossError("size out of range");
  }
  absl::StatusOr<GridMap> map = ParseRawMap(static_cast<int64_t>(width),
                                            static_cast<int64_t>(height), in);
  if (!map.ok()) return absl::DataLossError(map.status().message());
  MapOptions options;
  options.default_diagonal = static_cast<DiagonalPolicy>(flags & 0xff);
  options.jump_table = ((flags >> 8) & 1) != 0;
  options.landmarks = static_cast<int>((flags >> 9) & 63);
  return MapSnapshot(std::move(id), version, options, *std::move(map));
}

absl::Status Errno(absl::string_view what, const std::string& path) {
  return absl::InternalError(
      absl::StrCat(what, " ", path, ": ", std::strerror(errno)));
}

}  // namespace

MapSnapshot::MapSnapshot(std::string id_in, uint64_t version_in,
                         MapOptions options_in, GridMap map_in,
                         const GridMap* landmarks_of)
    : id(std::move(id_in)), version(version_in), options(options_in),
      map(std::move(map_in)) {
  if (options.landmarks > 0 && map.passable_count() > 0) {
    if (landmarks_of != nullptr && landmarks_of->landmark_count() > 0) {
      map.ShareLandmarksOf(*landmarks_of);
    } else {
      const absl::Time t0 = absl::Now();
      if (map.BuildLandmarks(options.landmarks, options.default_diagonal).ok()) {
        landmark_build_micros = absl::ToDoubleMicroseconds(absl::Now() - t0);
      }
    }
  }
  // Built on every new version, so a table is never stale; a map that lost
  // its uniform costs simply has none (jps+ then runs as jps or A*).
  if (options.jump_table && map.uniform_cost()) {
    const absl::Time t0 = absl::Now();
    if (map.BuildJumpTable().ok()) {
      jump_table_build_micros = absl::ToDoubleMicroseconds(absl::Now() - t0);
    }
  }
}

absl::Status ValidateMapId(absl::string_view id, absl::string_view field) {
  if (id.empty() || id.size() > 128) {
    return absl::InvalidArgumentError(absl::StrCat(
        field, ": must be 1 to 128 characters, got ", id.size()));
  }
  for (char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
    if (!ok) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ": only [A-Za-z0-9_.-] are allowed"));
    }
  }
  return absl::OkStatus();
}

MapRegistry::MapRegistry(std::string data_dir, Limits limits)
    : data_dir_(std::move(data_dir)), limits_(limits) {}

std::string MapRegistry::PathOf(const std::string& id) const {
  return absl::StrCat(data_dir_, "/", id, kSuffix);
}

absl::Status MapRegistry::LoadAll(std::vector<std::string>* errors) {
  if (data_dir_.empty()) return absl::OkStatus();
  DIR* dir = opendir(data_dir_.c_str());
  if (dir == nullptr) return Errno("cannot open data_dir", data_dir_);
  std::vector<std::string> names;
  while (dirent* e = readdir(dir)) {
    if (absl::EndsWith(e->d_name, kSuffix)) names.push_back(e->d_name);
  }
  closedir(dir);
  std::lock_guard<std::mutex> write(write_mu_);
  for (const std::string& name : names) {
    const std::string path = absl::StrCat(data_dir_, "/", name);
    absl::StatusOr<std::string> data = ReadFile(path, int64_t{1} << 31);
    absl::StatusOr<MapSnapshot> s =
        data.ok() ? Decode(*data) : absl::StatusOr<MapSnapshot>(data.status());
    if (s.ok() && PathOf(s->id) != path) {
      s = absl::DataLossError(absl::StrCat("holds map '", s->id, "'"));
    }
    if (!s.ok()) {
      errors->push_back(absl::StrCat(path, ": ", s.status().message()));
      continue;
    }
    const std::string id = s->id;
    Swap(id, std::make_shared<const MapSnapshot>(*std::move(s)));
  }
  return absl::OkStatus();
}

absl::Status MapRegistry::Persist(const MapSnapshot& snapshot) const {
  if (data_dir_.empty()) return absl::OkStatus();
  const std::string path = PathOf(snapshot.id);
  const std::string tmp = path + ".tmp";
  const std::string data = Encode(snapshot);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Errno("cannot create", tmp);
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      ::close(fd);
      return Errno("cannot write", tmp);
    }
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) {
    ::close(fd);
    return Errno("cannot fsync", tmp);
  }
  ::close(fd);
  if (::rename(tmp.c_str(), path.c_str()) != 0) return Errno("cannot rename", tmp);
  // The rename itself must reach the disk before the change is acknowledged.
  const int dir = ::open(data_dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return Errno("cannot open", data_dir_);
  const int rc = ::fsync(dir);
  ::close(dir);
  if (rc != 0) return Errno("cannot fsync", data_dir_);
  return absl::OkStatus();
}

void MapRegistry::Swap(const std::string& id,
                       std::shared_ptr<const MapSnapshot> next) {
  std::shared_ptr<const MapSnapshot> old;  // Freed outside the lock.
  std::lock_guard<std::mutex> lock(mu_);
  auto& slot = maps_[id];
  old = std::move(slot);
  slot = std::move(next);
}

absl::StatusOr<std::shared_ptr<const MapSnapshot>> MapRegistry::Register(
    const std::string& id, GridMap map, MapOptions options, bool replace) {
  if (absl::Status s = ValidateMapId(id, "id"); !s.ok()) return s;
  std::lock_guard<std::mutex> write(write_mu_);
  std::shared_ptr<const MapSnapshot> old = Find(id);
  if (old != nullptr) {
    const bool same = old->options == options &&
                      old->map.width() == map.width() &&
                      old->map.height() == map.height() &&
                      old->map.CopyCosts() == map.CopyCosts();
    if (same) return old;
    if (!replace) {
      return absl::AlreadyExistsError(absl::StrCat(
          "id: map '", id, "' is registered with other content (version ",
          old->version, "); set replace to overwrite it"));
    }
  } else if (map_count() >= limits_.max_maps) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "the server holds its maximum of ", limits_.max_maps, " maps"));
  }
  const int64_t cells_after =
      total_cells() - (old ? old->map.cell_count() : 0) + map.cell_count();
  if (cells_after > limits_.max_total_cells) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "registering ", map.cell_count(), " cells would exceed the server's ",
        limits_.max_total_cells, " cells of maps (--max_total_cells)"));
  }
  auto next = std::make_shared<MapSnapshot>(id, old ? old->version + 1 : 1,
                                            options, std::move(map));
  if (absl::Status s = Persist(*next); !s.ok()) return s;
  Swap(id, next);
  return std::shared_ptr<const MapSnapshot>(std::move(next));
}

absl::StatusOr<std::shared_ptr<const MapSnapshot>> MapRegistry::Update(
    const std::string& id, const std::vector<CellChange>& changes,
    uint64_t expected_version) {
  if (absl::Status s = ValidateMapId(id, "id"); !s.ok()) return s;
  std::lock_guard<std::mutex> write(write_mu_);
  std::shared_ptr<const MapSnapshot> old = Find(id);
  if (old == nullptr) {
    return absl::NotFoundError(absl::StrCat("id: no map '", id, "'"));
  }
  if (expected_version != 0 && expected_version != old->version) {
    return absl::FailedPreconditionError(
        absl::StrCat("expected_version: map '", id, "' is at version ",
                     old->version, ", not ", expected_version));
  }
  const int32_t w = old->map.width(), h = old->map.height();
  for (size_t i = 0; i < changes.size(); ++i) {
    const CellChange& c = changes[i];
    if (c.min.x < 0 || c.min.y < 0 || c.max.x > w || c.max.y > h ||
        c.min.x >= c.max.x || c.min.y >= c.max.y) {
      return absl::InvalidArgumentError(absl::StrCat(
          "change ", i, ": [", c.min.x, ", ", c.max.x, ") x [", c.min.y, ", ",
          c.max.y, ") is empty or not inside the ", w, " x ", h, " map"));
    }
  }
  std::vector<uint8_t> costs = old->map.CopyCosts();
  // Distances only grow when every change raises a cost or blocks a cell:
  // the landmarks' bounds then stay admissible and consistent.
  bool only_raised = true;
  for (const CellChange& c : changes) {
    for (int32_t y = c.min.y; y < c.max.y; ++y) {
      for (int32_t x = c.min.x; x < c.max.x; ++x) {
        uint8_t& cost = costs[static_cast<size_t>(y) * w + x];
        only_raised = only_raised && (c.cost == 0 || (cost != 0 && c.cost >= cost));
        cost = c.cost;
      }
    }
  }
  absl::StatusOr<GridMap> map = GridMap::FromCosts(w, h, costs);
  if (!map.ok()) return map.status();
  auto next = std::make_shared<MapSnapshot>(
      id, old->version + 1, old->options, *std::move(map),
      only_raised ? &old->map : nullptr);
  if (absl::Status s = Persist(*next); !s.ok()) return s;
  Swap(id, next);
  return std::shared_ptr<const MapSnapshot>(std::move(next));
}

absl::Status MapRegistry::Delete(const std::string& id) {
  if (absl::Status s = ValidateMapId(id, "id"); !s.ok()) return s;
  std::lock_guard<std::mutex> write(write_mu_);
  if (Find(id) == nullptr) {
    return absl::NotFoundError(absl::StrCat("id: no map '", id, "'"));
  }
  if (!data_dir_.empty()) {
    const std::string path = PathOf(id);
    if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
      return Errno("cannot remove", path);
    }
    const int dir = ::open(data_dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
      ::fsync(dir);
      ::close(dir);
    }
  }
  std::shared_ptr<const MapSnapshot> old;
  std::lock_guard<std::mutex> lock(mu_);
  auto it = maps_.find(id);
  old = std::move(it->second);
  maps_.erase(it);
  return absl::OkStatus();
}

std::shared_ptr<const MapSnapshot> MapRegistry::Find(const std::string& id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = maps_.find(id);
  return it == maps_.end() ? nullptr : it->second;
}

std::vector<std::shared_ptr<const MapSnapshot>> MapRegistry::List() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::shared_ptr<const MapSnapshot>> out;
  for (const auto& [id, s] : maps_) out.push_back(s);
  return out;
}

size_t MapRegistry::map_count() const {
  std::lock_guard<std::mutex> lock(mu_);
  return maps_.size();
}

int64_t MapRegistry::total_cells() const {
  std::lock_guard<std::mutex> lock(mu_);
  int64_t sum = 0;
  for (const auto& [id, s] : maps_) sum += s->map.cell_count();
  return sum;
}

size_t MapRegistry::memory_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  size_t sum = 0;
  for (const auto& [id, s] : maps_) sum += s->map.MemoryBytes();
  return sum;
}

}  // namespace gridstar::server
