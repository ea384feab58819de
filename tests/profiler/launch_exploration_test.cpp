// What a batch's launch may teach (cosched/profiler/launch_exploration.hpp), and the loop it closes: a kind known on
// one core only explores a core count in the plan's slack, the launch's observed time is kept, and the next batch
// knows the kind at two core counts without a profiling run.
#include "cosched/profiler/launch_exploration.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cosched/profiler/knowledge_store.hpp"
#include "cosched/sim/exploration.hpp"
#include "support/recording_reporter.hpp"
#include "test_support.hpp"

namespace cosched::profiler {
namespace {

config::PlatformConfig four_cores() { return testing::cores_only_platform(4); }

// Kind A (`true`) twice, kind B (`sh -c "exit 0"`) once, kind C (`sh -c "exit 1"`) never seen.
config::Workload batch() {
  const std::vector<std::pair<std::string, std::vector<std::string>>> commands{
      {"a1", {"true"}}, {"b", {"sh", "-c", "exit 0"}}, {"a2", {"true"}}, {"c", {"sh", "-c", "exit 1"}}};
  config::Workload workload;
  workload.name = "explore";
  for (const auto& [id, argv] : commands) workload.tasks.push_back(testing::command_task(id, argv));
  return workload;
}

struct LaunchExploration : ::testing::Test {
  ProfileCache cache{testing::scratch_dir("launch-exploration"), NodeFingerprint{"host", "Some CPU", 4, "none", 5.0}};
  test_support::RecordingReporter reporter;

