#include "convert/json_codec.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/reflection.h"
#include "nlohmann/json.hpp"

namespace gridstar::convert {
namespace {

using google::protobuf::EnumValueDescriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;
using Json = nlohmann::json;

// ---- Writing.

// Code points protobuf's writer escapes besides ASCII controls: invisible
// format characters and line separators (the list it shares with GWT's
// JsonUtils), so that text stays visible and safe inside a <script>.
bool EscapedCodePoint(uint32_t c) {
  static constexpr uint32_t kRanges[][2] = {
      {0xad, 0xad},     {0x600, 0x603},   {0x6dd, 0x6dd},   {0x70f, 0x70f},
      {0x17b4, 0x17b5}, {0x200b, 0x200f}, {0x2028, 0x202e}, {0x2060, 0x2064},
      {0x206a, 0x206f}, {0xfeff, 0xfeff}, {0xfff9, 0xfffb}};
  for (const auto& range : kRanges) {
    if (c >= range[0] && c <= range[1]) return true;
  }
  return false;
}

void AppendEscaped(absl::string_view text, std::string* out) {
  out->push_back('"');
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    switch (c) {
      case '"':
        out->append("\\\"");
        continue;
      case '\\':
        out->append("\\\\");
        continue;
      case '\b':
        out->append("\\b");
        continue;
      case '\f':
        out->append("\\f");
        continue;
      case '\n':
        out->append("\\n");
        continue;
      case '\r':
        out->append("\\r");
        continue;
      case '\t':
        out->append("\\t");
        continue;
      case '<':
        out->append("\\u003c");
        continue;
      case '>':
        out->append("\\u003e");
        continue;
      default:
        break;
    }
    if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out->append(buf);
      continue;
    }
    // A two- or three-byte sequence of a code point in the list above.
    if ((c & 0xe0) == 0xc0 && i + 1 < text.size()) {
      const uint32_t cp = ((c & 0x1fu) << 6) | (text[i + 1] & 0x3fu);
      if (EscapedCodePoint(cp)) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", cp);
        out->append(buf);
        ++i;
        continue;
      }
    } else if ((c & 0xf0) == 0xe0 && i + 2 < text.size()) {
      const uint32_t cp = ((c & 0x0fu) << 12) | ((text[i + 1] & 0x3fu) << 6) |
                          (text[i + 2] & 0x3fu);
      if (EscapedCodePoint(cp)) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", cp);
        out->append(buf);
        i += 2;
        continue;
      }
    }
    out->push_back(static_cast<char>(c));
  }
  out->push_back('"');
}

// As protobuf's SimpleDtoa / SimpleFtoa: the shortest of 15 (float: 6) or
// 17 (9) significant digits that reads back as the value.
template <typename T>
void AppendFloating(T value, std::string* out) {
  if (std::isnan(value)) {
    out->append("\"NaN\"");
    return;
  }
  if (std::isinf(value)) {
    out->append(value > 0 ? "\"Infinity\"" : "\"-Infinity\"");
    return;
  }
  constexpr bool kDouble = sizeof(T) == sizeof(double);
  char buf[40];
  std::snprintf(buf, sizeof buf, kDouble ? "%.15g" : "%.6g",
                static_cast<double>(value));
  if (static_cast<T>(std::strtod(buf, nullptr)) != value) {
    std::snprintf(buf, sizeof buf, kDouble ? "%.17g" : "%.9g",
                  static_cast<double>(value));
  }
  out->append(buf);
}

void AppendMessage(const Message& message, std::string* out);

