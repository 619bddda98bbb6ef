// gridstar::Client: a typed client of the gridstar.v1.Pathfinding service.
//
// Every call gets a default deadline. Idempotent calls (all but UpdateCells
// and DeleteMap) are retried on UNAVAILABLE with exponential backoff, so a
// server restart or a brief network loss does not reach the caller.
//
// Scale-out: every call about one map carries its id as the request header
// `x-gridstar-map`, so a proxy can route all of a map's calls to the replica
// that holds it (deploy/nginx hashes it consistently). With remember_maps the
// client keeps the content of every map it registered and the updates it
// made since; when a call about such a map answers NOT_FOUND (its replica
// restarted empty, or the hash moved the map to another replica) the client
// registers the map again, replays the updates, and retries the call once.
//
// Thread-safety: one Client may be used by any number of threads at once.
#ifndef GRIDSTAR_CLIENT_CLIENT_H_
#define GRIDSTAR_CLIENT_CLIENT_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

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
  // Keep registered maps (their request and later updates: memory of the
  // size of what was sent) to heal NOT_FOUND as described above.
  bool remember_maps = true;
};

// The header that names a call's map, for routing proxies.
inline constexpr char kMapHeader[] = "x-gridstar-map";

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
  // Times a remembered map was registered again after a NOT_FOUND.
  uint64_t reregistrations() const { return reregistrations_.load(); }

 private:
  using Rpc = std::function<grpc::Status(grpc::ClientContext*)>;
  // One call with deadline, map header (when map_id is not empty) and the
  // UNAVAILABLE retries of idempotent calls.
  absl::Status Call(bool idempotent, const std::string& map_id, const Rpc& rpc);
  // Call, then on NOT_FOUND for a remembered map: Heal and call once more.
  absl::Status MapCall(bool idempotent, const std::string& map_id, const Rpc& rpc);
  // Registers a remembered map again and replays its updates.
  absl::Status Heal(const std::string& map_id);

  struct Remembered {
    v1::RegisterMapRequest request;
    std::vector<v1::UpdateCellsRequest> updates;
  };

  const ClientOptions options_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::Pathfinding::Stub> stub_;
  std::mutex mu_;  // Guards maps_.
  std::map<std::string, std::shared_ptr<Remembered>> maps_;
  std::atomic<uint64_t> reregistrations_{0};
};

}  // namespace gridstar

#endif  // GRIDSTAR_CLIENT_CLIENT_H_
