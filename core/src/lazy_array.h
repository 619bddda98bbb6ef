// LazyArray: a growable array of trivially copyable T whose memory the
// operating system provides page by page on first touch.
//
// The array is an anonymous mapping: its size costs address space, not
// memory, and an element reads as all-zero bytes until written. So a search
// context sized for an 8192 x 8192 map holds physical memory only for the
// pages its searches touched; Release() hands every page back (the elements
// read as zero again), and ResidentBytes() says how much is held. Growing
// moves the mapping (mremap) without touching or copying page contents.
//
// Thread-safety: none; one owner. ResidentBytes() makes a system call and is
// proportional to the array's size in pages: call it now and then, not per
// search.
//
// REQUIRES: T is trivially copyable and all-zero bytes are a valid T.

#ifndef GRIDSTAR_SRC_LAZY_ARRAY_H_
#define GRIDSTAR_SRC_LAZY_ARRAY_H_

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
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
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
      mapped_bytes_ = std::exchange(other.mapped_bytes_, 0);
    }
    return *this;
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  size_t size() const { return size_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }

  // Makes room for n elements (never shrinks). New elements read as zero.
  // Throws std::bad_alloc when the address space cannot be had.
  void Grow(size_t n) {
    if (n <= size_) return;
    const size_t bytes = RoundUp(n * sizeof(T));
    if (bytes > mapped_bytes_) {
      void* p;
      if (data_ == nullptr) {
        p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      } else {
        p = mremap(data_, mapped_bytes_, bytes, MREMAP_MAYMOVE);
      }
      if (p == MAP_FAILED) throw std::bad_alloc();
      data_ = static_cast<T*>(p);
      mapped_bytes_ = bytes;
    }
    size_ = n;
  }

  // Hands every page back to the system; all elements read as zero again.
  void Release() {
    if (data_ != nullptr) madvise(data_, mapped_bytes_, MADV_DONTNEED);
  }

  // Bytes of the array backed by memory now (pages touched since the last
  // Release).
  size_t ResidentBytes() const {
    if (data_ == nullptr) return 0;
    const size_t page = PageSize();
    std::vector<unsigned char> resident(mapped_bytes_ / page);
    if (mincore(data_, mapped_bytes_, resident.data()) != 0) {
      return mapped_bytes_;  // Unknown: the most it can be.
    }
    size_t pages = 0;
    for (unsigned char r : resident) pages += r & 1;
    return pages * page;
  }

  // Address space reserved, touched or not.
  size_t MappedBytes() const { return mapped_bytes_; }

 private:
  static size_t PageSize() {
    static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    return page;
  }
  static size_t RoundUp(size_t bytes) {
    const size_t page = PageSize();
    return (bytes + page - 1) / page * page;
  }
  void Unmap() {
    if (data_ != nullptr) munmap(data_, mapped_bytes_);
    data_ = nullptr;
    size_ = 0;
    mapped_bytes_ = 0;
  }

  T* data_ = nullptr;
  size_t size_ = 0;
  size_t mapped_bytes_ = 0;
};

}  // namespace gridstar::internal

#endif  // GRIDSTAR_SRC_LAZY_ARRAY_H_
