// Scheduler: bounded queue refuses at once when full, drains on shutdown;
// workers at the asked nice level or real-time priority.
#include "runtime/scheduler.h"

#include <linux/capability.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <future>
#include <thread>
#include <utility>

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

// The effective capabilities' CAP_SYS_NICE bit of the calling thread.
bool MayRaisePriority() {
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[2] = {};
  if (::syscall(SYS_capget, &header, data) != 0) return false;
  if ((data[0].effective & (1u << CAP_SYS_NICE)) != 0) return true;
  rlimit rtprio{};
  return ::getrlimit(RLIMIT_RTPRIO, &rtprio) == 0 && rtprio.rlim_cur >= 1;
}

struct Policy {
  int policy;  // Without SCHED_RESET_ON_FORK.
  int priority;
  bool reset_on_fork;
};

Policy PolicyOfThisThread() {
  sched_param param{};
  const int policy = ::sched_getscheduler(0);
  ::sched_getparam(0, &param);
  return {policy & ~SCHED_RESET_ON_FORK, param.sched_priority,
          (policy & SCHED_RESET_ON_FORK) != 0};
}

// What a realtime Scheduler's worker and a thread it starts run at.
std::pair<Policy, Policy> PoliciesInsideRealtimeScheduler(int* granted) {
  Scheduler scheduler(1, 4, {1024}, 0, /*realtime_priority=*/1);
  *granted = scheduler.realtime_workers();
  std::promise<std::pair<Policy, Policy>> seen;
  EXPECT_TRUE(scheduler.TrySubmit([&](SearchContext&) {
    Policy started{};
    std::thread([&] { started = PolicyOfThisThread(); }).join();
    seen.set_value({PolicyOfThisThread(), started});
  }));
  return seen.get_future().get();
}

// Granted (root, or RLIMIT_RTPRIO), a realtime worker runs SCHED_FIFO at the
// asked priority, and threads it starts begin as ordinary ones; refused, it
// runs as the process does. Either way it runs its tasks.
TEST(SchedulerTest, RealtimeWorkersRunFifoWhenGranted) {
  const bool may = MayRaisePriority();
  int granted = -1;
  const auto [worker, child] = PoliciesInsideRealtimeScheduler(&granted);
  EXPECT_EQ(child.policy, SCHED_OTHER);
  if (may) {
    EXPECT_EQ(granted, 1);
    EXPECT_EQ(worker.policy, SCHED_FIFO);
    EXPECT_EQ(worker.priority, 1);
    EXPECT_TRUE(worker.reset_on_fork);
  } else {
    EXPECT_EQ(granted, 0);
    EXPECT_EQ(worker.policy, SCHED_OTHER);
  }
}

// In a child process: gives up CAP_SYS_NICE and RLIMIT_RTPRIO (for this
// process only), then 0 when a realtime Scheduler says it was refused and
// its worker and the threads it starts run as ordinary threads.
int RealtimeRefusedChild() {
  rlimit none{0, 0};
  ::setrlimit(RLIMIT_RTPRIO, &none);
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[2] = {};
  ::syscall(SYS_capget, &header, data);
  data[0].effective &= ~(1u << CAP_SYS_NICE);
  if (::syscall(SYS_capset, &header, data) != 0) return 2;
  if (MayRaisePriority()) return 3;
  int granted = -1;
  const auto [worker, child] = PoliciesInsideRealtimeScheduler(&granted);
  return granted == 0 && worker.policy == SCHED_OTHER &&
                 child.policy == SCHED_OTHER
             ? 0
             : 1;
}

// Without CAP_SYS_NICE and RLIMIT_RTPRIO (an unprivileged container), the
// request is refused and said so, and the worker still runs its tasks.
TEST(SchedulerDeathTest, RealtimeRefusedLeavesWorkersOrdinary) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(::_exit(RealtimeRefusedChild()), ::testing::ExitedWithCode(0),
              "");
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
