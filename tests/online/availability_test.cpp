// AvailabilityProfile against a brute-force timeline of unit steps: earliest_fit finds the first hole (before later
// reservations too), reserve and hold_until take exactly what they say.
#include "cosched/online/availability.hpp"

#include <gtest/gtest.h>

#include "cosched/sched/generator.hpp"

namespace cosched::online {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kHorizon = 64;  // every finite breakpoint is below; from there on the profile is constant
constexpr int kForever = -1;

// Free amounts per unit step [t, t + 1), t = 0 .. kHorizon - 1; the last step stands for all later times.
class Timeline {
 public:
  explicit Timeline(std::vector<int> capacity) : free_(kHorizon, std::move(capacity)) {}
  void take(int start, int end, const std::vector<int>& amounts) {
    for (int t = start; t < std::min(end, kHorizon); ++t) {
      for (std::size_t i = 0; i < amounts.size(); ++i) free_[t][i] -= amounts[i];
    }
  }
  // kForever as the duration: from t on for good.
  [[nodiscard]] double earliest_fit(int from, int duration, const std::vector<int>& amounts) const {
    for (int t = from; t < kHorizon; ++t) {
      bool fits = true;
      const int end = duration == kForever ? kHorizon : t + std::max(duration, 1);  // 0 needs the instant t
      for (int u = t; u < end && fits; ++u) {
        const auto& row = free_[std::min(u, kHorizon - 1)];
        for (std::size_t i = 0; i < amounts.size(); ++i) fits = fits && amounts[i] <= row[i];
      }
      if (fits) return t;
    }
    return kInf;
  }
  [[nodiscard]] const std::vector<int>& free_at(int t) const { return free_[std::min(t, kHorizon - 1)]; }

 private:
  std::vector<std::vector<int>> free_;
};

TEST(AvailabilityProfile, MatchesABruteForceTimeline) {
  const std::vector<int> capacity{3, 2};
  for (std::uint64_t seed = 0; seed < 300; ++seed) {
    sched::Random random(seed);
    AvailabilityProfile profile(0.0, capacity);
    Timeline timeline(capacity);
    for (int step = 0; step < 14; ++step) {
      const std::vector<int> amounts{static_cast<int>(random.index(4)), static_cast<int>(random.index(3))};
      const int from = static_cast<int>(random.index(24));
      const bool forever = random.index(10) == 0;
      const int duration = forever ? kForever : static_cast<int>(random.index(7));
      const double found = profile.earliest_fit(from, forever ? kInf : duration, amounts);
      ASSERT_EQ(found, timeline.earliest_fit(from, duration, amounts)) << "seed " << seed << ", step " << step;
      if (!std::isfinite(found) || duration == 0) continue;
      profile.reserve(found, forever ? kInf : found + duration, amounts);
      timeline.take(static_cast<int>(found), forever ? kHorizon : static_cast<int>(found) + duration, amounts);
      const int probe = static_cast<int>(random.index(kHorizon + 8));
      const std::span<const int> free = profile.free_at(probe);
      EXPECT_EQ(std::vector<int>(free.begin(), free.end()), timeline.free_at(probe)) << "seed " << seed;
    }
  }
}

TEST(AvailabilityProfile, RunningJobsHoldTheirAmountsFromTheOrigin) {
  AvailabilityProfile profile(10.0, {4});
  profile.hold_until(15.0, std::vector<int>{3});
  profile.hold_until(9.0, std::vector<int>{4});  // already ended: holds nothing
  EXPECT_EQ(profile.free_at(10.0)[0], 1);
  EXPECT_EQ(profile.free_at(15.0)[0], 4);
  EXPECT_EQ(profile.earliest_fit(0.0, 1.0, std::vector<int>{1}), 10.0);  // never before the origin
  EXPECT_EQ(profile.earliest_fit(10.0, 1.0, std::vector<int>{2}), 15.0);
  EXPECT_EQ(profile.earliest_fit(10.0, 0.0, std::vector<int>{5}), kInf);  // beyond capacity
}

// A hole before a later reservation is used when the job fits in it, skipped when it is too short.
TEST(AvailabilityProfile, HolesBeforeLaterReservations) {
  AvailabilityProfile profile(0.0, {2});
  profile.reserve(5.0, 8.0, std::vector<int>{2});
  EXPECT_EQ(profile.earliest_fit(0.0, 5.0, std::vector<int>{2}), 0.0);
  EXPECT_EQ(profile.earliest_fit(0.0, 6.0, std::vector<int>{1}), 8.0);
  EXPECT_EQ(profile.earliest_fit(1.0, 4.0, std::vector<int>{1}), 1.0);
}

}  // namespace
}  // namespace cosched::online
