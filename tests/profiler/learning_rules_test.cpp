// Rules of the learning loop (learning.hpp) that the mutation testing of issue 41 found untested: a probe made at
// the kind's least amount of work is read at the task's amount (the same slowdown, the task's time); the adaptive
// strategy refines where the plan puts the kind; and every run (and probe) is in the store as soon as it is
// measured, so a call that dies while it measures loses only the run in progress.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cosched/exec/task_command.hpp"
#include "cosched/profiler/knowledge_store.hpp"
#include "cosched/profiler/learning.hpp"
#include "cosched/profiler/task_kinds.hpp"
#include "cosched/profiler/traffic.hpp"
#include "support/recording_reporter.hpp"
#include "test_support.hpp"

namespace cosched::profiler {
namespace {

using testing::command_task;

class LearningRules : public ::testing::Test {
 protected:
  std::filesystem::path root = testing::scratch_dir("learning-rules");
  ProfileCache cache{root, NodeFingerprint{"host", "Some CPU", 8, "none", 5.0}};
  test_support::RecordingReporter reporter;

  LearningOptions options(unsigned cores, std::optional<double> budget) {
    LearningOptions result;
    result.launched.platform = testing::cores_only_platform(cores);
    result.launched.tier = exec::TierSetup{};
    result.launched.reporter = &reporter;
    result.budget.seconds = budget;
    return result;
  }
  // Stores `runs` (observed) and `probe`, if any, as what is known of the kind of workload.tasks[0].
  void store(const config::Workload& workload, const std::vector<knowledge::Measurement>& runs,
             const std::optional<KnownProbe>& probe) {
    config::Workload copy = workload;
    const std::vector<TaskKind> kinds = task_kinds(copy, "preferred");
    KindKnowledge known = look_up_knowledge(cache, kinds.front().identity).knowledge;
    for (const knowledge::Measurement& run : runs) known.add({run, RunSource::observed, ""});
    known.probe = probe;
    store_knowledge(cache, known);
  }
};

// L4: the probe ran at the kind's least amount (50 units: 2 s alone, 2.4 s beside a copy, a slowdown of 1.2); the
// task runs 100 units (4 s on one core by its runs). Read with the node's one DRAM pool (20 GB/s to one core, 30 to
// two), a slowdown of 1.2 is 12 GB/s on average (by hand: tests/profiler/traffic_test.cpp, ProbedTraffic): the task
// moves 12 GB/s over its own 4 s, 48 GB a run. A probe scaled the other way would read as a slowdown of 0.3.
TEST_F(LearningRules, AProbeAtTheLeastAmountIsReadAtTheTasksAmountWithItsSlowdownKept) {
  config::Workload workload;
  workload.name = "probed";
  workload.tasks = {command_task("s", {"sh", "-c", "exit 0", "{work}"}, config::WorkScale{100, {50}})};
  store(workload, {{1, 0, 100.0, 4.0}, {2, 0, 100.0, 2.4}}, KnownProbe{1, 50.0, 2.0, 2.4, 2.4, 2.4, ""});
  const BatchKnowledge known = learn_batch(workload, cache, options(2, 0.0));  // nothing measured now
  ASSERT_EQ(known.runs, 0U);
  NodeBandwidth bandwidth;
  bandwidth.model.pools.push_back({"dram", {1, 2}, {20e9, 30e9}});
  const KnowledgeInstance made =
      knowledge_instance(workload, known, testing::cores_only_platform(2), &bandwidth, false);
  const nlohmann::json& found = made.instance.attributes().at("command_traffic").at(workload.tasks[0].profile);
  const double alone = known.of(workload.tasks[0]).fits.at(100.0)->at(1, 0).seconds;
  EXPECT_NEAR(alone, 4.0, 0.2);
  EXPECT_NEAR(found.at("alone_s").get<double>(), alone, 1e-12) << found.dump();
  EXPECT_NEAR(found.at("slowdown").get<double>(), 1.2, 1e-12) << found.dump();
  EXPECT_NEAR(found.at("average_gbs").get<double>(), 12.0, 1e-6) << found.dump();
  EXPECT_NEAR(found.at("bytes_per_run").get<double>(), 12e9 * alone, 1e-3 * 12e9 * alone) << found.dump();
}

// The times a plan is chosen on (workflow/src/batch_plan.cpp): the instance at the fits' expected times — where the
// kind ran, next to its median; where it never ran, charged for the fit's uncertainty there (here the one-count prior
// from 1 core to 8); a guessed task at the guess in both.
TEST_F(LearningRules, ThePlansTimesChargeEachFittedTimeForItsUncertainty) {
  config::Workload workload;
  workload.name = "charged";
  workload.tasks = {command_task("s", {"sh", "-c", "exit 0", "{work}"}, config::WorkScale{100, {50}}),
                    command_task("u", {"true"})};
  store(workload, {{1, 0, 100.0, 4.0}, {1, 0, 100.0, 4.1}}, std::nullopt);
  const BatchKnowledge known = learn_batch(workload, cache, options(8, 0.0));
  const config::PlatformConfig platform = testing::cores_only_platform(8);
  const sched::Instance medians = knowledge_instance(workload, known, platform, nullptr, false).instance;
  const sched::Instance expected =
      knowledge_instance(workload, known, platform, nullptr, false, knowledge::kExpectedTimes).instance;
  const knowledge::FittedTask& fit = *known.of(workload.tasks[0]).fits.at(100.0);
  const auto charge = [&](int cores) {
    const int alloc[1] = {cores};
    return expected.time(0, alloc) / medians.time(0, alloc);
  };
  const auto sd = [&](int cores) { return fit.at(cores, 0).log_sd; };
  // At the measured count (nothing below it to close over) the charge is e^(sd^2 / 2) exactly; at 8 cores, carried
  // by the prior, at most that (the table is closed) and more than where the kind ran.
  EXPECT_NEAR(charge(1), std::exp(0.5 * sd(1) * sd(1)), 1e-12);
  EXPECT_LE(charge(8), std::exp(0.5 * sd(8) * sd(8)) * (1 + 1e-12));
  EXPECT_GT(charge(8), charge(1)) << sd(1) << " " << sd(8);
  const int one[1] = {1};
  EXPECT_DOUBLE_EQ(expected.time(1, one), medians.time(1, one));
  EXPECT_TRUE(expected.tasks()[1].attributes.value("unknown", false));
}

// L5: the adaptive strategy refines the point where the plan puts the kind. Two tasks of one kind on 8 cores, known
// at the strategy's first points (8, 2 twice, 1 core; about Amdahl with a tenth serial): the plan puts them where
// nothing was measured (4 cores each), a run there is wanted — and with a budget far too small for it, cut off and
// said. Known at every core count, no run is wanted. Given no planned allocation the strategy wants nothing in both.
struct PlannedCase {
  const char* name;
  std::vector<int> known_cores;
  bool wants_a_run;
};

class PlannedAllocation : public LearningRules, public ::testing::WithParamInterface<PlannedCase> {};

TEST_P(PlannedAllocation, RefinesWhereThePlanPutsTheKind) {
  config::Workload workload;
  workload.name = "planned";
  workload.tasks = {command_task("a", {"sh", "-c", "exit 0"}), command_task("b", {"sh", "-c", "exit 0"})};
  std::vector<knowledge::Measurement> runs;
  for (const int p : GetParam().known_cores) runs.push_back({p, 0, 1.0, 8.0 * (0.1 + 0.9 / p)});
  store(workload, runs, KnownProbe{4, 1.0, 2.6, 2.6, 2.6, 2.6, ""});
  LearningOptions tiny = options(8, 1e-6);
  tiny.strategy_options.tolerance = 0.0;  // every point not measured is worth a run
  const BatchKnowledge known = learn_batch(workload, cache, tiny);
  EXPECT_EQ(known.runs, 0U);
  EXPECT_EQ(known.stopped_by_budget, GetParam().wants_a_run) << reporter.text_of("note");
}

INSTANTIATE_TEST_SUITE_P(Known, PlannedAllocation,
                         ::testing::Values(PlannedCase{"AtTheFirstPoints", {8, 2, 2, 1}, true},
                                           PlannedCase{"AtEveryCoreCount", {8, 7, 6, 5, 4, 3, 2, 2, 1}, false}),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

// Item 2: a call that dies while it measures (a SIGKILL, a crash) loses only the run in progress. Here the reporter
// throws when told of the n-th thing measured (a run by its progress, a probe by its note), after it was measured:
// the store then holds every run and probe the reporter was told of, none lost with the call.
class ThrowingReporter final : public Reporter {
 public:
  ThrowingReporter(std::size_t runs, std::size_t probes) : throw_at_run_(runs), throw_at_probe_(probes) {}
  void progress(const Progress& /*progress*/) override {
    if (++runs_seen == throw_at_run_) throw std::runtime_error("killed after a run");
  }
  void progress_done(std::string_view /*operation*/) override {}
  void note(std::string_view line) override {
    if (line.starts_with("probed ") && ++probes_seen == throw_at_probe_) throw std::runtime_error("killed");
  }
  void warning(std::string_view /*line*/) override {}
  void result(const Result& /*result*/) override {}
  std::size_t runs_seen = 0;
  std::size_t probes_seen = 0;

 private:
  std::size_t throw_at_run_;
  std::size_t throw_at_probe_;
};

struct KilledCase {
  const char* name;
  std::size_t at_run;    // 0: never
  std::size_t at_probe;  // 0: never
};

class StoredAsMeasured : public LearningRules, public ::testing::WithParamInterface<KilledCase> {};

TEST_P(StoredAsMeasured, ACallThatDiesWhileMeasuringKeepsEveryRunAndProbeItMeasured) {
  config::Workload workload;
  workload.name = "killed";
  workload.tasks = {command_task("a", {"true"}), command_task("b", {"sh", "-c", "exit 0"})};
  ThrowingReporter dies(GetParam().at_run, GetParam().at_probe);
  LearningOptions generous = options(2, 3600.0);
  generous.launched.reporter = &dies;
  EXPECT_THROW((void)learn_batch(workload, cache, generous), std::runtime_error);
  ASSERT_GT(dies.runs_seen, 0U);
  std::size_t runs = 0, probes = 0;
  for (const TaskKind& kind : task_kinds(workload, "preferred")) {
    const KnowledgeLookup found = look_up_knowledge(cache, kind.identity);
    EXPECT_EQ(found.note, "") << kind.name;
    runs += found.knowledge.count(RunSource::profiled);
    probes += found.knowledge.probe ? 1 : 0;
  }
  EXPECT_EQ(runs, dies.runs_seen);
  EXPECT_EQ(probes, dies.probes_seen);
}

INSTANTIATE_TEST_SUITE_P(Killed, StoredAsMeasured,
                         ::testing::Values(KilledCase{"AfterTheFirstRun", 1, 0}, KilledCase{"AfterTheThirdRun", 3, 0},
                                           KilledCase{"AfterTheFirstProbe", 0, 1}),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

}  // namespace
}  // namespace cosched::profiler
