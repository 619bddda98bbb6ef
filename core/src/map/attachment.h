// MapAttachment: a structure an engine precomputes for one version of a map
// (a table of distances, landmarks, an abstraction, a graph, a measured
// choice) and attaches to it.
//
// A GridMap holds one attachment slot per Algorithm value (its owner's) and
// knows nothing else of what is in it: the engine's folder defines the
// structure, builds it, repairs it for a new version and reads it through
// typed accessors over AttachedTo (in the engine's own headers).
// Copies of a map share its attachments; a version made by ApplyChanges
// keeps only those that say KeptByNewVersions (the rest are the structure's
// Repair to carry, repair or rebuild; core/src/planners/derived_data.cc).
//
// Thread-safety: an attachment is immutable once attached, so any number of
// threads may read it. Attach writes the map, which must not yet be shared.

#ifndef GRIDSTAR_SRC_MAP_ATTACHMENT_H_
#define GRIDSTAR_SRC_MAP_ATTACHMENT_H_

#include <cstddef>
#include <memory>

#include "gridstar/grid_map.h"
#include "gridstar/types.h"

namespace gridstar::internal {

class MapAttachment {
 public:
  virtual ~MapAttachment() = default;
  // Bytes it holds, parts shared with other versions included.
  virtual size_t HeldBytes() const = 0;
  // Bytes of storage tiles no other version shares (GridMap's
  // UnsharedTileBytes), for attachments kept in copy-on-write tiles.
  virtual size_t UnsharedTileBytes() const { return 0; }
  // Whether a new version (ApplyChanges) keeps it as it is: true for what
  // holds whatever the changes (a measurement taken at registration).
  virtual bool KeptByNewVersions() const { return false; }
};

// The attachment of `owner` on `map` as the type its engine stores there,
// null when none. REQUIRES: whatever is in that slot is a T (each engine
// stores one type in its own slot).
template <typename T>
const T* AttachedTo(const GridMap& map, Algorithm owner) {
  return static_cast<const T*>(map.attachment(owner));
}

// Bytes the attachment of `owner` on `map` holds; 0 when none.
inline size_t HeldBytesOf(const GridMap& map, Algorithm owner) {
  const MapAttachment* attached = map.attachment(owner);
  return attached == nullptr ? 0 : attached->HeldBytes();
}

template <typename T>
std::shared_ptr<const T> SharedAttachedTo(const GridMap& map, Algorithm owner) {
  return std::static_pointer_cast<const T>(map.shared_attachment(owner));
}

}  // namespace gridstar::internal

#endif  // GRIDSTAR_SRC_MAP_ATTACHMENT_H_
