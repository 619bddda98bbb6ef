#include "client.h"

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "convert/convert.h"
#include "gridstar/map_io.h"
#include "grpcpp/generic/generic_stub.h"

namespace gridstar {
namespace {

absl::Status FromGrpc(const grpc::Status& s) {
  return convert::FromGrpcStatus(s);
}

// A PEM or token file named by a flag (at most 1 MiB).
absl::StatusOr<std::string> ReadWholeFile(const std::string& path,
                                          absl::string_view flag) {
  absl::StatusOr<std::string> text = ReadFile(path, size_t{1} << 20);
  if (!text.ok()) {
    // Core's message names the path and says why (missing, too large).
    return absl::FailedPreconditionError(
        absl::StrCat("--", flag, ": cannot read ", text.status().message()));
  }
  return text;
}

std::shared_ptr<grpc::ChannelCredentials> CredentialsOf(
    const ClientOptions& o) {
  if (!o.tls) return grpc::InsecureChannelCredentials();
  grpc::SslCredentialsOptions ssl;
  ssl.pem_root_certs = o.tls_ca_pem;
  ssl.pem_private_key = o.tls_key_pem;
  ssl.pem_cert_chain = o.tls_cert_pem;
  return grpc::SslCredentials(ssl);
}

}  // namespace

Client::Client(const std::string& target, ClientOptions options)
    : options_(options) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(128 << 20);
  args.SetMaxSendMessageSize(128 << 20);
  if (!options_.tls_server_name.empty()) {
    args.SetSslTargetNameOverride(options_.tls_server_name);
  }
  channel_ = grpc::CreateCustomChannel(target, CredentialsOf(options_), args);
  stub_ = v1::Pathfinding::NewStub(channel_);
}

void Client::AddToken(grpc::ClientContext* ctx) const {
  if (!options_.token.empty()) {
    ctx->AddMetadata("authorization", absl::StrCat("Bearer ", options_.token));
  }
}

absl::Status LoadClientSecurity(const std::string& tls_ca_file,
                                const std::string& tls_cert_file,
                                const std::string& tls_key_file,
                                const std::string& token_file,
                                ClientOptions* options) {
  const std::pair<const std::string*, std::string*> pems[] = {
      {&tls_ca_file, &options->tls_ca_pem},
      {&tls_cert_file, &options->tls_cert_pem},
      {&tls_key_file, &options->tls_key_pem}};
  const char* flags[] = {"tls_ca", "tls_cert", "tls_key"};
  for (int i = 0; i < 3; ++i) {
    if (pems[i].first->empty()) continue;
    absl::StatusOr<std::string> pem = ReadWholeFile(*pems[i].first, flags[i]);
    if (!pem.ok()) return pem.status();
    *pems[i].second = *std::move(pem);
    options->tls = true;
  }
  if (tls_cert_file.empty() != tls_key_file.empty()) {
    return absl::InvalidArgumentError(
        "--tls_cert and --tls_key: a client certificate needs its key");
  }
  if (token_file.empty()) {
    if (const char* env = std::getenv("GRIDSTAR_TOKEN"); env != nullptr) {
      options->token = std::string(absl::StripAsciiWhitespace(env));
    }
    return absl::OkStatus();
  }
  absl::StatusOr<std::string> text = ReadWholeFile(token_file, "token_file");
  if (!text.ok()) return text.status();
  for (absl::string_view line : absl::StrSplit(*text, '\n')) {
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || line[0] == '#') continue;
    options->token = std::string(line);
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(
      absl::StrCat("--token_file: '", token_file, "' holds no token"));
}

absl::Status Client::Call(bool idempotent, const std::string& map_id,
                          const Rpc& rpc) {
  absl::Duration backoff = options_.initial_backoff;
  for (int attempt = 1;; ++attempt) {
    grpc::ClientContext ctx;
    ctx.set_deadline(absl::ToChronoTime(absl::Now() + options_.deadline));
    if (!map_id.empty()) ctx.AddMetadata(kMapHeader, map_id);
    AddToken(&ctx);
    const grpc::Status s = rpc(&ctx);
    const auto& initial = ctx.GetServerInitialMetadata();
    if (auto it = initial.find(kStoreHeader);
        it != initial.end() && it->second == "shared") {
      shared_store_.store(true);
    }
    if (s.error_code() != grpc::StatusCode::UNAVAILABLE || !idempotent ||
        attempt >= options_.max_attempts) {
      return FromGrpc(s);
    }
    absl::SleepFor(backoff);
    backoff *= 2;
  }
}

