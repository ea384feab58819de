// The journal schema's one writer and one reader: every event kind round-trips field for field, and a field of
// the wrong type, an unknown status or event, or a non-finite time is an InputError naming the field.
#include "cosched/launcher/journal/events.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "cosched/common/error.hpp"

namespace cosched::launcher {
namespace {

using nlohmann::json;

BatchStart full_header() {
  BatchStart e;
  e.time_utc = "2026-01-02T03:04:05.000006Z";
  e.host = "node7";
  e.policy = "list";
  e.algorithm = "t-list-lpt";
  e.schedule = "sched.json";
  e.workload = "w.toml";
  e.label = "cores+fast";
  e.tier_backend = "emulated";
  e.emulated = true;
  e.emulation_ratio = 5.0;
  e.chunk_bytes = 25165824.0;
  e.resources = {{"cores", 2}, {"fast_chunks", 20}};
  e.lower_bound = 1.25;
  e.planned_makespan = 2.5;
  e.predicted_makespan = 2.75;
  e.predicted_makespan_contention = 3.5;
  e.fail_fast = true;
  e.timeout_s = 60.0;
  e.resumed = true;
  e.already_completed = {"a"};
  e.journal_repaired_bytes = 17;
  e.plan = {{"b", {1, 4}, 0.5, 1.5, 0.75, 3}};
  e.inputs = BatchInputs{{"fnv1a64:0000000000000001", "s"}, {"fnv1a64:0000000000000002", "w"},
                         {"fnv1a64:0000000000000003", "p"}};
  e.memory_warm_up = MemoryWarmUp{603979776, 1.625, "virtio-balloon device virtio0 reports free pages"};
  e.predicted_interval = PredictedInterval{2.25, 3.75, 0.8};
  return e;
}

TaskStart full_start() {
  TaskStart e;
  e.task = "b";
  e.time_utc = "t";
  e.t = 0.5;
  e.planned_start = 0.5;
  e.predicted_start = 0.75;
  e.predicted_contention_start = 0.875;
  e.predicted_contention_end = 2.625;
  e.alloc = {1, 4};
  e.cores = {1};
  e.pus = {1, 3};
  e.fast_chunks = 4;
  e.fast_bytes = 100663296;
  e.placement = "stream_bench --tier-backend emulated";
  e.pid = 4242;
  e.launch_overhead_s = 0.0015;
  e.argv = {"/bin/true", "x y"};
  e.pack = 3;
  e.launch_error.emplace("exec failed");
  return e;
}

TaskEnd full_end() {
  TaskEnd e;
  e.task = "b";
  e.time_utc = "t";
  e.status = sim::TaskStatus::timeout;
  e.t = 2.0;
  e.actual_start = 0.5;
  e.actual_end = 2.0;
  e.duration_s = 1.5;
  e.planned_start = 0.5;
  e.planned_end = 2.0;
  e.predicted_duration = 1.5;
  e.exit_code = 3;
  e.signal = 15;
  e.message.emplace("timed out");
  return e;
}

BatchEnd full_footer() {
  BatchEnd e;
  e.time_utc = "t";
  e.status = BatchStatus::interrupted;
  e.observed_makespan = 2.0;
  e.predicted_makespan = 2.75;
  e.lower_bound = 1.25;
  e.ratio = 0.727;
  e.tasks_completed = 1;
  e.tasks_failed = 2;
  e.tasks_killed = 3;
  e.tasks_not_started = 4;
  e.overcommit_refusals = 5;
  return e;
}

// to_json then event_from_json gives back an event whose JSON is identical: every field survives.
void expect_round_trip(const JournalEvent& event) {
  const json written = to_json(event);
  EXPECT_EQ(written["event"], std::string(event_name(event)));
  const JournalEvent read = event_from_json(written, "test");
  EXPECT_EQ(read.index(), event.index());
  EXPECT_EQ(to_json(read), written) << written.dump();
}

TEST(JournalEvents, EveryKindRoundTripsFieldForField) {
  expect_round_trip(full_header());
  expect_round_trip(full_start());
  expect_round_trip(full_end());
  expect_round_trip(OvercommitRefused{"b", "cores busy", "t"});
  expect_round_trip(full_footer());
  expect_round_trip(Replanned{"t", 1.25, "a", "learnt as it ran: a took 1.2 s",
                              {{"b", {2, 4}, 0.75, false}, {"c", {1, 0}, std::nullopt, true}}, 2.5});
  // Defaults (optional fields absent) round-trip too.
  expect_round_trip(BatchStart{});
  TaskStart start;
  start.task = "a";
  expect_round_trip(start);
  TaskEnd end;
  end.task = "a";
  expect_round_trip(end);
  expect_round_trip(BatchEnd{});
  Replanned replan;
  replan.after = "a";
  expect_round_trip(replan);
}

TEST(JournalEvents, TypedValuesComeBackAsTypes) {
  const auto header = std::get<BatchStart>(event_from_json(to_json(full_header()), "test"));
  ASSERT_TRUE(header.inputs.has_value());
  EXPECT_EQ(header.inputs->workload.digest, "fnv1a64:0000000000000002");
  ASSERT_EQ(header.plan.size(), 1U);
  EXPECT_EQ(header.plan[0].pack, 3);
  EXPECT_EQ(header.plan[0].alloc, (std::vector<int>{1, 4}));
  const auto end = std::get<TaskEnd>(event_from_json(to_json(full_end()), "test"));
  EXPECT_EQ(end.status, sim::TaskStatus::timeout);
  EXPECT_EQ(end.signal, 15);
  EXPECT_EQ(std::get<BatchEnd>(event_from_json(to_json(full_footer()), "test")).status, BatchStatus::interrupted);
}

TEST(JournalEvents, ContentionPredictionsComeBackAndOlderJournalsWithoutThemStillRead) {
  const auto header = std::get<BatchStart>(event_from_json(to_json(full_header()), "test"));
  EXPECT_EQ(header.predicted_makespan_contention, 3.5);
  const auto start = std::get<TaskStart>(event_from_json(to_json(full_start()), "test"));
  EXPECT_EQ(start.predicted_contention_start, 0.875);
  EXPECT_EQ(start.predicted_contention_end, 2.625);
  // Without a bandwidth model: null in the header, absent from the start.
  const json bare_header = to_json(BatchStart{});
  EXPECT_TRUE(bare_header.at("predicted_makespan_contention").is_null());
  TaskStart bare_start;
  bare_start.task = "a";
  EXPECT_FALSE(to_json(bare_start).contains("predicted_contention_start"));
  // Written before the contention-aware prediction existed: the fields are missing.
  const auto old_header = std::get<BatchStart>(
      event_from_json(json::parse(R"({"event":"batch_start","predicted_makespan":2.0})"), "test"));
  EXPECT_FALSE(old_header.predicted_makespan_contention.has_value());
  const auto old_start =
      std::get<TaskStart>(event_from_json(json::parse(R"({"event":"start","task":"a","t":0})"), "test"));
  EXPECT_FALSE(old_start.predicted_contention_start.has_value());
  EXPECT_FALSE(old_start.predicted_contention_end.has_value());
}

TEST(JournalEvents, AMemoryWarmUpComesBackAndJournalsWithoutOneStillRead) {
  const auto header = std::get<BatchStart>(event_from_json(to_json(full_header()), "test"));
  ASSERT_TRUE(header.memory_warm_up.has_value());
  EXPECT_EQ(header.memory_warm_up->bytes, 603979776U);
  EXPECT_EQ(header.memory_warm_up->seconds, 1.625);
  EXPECT_EQ(header.memory_warm_up->reason, "virtio-balloon device virtio0 reports free pages");
  EXPECT_FALSE(to_json(BatchStart{}).contains("memory_warm_up"));
  const auto old_header = std::get<BatchStart>(
      event_from_json(json::parse(R"({"event":"batch_start","predicted_makespan":2.0})"), "test"));
  EXPECT_FALSE(old_header.memory_warm_up.has_value());
  // A negative or non-finite time, or a negative size, is refused like any other field.
  EXPECT_THROW((void)event_from_json(
                   json::parse(R"({"event":"batch_start","memory_warm_up":{"bytes":1,"seconds":-1,"reason":""}})"),
                   "test"),
               InputError);
  EXPECT_THROW((void)event_from_json(
                   json::parse(R"({"event":"batch_start","memory_warm_up":{"bytes":-1,"seconds":1,"reason":""}})"),
                   "test"),
               InputError);
}

TEST(JournalEvents, APredictedIntervalComesBackAndJournalsWithoutOneStillRead) {
  const auto header = std::get<BatchStart>(event_from_json(to_json(full_header()), "test"));
  ASSERT_TRUE(header.predicted_interval.has_value());
  EXPECT_EQ(*header.predicted_interval, (PredictedInterval{2.25, 3.75, 0.8}));
  EXPECT_FALSE(to_json(BatchStart{}).contains("predicted_interval"));
  const auto old_header = std::get<BatchStart>(
      event_from_json(json::parse(R"({"event":"batch_start","predicted_makespan":2.0})"), "test"));
  EXPECT_FALSE(old_header.predicted_interval.has_value());
  // An interval upside down, a negative bound or a coverage outside [0, 1] is refused.
  for (const char* interval : {R"({"low_s":3,"high_s":2,"coverage":0.8})", R"({"low_s":-1,"high_s":2,"coverage":0.8})",
                               R"({"low_s":1,"high_s":2,"coverage":1.5})"}) {
    EXPECT_THROW((void)event_from_json(json::parse(std::string(R"({"event":"batch_start","predicted_interval":)") +
                                                   interval + "}"),
                                       "test"),
                 InputError)
        << interval;
  }
}

TEST(JournalEvents, StatusesHaveOneSpellingEach) {
  for (BatchStatus status : {BatchStatus::ok, BatchStatus::failed, BatchStatus::stopped, BatchStatus::interrupted}) {
    EXPECT_EQ(parse_batch_status(to_string(status)), status);
  }
  EXPECT_FALSE(parse_batch_status("done").has_value());
}

TEST(JournalEvents, NonFiniteTimesAreRefused) {
  for (const double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    const json start = {{"event", "start"}, {"task", "a"}, {"t", bad}};
    EXPECT_THROW((void)event_from_json(start, "test"), InputError) << bad;
    const json header = {{"event", "batch_start"}, {"lower_bound", bad}};
    EXPECT_THROW((void)event_from_json(header, "test"), InputError) << bad;
  }
}

struct BadEvent {
  std::string label;
  std::string line;      // the JSON object
  std::string mention;   // what the message must name
};

void PrintTo(const BadEvent& bad, std::ostream* out) { *out << bad.label; }

class JournalEventRefusal : public ::testing::TestWithParam<BadEvent> {};

TEST_P(JournalEventRefusal, IsAnInputErrorNamingThePlaceAndTheField) {
  const json object = json::parse(GetParam().line);
  try {
    (void)event_from_json(object, "run.jsonl:7");
    FAIL() << "accepted " << GetParam().line;
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("run.jsonl:7"), std::string::npos) << message;
    EXPECT_NE(message.find(GetParam().mention), std::string::npos) << message;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Fields, JournalEventRefusal,
    ::testing::Values(
        BadEvent{"not_an_object", R"([1])", "JSON object"},
        BadEvent{"no_event", R"({"task":"a"})", "\"event\""},
        BadEvent{"event_not_a_string", R"({"event":3})", "\"event\""},
        BadEvent{"unknown_event", R"({"event":"pause"})", "unknown event \"pause\""},
        BadEvent{"start_without_task", R"({"event":"start","t":0})", "\"task\""},
        BadEvent{"start_without_t", R"({"event":"start","task":"a"})", "\"t\""},
        BadEvent{"t_as_string", R"({"event":"start","task":"a","t":"soon"})", "\"t\" must be a number"},
        BadEvent{"negative_t", R"({"event":"start","task":"a","t":-1})", "\"t\""},
        BadEvent{"absurd_t", R"({"event":"end","task":"a","t":1e12,"status":"ok"})", "\"t\""},
        BadEvent{"task_as_number", R"({"event":"end","task":7,"t":1,"status":"ok"})", "\"task\" must be a string"},
        BadEvent{"unknown_status", R"({"event":"end","task":"a","t":1,"status":"done"})", "unknown task status"},
        BadEvent{"status_as_bool", R"({"event":"end","task":"a","t":1,"status":true})", "\"status\""},
        BadEvent{"cores_as_string", R"({"event":"start","task":"a","t":0,"cores":"0-3"})", "\"cores\""},
        BadEvent{"negative_core", R"({"event":"start","task":"a","t":0,"cores":[-1]})", "\"cores\""},
        BadEvent{"fractional_pid", R"({"event":"start","task":"a","t":0,"pid":1.5})", "\"pid\""},
        BadEvent{"argv_of_numbers", R"({"event":"start","task":"a","t":0,"argv":[1]})", "\"argv\""},
        BadEvent{"emulated_as_string", R"({"event":"batch_start","emulated":"yes"})", "\"emulated\""},
        BadEvent{"plan_not_an_array", R"({"event":"batch_start","plan":{}})", "\"plan\""},
        BadEvent{"plan_entry_without_task", R"({"event":"batch_start","plan":[{"alloc":[1]}]})", "plan[0]"},
        BadEvent{"inputs_without_digest", R"({"event":"batch_start","inputs":{"schedule":{},"workload":{},
                 "platform":{}}})", "\"digest\""},
        BadEvent{"bad_emulation_ratio", R"({"event":"batch_start","emulation_ratio":0.5})", "\"emulation_ratio\""},
        BadEvent{"unknown_batch_status", R"({"event":"batch_end","status":"paused"})", "unknown batch status"},
        BadEvent{"count_negative", R"({"event":"batch_end","status":"ok","tasks_failed":-2})", "\"tasks_failed\""},
        BadEvent{"makespan_as_string", R"({"event":"batch_end","status":"ok","observed_makespan":"2"})",
                 "\"observed_makespan\""},
        BadEvent{"contention_makespan_as_string", R"({"event":"batch_start","predicted_makespan_contention":"3"})",
                 "\"predicted_makespan_contention\""},
        BadEvent{"replan_without_after", R"({"event":"replan","t":1,"tasks":[]})", "\"after\""},
        BadEvent{"replan_without_t", R"({"event":"replan","after":"a","tasks":[]})", "\"t\""},
        BadEvent{"replanned_task_without_id", R"({"event":"replan","t":1,"after":"a","tasks":[{"alloc":[1]}]})",
                 "tasks[0]"},
        BadEvent{"replanned_duration_negative",
                 R"({"event":"replan","t":1,"after":"a","tasks":[{"task":"b","predicted_duration":-1}]})",
                 "\"predicted_duration\""},
        BadEvent{"negative_contention_end", R"({"event":"start","task":"a","t":0,"predicted_contention_end":-1})",
                 "\"predicted_contention_end\""}),
    [](const ::testing::TestParamInfo<BadEvent>& test) { return test.param.label; });

}  // namespace
}  // namespace cosched::launcher
