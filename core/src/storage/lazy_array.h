// LazyArray: a growable array of trivially copyable T whose memory the
// operating system provides page by page on first touch.
//
// A big array is a mapping of its own memory file (memfd): its size costs
// address space, not memory, and an element reads as all-zero bytes until
// written. So a search context sized for an 8192 x 8192 map holds physical
// memory only for the pages its searches touched; Release() hands every page
// back (the elements read as zero again), and ResidentBytes() says how much
// is held. Growing moves the mapping (mremap) without touching or copying
// page contents.
//
// Why a memory file and not anonymous memory: searches read a record before
// they write it. On anonymous memory that first read maps the shared zero
// page, and the write after it replaces that mapping, which flushes the
// translation on every core running the process: an interrupt to the other
// workers for each fresh page (on the 8192 x 8192 world under two searching
// workers, 38% of the server's processor time went to those flushes, and
// updates waited behind them). A memory file's page is allocated by the
// first touch, read or write, and mapped writable at once: one fault, no
// flush.
//
// Small arrays (up to kPopulateElements elements: a map up to about
// 1100 x 1100) are touched whole by a few searches anyway, so they are had
// whole at once, from anonymous memory aligned to and rounded up to 2 MiB
// and advised to use transparent huge pages: searches read node records all
// over the array, and with 4 KiB pages nearly every read also missed the TLB
// (jps+ on 512 x 512 maps ran 15-40% faster on huge pages). Their pages are
// always populated writable before a search touches them (after Release()
// too, at the next Grow()), so the zero-page flushes above never arise.
// Growing a small array copies it once into a fresh mapping (into a memory
// file when it outgrows the small size).
//
// Thread-safety: none; one owner. ResidentBytes() makes one system call.
//
// REQUIRES: T is trivially copyable and all-zero bytes are a valid T.

