// convert/json_codec.h against protobuf's own JSON mapping (util's
// MessageToJsonString with always_print_primitive_fields, JsonStringToMessage)
// on random messages of every message type of gridstar.proto: the same text
// written, and each reads what the other wrote back into an equal message.
// Then every refusal by name, and damaged texts that must not crash.
#include "convert/json_codec.h"

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/dynamic_message.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/message_differencer.h"
#include "gridstar/v1/gridstar.pb.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace gridstar::convert {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;

// Valid UTF-8 with everything JSON must escape, markup, and multi-byte text.
std::string RandomText(std::mt19937_64& rng) {
  static const char* const kPieces[] = {
      "a",      "Z",      "0",      " ",      "\"",     "\\",     "/",
      "\n",     "\t",     "\r",     "\b",     "\f",     "\x01",   "\x1f",
      "\x7f",   "<",      ">",      "&",      "'",      "=",      "é",
      "€",      "𝄞",      "\u2028", "\u2029", "\u00ad", "\u200b", "\ufeff",
      "\u0600", "\ufffb", "\u06dd"};
  std::string s;
  const int n = static_cast<int>(rng() % 8);
  for (int i = 0; i < n; ++i)
    s += kPieces[rng() % (sizeof kPieces / sizeof *kPieces)];
  return s;
}

double RandomDouble(std::mt19937_64& rng, bool infinities) {
  switch (rng() % 8) {
    case 0:
      return 0;
    case 1:
      return static_cast<double>(static_cast<int64_t>(rng() % 2000) - 1000);
    case 2:
      return std::ldexp(static_cast<double>(rng() % 1000000),
                        -static_cast<int>(rng() % 40));
    case 3:
      return infinities ? -std::numeric_limits<double>::infinity() : 1e300;
    case 4:
      return std::numeric_limits<double>::max();
    case 5:
      return std::numeric_limits<double>::denorm_min();
    default: {
      std::uniform_real_distribution<double> d(-1e6, 1e6);
      return d(rng);
    }
  }
}

void Fill(Message* m, std::mt19937_64& rng, int depth) {
  const Descriptor* d = m->GetDescriptor();
  const auto* r = m->GetReflection();
  for (int i = 0; i < d->field_count(); ++i) {
    const FieldDescriptor* f = d->field(i);
    if (rng() % 10 < 3) continue;
    if (f->real_containing_oneof() != nullptr &&
        r->GetOneofFieldDescriptor(*m, f->real_containing_oneof()) != nullptr) {
      continue;
    }
    if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE && depth >= 3)
      continue;
    const int n = f->is_repeated() ? static_cast<int>(rng() % 4) : 1;
    for (int k = 0; k < n; ++k) {
      const bool rep = f->is_repeated();
      switch (f->cpp_type()) {
        case FieldDescriptor::CPPTYPE_INT32: {
          const int32_t v = rng() % 5 == 0 ? std::numeric_limits<int32_t>::min()
                                           : static_cast<int32_t>(rng());
          rep ? r->AddInt32(m, f, v) : r->SetInt32(m, f, v);
          break;
        }
        case FieldDescriptor::CPPTYPE_UINT32: {
          const uint32_t v = static_cast<uint32_t>(rng());
          rep ? r->AddUInt32(m, f, v) : r->SetUInt32(m, f, v);
          break;
        }
        case FieldDescriptor::CPPTYPE_INT64: {
          const int64_t v = static_cast<int64_t>(rng());
          rep ? r->AddInt64(m, f, v) : r->SetInt64(m, f, v);
          break;
        }
        case FieldDescriptor::CPPTYPE_UINT64: {
          const uint64_t v = rng();
          rep ? r->AddUInt64(m, f, v) : r->SetUInt64(m, f, v);
          break;
        }
        case FieldDescriptor::CPPTYPE_DOUBLE: {
          const double v = RandomDouble(rng, true);
          rep ? r->AddDouble(m, f, v) : r->SetDouble(m, f, v);
          break;
        }
        case FieldDescriptor::CPPTYPE_FLOAT: {
          const float v = static_cast<float>(RandomDouble(rng, true) / 1e10);
          rep ? r->AddFloat(m, f, v) : r->SetFloat(m, f, v);
          break;
        }
        case FieldDescriptor::CPPTYPE_BOOL: {
          const bool v = rng() % 2 == 0;
          rep ? r->AddBool(m, f, v) : r->SetBool(m, f, v);
          break;
        }
        case FieldDescriptor::CPPTYPE_ENUM: {
          const auto* e = f->enum_type();
          const int v =
              rng() % 10 == 0
                  ? 77
                  : e->value(static_cast<int>(rng() % e->value_count()))
                        ->number();
          rep ? r->AddEnumValue(m, f, v) : r->SetEnumValue(m, f, v);
          break;
        }
        case FieldDescriptor::CPPTYPE_STRING: {
          std::string v;
          if (f->type() == FieldDescriptor::TYPE_BYTES) {
            const int len = static_cast<int>(rng() % 9);
            for (int b = 0; b < len; ++b) v.push_back(static_cast<char>(rng()));
          } else {
            v = RandomText(rng);
          }
          rep ? r->AddString(m, f, v) : r->SetString(m, f, v);
          break;
        }
        case FieldDescriptor::CPPTYPE_MESSAGE:
          Fill(rep ? r->AddMessage(m, f) : r->MutableMessage(m, f), rng,
               depth + 1);
          break;
      }
    }
  }
}

