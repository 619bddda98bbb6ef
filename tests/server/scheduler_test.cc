// Scheduler: bounded queue refuses at once when full, drains on shutdown.
#include "runtime/scheduler.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <future>

#include "gtest/gtest.h"

namespace gridstar::server {
namespace {

TEST(SchedulerTest, FullQueueRefusesAtOnceAndShutdownDrains) {
  Scheduler scheduler(1, 2, {1024});
  std::promise<void> release;
  std::shared_future<void> gate = release.get_future().share();
  std::promise<void> started;
  std::atomic<int> ran{0};
  // The worker takes this one and blocks, so the queue itself holds two more.
  ASSERT_TRUE(scheduler.TrySubmit([&](SearchContext&) {
    started.set_value();
    gate.wait();
    ran.fetch_add(1);
  }));
  started.get_future().wait();
  EXPECT_TRUE(scheduler.TrySubmit([&](SearchContext&) { ran.fetch_add(1); }));
  EXPECT_TRUE(scheduler.TrySubmit([&](SearchContext&) { ran.fetch_add(1); }));
  EXPECT_EQ(scheduler.depth(), 2u);
  EXPECT_EQ(scheduler.busy_workers(), 1);
  EXPECT_FALSE(scheduler.TrySubmit([&](SearchContext&) { ran.fetch_add(1); }));
  release.set_value();
  scheduler.Shutdown();
  EXPECT_EQ(ran.load(), 3);
  // Stopped: nothing more is taken.
  EXPECT_FALSE(scheduler.TrySubmit([&](SearchContext&) { ran.fetch_add(1); }));
}

// Workers run the asked number of nice levels below the thread that made
// them (capped at 19), so that map writers go first for a core.
TEST(SchedulerTest, WorkersRunBelowTheProcessByTheirNiceIncrement) {
  errno = 0;
  const int base = ::getpriority(PRIO_PROCESS, 0);
  ASSERT_EQ(errno, 0);
  for (int increment : {0, 3}) {
    SCOPED_TRACE(increment);
    Scheduler scheduler(1, 4, {1024}, increment);
    std::promise<int> nice;
    ASSERT_TRUE(scheduler.TrySubmit([&](SearchContext&) {
      nice.set_value(::getpriority(
          PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid))));
    }));
    EXPECT_EQ(nice.get_future().get(), std::min(19, base + increment));
  }
}

TEST(SchedulerTest, EachWorkerKeepsItsContext) {
  Scheduler scheduler(2, 64, {1024});
  std::atomic<int> ran{0};
  for (int i = 0; i < 32; ++i) {
    ASSERT_TRUE(scheduler.TrySubmit([&](SearchContext& context) {
      EXPECT_EQ(context.max_cells(), 1024);
      ran.fetch_add(1);
    }));
  }
  scheduler.Shutdown();
  EXPECT_EQ(ran.load(), 32);
}

}  // namespace
}  // namespace gridstar::server
