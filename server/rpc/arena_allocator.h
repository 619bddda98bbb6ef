// ArenaAllocator: a gRPC message allocator that places a call's request and
// response on one protobuf Arena, freed in one piece when the call ends.
//
// A FindPaths response is 64 paths of a few hundred cells each, plus two Cell
// messages per path: without an arena each is its own malloc and free, on
// the worker that fills it and the thread that ends the call (glibc's
// malloc, then consolidating, took ~4% of a worker's time on
// tests/bench/service_bench.sh). On the arena they are bump allocations from
// a few large blocks.
//
// Thread-safety: AllocateMessages may be called from any thread; each holder
// belongs to its call.
#ifndef GRIDSTAR_SERVER_ARENA_ALLOCATOR_H_
#define GRIDSTAR_SERVER_ARENA_ALLOCATOR_H_

#include <cstddef>

#include "google/protobuf/arena.h"
#include "grpcpp/support/message_allocator.h"

namespace gridstar::server {

template <typename Request, typename Response>
class ArenaAllocator : public grpc::MessageAllocator<Request, Response> {
 public:
  // The arena's first block, and the largest block it asks malloc for (a
  // field bigger than that gets a block of its own).
  static constexpr size_t kFirstBlockBytes = 4096;
  static constexpr size_t kMaxBlockBytes = 64 * 1024;

  grpc::MessageHolder<Request, Response>* AllocateMessages() override {
    return new Holder();
  }

 private:
  static google::protobuf::ArenaOptions Options() {
    google::protobuf::ArenaOptions o;
    o.start_block_size = kFirstBlockBytes;
    o.max_block_size = kMaxBlockBytes;
    return o;
  }

  class Holder : public grpc::MessageHolder<Request, Response> {
   public:
    Holder() : arena_(Options()) {
      this->set_request(
          google::protobuf::Arena::CreateMessage<Request>(&arena_));
      this->set_response(
          google::protobuf::Arena::CreateMessage<Response>(&arena_));
    }
    void Release() override { delete this; }

   private:
    google::protobuf::Arena arena_;
  };
};

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_ARENA_ALLOCATOR_H_