std::vector<const Descriptor*> EveryMessageType() {
  const google::protobuf::FileDescriptor* file =
      v1::PathRequest::descriptor()->file();
  std::vector<const Descriptor*> out;
  std::vector<const Descriptor*> stack;
  for (int i = 0; i < file->message_type_count(); ++i)
    stack.push_back(file->message_type(i));
  while (!stack.empty()) {
    const Descriptor* d = stack.back();
    stack.pop_back();
    out.push_back(d);
    for (int i = 0; i < d->nested_type_count(); ++i)
      stack.push_back(d->nested_type(i));
  }
  return out;
}

std::string UtilJson(const Message& m) {
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  std::string out;
  EXPECT_TRUE(
      google::protobuf::util::MessageToJsonString(m, &out, options).ok());
  return out;
}

TEST(JsonCodecTest, WritesAndReadsAsProtobufDoesForEveryMessageType) {
  google::protobuf::DynamicMessageFactory factory;
  factory.SetDelegateToGeneratedFactory(true);
  std::mt19937_64 rng(20261206);
  const std::vector<const Descriptor*> types = EveryMessageType();
  ASSERT_GE(types.size(), 30u);
  for (const Descriptor* d : types) {
    SCOPED_TRACE(d->full_name());
    for (int round = 0; round < 60; ++round) {
      SCOPED_TRACE(round);
      std::unique_ptr<Message> m(factory.GetPrototype(d)->New());
      if (round > 0) Fill(m.get(), rng, 0);
      std::string ours;
      MessageToJson(*m, &ours);
      const std::string theirs = UtilJson(*m);
      ASSERT_EQ(ours, theirs);
      std::unique_ptr<Message> back(m->New());
      ASSERT_OK(JsonToMessage(theirs, back.get()));
      ASSERT_TRUE(google::protobuf::util::MessageDifferencer::Equals(*m, *back))
          << m->DebugString() << "\n---\n"
          << back->DebugString();
      std::unique_ptr<Message> util_back(m->New());
      ASSERT_TRUE(
          google::protobuf::util::JsonStringToMessage(ours, util_back.get())
              .ok());
      ASSERT_TRUE(
          google::protobuf::util::MessageDifferencer::Equals(*m, *util_back));
    }
  }
}

TEST(JsonCodecTest, NaNIsWrittenAsProtobufWritesIt) {
  v1::PathResponse r;
  r.set_cost(std::numeric_limits<double>::quiet_NaN());
  r.set_search_micros(std::numeric_limits<double>::infinity());
  std::string ours;
  MessageToJson(r, &ours);
  EXPECT_EQ(ours, UtilJson(r));
  v1::PathResponse back;
  ASSERT_OK(JsonToMessage(ours, &back));
  EXPECT_TRUE(std::isnan(back.cost()));
  EXPECT_TRUE(std::isinf(back.search_micros()));
}

TEST(JsonCodecTest, ReadsEitherNameNumbersAsStringsAndNullAsTheDefault) {
  v1::PathRequest r;
  ASSERT_OK(JsonToMessage(
      R"({"map_id": "m", "start": {"x": "3", "y": 4.0}, "goal": null,)"
      R"( "algorithm": 2, "diagonal": "DIAGONAL_POLICY_NEVER", "snapRadius": 1e1})",
      &r));
  EXPECT_EQ(r.map_id(), "m");
  EXPECT_EQ(r.start().x(), 3);
  EXPECT_EQ(r.start().y(), 4);
  EXPECT_FALSE(r.has_goal());
  EXPECT_EQ(r.algorithm(), 2);
  EXPECT_EQ(r.diagonal(), v1::DIAGONAL_POLICY_NEVER);
  EXPECT_EQ(r.snap_radius(), 10);
}