void AppendValue(const Message& message, const Reflection& r,
                 const FieldDescriptor& f, int index, std::string* out) {
  const bool repeated = f.is_repeated();
  switch (f.cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
      absl::StrAppend(out, repeated ? r.GetRepeatedInt32(message, &f, index)
                                    : r.GetInt32(message, &f));
      return;
    case FieldDescriptor::CPPTYPE_UINT32:
      absl::StrAppend(out, repeated ? r.GetRepeatedUInt32(message, &f, index)
                                    : r.GetUInt32(message, &f));
      return;
    case FieldDescriptor::CPPTYPE_INT64:
      absl::StrAppend(out, "\"",
                      repeated ? r.GetRepeatedInt64(message, &f, index)
                               : r.GetInt64(message, &f),
                      "\"");
      return;
    case FieldDescriptor::CPPTYPE_UINT64:
      absl::StrAppend(out, "\"",
                      repeated ? r.GetRepeatedUInt64(message, &f, index)
                               : r.GetUInt64(message, &f),
                      "\"");
      return;
    case FieldDescriptor::CPPTYPE_DOUBLE:
      AppendFloating(repeated ? r.GetRepeatedDouble(message, &f, index)
                              : r.GetDouble(message, &f),
                     out);
      return;
    case FieldDescriptor::CPPTYPE_FLOAT:
      AppendFloating(repeated ? r.GetRepeatedFloat(message, &f, index)
                              : r.GetFloat(message, &f),
                     out);
      return;
    case FieldDescriptor::CPPTYPE_BOOL:
      out->append((repeated ? r.GetRepeatedBool(message, &f, index)
                            : r.GetBool(message, &f))
                      ? "true"
                      : "false");
      return;
    case FieldDescriptor::CPPTYPE_ENUM: {
      const int number = repeated ? r.GetRepeatedEnumValue(message, &f, index)
                                  : r.GetEnumValue(message, &f);
      const EnumValueDescriptor* v = f.enum_type()->FindValueByNumber(number);
      if (v != nullptr) {
        AppendEscaped(v->name(), out);
      } else {
        absl::StrAppend(out, number);
      }
      return;
    }
    case FieldDescriptor::CPPTYPE_STRING: {
      std::string scratch;
      const std::string& value =
          repeated ? r.GetRepeatedStringReference(message, &f, index, &scratch)
                   : r.GetStringReference(message, &f, &scratch);
      if (f.type() == FieldDescriptor::TYPE_BYTES) {
        out->push_back('"');
        out->append(absl::Base64Escape(value));
        out->push_back('"');
      } else {
        AppendEscaped(value, out);
      }
      return;
    }
    case FieldDescriptor::CPPTYPE_MESSAGE:
      AppendMessage(repeated ? r.GetRepeatedMessage(message, &f, index)
                             : r.GetMessage(message, &f),
                    out);
      return;
  }
}

void AppendMessage(const Message& message, std::string* out) {
  const google::protobuf::Descriptor* d = message.GetDescriptor();
  const Reflection& r = *message.GetReflection();
  out->push_back('{');
  bool first = true;
  auto append_field = [&](const FieldDescriptor& f) {
    if (!first) out->push_back(',');
    first = false;
    AppendEscaped(f.json_name(), out);
    out->push_back(':');
    if (f.is_repeated()) {
      out->push_back('[');
      const int n = r.FieldSize(message, &f);
      for (int k = 0; k < n; ++k) {
        if (k > 0) out->push_back(',');
        AppendValue(message, r, f, k, out);
      }
      out->push_back(']');
    } else {
      AppendValue(message, r, f, 0, out);
    }
  };
  // As protobuf writes them (every field printed): in declaration order the
  // fields outside oneofs and the messages (only when set, a oneof's member
  // too), then the set scalar members of oneofs (proto3 `optional` fields
  // included) by field number.
  auto in_order = [](const FieldDescriptor& f) {
    return f.containing_oneof() == nullptr ||
           f.cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE;
  };
  for (int i = 0; i < d->field_count(); ++i) {
    const FieldDescriptor& f = *d->field(i);
    if (!in_order(f)) continue;
    if (!f.is_repeated() && f.has_presence() && !r.HasField(message, &f)) {
      continue;
    }
    append_field(f);
  }
  std::vector<const FieldDescriptor*> set_members;
  for (int i = 0; i < d->field_count(); ++i) {
    const FieldDescriptor* f = d->field(i);
    if (!in_order(*f) && r.HasField(message, f)) set_members.push_back(f);
  }
  std::sort(set_members.begin(), set_members.end(),
            [](const FieldDescriptor* a, const FieldDescriptor* b) {
              return a->number() < b->number();
            });
  for (const FieldDescriptor* f : set_members) append_field(*f);
  out->push_back('}');
}

// ---- Reading.

absl::Status Invalid(const std::string& path, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(path, ": ", what));
}

std::string Shown(const Json& v) {
  std::string s = v.dump(-1, ' ', false, Json::error_handler_t::replace);
  return s.size() > 64 ? s.substr(0, 61) + "..." : s;
}

