// Protobuf's JSON mapping (proto3) for the API's messages, by reflection:
// what google::protobuf::util's MessageToJsonString writes with
// always_print_primitive_fields (lowerCamelCase names, every singular
// primitive field, repeated fields as arrays even when empty, messages and
// oneof members and proto3 `optional` fields only when set, enums by name,
// 64-bit integers as strings, bytes in base64, NaN and infinities as
// strings) and what its JsonStringToMessage reads (either name of a field,
// enums by name or number, numbers as JSON numbers or strings, null for the
// default; unknown fields refused), byte for byte alike
// (tests/server/json_codec_test.cc compares them on random messages of
// every type of gridstar.proto). Protobuf 3.21's util converts through
// google.protobuf.Type descriptions it rebuilds on every call, which made it
// most of an HTTP/JSON call's time (docs/performance.md).
//
// Not handled (gridstar.proto has none): map fields, groups and the
// well-known types' special forms (Any, Timestamp, Duration, wrappers,
// Struct, FieldMask) — they are written and read as plain messages.
//
// Thread-safety: plain functions.
#ifndef GRIDSTAR_PROTO_CONVERT_JSON_CODEC_H_
#define GRIDSTAR_PROTO_CONVERT_JSON_CODEC_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/message.h"

namespace gridstar::convert {

// Appends `text` as a JSON string literal: quotes, backslashes, control
// characters, `<`, `>` and the invisible format characters protobuf's
// writer escapes are escaped; the rest (UTF-8) as given.
void AppendJsonString(absl::string_view text, std::string* out);

// Appends `message` as one JSON object (no whitespace) to *out.
void MessageToJson(const google::protobuf::Message& message, std::string* out);

// Reads `json` into `message` (cleared first). InvalidArgument naming the
// field's path ("start.x: ...") or the place the text stops being JSON;
// `message` is then unspecified.
absl::Status JsonToMessage(absl::string_view json,
                           google::protobuf::Message* message);

}  // namespace gridstar::convert

#endif  // GRIDSTAR_PROTO_CONVERT_JSON_CODEC_H_
