#include "convert/names.h"

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "google/protobuf/descriptor.h"
#include "gridstar/types.h"
#include "gridstar/v1/gridstar.pb.h"

namespace gridstar::convert {

std::vector<const google::protobuf::EnumDescriptor*> AllEnums() {
  const google::protobuf::FileDescriptor* file =
      v1::Algorithm_descriptor()->file();
  std::vector<const google::protobuf::EnumDescriptor*> enums;
  for (int i = 0; i < file->enum_type_count(); ++i)
    enums.push_back(file->enum_type(i));
  for (int m = 0; m < file->message_type_count(); ++m) {
    for (int i = 0; i < file->message_type(m)->enum_type_count(); ++i) {
      enums.push_back(file->message_type(m)->enum_type(i));
    }
  }
  return enums;
}

std::string EnumPrefix(const google::protobuf::EnumDescriptor* e) {
  std::string out;
  for (char c : e->name()) {
    if (absl::ascii_isupper(static_cast<unsigned char>(c)) && !out.empty()) {
      out.push_back('_');
    }
    out.push_back(absl::ascii_toupper(static_cast<unsigned char>(c)));
  }
  return absl::StrCat(out, "_");
}

std::string EnumValueName(const google::protobuf::EnumDescriptor* e,
                          int number) {
  const google::protobuf::EnumValueDescriptor* v = e->FindValueByNumber(number);
  if (v == nullptr) return absl::StrCat(number);
  return CanonicalEnumName(v->name(), EnumPrefix(e));
}

bool IsUnspecified(const google::protobuf::EnumValueDescriptor* v) {
  return absl::EndsWith(v->name(), "_UNSPECIFIED");
}

std::vector<std::string> EnumValueNames(
    const google::protobuf::EnumDescriptor* e) {
  std::vector<std::string> names;
  for (int i = 0; i < e->value_count(); ++i) {
    if (!IsUnspecified(e->value(i))) {
      names.push_back(EnumValueName(e, e->value(i)->number()));
    }
  }
  return names;
}

absl::StatusOr<int> ParseEnumValue(const google::protobuf::EnumDescriptor* e,
                                   absl::string_view text,
                                   absl::string_view field) {
  const std::string prefix = EnumPrefix(e);
  const std::string typed = NormalizeEnumName(text, prefix);
  for (int i = 0; i < e->value_count(); ++i) {
    const google::protobuf::EnumValueDescriptor* v = e->value(i);
    if (!IsUnspecified(v) && !typed.empty() &&
        typed == NormalizeEnumName(v->name(), prefix)) {
      return v->number();
    }
  }
  return absl::InvalidArgumentError(
      absl::StrCat(field, ": unknown value '", text, "' (one of ",
                   absl::StrJoin(EnumValueNames(e), ", "), ")"));
}

}  // namespace gridstar::convert
