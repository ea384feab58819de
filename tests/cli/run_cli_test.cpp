// `cosched run` end to end (issues #24, #39), through the built executables: with nothing known a dry run plans the
// naive way and measures nothing; a budget measures what is not known and stores it; a second run starts from what
// the first observed; damaged, foreign and set-aside knowledge is said and started afresh; two runs at once share
// one cache; an interrupted run is resumed with only its unfinished tasks, its comparison marking the plan's
// guesses as the run that planned them did; bad input is one clear line with its exit code, before anything is
// written. Nothing here is timed: the batches are commands (/bin/true, a script) and a 1 MiB STREAM task, profiled
// once per point.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cosched/config/platform.hpp"
#include "cosched/profiler/knowledge_store.hpp"
#include "support/files.hpp"
#include "support/node_fixture.hpp"
#include "support/programs.hpp"

namespace cosched::cli {
namespace {

namespace fs = std::filesystem;
using test_support::CommandResult;

const std::string& kNodeToml = test_support::kOnePoolNodeToml;
const std::string kPlatformToml =
    "name = \"tiny\"\ncores = \"auto\"\n[fast_memory]\ncapacity_mib = 8\nchunks = 4\ntier_backend = \"emulated\"\n";
const std::string kCommands = R"({"tasks":[{"id":"a","command":["/bin/true"]},{"id":"b","command":["/bin/true"]}]})";
// A STREAM task of 1 MiB (profiled at two pass counts) beside a command.
const std::string kMixed =
    R"({"tasks":[{"id":"s","kernel":"triad","footprint_bytes":1048576,"passes":3},{"id":"c","command":["/bin/true"]}]})";

class RunCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(test_support::built_program("cosched")) || !fs::exists(test_support::built_program("stream_bench"))) {
      GTEST_SKIP() << "bin/cosched or bin/stream_bench is not built";
    }
    dir_ = test_support::scratch_dir();
    write("node.toml", kNodeToml);
    write("p.toml", kPlatformToml);
    write("b.json", kCommands);
  }
  fs::path write(const std::string& name, const std::string& text) const {
    return test_support::write_file(dir_ / name, text);
  }
  // `cosched run` with the test's cache, node model and platform (and one run per profiled point).
  [[nodiscard]] std::string run_line(const std::string& arguments) const {
    return "run " + arguments + " --cache cache --node node.toml --reps 1";
  }
  CommandResult run(const std::string& arguments, const std::string& platform = " --platform p.toml") const {
    return test_support::run_program("cosched", run_line(arguments) + platform, dir_);
  }
  // The knowledge store's files (one per kind of task).
  [[nodiscard]] std::vector<fs::path> knowledge_files() const {
    std::vector<fs::path> found;
    if (!fs::exists(dir_ / "cache")) return found;
    for (const auto& entry : fs::recursive_directory_iterator(dir_ / "cache")) {
      if (entry.path().parent_path().filename() == "knowledge") found.push_back(entry.path());
    }
    std::sort(found.begin(), found.end());
    return found;
  }
  // `cosched run` with the test's cache and platform but no node model given.
  [[nodiscard]] CommandResult run_without_node_model(const std::string& arguments) const {
    return test_support::run_program("cosched", "run " + arguments + " --cache cache --reps 1 --platform p.toml", dir_);
  }
  // `cosched run m.json --dry-run` without a node model, at `budget` seconds.
  [[nodiscard]] CommandResult dry_run_without_node_model(const std::string& budget) const {
    return run_without_node_model("m.json --dry-run --profile-budget " + budget);
  }
  // The node models (node.toml, a calibration's) anywhere in the test's cache.
  [[nodiscard]] std::size_t node_models_in_cache() const {
    std::size_t models = 0;
    for (const auto& entry : fs::recursive_directory_iterator(dir_ / "cache")) {
      if (entry.path().filename() == "node.toml") ++models;
    }
    return models;
  }
  [[nodiscard]] std::vector<std::string> names_in(const fs::path& folder) const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(folder)) names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }

  fs::path dir_;
};

