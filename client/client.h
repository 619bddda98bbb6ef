// gridstar::Client: a typed client of the gridstar.v1.Pathfinding service.
//
// Every call gets a default deadline. Idempotent calls (all but UpdateCells
// and DeleteMap) are retried on UNAVAILABLE with exponential backoff, so a
// server restart or a brief network loss does not reach the caller.
//
// Thread-safety: one Client may be used by any number of threads at once.
#ifndef GRIDSTAR_CLIENT_CLIENT_H_
#define GRIDSTAR_CLIENT_CLIENT_H_

#include <functional>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "gridstar/v1/gridstar.grpc.pb.h"
#include "grpcpp/grpcpp.h"

namespace gridstar {

struct ClientOptions {
  absl::Duration deadline = absl::Seconds(10);
  int max_attempts = 4;  // Including the first.
  absl::Duration initial_backoff = absl::Milliseconds(50);
};

class Client {
 public:
  // target: "host:port".
  explicit Client(const std::string& target, ClientOptions options = {});

  absl::StatusOr<v1::MapInfo> RegisterMap(const v1::RegisterMapRequest& r);
  absl::StatusOr<v1::MapInfo> UpdateCells(const v1::UpdateCellsRequest& r);
  absl::StatusOr<v1::GetMapResponse> GetMap(const v1::GetMapRequest& r);
  absl::StatusOr<v1::ListMapsResponse> ListMaps();
  absl::Status DeleteMap(const std::string& id);
  absl::StatusOr<v1::PathResponse> FindPath(const v1::PathRequest& r);
  absl::StatusOr<v1::FindPathsResponse> FindPaths(const v1::FindPathsRequest& r);
  absl::StatusOr<v1::GroupPathsResponse> FindGroupPaths(
      const v1::GroupPathsRequest& r);
  absl::StatusOr<v1::FlowFieldResponse> ComputeFlowField(
      const v1::FlowFieldRequest& r);
  // SERVING -> OK; NOT_SERVING or no answer -> UNAVAILABLE.
  absl::Status Health();

  v1::Pathfinding::Stub& stub() { return *stub_; }
  const ClientOptions& options() const { return options_; }

 private:
  absl::Status Call(bool idempotent,
                    const std::function<grpc::Status(grpc::ClientContext*)>& rpc);

  const ClientOptions options_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::Pathfinding::Stub> stub_;
};

}  // namespace gridstar

#endif  // GRIDSTAR_CLIENT_CLIENT_H_
