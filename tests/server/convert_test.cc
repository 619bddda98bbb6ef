// gridstar_proto_convert: every enum both ways, unknown values named by
// field, requests to queries with the request's field names, changes and
// statuses.
#include "convert/convert.h"

#include "absl/strings/match.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "convert/names.h"
#include "google/protobuf/descriptor.h"

#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace gridstar::convert {
namespace {

using ::gridstar::testing::StatusIs;

TEST(ConvertTest, EnumsRoundTripAndUnspecifiedIsTheDefault) {
  for (Algorithm a : kAllAlgorithms) {
    absl::StatusOr<Algorithm> back =
        AlgorithmFromProto(AlgorithmToProto(a), "a");
    ASSERT_OK(back);
    EXPECT_EQ(*back, a);
    EXPECT_EQ(v1::Algorithm_Name(AlgorithmToProto(a)).empty(), false);
  }
  EXPECT_EQ(*AlgorithmFromProto(v1::ALGORITHM_UNSPECIFIED, "a"),
            Algorithm::kAuto);
  for (DiagonalPolicy p : kAllDiagonalPolicies) {
    EXPECT_EQ(*PolicyFromProto(PolicyToProto(p), "d", DiagonalPolicy::kNever),
              p);
  }
  EXPECT_EQ(*PolicyFromProto(0, "d", DiagonalPolicy::kAllowCornerCutting),
            DiagonalPolicy::kAllowCornerCutting);
  for (GroupMethod m : kAllGroupMethods) {
    EXPECT_EQ(*GroupMethodFromProto(GroupMethodToProto(m), "m"), m);
    EXPECT_EQ(*ParseGroupMethod(GroupMethodName(m)), m);
  }
}

TEST(ConvertTest, UnknownEnumValuesNameTheField) {
  EXPECT_TRUE(StatusIs(AlgorithmFromProto(42, "items[3].algorithm"),
                       absl::StatusCode::kInvalidArgument,
                       "items[3].algorithm: unknown value 42"));
  EXPECT_TRUE(StatusIs(PolicyFromProto(-1, "diagonal", DiagonalPolicy::kNever),
                       absl::StatusCode::kInvalidArgument,
                       "diagonal: unknown value -1"));
  EXPECT_TRUE(StatusIs(GroupMethodFromProto(9, "method"),
                       absl::StatusCode::kInvalidArgument,
                       "method: unknown value 9"));
  EXPECT_TRUE(StatusIs(ParseGroupMethod("fastest"),
                       absl::StatusCode::kInvalidArgument, "flow-field"));
}

// One vocabulary: every value of every enum of the API reads back from its
// canonical name and from every spelling a user may type, and core's names
// (what the CLI and the metrics print) are the canonical ones.
TEST(ConvertTest, EveryEnumValueOfTheApiReadsBackFromEverySpelling) {
  const std::vector<const google::protobuf::EnumDescriptor*> enums = AllEnums();
  ASSERT_GE(enums.size(), 6u);
  int checked = 0;
  for (const google::protobuf::EnumDescriptor* e : enums) {
    const std::string prefix = EnumPrefix(e);
    for (int i = 0; i < e->value_count(); ++i) {
      const google::protobuf::EnumValueDescriptor* v = e->value(i);
      SCOPED_TRACE(v->full_name());
      if (absl::EndsWith(v->name(), "_UNSPECIFIED")) {
        EXPECT_FALSE(ParseEnumValue(e, "unspecified", "f").ok());
        continue;
      }
      const std::string canonical = EnumValueName(e, v->number());
      const std::string suffix = v->name().substr(prefix.size());
      const std::string lower = absl::AsciiStrToLower(suffix);
      for (const std::string& spelling :
           {canonical, v->name(), suffix, lower, absl::AsciiStrToLower(v->name()),
            absl::StrReplaceAll(lower, {{"_", "-"}}), absl::StrCat(" ", canonical, " ")}) {
        SCOPED_TRACE(spelling);
        absl::StatusOr<int> back = ParseEnumValue(e, spelling, "f");
        ASSERT_OK(back);
        EXPECT_EQ(*back, v->number());
      }
      // Printed one way: lower case, '-' between words, '+' for PLUS.
      EXPECT_EQ(canonical.find('_'), std::string::npos);
      EXPECT_EQ(canonical, absl::AsciiStrToLower(canonical));
      ++checked;
    }
  }
  EXPECT_GE(checked, 30);
  EXPECT_EQ(NameOf(v1::ALGORITHM_JPS_PLUS), "jps+");
  EXPECT_EQ(*ParseName<v1::Algorithm>("jps_plus", "f"), v1::ALGORITHM_JPS_PLUS);
  EXPECT_EQ(*ParseName<v1::DiagonalPolicy>("NO_CORNER_CUTTING", "f"),
            v1::DIAGONAL_POLICY_NO_CORNER_CUTTING);
  EXPECT_EQ(NameOf(v1::WATCH_REASON_MAP_DELETED), "map-deleted");
  EXPECT_TRUE(StatusIs(ParseName<v1::Algorithm>("fastest", "algorithm"),
                       absl::StatusCode::kInvalidArgument,
                       "algorithm: unknown value 'fastest' (one of astar,"));
  EXPECT_TRUE(StatusIs(ParseName<v1::Algorithm>("", "algorithm"),
                       absl::StatusCode::kInvalidArgument, "algorithm:"));
}

TEST(ConvertTest, CoreNamesAreTheCanonicalNamesAndReadEverySpelling) {
  for (Algorithm a : kAllAlgorithms) {
    const v1::Algorithm p = AlgorithmToProto(a);
    SCOPED_TRACE(v1::Algorithm_Name(p));
    EXPECT_EQ(AlgorithmName(a), NameOf(p));
    for (const std::string& spelling :
         {std::string(AlgorithmName(a)), v1::Algorithm_Name(p),
          absl::AsciiStrToLower(v1::Algorithm_Name(p).substr(10))}) {
      absl::StatusOr<Algorithm> back = ParseAlgorithm(spelling);
      ASSERT_OK(back);
      EXPECT_EQ(*back, a);
    }
  }
  for (DiagonalPolicy d : kAllDiagonalPolicies) {
    const v1::DiagonalPolicy p = PolicyToProto(d);
    EXPECT_EQ(DiagonalPolicyName(d), NameOf(p));
    EXPECT_EQ(*ParseDiagonalPolicy(v1::DiagonalPolicy_Name(p)), d);
    EXPECT_EQ(*ParseDiagonalPolicy(absl::StrReplaceAll(DiagonalPolicyName(d), {{"-", "_"}})), d);
  }
  for (GroupMethod m : kAllGroupMethods) {
    const v1::GroupMethod p = GroupMethodToProto(m);
    EXPECT_EQ(GroupMethodName(m), NameOf(p));
    EXPECT_EQ(*ParseGroupMethod(v1::GroupMethod_Name(p)), m);
  }
  EXPECT_EQ(*ParseAlgorithm("jps_plus"), Algorithm::kJpsPlus);
  EXPECT_EQ(*ParseAlgorithm("JPS_PLUS"), Algorithm::kJpsPlus);
  EXPECT_EQ(*ParseAlgorithm("ALGORITHM_JPS_PLUS"), Algorithm::kJpsPlus);
  EXPECT_EQ(*ParseDiagonalPolicy("no_corner_cutting"), DiagonalPolicy::kNoCornerCutting);
  EXPECT_EQ(*ParseGroupMethod("flow_field"), GroupMethod::kFlowField);
  EXPECT_FALSE(ParseAlgorithm("jps++").ok());
}

TEST(ConvertTest, PathRequestBecomesAValidatedQuery) {
  v1::PathRequest r;
  PathQuery q;
  EXPECT_TRUE(StatusIs(PathQueryFromProto(r, DiagonalPolicy::kNever, "p.", &q),
                       absl::StatusCode::kInvalidArgument,
                       "p.start: required"));
  CellToProto({1, 2}, r.mutable_start());
  EXPECT_TRUE(StatusIs(PathQueryFromProto(r, DiagonalPolicy::kNever, "p.", &q),
                       absl::StatusCode::kInvalidArgument, "p.goal: required"));
  CellToProto({3, 4}, r.mutable_goal());
  r.set_max_expansions(77);
  r.set_smooth(true);
  ASSERT_OK(PathQueryFromProto(r, DiagonalPolicy::kNever, "p.", &q));
  EXPECT_EQ(q.start, (Cell{1, 2}));
  EXPECT_EQ(q.goal, (Cell{3, 4}));
  EXPECT_EQ(q.algorithm, Algorithm::kAuto);
  EXPECT_EQ(q.movement.diagonal, DiagonalPolicy::kNever);  // The map's.
  EXPECT_EQ(q.weight, 1.5);
  EXPECT_EQ(q.budget.max_expansions, 77u);
  EXPECT_TRUE(q.smooth);
  r.set_algorithm(v1::ALGORITHM_WEIGHTED);
  r.set_weight(1000);
  EXPECT_TRUE(StatusIs(PathQueryFromProto(r, DiagonalPolicy::kNever, "p.", &q),
                       absl::StatusCode::kInvalidArgument, "p.weight: 1000"));
  r.set_weight(2);
  r.set_snap_radius(-3);
  EXPECT_TRUE(StatusIs(PathQueryFromProto(r, DiagonalPolicy::kNever, "p.", &q),
                       absl::StatusCode::kInvalidArgument,
                       "p.snap_radius: -3"));
}

TEST(ConvertTest, GroupAndFlowFieldRequests) {
  v1::GroupPathsRequest g;
  CellToProto({1, 1}, g.add_starts());
  CellToProto({5, 5}, g.add_goals());
  g.set_method(v1::GROUP_METHOD_FLOW_FIELD);
  GroupQuery gq;
  ASSERT_OK(GroupQueryFromProto(g, DiagonalPolicy::kAllowCornerCutting, &gq));
  EXPECT_EQ(gq.method, GroupMethod::kFlowField);
  EXPECT_EQ(gq.max_splice_distance, kDefaultSpliceDistance);
  EXPECT_EQ(gq.flow_field_min_units, kDefaultFlowFieldMinUnits);
  EXPECT_EQ(gq.movement.diagonal, DiagonalPolicy::kAllowCornerCutting);
  v1::FlowFieldRequest f;
  FlowFieldQuery fq;
  EXPECT_TRUE(StatusIs(FlowFieldQueryFromProto(f, DiagonalPolicy::kNever, &fq),
                       absl::StatusCode::kInvalidArgument, "goal: required"));
  CellToProto({2, 2}, f.mutable_goal());
  f.set_max_cost(-1);
  EXPECT_TRUE(StatusIs(FlowFieldQueryFromProto(f, DiagonalPolicy::kNever, &fq),
                       absl::StatusCode::kInvalidArgument, "max_cost"));
  f.set_max_cost(10);
  ASSERT_OK(FlowFieldQueryFromProto(f, DiagonalPolicy::kNever, &fq));
  EXPECT_EQ(fq.max_cost, 10);
}

TEST(ConvertTest, ChangesKeepTheRequestsOrderAndNames) {
  v1::UpdateCellsRequest r;
  v1::CellUpdate* c = r.add_cells();
  CellToProto({4, 5}, c->mutable_cell());
  c->set_cost(7);
  v1::RectUpdate* rect = r.add_rects();
  CellToProto({0, 0}, rect->mutable_rect()->mutable_min());
  CellToProto({2, 3}, rect->mutable_rect()->mutable_max());
  std::vector<CellChange> changes;
  ASSERT_OK(ChangesFromProto(r, &changes));
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_TRUE(changes[0] == (CellChange{{4, 5}, {5, 6}, 7}));
  EXPECT_TRUE(changes[1] == (CellChange{{0, 0}, {2, 3}, 0}));
  EXPECT_EQ(ChangeFieldName(r, 0), "cells[0]");
  EXPECT_EQ(ChangeFieldName(r, 1), "rects[0]");
  rect->set_cost(256);
  EXPECT_TRUE(StatusIs(ChangesFromProto(r, &changes),
                       absl::StatusCode::kInvalidArgument,
                       "rects[0].cost: 256 is more than 255"));
  // A cell at INT32_MAX does not overflow: its change is empty, and refused.
  r.clear_rects();
  CellToProto({INT32_MAX, 0}, r.mutable_cells(0)->mutable_cell());
  ASSERT_OK(ChangesFromProto(r, &changes));
  EXPECT_FALSE(ValidateChanges(10, 10, changes, [](size_t) {
                 return std::string("c");
               }).ok());
}

TEST(ConvertTest, StatusesMapOneToOne) {
  for (int code = 0; code <= 16; ++code) {
    const absl::Status s(static_cast<absl::StatusCode>(code), code ? "m" : "");
    const grpc::Status g = ToGrpcStatus(s);
    EXPECT_EQ(static_cast<int>(g.error_code()), code);
    EXPECT_EQ(FromGrpcStatus(g), s);
  }
  EXPECT_EQ(CodeName(grpc::StatusCode::RESOURCE_EXHAUSTED),
            "RESOURCE_EXHAUSTED");
}

TEST(ConvertTest, CellsPackAndUnpack) {
  const std::vector<Cell> cells = {{1, 2}, {3, 4}, {-5, 6}};
  google::protobuf::RepeatedField<int32_t> packed;
  PackCells(cells, &packed);
  EXPECT_EQ(packed.size(), 6);
  EXPECT_TRUE(UnpackCells(packed) == cells);
}

}  // namespace
}  // namespace gridstar::convert