absl::Status Client::MapCall(bool idempotent, const std::string& map_id,
                             const Rpc& rpc) {
  absl::Status s = Call(idempotent, map_id, rpc);
  if (!absl::IsNotFound(s) || !options_.remember_maps || shared_store_.load()) {
    return s;
  }
  if (!Heal(map_id).ok()) return s;
  return Call(idempotent, map_id, rpc);
}

absl::Status Client::Heal(const std::string& map_id) {
  std::shared_ptr<Remembered> map;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = maps_.find(map_id);
    if (it == maps_.end()) return absl::NotFoundError("not remembered");
    map = it->second;
  }
  v1::MapInfo info;
  absl::Status s = Call(true, map_id, [&](grpc::ClientContext* c) {
    return stub_->RegisterMap(c, map->request, &info);
  });
  if (!s.ok()) return s;
  // The updates in order, without their version checks: the version numbers
  // of the new registration start again at 1.
  std::vector<v1::UpdateCellsRequest> updates;
  {
    std::lock_guard<std::mutex> lock(mu_);
    updates = map->updates;
  }
  for (v1::UpdateCellsRequest u : updates) {
    u.clear_expected_version();
    s = Call(false, map_id, [&](grpc::ClientContext* c) {
      return stub_->UpdateCells(c, u, &info);
    });
    if (!s.ok()) return s;
  }
  reregistrations_.fetch_add(1);
  return absl::OkStatus();
}

absl::StatusOr<v1::MapInfo> Client::RegisterMap(
    const v1::RegisterMapRequest& r) {
  v1::MapInfo out;
  // Identical content is a no-op on the server, so a retry is safe.
  absl::Status s = Call(true, r.id(), [&](grpc::ClientContext* c) {
    return stub_->RegisterMap(c, r, &out);
  });
  if (!s.ok()) return s;
  if (options_.remember_maps) {
    auto remembered = std::make_shared<Remembered>();
    remembered->request = r;
    std::lock_guard<std::mutex> lock(mu_);
    auto& slot = maps_[r.id()];
    // Registering the same content again keeps the updates made since.
    if (slot == nullptr || out.version() == 1 ||
        slot->request.SerializeAsString() != r.SerializeAsString()) {
      slot = std::move(remembered);
    }
  }
  return out;
}

absl::StatusOr<v1::MapInfo> Client::UpdateCells(
    const v1::UpdateCellsRequest& r) {
  v1::MapInfo out;
  absl::Status s = MapCall(false, r.id(), [&](grpc::ClientContext* c) {
    return stub_->UpdateCells(c, r, &out);
  });
  if (!s.ok()) return s;
  if (options_.remember_maps) {
    std::lock_guard<std::mutex> lock(mu_);
    if (auto it = maps_.find(r.id()); it != maps_.end()) {
      it->second->updates.push_back(r);
    }
  }
  return out;
}

absl::StatusOr<v1::GetMapResponse> Client::GetMap(const v1::GetMapRequest& r) {
  v1::GetMapResponse out;
  absl::Status s = MapCall(true, r.id(), [&](grpc::ClientContext* c) {
    return stub_->GetMap(c, r, &out);
  });
  if (!s.ok()) return s;
  return out;
}

absl::StatusOr<v1::ListMapsResponse> Client::ListMaps() {
  v1::ListMapsResponse out;
  absl::Status s = Call(true, "", [&](grpc::ClientContext* c) {
    return stub_->ListMaps(c, v1::ListMapsRequest(), &out);
  });
  if (!s.ok()) return s;
  return out;
}

absl::Status Client::DeleteMap(const std::string& id) {
  v1::DeleteMapRequest r;
  r.set_id(id);
  v1::DeleteMapResponse out;
  absl::Status s = Call(false, id, [&](grpc::ClientContext* c) {
    return stub_->DeleteMap(c, r, &out);
  });
  if (s.ok() || absl::IsNotFound(s)) {
    std::lock_guard<std::mutex> lock(mu_);
    maps_.erase(id);
  }
  return s;
}

