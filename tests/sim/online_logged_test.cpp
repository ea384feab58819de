// The policy `logged` on the engine: a trace replayed on its own machine is the log's schedule (every job starts at
// submit + wait, an instant no release or completion marks); on a smaller machine a job whose logged start has
// passed starts as soon as it fits, in logged-start order; a trace without wait times is refused.
#include <gtest/gtest.h>

#include <string>

#include "cosched/common/error.hpp"
#include "cosched/sim/plan.hpp"
#include "cosched/online/swf.hpp"
#include "online_support.hpp"

namespace cosched::sim {
namespace {

std::string swf_job(int number, int submit, int wait, int run, int procs) {
  return std::to_string(number) + " " + std::to_string(submit) + " " + std::to_string(wait) + " " +
         std::to_string(run) + " " + std::to_string(procs) + " -1 -1 " + std::to_string(procs) +
         " -1 -1 1 1 1 -1 1 -1 -1 -1\n";
}

// On 4 processors: a 2-processor job submitted at 0 that waited 5; a 3-processor one at 1 that waited 10 (it ran
// after the first); a 1-processor one at 2 that waited 0.
const std::string kLog = "; MaxProcs: 4\n" + swf_job(1, 0, 5, 10, 2) + swf_job(2, 1, 14, 3, 3) + swf_job(3, 2, 0, 4, 1);

EngineResult replay(const std::string& log, std::optional<int> procs) {
  online::SwfOptions options;
  options.procs = procs;
  const LaunchPlan plan = online_plan(
      std::make_shared<const online::OnlineWorkload>(
          online::workload_from_swf(online::parse_swf(log, "log.swf"), options)),
      {});
  EngineResult result = testing::run_online(plan, "logged");
  EXPECT_EQ(result.completed, plan.tasks.size());
  EXPECT_TRUE(result.overcommit_refusals.empty());
  return result;
}

TEST(LoggedPolicy, ReplaysTheLogsStartsOnItsOwnMachine) {
  const EngineResult result = replay(kLog, std::nullopt);
  EXPECT_DOUBLE_EQ(result.runs[0].launch.start, 5.0);
  EXPECT_DOUBLE_EQ(result.runs[1].launch.start, 15.0);
  EXPECT_DOUBLE_EQ(result.runs[2].launch.start, 2.0);
}

TEST(LoggedPolicy, OnASmallerMachineAJobWhoseStartPassedWaitsUntilItFits) {
  // On 2 processors the third job (1 processor, logged start 2) runs 2..6 and the first (2 processors, logged
  // start 5) waits for it; the second asks for 3 > 2 processors and is dropped from the trace.
  const EngineResult result = replay(kLog, 2);
  ASSERT_EQ(result.runs.size(), 2u);
  EXPECT_DOUBLE_EQ(result.runs[1].launch.start, 2.0);
  EXPECT_DOUBLE_EQ(result.runs[0].launch.start, 6.0);
}

TEST(LoggedPolicy, RefusesATraceWithoutWaitTimes) {
  const std::string log = "; MaxProcs: 4\n" + swf_job(1, 0, -1, 10, 2);
  try {
    (void)replay(log, std::nullopt);
    FAIL() << "a trace without wait times was replayed";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("logged start"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace cosched::sim
