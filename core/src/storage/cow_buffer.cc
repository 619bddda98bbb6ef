#include "storage/cow_buffer.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <utility>

#include "absl/strings/str_cat.h"

namespace gridstar::internal {

namespace {

absl::Status ErrnoStatus(absl::string_view what, int err) {
  return absl::ResourceExhaustedError(
      absl::StrCat("tiles: ", what, " failed: ", std::strerror(err)));
}

// Writes `length` bytes at file offset `offset` of fd.
absl::Status WriteAt(int fd, const uint8_t* bytes, size_t length,
                     size_t offset) {
  while (length > 0) {
    const ssize_t n = ::pwrite(fd, bytes, length, static_cast<off_t>(offset));
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoStatus("copying a tile", errno);
    }
    bytes += n;
    length -= static_cast<size_t>(n);
    offset += static_cast<size_t>(n);
  }
  return absl::OkStatus();
}

}  // namespace

// The memory file all versions of one buffer map, and how many versions hold
// each of its slots. Slots [0, home_count) are the chunks' homes; spares
// follow and the file grows by them on demand.
class CowArena {
 public:
  CowArena(int fd, size_t chunk_bytes, size_t home_count)
      : fd_(fd),
        chunk_bytes_(chunk_bytes),
        home_count_(home_count),
        refs_(home_count, 1) {}
  ~CowArena() { ::close(fd_); }

  int fd() const { return fd_; }

  // One more holder for each slot of `slots`, except that a chunk outside
  // its home whose home is free moves home: its index goes to *moved and its
  // home is held once (by the caller, privately).
  void HoldForFork(const std::vector<uint32_t>& slots,
                   std::vector<uint32_t>* moved) {
    std::lock_guard<std::mutex> lock(mu_);
    for (uint32_t c = 0; c < slots.size(); ++c) {
      if (slots[c] != c && refs_[c] == 0) {
        refs_[c] = 1;
        moved->push_back(c);
      } else {
        ++refs_[slots[c]];
      }
    }
  }

  // A slot for a private copy of chunk `home`: the home when free, else a
  // spare. Held once on return.
  absl::StatusOr<uint32_t> Acquire(uint32_t home) {
    std::lock_guard<std::mutex> lock(mu_);
    if (refs_[home] == 0) {
      refs_[home] = 1;
      return home;
    }
    if (free_spares_.empty()) {
      const size_t old_slots = refs_.size();
      const size_t grow = std::max<size_t>(16, (old_slots - home_count_) / 2);
      if (::ftruncate(fd_, static_cast<off_t>((old_slots + grow) *
                                              chunk_bytes_)) != 0) {
        return ErrnoStatus("growing the tile file", errno);
      }
      refs_.resize(old_slots + grow, 0);
      for (size_t s = old_slots + grow; s > old_slots; --s) {
        free_spares_.push_back(static_cast<uint32_t>(s - 1));
      }
    }
    const uint32_t slot = free_spares_.back();
    free_spares_.pop_back();
    refs_[slot] = 1;
    return slot;
  }

  // One holder fewer for each slot; slots nobody holds give their memory
  // back (before anyone can take them again).
  template <typename Slots>
  void Drop(const Slots& slots) {
    std::lock_guard<std::mutex> lock(mu_);
    freed_.clear();
    for (uint32_t s : slots) {
      if (--refs_[s] == 0) freed_.push_back(s);
    }
    std::sort(freed_.begin(), freed_.end());
    for (size_t i = 0; i < freed_.size();) {
      size_t j = i + 1;
      while (j < freed_.size() && freed_[j] == freed_[j - 1] + 1) ++j;
      // Best effort: a failed punch only keeps memory a while longer.
      (void)::fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                        static_cast<off_t>(freed_[i] * chunk_bytes_),
                        static_cast<off_t>((j - i) * chunk_bytes_));
      i = j;
    }
    for (uint32_t s : freed_) {
      if (s >= home_count_) free_spares_.push_back(s);
    }
  }

  // Chunks held once, or about to be (dirty, `dirty` may be empty).
  size_t CountPrivate(const std::vector<uint32_t>& slots,
                      const std::vector<uint8_t>& dirty) {
    std::lock_guard<std::mutex> lock(mu_);
    size_t n = 0;
    for (size_t c = 0; c < slots.size(); ++c) {
      n += refs_[slots[c]] == 1 || (!dirty.empty() && dirty[c]);
    }
    return n;
  }

  bool HeldOnce(uint32_t slot) {
    std::lock_guard<std::mutex> lock(mu_);
    return refs_[slot] == 1;
  }

 private:
  const int fd_;
  const size_t chunk_bytes_;
  const size_t home_count_;
  std::mutex mu_;
  std::vector<uint32_t> refs_;
  std::vector<uint32_t> free_spares_;
  std::vector<uint32_t> freed_;
};

