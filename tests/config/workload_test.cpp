// Workloads: TOML entries expand to tasks by the one id rule, JSON tasks read and write back, and every class of
// bad input is an InputError naming the file, the line (TOML) or entry (JSON), and the task.
#include "cosched/config/workload.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cosched/common/error.hpp"
#include "test_support.hpp"

namespace cosched::config {
namespace {

constexpr std::uint64_t kMiB = 1ULL << 20;

PlatformConfig tiny_platform() {
  return parse_platform_toml("name = \"tiny\"\ncores = 4\n[fast_memory]\ncapacity_mib = 100\nchunks = 10\n",
                             "tiny.toml");
}

WorkloadReadOptions with_platform() {
  WorkloadReadOptions options;
  options.platform = tiny_platform();
  options.known_kernels = {"triad", "write", "ddot"};
  return options;
}

TEST(TaskId, TheOneRuleNamesKernelFootprintInMibAndIndex) {
  EXPECT_EQ(stream_task_id("triad", 256 * kMiB, 3), "triad-256MiB-3");
  EXPECT_EQ(stream_task_id("ddot", kMiB / 2, 0), "ddot-0.5MiB-0");
}

TEST(TaskId, GroupsContinueTheNumberingOfTheirKernelAndFootprint) {
  Workload workload;
  add_stream_tasks(workload, {"triad", 64 * kMiB, 2, 1});
  add_stream_tasks(workload, {"write", 64 * kMiB, 1, 1});
  add_stream_tasks(workload, {"triad", 64 * kMiB, 1, 5});
  ASSERT_EQ(workload.tasks.size(), 4U);
  EXPECT_EQ(workload.tasks[0].id, "triad-64MiB-0");
  EXPECT_EQ(workload.tasks[1].id, "triad-64MiB-1");
  EXPECT_EQ(workload.tasks[2].id, "write-64MiB-0");
  EXPECT_EQ(workload.tasks[3].id, "triad-64MiB-2");
  EXPECT_EQ(workload.tasks[3].passes, 5U);
  EXPECT_THROW(add_stream_tasks(workload, {"../x", kMiB, 1, 1}), InputError);
  EXPECT_THROW(add_stream_tasks(workload, {"triad", 0, 1, 1}), InputError);
  EXPECT_THROW(add_stream_tasks(workload, {"triad", kMiB, 0, 1}), InputError);
  EXPECT_THROW(add_stream_tasks(workload, {"triad", kMiB, 1, 0}), InputError);
}

TEST(WorkloadToml, RepositoryWorkloadsLoad) {
  WorkloadReadOptions options = with_platform();
  options.platform = load_platform_config(COSCHED_SOURCE_DIR "/configs/platforms/knl-7210-flat.toml");
  const auto mix = load_workload(COSCHED_SOURCE_DIR "/configs/workloads/knl-mix.toml", options);
  EXPECT_EQ(mix.tasks.size(), 150U);
  options.platform = load_platform_config(COSCHED_SOURCE_DIR "/configs/platforms/local.toml");
  EXPECT_FALSE(load_workload(COSCHED_SOURCE_DIR "/configs/workloads/local-triad.toml", options).tasks.empty());
  // The demo's mixed batch: 2 gemm, 1 triad, 1 stencil, 2 spmv, 1 gups, sized in percent of the fast tier.
  options.known_kernels = {"gemm", "triad", "stencil", "spmv", "gups"};
  const auto mixed = load_workload(COSCHED_SOURCE_DIR "/configs/workloads/demo-mixed.toml", options);
  ASSERT_EQ(mixed.tasks.size(), 7U);
  EXPECT_EQ(mixed.tasks.front().kernel, "gemm");
  EXPECT_EQ(mixed.tasks.back().kernel, "gups");
  EXPECT_EQ(mixed.tasks.front().footprint_bytes, options.platform->fast_capacity_bytes * 5 / 100);
  // The Debian programs that say how their work scales (bench/batch_vs_naive.py --batch debian-work): every task a
  // `work` value profiled at 1 and 2 MiB, so that a first run measures its three kinds by short runs.
  const auto scaled = load_workload(COSCHED_SOURCE_DIR "/configs/workloads/debian-work.json", options);
  ASSERT_EQ(scaled.tasks.size(), 7U);
  for (const auto& task : scaled.tasks) {
    ASSERT_TRUE(task.work.has_value()) << task.id;
    EXPECT_EQ(task.work->profile, (std::vector<double>{1, 2})) << task.id;
  }
}

TEST(WorkloadToml, EntriesExpandToTasksWithTheirIds) {
  const auto workload = parse_workload_toml(R"(name = "w"
[[tasks]]
kernel = "triad"
footprint_mib = 64
count = 2
passes = 10
[[tasks]]
kernel = "write"
footprint_percent_of_fast = 50
)", "w.toml", with_platform());
  EXPECT_EQ(workload.name, "w");
  EXPECT_EQ(workload.source, "w.toml");
  ASSERT_EQ(workload.tasks.size(), 3U);
  EXPECT_EQ(workload.tasks[0].id, "triad-64MiB-0");
  EXPECT_EQ(workload.tasks[1].id, "triad-64MiB-1");
  EXPECT_EQ(workload.tasks[1].passes, 10U);
  EXPECT_EQ(workload.tasks[2].id, "write-50MiB-0");
  EXPECT_EQ(workload.tasks[2].footprint_bytes, 50 * kMiB);
  EXPECT_EQ(workload.tasks[2].passes, 1U);
}

using testing::BadFile;

class WorkloadTomlErrors : public ::testing::TestWithParam<BadFile> {};

TEST_P(WorkloadTomlErrors, AreInputErrorsNamingFileLineAndKey) {
  testing::expect_refused(GetParam(), "w.toml", [](const auto& path) { (void)load_workload(path, with_platform()); });
}

INSTANTIATE_TEST_SUITE_P(
    EveryClass, WorkloadTomlErrors,
    ::testing::Values(
        BadFile{"[[tasks]]\nkernel = \"triad\"\nfootprint_mib = 64\ncuont = 2\n", "unknown key 'tasks[0].cuont'", 4},
        BadFile{"workload = 1\n", "unknown key 'workload'", 1},
        BadFile{"[[tasks]]\nkernel = 3\nfootprint_mib = 64\n", "key 'tasks[0].kernel' must be a string", 2},
        BadFile{"[[tasks]]\nkernel = \"triad\"\nfootprint_mib = 64\ncount = 2.5\n", "'tasks[0].count' must be an "
                                                                                  "integer", 4},
        BadFile{"[[tasks]]\nfootprint_mib = 64\n", "missing key 'tasks[0].kernel'", 1},
        BadFile{"[[tasks]]\nkernel = \"triad\"\n", "exactly one of", 1},
        BadFile{"[[tasks]]\nkernel = \"triad\"\nfootprint_mib = 64\nfootprint_percent_of_fast = 5\n", "exactly one",
                1},
        BadFile{"[[tasks]]\nkernel = \"triad\"\nfootprint_mib = -5\n", "'tasks[0].footprint_mib' must be finite", 3},
        BadFile{"[[tasks]]\nkernel = \"triad\"\nfootprint_mib = nan\n", "must be finite", 3},
        BadFile{"[[tasks]]\nkernel = \"triad\"\nfootprint_mib = inf\n", "must be finite", 3},
        BadFile{"[[tasks]]\nkernel = \"triad\"\nfootprint_mib = 1e-9\n", "rounds to 0 bytes", 3},
        BadFile{"[[tasks]]\nkernel = \"triad\"\nfootprint_percent_of_fast = 0.1\n", "rounds down to 0 MiB", 3},
        BadFile{"[[tasks]]\nkernel = \"triad\"\nfootprint_mib = 64\ncount = 0\n", "'tasks[0].count' must be an "
                                                                                "integer from 1", 4},
        BadFile{"[[tasks]]\nkernel = \"triad\"\nfootprint_mib = 64\ncount = 10000000\n", "'tasks[0].count'", 4},
        BadFile{"[[tasks]]\nkernel = \"triad\"\nfootprint_mib = 64\npasses = 0\n", "'tasks[0].passes'", 4},
        BadFile{"[[tasks]]\nkernel = \"fft\"\nfootprint_mib = 64\n", "unknown kernel 'fft'", 2},
        BadFile{"[[tasks]]\nkernel = \"../triad\"\nfootprint_mib = 64\n", "is not allowed", 2},
        BadFile{"name = \"a b\"\n[[tasks]]\nkernel = \"triad\"\nfootprint_mib = 64\n", "\"a b\" is not allowed", 1},
        BadFile{"name = \"empty\"\n", "no [[tasks]] entries", 0},
        BadFile{"tasks = 3\n", "'tasks' must be an array of tables", 1},
        BadFile{"[[tasks]]\nkernel = \"triad\"\nfootprint_mib = [\n", "w.toml:3:", 3},
        // online runs: release times and users
        BadFile{"[[tasks]]\nkernel = \"triad\"\nfootprint_mib = 64\nrelease_s = -1\n",
                "'tasks[0].release_s' must be finite, >= 0", 4},
        BadFile{"[[tasks]]\nkernel = \"triad\"\nfootprint_mib = 64\nrelease_s = nan\n", "must be finite", 4},
        BadFile{"[[tasks]]\nkernel = \"triad\"\nfootprint_mib = 64\nrelease_s = \"soon\"\n", "must be a number", 4},
        BadFile{"[[tasks]]\nkernel = \"triad\"\nfootprint_mib = 64\nrelease_every_s = -2\n",
                "'tasks[0].release_every_s' must be finite", 4},
        BadFile{"[[tasks]]\nkernel = \"triad\"\nfootprint_mib = 64\ncount = 3\nrelease_every_s = 9e8\n",
                "the release of copy 2 must be finite, >= 0 and <= 1e+09, got 1.8e+09", 5},
        BadFile{"[[tasks]]\nkernel = \"triad\"\nfootprint_mib = 64\nuser = \"a/b\"\n", "key 'tasks[0].user': id \"a/b\" is not allowed", 4},
        BadFile{"[[tasks]]\nkernel = \"triad\"\nfootprint_mib = 64\nuser = 5\n", "must be a string", 4}));

TEST(WorkloadToml, MoreTasksThanTheLimitAreRefused) {
  std::string text;
  for (int entry = 0; entry < 2; ++entry) text += "[[tasks]]\nkernel = \"triad\"\nfootprint_mib = 64\ncount = 6000\n";
  const std::string what = testing::input_error_of([&] { (void)parse_workload_toml(text, "w.toml"); });
  EXPECT_NE(what.find("w.toml:5: the workload would have more than 10000 tasks"), std::string::npos) << what;
}

TEST(WorkloadToml, APercentOfTheFastTierNeedsAPlatform) {
  const std::string text = "[[tasks]]\nkernel = \"triad\"\nfootprint_percent_of_fast = 50\n";
  const std::string what = testing::input_error_of([&] { (void)parse_workload_toml(text, "w.toml"); });
  EXPECT_NE(what.find("w.toml:3: key 'tasks[0].footprint_percent_of_fast' needs a platform"), std::string::npos)
      << what;
}

TEST(WorkloadJson, CommandsAndStreamTasks) {
  const auto workload = parse_workload_json(
      R"({"name": "mix", "tasks": [{"id": "cmd", "command": ["/bin/echo", "{threads}", "{cpuset}"], "timeout_s": 5},
                                   {"id": "s0", "kernel": "triad", "footprint_bytes": 67108864, "passes": 3}]})",
      "w.json", with_platform());
  EXPECT_EQ(workload.name, "mix");
  EXPECT_EQ(workload.find("cmd").command.size(), 3U);
  EXPECT_FALSE(workload.find("cmd").is_stream());
  EXPECT_DOUBLE_EQ(*workload.find("cmd").timeout_s, 5.0);
  EXPECT_TRUE(workload.find("s0").is_stream());
  EXPECT_EQ(workload.find("s0").footprint_bytes, 64 * kMiB);
  EXPECT_EQ(workload.find("s0").passes, 3U);
  EXPECT_THROW((void)workload.find("nope"), InputError);
}

