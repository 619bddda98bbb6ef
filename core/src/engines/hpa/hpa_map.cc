// GridMap's HPA* members (grid_map.h), kept with the abstraction they hold.

#include "absl/strings/str_cat.h"
#include "engines/hpa/hpa.h"
#include "gridstar/grid_map.h"
#include "gridstar/query.h"

namespace gridstar {

absl::Status GridMap::BuildHpa(DiagonalPolicy policy) {
  if (absl::Status s = ValidateMovement(MovementModel{policy}); !s.ok()) {
    return s;
  }
  hpa_ = internal::HpaAbstraction::Build(*this, policy);
  return absl::OkStatus();
}

void GridMap::RepairHpaFrom(const GridMap& previous,
                            absl::Span<const CellRect> rects) {
  hpa_ = internal::HpaAbstraction::Repair(*previous.hpa_, *this, rects);
}

DiagonalPolicy GridMap::hpa_policy() const { return hpa_->policy(); }

size_t GridMap::HpaBytes() const {
  return hpa_ == nullptr ? 0 : hpa_->MemoryBytes();
}

bool GridMap::HpaEquals(const GridMap& other) const {
  if (hpa_ == nullptr || other.hpa_ == nullptr) {
    return hpa_ == nullptr && other.hpa_ == nullptr;
  }
  return hpa_->SameAs(*other.hpa_);
}

size_t GridMap::HpaBytesFor() const {
  return internal::HpaAbstraction::BytesUpperBound(*this);
}

}  // namespace gridstar
