#include "convert/convert.h"

#include <cmath>
#include <cstddef>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "convert/json_codec.h"

namespace gridstar::convert {

v1::PartialReason PartialReasonToProto(PartialReason reason) {
  switch (reason) {
    case PartialReason::kNone:
      return v1::PARTIAL_REASON_UNSPECIFIED;
    case PartialReason::kMaxExpansions:
      return v1::PARTIAL_REASON_MAX_EXPANSIONS;
    case PartialReason::kDeadline:
      return v1::PARTIAL_REASON_DEADLINE;
    case PartialReason::kCancelled:
      return v1::PARTIAL_REASON_CANCELLED;
    case PartialReason::kMemory:
      return v1::PARTIAL_REASON_MEMORY;
  }
  return v1::PARTIAL_REASON_UNSPECIFIED;
}
namespace {

absl::Status UnknownValue(absl::string_view field, int value) {
  return absl::InvalidArgumentError(
      absl::StrCat(field, ": unknown value ", value));
}

// `s` with `prefix` before its message (field names of a nested request).
absl::Status Prefixed(absl::string_view prefix, const absl::Status& s) {
  if (s.ok() || prefix.empty()) return s;
  return absl::Status(s.code(), absl::StrCat(prefix, s.message()));
}

}  // namespace

absl::StatusOr<Algorithm> AlgorithmFromProto(int value,
                                             absl::string_view field) {
  if (value == v1::ALGORITHM_UNSPECIFIED) return Algorithm::kAuto;
  for (Algorithm a : kAllAlgorithms) {
    if (value == static_cast<int>(a) + 1) return a;
  }
  return UnknownValue(field, value);
}

v1::Algorithm AlgorithmToProto(Algorithm algorithm) {
  return static_cast<v1::Algorithm>(static_cast<int>(algorithm) + 1);
}

absl::StatusOr<DiagonalPolicy> PolicyFromProto(int value,
                                               absl::string_view field,
                                               DiagonalPolicy fallback) {
  if (value == v1::DIAGONAL_POLICY_UNSPECIFIED) return fallback;
  for (DiagonalPolicy p : kAllDiagonalPolicies) {
    if (value == static_cast<int>(p) + 1) return p;
  }
  return UnknownValue(field, value);
}

v1::DiagonalPolicy PolicyToProto(DiagonalPolicy policy) {
  return static_cast<v1::DiagonalPolicy>(static_cast<int>(policy) + 1);
}

absl::StatusOr<GroupMethod> GroupMethodFromProto(int value,
                                                 absl::string_view field) {
  switch (value) {
    case v1::GROUP_METHOD_AUTO:
      return GroupMethod::kAuto;
    case v1::GROUP_METHOD_SPLICE:
      return GroupMethod::kSplice;
    case v1::GROUP_METHOD_FLOW_FIELD:
      return GroupMethod::kFlowField;
    default:
      return UnknownValue(field, value);
  }
}

v1::GroupMethod GroupMethodToProto(GroupMethod method) {
  switch (method) {
    case GroupMethod::kAuto:
      return v1::GROUP_METHOD_AUTO;
    case GroupMethod::kSplice:
      return v1::GROUP_METHOD_SPLICE;
    case GroupMethod::kFlowField:
      return v1::GROUP_METHOD_FLOW_FIELD;
  }
  return v1::GROUP_METHOD_AUTO;
}

void PackCells(const std::vector<Cell>& cells,
               google::protobuf::RepeatedField<int32_t>* out) {
  // A Cell is its x then its y, so the packed field is the vector's bytes.
  static_assert(sizeof(Cell) == 2 * sizeof(int32_t) && offsetof(Cell, x) == 0 &&
                    offsetof(Cell, y) == sizeof(int32_t),
                "Cell must be laid out as x, y");
  const int start = out->size();
  out->Resize(start + static_cast<int>(cells.size() * 2), 0);
  if (!cells.empty()) {
    std::memcpy(out->mutable_data() + start, cells.data(),
                cells.size() * sizeof(Cell));
  }
}

std::vector<Cell> UnpackCells(
    const google::protobuf::RepeatedField<int32_t>& packed) {
  std::vector<Cell> cells;
  cells.reserve(static_cast<size_t>(packed.size() / 2));
  for (int i = 0; i + 1 < packed.size(); i += 2) {
    cells.push_back({packed[i], packed[i + 1]});
  }
  return cells;
}

absl::StatusOr<MovementModel> MovementFromProto(
    int diagonal, absl::string_view prefix, DiagonalPolicy default_diagonal) {
  absl::StatusOr<DiagonalPolicy> p = PolicyFromProto(
      diagonal, absl::StrCat(prefix, "diagonal"), default_diagonal);
  if (!p.ok()) return p.status();
  MovementModel m;
  m.diagonal = *p;
  return m;
}

absl::Status PathQueryFromProto(const v1::PathRequest& r,
                                DiagonalPolicy default_diagonal,
                                absl::string_view prefix, PathQuery* q) {
  if (!r.has_start()) {
    return absl::InvalidArgumentError(absl::StrCat(prefix, "start: required"));
  }
  if (!r.has_goal()) {
    return absl::InvalidArgumentError(absl::StrCat(prefix, "goal: required"));
  }
  q->start = CellFromProto(r.start());
  q->goal = CellFromProto(r.goal());
  absl::StatusOr<Algorithm> a =
      AlgorithmFromProto(r.algorithm(), absl::StrCat(prefix, "algorithm"));
  if (!a.ok()) return a.status();
  q->algorithm = *a;
  absl::StatusOr<MovementModel> m =
      MovementFromProto(r.diagonal(), prefix, default_diagonal);
  if (!m.ok()) return m.status();
  q->movement = *m;
  q->weight = r.weight() == 0 ? 1.5 : r.weight();
  q->snap_radius = r.snap_radius();
  q->smooth = r.smooth();
  q->trace = r.trace();
  q->budget.max_expansions = r.max_expansions();
  return Prefixed(prefix, ValidatePathQuery(*q));
}

absl::Status GroupQueryFromProto(const v1::GroupPathsRequest& r,
                                 DiagonalPolicy default_diagonal,
                                 GroupQuery* q) {
  for (const v1::Cell& c : r.starts()) q->starts.push_back(CellFromProto(c));
  for (const v1::Cell& c : r.goals()) q->goals.push_back(CellFromProto(c));
  absl::StatusOr<Algorithm> a = AlgorithmFromProto(r.algorithm(), "algorithm");
  if (!a.ok()) return a.status();
  q->algorithm = *a;
  absl::StatusOr<MovementModel> m =
      MovementFromProto(r.diagonal(), "", default_diagonal);
  if (!m.ok()) return m.status();
  q->movement = *m;
  absl::StatusOr<GroupMethod> method =
      GroupMethodFromProto(r.method(), "method");
  if (!method.ok()) return method.status();
  q->method = *method;
  q->report_overhead = r.report_overhead();
  q->max_splice_distance = r.max_splice_distance() == 0
                               ? kDefaultSpliceDistance
                               : r.max_splice_distance();
  q->flow_field_min_units = r.flow_field_min_units() == 0
                                ? kDefaultFlowFieldMinUnits
                                : r.flow_field_min_units();
  return absl::OkStatus();
}

absl::Status FlowFieldQueryFromProto(const v1::FlowFieldRequest& r,
                                     DiagonalPolicy default_diagonal,
                                     FlowFieldQuery* q) {
  if (!r.has_goal()) return absl::InvalidArgumentError("goal: required");
  absl::StatusOr<MovementModel> m =
      MovementFromProto(r.diagonal(), "", default_diagonal);
  if (!m.ok()) return m.status();
  if (!(r.max_cost() >= 0) || !std::isfinite(r.max_cost())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "max_cost: ", r.max_cost(), " must be 0 (no bound) or positive"));
  }
  q->goal = CellFromProto(r.goal());
  q->movement = *m;
  q->max_cost = r.max_cost();
  return absl::OkStatus();
}

