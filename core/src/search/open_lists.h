// The two open lists of the search engines: an indexed 4-ary heap with
// decrease-key (OpenList) and a radix heap with lazy deletion (RadixQueue).
// Both take (cell, f, h) and order by f, ties to the smaller h.
//
// Not thread-safe: each belongs to one SearchState.

#ifndef GRIDSTAR_SRC_SEARCH_OPEN_LISTS_H_
#define GRIDSTAR_SRC_SEARCH_OPEN_LISTS_H_

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

namespace gridstar::internal {

// An indexed 4-ary min-heap of cells keyed by f, ties broken towards the
// smaller h (the deeper node), with decrease-key. Four 16-byte children fill
// one cache line, and decrease-key keeps one entry per cell, so the heap never
// holds stale duplicates. `pos` maps a cell to its slot while it is open.
//
// The key is one integer, so every comparison is a single branch-free compare:
// f >= 0, and the bit patterns of non-negative doubles order as the values
// do. Its low 12 bits are replaced by a monotone code of h, so f values within
// 2^12 ulps (a relative 1e-12) count as tied and go to the smaller h. That
// perturbs the order by less than floating-point noise already does.
class OpenList {
 public:
  static constexpr bool kLazy = false;
  struct Entry {
    uint64_t key;
    uint32_t cell;
  };

  static uint64_t MakeKey(double f, double h) {
    uint64_t fbits;
    std::memcpy(&fbits, &f, sizeof(f));
    const float hf = static_cast<float>(h);
    uint32_t hbits;
    std::memcpy(&hbits, &hf, sizeof(hf));
    // Sign (0), the 8 exponent bits and the top 3 mantissa bits of h.
    return (fbits & ~uint64_t{0xfff}) | (hbits >> 19);
  }

  void Clear() { size_ = 0; }
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  // Grows the storage to hold n entries (never shrinks).
  void Reserve(size_t n) {
    if (n <= capacity_) return;
    // Slot 0 sits 16 bytes before a 64-byte boundary, so each group of four
    // children (slots 4i+1 .. 4i+4) fills exactly one cache line.
    Storage fresh(static_cast<Entry*>(
        ::operator new((n + 3) * sizeof(Entry), std::align_val_t(kLine))));
    Entry* heap = fresh.get() + 3;
    if (size_ > 0) std::memcpy(heap, heap_, size_ * sizeof(Entry));
    storage_ = std::move(fresh);
    heap_ = heap;
    capacity_ = n;
  }
  void set_positions(uint32_t* pos) { pos_ = pos; }

  void Push(uint32_t cell, double f, double h) {
    if (size_ == capacity_) Reserve(2 * capacity_ + 64);
    heap_[size_++] = {MakeKey(f, h), cell};
    SiftUp(size_ - 1);
  }
  // REQUIRES: cell is in the heap and f is not above its current key.
  void Decrease(uint32_t cell, double f, double h) {
    const size_t i = pos_[cell];
    assert(i < size_ && heap_[i].cell == cell);
    heap_[i].key = MakeKey(f, h);
    SiftUp(i);
  }
  // Removes the least entry; *f gets its f (to within the key's 1e-12).
  // REQUIRES: !empty().
  uint32_t PopMin(double* f) {
    const uint32_t top = heap_[0].cell;
    std::memcpy(f, &heap_[0].key, sizeof(*f));
    const Entry last = heap_[--size_];
    if (size_ > 0) SiftDown(last);
    return top;
  }

 private:
  void Place(size_t i, const Entry& e) {
    heap_[i] = e;
    pos_[e.cell] = static_cast<uint32_t>(i);
  }
  void SiftUp(size_t i) {
    const Entry e = heap_[i];
    while (i > 0) {
      const size_t parent = (i - 1) / 4;
      if (e.key >= heap_[parent].key) break;
      Place(i, heap_[parent]);
      i = parent;
    }
    Place(i, e);
  }
  // Puts e into the hole at the root and sifts it down.
  void SiftDown(const Entry& e) {
    const size_t n = size_;
    const Entry* h = heap_;
    size_t i = 0;
    for (;;) {
      const size_t first = 4 * i + 1;
      if (first >= n) break;
      size_t best = first;
      if (first + 4 <= n) {
        // All four children exist: pick the least without branches.
        const size_t a = h[first + 1].key < h[first].key ? first + 1 : first;
        const size_t b =
            h[first + 3].key < h[first + 2].key ? first + 3 : first + 2;
        best = h[b].key < h[a].key ? b : a;
      } else {
        for (size_t c = first + 1; c < n; ++c) {
          if (h[c].key < h[best].key) best = c;
        }
      }
      if (h[best].key >= e.key) break;
      Place(i, h[best]);
      i = best;
    }
    Place(i, e);
  }