#ifndef GRIDSTAR_SRC_STORAGE_LAZY_ARRAY_H_
#define GRIDSTAR_SRC_STORAGE_LAZY_ARRAY_H_

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace gridstar::internal {

template <typename T>
class LazyArray {
  static_assert(std::is_trivially_copyable_v<T>, "raw pages hold T");

 public:
  LazyArray() = default;
  ~LazyArray() { Unmap(); }
  LazyArray(const LazyArray&) = delete;
  LazyArray& operator=(const LazyArray&) = delete;
  LazyArray(LazyArray&& other) noexcept { *this = std::move(other); }
  LazyArray& operator=(LazyArray&& other) noexcept {
    if (this != &other) {
      Unmap();
      fd_ = std::exchange(other.fd_, -1);
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
      mapped_bytes_ = std::exchange(other.mapped_bytes_, 0);
      anonymous_ = std::exchange(other.anonymous_, false);
      released_ = std::exchange(other.released_, false);
    }
    return *this;
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  size_t size() const { return size_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }

  // Makes room for n elements (never shrinks). New elements read as zero.
  // Also repopulates a small array after Release(): call it before every
  // search (cheap when there is nothing to do).
  // Throws std::bad_alloc when the address space cannot be had.
  void Grow(size_t n) {
    if (n <= size_ && !released_) return;
    const size_t bytes = RoundUp(std::max(n, size_) * sizeof(T));
    if (anonymous_ && released_) {
      Populate(0, mapped_bytes_);
      released_ = false;
    }
    if (bytes > mapped_bytes_) {
      if (n <= kPopulateElements && (data_ == nullptr || anonymous_)) {
        GrowAnonymous(bytes);
      } else {
        GrowFile(bytes);
      }
    }
    size_ = std::max(n, size_);
  }

  // Hands every page back to the system; all elements read as zero again.
  void Release() {
    if (data_ == nullptr) return;
    if (anonymous_) {
      // Private anonymous pages read as zero after this; the next Grow()
      // populates them again.
      (void)madvise(data_, mapped_bytes_, MADV_DONTNEED);
      released_ = true;
      return;
    }
    // Frees the file's pages and unmaps them. Should the punch fail (it
    // does not on memory files), the pages are zeroed in place instead.
    if (fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0,
                  static_cast<off_t>(mapped_bytes_)) != 0) {
      std::memset(static_cast<void*>(data_), 0, mapped_bytes_);
    }
  }

  // Bytes of the array backed by memory now (pages touched since the last
  // Release).
  size_t ResidentBytes() const {
    if (data_ == nullptr) return 0;
    if (anonymous_) {
      const size_t page = PageSize();
      std::vector<unsigned char> in_core(mapped_bytes_ / page);
      if (mincore(data_, mapped_bytes_, in_core.data()) != 0) {
        return mapped_bytes_;  // Unknown: the most.
      }
      size_t resident = 0;
      for (unsigned char c : in_core) resident += c & 1;
      return resident * page;
    }
    struct stat st;
    if (fstat(fd_, &st) != 0) return mapped_bytes_;  // Unknown: the most.
    return std::min(mapped_bytes_, static_cast<size_t>(st.st_blocks) * 512);
  }

  // Address space reserved, touched or not.
  size_t MappedBytes() const { return mapped_bytes_; }

  // Arrays up to this many elements are had whole (see above).
  static constexpr size_t kPopulateElements = size_t{1100} * 1100;

 private:
  static constexpr size_t kHugePage = size_t{2} << 20;
  // MADV_POPULATE_WRITE (Linux 5.14); older kernels refuse it: no harm.
  static constexpr int kMadvPopulateWrite = 23;

  static size_t PageSize() {
    static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    return page;
  }
  static size_t RoundUp(size_t bytes) {
    const size_t page = PageSize();
    return (bytes + page - 1) / page * page;
  }
  // Populates [from, to) of the mapping writable (best effort).
  void Populate(size_t from, size_t to) {
    if (to > from) {
      (void)madvise(reinterpret_cast<uint8_t*>(data_) + from, to - from,
                    kMadvPopulateWrite);
    }
  }

  // A fresh anonymous mapping of `bytes` (rounded up to whole huge pages)
  // aligned to a huge page, so that every part of it can be one; the old
  // contents, if any, are copied over.
  void GrowAnonymous(size_t bytes) {
    bytes = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    void* raw = mmap(nullptr, bytes + kHugePage, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) throw std::bad_alloc();
    const uintptr_t start = reinterpret_cast<uintptr_t>(raw);
    const uintptr_t aligned = (start + kHugePage - 1) / kHugePage * kHugePage;
    if (aligned > start) munmap(raw, aligned - start);
    if (start + kHugePage > aligned) {
      munmap(reinterpret_cast<void*>(aligned + bytes),
             start + kHugePage - aligned);
    }
    void* p = reinterpret_cast<void*>(aligned);
    (void)madvise(p, bytes, MADV_HUGEPAGE);
    (void)madvise(p, bytes, kMadvPopulateWrite);
    if (data_ != nullptr) {
      std::memcpy(p, static_cast<const void*>(data_), mapped_bytes_);
      munmap(data_, mapped_bytes_);
    }
    data_ = static_cast<T*>(p);
    anonymous_ = true;
    mapped_bytes_ = bytes;
  }

  void GrowFile(size_t bytes) {
    if (fd_ < 0) {
      fd_ = memfd_create("gridstar-search", MFD_CLOEXEC);
      if (fd_ < 0) throw std::bad_alloc();
    }
    if (ftruncate(fd_, static_cast<off_t>(bytes)) != 0) {
      throw std::bad_alloc();
    }
    void* p;
    if (data_ == nullptr) {
      p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
    } else if (anonymous_) {
      // Out of the small size: the contents move to the file once.
      p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
      if (p != MAP_FAILED) {
        std::memcpy(p, static_cast<const void*>(data_), mapped_bytes_);
        munmap(data_, mapped_bytes_);
        anonymous_ = false;
        released_ = false;
      }
    } else {
      p = mremap(data_, mapped_bytes_, bytes, MREMAP_MAYMOVE);
    }
    if (p == MAP_FAILED) throw std::bad_alloc();
    data_ = static_cast<T*>(p);
    mapped_bytes_ = bytes;
  }

  void Unmap() {
    if (data_ != nullptr) munmap(data_, mapped_bytes_);
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
    data_ = nullptr;
    size_ = 0;
    mapped_bytes_ = 0;
    anonymous_ = false;
    released_ = false;
  }

  int fd_ = -1;
  T* data_ = nullptr;
  size_t size_ = 0;
  size_t mapped_bytes_ = 0;
  bool anonymous_ = false;  // Small: anonymous memory, huge pages advised.
  bool released_ = false;   // Anonymous pages handed back, to populate.
};

}  // namespace gridstar::internal

#endif  // GRIDSTAR_SRC_STORAGE_LAZY_ARRAY_H_
