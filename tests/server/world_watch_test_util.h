// What the suites of watched world agents share
// (server_world_watch_test.cc, server_world_watch_cases_test.cc): a
// WatchPaths stream read on a thread of its own, and requests.
#ifndef GRIDSTAR_TESTS_SERVER_WORLD_WATCH_TEST_UTIL_H_
#define GRIDSTAR_TESTS_SERVER_WORLD_WATCH_TEST_UTIL_H_

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "server/world_test_util.h"

namespace gridstar::testing::worlds {

// One WatchPaths stream, its events read on a thread of their own.
class Stream {
 public:
  explicit Stream(v1::Pathfinding::Stub& stub) {
    SetDeadline(&ctx_);
    stream_ = stub.WatchPaths(&ctx_);
    reader_ = std::thread([this] {
      v1::WatchEvent e;
      while (stream_->Read(&e)) {
        std::lock_guard<std::mutex> lock(mu_);
        events_.push_back(e);
        cv_.notify_all();
      }
      std::lock_guard<std::mutex> lock(mu_);
      ended_ = true;
      cv_.notify_all();
    });
  }
  ~Stream() {
    stream_->WritesDone();
    reader_.join();
    (void)stream_->Finish();
  }
  bool Write(const v1::WatchRequest& r) { return stream_->Write(r); }
  // The next event (false when the stream ended first).
  bool Next(v1::WatchEvent* e) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return !events_.empty() || ended_; });
    if (events_.empty()) return false;
    *e = events_.front();
    events_.pop_front();
    return true;
  }

 private:
  grpc::ClientContext ctx_;
  std::unique_ptr<grpc::ClientReaderWriter<v1::WatchRequest, v1::WatchEvent>>
      stream_;
  std::thread reader_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<v1::WatchEvent> events_;
  bool ended_ = false;
};

inline v1::WorldCell Wire(const Maps& m, WorldCell c) {
  v1::WorldCell w;
  w.set_map_id(m.ids[c.map]);
  w.mutable_cell()->set_x(c.cell.x);
  w.mutable_cell()->set_y(c.cell.y);
  return w;
}

inline v1::WatchRequest AddWorldAgent(const Maps& m, uint64_t request_id,
                                      uint64_t agent, WorldCell s, WorldCell g,
                                      double replan_if_cheaper = 0) {
  v1::WatchRequest r;
  r.set_request_id(request_id);
  r.set_agent_id(agent);
  r.set_action(v1::WATCH_ACTION_ADD);
  *r.mutable_world_path() = Query(m, s, g);
  r.set_replan_if_cheaper(replan_if_cheaper);
  return r;
}

// Sets one cell of map `map_id` on the server (failing the test when the
// update fails); the map's new version.
inline uint64_t UpdateCell(v1::Pathfinding::Stub& stub,
                           const std::string& map_id, Cell c, int cost) {
  v1::UpdateCellsRequest u;
  u.set_id(map_id);
  v1::CellUpdate* cu = u.add_cells();
  cu->mutable_cell()->set_x(c.x);
  cu->mutable_cell()->set_y(c.y);
  cu->set_cost(cost);
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  v1::MapInfo info;
  const grpc::Status s = stub.UpdateCells(&ctx, u, &info);
  EXPECT_TRUE(s.ok()) << s.error_message();
  return info.version();
}

inline int MapIndex(const Maps& m, const std::string& id) {
  for (size_t i = 0; i < m.ids.size(); ++i) {
    if (m.ids[i] == id) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace gridstar::testing::worlds

#endif  // GRIDSTAR_TESTS_SERVER_WORLD_WATCH_TEST_UTIL_H_