TEST_F(RunCli, WithNothingKnownADryRunPlansTheNaiveWayAndMeasuresNothing) {
  write("m.json", kMixed);
  const CommandResult result = run("m.json --dry-run");
  ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
  EXPECT_NE(result.out.find("knowing: 0 of 2 task kind(s) known"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("nothing is known of this batch yet"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("predicted makespan"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("80 % interval"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("core 0 |"), std::string::npos) << "the predicted run's picture\n" << result.out;
  EXPECT_NE(result.out.find("dry run"), std::string::npos) << result.out;
  EXPECT_EQ(names_in(dir_ / "cosched-run-m"),
            (std::vector<std::string>{".cosched-run", "instance.json", "platform.toml", "schedule.json"}))
      << "the plan and the folder's marker; no journal, no task logs";
  EXPECT_TRUE(knowledge_files().empty()) << "nothing was measured, nothing is stored";
  const auto schedule = nlohmann::json::parse(test_support::read_text(dir_ / "cosched-run-m" / "schedule.json"));
  EXPECT_EQ(schedule.value("launch_rule", ""), "greedy");
  // One core each as `xargs -P` (this machine's cores for 2 tasks: the node shared evenly when it has more).
  const auto platform = config::load_platform_config(dir_ / "cosched-run-m" / "platform.toml");
  const auto each = static_cast<int>(std::max(1U, platform.cores / 2));
  for (const auto& task : schedule.at("tasks")) EXPECT_EQ(task.at("alloc").at(0), each) << "the naive share";
}

TEST_F(RunCli, ABudgetMeasuresWhatIsNotKnownAndStoresIt) {
  write("m.json", kMixed);
  const CommandResult result = run("m.json --dry-run --profile-budget 60");
  ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
  EXPECT_NE(result.out.find("profiling budget 60 s (--profile-budget)"), std::string::npos) << result.out;
  EXPECT_EQ(result.out.find("nothing is known"), std::string::npos) << result.out;
  ASSERT_EQ(knowledge_files().size(), 2U);
  for (const fs::path& path : knowledge_files()) {
    const profiler::KindKnowledge known = profiler::parse_kind_knowledge(test_support::read_text(path), path.string());
    EXPECT_GT(known.count(profiler::RunSource::profiled), 0U) << path;
    if (known.task.is_stream()) {
      for (const auto& run : known.runs) EXPECT_LE(run.run.work, 3.0) << "at most the task's own 3 passes";
    } else {
      EXPECT_TRUE(known.program.has_value()) << "a command's program is stamped";
    }
  }
}

// A budget too small for a calibration is not spent on one: a run without a node model given --profile-budget 0
// measured nothing at all before (it calibrated, 2-3 s over a budget of nothing).
TEST_F(RunCli, ABudgetTooSmallForACalibrationCalibratesNothing) {
  write("m.json", kMixed);
  const CommandResult result = dry_run_without_node_model("0");
  ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
  EXPECT_NE(result.out.find("node model: none"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("--profile-budget 5 or more calibrates one first"), std::string::npos) << result.out;
  EXPECT_EQ(node_models_in_cache(), 0U) << "no calibration was paid from a budget of 0 s";
  EXPECT_TRUE(knowledge_files().empty()) << "nothing measured";
}

// A budget that pays a calibration on a first run: the cache has no node folder yet (it was made only with the lock
// the knowledge store takes afterwards), and the calibration's node.toml used to be refused for it (exit 2).
TEST_F(RunCli, ABudgetPaysACalibrationIntoAnEmptyCache) {
  write("m.json", kMixed);
  const CommandResult result = dry_run_without_node_model("5");
  ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
  EXPECT_NE(result.out.find("calibrating this node's memory bandwidth"), std::string::npos) << result.out;
  EXPECT_EQ(node_models_in_cache(), 1U) << "the calibration is kept in the node's folder for the next run";
}

TEST_F(RunCli, ASecondRunStartsFromWhatTheFirstObserved) {
  const CommandResult first = run("b.json");
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
  EXPECT_NE(first.out.find("batch: predicted"), std::string::npos) << first.out;
  EXPECT_NE(first.out.find("learnt: 2 observed run(s)"), std::string::npos) << first.out;
  ASSERT_EQ(knowledge_files().size(), 1U) << "a and b run the same command: one kind";
  const fs::path file = knowledge_files().front();
  EXPECT_EQ(profiler::parse_kind_knowledge(test_support::read_text(file), file.string())
                .count(profiler::RunSource::observed),
            2U);
  const CommandResult second = run("b.json --output again");
  ASSERT_EQ(second.exit_code, 0) << second.out << second.err;
  EXPECT_NE(second.out.find("knowing: 1 of 1 task kind(s) known (2 run(s) observed"), std::string::npos)
      << second.out;
  EXPECT_EQ(second.out.find("nothing is known"), std::string::npos) << second.out;
  // A folder --output names that holds a run is continued or replaced only when asked (without --output a run goes
  // past the finished ones: TheReadmesExampleRunsAsWritten).
  test_support::expect_one_line_error(run("b.json --output again"), 2, "--resume",
                                      "a second run into the same folder");
  EXPECT_EQ(run("b.json --output again --force").exit_code, 0);
}

// The launch explores where the plan has room (workflow/src/batch_plan.cpp explore_in_launch): the store says (the
// test writes its times, so nothing here depends on this machine's speed) that c takes 3 s on 1 core and on 2, and
// each triad 1 s on 1 core without fast memory, never run with any. The plan: c on one core for 3 s, the triads one
// after the other on the other; the later one (t1) moves to the node's fast chunks, where its fit one sd up still
// ends before c. `--no-explore` keeps the plan as it was made. (`--profile-budget 0`: nothing measured here changes
// the times the test wrote.)
TEST_F(RunCli, TheLaunchExploresWhereThePlanHasRoomAndNotWhenToldNot) {
  write("x.json", R"({"tasks":[{"id":"t0","kernel":"triad","footprint_bytes":1048576,"passes":3},)"
                  R"({"id":"t1","kernel":"triad","footprint_bytes":1048576,"passes":3},)"
                  R"({"id":"c","command":["/bin/true"]}]})");
  write("p2.toml", "name = \"two\"\ncores = 2\n[fast_memory]\ncapacity_mib = 8\nchunks = 4\n"
                   "tier_backend = \"emulated\"\n");
  const CommandResult first = run("x.json --output first", " --platform p2.toml");
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
  ASSERT_EQ(knowledge_files().size(), 2U);
  for (const fs::path& file : knowledge_files()) {
    nlohmann::json kind = nlohmann::json::parse(test_support::read_text(file));
    ASSERT_FALSE(kind["runs"].empty());
    const nlohmann::json run = kind["runs"][0];
    kind["runs"] = nlohmann::json::array();
    for (const int cores : kind["task"].contains("kernel") ? std::vector<int>{1, 1} : std::vector<int>{1, 1, 2, 2}) {
      nlohmann::json copy = run;
      copy["cores"] = cores;
      copy["chunks"] = 0;
      copy["seconds"] = kind["task"].contains("kernel") ? 1.0 : 3.0;
      kind["runs"].push_back(copy);
    }
    test_support::write_file(file, kind.dump());
  }
  const auto t1_chunks = [&](const std::string& folder) {
    const nlohmann::json schedule = nlohmann::json::parse(test_support::read_text(dir_ / folder / "schedule.json"));
    return schedule["tasks"][1]["alloc"][1].get<int>();
  };
  const CommandResult explored = run("x.json --output explored --dry-run --profile-budget 0", " --platform p2.toml");
  ASSERT_EQ(explored.exit_code, 0) << explored.out << explored.err;
  EXPECT_NE(explored.out.find("explores: t1 on 1 core + 4 fast chunks, not 1 core"), std::string::npos)
      << explored.out;
  EXPECT_EQ(t1_chunks("explored"), 4);
  // Its time there is the fit's without fast memory, and the interval says it may be up to the tier's ratio less.
  EXPECT_NE(explored.out.find("on fast memory their kind was never measured on (up to 5 x faster)"),
            std::string::npos)
      << explored.out;
  const CommandResult kept =
      run("x.json --output kept --dry-run --no-explore --profile-budget 0", " --platform p2.toml");
  ASSERT_EQ(kept.exit_code, 0) << kept.out << kept.err;
  EXPECT_EQ(kept.out.find("explores:"), std::string::npos) << kept.out;
  EXPECT_EQ(t1_chunks("kept"), 0);
}

// The launch learns as it goes (profiler::LaunchReplanner): nothing is known of two kinds, two tasks each, on two
// cores; whichever task ends first is its kind's first run and the two tasks still pending are planned again from
// it (which one ends first, and whether the re-plan is taken, does not matter here). `--no-replan` runs the plan as
// made. Every run is learnt either way.
TEST_F(RunCli, TheFirstRunOfAGuessedKindRePlansThePendingTasksAndNotWhenToldNot) {
  write("k.json", R"({"tasks":[{"id":"a1","command":["/bin/true"]},{"id":"b1","command":["/bin/sh","-c","exit 0"]},)"
                  R"({"id":"a2","command":["/bin/true"]},{"id":"b2","command":["/bin/sh","-c","exit 0"]}]})");
  write("p2.toml", "name = \"two\"\ncores = 2\n[fast_memory]\ncapacity_mib = 8\nchunks = 4\n"
                   "tier_backend = \"emulated\"\n");
  const CommandResult replanned = run("k.json --output replanned", " --platform p2.toml");
  ASSERT_EQ(replanned.exit_code, 0) << replanned.out << replanned.err;
  EXPECT_NE(replanned.out.find("the first task of each kind to end re-plans the tasks still pending"),
            std::string::npos)
      << replanned.out;
  EXPECT_NE(replanned.out.find("learnt as it ran: "), std::string::npos) << replanned.out;
  EXPECT_NE(replanned.out.find("re-planned by model-search in"), std::string::npos) << replanned.out;
  EXPECT_NE(replanned.out.find("learnt: 4 observed run(s)"), std::string::npos) << replanned.out;
  // The first tasks of each kind ran at the plan's guess, and the comparison says so.
  EXPECT_NE(replanned.out.find("  (guessed)\n"), std::string::npos) << replanned.out;
  EXPECT_NE(replanned.out.find(" guessed (nothing known of their kinds)"), std::string::npos) << replanned.out;
  // The journal records each re-plan taken (whether one is depends on how long /bin/true ran), and the report
  // counts them.
  std::size_t taken = 0;
  for (std::size_t at = replanned.out.find("pending task(s) re-planned by"); at != std::string::npos;
       at = replanned.out.find("pending task(s) re-planned by", at + 1)) {
    ++taken;
  }
  std::size_t replans = 0;
  std::istringstream journal(test_support::read_text(dir_ / "replanned" / "journal.jsonl"));
  for (std::string line; std::getline(journal, line);) {
    if (nlohmann::json::parse(line).at("event") == "replan") ++replans;
  }
  EXPECT_EQ(replans, taken) << replanned.out;
  const CommandResult report = test_support::run_program("cosched", "report replanned/journal.jsonl --json", dir_);
  ASSERT_EQ(report.exit_code, 0) << report.out << report.err;
  EXPECT_EQ(nlohmann::json::parse(report.out).at("replans").size(), taken) << report.out;
  const CommandResult kept = run("k.json --output kept --no-replan --reprofile", " --platform p2.toml");
  ASSERT_EQ(kept.exit_code, 0) << kept.out << kept.err;
  EXPECT_EQ(kept.out.find("learnt as it ran"), std::string::npos) << kept.out;
  EXPECT_NE(kept.out.find("learnt: 4 observed run(s)"), std::string::npos) << kept.out;
}

// What a run plans and keeps by what it knows (issue 41's mutation testing found these untested): with nothing
// known, the naive plan, and a launch in the history that says its times were guesses (a plan of guesses says
// nothing of the node's noise); with every kind known, the planner's plan, launched greedily, and a launch of the
// node's noise; with one kind never measured beside known ones, still the planner's plan, not the naive one.
TEST_F(RunCli, ThePlanAndTheLaunchHistoryFollowWhatIsKnown) {
  // The history's lines, and of them those with no guessed time (the node's noise).
  const auto history_lines = [&](bool noise_only) {
    std::size_t lines = 0;
    for (const auto& entry : fs::recursive_directory_iterator(dir_ / "cache")) {
      if (entry.path().filename() != "launches.jsonl") continue;
      std::istringstream text(test_support::read_text(entry.path()));
      for (std::string line; std::getline(text, line);) {
        if (!noise_only || nlohmann::json::parse(line).at("guessed_tasks") == 0) ++lines;
      }
    }
    return lines;
  };
  const auto schedule_of = [&](const std::string& folder) {
    return nlohmann::json::parse(test_support::read_text(dir_ / folder / "schedule.json"));
  };
  const CommandResult first = run("b.json --output first");
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
  EXPECT_EQ(schedule_of("first").value("algorithm", ""), "naive");
  // Its interval carries the guesses' uncertainty (sd 1 of ln t each, a fixed rule: nothing measured goes into it),
  // not only the node's noise (with no launch in the history, the prior's sd 5 %: high / low = 1.14).
  double low = 0.0, high = 0.0;
  const std::size_t at = first.out.find("80 % interval: ");
  ASSERT_NE(at, std::string::npos) << first.out;
  ASSERT_EQ(std::sscanf(first.out.c_str() + at, "80 %% interval: %lf .. %lf", &low, &high), 2) << first.out;
  EXPECT_GT(high / low, 2.0) << first.out;
  EXPECT_EQ(history_lines(false), 1U);
  EXPECT_EQ(history_lines(true), 0U);

  const CommandResult known = run("b.json --output known");
  ASSERT_EQ(known.exit_code, 0) << known.out << known.err;
  EXPECT_NE(schedule_of("known").value("algorithm", ""), "naive");
  EXPECT_EQ(schedule_of("known").value("launch_rule", ""), "greedy");
  EXPECT_EQ(history_lines(false), 2U);
  EXPECT_EQ(history_lines(true), 1U);
  EXPECT_NE(known.out.find("the 80 % interval"), std::string::npos) << known.out;

  write("more.json", R"({"tasks":[{"id":"a","command":["/bin/true"]},{"id":"b","command":["/bin/true"]},)"
                     R"({"id":"n","command":["/bin/echo","new"]}]})");
  const CommandResult partly = run("more.json --output partly");
  ASSERT_EQ(partly.exit_code, 0) << partly.out << partly.err;
  EXPECT_NE(schedule_of("partly").value("algorithm", ""), "naive");
  EXPECT_EQ(history_lines(false), 3U);
  EXPECT_EQ(history_lines(true), 1U) << "a plan with a guessed task is not the node's noise";
}

// A launch keeps in the node's history what its profiling runs paid beyond the seconds they measured (process start,
// the memory warm-up) and its own memory warm-up (the plan's peak: the 1 MiB STREAM task beside a command), for the
// next run's first profiling run to be priced with; a launch that profiled nothing, or warmed nothing up, says null.
TEST_F(RunCli, TheLaunchHistoryKeepsWhatAProfilingRunPaidBeyondItsTime) {
  write("m.json", kMixed);
  const auto last_history_line = [&] {
    std::string last;
    for (const auto& entry : fs::recursive_directory_iterator(dir_ / "cache")) {
      if (entry.path().filename() != "launches.jsonl") continue;
      std::istringstream text(test_support::read_text(entry.path()));
      for (std::string line; std::getline(text, line);) last = line;
    }
    return nlohmann::json::parse(last);
  };
  const CommandResult profiled = run("m.json --output profiled --profile-budget 30 --memory-warm-up on");
  ASSERT_EQ(profiled.exit_code, 0) << profiled.out << profiled.err;
  ASSERT_NE(profiled.out.find("measured cmd"), std::string::npos) << profiled.out;
  const nlohmann::json line = last_history_line();
  EXPECT_TRUE(line.at("profiling_run_overhead_s").is_number()) << line.dump();
  EXPECT_EQ(line.at("guessed_tasks"), 0);
  EXPECT_EQ(line.at("warm_up_bytes"), 1048576) << line.dump();
  EXPECT_TRUE(line.at("warm_up_s").is_number()) << line.dump();

  const CommandResult none = run("m.json --output none --profile-budget 0 --memory-warm-up off");
  ASSERT_EQ(none.exit_code, 0) << none.out << none.err;
  EXPECT_TRUE(last_history_line().at("profiling_run_overhead_s").is_null()) << last_history_line().dump();
  EXPECT_TRUE(last_history_line().at("warm_up_bytes").is_null()) << last_history_line().dump();
}

TEST_F(RunCli, DamagedForeignAndSetAsideKnowledgeIsSaidAndStartsAfresh) {
  ASSERT_EQ(run("b.json").exit_code, 0);
  ASSERT_EQ(knowledge_files().size(), 1U);
  const fs::path file = knowledge_files().front();
  // A file that does not parse: said, started afresh, and whole again after the next run.
  test_support::write_file(file, "{ \"format\": ");
  CommandResult result = run("b.json --output second");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("its knowledge is unreadable and starts afresh"), std::string::npos) << result.out;
  EXPECT_NO_THROW((void)profiler::parse_kind_knowledge(test_support::read_text(file), file.string()));
  // --reprofile sets aside what is known.
  result = run("b.json --dry-run --output third --reprofile");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("--reprofile: what was known of it is set aside"), std::string::npos) << result.out;
  // The node's folder renamed as if another node's: this node knows nothing, the other's is not used.
  const fs::path node_folder = file.parent_path().parent_path();
  fs::rename(node_folder, node_folder.parent_path() / "elsewhere-0123abcd");
  result = run("b.json --dry-run --output fourth");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("knowing: 0 of 1 task kind(s) known"), std::string::npos) << result.out;
}

TEST_F(RunCli, TwoRunsAtOnceShareOneCacheWithoutCorruptingIt) {
  write("m.json", kMixed);
  const std::string command =
      test_support::built_program("cosched").string() + " " + run_line("m.json") + " --platform p.toml --output ";
  const CommandResult both = test_support::run_shell(
      "sh -c '" + command + "one >one.txt 2>&1 & p1=$!; " + command + "two >two.txt 2>&1 & p2=$!; "
      "wait $p1; a=$?; wait $p2; b=$?; exit $((a + b))'", dir_, 120);
  const std::string one = test_support::read_text(dir_ / "one.txt"), two = test_support::read_text(dir_ / "two.txt");
  ASSERT_EQ(both.exit_code, 0) << one << two;
  // Each run's observations are kept under the node's lock: none is lost to the other's write.
  ASSERT_EQ(knowledge_files().size(), 2U);
  for (const fs::path& path : knowledge_files()) {
    const profiler::KindKnowledge known = profiler::parse_kind_knowledge(test_support::read_text(path), path.string());
    EXPECT_EQ(known.count(profiler::RunSource::observed), 2U) << path;
  }
  EXPECT_TRUE(fs::exists(dir_ / "one" / "journal.jsonl") && fs::exists(dir_ / "two" / "journal.jsonl"));
}

// The events of a journal, one JSON object per line.
std::vector<nlohmann::json> journal_events(const fs::path& journal) {
  std::vector<nlohmann::json> events;
  std::istringstream lines(test_support::read_text(journal));
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line.back() == '}') events.push_back(nlohmann::json::parse(line));
  }
  return events;
}

