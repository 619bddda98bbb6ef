// CowBuffer: a byte array in fixed-size chunks (tiles) whose versions share
// every chunk they did not change, each version one contiguous read-only
// view.
//
// The chunks live in one memory file (memfd) per family of versions, the
// "arena". A version maps its chunks, in order, into one reserved address
// range, so readers index it as a plain array (searches keep their speed:
// no indirection per cell). Fork() makes the next version: a new range
// mapping the very same chunks (no byte copied); MakeWritable() gives the
// new version a private copy of the chunks it is about to change (the
// copy-on-write) and maps that copy in place. Destroying a version unmaps it
// and frees the chunks no other version holds.
//
// Fragmentation: a private copy goes to its chunk's home slot in the file
// when no version holds that slot, else to a spare slot. Fork() moves a
// chunk from a spare slot back home as soon as its home is free, so the
// mapping stays a few runs of consecutive slots (each run is one mapping,
// and the kernel caps mappings per process).
//
// Thread-safety: a version is written (MakeWritable, mutable_data) by one
// thread before it is shared; after that it is read-only and any number of
// threads may read it. Fork() of a shared version and destruction of
// versions from any threads are safe (the arena locks its slot counts).
//
// Invariants: size() is a multiple of chunk_bytes(); bytes not written read
// as zero; a chunk shared with another version is mapped read-only.

#ifndef GRIDSTAR_SRC_COW_BUFFER_H_
#define GRIDSTAR_SRC_COW_BUFFER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace gridstar::internal {

class CowArena;

class CowBuffer {
 public:
  // A zeroed buffer of at least `bytes` bytes (rounded up to whole chunks),
  // all of it private and writable. REQUIRES: chunk_bytes is a multiple of
  // the page size. ResourceExhausted when the memory or mappings cannot be
  // had.
  static absl::StatusOr<CowBuffer> Create(size_t bytes, size_t chunk_bytes);

  CowBuffer() = default;
  ~CowBuffer();
  CowBuffer(const CowBuffer&) = delete;
  CowBuffer& operator=(const CowBuffer&) = delete;
  CowBuffer(CowBuffer&& other) noexcept;
  CowBuffer& operator=(CowBuffer&& other) noexcept;

  // The next version: the same bytes, every chunk shared with this one
  // (and moved home where that is free). ResourceExhausted when the
  // mappings cannot be made.
  absl::StatusOr<CowBuffer> Fork() const;

  // Makes every chunk overlapping [offset, offset + length) private to this
  // version (copying it once) and writable; chunks already private cost a
  // flag test. REQUIRES: this version is not yet read by other threads;
  // offset + length <= size().
  absl::Status MakeWritable(size_t offset, size_t length);

  // Maps the whole buffer read-only: writing after this is a crash, not a
  // silent change to a version others read. Idempotent.
  void Seal();

  const uint8_t* data() const { return data_; }
  // REQUIRES: the bytes written lie in chunks MakeWritable covered.
  uint8_t* mutable_data() { return data_; }
  size_t size() const { return size_; }
  size_t chunk_bytes() const { return chunk_bytes_; }
  size_t chunk_count() const { return slots_.size(); }
  // Chunks this version copied (or built) and holds alone.
  size_t private_chunks() const;
  // Runs of consecutive slots, one mapping each (for tests and figures).
  size_t mapping_runs() const;

 private:
  void Release();
  absl::Status MapRuns();

  std::shared_ptr<CowArena> arena_;
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t chunk_bytes_ = 0;
  bool sealed_ = false;
  std::vector<uint32_t> slots_;  // File slot of each chunk.
  std::vector<uint8_t> owned_;   // 1 where the chunk is private and writable.
};

}  // namespace gridstar::internal

#endif  // GRIDSTAR_SRC_COW_BUFFER_H_
