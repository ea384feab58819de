// The moldable online policies replayed on small random workloads (a cluster and a two-resource node): every plan
// they return is checked (no over-commitment of any resource at any instant, nothing before now, what starts now
// fits), and every job starts once, after its release, and ends at its time for the allocation it got.
#include <gtest/gtest.h>

#include <algorithm>

#include "cosched/online/moldable.hpp"
#include "online/support.hpp"

namespace cosched::online {
namespace {

struct PolicyCase {
  const char* label;
  const char* policy;
  double rho;
};

void PrintTo(const PolicyCase& param, std::ostream* out) { *out << param.label; }

class MoldableReplayTest : public ::testing::TestWithParam<PolicyCase> {};

TEST_P(MoldableReplayTest, EveryPlanIsValidAndEveryJobRunsOnce) {
  const PolicyCase& param = GetParam();
  for (std::uint64_t seed = 0; seed < 12; ++seed) {
    const std::vector<int> capacities = seed % 3 == 0 ? std::vector<int>{4, 4} : std::vector<int>{12};
    const OnlineWorkload workload = testing::random_moldable_workload(100 + seed, capacities, 40, 60.0);
    OnlineOptions options;
    options.rho = param.rho;
    const auto policy = make_online_policy(param.policy, options, workload);
    const testing::Replay result = testing::replay(workload, *policy);
    for (std::size_t job = 0; job < workload.arrivals.size(); ++job) {
      ASSERT_FALSE(result.alloc[job].empty()) << "seed " << seed << ": job " << job << " never started";
      EXPECT_GE(result.start[job], workload.arrivals[job].release) << "seed " << seed << ", job " << job;
      EXPECT_EQ(result.end[job], result.start[job] + job_time(workload, job, result.alloc[job]));
    }
    EXPECT_GE(result.plans, workload.arrivals.size() / 4) << "seed " << seed;
  }
}

INSTANTIATE_TEST_SUITE_P(Moldable, MoldableReplayTest,
                         ::testing::Values(PolicyCase{"dbos1", "dbos", 1.0}, PolicyCase{"dbos1_5", "dbos", 1.5},
                                           PolicyCase{"dbos3", "dbos", 3.0}, PolicyCase{"iterative", "iterative", 1.0},
                                           PolicyCase{"improved_iterative", "improved-iterative", 1.0}),
                         [](const auto& param_info) { return std::string(param_info.param.label); });

// Listed together, after the sequential ones of seed 000 (the policies of later seeds follow them).
TEST(MoldableRegistryTest, TheMoldablePoliciesFollowTheSequentialOnes) {
  const std::vector<std::string> names = online_policy_names();
  const auto dbos = std::find(names.begin(), names.end(), "dbos");
  ASSERT_GE(names.end() - dbos, 3);
  EXPECT_EQ(std::vector<std::string>(dbos, dbos + 3),
            (std::vector<std::string>{"dbos", "iterative", "improved-iterative"}));
  EXPECT_EQ(std::find(names.begin(), dbos, "split") + 1, dbos);
}

}  // namespace
}  // namespace cosched::online