std::size_t count_events(const std::vector<nlohmann::json>& events, const std::string& kind, const std::string& task) {
  return static_cast<std::size_t>(std::count_if(events.begin(), events.end(), [&](const nlohmann::json& event) {
    return event.value("event", "") == kind && event.value("task", "") == task;
  }));
}

TEST_F(RunCli, AnInterruptedRunIsResumedWithOnlyItsUnfinishedTasks) {
  // Each task waits for its own gate: open while it is profiled, closed while it runs. Whichever task the planner
  // starts first is let through and ends; then the run is interrupted, the other one unfinished (running, or
  // waiting for the cores the first held).
  const auto gate = [&](const std::string& task) { return dir_ / ("gate-" + task); };
  const auto waits_for = [&](const std::string& task) {
    return R"({"id":")" + task + R"(","command":["/bin/sh","-c","while [ ! -e )" + gate(task).string() +
           R"( ]; do sleep 0.05; done"]})";
  };
  write("g.json", R"({"tasks":[)" + waits_for("a") + "," + waits_for("b") + "]}");
  write("gate-a", "open");
  write("gate-b", "open");
  const CommandResult planned = run("g.json --dry-run");
  ASSERT_EQ(planned.exit_code, 0) << planned.out << planned.err;
  fs::remove(gate("a"));
  fs::remove(gate("b"));

  const fs::path journal = dir_ / "cosched-run-g" / "journal.jsonl";
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const int out = ::open((dir_ / "run.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out < 0 || ::chdir(dir_.c_str()) != 0) ::_exit(127);
    ::dup2(out, 1);
    ::dup2(out, 2);
    const std::string program = test_support::built_program("cosched").string();
    ::execl(program.c_str(), program.c_str(), "run", "g.json", "--cache", "cache", "--node", "node.toml", "--reps",
            "1", "--platform", "p.toml", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  std::string first;  // the task started first, let through
  bool first_ended = false;
  for (int tick = 0; tick < 3000 && !first_ended; ++tick) {  // at most a minute: only a hang would take that long
    const auto events = journal_events(journal);
    if (first.empty()) {
      for (const std::string task : {"a", "b"}) {
        if (first.empty() && count_events(events, "start", task) == 1) first = task;
      }
      if (!first.empty()) write("gate-" + first, "open");
    }
    first_ended = !first.empty() && count_events(events, "end", first) == 1;
    if (!first_ended) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ::kill(pid, SIGINT);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(first_ended) << test_support::read_text(dir_ / "run.txt");
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 6) << test_support::read_text(dir_ / "run.txt");
  EXPECT_NE(test_support::read_text(dir_ / "run.txt").find("cosched run g.json --resume"), std::string::npos);

  const std::string other = first == "a" ? "b" : "a";
  const std::size_t other_starts_before = count_events(journal_events(journal), "start", other);
  write("gate-" + other, "open");
  const CommandResult resumed = run("g.json --resume", "");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.out << resumed.err;
  const auto events = journal_events(journal);
  EXPECT_EQ(count_events(events, "start", first), 1U) << first << " completed before the interruption: not run again";
  EXPECT_EQ(count_events(events, "start", other), other_starts_before + 1) << other << " unfinished: run again";
  EXPECT_EQ(count_events(events, "end", other), other_starts_before + 1);
  EXPECT_EQ(std::count_if(events.begin(), events.end(),
                          [](const nlohmann::json& event) { return event.value("event", "") == "batch_start"; }),
            2);
  // The batch must be the one planned.
  write("g.json", kCommands);
  test_support::expect_one_line_error(run("g.json --resume", ""), 3, "not the one this run planned",
                                      "resume with another batch");
}

// The comparison's guessed marks of a `cosched run --progress json`: per task that ran, whether its time was a guess.
std::map<std::string, bool> guessed_marks(const CommandResult& result) {
  std::map<std::string, bool> marks;
  std::istringstream lines(result.out);
  for (std::string line; std::getline(lines, line);) {
    const nlohmann::json event = nlohmann::json::parse(line, nullptr, false);
    if (event.is_discarded() || event.value("event", "") != "result" || event.value("kind", "") != "run-comparison") {
      continue;
    }
    for (const nlohmann::json& task : event.at("data").at("tasks")) {
      marks[task.at("id").get<std::string>()] = task.at("guessed").get<bool>();
    }
  }
  return marks;
}

// The "prediction" result of a run's `--progress json` output, if it has one.
std::optional<nlohmann::json> prediction_of(const std::string& out) {
  std::optional<nlohmann::json> prediction;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    const nlohmann::json event = nlohmann::json::parse(line, nullptr, false);
    if (!event.is_discarded() && event.value("event", "") == "result" && event.value("kind", "") == "prediction") {
      prediction = event.at("data");
    }
  }
  return prediction;
}

// A task of a known kind is a guess when its kind has no fit at its amount of work (a run at work 1 is not carried
// in proportion to 100: knowledge::TaskFitOptions::max_proportional_carry): the plan counts it with the guesses —
// the prediction's guessed_tasks, its interval's error group — as its instance marks it ("unknown": true). It was
// counted as known (its kind was), its guessed time sharing its kind's fit error in the interval.
TEST_F(RunCli, ATaskFarFromItsKindsMeasuredWorkIsCountedAsAGuess) {
  write("one.json", R"({"tasks":[{"id":"w1","command":["/bin/true","{work}"],"work":{"value":1}}]})");
  const CommandResult learnt = run("one.json");
  ASSERT_EQ(learnt.exit_code, 0) << learnt.out << learnt.err;
  write("far.json", R"({"tasks":[{"id":"near","command":["/bin/true","{work}"],"work":{"value":1}},)"
                    R"({"id":"far","command":["/bin/true","{work}"],"work":{"value":100}}]})");
  const CommandResult planned = run("far.json --dry-run --profile-budget 0 --progress json");
  ASSERT_EQ(planned.exit_code, 0) << planned.out << planned.err;
  const std::optional<nlohmann::json> prediction = prediction_of(planned.out);
  ASSERT_TRUE(prediction.has_value()) << planned.out;
  EXPECT_EQ(prediction->at("guessed_tasks"), 1) << *prediction;
  EXPECT_NE(planned.out.find("1 task(s) with no time known"), std::string::npos) << planned.out;
  const auto instance = nlohmann::json::parse(test_support::read_text(dir_ / "cosched-run-far" / "instance.json"));
  for (const auto& task : instance.at("tasks")) {
    const bool unknown = task.contains("unknown") && task.at("unknown").get<bool>();
    EXPECT_EQ(unknown, task.at("id") == "far") << task;
  }
}

// Two commands never measured, run twice on one cache (with the test's node model or none), each run with
// `--progress json`: both runs and the predictions they stated.
struct TwoRuns {
  CommandResult first;
  CommandResult again;
  std::optional<nlohmann::json> before;
  std::optional<nlohmann::json> after;
};
TwoRuns run_a_pair_twice(const std::function<CommandResult(const std::string&)>& cosched_run) {
  TwoRuns runs;
  runs.first = cosched_run("pair.json --progress json");
  runs.before = prediction_of(runs.first.out);
  runs.again = cosched_run("pair.json --progress json --force");
  runs.after = prediction_of(runs.again.out);
  return runs;
}
constexpr const char* kPairOfCommands = R"({"tasks":[{"id":"a","command":["/bin/sh","-c","exit 0 # a"]},)"
                                        R"({"id":"b","command":["/bin/sh","-c","exit 0 # b"]}]})";

// Without a node model nothing predicts how tasks side by side slow each other, and times measured with a task
// alone do not know it: the interval allows each such task up to 1.5 x slower where others run beside it. Once its
// kind ran in a launch beside others (an observed run, its slowdown in it) the allowance goes.
TEST_F(RunCli, TheIntervalAllowsTasksTimedAloneASlowdownBesideOthersUntilTheyRanSo) {
  write("pair.json", kPairOfCommands);
  const TwoRuns runs =
      run_a_pair_twice([&](const std::string& arguments) { return run_without_node_model(arguments); });
  ASSERT_EQ(runs.first.exit_code, 0) << runs.first.out << runs.first.err;
  ASSERT_EQ(runs.again.exit_code, 0) << runs.again.out << runs.again.err;
  ASSERT_TRUE(runs.before.has_value() && runs.after.has_value()) << runs.first.out << runs.again.out;
  EXPECT_EQ(runs.before->at("co_running_unpredicted_tasks"), 2) << *runs.before;
  EXPECT_NE(runs.first.out.find("2 task(s) timed alone, beside others up to 1.5 x slower"), std::string::npos)
      << runs.first.out;
  EXPECT_EQ(runs.after->at("co_running_unpredicted_tasks"), 0) << *runs.after;
  EXPECT_EQ(runs.again.out.find("timed alone"), std::string::npos) << runs.again.out;
}

// The prediction says what the ways without cosched would take on the same knowledge — xargs -P one core each in
// the file's order, one by one on every core —: what the plan is expected to save. Not when the plan is the naive
// way itself (nothing known).
TEST_F(RunCli, ThePredictionSaysWhatTheWaysWithoutCoschedWouldTakeOnWhatIsKnown) {
  write("pair.json", kPairOfCommands);
  const TwoRuns runs = run_a_pair_twice([&](const std::string& arguments) { return run(arguments); });
  ASSERT_EQ(runs.first.exit_code, 0) << runs.first.out << runs.first.err;
  ASSERT_EQ(runs.again.exit_code, 0) << runs.again.out << runs.again.err;
  ASSERT_TRUE(runs.before.has_value() && runs.after.has_value()) << runs.first.out << runs.again.out;
  EXPECT_FALSE(runs.before->contains("naive_ways")) << *runs.before;
  ASSERT_TRUE(runs.after->contains("naive_ways")) << *runs.after;
  EXPECT_GT(runs.after->at("naive_ways").at("xargs_s").get<double>(), 0.0) << *runs.after;
  EXPECT_TRUE(runs.after->at("naive_ways").contains("one_by_one_s")) << *runs.after;
  EXPECT_NE(runs.again.out.find("without cosched, on what is known: xargs -P 2 (one core each, in the file's order)"),
            std::string::npos)
      << runs.again.out;
  // And the most any plan could save: the lower bound, a share of the better naive way no larger than the plan's.
  const nlohmann::json& naive = runs.after->at("naive_ways");
  ASSERT_TRUE(naive.contains("lower_bound_ratio")) << *runs.after;
  const double best = std::min(naive.at("xargs_s").get<double>(), naive.at("one_by_one_s").get<double>());
  const double bound = naive.at("lower_bound_ratio").get<double>();
  const double lower_bound_s = runs.after->at("lower_bound").get<double>();
  EXPECT_GT(bound, 0.0) << *runs.after;
  EXPECT_NEAR(bound * best, lower_bound_s, 1e-9 * lower_bound_s) << *runs.after;
  EXPECT_LE(lower_bound_s, runs.after->at("predicted_makespan_paper").get<double>() * (1.0 + 1e-9)) << *runs.after;
  char said[96];
  std::snprintf(said, sizeof said, "and no plan can be below %.2f x (the lower bound L_min(d))", bound);
  EXPECT_NE(runs.again.out.find(said), std::string::npos) << runs.again.out;
}

// A resumed run marks the plan's guesses as the run that planned them did (issue 39: it used to mark none, and its
// median error was the guess's): the plan's instance.json says which tasks it guessed at. k's kind is known from an
// earlier batch, u's was never measured; both fail until the gate is made, so the first run ends with both failed
// and the resumed one runs both again — u `(guessed)` in each, k in neither.
TEST_F(RunCli, AResumedRunMarksThePlansGuessesAsTheRunThatPlannedThem) {
  const std::string known_kind = R"(["/bin/sh","-c","test -e gate"])";
  const std::string never_measured = R"(["/bin/sh","-c","test -f gate"])";
  write("learn.json", R"({"tasks":[{"id":"k1","command":)" + known_kind + R"(},{"id":"k2","command":)" + known_kind +
                          "}]}");
  write("r.json", R"({"tasks":[{"id":"k","command":)" + known_kind + R"(},{"id":"u","command":)" + never_measured +
                      "}]}");
  write("gate", "open");
  const CommandResult learnt = run("learn.json");
  ASSERT_EQ(learnt.exit_code, 0) << learnt.out << learnt.err;
  ASSERT_NE(learnt.out.find("learnt: 2 observed run(s)"), std::string::npos) << learnt.out;
  fs::remove(dir_ / "gate");

  const CommandResult failed = run("r.json --profile-budget 0 --progress json");
  ASSERT_EQ(failed.exit_code, 6) << failed.out << failed.err;
  const nlohmann::json instance =
      nlohmann::json::parse(test_support::read_text(dir_ / "cosched-run-r" / "instance.json"));
  for (const nlohmann::json& task : instance.at("tasks")) {
    EXPECT_EQ(task.value("unknown", false), task.at("id") == "u") << "the plan guessed at u only: " << task.dump();
  }
  const std::map<std::string, bool> planned{{"k", false}, {"u", true}};
  EXPECT_EQ(guessed_marks(failed), planned) << failed.out;

  write("gate", "open");
  const CommandResult resumed = run("r.json --resume --progress json", "");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.out << resumed.err;
  EXPECT_EQ(guessed_marks(resumed), planned) << resumed.out;
  EXPECT_NE(resumed.out.find("(guessed)"), std::string::npos) << "the console's table says so too\n" << resumed.out;
}

// The README's "Run your own batch", exactly as written (from a folder holding the example batch and build/bin), with
// a cache of the test's own: the first (dry) run knows nothing and plans the naive way, measuring nothing; the
// second runs the batch and learns every kind from it; the same command again knows them all and runs in a folder of
// its own, the first run's kept (./cosched-run-my-batch-2); `--resume` then finds that run ended and runs nothing.
TEST_F(RunCli, TheReadmesExampleRunsAsWritten) {
  fs::create_directories(dir_ / "configs" / "workloads");
  fs::copy_file(fs::path(COSCHED_SOURCE_DIR) / "configs" / "workloads" / "my-batch.json",
                dir_ / "configs" / "workloads" / "my-batch.json");
  fs::create_directories(dir_ / "build");
  fs::create_directory_symlink(test_support::built_program("cosched").parent_path(), dir_ / "build" / "bin");
  const std::string environment = "env XDG_CACHE_HOME=" + (dir_ / "xdg").string() + " ";
  const std::string dry_run = "build/bin/cosched run configs/workloads/my-batch.json --dry-run";
  const std::string run = "build/bin/cosched run configs/workloads/my-batch.json";
  ASSERT_NE(test_support::read_text(fs::path(COSCHED_SOURCE_DIR) / "README.md").find(dry_run), std::string::npos);
  const CommandResult first = test_support::run_shell(environment + dry_run, dir_, 300);
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
  EXPECT_NE(first.out.find("knowing: 0 of 3 task kind(s) known"), std::string::npos) << first.out;
  EXPECT_NE(first.out.find("core 0 |"), std::string::npos) << first.out;
  const CommandResult second = test_support::run_shell(environment + run, dir_, 300);
  ASSERT_EQ(second.exit_code, 0) << second.out << second.err;
  EXPECT_NE(second.out.find("done 6/6"), std::string::npos) << second.out;
  EXPECT_NE(second.out.find("batch: predicted"), std::string::npos) << second.out;
  EXPECT_NE(second.out.find("learnt: 6 observed run(s)"), std::string::npos) << second.out;
  const CommandResult third = test_support::run_shell(environment + run, dir_, 300);
  ASSERT_EQ(third.exit_code, 0) << third.out << third.err;
  EXPECT_NE(third.out.find("knowing: 3 of 3 task kind(s) known"), std::string::npos) << third.out;
  EXPECT_NE(third.out.find("run folder: " + (dir_ / "cosched-run-my-batch-2").string()), std::string::npos)
      << third.out;
  EXPECT_TRUE(fs::is_regular_file(dir_ / "cosched-run-my-batch" / "journal.jsonl"));
  const CommandResult resumed = test_support::run_shell(environment + run + " --resume", dir_, 300);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.out << resumed.err;
  EXPECT_NE(resumed.out.find("cosched-run-my-batch-2 ended well, nothing is left to run"), std::string::npos)
      << resumed.out;
  EXPECT_FALSE(fs::exists(dir_ / "cosched-run-my-batch-3"));
}

// `demo --workload` checks its batch before it makes its folder (issue #27): a good batch still gets the folder and
// every file the demo writes there (the robustness rows check the refusals).
TEST_F(RunCli, TheWorkloadDemoStillRunsAGoodBatchIntoItsFolder) {
  const CommandResult result = test_support::run_program("cosched", "demo --quick --workload b.json --output out", dir_);
  ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
  EXPECT_EQ(names_in(dir_ / "out"), (std::vector<std::string>{"instance.json", "node.toml", "profile-commands.csv",
                                                              "profile-commands.json", "results.csv", "runs"}));
  EXPECT_FALSE(fs::is_empty(dir_ / "out" / "runs"));
}

// Bad input: one line, its exit code, and neither a run folder nor a cache.
TEST_F(RunCli, BadInputIsOneLineWithItsExitCodeBeforeAnythingIsWritten) {
  write("bad.json", R"({"tasks":[{"id":"a","command":["/no/such/program"]}]})");
  write("broken.json", R"({"tasks":[)");
  const std::vector<std::tuple<std::string, int, std::string>> cases{
      {"no-such-batch.json", 2, "no-such-batch.json"},
      {"broken.json", 3, "broken.json"},
      {"bad.json", 3, "/no/such/program"},
      {"b.json --algorithm bogus", 2, "bogus"},
      {"b.json --resume", 2, "holds no run to continue"},
      {"b.json --dry-run --resume", 2, "--dry-run"},
      {"b.json --reps 0", 2, "--reps"},
      {"b.json --timeout nan", 2, "--timeout"},
      {"b.json --output b.json", 2, "is not a folder"},
      {"b.json --slurm", 2, "SLURM_JOB_ID"},
  };
  for (const auto& [arguments, code, fragment] : cases) {
    // --resume takes the run's own platform (--platform is refused beside it).
    const bool resume = arguments.find("--resume") != std::string::npos;
    const CommandResult result = test_support::run_shell(
        "env -u SLURM_JOB_ID " + test_support::built_program("cosched").string() + " " + run_line(arguments) +
            (resume ? "" : " --platform p.toml"), dir_);
    test_support::expect_one_line_error(result, code, fragment, arguments);
  }
  EXPECT_FALSE(fs::exists(dir_ / "cache"));
  EXPECT_FALSE(fs::exists(dir_ / "cosched-run-b"));
  EXPECT_FALSE(fs::exists(dir_ / "cosched-run-bad"));
}

}  // namespace
}  // namespace cosched::cli