absl::StatusOr<v1::WorldInfo> Client::RegisterWorld(
    const v1::RegisterWorldRequest& r) {
  return Plain(true, r, &v1::Pathfinding::Stub::RegisterWorld);
}

absl::StatusOr<v1::WorldInfo> Client::UpdateLinks(
    const v1::UpdateLinksRequest& r) {
  return Plain(false, r, &v1::Pathfinding::Stub::UpdateLinks);
}

absl::StatusOr<v1::WorldInfo> Client::GetWorld(const std::string& id) {
  v1::GetWorldRequest r;
  r.set_id(id);
  return Plain(true, r, &v1::Pathfinding::Stub::GetWorld);
}

absl::StatusOr<v1::ListWorldsResponse> Client::ListWorlds() {
  return Plain(true, v1::ListWorldsRequest(),
               &v1::Pathfinding::Stub::ListWorlds);
}

absl::Status Client::DeleteWorld(const std::string& id) {
  v1::DeleteWorldRequest r;
  r.set_id(id);
  return Plain(false, r, &v1::Pathfinding::Stub::DeleteWorld).status();
}

absl::StatusOr<v1::WorldPathResponse> Client::FindWorldPath(
    const v1::WorldPathRequest& r) {
  return Plain(true, r, &v1::Pathfinding::Stub::FindWorldPath);
}

absl::StatusOr<v1::FindWorldPathsResponse> Client::FindWorldPaths(
    const v1::FindWorldPathsRequest& r) {
  return Plain(true, r, &v1::Pathfinding::Stub::FindWorldPaths);
}

absl::StatusOr<v1::PathResponse> Client::FindPath(const v1::PathRequest& r) {
  v1::PathResponse out;
  absl::Status s = MapCall(true, r.map_id(), [&](grpc::ClientContext* c) {
    return stub_->FindPath(c, r, &out);
  });
  if (!s.ok()) return s;
  return out;
}

absl::StatusOr<v1::FindPathsResponse> Client::FindPaths(
    const v1::FindPathsRequest& r) {
  v1::FindPathsResponse out;
  absl::Status s = MapCall(true, r.map_id(), [&](grpc::ClientContext* c) {
    return stub_->FindPaths(c, r, &out);
  });
  if (!s.ok()) return s;
  return out;
}

absl::StatusOr<v1::GroupPathsResponse> Client::FindGroupPaths(
    const v1::GroupPathsRequest& r) {
  v1::GroupPathsResponse out;
  absl::Status s = MapCall(true, r.map_id(), [&](grpc::ClientContext* c) {
    return stub_->FindGroupPaths(c, r, &out);
  });
  if (!s.ok()) return s;
  return out;
}

absl::StatusOr<v1::FlowFieldResponse> Client::ComputeFlowField(
    const v1::FlowFieldRequest& r) {
  v1::FlowFieldResponse out;
  absl::Status s = MapCall(true, r.map_id(), [&](grpc::ClientContext* c) {
    return stub_->ComputeFlowField(c, r, &out);
  });
  if (!s.ok()) return s;
  return out;
}

absl::Status Client::Health() {
  // The standard health service, called through a generic stub so that no
  // second generated library is needed: an empty HealthCheckRequest asks for
  // the whole server, and the reply's field 1 is the status (1 = SERVING).
  grpc::GenericStub generic(channel_);
  grpc::ClientContext ctx;
  ctx.set_deadline(absl::ToChronoTime(absl::Now() + options_.deadline));
  grpc::ByteBuffer request, reply;
  grpc::Slice empty("", 0);
  request = grpc::ByteBuffer(&empty, 1);
  grpc::Status status;
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  generic.UnaryCall(&ctx, "/grpc.health.v1.Health/Check", grpc::StubOptions(),
                    &request, &reply, [&](grpc::Status s) {
                      std::lock_guard<std::mutex> lock(mu);
                      status = s;
                      done = true;
                      cv.notify_one();
                    });
  std::unique_lock<std::mutex> lock(mu);
  cv.wait(lock, [&] { return done; });
  if (!status.ok()) return FromGrpc(status);
  std::vector<grpc::Slice> slices;
  reply.Dump(&slices);
  std::string bytes;
  for (const grpc::Slice& s : slices) {
    bytes.append(reinterpret_cast<const char*>(s.begin()), s.size());
  }
  if (bytes.size() == 2 && bytes[0] == 0x08 && bytes[1] == 0x01)
    return absl::OkStatus();
  return absl::UnavailableError(
      "the server is not serving (draining or starting)");
}

