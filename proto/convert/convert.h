// gridstar_proto_convert: the one translation between the gridstar.v1 API and
// the core library's types, shared by the server, the client, the CLI and
// the tests, so a new field (agent size, areas) is converted in one place.
//
// Enums: each proto enum is its core enum plus one, with 0 (UNSPECIFIED) for
// "the default", which the caller supplies. A value outside the enum is
// InvalidArgument naming the field ("items[3].algorithm: unknown value 42").
// Requests: the *FromProto functions validate every field the request holds
// (as core's validators word it, with the request's field names) but not
// against a map, and leave the budget's deadline and cancellation to the
// caller. Statuses: absl and gRPC share the canonical codes, mapped 1:1.
//
// Thread-safety: pure functions.
#ifndef GRIDSTAR_PROTO_CONVERT_CONVERT_H_
#define GRIDSTAR_PROTO_CONVERT_CONVERT_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "gridstar/agents.h"
#include "gridstar/find_path.h"
#include "gridstar/flow_field.h"
#include "gridstar/group_paths.h"
#include "gridstar/map_update.h"
#include "gridstar/query.h"
#include "gridstar/types.h"
#include "gridstar/v1/gridstar.pb.h"
#include "grpcpp/support/status.h"

namespace gridstar::convert {

// UNSPECIFIED is kAuto.
absl::StatusOr<Algorithm> AlgorithmFromProto(int value,
                                             absl::string_view field);
v1::Algorithm AlgorithmToProto(Algorithm algorithm);
// UNSPECIFIED is `fallback` (a map's default policy).
absl::StatusOr<DiagonalPolicy> PolicyFromProto(int value,
                                               absl::string_view field,
                                               DiagonalPolicy fallback);
v1::DiagonalPolicy PolicyToProto(DiagonalPolicy policy);
// UNSPECIFIED is kAuto.
absl::StatusOr<GroupMethod> GroupMethodFromProto(int value,
                                                 absl::string_view field);
v1::GroupMethod GroupMethodToProto(GroupMethod method);

// kNone is PARTIAL_REASON_UNSPECIFIED.
v1::PartialReason PartialReasonToProto(PartialReason reason);

inline Cell CellFromProto(const v1::Cell& c) { return {c.x(), c.y()}; }
inline void CellToProto(Cell c, v1::Cell* out) {
  out->set_x(c.x);
  out->set_y(c.y);
}
// Cells as x0, y0, x1, y1, ... (PathResponse.cells and waypoints).
void PackCells(const std::vector<Cell>& cells,
               google::protobuf::RepeatedField<int32_t>* out);
std::vector<Cell> UnpackCells(
    const google::protobuf::RepeatedField<int32_t>& packed);

// A request's movement model; `prefix` ("items[3].") goes before the field
// names, `default_diagonal` is the map's.
absl::StatusOr<MovementModel> MovementFromProto(
    int diagonal, absl::string_view prefix, DiagonalPolicy default_diagonal);

// A path request's query: ends (required), algorithm, weight (0 = 1.5),
// movement, snap radius, smoothing and max_expansions, validated as
// ValidatePathQuery does.
absl::Status PathQueryFromProto(const v1::PathRequest& request,
                                DiagonalPolicy default_diagonal,
                                absl::string_view prefix, PathQuery* query);

// A group request's query: starts, goals, algorithm, movement, method and
// the splicing fields (0 = their defaults). Per-unit checks and the group's
// own rules stay with FindGroupPaths.
absl::Status GroupQueryFromProto(const v1::GroupPathsRequest& request,
                                 DiagonalPolicy default_diagonal,
                                 GroupQuery* query);

// A flow-field request's query: goal (required), movement, max_cost (0 or
// positive and finite).
absl::Status FlowFieldQueryFromProto(const v1::FlowFieldRequest& request,
                                     DiagonalPolicy default_diagonal,
                                     FlowFieldQuery* query);

// The changes of an update request, cells first, then rects, in order.
// InvalidArgument naming cells[i].cost / rects[i].cost above 255, or
// cells[i].area / rects[i].area of 64 or more. Change i is named by
// ChangeFieldName; items that set an area also give an AreaChange of the
// same rectangle (in order), named by area_items[j] through
// ChangeFieldName.
absl::Status ChangesFromProto(const v1::UpdateCellsRequest& request,
                              std::vector<CellChange>* changes,
                              std::vector<AreaChange>* area_changes = nullptr,
                              std::vector<size_t>* area_items = nullptr);
// "cells[i]" or "rects[j]": how the request names change `index`.
std::string ChangeFieldName(const v1::UpdateCellsRequest& request,
                            size_t index);

grpc::Status ToGrpcStatus(const absl::Status& status);
absl::Status FromGrpcStatus(const grpc::Status& status);
// "OK", "INVALID_ARGUMENT", ...: the label of a code in metrics.
std::string CodeName(grpc::StatusCode code);

// `text` as a JSON string literal, escaped as protobuf's JSON writer
// escapes (AppendJsonString): for the error bodies the CLI's --json and the
// HTTP port write by hand.
std::string JsonQuote(absl::string_view text);

}  // namespace gridstar::convert

#endif  // GRIDSTAR_PROTO_CONVERT_CONVERT_H_