absl::StatusOr<CowBuffer> CowBuffer::Create(size_t bytes, size_t chunk_bytes) {
  const size_t chunks = std::max<size_t>(1, (bytes + chunk_bytes - 1) /
                                                chunk_bytes);
  if (chunks > UINT32_MAX / 2) {
    return absl::ResourceExhaustedError(
        absl::StrCat("tiles: ", bytes, " bytes is too many tiles"));
  }
  const int fd = ::memfd_create("gridstar-tiles", MFD_CLOEXEC);
  if (fd < 0) return ErrnoStatus("memfd_create", errno);
  auto arena = std::make_shared<CowArena>(fd, chunk_bytes, chunks);
  const size_t size = chunks * chunk_bytes;
  if (::ftruncate(fd, static_cast<off_t>(size)) != 0) {
    return ErrnoStatus("sizing the tile file", errno);
  }
  void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) return ErrnoStatus("mapping tiles", errno);
  CowBuffer b;
  b.arena_ = std::move(arena);
  b.data_ = static_cast<uint8_t*>(p);
  b.size_ = size;
  b.chunk_bytes_ = chunk_bytes;
  b.slots_.resize(chunks);
  for (uint32_t c = 0; c < chunks; ++c) b.slots_[c] = c;
  return b;
}

CowBuffer::~CowBuffer() { Release(); }

CowBuffer::CowBuffer(CowBuffer&& other) noexcept { *this = std::move(other); }

CowBuffer& CowBuffer::operator=(CowBuffer&& other) noexcept {
  if (this != &other) {
    Release();
    arena_ = std::move(other.arena_);
    data_ = std::exchange(other.data_, nullptr);
    base_ = std::exchange(other.base_, nullptr);
    size_ = std::exchange(other.size_, 0);
    chunk_bytes_ = std::exchange(other.chunk_bytes_, 0);
    sealed_ = std::exchange(other.sealed_, false);
    slots_ = std::move(other.slots_);
    dirty_ = std::move(other.dirty_);
    dirty_list_ = std::move(other.dirty_list_);
    other.slots_.clear();
    other.dirty_.clear();
    other.dirty_list_.clear();
  }
  return *this;
}

void CowBuffer::Release() {
  if (data_ != nullptr) ::munmap(data_, size_);
  // Slots are dropped only when they were held: a buffer whose mapping
  // failed half-way holds them all the same (HoldForFork ran first).
  if (arena_ != nullptr && !slots_.empty()) arena_->Drop(slots_);
  data_ = nullptr;
  base_ = nullptr;
  arena_.reset();
  slots_.clear();
  dirty_.clear();
  dirty_list_.clear();
}

absl::StatusOr<CowBuffer> CowBuffer::Fork() const {
  if (base_ != nullptr) {
    return absl::FailedPreconditionError("tiles: forking an unsealed draft");
  }
  CowBuffer next;
  next.size_ = size_;
  next.chunk_bytes_ = chunk_bytes_;
  next.slots_ = slots_;
  next.dirty_.assign(slots_.size(), 0);
  std::vector<uint32_t> moved;
  arena_->HoldForFork(slots_, &moved);
  next.arena_ = arena_;
  // `next` holds the homes of the moved chunks (not their spares): record
  // that first, so that a failure below releases exactly what is held.
  for (uint32_t c : moved) next.slots_[c] = c;
  for (uint32_t c : moved) {
    if (absl::Status s = WriteAt(arena_->fd(), data_ + c * chunk_bytes_,
                                 chunk_bytes_, c * chunk_bytes_);
        !s.ok()) {
      return s;
    }
  }
  if (absl::Status s = next.MapRuns(); !s.ok()) return s;
  next.base_ = data_;
  return next;
}