std::unique_ptr<WatchStream> Client::Watch(const std::string& map_id,
                                           absl::Duration deadline) {
  auto ctx = std::make_unique<grpc::ClientContext>();
  AddToken(ctx.get());
  if (!map_id.empty()) ctx->AddMetadata(kMapHeader, map_id);
  if (deadline != absl::InfiniteDuration()) {
    ctx->set_deadline(absl::ToChronoTime(absl::Now() + deadline));
  }
  auto stream = stub_->WatchPaths(ctx.get());
  return std::make_unique<WatchStream>(std::move(ctx), std::move(stream));
}

absl::StatusOr<uint64_t> WatchStream::Send(v1::WatchRequest r) {
  std::lock_guard<std::mutex> lock(write_mu_);
  const uint64_t id = next_request_id_++;
  r.set_request_id(id);
  if (!stream_->Write(r)) {
    return absl::UnavailableError("WatchPaths: the stream is closed");
  }
  return id;
}

absl::StatusOr<uint64_t> WatchStream::Add(uint64_t agent_id, const v1::PathRequest& path,
                                          double replan_if_cheaper) {
  v1::WatchRequest r;
  r.set_agent_id(agent_id);
  r.set_action(v1::WATCH_ACTION_ADD);
  *r.mutable_path() = path;
  r.set_replan_if_cheaper(replan_if_cheaper);
  return Send(std::move(r));
}

absl::StatusOr<uint64_t> WatchStream::Move(uint64_t agent_id, int32_t x, int32_t y) {
  v1::WatchRequest r;
  r.set_agent_id(agent_id);
  r.set_action(v1::WATCH_ACTION_MOVE);
  r.mutable_position()->set_x(x);
  r.mutable_position()->set_y(y);
  return Send(std::move(r));
}

absl::StatusOr<uint64_t> WatchStream::Retarget(uint64_t agent_id, int32_t x, int32_t y) {
  v1::WatchRequest r;
  r.set_agent_id(agent_id);
  r.set_action(v1::WATCH_ACTION_RETARGET);
  r.mutable_goal()->set_x(x);
  r.mutable_goal()->set_y(y);
  return Send(std::move(r));
}

absl::StatusOr<uint64_t> WatchStream::Remove(uint64_t agent_id) {
  v1::WatchRequest r;
  r.set_agent_id(agent_id);
  r.set_action(v1::WATCH_ACTION_REMOVE);
  return Send(std::move(r));
}

absl::StatusOr<uint64_t> WatchStream::AddWorld(uint64_t agent_id,
                                               const v1::WorldPathRequest& path,
                                               double replan_if_cheaper) {
  v1::WatchRequest r;
  r.set_agent_id(agent_id);
  r.set_action(v1::WATCH_ACTION_ADD);
  *r.mutable_world_path() = path;
  r.set_replan_if_cheaper(replan_if_cheaper);
  return Send(std::move(r));
}

absl::StatusOr<uint64_t> WatchStream::MoveWorld(uint64_t agent_id,
                                                const std::string& map_id,
                                                int32_t x, int32_t y) {
  v1::WatchRequest r;
  r.set_agent_id(agent_id);
  r.set_action(v1::WATCH_ACTION_MOVE);
  r.mutable_world_position()->set_map_id(map_id);
  r.mutable_world_position()->mutable_cell()->set_x(x);
  r.mutable_world_position()->mutable_cell()->set_y(y);
  return Send(std::move(r));
}

absl::StatusOr<uint64_t> WatchStream::RetargetWorld(uint64_t agent_id,
                                                    const std::string& map_id,
                                                    int32_t x, int32_t y) {
  v1::WatchRequest r;
  r.set_agent_id(agent_id);
  r.set_action(v1::WATCH_ACTION_RETARGET);
  r.mutable_world_goal()->set_map_id(map_id);
  r.mutable_world_goal()->mutable_cell()->set_x(x);
  r.mutable_world_goal()->mutable_cell()->set_y(y);
  return Send(std::move(r));
}

absl::Status WatchStream::Finish() { return FromGrpc(stream_->Finish()); }

}  // namespace gridstar
