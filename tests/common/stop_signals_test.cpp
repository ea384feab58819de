#include "cosched/common/stop_signals.hpp"

#include <gtest/gtest.h>
#include <poll.h>

#include <csignal>

namespace cosched {
namespace {

TEST(StopSignals, TheFirstSignalIsARequestSeenByFlagAndDescriptor) {
  const StopSignals stop;
  EXPECT_FALSE(stop.requested());
  ASSERT_EQ(std::raise(SIGTERM), 0);  // the process goes on: the first signal only asks
  EXPECT_TRUE(stop.requested());
  EXPECT_TRUE(stop.flag().load());
  pollfd readable{stop.fd(), POLLIN, 0};
  EXPECT_EQ(::poll(&readable, 1, 0), 1);
  EXPECT_TRUE(stop.drain());
  EXPECT_FALSE(stop.drain());     // drained
  EXPECT_TRUE(stop.requested());  // but the request stays
}

TEST(StopSignals, ANewInstanceStartsWithoutARequest) {
  {
    const StopSignals stop;
    ASSERT_EQ(std::raise(SIGINT), 0);
    EXPECT_TRUE(stop.requested());
  }
  const StopSignals again;
  EXPECT_FALSE(again.requested());
}

TEST(StopSignals, TheSecondSignalEndsTheProcess) {
  EXPECT_EXIT(
      {
        const StopSignals stop;
        std::raise(SIGINT);
        std::raise(SIGINT);
        std::_Exit(0);  // not reached
      },
      testing::KilledBySignal(SIGINT), "");
}

TEST(StopSignals, ThePreviousHandlersComeBack) {
  struct sigaction before {};
  ::sigaction(SIGINT, nullptr, &before);
  { const StopSignals stop; }
  struct sigaction after {};
  ::sigaction(SIGINT, nullptr, &after);
  EXPECT_EQ(before.sa_handler, after.sa_handler);
}

}  // namespace
}  // namespace cosched