TEST(JsonCodecTest, RefusesNamingThePath) {
  struct Case {
    const char* name;
    const char* json;
    const char* says;
  };
  const Case cases[] = {
      {"not JSON", R"({"mapId": )", "not JSON at byte"},
      {"not an object", R"([1, 2])", "not a JSON object"},
      {"unknown field", R"({"mapIdd": "m"})",
       "mapIdd: no such field in PathRequest"},
      {"nested unknown field", R"({"start": {"z": 1}})",
       "start.z: no such field in Cell"},
      {"string for an int", R"({"start": {"x": "three"}})",
       "start.x: not an integer"},
      {"fraction for an int", R"({"start": {"x": 1.5}})",
       "start.x: not an integer"},
      {"int32 out of range", R"({"start": {"x": 2147483648}})",
       "start.x: out of range"},
      {"negative for uint", R"({"defaultAreas": -1})", "no such field"},
      {"bad enum name", R"({"algorithm": "ALGORITHM_NOPE"})",
       "algorithm: not a value of Algorithm"},
      {"bool as string", R"({"smooth": "true"})", "smooth: not true or false"},
      {"number for string", R"({"mapId": 7})", "mapId: not a string"},
      {"object for array", R"({"areaCosts": {}})", "areaCosts: not an array"},
      {"null in array", R"({"areaCosts": [1, null]})",
       "areaCosts[1]: null in a repeated field"},
      {"array for message", R"({"start": []})", "start: not an object"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    v1::PathRequest r;
    const absl::Status s = JsonToMessage(c.json, &r);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
    EXPECT_TRUE(absl::StrContains(s.message(), c.says)) << s;
  }
  v1::RegisterMapRequest reg;
  absl::Status s = JsonToMessage(R"({"raw": "!!!"})", &reg);
  EXPECT_TRUE(absl::StrContains(s.message(), "raw: not base64")) << s;
  s = JsonToMessage(R"({"raw": "AA==", "movingai": "x"})", &reg);
  EXPECT_TRUE(
      absl::StrContains(s.message(), "more than one field of oneof cells"))
      << s;
  v1::UpdateCellsRequest update;
  s = JsonToMessage(R"({"cells": [{"cost": -1}]})", &update);
  EXPECT_TRUE(absl::StrContains(s.message(), "cells[0].cost: out of range"))
      << s;
  // One past the largest uint64 (2^64) and int32 written as floats; the
  // largest double below 2^64 still reads.
  s = JsonToMessage(R"({"expectedVersion": 1.8446744073709552e19})", &update);
  EXPECT_TRUE(absl::StrContains(s.message(),
                                "expectedVersion: not an integer in range"))
      << s;
  v1::PathResponse response;
  s = JsonToMessage(R"({"expanded": 1.8446744073709552e19})", &response);
  EXPECT_TRUE(
      absl::StrContains(s.message(), "expanded: not an integer in range"))
      << s;
  ASSERT_OK(JsonToMessage(R"({"expanded": 1.844674407370955e19})", &response));
  EXPECT_EQ(response.expanded(), 18446744073709549568u);
  v1::PathRequest request;
  s = JsonToMessage(R"({"start": {"x": 2147483648.0}})", &request);
  EXPECT_TRUE(
      absl::StrContains(s.message(), "start.x: not an integer in range"))
      << s;
}

TEST(JsonCodecTest, DamagedTextNeverCrashes) {
  std::mt19937_64 rng(7);
  google::protobuf::DynamicMessageFactory factory;
  factory.SetDelegateToGeneratedFactory(true);
  const std::vector<const Descriptor*> types = EveryMessageType();
  for (int round = 0; round < 2000; ++round) {
    const Descriptor* d = types[rng() % types.size()];
    std::unique_ptr<Message> m(factory.GetPrototype(d)->New());
    Fill(m.get(), rng, 0);
    std::string text;
    MessageToJson(*m, &text);
    const int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits && !text.empty(); ++e) {
      const size_t at = rng() % text.size();
      switch (rng() % 3) {
        case 0:
          text.erase(at, 1 + rng() % 4);
          break;
        case 1:
          text[at] = "{}[]\",:0-e.\\tnul"[rng() % 16];
          break;
        default:
          text.resize(at);
          break;
      }
    }
    std::unique_ptr<Message> back(m->New());
    (void)JsonToMessage(text, back.get());  // Any status; no crash.
  }
}

}  // namespace
}  // namespace gridstar::convert
