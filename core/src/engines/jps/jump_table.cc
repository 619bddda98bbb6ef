// jps+'s jump table as gridstar/engines/jps.h offers it to code outside the
// engines (the repair is in jump_repair.cc).

#include "engines/jps/jump_table.h"

#include <algorithm>
#include <memory>

#include "absl/strings/str_cat.h"
#include "engines/jps/jps.h"
#include "gridstar/engines/jps.h"

namespace gridstar {

using internal::JumpTable;
using internal::JumpTableOf;

absl::Status BuildJumpTable(GridMap* map) {
  if (!map->uniform_cost()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "jump_table: needs a map whose passable cells all cost the same (this "
        "one's costs are ",
        map->min_cost(), "..", map->max_cost(), ")"));
  }
  absl::StatusOr<internal::CowBuffer> table = internal::CowBuffer::Create(
      JumpTable::BytesFor(map->width(), map->height()), GridMap::kTileBytes);
  if (!table.ok()) return table.status();
  internal::ComputeJumpTable(*map,
                             reinterpret_cast<int8_t*>(table->mutable_data()));
  if (absl::Status s = table->Seal(); !s.ok()) return s;
  map->Attach(
      Algorithm::kJpsPlus,
      std::make_shared<const JumpTable>(
          std::make_shared<const internal::CowBuffer>(*std::move(table)),
          map->width()));
  return absl::OkStatus();
}

void ShareJumpTable(const GridMap& from, GridMap* to) {
  to->Attach(Algorithm::kJpsPlus, from.shared_attachment(Algorithm::kJpsPlus));
}

bool HasJumpTable(const GridMap& map) { return JumpTableOf(map) != nullptr; }

size_t JumpTableBytes(const GridMap& map) {
  return internal::HeldBytesOf(map, Algorithm::kJpsPlus);
}

size_t JumpTableBytesFor(int32_t width, int32_t height) {
  return JumpTable::BytesFor(width, height);
}

bool JumpTableEquals(const GridMap& a, const GridMap& b) {
  const JumpTable* x = JumpTableOf(a);
  const JumpTable* y = JumpTableOf(b);
  if (x == nullptr || y == nullptr) return x == y;
  return x->HeldBytes() == y->HeldBytes() &&
         std::equal(x->entries(), x->entries() + x->HeldBytes(), y->entries());
}

namespace {

// Jump distances for jps+ (8 bytes a padded cell) on uniform-cost maps.
class JumpTableDerived final : public DerivedStructure {
 public:
  explicit JumpTableDerived(bool defer) : defer_(defer) {}
  absl::string_view name() const override { return kJumpTableName; }
  size_t HeldBytes(const GridMap& map) const override {
    return JumpTableBytes(map);
  }
  bool AppliesTo(const GridMap& map) const override {
    return map.uniform_cost();
  }
  size_t BytesFor(const GridMap& map) const override {
    return AppliesTo(map) ? JumpTableBytesFor(map.width(), map.height()) : 0;
  }
  absl::StatusOr<DerivedOutcome> Build(GridMap* map) const override {
    if (!AppliesTo(*map)) return DerivedOutcome::kAbsent;
    if (absl::Status s = BuildJumpTable(map); !s.ok()) return s;
    return DerivedOutcome::kBuilt;
  }
  absl::StatusOr<DerivedOutcome> Repair(const GridMap& previous,
                                        const ChangeSummary& summary,
                                        GridMap* next) const override {
    if (!AppliesTo(*next)) return DerivedOutcome::kAbsent;
    // Only passability matters to the table: any two uniform-cost versions
    // repair, whatever their cost.
    if (!HasJumpTable(previous) || !previous.uniform_cost()) {
      return Build(next);
    }
    if (defer_) return DerivedOutcome::kDeferred;
    if (absl::Status s = RepairJumpTable(previous, summary.rects, next);
        !s.ok()) {
      return s;
    }
    return DerivedOutcome::kRepaired;
  }
  void Share(const GridMap& from, GridMap* to) const override {
    ShareJumpTable(from, to);
  }

 private:
  const bool defer_;
};

}  // namespace

namespace internal {

std::unique_ptr<const DerivedStructure> JumpTableStructure(
    const DerivedOptions& options) {
  if (!options.Asks(kJumpTableName)) return nullptr;
  return std::make_unique<JumpTableDerived>(options.defer_slow_repairs);
}

}  // namespace internal

}  // namespace gridstar
