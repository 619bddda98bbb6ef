// SseSink (server/http/http_watch.h): the queue of one WatchPaths event
// stream over HTTP, on its own: order, pushes replacing an agent's unread
// push, the close when the reader falls behind, and what Take reports.
#include <deque>
#include <string>

#include "gtest/gtest.h"
#include "http/http_watch.h"

namespace gridstar::server {
namespace {

WatchEvent Event(uint64_t request_id, uint64_t agent_id, WatchReason reason) {
  WatchEvent e;
  e.request_id = request_id;
  e.agent_id = agent_id;
  e.reason = reason;
  return e;
}

TEST(SseSinkTest, EventsComeOutInOrder) {
  SseSink sink("s", 16);
  EXPECT_TRUE(sink.Push(Event(1, 7, WatchReason::kAdded), false));
  EXPECT_TRUE(sink.Push(Event(2, 8, WatchReason::kAdded), false));
  std::deque<WatchEvent> out;
  ASSERT_EQ(sink.Take(&out, absl::ZeroDuration()), SseSink::Next::kEvents);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].agent_id, 7u);
  EXPECT_EQ(out[1].agent_id, 8u);
}

TEST(SseSinkTest, APushReplacesTheAgentsUnreadPush) {
  SseSink sink("s", 16);
  EXPECT_TRUE(sink.Push(Event(0, 7, WatchReason::kBlocked), true));
  EXPECT_TRUE(
      sink.Push(Event(3, 7, WatchReason::kMoved), false));  // An answer stays.
  EXPECT_TRUE(sink.Push(Event(0, 7, WatchReason::kCheaper), true));
  std::deque<WatchEvent> out;
  ASSERT_EQ(sink.Take(&out, absl::ZeroDuration()), SseSink::Next::kEvents);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].reason, WatchReason::kCheaper);
  EXPECT_EQ(out[1].reason, WatchReason::kMoved);
  // Once read, a push queues anew.
  EXPECT_TRUE(sink.Push(Event(0, 7, WatchReason::kBlocked), true));
  out.clear();
  ASSERT_EQ(sink.Take(&out, absl::ZeroDuration()), SseSink::Next::kEvents);
  EXPECT_EQ(out.size(), 1u);
}

TEST(SseSinkTest, AReaderTooFarBehindClosesTheStream) {
  SseSink sink("s", 2);
  EXPECT_TRUE(sink.Push(Event(1, 1, WatchReason::kAdded), false));
  EXPECT_TRUE(sink.Push(Event(2, 2, WatchReason::kAdded), false));
  EXPECT_FALSE(sink.Push(Event(3, 3, WatchReason::kAdded), false));
  EXPECT_TRUE(sink.fell_behind());
  EXPECT_FALSE(sink.Push(Event(4, 4, WatchReason::kAdded), false));
  std::deque<WatchEvent> out;
  EXPECT_EQ(sink.Take(&out, absl::ZeroDuration()), SseSink::Next::kClosed);
  EXPECT_TRUE(out.empty());
}

TEST(SseSinkTest, TakeSaysIdleThenClosed) {
  SseSink sink("s", 4);
  std::deque<WatchEvent> out;
  EXPECT_EQ(sink.Take(&out, absl::ZeroDuration()), SseSink::Next::kIdle);
  sink.Close();
  EXPECT_FALSE(sink.fell_behind());
  EXPECT_FALSE(sink.Push(Event(1, 1, WatchReason::kAdded), false));
  EXPECT_EQ(sink.Take(&out, absl::Seconds(300)), SseSink::Next::kClosed);
}

}  // namespace
}  // namespace gridstar::server
