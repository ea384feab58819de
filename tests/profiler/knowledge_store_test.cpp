// The knowledge store's rules, each with the variants that must behave alike (issue 41's mutation testing found them
// untested): the newest kRunsKeptPerPoint runs of a point are kept, a point being its cores, chunks and work (a file
// of another node, task or program starts afresh: KnowledgeFileSetAside in profile_cache_test.cpp); the parser
// refuses what its writer never writes (a time no process takes, a damaged field); a folder where a file belongs is refused before any
// work; and the node's launch history is its last kLaunchesRemembered launches pooled with the prior.
#include "cosched/profiler/knowledge_store.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <functional>

#include "cosched/profiler/learning.hpp"
#include "cosched/profiler/run_history.hpp"
#include "cosched/profiler/task_kinds.hpp"
#include "support/recording_reporter.hpp"
#include "test_support.hpp"

namespace cosched::profiler {
namespace {

const NodeFingerprint kNode{"host", "Some CPU", 2, "none", 5.0};

KindKnowledge true_knowledge() {
  KindKnowledge known;
  known.node = kNode;
  known.task.argv = {"/bin/true"};
  known.task.placement = "preferred";
  known.program = program_stamp(known.task.argv.front());
  return known;
}

// --- Runs kept per point -------------------------------------------------------------------------------------------

struct OtherPoint {
  const char* name;
  knowledge::Measurement point;  // differs from (1 core, 0 chunks, work 10) in one field
};

class RunsKeptPerPoint : public ::testing::TestWithParam<OtherPoint> {};

TEST_P(RunsKeptPerPoint, TheNewestOfEachPointAreKeptAndOtherPointsAreUntouched) {
  KindKnowledge known = true_knowledge();
  const knowledge::Measurement other = GetParam().point;
  for (int k = 0; k < 3; ++k) known.add({other, RunSource::observed, ""});
  const std::size_t added = kRunsKeptPerPoint + 3;
  for (std::size_t k = 1; k <= added; ++k) {
    known.add({{1, 0, 10.0, static_cast<double>(k)}, RunSource::profiled, ""});
  }
  std::vector<double> kept;  // the seconds of the base point's runs, in order
  std::size_t others = 0;
  for (const KnownRun& run : known.runs) {
    if (run.run.cores == 1 && run.run.fast_chunks == 0 && run.run.work == 10.0) {
      kept.push_back(run.run.seconds);
    } else {
      ++others;
    }
  }
  std::vector<double> newest;
  for (std::size_t k = added - kRunsKeptPerPoint + 1; k <= added; ++k) newest.push_back(static_cast<double>(k));
  EXPECT_EQ(kept, newest);
  EXPECT_EQ(others, 3U);
}

INSTANTIATE_TEST_SUITE_P(Points, RunsKeptPerPoint,
                         ::testing::Values(OtherPoint{"cores", {2, 0, 10.0, 99.0}},
                                           OtherPoint{"chunks", {1, 1, 10.0, 99.0}},
                                           OtherPoint{"work", {1, 0, 20.0, 99.0}}),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

// --- What the parser refuses ---------------------------------------------------------------------------------------

struct DamagedRun {
  const char* name;
  const char* field;
  nlohmann::json value;
};

class DamagedKnowledge : public ::testing::TestWithParam<DamagedRun> {};

TEST_P(DamagedKnowledge, IsRefusedByTheParserNamingTheField) {
  KindKnowledge known = true_knowledge();
  known.add({{1, 0, 1.0, 0.5}, RunSource::profiled, ""});
  nlohmann::json file = nlohmann::json::parse(kind_knowledge_to_json(known));
  file["runs"][0][GetParam().field] = GetParam().value;
  try {
    (void)parse_kind_knowledge(file.dump(), "k.json");
    FAIL() << "accepted " << file["runs"][0].dump();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(GetParam().field), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(
    Fields, DamagedKnowledge,
    ::testing::Values(DamagedRun{"zero_seconds", "seconds", 0.0}, DamagedRun{"negative_seconds", "seconds", -1.0},
                      // No process starts and ends this fast; its ln t would underflow the fits (it made the
                      // contention clock fail: "1 running tasks make no progress").
                      DamagedRun{"tiny_seconds", "seconds", 1e-300}, DamagedRun{"huge_seconds", "seconds", 1e300},
                      DamagedRun{"text_seconds", "seconds", "fast"}, DamagedRun{"zero_cores", "cores", 0},
                      DamagedRun{"huge_cores", "cores", 1e12}, DamagedRun{"zero_work", "work", 0.0},
                      DamagedRun{"another_source", "source", "guessed"}),
    [](const auto& param_info) { return std::string(param_info.param.name); });

// --- A store a run could not write at its end ----------------------------------------------------------------------

struct MisplacedEntry {
  const char* name;
  std::function<std::filesystem::path(const ProfileCache&, const CachedTask&)> where;
  bool folder;  // what is put there: a folder (else an empty file)
};

class AStoreItCannotWrite : public ::testing::TestWithParam<MisplacedEntry> {};

TEST_P(AStoreItCannotWrite, IsRefusedBeforeAnythingIsMeasured) {
  const ProfileCache cache(testing::scratch_dir("misplaced"), kNode);
  config::Workload workload;
  config::WorkloadTask task;
  task.id = "a";
  task.command = {"/bin/true"};
  workload.tasks = {task};
  const std::vector<TaskKind> kinds = task_kinds(workload, "preferred");
  const std::filesystem::path path = GetParam().where(cache, kinds.front().identity);
  std::filesystem::create_directories(path.parent_path());
  if (GetParam().folder) {
    std::filesystem::create_directory(path);
  } else {
    testing::write_file(path, "");
  }
  test_support::RecordingReporter reporter;
  LearningOptions options;
  options.launched.platform.name = "test";
  options.launched.platform.cores = 2;
  options.launched.platform.tier_backend = "none";
  options.launched.reporter = &reporter;
  options.budget.seconds = 30.0;  // would measure `true` at once
  try {
    (void)learn_batch(workload, cache, options);
    FAIL() << "learnt with " << path << " in the way";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
  }
  EXPECT_EQ(reporter.text_of("progress"), "") << "nothing was measured";
}

INSTANTIATE_TEST_SUITE_P(
    Entries, AStoreItCannotWrite,
    ::testing::Values(
        MisplacedEntry{"kind_file_is_a_folder",
                       [](const ProfileCache& store, const CachedTask& identity) {
                         return knowledge_path(store, identity);
                       },
                       true},
        MisplacedEntry{"knowledge_is_a_file",
                       [](const ProfileCache& store, const CachedTask&) { return store.node_folder() / "knowledge"; }, false},
        MisplacedEntry{"launch_history_is_a_folder",
                       [](const ProfileCache& store, const CachedTask&) { return launch_history_path(store); }, true}),
    [](const auto& param_info) { return std::string(param_info.param.name); });

// --- The launch history ---------------------------------------------------------------------------------------------

TEST(LaunchHistory, IsTheLastLaunchesRememberedPooledWithThePrior) {
  const ProfileCache cache(testing::scratch_dir("launch-history"), kNode);
  // Five launches far off, then exactly kLaunchesRemembered on time: the far ones are forgotten.
  for (int k = 0; k < 5; ++k) record_launch(cache, {"b", 10.0, std::nullopt, std::nullopt, 100.0});
  for (std::size_t k = 0; k < kLaunchesRemembered; ++k) record_launch(cache, {"b", 10.0, 9.0, 11.0, 10.0});
  const LaunchNoise noise = launch_noise(cache);
  EXPECT_EQ(noise.launches, kLaunchesRemembered);
  const double pooled = std::sqrt(kPriorLaunches * kPriorLaunchNoise * kPriorLaunchNoise /
                                  (kPriorLaunches + static_cast<double>(kLaunchesRemembered)));
  EXPECT_NEAR(noise.sigma, pooled, 1e-12);
}

TEST(LaunchHistory, ALaunchWithoutAPredictionOrAnObservedTimeIsNotKept) {
  const ProfileCache cache(testing::scratch_dir("launch-history"), kNode);
  record_launch(cache, {"b", 0.0, std::nullopt, std::nullopt, 10.0});
  record_launch(cache, {"b", 10.0, std::nullopt, std::nullopt, 0.0});
  EXPECT_FALSE(std::filesystem::exists(launch_history_path(cache)));
  EXPECT_EQ(launch_noise(cache).launches, 0U);
}

}  // namespace
}  // namespace cosched::profiler