absl::Status CowBuffer::MapRuns() {
  void* p = ::mmap(nullptr, size_, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return ErrnoStatus("reserving a tile range", errno);
  data_ = static_cast<uint8_t*>(p);
  const size_t n = slots_.size();
  for (size_t c = 0; c < n;) {
    size_t e = c + 1;
    while (e < n && slots_[e] == slots_[e - 1] + 1) ++e;
    // Private: a write copies its page instead of reaching the file, which
    // other versions map.
    if (::mmap(data_ + c * chunk_bytes_, (e - c) * chunk_bytes_,
               PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED | MAP_NORESERVE,
               arena_->fd(),
               static_cast<off_t>(size_t{slots_[c]} * chunk_bytes_)) ==
        MAP_FAILED) {
      return ErrnoStatus("mapping tiles", errno);
    }
    c = e;
  }
  return absl::OkStatus();
}

absl::Status CowBuffer::MakeWritable(size_t offset, size_t length) {
  if (length == 0 || base_ == nullptr) return absl::OkStatus();
  const size_t first = offset / chunk_bytes_;
  const size_t last = (offset + length - 1) / chunk_bytes_;
  static const size_t kPage = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  for (size_t c = first; c <= last; ++c) {
    if (dirty_[c]) continue;
    dirty_[c] = 1;
    dirty_list_.push_back(static_cast<uint32_t>(c));
    // The copy, made now by a write to each page (the first touch of this
    // version's page: no flush); the byte written is the byte there.
    for (size_t at = c * chunk_bytes_; at < (c + 1) * chunk_bytes_;
         at += kPage) {
      *static_cast<volatile uint8_t*>(data_ + at) = base_[at];
    }
  }
  return absl::OkStatus();
}

absl::Status CowBuffer::StoreDirtyChunks() {
  for (const uint32_t c : dirty_list_) {
    if (!dirty_[c]) continue;  // Stored by an earlier, failed Seal().
    const uint32_t old_slot = slots_[c];
    // A slot this version alone holds (a chunk Fork moved home) takes the
    // bytes in place; a shared one must not change: the copy goes to the
    // chunk's home if free, else to a spare.
    const bool in_place = arena_->HeldOnce(old_slot);
    uint32_t slot = old_slot;
    if (!in_place) {
      absl::StatusOr<uint32_t> acquired = arena_->Acquire(c);
      if (!acquired.ok()) return acquired.status();
      slot = *acquired;
    }
    if (absl::Status s = WriteAt(arena_->fd(), data_ + size_t{c} * chunk_bytes_,
                                 chunk_bytes_, size_t{slot} * chunk_bytes_);
        !s.ok()) {
      if (!in_place) arena_->Drop(std::vector<uint32_t>{slot});
      return s;
    }
    if (!in_place) {
      arena_->Drop(std::vector<uint32_t>{old_slot});
      slots_[c] = slot;
    }
    dirty_[c] = 0;
  }
  return absl::OkStatus();
}

absl::Status CowBuffer::Seal() {
  if (sealed_ || data_ == nullptr) return absl::OkStatus();
  if (base_ != nullptr) {
    if (absl::Status s = StoreDirtyChunks(); !s.ok()) return s;
  }
  ::mprotect(data_, size_, PROT_READ);
  sealed_ = true;
  base_ = nullptr;
  dirty_.clear();
  dirty_list_.clear();
  return absl::OkStatus();
}

size_t CowBuffer::private_chunks() const {
  return arena_ == nullptr ? 0 : arena_->CountPrivate(slots_, dirty_);
}

size_t CowBuffer::mapping_runs() const {
  size_t runs = slots_.empty() ? 0 : 1;
  for (size_t c = 1; c < slots_.size(); ++c) {
    runs += slots_[c] != slots_[c - 1] + 1;
  }
  return runs;
}

}  // namespace gridstar::internal