TEST(WorkloadJson, WriterOutputReadsBackToTheSameTasks) {
  Workload workload;
  workload.name = "w";
  workload.description = "round trip";
  add_stream_tasks(workload, {"triad", 64 * kMiB, 2, 7});
  workload.tasks.push_back({"cmd", "", 0, 1, {"prog", "--cpus={cpuset}", "{print $1}"}, 12.5});
  const nlohmann::json json = workload;
  const Workload read = parse_workload_json(json.dump(), "w.json");
  EXPECT_EQ(read.name, workload.name);
  EXPECT_EQ(read.description, workload.description);
  EXPECT_EQ(read.tasks, workload.tasks);
  const auto task = json.at("tasks").at(0).get<WorkloadTask>();  // nlohmann's from_json
  EXPECT_EQ(task, workload.tasks[0]);
}

TEST(WorkloadJson, ACommandSaysHowItsWorkScalesAndWritesItBack) {
  const auto workload = parse_workload_json(
      R"({"name": "w", "tasks": [{"id": "a", "command": ["solver", "--steps={work}"],
                                  "work": {"value": 1000, "profile": [10, 50]}}]})",
      "w.json");
  const WorkloadTask& task = workload.find("a");
  ASSERT_TRUE(task.work.has_value());
  EXPECT_DOUBLE_EQ(task.work->value, 1000.0);
  EXPECT_EQ(task.work->profile, (std::vector<double>{10, 50}));
  EXPECT_EQ(parse_workload_json(nlohmann::json(workload).dump(), "w.json").tasks, workload.tasks);
  EXPECT_EQ(command_at_work(task.command, task.work->value), (std::vector<std::string>{"solver", "--steps=1000"}));
}