absl::Status ChangesFromProto(const v1::UpdateCellsRequest& r,
                              std::vector<CellChange>* changes,
                              std::vector<AreaChange>* area_changes,
                              std::vector<size_t>* area_items) {
  std::vector<AreaChange> local_changes;
  std::vector<size_t> local_items;
  if (area_changes == nullptr) area_changes = &local_changes;
  if (area_items == nullptr) area_items = &local_items;
  area_changes->clear();
  area_items->clear();
  auto add_area = [&](bool has, uint32_t area, absl::string_view field,
                      const CellChange& c) -> absl::Status {
    if (!has) return absl::OkStatus();
    if (area >= static_cast<uint32_t>(kMaxAreas)) {
      return absl::InvalidArgumentError(absl::StrCat(
          field, ".area: ", area, " is not below ", kMaxAreas));
    }
    area_changes->push_back({c.min, c.max, static_cast<uint8_t>(area)});
    area_items->push_back(changes->size() - 1);
    return absl::OkStatus();
  };
  changes->clear();
  changes->reserve(static_cast<size_t>(r.cells_size() + r.rects_size()));
  for (int i = 0; i < r.cells_size(); ++i) {
    const v1::CellUpdate& u = r.cells(i);
    if (u.cost() > 255) {
      return absl::InvalidArgumentError(
          absl::StrCat("cells[", i, "].cost: ", u.cost(), " is more than 255"));
    }
    const Cell c = CellFromProto(u.cell());
    // c.x + 1 cannot overflow for a cell on any map; INT32_MAX is off every
    // map, and its empty rectangle is refused by ValidateChanges.
    const Cell end{c.x == INT32_MAX ? c.x : c.x + 1,
                   c.y == INT32_MAX ? c.y : c.y + 1};
    changes->push_back({c, end, static_cast<uint8_t>(u.cost())});
    if (absl::Status s = add_area(u.has_area(), u.area(),
                                  absl::StrCat("cells[", i, "]"),
                                  changes->back());
        !s.ok()) {
      return s;
    }
  }
  for (int i = 0; i < r.rects_size(); ++i) {
    const v1::RectUpdate& u = r.rects(i);
    if (u.cost() > 255) {
      return absl::InvalidArgumentError(
          absl::StrCat("rects[", i, "].cost: ", u.cost(), " is more than 255"));
    }
    changes->push_back({CellFromProto(u.rect().min()),
                        CellFromProto(u.rect().max()),
                        static_cast<uint8_t>(u.cost())});
    if (absl::Status s = add_area(u.has_area(), u.area(),
                                  absl::StrCat("rects[", i, "]"),
                                  changes->back());
        !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

std::string ChangeFieldName(const v1::UpdateCellsRequest& r, size_t index) {
  const size_t cells = static_cast<size_t>(r.cells_size());
  return index < cells ? absl::StrCat("cells[", index, "]")
                       : absl::StrCat("rects[", index - cells, "]");
}

grpc::Status ToGrpcStatus(const absl::Status& s) {
  if (s.ok()) return grpc::Status::OK;
  return grpc::Status(static_cast<grpc::StatusCode>(s.code()),
                      std::string(s.message()));
}

absl::Status FromGrpcStatus(const grpc::Status& s) {
  if (s.ok()) return absl::OkStatus();
  return absl::Status(static_cast<absl::StatusCode>(s.error_code()),
                      s.error_message());
}

std::string CodeName(grpc::StatusCode code) {
  std::string name =
      absl::StatusCodeToString(static_cast<absl::StatusCode>(code));
  return name.empty() ? "UNKNOWN" : name;
}

std::string JsonQuote(absl::string_view text) {
  std::string out;
  AppendJsonString(text, &out);
  return out;
}

}  // namespace gridstar::convert
