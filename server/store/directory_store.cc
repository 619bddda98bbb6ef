#include "store/directory_store.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gridstar/map_io.h"
#include "store/map_codec.h"
#include "store/world_codec.h"

namespace gridstar::server {
namespace {

absl::Status Errno(absl::string_view what, const std::string& path) {
  // The disk is the server's to fix or free: the caller may retry later.
  return absl::UnavailableError(
      absl::StrCat(what, " ", path, ": ", std::strerror(errno)));
}

absl::Status WriteAll(int fd, absl::string_view data, const std::string& path) {
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Errno("cannot write", path);
    }
    done += static_cast<size_t>(n);
  }
  return absl::OkStatus();
}

absl::Status SyncDir(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return Errno("cannot open", dir);
  const int rc = ::fsync(fd);
  ::close(fd);
  if (rc != 0) return Errno("cannot fsync", dir);
  return absl::OkStatus();
}

bool Exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

// Writes `data` as the whole of `path`: a temp file, fsync'd, renamed over
// it, and the directory fsync'd, so that a crash leaves the old file or the
// new one.
absl::Status WriteFileDurably(const std::string& dir, const std::string& path,
                              absl::string_view data) {
  const std::string tmp = path + ".tmp";
  const int fd =
      ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Errno("cannot create", tmp);
  absl::Status s = WriteAll(fd, data, tmp);
  if (s.ok() && ::fsync(fd) != 0) s = Errno("cannot fsync", tmp);
  ::close(fd);
  if (!s.ok()) {
    ::unlink(tmp.c_str());
    return s;
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    s = Errno("cannot rename", tmp);
    ::unlink(tmp.c_str());
    return s;
  }
  // The rename itself must reach the disk before the write is acknowledged.
  return SyncDir(dir);
}

// Appends `record` to `path` (made if missing) and fdatasyncs it; on a
// failure cuts the file back to `before` bytes.
absl::Status AppendDurably(const std::string& dir, const std::string& path,
                           absl::string_view record, uint64_t before) {
  const bool creating = before == 0 && !Exists(path);
  const int fd =
      ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return Errno("cannot open", path);
  absl::Status s = WriteAll(fd, record, path);
  if (s.ok() && ::fdatasync(fd) != 0) s = Errno("cannot fdatasync", path);
  ::close(fd);
  if (!s.ok()) {
    // Cut a partial record, so that the file ends where it did; were that
    // to fail too, recovery drops the torn record (never acknowledged).
    if (::truncate(path.c_str(), static_cast<off_t>(before)) != 0) {
      // Nothing more to do here.
    }
    return s;
  }
  if (creating) return SyncDir(dir);
  return absl::OkStatus();
}