TEST(WorkloadJson, AWorkThatCannotBeUsedIsRefusedNamingWhy) {
  const auto refused = [](const std::string& task) {
    try {
      (void)parse_workload_json(R"({"name": "w", "tasks": [)" + task + "]}", "w.json");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(refused(R"({"id": "a", "command": ["p", "{work}"]})").find("needs the task's \"work\""),
            std::string::npos);
  EXPECT_NE(refused(R"({"id": "a", "command": ["p", "{work}"], "work": {"value": 10, "profile": [20]}})")
                .find("each below"),
            std::string::npos);
  EXPECT_NE(refused(R"({"id": "a", "command": ["p", "{work}"], "work": {"value": 10, "profile": [5, 2]}})")
                .find("ascend"),
            std::string::npos);
  EXPECT_NE(refused(R"({"id": "a", "command": ["p", "{work}"], "work": {"value": -1}})").find("value"),
            std::string::npos);
  EXPECT_NE(refused(R"({"id": "a", "command": ["p", "{work}"], "work": {"value": 1, "steps": 2}})")
                .find("unknown key"),
            std::string::npos);
}

TEST(WorkloadJson, AnInstanceJsonIsLeftToTheInstanceParser) {
  // One parser per format: cli::read_workload reads an Instance through sched, then each task's attributes.
  const char* instance = R"({"resources": [{"name": "cores", "capacity": 1}], "workload": "w",
    "tasks": [{"id": "triad-1MiB-0", "kernel": "triad", "footprint_bytes": 1048576, "passes": 2,
               "times": [null, 1]}]})";
  const std::string what = testing::input_error_of([&] { (void)parse_workload_json(instance, "inst.json"); });
  EXPECT_NE(what.find("inst.json: this is an Instance JSON"), std::string::npos) << what;
  const auto task = task_from_json(nlohmann::json::parse(instance).at("tasks").at(0), "inst.json: tasks[0]",
                                   {{}, /*other_keys_allowed=*/true});
  EXPECT_EQ(task.passes, 2U);
}

