// A BSP batch sampled from a trace (online/bsp_batch.hpp): only usable jobs are sampled, without replacement and the
// same for a seed, each a BspProfile of its size and run time; asking for more tasks than usable jobs is refused.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <utility>
#include <string>

#include "cosched/common/error.hpp"
#include "cosched/sched/bsp.hpp"
#include "cosched/online/bsp_batch.hpp"

namespace cosched::sched {
namespace {

// m = 8: jobs 1, 2 and 5 are usable; job 3 is wider than 8, job 4 has no run time.
online::SwfTrace trace() {
  return online::parse_swf("; MaxProcs: 8\n"
                           "1 0 0 10 3 -1 -1 3 -1 -1 1 1 1 -1 1 -1 -1 -1\n"
                           "2 5 0 20 8 -1 -1 8 -1 -1 1 1 1 -1 1 -1 -1 -1\n"
                           "3 6 0 30 16 -1 -1 16 -1 -1 1 1 1 -1 1 -1 -1 -1\n"
                           "4 7 0 -1 2 -1 -1 2 -1 -1 1 1 1 -1 1 -1 -1 -1\n"
                           "5 9 0 40 -1 -1 -1 5 -1 -1 1 1 1 -1 1 -1 -1 -1\n",
                           "t.swf");
}

TEST(BspBatch, SamplesUsableJobsWithoutReplacement) {
  const Instance instance = sample_bsp_batch(trace(), {8, 3, 4}, "t.swf");
  ASSERT_EQ(instance.task_count(), 3u);
  EXPECT_EQ(instance.resources().front().name, "procs");
  EXPECT_EQ(instance.resources().front().capacity, 8);
  std::set<std::string> ids;
  for (const Task& task : instance.tasks()) ids.insert(task.id);
  EXPECT_EQ(ids, (std::set<std::string>{"job-1", "job-2", "job-5"}));
  for (const Task& task : instance.tasks()) {
    const auto* bsp = dynamic_cast<const BspProfile*>(task.profile.get());
    ASSERT_NE(bsp, nullptr) << task.id;
    const std::map<std::string, std::pair<int, double>> logged{{"job-1", {3, 10.0}}, {"job-2", {8, 20.0}},
                                                               {"job-5", {5, 40.0}}};
    EXPECT_EQ(bsp->req(), logged.at(task.id).first) << task.id;
    EXPECT_EQ(bsp->time_at_req(), logged.at(task.id).second) << task.id;
  }
  EXPECT_EQ(instance.attributes().at("workload"),
            "3 BSP tasks sampled (seed 4) from t.swf: 3 usable of 5 jobs, 1 wider than 8 processors");
}

TEST(BspBatch, TheSameSampleForASeed) {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    const Instance a = sample_bsp_batch(trace(), {8, 2, seed}, "t.swf");
    const Instance b = sample_bsp_batch(trace(), {8, 2, seed}, "t.swf");
    ASSERT_EQ(a.task_count(), 2u);
    EXPECT_EQ(a.tasks()[0].id, b.tasks()[0].id);
    EXPECT_EQ(a.tasks()[1].id, b.tasks()[1].id);
    EXPECT_NE(a.tasks()[0].id, a.tasks()[1].id);
  }
}

TEST(BspBatch, MoreTasksThanUsableJobsIsRefused) {
  try {
    (void)sample_bsp_batch(trace(), {8, 4, 1}, "t.swf");
    FAIL() << "4 tasks out of 3 usable jobs were sampled";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "--tasks 4: t.swf has 3 usable jobs on 8 processors");
  }
}

}  // namespace
}  // namespace cosched::sched
