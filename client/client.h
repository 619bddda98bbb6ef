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
// Security: TLS or mutual TLS and a bearer token, from ClientOptions.
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
  // size of what was sent) to heal NOT_FOUND as described above. Against
  // servers on a shared store (--store, which say so in kStoreHeader) the
  // client never re-registers: they lose no map, and re-registering would
  // bring back a map another client deleted.
  bool remember_maps = true;

  // Transport security. tls false = plaintext (the server's default).
  bool tls = false;
  std::string tls_ca_pem;  // Roots that verify the server; empty = system roots.
  // A client certificate and its key, for servers that require one (mTLS).
  std::string tls_cert_pem;
  std::string tls_key_pem;
  // The name checked against the server's certificate when it differs from
  // the target's host (e.g. "gridstar" while dialling 127.0.0.1).
  std::string tls_server_name;
  // Sent on every call as `authorization: Bearer <token>`; empty = none.
  std::string token;
};

// Fills the TLS and token fields of `options` from files, as the CLI's
// --tls_ca, --tls_cert, --tls_key and --token_file give them (empty paths are
// skipped; any TLS file turns TLS on). Without a token file the token comes
// from the environment variable GRIDSTAR_TOKEN when it is set. A token file
// holds the token on its first line that is neither blank nor a '#' comment.
absl::Status LoadClientSecurity(const std::string& tls_ca_file,
                                const std::string& tls_cert_file,
                                const std::string& tls_key_file,
                                const std::string& token_file,
                                ClientOptions* options);

// The header that names a call's map, for routing proxies.
inline constexpr char kMapHeader[] = "x-gridstar-map";
// Initial metadata of a server on a shared store (value "shared"): it loses
// no map, so the client never re-registers one there.
inline constexpr char kStoreHeader[] = "x-gridstar-store";

// One WatchPaths stream (gridstar.proto, WatchAction and WatchEvent): the
// caller adds agents and reads the events answered and pushed for them.
// Thread-safety: one thread may write (Add, Move, Retarget, Remove,
// CloseWrites) while another reads (Next); Cancel from any thread.
class WatchStream {
 public:
  WatchStream(std::unique_ptr<grpc::ClientContext> context,
              std::unique_ptr<grpc::ClientReaderWriter<v1::WatchRequest, v1::WatchEvent>>
                  stream)
      : context_(std::move(context)), stream_(std::move(stream)) {}
  // Each returns the request id sent (echoed by the event that answers it),
  // or Unavailable when the stream is closed.
  absl::StatusOr<uint64_t> Add(uint64_t agent_id, const v1::PathRequest& path,
                               double replan_if_cheaper = 0);
  absl::StatusOr<uint64_t> Move(uint64_t agent_id, int32_t x, int32_t y);
  absl::StatusOr<uint64_t> Retarget(uint64_t agent_id, int32_t x, int32_t y);
  absl::StatusOr<uint64_t> Remove(uint64_t agent_id);
  // An agent that walks a world of linked maps (its events carry
  // world_path; MOVED answers leg_index and path_index), its position and
  // its goal as a map and a cell. Agent ids are shared with map agents.
  absl::StatusOr<uint64_t> AddWorld(uint64_t agent_id,
                                    const v1::WorldPathRequest& path,
                                    double replan_if_cheaper = 0);
  absl::StatusOr<uint64_t> MoveWorld(uint64_t agent_id,
                                     const std::string& map_id, int32_t x,
                                     int32_t y);
  absl::StatusOr<uint64_t> RetargetWorld(uint64_t agent_id,
                                         const std::string& map_id, int32_t x,
                                         int32_t y);
  // Blocks for the next event; false once the stream has ended (Finish
  // says why).
  bool Next(v1::WatchEvent* event) { return stream_->Read(event); }
  // No more requests (the server still pushes until Cancel).
  void CloseWrites() { stream_->WritesDone(); }
  void Cancel() { context_->TryCancel(); }
  // The stream's final status. REQUIRES: Next returned false.
  absl::Status Finish();

 private:
  absl::StatusOr<uint64_t> Send(v1::WatchRequest r);
  std::unique_ptr<grpc::ClientContext> context_;
  std::unique_ptr<grpc::ClientReaderWriter<v1::WatchRequest, v1::WatchEvent>> stream_;
  std::mutex write_mu_;
  uint64_t next_request_id_ = 1;  // Guarded by write_mu_.
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
  // Worlds of linked maps. No routing header: a world's maps must be on
  // the replica answering (a shared store, or one server). Reads and
  // searches are retried on UNAVAILABLE; RegisterWorld too (the same
  // content again is a no-op); UpdateLinks and DeleteWorld are not.
  absl::StatusOr<v1::WorldInfo> RegisterWorld(
      const v1::RegisterWorldRequest& r);
  absl::StatusOr<v1::WorldInfo> UpdateLinks(const v1::UpdateLinksRequest& r);
  absl::StatusOr<v1::WorldInfo> GetWorld(const std::string& id);
  absl::StatusOr<v1::ListWorldsResponse> ListWorlds();
  absl::Status DeleteWorld(const std::string& id);
  absl::StatusOr<v1::WorldPathResponse> FindWorldPath(
      const v1::WorldPathRequest& r);
  absl::StatusOr<v1::FindWorldPathsResponse> FindWorldPaths(
      const v1::FindWorldPathsRequest& r);
  // SERVING -> OK; NOT_SERVING or no answer -> UNAVAILABLE.
  absl::Status Health();
  // Opens a WatchPaths stream on `map_id` (routing header) with the token;
  // no deadline unless `deadline` is finite. Not retried.
  std::unique_ptr<WatchStream> Watch(const std::string& map_id,
                                     absl::Duration deadline = absl::InfiniteDuration());

  v1::Pathfinding::Stub& stub() { return *stub_; }
  // Adds the token (if any) to a context the caller made for stub().
  void AddToken(grpc::ClientContext* ctx) const;
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
  // One call of `method` without a routing header, its answer or status.
  template <typename Request, typename Response>
  absl::StatusOr<Response> Plain(bool idempotent, const Request& r,
                                 grpc::Status (v1::Pathfinding::Stub::*method)(
                                     grpc::ClientContext*, const Request&,
                                     Response*)) {
    Response out;
    absl::Status s = Call(idempotent, "", [&](grpc::ClientContext* c) {
      return (stub_.get()->*method)(c, r, &out);
    });
    if (!s.ok()) return s;
    return out;
  }

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
  // A server answered with kStoreHeader: NOT_FOUND there is the truth.
  std::atomic<bool> shared_store_{false};
};

}  // namespace gridstar

#endif  // GRIDSTAR_CLIENT_CLIENT_H_