// The names in `dir` ending with `suffix`, sorted.
absl::StatusOr<std::vector<std::string>> NamesEndingWith(
    const std::string& dir, absl::string_view suffix) {
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return Errno("cannot open data_dir", dir);
  std::vector<std::string> names;
  while (dirent* e = readdir(d)) {
    if (absl::EndsWith(e->d_name, suffix)) names.push_back(e->d_name);
  }
  closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

absl::Status DirectoryStore::CreateDir(const std::string& dir, bool* created) {
  *created = false;
  if (dir.empty()) return absl::InvalidArgumentError("data_dir: empty path");
  // Each prefix ending before a '/', then the whole path.
  for (size_t end = dir.find('/', 1);; end = dir.find('/', end + 1)) {
    const std::string prefix = dir.substr(0, end);
    struct stat st;
    if (::stat(prefix.c_str(), &st) == 0) {
      if (!S_ISDIR(st.st_mode)) {
        return absl::FailedPreconditionError(
            absl::StrCat("data_dir ", dir, ": ", prefix, " is not a directory"));
      }
    } else if (errno != ENOENT) {
      return Errno("cannot stat", prefix);
    } else if (::mkdir(prefix.c_str(), 0700) == 0) {
      *created = true;
    } else if (errno != EEXIST) {  // EEXIST: made meanwhile by another.
      return Errno("cannot create data_dir", prefix);
    }
    if (end == std::string::npos) break;
  }
  return absl::OkStatus();
}

std::string DirectoryStore::MapPath(const std::string& id) const {
  return absl::StrCat(dir_, "/", id, codec::kMapSuffix);
}

std::string DirectoryStore::LogPath(const std::string& id) const {
  return absl::StrCat(dir_, "/", id, codec::kLogSuffix);
}

absl::Status DirectoryStore::LoadAll(std::vector<StoredMap>* maps,
                                     std::vector<std::string>* errors) {
  absl::StatusOr<std::vector<std::string>> names =
      NamesEndingWith(dir_, codec::kMapSuffix);
  if (!names.ok()) return names.status();
  for (const std::string& name : *names) {
    const std::string path = absl::StrCat(dir_, "/", name);
    absl::StatusOr<std::string> data = ReadFile(path, int64_t{1} << 31);
    absl::StatusOr<StoredMap> m =
        data.ok() ? codec::DecodeMapFile(*data)
                  : absl::StatusOr<StoredMap>(data.status());
    if (m.ok() && MapPath(m->id) != path) {
      m = absl::DataLossError(absl::StrCat("holds map '", m->id, "'"));
    }
    if (!m.ok()) {
      errors->push_back(absl::StrCat(path, ": ", m.status().message()));
      continue;
    }
    Sizes sizes;
    sizes.map_bytes = data->size();
    const std::string log_path = LogPath(m->id);
    if (Exists(log_path)) {
      absl::StatusOr<std::string> log = ReadFile(log_path, int64_t{1} << 33);
      size_t valid = 0;
      absl::Status s =
          log.ok() ? codec::ReplayLog(*log, &*m, &valid) : log.status();
      if (!s.ok()) {
        errors->push_back(absl::StrCat(log_path, ": ", s.message()));
        continue;
      }
      // A torn tail was never acknowledged: cut it, so that the next record
      // appended follows the last good one.
      if (valid < log->size() &&
          ::truncate(log_path.c_str(), static_cast<off_t>(valid)) != 0) {
        errors->push_back(absl::StrCat(
            log_path,
            ": cannot truncate the torn tail: ", std::strerror(errno)));
        continue;
      }
      sizes.log_bytes = valid;
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      sizes_[m->id] = sizes;
    }
    maps->push_back(*std::move(m));
  }
  return absl::OkStatus();
}

absl::Status DirectoryStore::WriteMapFile(const StoredMap& map) {
  const std::string data = codec::EncodeMapFile(map);
  if (absl::Status s = WriteFileDurably(dir_, MapPath(map.id), data); !s.ok()) {
    return s;
  }
  std::lock_guard<std::mutex> lock(mu_);
  sizes_[map.id].map_bytes = data.size();
  return absl::OkStatus();
}

absl::Status DirectoryStore::RemoveLog(const std::string& id) {
  const std::string path = LogPath(id);
  if (::unlink(path.c_str()) != 0) {
    if (errno != ENOENT) return Errno("cannot remove", path);
  } else if (absl::Status s = SyncDir(dir_); !s.ok()) {
    return s;
  }
  std::lock_guard<std::mutex> lock(mu_);
  sizes_[id].log_bytes = 0;
  return absl::OkStatus();
}

absl::Status DirectoryStore::Put(const StoredMap& map) {
  // The new content first: until the log is gone its records are at or
  // below the old version, below the new one, and recovery skips them.
  if (absl::Status s = WriteMapFile(map); !s.ok()) return s;
  return RemoveLog(map.id);
}

absl::Status DirectoryStore::Compact(const StoredMap& map) { return Put(map); }

absl::Status DirectoryStore::Delete(const std::string& id) {
  // The log first: a log never outlives its map file.
  if (absl::Status s = RemoveLog(id); !s.ok()) return s;
  const std::string path = MapPath(id);
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
    return Errno("cannot remove", path);
  }
  if (absl::Status s = SyncDir(dir_); !s.ok()) return s;
  std::lock_guard<std::mutex> lock(mu_);
  sizes_.erase(id);
  return absl::OkStatus();
}

absl::Status DirectoryStore::AppendUpdate(const StoredUpdate& update) {
  const std::string path = LogPath(update.id);
  const std::string record = codec::EncodeUpdateRecord(update);
  uint64_t before;
  {
    std::lock_guard<std::mutex> lock(mu_);
    before = sizes_[update.id].log_bytes;
  }
  if (absl::Status s = AppendDurably(dir_, path, record, before); !s.ok()) {
    return s;
  }
  std::lock_guard<std::mutex> lock(mu_);
  sizes_[update.id].log_bytes = before + record.size();
  return absl::OkStatus();
}

bool DirectoryStore::WantsCompaction(const std::string& id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = sizes_.find(id);
  if (it == sizes_.end()) return false;
  return it->second.log_bytes >= kMinCompactBytes &&
         it->second.log_bytes > it->second.map_bytes / 2;
}

std::string DirectoryStore::WorldPath(const std::string& id) const {
  return absl::StrCat(dir_, "/", id, codec::kWorldSuffix);
}

