// SparseNodes: node records kept in a hash table keyed by padded cell, for
// searches on huge maps that create few records far apart (jump point
// search on the 8192 x 8192 world: ~5,000 records a query, spread over
// ~8,000 rows).
//
// A per-cell array (LazyArray) on such a map is a memory file of a gigabyte
// whose pages come on first touch: a cross-world jps+ search touched
// thousands of fresh pages, and their faults cost 9x the search itself
// (first pass over 40 queries 25.3 ms a query; the same queries again,
// pages resident, 2.8 ms). The table holds only the records made, in a few
// hundred kilobytes that stay in cache from one search to the next.
//
// Records use the SearchState's stamps: a slot is live when its stamp is
// the current search's open or closed mark; any other slot is free, so a
// new search starts without clearing anything. At(cell) returns the record
// of `cell`, made (stamp 0: not seen) when it has none, like an untouched
// LazyArray element. Linear probing: within one search no slot ever dies,
// so a lookup meeting a free slot before its key knows the key is absent.
//
// References returned by At() stay valid until the next At() of a cell
// without a live record (that one may grow the table).
//
// Thread-safety: none; one owner (a SearchState).

#ifndef GRIDSTAR_SRC_STORAGE_SPARSE_NODES_H_
#define GRIDSTAR_SRC_STORAGE_SPARSE_NODES_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gridstar::internal {

// T: a record with a uint32_t `stamp`, all-zero when not seen.
template <typename T>
class SparseNodes {
 public:
  // Starts a search whose live stamps are `open_mark` and `open_mark + 1`.
  void Begin(uint32_t open_mark) {
    open_mark_ = open_mark;
    live_ = 0;
    if (slots_.empty()) Resize(kInitialSlots);
  }
  // After the stamps wrapped (SearchState::BeginSearch released its pages):
  // no slot may read as live again.
  void Clear() {
    for (Slot& s : slots_) s = Slot{};
    live_ = 0;
  }

  T& At(uint32_t cell) {
    for (;;) {
      for (size_t i = Hash(cell);; i = (i + 1) & mask_) {
        Slot& s = slots_[i];
        if (s.node.stamp - open_mark_ <= 1) {  // Live.
          if (s.cell == cell) return s.node;
          continue;
        }
        // A free slot: `cell` has no live record.
        if (2 * (live_ + 1) > slots_.size()) break;  // Grow first.
        ++live_;
        s.cell = cell;
        s.node = T{};
        return s.node;
      }
      Resize(slots_.size() * 2);
    }
  }

  // The record of `cell`, or null when the search made none.
  const T* Find(uint32_t cell) const {
    for (size_t i = Hash(cell);; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      const bool live = s.node.stamp - open_mark_ <= 1;
      if (!live) return nullptr;
      if (s.cell == cell) return &s.node;
    }
  }

  size_t MemoryBytes() const { return slots_.capacity() * sizeof(Slot); }

 private:
  struct Slot {
    uint32_t cell = 0;
    T node{};
  };
  static constexpr size_t kInitialSlots = size_t{1} << 14;

  size_t Hash(uint32_t cell) const {
    return (static_cast<uint64_t>(cell) * 0x9E3779B97F4A7C15ull) >> shift_;
  }

  // Rehashes the live slots into `size` slots (a power of two).
  void Resize(size_t size) {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(size, Slot{});
    mask_ = size - 1;
    shift_ = 64;
    for (size_t s = size; s > 1; s >>= 1) --shift_;
    for (const Slot& s : old) {
      if (s.node.stamp - open_mark_ > 1) continue;
      size_t i = Hash(s.cell);
      while (slots_[i].node.stamp - open_mark_ <= 1) i = (i + 1) & mask_;
      slots_[i] = s;
    }
  }

  std::vector<Slot> slots_;
  size_t mask_ = 0;
  int shift_ = 64;
  size_t live_ = 0;
  uint32_t open_mark_ = 0;
};

}  // namespace gridstar::internal

#endif  // GRIDSTAR_SRC_STORAGE_SPARSE_NODES_H_