// A JSON number or numeric string as an integer in [lo, hi].
template <typename T>
absl::Status ReadInteger(const Json& v, const std::string& path, T* out) {
  if (v.is_number_integer()) {
    if (v.is_number_unsigned()) {
      const uint64_t u = v.get<uint64_t>();
      if (u > static_cast<uint64_t>(std::numeric_limits<T>::max())) {
        return Invalid(path, absl::StrCat("out of range: ", Shown(v)));
      }
      *out = static_cast<T>(u);
      return absl::OkStatus();
    }
    const int64_t i = v.get<int64_t>();
    if ((std::numeric_limits<T>::is_signed &&
         i < static_cast<int64_t>(std::numeric_limits<T>::min())) ||
        (!std::numeric_limits<T>::is_signed && i < 0) ||
        (i > 0 && static_cast<uint64_t>(i) >
                      static_cast<uint64_t>(std::numeric_limits<T>::max()))) {
      return Invalid(path, absl::StrCat("out of range: ", Shown(v)));
    }
    *out = static_cast<T>(i);
    return absl::OkStatus();
  }
  if (v.is_number_float()) {
    const double d = v.get<double>();
    // Below max + 1, strictly: a 64-bit max rounds up to 2^63 or 2^64 as a
    // double, and converting that back is undefined.
    if (d != std::floor(d) ||
        !(d >= static_cast<double>(std::numeric_limits<T>::min())) ||
        !(d < static_cast<double>(std::numeric_limits<T>::max()) + 1.0)) {
      return Invalid(path, absl::StrCat("not an integer in range: ", Shown(v)));
    }
    *out = static_cast<T>(d);
    return absl::OkStatus();
  }
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    if (std::numeric_limits<T>::is_signed) {
      int64_t i;
      if (absl::SimpleAtoi(s, &i) &&
          i >= static_cast<int64_t>(std::numeric_limits<T>::min()) &&
          i <= static_cast<int64_t>(std::numeric_limits<T>::max())) {
        *out = static_cast<T>(i);
        return absl::OkStatus();
      }
    } else {
      uint64_t u;
      if (absl::SimpleAtoi(s, &u) &&
          u <= static_cast<uint64_t>(std::numeric_limits<T>::max())) {
        *out = static_cast<T>(u);
        return absl::OkStatus();
      }
    }
  }
  return Invalid(path, absl::StrCat("not an integer in range: ", Shown(v)));
}

absl::Status ReadFloating(const Json& v, const std::string& path, double* out) {
  if (v.is_number()) {
    *out = v.get<double>();
    return absl::OkStatus();
  }
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    if (s == "NaN") {
      *out = std::numeric_limits<double>::quiet_NaN();
      return absl::OkStatus();
    }
    if (s == "Infinity" || s == "-Infinity") {
      *out = s[0] == '-' ? -std::numeric_limits<double>::infinity()
                         : std::numeric_limits<double>::infinity();
      return absl::OkStatus();
    }
    if (absl::SimpleAtod(s, out) && std::isfinite(*out)) {
      return absl::OkStatus();
    }
  }
  return Invalid(path, absl::StrCat("not a number: ", Shown(v)));
}

absl::Status ReadMessage(const Json& object, const std::string& path,
                         Message* message);

// Reads one value of field `f` (an element, for repeated fields).
absl::Status ReadValue(const Json& v, const std::string& path,
                       const FieldDescriptor& f, Message* message) {
  const Reflection& r = *message->GetReflection();
  const bool repeated = f.is_repeated();
  switch (f.cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32: {
      int32_t x = 0;
      if (absl::Status s = ReadInteger(v, path, &x); !s.ok()) return s;
      repeated ? r.AddInt32(message, &f, x) : r.SetInt32(message, &f, x);
      return absl::OkStatus();
    }
    case FieldDescriptor::CPPTYPE_UINT32: {
      uint32_t x = 0;
      if (absl::Status s = ReadInteger(v, path, &x); !s.ok()) return s;
      repeated ? r.AddUInt32(message, &f, x) : r.SetUInt32(message, &f, x);
      return absl::OkStatus();
    }
    case FieldDescriptor::CPPTYPE_INT64: {
      int64_t x = 0;
      if (absl::Status s = ReadInteger(v, path, &x); !s.ok()) return s;
      repeated ? r.AddInt64(message, &f, x) : r.SetInt64(message, &f, x);
      return absl::OkStatus();
    }
    case FieldDescriptor::CPPTYPE_UINT64: {
      uint64_t x = 0;
      if (absl::Status s = ReadInteger(v, path, &x); !s.ok()) return s;
      repeated ? r.AddUInt64(message, &f, x) : r.SetUInt64(message, &f, x);
      return absl::OkStatus();
    }
    case FieldDescriptor::CPPTYPE_DOUBLE:
    case FieldDescriptor::CPPTYPE_FLOAT: {
      double x = 0;
      if (absl::Status s = ReadFloating(v, path, &x); !s.ok()) return s;
      if (f.cpp_type() == FieldDescriptor::CPPTYPE_DOUBLE) {
        repeated ? r.AddDouble(message, &f, x) : r.SetDouble(message, &f, x);
      } else {
        if (std::isfinite(x) &&
            std::fabs(x) > std::numeric_limits<float>::max()) {
          return Invalid(path, absl::StrCat("out of range: ", Shown(v)));
        }
        const float y = static_cast<float>(x);
        repeated ? r.AddFloat(message, &f, y) : r.SetFloat(message, &f, y);
      }
      return absl::OkStatus();
    }
    case FieldDescriptor::CPPTYPE_BOOL: {
      if (!v.is_boolean()) {
        return Invalid(path, absl::StrCat("not true or false: ", Shown(v)));
      }
      const bool x = v.get<bool>();
      repeated ? r.AddBool(message, &f, x) : r.SetBool(message, &f, x);
      return absl::OkStatus();
    }
    case FieldDescriptor::CPPTYPE_ENUM: {
      int number;
      if (v.is_string()) {
        const EnumValueDescriptor* e =
            f.enum_type()->FindValueByName(v.get_ref<const std::string&>());
        if (e == nullptr) {
          return Invalid(
              path, absl::StrCat("not a value of ", f.enum_type()->name(), ": ",
                                 Shown(v)));
        }
        number = e->number();
      } else if (absl::Status s = ReadInteger(v, path, &number); !s.ok()) {
        return Invalid(
            path, absl::StrCat("not a value of ", f.enum_type()->name(), ": ",
                               Shown(v)));
      }
      repeated ? r.AddEnumValue(message, &f, number)
               : r.SetEnumValue(message, &f, number);
      return absl::OkStatus();
    }
    case FieldDescriptor::CPPTYPE_STRING: {
      if (!v.is_string()) {
        return Invalid(path, absl::StrCat("not a string: ", Shown(v)));
      }
      std::string x = v.get<std::string>();
      if (f.type() == FieldDescriptor::TYPE_BYTES) {
        std::string decoded;
        if (!absl::Base64Unescape(x, &decoded) &&
            !absl::WebSafeBase64Unescape(x, &decoded)) {
          return Invalid(path, "not base64");
        }
        x = std::move(decoded);
      }
      repeated ? r.AddString(message, &f, std::move(x))
               : r.SetString(message, &f, std::move(x));
      return absl::OkStatus();
    }
    case FieldDescriptor::CPPTYPE_MESSAGE: {
      if (!v.is_object()) {
        return Invalid(path, absl::StrCat("not an object: ", Shown(v)));
      }
      Message* sub =
          repeated ? r.AddMessage(message, &f) : r.MutableMessage(message, &f);
      return ReadMessage(v, path, sub);
    }
  }
  return Invalid(path, "unsupported field type");
}