  BatchKnowledge know(config::Workload& workload, const config::PlatformConfig& platform = four_cores()) {
    LearningOptions options;
    options.launched.platform = platform;
    options.tier_places_commands = platform.fast_chunks > 0;
    options.launched.tier = exec::TierSetup{};
    options.launched.reporter = &reporter;
    options.budget.seconds = 0.0;  // what the store holds, nothing measured now
    return learn_batch(workload, cache, options);
  }
};

// A list plan of the batch on one core each, c (a guess) listed last: a1, b, a2 from 0 s, then c.
sched::Schedule one_core_each(const sched::Instance& instance) {
  sched::Schedule schedule;
  schedule.launch_rule = "greedy";
  const std::vector<int> one{1};
  for (std::size_t j = 0; j < instance.task_count(); ++j) {
    schedule.tasks.push_back({one, j == 3 ? 0.5 : 0.0, instance.time(j, one)});
  }
  schedule.makespan = sched::completion_time(schedule.tasks);
  return schedule;
}

TEST_F(LaunchExploration, AKindOnOneCoreMayTryTheCoreCountsItNeverRanAtMostFirstOnTheCautiousSide) {
  config::Workload workload = batch();
  ASSERT_EQ(learn_from_launch(workload, {{"a1", {1}, 4.0, 1.0}, {"b", {1}, 1.0, 1.0}}, cache, "preferred"), 2U);
  const BatchKnowledge known = know(workload);
  const KnowledgeInstance made = knowledge_instance(workload, known, four_cores(), nullptr, false);
  sched::Schedule schedule = one_core_each(made.instance);
  schedule.tasks[1].start = 0.25;  // b listed after a1 and a2

  const std::vector<sim::ExplorationOption> options =
      exploration_options(workload, known, made.instance, schedule);
  // a1, a2 (kind A) and b (kind B) may explore; c's kind is a guess at one core: nothing to weigh a move with.
  ASSERT_EQ(options.size(), 3U);
  EXPECT_EQ(options[0].task, 1U) << "the latest planned start first: the tail is where cores idle";
  EXPECT_EQ(options[1].group, options[2].group) << "a1 and a2 teach the same kind";
  EXPECT_NE(options[0].group, options[1].group);
  for (const sim::ExplorationOption& option : options) {
    ASSERT_EQ(option.choices.size(), 2U);
    EXPECT_EQ(option.choices[0].alloc, std::vector<int>{4}) << "the node's all first: it tells the fit the most";
    EXPECT_EQ(option.choices[1].alloc, std::vector<int>{2});
    for (const sim::ExplorationChoice& choice : option.choices) {
      EXPECT_GT(choice.cautious_s, made.instance.time(option.task, choice.alloc)) << "one sd above the median";
    }
  }
}

TEST_F(LaunchExploration, TheExploredRunIsKeptAndTheNextBatchKnowsTheKindAtTwoCoreCounts) {
  config::Workload workload = batch();
  workload.tasks.pop_back();  // without c: a1, b and a2 from 0 s, one core idle
  ASSERT_EQ(learn_from_launch(workload, {{"a1", {1}, 4.0, 1.0}, {"b", {1}, 1.0, 1.0}}, cache, "preferred"), 2U);
  BatchKnowledge known = know(workload);
  const KnowledgeInstance made = knowledge_instance(workload, known, four_cores(), nullptr, false);
  sched::Schedule schedule = one_core_each(made.instance);
  // a1, b and a2 from 0 s on one core each, one core idle; a1 and a2 end the batch at 4 s. a1 on 2 cores takes
  // at most 4 s x 2^-2/3 x e^0.33 = 3.5 s on the cautious side (its fit from one core): room for it. On 4 cores b
  // and a2 would wait for it.
  const sim::ExplorationResult explored =
      sim::explore_in_slack(made.instance, schedule, exploration_options(workload, known, made.instance, schedule));
  ASSERT_EQ(explored.steps.size(), 1U) << "a2 is of a1's kind; b on 2 cores would now wait for a1";
  const sim::ExplorationStep& step = explored.steps.front();
  EXPECT_EQ(workload.tasks[step.task].id, "a1");
  EXPECT_EQ(step.to, std::vector<int>{2});

  // The launch ran a1 on 2 cores in 2.2 s: kept, and the next batch knows kind A at 1 and 2 cores.
  ASSERT_EQ(learn_from_launch(workload, {{"a1", step.to, 2.2, 1.0}}, cache, "preferred"), 1U);
  known = know(workload);
  std::vector<int> cores;
  for (const KnownRun& run : known.of(workload.tasks[0]).known.runs) cores.push_back(run.run.cores);
  std::sort(cores.begin(), cores.end());
  EXPECT_EQ(cores, (std::vector<int>{1, 2}));
  const KnowledgeInstance next = knowledge_instance(workload, known, four_cores(), nullptr, false);
  const int two[1] = {2};
  EXPECT_NEAR(next.instance.time(2, two), 2.2, 0.1) << "a2's fit goes through what a1's launch observed";
  // ...and 2 cores are no longer a choice for kind A: only the node's all is left to try.
  for (const sim::ExplorationOption& option :
       exploration_options(workload, known, next.instance, one_core_each(next.instance))) {
    if (option.task == 1) continue;  // b
    ASSERT_EQ(option.choices.size(), 1U) << workload.tasks[option.task].id;
    EXPECT_EQ(option.choices[0].alloc, std::vector<int>{4});
  }
}

// Four tasks of kind A, planned one core each from 0, 1, 2 and 3 s: kExplorationTasksPerKind (3) of them may explore,
// the three that start latest (a4, a3, a2), in that order: the tail is where cores idle.
TEST_F(LaunchExploration, AKindOffersItsLatestStartingTasksAndNoMoreThanItsShare) {
  ASSERT_EQ(sim::kExplorationTasksPerKind, 3U) << "the test is worked for three";
  config::Workload workload;
  workload.name = "explore";
  for (const char* id : {"a1", "a2", "a3", "a4"}) workload.tasks.push_back(testing::command_task(id, {"true"}));
  ASSERT_EQ(learn_from_launch(workload, {{"a1", {1}, 4.0, 1.0}}, cache, "preferred"), 1U);
  const BatchKnowledge known = know(workload);
  const KnowledgeInstance made = knowledge_instance(workload, known, four_cores(), nullptr, false);
  sched::Schedule schedule = one_core_each(made.instance);
  for (std::size_t j = 0; j < 4; ++j) schedule.tasks[j].start = static_cast<double>(j);

  std::vector<std::size_t> tasks;
  for (const sim::ExplorationOption& option : exploration_options(workload, known, made.instance, schedule)) {
    tasks.push_back(option.task);
  }
  EXPECT_EQ(tasks, (std::vector<std::size_t>{3, 2, 1}));
}

// A task planned on the whole node has no larger core count to try: it offers no option (and no choice is ever the
// allocation a task is planned at).
TEST_F(LaunchExploration, ATaskPlannedOnTheWholeNodeHasNothingLargerToTry) {
  config::Workload workload = batch();
  workload.tasks.pop_back();  // a1, b, a2
  ASSERT_EQ(learn_from_launch(workload, {{"a1", {1}, 4.0, 1.0}, {"b", {1}, 1.0, 1.0}}, cache, "preferred"), 2U);
  const BatchKnowledge known = know(workload);
  const KnowledgeInstance made = knowledge_instance(workload, known, four_cores(), nullptr, false);
  sched::Schedule schedule = one_core_each(made.instance);
  schedule.tasks[0] = {{4}, 0.0, made.instance.time(0, std::vector<int>{4})};  // a1 on all 4 cores, then b and a2
  schedule.tasks[1].start = schedule.tasks[2].start = schedule.tasks[0].duration;

  std::vector<std::size_t> tasks;
  for (const sim::ExplorationOption& option : exploration_options(workload, known, made.instance, schedule)) {
    tasks.push_back(option.task);
    for (const sim::ExplorationChoice& choice : option.choices) {
      EXPECT_NE(choice.alloc, schedule.tasks[option.task].alloc);
    }
  }
  std::sort(tasks.begin(), tasks.end());
  EXPECT_EQ(tasks, (std::vector<std::size_t>{1, 2})) << "b and a2; a1 is on all 4 cores";
}

// Four cores and an emulated fast tier of 4 chunks of 16 MiB.
config::PlatformConfig four_cores_with_fast_chunks() {
  config::PlatformConfig platform = four_cores();
  platform.tier_backend = "emulated";
  platform.fast_chunks = 4;
  platform.fast_capacity_bytes = 4ULL << 24;
  return platform;
}

// One triad task of 64 MiB and 10 passes per id.
config::Workload triads(const std::vector<std::string>& ids) {
  config::Workload workload;
  workload.name = "stream";
  for (const std::string& id : ids) {
    config::WorkloadTask triad;
    triad.id = id;
    triad.kernel = "triad";
    triad.footprint_bytes = 64ULL << 20;
    triad.passes = 10;
    workload.tasks.push_back(triad);
  }
  return workload;
}

// The triads t1 and t2 known from `observed` (a launch's runs), planned on one core each from 0 s without fast
// chunks on four_cores_with_fast_chunks: the options exploration_options offers them.
struct StreamExploration : LaunchExploration {
  std::vector<sim::ExplorationOption> triads_planned_on_one_core(const std::vector<ObservedTask>& observed) {
    const config::PlatformConfig platform = four_cores_with_fast_chunks();
    config::Workload workload = triads({"t1", "t2"});
    EXPECT_EQ(learn_from_launch(workload, observed, cache, "preferred"), observed.size());
    const BatchKnowledge known = know(workload, platform);
    const KnowledgeInstance made = knowledge_instance(workload, known, platform, nullptr, true);
    sched::Schedule schedule;
    schedule.launch_rule = "greedy";
    for (std::size_t j = 0; j < 2; ++j) {
      schedule.tasks.push_back({{1, 0}, 0.0, made.instance.time(j, std::vector<int>{1, 0})});
    }
    return exploration_options(workload, known, made.instance, schedule);
  }
};

// The interval's side of the same move: where a kind was never measured on fast memory its fit assumes no gain, and
// the gain may reach the tiers' bandwidth ratio (the node model's, else the platform's emulation_ratio); once one
// of its runs had fast chunks, the fit knows and no bound is left.
TEST_F(LaunchExploration, FastMemoryAKindNeverRanOnMayGainUpToTheTiersRatioUntilMeasured) {
  config::PlatformConfig platform = four_cores_with_fast_chunks();
  platform.emulation_ratio = 4.0;
  config::Workload workload = triads({"t1"});
  const std::vector<int> no_chunk{1, 0}, two_chunks{1, 2};
  ASSERT_EQ(learn_from_launch(workload, {{"t1", no_chunk, 1.25, 1.0}}, cache, "preferred"), 1U);
  const KnowledgeInstance before = knowledge_instance(workload, know(workload, platform), platform, nullptr, true);
  const sched::AllocationSpace& space = before.instance.space();
  ASSERT_EQ(before.log_gain_bound.size(), 1U);
  EXPECT_DOUBLE_EQ(before.log_gain_bound[0][space.index_of(no_chunk)], 0.0);
  EXPECT_DOUBLE_EQ(before.log_gain_bound[0][space.index_of(two_chunks)], std::log(4.0));

  ASSERT_EQ(learn_from_launch(workload, {{"t1", two_chunks, 0.5, 1.0}}, cache, "preferred"), 1U);
  const KnowledgeInstance after = knowledge_instance(workload, know(workload, platform), platform, nullptr, true);
  EXPECT_DOUBLE_EQ(after.log_gain_bound[0][space.index_of(two_chunks)], 0.0);

  // With a node model, its pools' peaks say the ratio: 90 GB/s fast against 30 GB/s slow, ln 3.
  NodeBandwidth bandwidth;
  bandwidth.model.pools = {{"fast", {1.0, 4.0}, {40e9, 90e9}}, {"slow", {1.0, 4.0}, {20e9, 30e9}}};
  bandwidth.fast_pool = 0;
  bandwidth.slow_pool = 1;
  EXPECT_DOUBLE_EQ(fast_tier_log_gain(platform, &bandwidth), std::log(3.0));
  std::swap(bandwidth.fast_pool, bandwidth.slow_pool);  // a "fast" pool slower than the slow one: no gain
  EXPECT_DOUBLE_EQ(fast_tier_log_gain(platform, &bandwidth), 0.0);
  EXPECT_DOUBLE_EQ(fast_tier_log_gain(platform, nullptr), std::log(4.0));
  platform.emulation_ratio = 1.0;  // a "fast" tier no faster: nothing to gain
  EXPECT_DOUBLE_EQ(fast_tier_log_gain(platform, nullptr), 0.0);
}

// A STREAM kind known without fast memory (the naive first run gave it none) may try the node's fast chunks at its
// planned cores, as a separate option from more cores: a kind learns both, one task each.
TEST_F(StreamExploration, AStreamKindWithoutFastMemoryMayTryTheFastChunksAsItsOwnOption) {
  const std::vector<sim::ExplorationOption> options =
      triads_planned_on_one_core({{"t1", {1, 0}, 1.25, 1.0}, {"t2", {1, 0}, 1.3, 1.0}});
  std::vector<std::vector<int>> chunk_choices;
  std::size_t core_options = 0;
  for (const sim::ExplorationOption& option : options) {
    if (option.choices.front().alloc[0] == 1) {
      for (const sim::ExplorationChoice& choice : option.choices) chunk_choices.push_back(choice.alloc);
    } else {
      ++core_options;
      EXPECT_EQ(option.choices.front().alloc, (std::vector<int>{4, 0})) << "more cores at the planned chunks";
    }
  }
  EXPECT_EQ(core_options, 2U);
  ASSERT_EQ(chunk_choices.size(), 6U) << "two tasks, each 4, 2 and 1 chunks";
  EXPECT_EQ(chunk_choices[0], (std::vector<int>{1, 4})) << "all the fast chunks first";
  EXPECT_EQ(chunk_choices[1], (std::vector<int>{1, 2}));
  EXPECT_EQ(chunk_choices[2], (std::vector<int>{1, 1}));
  std::set<std::size_t> groups;
  for (const sim::ExplorationOption& option : options) groups.insert(option.group);
  EXPECT_EQ(groups.size(), 2U) << "one kind: one group for its cores, one for its fast chunks";
}

// The same kind once its runs stand on two core counts: its fit says how it speeds up, and more cores can make a
// program slower past a count no fit through the measured ones foresees — on the simulated KNL such moves
// lengthened their own batches. It tries the fast chunks only; a kind on one count still tries both.
TEST_F(StreamExploration, AKindKnownAtTwoCoreCountsTriesTheFastChunksOnly) {
  const std::vector<sim::ExplorationOption> options =
      triads_planned_on_one_core({{"t1", {1, 0}, 1.25, 1.0}, {"t2", {2, 0}, 0.7, 1.0}});
  ASSERT_EQ(options.size(), 2U) << "one option per task";
  for (const sim::ExplorationOption& option : options) {
    for (const sim::ExplorationChoice& choice : option.choices) {
      EXPECT_EQ(choice.alloc[0], 1) << "at its planned cores: no core count is tried";
      EXPECT_GT(choice.alloc[1], 0);
    }
  }
  EXPECT_EQ(options[0].group, options[1].group) << "one kind, one resource";
}

}  // namespace
}  // namespace cosched::profiler