  static constexpr size_t kLine = 64;
  struct AlignedDelete {
    void operator()(Entry* p) const {
      ::operator delete(p, std::align_val_t(kLine));
    }
  };
  using Storage = std::unique_ptr<Entry, AlignedDelete>;
  static_assert(sizeof(Entry) == 16, "four entries per cache line");

  Storage storage_;
  Entry* heap_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
  uint32_t* pos_ = nullptr;
};

// A radix heap of (key, cell) with lazy deletion, for searches whose keys
// never fall below the last minimum taken (A* with a consistent heuristic,
// Dijkstra). Bucket i holds the keys whose highest bit differing from the last
// minimum is bit i - 1; bucket 0 holds keys equal to it. A pop takes from
// bucket 0, or first finds the least key of the lowest non-empty bucket and
// spreads that bucket into lower ones. Every operation is a sequential append
// or scan: no per-cell position array and no compare chain per heap level,
// which on large maps is where an indexed heap spends its time.
//
// A key below the last minimum (floating-point noise of a consistent
// heuristic, or an h code that breaks an f tie the other way) is raised to it,
// so it counts as a tie of the current minimum.
class RadixQueue {
 public:
  static constexpr bool kLazy = true;
  using Entry = OpenList::Entry;

  void Clear() {
    for (std::vector<Entry>& b : buckets_) b.clear();
    last_ = 0;
    size_ = 0;
  }
  bool empty() const { return size_ == 0; }

  void Push(uint32_t cell, double f, double h) {
    const uint64_t key = std::max(OpenList::MakeKey(f, h), last_);
    buckets_[BucketOf(key)].push_back({key, cell});
    ++size_;
  }

  // Entries held, stale ones included.
  size_t size() const { return size_; }

  // A least entry's cell, left in place; *f gets its f (to within the key's
  // 1e-12). REQUIRES: !empty().
  uint32_t Top(double* f) {
    if (buckets_[0].empty()) {
      size_t i = 1;
      while (buckets_[i].empty()) ++i;
      std::vector<Entry>& from = buckets_[i];
      uint64_t least = from[0].key;
      for (const Entry& e : from) least = std::min(least, e.key);
      last_ = least;
      for (const Entry& e : from) buckets_[BucketOf(e.key)].push_back(e);
      from.clear();
    }
    const Entry& e = buckets_[0].back();
    std::memcpy(f, &e.key, sizeof(*f));
    return e.cell;
  }
  // Removes the entry Top names. REQUIRES: Top was called since the last
  // change.
  void DropTop() {
    buckets_[0].pop_back();
    --size_;
  }
  // Removes a least entry; *f gets its f (to within the key's 1e-12).
  // REQUIRES: !empty().
  uint32_t PopMin(double* f) {
    const uint32_t cell = Top(f);
    DropTop();
    return cell;
  }

  size_t MemoryBytes() const {
    size_t bytes = 0;
    for (const std::vector<Entry>& b : buckets_) {
      bytes += b.capacity() * sizeof(Entry);
    }
    return bytes;
  }

 private:
  size_t BucketOf(uint64_t key) const {
    return key == last_
               ? 0
               : 64 - static_cast<size_t>(__builtin_clzll(key ^ last_));
  }

  std::vector<Entry> buckets_[65];
  uint64_t last_ = 0;
  size_t size_ = 0;
};

// A binary heap of (key, cell) entries without a position index: an entry
// made stale by a better one stays and is skipped when popped (kLazy). Keys
// may fall (weighted A*), unlike RadixQueue's.
class LazyHeap {
 public:
  static constexpr bool kLazy = true;
  using Entry = OpenList::Entry;

  void Clear() { heap_.clear(); }
  bool empty() const { return heap_.empty(); }
  void Push(uint32_t cell, double f, double h) {
    heap_.push_back({OpenList::MakeKey(f, h), cell});
    std::push_heap(heap_.begin(), heap_.end(), Greater());
  }
  // Removes a least entry; *f gets its f (to within the key's 1e-12).
  // REQUIRES: !empty().
  uint32_t PopMin(double* f) {
    std::pop_heap(heap_.begin(), heap_.end(), Greater());
    const Entry e = heap_.back();
    heap_.pop_back();
    std::memcpy(f, &e.key, sizeof(*f));
    return e.cell;
  }
  size_t MemoryBytes() const { return heap_.capacity() * sizeof(Entry); }

 private:
  struct Greater {
    bool operator()(const Entry& a, const Entry& b) const {
      return a.key > b.key;
    }
  };
  std::vector<Entry> heap_;
};

}  // namespace gridstar::internal

#endif  // GRIDSTAR_SRC_SEARCH_OPEN_LISTS_H_
