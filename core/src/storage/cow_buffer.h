// CowBuffer: a byte array in fixed-size chunks (tiles) whose versions share
// every chunk they did not change, each version one contiguous read-only
// view.
//
// The chunks live in one memory file (memfd) per family of versions, the
// "arena". A version maps its chunks, in order, into one reserved address
// range, so readers index it as a plain array (searches keep their speed:
// no indirection per cell). Fork() makes the next version, a draft: a new
// range mapping the very same chunks (no byte copied), privately, so that
// the kernel copies a page on its first write. MakeWritable() marks the
// chunks the draft is about to change and makes that copy at once, by a
// write (a fresh page, no remapping); Seal() stores the changed chunks in
// the file (in the chunk's home slot when no version holds it, else in a
// spare slot) for the versions forked after it, and maps the draft
// read-only.
//
// Why a draft copies by page faults and not by remapping: replacing a
// mapping (or a page mapped before) flushes the translation on every core
// running the process, an interrupt to every search worker; remapping each
// copied chunk made one-cell updates of the 8192 x 8192 world pay ~150 of
// those rounds. A page first touched by a write needs no flush, so a draft's
// chunks are read through the version it was forked from (Read()) until
// they are made writable, and a whole update costs one flush per buffer (the
// final mprotect).
//
// Fragmentation: Fork() moves a chunk from a spare slot back home as soon
// as its home is free, so the mapping stays a few runs of consecutive slots
// (each run is one mapping, and the kernel caps mappings per process).
//
// Thread-safety: a version is written (MakeWritable, mutable_data, Seal) by
// one thread before it is shared; after that it is read-only and any number
// of threads may read it. Fork() of a sealed version and destruction of
// versions from any threads are safe (the arena locks its slot counts).
//
// Invariants: size() is a multiple of chunk_bytes(); bytes not written read
// as zero; a sealed version is mapped read-only; the file holds every
// sealed version's bytes at its slots.

#ifndef GRIDSTAR_SRC_STORAGE_COW_BUFFER_H_
#define GRIDSTAR_SRC_STORAGE_COW_BUFFER_H_

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

  // The next version, a draft: the same bytes, every chunk shared with this
  // one (and moved home where that is free). ResourceExhausted when the
  // mappings cannot be made. REQUIRES: this version is sealed or was made
  // by Create(); while the draft is not sealed, this version stays alive
  // (the draft reads unchanged chunks through it).
  absl::StatusOr<CowBuffer> Fork() const;

  // Makes every chunk overlapping [offset, offset + length) private to this
  // version (copying it once) and writable; chunks already private cost a
  // flag test. REQUIRES: this version is not yet read by other threads;
  // offset + length <= size().
  absl::Status MakeWritable(size_t offset, size_t length);

  // The byte at `offset` as this version has it. On a draft, unchanged
  // chunks are read through the version it was forked from, so that this
  // version's own pages are first touched by the writes of MakeWritable
  // (see above); reading data() of a draft is correct, only dearer.
  uint8_t Read(size_t offset) const {
    return base_ == nullptr || dirty_[offset / chunk_bytes_]
               ? data_[offset]
               : base_[offset];
  }

  // Stores the changed chunks of a draft in the file and maps the whole
  // buffer read-only: writing after this is a crash, not a silent change to
  // a version others read. Idempotent. ResourceExhausted when the file
  // cannot take the chunks; the version is then unusable.
  absl::Status Seal();

  const uint8_t* data() const { return data_; }
  // REQUIRES: the bytes written lie in chunks MakeWritable covered.
  uint8_t* mutable_data() { return data_; }
  size_t size() const { return size_; }
  size_t chunk_bytes() const { return chunk_bytes_; }
  size_t chunk_count() const { return slots_.size(); }
  // Chunks this version copied (or built) and holds alone, or is about to.
  size_t private_chunks() const;
  // Runs of consecutive slots, one mapping each (for tests and figures).
  size_t mapping_runs() const;

 private:
  void Release();
  absl::Status MapRuns();
  absl::Status StoreDirtyChunks();

  std::shared_ptr<CowArena> arena_;
  uint8_t* data_ = nullptr;
  // A draft's parent view (unchanged chunks are read there); null when
  // sealed or made by Create() (whose writes go straight to the file).
  const uint8_t* base_ = nullptr;
  size_t size_ = 0;
  size_t chunk_bytes_ = 0;
  bool sealed_ = false;
  std::vector<uint32_t> slots_;  // File slot of each chunk.
  std::vector<uint8_t> dirty_;   // A draft's written chunks, not yet stored.
  std::vector<uint32_t> dirty_list_;  // Their indices, in order of writing.
};

}  // namespace gridstar::internal

#endif  // GRIDSTAR_SRC_STORAGE_COW_BUFFER_H_