struct BadJson {
  const char* text;
  const char* fragment;
};
void PrintTo(const BadJson& bad, std::ostream* out) { *out << bad.text; }

class WorkloadJsonErrors : public ::testing::TestWithParam<BadJson> {};

TEST_P(WorkloadJsonErrors, AreInputErrorsNamingTheEntryAndTask) {
  const auto& [text, fragment] = GetParam();
  const std::string what = testing::input_error_of([&] { (void)parse_workload_json(text, "w.json", with_platform()); });
  EXPECT_EQ(what.rfind("w.json", 0), 0U) << what;
  EXPECT_NE(what.find(fragment), std::string::npos) << text << " -> " << what;
}

INSTANTIATE_TEST_SUITE_P(
    EveryClass, WorkloadJsonErrors,
    ::testing::Values(
        BadJson{R"([1])", "an object with a \"tasks\" array"},
        BadJson{R"({"tasks": [)", "not valid JSON"},
        BadJson{R"({"tasks": [{"id": "a", "command": ["x"], "timeout_s": 1e999}]})", "not valid JSON"},
        BadJson{R"({"tasks": []})", "\"tasks\" is empty"},
        BadJson{R"({"tasks": [{"id": "a", "command": ["x"]}], "extra": 1})", "unknown key \"extra\""},
        BadJson{R"({"tasks": [{"id": "a"}]})", "tasks[0] (task \"a\"): needs \"command\""},
        BadJson{R"({"tasks": [{"id": 3, "command": ["x"]}]})", "tasks[0]: a task needs a string \"id\""},
        BadJson{R"({"tasks": [{"id": "", "command": ["x"]}]})", "id \"\" is not allowed"},
        BadJson{R"({"tasks": [{"id": "../up", "command": ["x"]}]})", "id \"../up\" is not allowed"},
        BadJson{R"({"tasks": [{"id": "a", "command": ["x"], "colour": 1}]})", "(task \"a\"): unknown key \"colour\""},
        BadJson{R"({"tasks": [{"id": "a", "command": []}]})", "non-empty argv"},
        BadJson{R"({"tasks": [{"id": "a", "command": [""]}]})", "non-empty argv"},
        BadJson{R"({"tasks": [{"id": "a", "command": "x"}]})", "array of strings"},
        BadJson{R"({"tasks": [{"id": "a", "command": ["x", 1]}]})", "strings only"},
        BadJson{R"({"tasks": [{"id": "a", "command": ["x", "{thread}"]}]})",
                "(task \"a\"): command[1] uses the unknown placeholder {thread}"},
        BadJson{R"({"tasks": [{"id": "a", "command": ["x", "a\u0000b"]}]})", "NUL"},
        BadJson{R"({"tasks": [{"id": "a", "command": ["x"], "kernel": "triad"}]})", "not both"},
        BadJson{R"({"tasks": [{"id": "a", "command": ["x"], "passes": 2}]})", "belong to a STREAM task"},
        BadJson{R"({"tasks": [{"id": "a", "kernel": "fft", "footprint_bytes": 8}]})", "unknown kernel 'fft'"},
        BadJson{R"({"tasks": [{"id": "a", "kernel": "triad"}]})", "needs \"footprint_bytes\""},
        BadJson{R"({"tasks": [{"id": "a", "kernel": "triad", "footprint_bytes": 0}]})", "\"footprint_bytes\" must be"},
        BadJson{R"({"tasks": [{"id": "a", "kernel": "triad", "footprint_bytes": -8}]})", "\"footprint_bytes\" must be"},
        BadJson{R"({"tasks": [{"id": "a", "kernel": "triad", "footprint_bytes": 8.5}]})", "\"footprint_bytes\" is not an integer"},
        BadJson{R"({"tasks": [{"id": "a", "kernel": "triad", "footprint_bytes": 18446744073709551615}]})",
                "\"footprint_bytes\" must be"},
        BadJson{R"({"tasks": [{"id": "a", "kernel": "triad", "footprint_bytes": 8, "passes": 0}]})",
                "\"passes\" must be"},
        BadJson{R"({"tasks": [{"id": "a", "command": ["x"], "timeout_s": -1}]})", "\"timeout_s\" must be finite"},
        BadJson{R"({"tasks": [{"id": "a", "command": ["x"], "timeout_s": "60"}]})", "\"timeout_s\" must be a number"},
        BadJson{R"({"tasks": [{"id": "a", "command": ["x"]}, {"id": "a", "command": ["y"]}]})",
                "tasks[1]: task id \"a\" appears twice"},
        BadJson{R"({"tasks": [{"id": "a", "command": ["x"], "release_s": -1}]})",
                "(task \"a\"): \"release_s\" must be finite"},
        BadJson{R"({"tasks": [{"id": "a", "command": ["x"], "release_s": "soon"}]})", "(task \"a\"): \"release_s\""},
        BadJson{R"({"tasks": [{"id": "a", "command": ["x"], "user": 3}]})", "(task \"a\"): \"user\""},
        BadJson{R"({"tasks": [{"id": "a", "command": ["x"], "user": "../x"}]})",
                "(task \"a\"): \"user\": id \"../x\" is not allowed"}));

