// Finisher (ends big calls off the workers): closures run on its own thread,
// in order; after Shutdown they run at once on the caller's thread; shutting
// down runs what was still queued.
#include "rpc/finisher.h"

#include <future>
#include <mutex>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace gridstar::server {
namespace {

TEST(FinisherTest, RunsClosuresInOrderOnItsOwnThread) {
  Finisher finisher;
  // std:: synchronisation throughout, which TSan sees.
  std::mutex mu;
  std::vector<int> order;
  std::vector<std::thread::id> threads;
  std::promise<void> last;
  for (int i = 0; i < 100; ++i) {
    finisher.Run([&, i] {
      std::lock_guard<std::mutex> lock(mu);
      order.push_back(i);
      threads.push_back(std::this_thread::get_id());
      if (i == 99) last.set_value();
    });
  }
  last.get_future().wait();
  std::lock_guard<std::mutex> lock(mu);
  ASSERT_EQ(order.size(), 100u);
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(order[i], i);
    EXPECT_NE(threads[i], std::this_thread::get_id());
  }
}

TEST(FinisherTest, ShutdownRunsWhatIsQueued) {
  Finisher finisher;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  int ran = 0;  // Written by the finisher's thread only, read after join.
  // The first closure holds the thread while more are queued behind it.
  finisher.Run([&] {
    released.wait();
    ++ran;
  });
  for (int i = 0; i < 10; ++i) finisher.Run([&] { ++ran; });
  std::thread stopper([&] { finisher.Shutdown(); });
  release.set_value();
  stopper.join();
  EXPECT_EQ(ran, 11);
  EXPECT_EQ(finisher.finished(), 11u);
}

TEST(FinisherTest, AfterShutdownRunsOnTheCallersThread) {
  Finisher finisher;
  finisher.Shutdown();
  finisher.Shutdown();  // Idempotent.
  std::thread::id where;
  finisher.Run([&] { where = std::this_thread::get_id(); });
  EXPECT_EQ(where, std::this_thread::get_id());
  EXPECT_EQ(finisher.finished(), 1u);
}

TEST(FinisherTest, DestructorDrainsTheQueue) {
  int ran = 0;
  {
    Finisher finisher;
    for (int i = 0; i < 50; ++i) finisher.Run([&] { ++ran; });
  }
  EXPECT_EQ(ran, 50);
}

}  // namespace
}  // namespace gridstar::server
