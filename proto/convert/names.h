// The API's enums by name, in types.h's one vocabulary: the canonical name
// of a value ("jps+", "no-corner-cutting", "flow-field", "off-path") and the
// value of any accepted spelling ("jps+", "jps_plus", "JPS_PLUS",
// "ALGORITHM_JPS_PLUS"). Generic over every enum of gridstar.proto (its
// descriptor gives the values and the prefix), so a new enum value needs no
// table edit here; tests/server/convert_test.cc checks that core's names
// agree.
//
// Thread-safety: pure functions.
#ifndef GRIDSTAR_PROTO_CONVERT_NAMES_H_
#define GRIDSTAR_PROTO_CONVERT_NAMES_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/generated_enum_reflection.h"

namespace gridstar::convert {

// Every enum of gridstar.proto, top-level and nested, in file order.
std::vector<const google::protobuf::EnumDescriptor*> AllEnums();

// "ALGORITHM_" for gridstar.v1.Algorithm: the prefix of its values.
std::string EnumPrefix(const google::protobuf::EnumDescriptor* e);
// The canonical name of value `number`; its decimal number when the enum has
// no such value.
std::string EnumValueName(const google::protobuf::EnumDescriptor* e,
                          int number);
// True for an enum's UNSPECIFIED value (never a name a user types).
bool IsUnspecified(const google::protobuf::EnumValueDescriptor* v);
// Canonical names of every value but the UNSPECIFIED one.
std::vector<std::string> EnumValueNames(
    const google::protobuf::EnumDescriptor* e);
// The value of `text` in any accepted spelling. UNSPECIFIED is never a name a
// user types. InvalidArgument "FIELD: unknown value 'TEXT' (one of ...)".
absl::StatusOr<int> ParseEnumValue(const google::protobuf::EnumDescriptor* e,
                                   absl::string_view text,
                                   absl::string_view field);

template <typename E>
std::string NameOf(E value) {
  return EnumValueName(google::protobuf::GetEnumDescriptor<E>(),
                       static_cast<int>(value));
}
template <typename E>
absl::StatusOr<E> ParseName(absl::string_view text, absl::string_view field) {
  absl::StatusOr<int> v =
      ParseEnumValue(google::protobuf::GetEnumDescriptor<E>(), text, field);
  if (!v.ok()) return v.status();
  return static_cast<E>(*v);
}

}  // namespace gridstar::convert

#endif  // GRIDSTAR_PROTO_CONVERT_NAMES_H_
