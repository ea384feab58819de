// The invariants every sequential-job policy keeps (one parameterized suite), the adversary instances of
// Theorems 2.1 and 2.2, and the option checks of the factories.
#include <gtest/gtest.h>

#include "cosched/online/policy.hpp"
#include "online/brute_force.hpp"

namespace cosched::online {
namespace {

using testing::JobSpec;
using testing::rigid_workload;
using testing::usage_error_of;

struct PolicyCase {
  std::string name;
  OnlineOptions options;
};

void PrintTo(const PolicyCase& policy_case, std::ostream* out) { *out << policy_case.name; }

std::string case_name(const ::testing::TestParamInfo<PolicyCase>& info) {
  std::string name = info.param.name;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

// Split last: AdversaryTest leaves it out.
const std::vector<PolicyCase> kPolicies{
    {"fcfs", {}},
    {"easy", {}},
    {"conservative", {}},
    {"dasedf", {}},
    {"fcfs-reservation", {.rho = 1.0, .reserve = 1, .threshold = 2.0}},
    {"dasedf-reservation", {.rho = 1.0, .reserve = 1, .threshold = 1.5}},
    {"split", {.rho = 2.0, .reserve = 0, .threshold = 0.0}},
};

class SequentialPolicyTest : public ::testing::TestWithParam<PolicyCase> {
 protected:
  std::unique_ptr<OnlinePolicy> make(const OnlineWorkload& workload) const {
    return make_online_policy(GetParam().name, GetParam().options, workload);
  }
};

TEST_P(SequentialPolicyTest, IsRegisteredUnderItsName) {
  const OnlineWorkload workload = rigid_workload({4}, {{0.0, 1.0}});
  EXPECT_EQ(make(workload)->name(), GetParam().name);
}

// Random sequential, rigid and two-resource workloads: the replay checks every plan (nothing before now, the
// placements starting now fit the free amounts together) and that every job runs, after its release.
TEST_P(SequentialPolicyTest, EveryPlanFitsAndEveryJobRunsAfterItsRelease) {
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    const bool vector_jobs = seed % 2 == 1;
    const std::vector<int> capacity = vector_jobs ? std::vector<int>{6, 4} : std::vector<int>{5};
    std::vector<JobSpec> specs = testing::random_sequential_jobs(seed, 30, 40.0, 9);
    sched::Random random(seed + 100);
    for (JobSpec& spec : specs) {
      if (seed % 4 == 3) spec.demand = {1 + static_cast<int>(random.index(2)), static_cast<int>(random.index(3))};
      if (seed % 4 == 1) spec.demand = {1, static_cast<int>(random.index(2))};
      if (seed % 3 == 0) spec.estimate = spec.time * (0.5 + random.uniform01());  // wrong both ways
    }
    const OnlineWorkload workload = rigid_workload(capacity, specs);
    const auto policy = make(workload);
    const testing::Replay replay = testing::replay(workload, *policy);
    for (std::size_t j = 0; j < specs.size(); ++j) {
      ASSERT_TRUE(std::isfinite(replay.start[j])) << "seed " << seed << ": job " << j << " never ran";
      EXPECT_GE(replay.start[j], specs[j].release) << "seed " << seed << ": job " << j;
    }
  }
}

// A resumed run: the policy is new, some jobs already run (it never saw them released). What it starts now fits
// what is free; the partitioned policies put the running jobs in parts with room for them.
TEST_P(SequentialPolicyTest, JobsRunningBeforeThePolicyExistedAreRespected) {
  const OnlineWorkload workload = rigid_workload({5}, std::vector<JobSpec>(7, JobSpec{0.0, 4.0}));
  const auto policy = make(workload);
  const std::vector<RunningJob> running{{0, {1}, 0.0, 4.0}, {1, {1}, 0.0, 4.0}, {2, {1}, 0.0, 4.0}};
  const std::vector<std::size_t> pending{3, 4, 5, 6};
  const std::vector<int> free{2};
  int started = 0;
  for (const Placement& placement : policy->plan({workload, 1.0, pending, running, free})) {
    if (placement.start <= 1.0) started += placement.alloc[0];
  }
  EXPECT_LE(started, 2);
}

// Theorem 2.1's adversary on one machine: a job of size 10 is started as soon as it is released, and a job ten
// times shorter released at that instant waits for it: stretch exactly 1 + Delta = 11. Theorem 2.2's, on three
// machines: three jobs of size 10 start together, and a job of size 1 released then waits for one of them.
// (Split's groups each see one size class: its adversary is Theorem 3.5's, in online_seq_partitioned_test.cpp.)
class AdversaryTest : public SequentialPolicyTest {};

TEST_P(AdversaryTest, AdversaryOfTheorems21And22) {
  for (const int m : {1, 3}) {
    if (m - GetParam().options.reserve < 1) continue;
    std::vector<JobSpec> specs(static_cast<std::size_t>(m), JobSpec{0.0, 10.0});
    const OnlineWorkload workload = rigid_workload({m}, [&] {
      auto all = specs;
      all.push_back({0.0, 1.0});
      return all;
    }());
    const auto policy = make(workload);
    std::vector<std::size_t> pending;
    std::vector<int> free{m};
    for (std::size_t j = 0; j < specs.size(); ++j) {
      pending.push_back(j);
      policy->released(j, {workload, 0.0, pending, {}, free});
    }
    const std::vector<Placement> first = policy->plan({workload, 0.0, pending, {}, free});
    std::vector<RunningJob> running;
    for (const Placement& placement : first) {
      if (placement.start != 0.0) continue;
      running.push_back({placement.job, placement.alloc, 0.0, placement.end});
    }
    ASSERT_EQ(running.size(), specs.size()) << "m = " << m << ": the long jobs start at once";
    const std::vector<std::size_t> adversary{specs.size()};
    const std::vector<int> none{0};
    policy->released(specs.size(), {workload, 0.0, adversary, running, none});
    std::vector<Placement> second = policy->plan({workload, 0.0, adversary, running, none});
    if (second.empty()) {  // the policy omits future placements (conservative past its cut): ask again at 10
      const std::vector<int> all{m};
      second = policy->plan({workload, 10.0, adversary, {}, all});
      ASSERT_FALSE(second.empty());
    }
    EXPECT_EQ(second[0].start, 10.0) << "m = " << m;
    EXPECT_EQ((OnlineState{workload, 10.0, adversary, {}, none}.stretch_at(specs.size(), second[0].end)), 11.0);
  }
}

INSTANTIATE_TEST_SUITE_P(Online, SequentialPolicyTest, ::testing::ValuesIn(kPolicies), case_name);
INSTANTIATE_TEST_SUITE_P(Online, AdversaryTest, ::testing::ValuesIn(kPolicies.begin(), kPolicies.end() - 1), case_name);

// Theorem 3.1: FCFS's maximum stretch is within Delta + (1 - 1/m)(Delta + 1) of the optimum (offline, exact on
// tiny instances), Delta the ratio of the longest to the shortest job.
TEST(Fcfs, Theorem31AgainstTheExactOptimum) {
  for (std::uint64_t seed = 0; seed < 120; ++seed) {
    const int m = 1 + static_cast<int>(seed % 2);
    const std::vector<JobSpec> specs = testing::random_sequential_jobs(seed, 2 + seed % 5, 6.0, 6);
    const OnlineWorkload workload = rigid_workload({m}, specs);
    const auto policy = make_online_policy("fcfs", {}, workload);
    const double online = testing::replay(workload, *policy).max_stretch(workload);
    std::vector<std::pair<double, double>> jobs;
    for (const JobSpec& spec : specs) jobs.emplace_back(spec.release, spec.time);
    const double optimum = testing::brute_force_max_stretch(jobs, std::vector<double>(static_cast<std::size_t>(m)));
    const auto& times = workload.reference_time;
    const auto [shortest, longest] = std::minmax_element(times.begin(), times.end());
    const double delta = *longest / *shortest;
    EXPECT_LE(online, (delta + (1.0 - 1.0 / m) * (delta + 1.0)) * optimum + 1e-9) << "seed " << seed;
    EXPECT_GE(online, optimum - 1e-9) << "seed " << seed;
  }
}

TEST(OnlinePolicyRegistry, ListsTheSequentialPoliciesFirstInOrder) {
  const std::vector<std::string> names = online_policy_names();
  ASSERT_GE(names.size(), kPolicies.size());
  for (std::size_t k = 0; k < kPolicies.size(); ++k) EXPECT_EQ(names[k], kPolicies[k].name);
}

TEST(OnlinePolicyOptions, ReservationRefusesBadReserveAndThreshold) {
  const OnlineWorkload workload = rigid_workload({300}, {{0.0, 1.0}});
  EXPECT_EQ(usage_error_of("dasedf-reservation", {.reserve = 0, .threshold = 2.0}, workload),
            "dasedf-reservation needs --reserve X with 1 <= X < 300 (got 0)");
  EXPECT_EQ(usage_error_of("fcfs-reservation", {.reserve = 300, .threshold = 2.0}, workload),
            "fcfs-reservation needs --reserve X with 1 <= X < 300 (got 300)");
  EXPECT_EQ(usage_error_of("fcfs-reservation", {.reserve = 10, .threshold = 0.0}, workload),
            "fcfs-reservation needs --threshold T, a stretch > 0 (got 0)");
  EXPECT_EQ(usage_error_of("fcfs-reservation", {.reserve = 10, .threshold = std::nan("")}, workload),
            "fcfs-reservation needs --threshold T, a stretch > 0 (got nan)");
  EXPECT_EQ(usage_error_of("fcfs-reservation", {.reserve = 299, .threshold = 2.0}, workload), "accepted");
}

TEST(OnlinePolicyOptions, SplitRefusesABadNumberOfGroups) {
  const OnlineWorkload workload = rigid_workload({300}, {{0.0, 1.0}});
  for (const double rho : {1.0, 2.5, 301.0, std::numeric_limits<double>::infinity()}) {
    EXPECT_NE(usage_error_of("split", {.rho = rho}, workload), "accepted") << rho;
  }
  EXPECT_EQ(usage_error_of("split", {.rho = 1.5}, workload),
            "split needs --rho R, an integer with 2 <= R <= 300 (got 1.5)");
  EXPECT_EQ(usage_error_of("split", {.rho = 300.0}, workload), "accepted");
}

// A rigid job larger than every part can never run there: refused up front, naming the job.
TEST(OnlinePolicyOptions, PartsTooSmallForAJobAreRefused) {
  const OnlineWorkload six = rigid_workload({9}, {{0.0, 1.0, {6}}, {0.0, 1.0}});
  EXPECT_EQ(usage_error_of("fcfs-reservation", {.reserve = 2, .threshold = 2.0}, six), "accepted");
  EXPECT_EQ(usage_error_of("fcfs-reservation", {.reserve = 4, .threshold = 2.0}, six),
            "fcfs-reservation with --reserve 4: job j0 needs (6), more than the main part (5) and the auxiliary "
            "part (4) each have");
  const OnlineWorkload five = rigid_workload({9}, {{0.0, 1.0, {5}}, {0.0, 1.0}});
  EXPECT_EQ(usage_error_of("split", {.rho = 2.0}, five), "accepted");  // groups of 4 and 5
  EXPECT_EQ(usage_error_of("split", {.rho = 3.0}, five),
            "split with --rho 3: job j0 needs (5), more than the largest group (3)");
}

}  // namespace
}  // namespace cosched::online
