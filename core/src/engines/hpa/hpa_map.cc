// The HPA* abstraction as gridstar/engines/hpa.h offers it to code outside the
// engines: built, repaired and asked about on a map (Algorithm::kHpa's
// attachment).

#include "absl/strings/str_cat.h"
#include "engines/hpa/hpa.h"
#include "gridstar/engines/hpa.h"
#include "gridstar/grid_map.h"
#include "gridstar/query.h"

namespace gridstar {

using internal::HpaAbstraction;
using internal::HpaOf;

absl::Status BuildHpa(GridMap* map, DiagonalPolicy policy) {
  if (absl::Status s = ValidateMovement(MovementModel{policy}); !s.ok()) {
    return s;
  }
  map->Attach(Algorithm::kHpa, HpaAbstraction::Build(*map, policy));
  return absl::OkStatus();
}

void RepairHpa(const GridMap& previous, absl::Span<const CellRect> rects,
               GridMap* next) {
  next->Attach(Algorithm::kHpa,
               HpaAbstraction::Repair(*HpaOf(previous), *next, rects));
}

bool HasHpa(const GridMap& map) { return HpaOf(map) != nullptr; }

DiagonalPolicy HpaPolicy(const GridMap& map) { return HpaOf(map)->policy(); }

size_t HpaBytes(const GridMap& map) {
  return internal::HeldBytesOf(map, Algorithm::kHpa);
}

bool HpaEquals(const GridMap& a, const GridMap& b) {
  const HpaAbstraction* x = HpaOf(a);
  const HpaAbstraction* y = HpaOf(b);
  if (x == nullptr || y == nullptr) return x == y;
  return x->SameAs(*y);
}

size_t HpaBytesFor(const GridMap& map) {
  return HpaAbstraction::BytesUpperBound(map);
}

namespace {

// The HPA* abstraction (engines/hpa/hpa.h) for one policy, on any map.
class HpaDerived final : public DerivedStructure {
 public:
  explicit HpaDerived(DiagonalPolicy policy) : policy_(policy) {}
  absl::string_view name() const override { return kHpaName; }
  size_t HeldBytes(const GridMap& map) const override { return HpaBytes(map); }
  bool AppliesTo(const GridMap&) const override { return true; }
  size_t BytesFor(const GridMap& map) const override {
    return HpaBytesFor(map);
  }
  absl::StatusOr<DerivedOutcome> Build(GridMap* map) const override {
    if (absl::Status s = BuildHpa(map, policy_); !s.ok()) return s;
    return DerivedOutcome::kBuilt;
  }
  absl::StatusOr<DerivedOutcome> Repair(const GridMap& previous,
                                        const ChangeSummary& summary,
                                        GridMap* next) const override {
    // Without the rectangles (ApplyChangesToCosts) or an abstraction for
    // this policy to start from, build.
    if (!HasHpa(previous) || HpaPolicy(previous) != policy_ ||
        (summary.rects.empty() && summary.cells_changed > 0)) {
      return Build(next);
    }
    RepairHpa(previous, summary.rects, next);
    return DerivedOutcome::kRepaired;
  }
  void Share(const GridMap& from, GridMap* to) const override {
    to->Attach(Algorithm::kHpa, from.shared_attachment(Algorithm::kHpa));
  }

 private:
  const DiagonalPolicy policy_;
};

}  // namespace

namespace internal {

std::unique_ptr<const DerivedStructure> HpaStructure(
    const DerivedOptions& options) {
  const StructureRequest* request = options.Find(kHpaName);
  if (request == nullptr) return nullptr;
  return std::make_unique<HpaDerived>(request->policy);
}

}  // namespace internal

}  // namespace gridstar
