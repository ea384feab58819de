// The analytic profiles of online jobs: fill_times and time_at agree bit for bit, the times are monotone (the
// closure leaves them unchanged), and each profile says what its job can run with.
#include "cosched/online/profiles.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cosched/common/error.hpp"

namespace cosched::online {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct ProfileCase {
  std::string name;
  std::function<std::shared_ptr<const sched::TimeProfile>()> make;
  std::vector<int> capacities;
};

void PrintTo(const ProfileCase& c, std::ostream* out) { *out << c.name; }

class OnlineProfiles : public ::testing::TestWithParam<ProfileCase> {};

TEST_P(OnlineProfiles, FillTimesAndTimeAtAgreeBitForBit) {
  const sched::AllocationSpace space(GetParam().capacities);
  const auto profile = GetParam().make();
  std::vector<double> times(space.size());
  profile->fill_times(space, times);
  for (std::size_t k = 0; k < space.size(); ++k) {
    const auto alloc = space.decode(k);
    EXPECT_EQ(std::bit_cast<std::uint64_t>(times[k]), std::bit_cast<std::uint64_t>(profile->time_at(space, alloc)))
        << "at index " << k;
  }
}

TEST_P(OnlineProfiles, AreMonotoneAndNeedAProcessor) {
  const sched::AllocationSpace space(GetParam().capacities);
  std::vector<double> times(space.size());
  GetParam().make()->fill_times(space, times);
  auto closed = times;
  sched::apply_monotone_closure(space, closed);
  EXPECT_EQ(closed, times) << "the closure changed the table: times increase somewhere";
  for (std::size_t k = 0; k < space.stride(0); ++k) EXPECT_EQ(times[k], kInf) << "runs without a processor";
  for (const double t : times) EXPECT_TRUE(t == kInf || t > 0.0);
  EXPECT_NE(times.back(), kInf) << "cannot run even with everything";
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, OnlineProfiles,
    ::testing::Values(
        ProfileCase{"sequential_512", [] { return std::make_shared<SequentialProfile>(3.5); }, {512}},
        ProfileCase{"sequential_node", [] { return std::make_shared<SequentialProfile>(0.25); }, {8, 4}},
        ProfileCase{"rigid_512", [] { return std::make_shared<RigidProfile>(64, 100.0); }, {512}},
        ProfileCase{"rigid_node", [] { return std::make_shared<RigidProfile>(3, 7.0); }, {4, 2, 3}},
        ProfileCase{"rigid_as_wide_as_the_machine", [] { return std::make_shared<RigidProfile>(16, 1.0); }, {16}},
        ProfileCase{"downey_low_variance", [] { return std::make_shared<DowneyProfile>(DowneyJob{1e4, 37.5, 0.4}); },
                    {512}},
        ProfileCase{"downey_high_variance",
                    [] { return std::make_shared<DowneyProfile>(DowneyJob{123.0, 300.2, 1.9}); }, {512}},
        ProfileCase{"downey_node", [] { return std::make_shared<DowneyProfile>(DowneyJob{50.0, 6.0, 1.0}); }, {8, 3}}),
    [](const ::testing::TestParamInfo<ProfileCase>& param_info) { return param_info.param.name; });

TEST(OnlineProfileTimes, SequentialIsItsTimeOnAnyProcessorCount) {
  const sched::AllocationSpace space({300});
  const SequentialProfile profile(12.0);
  for (int n = 1; n <= 300; n += 37) EXPECT_EQ(profile.time_at(space, std::vector<int>{n}), 12.0);
}

TEST(OnlineProfileTimes, RigidRunsFromItsSizeOn) {
  const sched::AllocationSpace space({8, 2});
  const RigidProfile profile(5, 60.0);
  EXPECT_EQ(profile.time_at(space, std::vector<int>{4, 2}), kInf);
  EXPECT_EQ(profile.time_at(space, std::vector<int>{5, 0}), 60.0);
  EXPECT_EQ(profile.time_at(space, std::vector<int>{8, 1}), 60.0);
}

TEST(OnlineProfileTimes, DowneyIsTheSequentialTimeOverTheSpeedup) {
  const sched::AllocationSpace space({512});
  const DowneyJob job{1000.0, 40.0, 0.7};
  const DowneyProfile profile(job);
  EXPECT_EQ(profile.time_at(space, std::vector<int>{1}), 1000.0);  // S(1) = 1 exactly: the stretch reference
  for (int n = 2; n <= 512; n += 51) {
    EXPECT_EQ(profile.time_at(space, std::vector<int>{n}), 1000.0 / downey_speedup(n, 40.0, 0.7));
  }
  EXPECT_EQ(profile.time_at(space, std::vector<int>{512}), 1000.0 / 40.0);  // beyond 2A - 1: S = A
}

TEST(OnlineProfileTimes, ConstructorsRefuseWhatNoJobHas) {
  EXPECT_THROW((void)SequentialProfile(0.0), InputError);
  EXPECT_THROW((void)SequentialProfile(-1.0), InputError);
  EXPECT_THROW((void)SequentialProfile(NAN), InputError);
  EXPECT_THROW((void)SequentialProfile{kInf}, InputError);
  EXPECT_THROW((void)RigidProfile(0, 1.0), InputError);
  EXPECT_THROW((void)RigidProfile(2, NAN), InputError);
  EXPECT_THROW((void)DowneyProfile(DowneyJob{0.0, 2.0, 1.0}), InputError);
  EXPECT_THROW((void)DowneyProfile(DowneyJob{1.0, 0.5, 1.0}), InputError);
  EXPECT_THROW((void)DowneyProfile(DowneyJob{1.0, 2.0, -1.0}), InputError);
}

}  // namespace
}  // namespace cosched::online