absl::Status ReadMessage(const Json& object, const std::string& path,
                         Message* message) {
  const google::protobuf::Descriptor* d = message->GetDescriptor();
  const std::string prefix = path.empty() ? "" : absl::StrCat(path, ".");
  for (const auto& [key, v] : object.items()) {
    const FieldDescriptor* f = nullptr;
    for (int i = 0; i < d->field_count() && f == nullptr; ++i) {
      const FieldDescriptor* candidate = d->field(i);
      if (candidate->json_name() == key || candidate->name() == key) {
        f = candidate;
      }
    }
    const std::string here = absl::StrCat(prefix, key);
    if (f == nullptr) {
      return Invalid(here, absl::StrCat("no such field in ", d->name()));
    }
    if (v.is_null()) continue;  // The default.
    if (const google::protobuf::OneofDescriptor* o = f->real_containing_oneof();
        o != nullptr) {
      const FieldDescriptor* set =
          message->GetReflection()->GetOneofFieldDescriptor(*message, o);
      if (set != nullptr && set != f) {
        return Invalid(here,
                       absl::StrCat("more than one field of oneof ", o->name(),
                                    " is set (", set->name(), ")"));
      }
    }
    if (f->is_repeated()) {
      if (!v.is_array()) {
        return Invalid(here, absl::StrCat("not an array: ", Shown(v)));
      }
      size_t i = 0;
      for (const Json& element : v) {
        const std::string at = absl::StrCat(here, "[", i++, "]");
        if (element.is_null()) {
          return Invalid(at, "null in a repeated field");
        }
        if (absl::Status s = ReadValue(element, at, *f, message); !s.ok()) {
          return s;
        }
      }
      continue;
    }
    if (absl::Status s = ReadValue(v, here, *f, message); !s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace

void AppendJsonString(absl::string_view text, std::string* out) {
  AppendEscaped(text, out);
}

void MessageToJson(const google::protobuf::Message& message, std::string* out) {
  AppendMessage(message, out);
}

absl::Status JsonToMessage(absl::string_view json,
                           google::protobuf::Message* message) {
  message->Clear();
  Json parsed;
  try {
    parsed = Json::parse(json.begin(), json.end());
  } catch (const Json::parse_error& e) {
    return absl::InvalidArgumentError(
        absl::StrCat("not JSON at byte ", e.byte, ": ", e.what()));
  } catch (const Json::exception& e) {  // A number out of double's range.
    return absl::InvalidArgumentError(absl::StrCat("not JSON: ", e.what()));
  }
  if (!parsed.is_object()) {
    return absl::InvalidArgumentError(
        absl::StrCat("not a JSON object: ", Shown(parsed)));
  }
  return ReadMessage(parsed, "", message);
}

}  // namespace gridstar::convert