TEST(Command, KnownPlaceholdersAndOtherBracesPass) {
  EXPECT_NO_THROW(check_command({"prog", "{threads}", "--cpus={cpuset}", "{cores}:{fast_bytes}"}, "w"));
  EXPECT_NO_THROW(check_command({"awk", "{print $1}", "{}", "{", "}", "{1}", "${HOME"}, "w"));
  EXPECT_EQ(command_placeholders().size(), 4U);
  for (const auto placeholder : command_placeholders()) {
    EXPECT_NO_THROW(check_command({"prog", std::string(placeholder)}, "w")) << placeholder;
  }
  const std::string what = testing::input_error_of([] { check_command({"prog", "{threads}{HOME}"}, "w.json: t"); });
  EXPECT_NE(what.find("w.json: t: command[1] uses the unknown placeholder {HOME}"), std::string::npos) << what;
}

TEST(WorkloadJson, ACommandTaskNamesItsProfileAndFootprintAndWritesThemBack) {
  const Workload workload = parse_workload_json(
      R"({"tasks": [{"id": "t", "command": ["prog", "{threads}"], "profile": "solver", "footprint_bytes": 4096}]})",
      "w.json");
  ASSERT_EQ(workload.tasks.size(), 1U);
  EXPECT_EQ(workload.tasks[0].profile, "solver");
  EXPECT_EQ(workload.tasks[0].footprint_bytes, 4096U);
  const nlohmann::json written = workload.tasks[0];
  EXPECT_EQ(written["profile"], "solver");
  EXPECT_EQ(written["footprint_bytes"], 4096);
  EXPECT_EQ(task_from_json(written, "again"), workload.tasks[0]);
  EXPECT_THROW((void)parse_workload_json(R"({"tasks": [{"id": "t", "command": ["p"], "profile": "../x"}]})", "w.json"),
               InputError);
  EXPECT_THROW((void)parse_workload_json(
                   R"({"tasks": [{"id": "t", "kernel": "triad", "footprint_bytes": 64, "profile": "x"}]})", "w.json"),
               InputError);
}