absl::Status DirectoryStore::LoadWorlds(std::vector<StoredWorld>* worlds,
                                        std::vector<std::string>* errors) {
  absl::StatusOr<std::vector<std::string>> names =
      NamesEndingWith(dir_, codec::kWorldSuffix);
  if (!names.ok()) return names.status();
  std::map<std::string, WorldFile> loaded;
  for (const std::string& name : *names) {
    const std::string path = absl::StrCat(dir_, "/", name);
    absl::StatusOr<std::string> data = ReadFile(path, int64_t{1} << 31);
    codec::WorldFileShape shape;
    absl::StatusOr<StoredWorld> w =
        data.ok() ? codec::ReplayWorldFile(*data, &shape)
                  : absl::StatusOr<StoredWorld>(data.status());
    if (w.ok() && WorldPath(w->id) != path) {
      w = absl::DataLossError(absl::StrCat("holds world '", w->id, "'"));
    }
    if (!w.ok()) {
      errors->push_back(absl::StrCat(path, ": ", w.status().message()));
      continue;
    }
    // A torn tail was never acknowledged: cut it, so that the next record
    // follows the last good one.
    if (shape.valid_bytes < data->size() &&
        ::truncate(path.c_str(), static_cast<off_t>(shape.valid_bytes)) != 0) {
      errors->push_back(absl::StrCat(
          path, ": cannot truncate the torn tail: ", std::strerror(errno)));
      continue;
    }
    loaded[w->id] = WorldFileOf(*w, shape);
    worlds->push_back(*std::move(w));
  }
  std::lock_guard<std::mutex> lock(mu_);
  worlds_ = std::move(loaded);
  worlds_loaded_ = true;
  return absl::OkStatus();
}

absl::Status DirectoryStore::PutWorld(const StoredWorld& world) {
  const std::string path = WorldPath(world.id);
  WorldFile file;
  bool loaded;
  {
    std::lock_guard<std::mutex> lock(mu_);
    loaded = worlds_loaded_;
    if (auto it = worlds_.find(world.id); it != worlds_.end())
      file = it->second;
  }
  if (!loaded && file.version() == 0 && Exists(path)) {
    // Not loaded by this process: the file says.
    absl::StatusOr<std::string> data = ReadFile(path, int64_t{1} << 31);
    codec::WorldFileShape shape;
    absl::StatusOr<StoredWorld> w =
        data.ok() ? codec::ReplayWorldFile(*data, &shape)
                  : absl::StatusOr<StoredWorld>(data.status());
    if (!w.ok()) return w.status();
    file = WorldFileOf(*w, shape);
  }
  if (file.version() + 1 != world.version) {
    return absl::AbortedError(
        absl::StrCat("world '", world.id, "' is stored at version ",
                     file.version(), ", not ", world.version - 1));
  }
  // Usually a few links changed: an edit record, a write of a few hundred
  // bytes however large the world.
  bool whole = true;
  const std::string record =
      codec::EncodeWorldStep(file.last.get(), world, &whole);
  if (absl::Status s = AppendDurably(dir_, path, record, file.bytes); !s.ok()) {
    return s;
  }
  file.bytes += record.size();
  if (whole) {
    file.whole_record_bytes = record.size();
    file.edits_since_whole = 0;
  } else {
    ++file.edits_since_whole;
  }
  file.last = std::make_shared<const StoredWorld>(world);
  std::lock_guard<std::mutex> lock(mu_);
  worlds_[world.id] = std::move(file);
  return absl::OkStatus();
}

DirectoryStore::WorldFile DirectoryStore::WorldFileOf(
    const StoredWorld& world, const codec::WorldFileShape& shape) {
  WorldFile file;
  file.bytes = shape.valid_bytes;
  file.whole_record_bytes = shape.whole_record_bytes;
  file.edits_since_whole = shape.edits_since_whole;
  file.last = std::make_shared<const StoredWorld>(world);
  return file;
}

absl::Status DirectoryStore::CompactWorld(const StoredWorld& world) {
  WorldFile file;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = worlds_.find(world.id);
    if (it == worlds_.end()) return absl::OkStatus();
    file = it->second;
  }
  const uint64_t bound =
      std::max<uint64_t>(kMinCompactBytes, 64 * file.whole_record_bytes);
  const bool long_replay =
      file.edits_since_whole * std::max<uint64_t>(1, world.links.size()) >
      kMaxEditReplayLinks;
  if (file.version() != world.version ||
      (file.bytes <= bound && !long_replay)) {
    return absl::OkStatus();
  }
  const std::string record = codec::EncodeWorldRecord(world);
  if (absl::Status s = WriteFileDurably(dir_, WorldPath(world.id), record);
      !s.ok()) {
    return s;
  }
  file.bytes = record.size();
  file.whole_record_bytes = record.size();
  file.edits_since_whole = 0;
  std::lock_guard<std::mutex> lock(mu_);
  worlds_[world.id] = std::move(file);
  return absl::OkStatus();
}

absl::Status DirectoryStore::DeleteWorld(const std::string& id) {
  const std::string path = WorldPath(id);
  if (::unlink(path.c_str()) != 0) {
    if (errno != ENOENT) return Errno("cannot remove", path);
  } else if (absl::Status s = SyncDir(dir_); !s.ok()) {
    return s;
  }
  std::lock_guard<std::mutex> lock(mu_);
  worlds_.erase(id);
  return absl::OkStatus();
}

}  // namespace gridstar::server
