// The online workload: the stretch reference rule, the checks of make_online_workload (each error names the source
// and the job), the paper's load, and node workloads read from an Instance's task attributes.
#include "cosched/online/workload.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "cosched/common/error.hpp"
#include "cosched/sched/io.hpp"
#include "cosched/online/profiles.hpp"
#include "sched/test_support.hpp"
#include "support/files.hpp"

namespace cosched::online {
namespace {

using sched::testing::kInf;

sched::Instance sequential_instance(const std::vector<double>& sizes, int procs = 4) {
  std::vector<sched::Task> tasks;
  for (std::size_t j = 0; j < sizes.size(); ++j) {
    tasks.push_back({sched::testing::numbered("job-", j), std::make_shared<SequentialProfile>(sizes[j])});
  }
  return sched::Instance({{"procs", procs}}, std::move(tasks));
}

std::vector<JobArrival> released_at(const std::vector<double>& releases) {
  std::vector<JobArrival> arrivals;
  for (const double r : releases) arrivals.push_back({r, "", std::nullopt});
  return arrivals;
}

TEST(StretchReference, IsOneUnitOfTheFirstResourceWhenFinite) {
  const sched::Instance instance = sched::testing::dense_instance({2, 2}, {{kInf, kInf, kInf, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0}});
  const auto reference = stretch_reference(instance, 0);
  EXPECT_EQ(reference.alloc, 3u);  // (1, 0)
  EXPECT_EQ(reference.time, 6.0);
}

TEST(StretchReference, IsTheLeastAreaAllocationOfARigidJob) {
  const sched::Instance rigid({{"procs", 512}}, {{"wide", std::make_shared<RigidProfile>(64, 10.0)}});
  const auto reference = stretch_reference(rigid, 0);
  EXPECT_EQ(reference.alloc, 64u);
  EXPECT_EQ(reference.time, 10.0);
}

TEST(StretchReference, BreaksAreaTiesBySmallerTimeThenSmallerIndex) {
  // Capacities (2, 2); (1, 0) is infinite. Shares: (2,0) = 1 -> area 1 * 3 = 3; (1,1) = 1 -> area 1 * 3 = 3;
  // (0,2) infinite; (1,2) = 1.5 -> 1.5 * 2 = 3 with the smaller time 2: it wins the tie.
  const sched::Instance ties = sched::testing::dense_instance({2, 2}, {{kInf, kInf, kInf, kInf, 3.0, 2.0, 3.0, 3.0, 2.0}});
  const auto reference = stretch_reference(ties, 0);
  EXPECT_EQ(reference.alloc, 5u);
  EXPECT_EQ(reference.time, 2.0);
  // Equal area and time: the smaller index, (1, 1) before (2, 0).
  const sched::Instance same = sched::testing::dense_instance({2, 2}, {{kInf, kInf, kInf, kInf, 3.0, 3.0, 3.0, 3.0, 3.0}});
  EXPECT_EQ(stretch_reference(same, 0).alloc, 4u);
}

TEST(MakeOnlineWorkload, ComputesReferencesAndKeepsArrivals) {
  auto arrivals = released_at({0.0, 5.0, 2.0});
  arrivals[1].user = "alice";
  arrivals[1].estimate = 30.0;
  const auto workload = make_online_workload("w", "test", sequential_instance({1.0, 4.0, 2.5}), arrivals);
  EXPECT_EQ(workload.reference_time, (std::vector<double>{1.0, 4.0, 2.5}));
  EXPECT_EQ(workload.reference_alloc, (std::vector<std::size_t>{1, 1, 1}));
  EXPECT_EQ(workload.arrivals[1].user, "alice");
  EXPECT_EQ(workload.arrivals[2].release, 2.0);
  EXPECT_DOUBLE_EQ(workload_load(workload), 7.5 / 5.0);
}

TEST(MakeOnlineWorkload, LoadIsZeroWithoutTwoDistinctReleases) {
  const auto workload = make_online_workload("w", "test", sequential_instance({1.0, 2.0}), released_at({3.0, 3.0}));
  EXPECT_EQ(workload_load(workload), 0.0);
}

struct BadArrival {
  std::string name;
  std::function<void(std::vector<JobArrival>&)> spoil;
  std::string message;
};

void PrintTo(const BadArrival& c, std::ostream* out) { *out << c.name; }

class MakeOnlineWorkloadRefuses : public ::testing::TestWithParam<BadArrival> {};

TEST_P(MakeOnlineWorkloadRefuses, NamingTheSourceAndTheJob) {
  auto arrivals = released_at({0.0, 1.0});
  GetParam().spoil(arrivals);
  const std::string what = test_support::input_error_of(
      [&] { (void)make_online_workload("w", "trace.swf", sequential_instance({1.0, 2.0}), arrivals); });
  EXPECT_EQ(what.rfind("trace.swf: ", 0), 0u) << what;
  EXPECT_NE(what.find(GetParam().message), std::string::npos) << what;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, MakeOnlineWorkloadRefuses,
    ::testing::Values(
        BadArrival{"negative_release", [](auto& a) { a[1].release = -1.0; }, "job \"job-1\": the release time"},
        BadArrival{"nan_release", [](auto& a) { a[0].release = NAN; }, "job \"job-0\": the release time"},
        BadArrival{"infinite_release", [](auto& a) { a[1].release = kInf; }, "the release time must be finite"},
        BadArrival{"zero_estimate", [](auto& a) { a[1].estimate = 0.0; }, "job \"job-1\": the estimate"},
        BadArrival{"unsafe_user", [](auto& a) { a[0].user = "../etc"; }, "job \"job-0\": user"},
        BadArrival{"missing_arrival", [](auto& a) { a.pop_back(); }, "1 arrivals for 2 jobs"}),
    [](const ::testing::TestParamInfo<BadArrival>& param_info) { return param_info.param.name; });

TEST(MakeOnlineWorkload, RefusesJobsThatCanNeverRunOrTakeNoTime) {
  const sched::Instance never = sched::testing::dense_instance({1}, {{kInf, 1.0}, {kInf, kInf}});
  EXPECT_THROW((void)make_online_workload("w", "s", never, released_at({0, 0})), InputError);
  const sched::Instance instant = sched::testing::dense_instance({1}, {{kInf, 0.0}});
  EXPECT_THROW((void)make_online_workload("w", "s", instant, released_at({0})), InputError);
  EXPECT_THROW((void)make_online_workload("w", "s", sched::Instance({{"procs", 2}}, {}), {}), InputError);
}

TEST(OnlineWorkloadFromInstance, ReadsReleaseAndUserFromTheTaskAttributes) {
  const sched::Instance instance = sched::parse_instance(R"({
    "resources": [{"name": "cores", "capacity": 2}, {"name": "fast_chunks", "capacity": 1}],
    "workload": "mix",
    "tasks": [{"id": "a", "times": [null, null, 4.0, 3.0, 2.0, 1.5], "kernel": "triad", "release_s": 2.5,
               "user": "bob"},
              {"id": "b", "times": [null, null, 2.0, 2.0, 1.0, 1.0]}]})",
                                           "mix.json");
  const auto workload = online_workload_from_instance(instance, "mix.json");
  EXPECT_EQ(workload.name, "mix");
  EXPECT_EQ(workload.arrivals[0].release, 2.5);
  EXPECT_EQ(workload.arrivals[0].user, "bob");
  EXPECT_EQ(workload.arrivals[1].release, 0.0);
  EXPECT_EQ(workload.arrivals[1].user, "");
  EXPECT_EQ(workload.reference_time, (std::vector<double>{4.0, 2.0}));  // 1 core, no fast chunk
  EXPECT_EQ(workload.reference_alloc, (std::vector<std::size_t>{2, 2}));
}

TEST(OnlineWorkloadFromInstance, RefusesBadAttributesNamingTheTask) {
  for (const std::string attributes : {R"("release_s": -1)", R"("release_s": "soon")", R"("user": 7)",
                                       R"("user": "a b")"}) {
    std::string text = R"({"resources": [{"name": "cores", "capacity": 1}],
                           "tasks": [{"id": "t", "times": [null, 1.0], )";
    const sched::Instance instance = sched::parse_instance(text.append(attributes).append("}]}"), "i.json");
    const std::string what =
        test_support::input_error_of([&] { (void)online_workload_from_instance(instance, "i.json"); });
    EXPECT_NE(what.find("i.json: job \"t\""), std::string::npos) << attributes << " -> " << what;
  }
}

}  // namespace
}  // namespace cosched::online