TEST(WorkloadJson, ACommandsEnvReadsSortedAndWritesBack) {
  const Workload workload = parse_workload_json(
      R"({"tasks": [{"id": "t", "command": ["prog"], "env": {"OMP_PROC_BIND": "true", "A_1": "x=y"}}]})", "w.json");
  ASSERT_EQ(workload.tasks.size(), 1U);
  EXPECT_EQ(workload.tasks[0].environment, (std::vector<std::string>{"A_1=x=y", "OMP_PROC_BIND=true"}));
  const nlohmann::json written = workload.tasks[0];
  EXPECT_EQ(written["env"]["A_1"], "x=y");
  EXPECT_EQ(task_from_json(written, "again"), workload.tasks[0]);
}

TEST(WorkloadJson, ABadEnvIsAnInputErrorNamingTheTask) {
  for (const char* bad : {R"({"tasks": [{"id": "t", "command": ["p"], "env": ["A=1"]}]})",
                          R"({"tasks": [{"id": "t", "command": ["p"], "env": {"A": 1}}]})",
                          R"({"tasks": [{"id": "t", "command": ["p"], "env": {"1A": "x"}}]})",
                          R"({"tasks": [{"id": "t", "command": ["p"], "env": {"A-B": "x"}}]})",
                          R"({"tasks": [{"id": "t", "command": ["p"], "env": {"A=B": "x"}}]})",
                          R"({"tasks": [{"id": "t", "kernel": "triad", "footprint_bytes": 64, "env": {"A": "x"}}]})"}) {
    const std::string what = testing::input_error_of([&] { (void)parse_workload_json(bad, "w.json"); });
    EXPECT_NE(what.find("task \"t\""), std::string::npos) << bad << ": " << what;
  }
  EXPECT_EQ(environment_entries({{"_X", ""}, {"Y2", "a b"}, {"Z", "x=y"}}, "w"),
            (std::vector<std::string>{"_X=", "Y2=a b", "Z=x=y"}));
  EXPECT_THROW((void)environment_entries({{"", "x"}}, "w"), InputError);
  EXPECT_THROW((void)environment_entries({{std::string("A\0B", 3), "x"}}, "w"), InputError);
  EXPECT_THROW((void)environment_entries({{"A", std::string("x\0y", 3)}}, "w"), InputError);
}

// Issue #27, item 6: {"A=B": "x"} became A="B=x" — the name was only checked in the joined entry, up to its first
// '='. The name is checked on its own now, and the message says what the child would have seen.
TEST(WorkloadJson, AnEnvNameHoldingEqualsIsRefusedNotSplit) {
  const std::string what = testing::input_error_of([] {
    (void)parse_workload_json(R"({"tasks": [{"id": "t", "command": ["p"], "env": {"A=B": "x"}}]})", "w.json");
  });
  EXPECT_NE(what.find("w.json"), std::string::npos) << what;
  EXPECT_NE(what.find("task \"t\""), std::string::npos) << what;
  EXPECT_NE(what.find(R"(the name "A=B" holds '=', so the child would see A="B=x")"), std::string::npos) << what;
  EXPECT_THROW((void)environment_entries({{"A=B", "x"}}, "w"), InputError);
}

}  // namespace
}  // namespace cosched::config
