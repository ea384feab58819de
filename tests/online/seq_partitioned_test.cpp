// The partitioned policies: the reservation scheme's commitment rule (Sec. 4), Split on Theorem 3.5's adversary
// (Sec. 3.3.2), and how the parts share the machine's resources.
#include <gtest/gtest.h>

#include <cmath>

#include "online/support.hpp"

namespace cosched::online {
namespace {

using testing::JobSpec;

// Releases the jobs (all at time 0) one by one, each right after the previous plan started what it could: the
// adversary of Theorems 2.1 and 3.5. Returns when each job started.
std::vector<double> release_one_by_one(const OnlineWorkload& workload, OnlinePolicy& policy) {
  return testing::replay(workload, policy, {}, testing::Releases::one_by_one).start;
}

// Theorem 3.5's adversary with Delta = 16: rho + 1 jobs of sizes 16, 16^((rho-1)/rho), ..., 1 released in that
// order on rho groups of one processor. Each size class gets its own group except the two smallest, since a size
// on a class boundary goes to the lower class: the last job waits for the previous one, stretch 1 + Delta^(1/rho).
TEST(Split, Theorem35Adversary) {
  for (const int rho : {2, 4}) {
    std::vector<JobSpec> specs;
    for (int k = rho; k >= 0; --k) specs.push_back({0.0, std::pow(16.0, static_cast<double>(k) / rho)});
    const OnlineWorkload workload = testing::rigid_workload({rho}, specs);
    const auto policy = make_online_policy("split", {.rho = static_cast<double>(rho)}, workload);
    const std::vector<double> start = release_one_by_one(workload, *policy);
    const double root = std::pow(16.0, 1.0 / rho);
    for (std::size_t job = 0; job + 1 < specs.size(); ++job) EXPECT_EQ(start[job], 0.0) << "rho " << rho;
    EXPECT_EQ(start.back(), root) << "rho " << rho;
    EXPECT_EQ((start.back() + 1.0) / 1.0, 1.0 + root);
  }
}

struct ReservationCase {
  std::string name;
  double short_job_start;  // in the second test: where the inner policy lets the short job start
};

void PrintTo(const ReservationCase& reservation_case, std::ostream* out) { *out << reservation_case.name; }

class ReservationTest : public ::testing::TestWithParam<ReservationCase> {};

// Three processors, one reserved. Two jobs of size 10 fill the main part; a third would wait 10 there (stretch 2).
// Under T = 2 it goes to the idle auxiliary processor; under T = 2.5 it stays and waits, the auxiliary part idle.
TEST_P(ReservationTest, TheThresholdDecidesWhenTheAuxiliaryPartIsTried) {
  const OnlineWorkload workload = testing::rigid_workload({3}, {{0.0, 10.0}, {0.0, 10.0}, {0.0, 10.0}});
  for (const auto& [threshold, third_start] : {std::pair{2.0, 0.0}, std::pair{2.5, 10.0}}) {
    const auto policy = make_online_policy(GetParam().name, {.reserve = 1, .threshold = threshold}, workload);
    const std::vector<double> start = release_one_by_one(workload, *policy);
    EXPECT_EQ(start[0], 0.0);
    EXPECT_EQ(start[1], 0.0);
    EXPECT_EQ(start[2], third_start) << "T = " << threshold;
  }
}

// Under T = 0.5 every job is compared: the part with the smaller planned maximum stretch wins, ties to the main
// part, and a job too large for a part goes to the other. Three processors, one reserved.
TEST_P(ReservationTest, SmallerPlannedStretchWinsAndTiesStayInTheMainPart) {
  const OnlineWorkload workload =
      testing::rigid_workload({3}, {{0.0, 10.0}, {0.0, 10.0, {2}}, {0.0, 10.0}, {0.0, 5.0}});
  const auto policy = make_online_policy(GetParam().name, {.reserve = 1, .threshold = 0.5}, workload);
  const std::vector<double> start = release_one_by_one(workload, *policy);
  EXPECT_EQ(start[0], 0.0);   // stretch 1 in either part: the main part
  EXPECT_EQ(start[1], 10.0);  // two processors: only the main part holds it; waits for job 0
  EXPECT_EQ(start[2], 0.0);   // main: after job 1 at 20 (stretch 3); auxiliary: now (stretch 1)
  // Main: FCFS runs it after job 1 (stretch 5), DASEDF before it, now (stretch 1; job 1 keeps 2); auxiliary: after
  // job 2 at 10 (stretch 3).
  EXPECT_EQ(start[3], GetParam().short_job_start);
}

INSTANTIATE_TEST_SUITE_P(Online, ReservationTest,
                         ::testing::Values(ReservationCase{"fcfs-reservation", 10.0},
                                           ReservationCase{"dasedf-reservation", 0.0}),
                         [](const auto& param_info) {
                           return param_info.param.name == "fcfs-reservation" ? "fcfs" : "dasedf";
                         });

// Resource 0 is split as asked; the other resources in proportion, rounded down, the rest to the largest part.
// The error naming the parts shows their capacities: (10 cores, 5 chunks) with X = 3 gives main (7, 4) and
// auxiliary (3, 1); three groups give (3, 1), (3, 1) and (4, 3).
TEST(PartitionedPolicies, OtherResourcesAreSplitInProportion) {
  const OnlineWorkload workload = testing::rigid_workload({10, 5}, {{0.0, 1.0, {8, 1}}, {0.0, 1.0, {1, 3}}});
  EXPECT_EQ(testing::usage_error_of("fcfs-reservation", {.reserve = 3, .threshold = 2.0}, workload),
            "fcfs-reservation with --reserve 3: job j0 needs (8, 1), more than the main part (7, 4) and the "
            "auxiliary part (3, 1) each have");
  EXPECT_EQ(testing::usage_error_of("split", {.rho = 3.0}, workload),
            "split with --rho 3: job j0 needs (8, 1), more than the largest group (4, 3)");
}

}  // namespace
}  // namespace cosched::online
