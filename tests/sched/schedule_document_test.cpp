// The Schedule JSON document: one parser, one writer, and the two ways a document is matched — to the instance
// it came from (by id, resources equal) and to a node (by resource name, trailing resources may be left out).
#include <gtest/gtest.h>

#include "cosched/common/error.hpp"
#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/allocation.hpp"
#include "cosched/sched/io.hpp"
#include "sched/test_support.hpp"

namespace cosched::sched {
namespace {

std::string error_of(const std::string& text) {
  try {
    (void)parse_schedule_document(text, "s.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

std::string with_tasks(const std::string& tasks) {
  return R"({"algorithm": "x", "makespan": 1, "lower_bound": 1, "tasks": [)" + tasks + "]}";
}

const std::string kTaskA = R"({"id": "a", "alloc": [1, 0], "start": 0, "duration": 1})";
const char* const kDramModel = R"("bandwidth": {"pools": [{"name": "dram", "cores": [1], "bytes_per_s": [1e10]}]})";

// A schedule of an instance with a bandwidth model carries the model and each task's traffic at its allocation, and
// reads them back exactly; an instance without one writes neither.
TEST(ScheduleDocumentTest, CarriesTheInstancesBandwidthModelAndEachTasksTrafficAtItsAllocation) {
  const Instance instance = testing::with_random_traffic(testing::random_dense_instance(23, {3, 2}, 6), 23, 2);
  const PlanResult result = plan(find_algorithm("t-list-lpt"), instance, lower_bound(instance));
  const std::string text = schedule_document_to_json(make_schedule_document(instance, result.schedule));
  const ScheduleDocument read = parse_schedule_document(text, "s.json");
  ASSERT_EQ(read.bandwidth.pools.size(), 2U);
  EXPECT_EQ(read.bandwidth.pools[0].name, instance.bandwidth().pools[0].name);
  EXPECT_EQ(read.bandwidth.pools[0].bytes_per_s, instance.bandwidth().pools[0].bytes_per_s);
  std::size_t with_traffic = 0;
  for (std::size_t j = 0; j < read.tasks.size(); ++j) {
    EXPECT_EQ(read.tasks[j].traffic_bytes, instance.traffic(j, result.schedule.tasks[j].alloc)) << read.tasks[j].id;
    with_traffic += read.tasks[j].traffic_bytes.empty() ? 0 : 1;
  }
  EXPECT_GT(with_traffic, 0U);
  EXPECT_EQ(schedule_document_to_json(read), text) << "written again, the same text";

  const Instance plain = testing::random_dense_instance(23, {3, 2}, 6);
  const std::string plain_text =
      schedule_document_to_json(make_schedule_document(plain, plan(find_algorithm("t-list-lpt"), plain,
                                                                    lower_bound(plain)).schedule));
  EXPECT_EQ(plain_text.find("bandwidth"), std::string::npos) << plain_text;
  EXPECT_EQ(plain_text.find("traffic_bytes"), std::string::npos) << plain_text;
}

TEST(ScheduleDocumentTest, WriterRecordsTheResourcesAndReadsBackExactly) {
  const Instance instance = testing::random_dense_instance(21, {3, 2}, 5);
  for (const char* name : {"t-list-lpt", "d-pack-nf"}) {
    const PlanResult result = plan(find_algorithm(name), instance, lower_bound(instance));
    const ScheduleDocument written = make_schedule_document(instance, result.schedule);
    const ScheduleDocument read = parse_schedule_document(schedule_document_to_json(written), "s.json");
    EXPECT_EQ(read.algorithm, name);
    EXPECT_EQ(read.makespan, written.makespan);
    EXPECT_EQ(read.lower_bound, written.lower_bound);
    ASSERT_EQ(read.resources.size(), 2U);
    EXPECT_EQ(read.resources[1].name, "r1");
    EXPECT_EQ(read.resources[1].capacity, 2);
    ASSERT_EQ(read.tasks.size(), instance.task_count());
    for (std::size_t j = 0; j < read.tasks.size(); ++j) {
      EXPECT_EQ(read.tasks[j].id, instance.tasks()[j].id);
      EXPECT_EQ(read.tasks[j].task.alloc, result.schedule.tasks[j].alloc);
      EXPECT_EQ(read.tasks[j].task.start, result.schedule.tasks[j].start);
      EXPECT_EQ(read.tasks[j].task.duration, result.schedule.tasks[j].duration);
      EXPECT_EQ(read.tasks[j].task.pack, result.schedule.tasks[j].pack);
    }
  }
}

TEST(ScheduleDocumentTest, MakespanAndLowerBoundAreOptional) {
  const ScheduleDocument document = parse_schedule_document(
      R"({"algorithm": "hand", "tasks": [{"id": "a", "alloc": [1], "start": 2, "duration": 1.5}]})", "s.json");
  EXPECT_EQ(document.makespan, 3.5);
  EXPECT_EQ(document.lower_bound, 0.0);
  EXPECT_TRUE(document.resources.empty());
}

struct BadScheduleCase {
  const char* name;
  std::string text;
  std::string expected;  // the whole message
};

class ScheduleDocumentRejects : public ::testing::TestWithParam<BadScheduleCase> {};

TEST_P(ScheduleDocumentRejects, WithTheFileTheTaskAndTheField) { EXPECT_EQ(error_of(GetParam().text), GetParam().expected); }

INSTANTIATE_TEST_SUITE_P(
    Malformed, ScheduleDocumentRejects,
    ::testing::Values(
        BadScheduleCase{"not_an_object", "[]", "s.json: is not a JSON object"},
        BadScheduleCase{"no_algorithm", R"({"tasks": []})", "s.json: missing \"algorithm\""},
        BadScheduleCase{"overflow", with_tasks(R"({"id": "a", "alloc": [1], "start": 1e999, "duration": 1})"),
                        "s.json: not valid JSON at byte 98: number overflow parsing '1e999'"},
        BadScheduleCase{"start_beyond_limit", with_tasks(R"({"id": "a", "alloc": [1], "start": 1e12, "duration": 1})"),
                        "s.json: task \"a\": \"start\" must be finite, >= 0 and <= 1e+09, got 1e+12"},
        BadScheduleCase{"negative_duration", with_tasks(R"({"id": "a", "alloc": [1], "start": 0, "duration": -1})"),
                        "s.json: task \"a\": \"duration\" must be finite, >= 0 and <= 1e+09, got -1"},
        BadScheduleCase{"duration_a_string", with_tasks(R"({"id": "a", "alloc": [1], "start": 0, "duration": "1"})"),
                        "s.json: task \"a\": \"duration\" is not a number"},
        BadScheduleCase{"negative_alloc", with_tasks(R"({"id": "a", "alloc": [-1], "start": 0, "duration": 1})"),
                        "s.json: task \"a\": alloc[0] must be an integer from 0 to 16777215, got -1"},
        BadScheduleCase{"alloc_beyond_int", with_tasks(R"({"id": "a", "alloc": [4294967297], "start": 0, "duration": 1})"),
                        "s.json: task \"a\": alloc[0] must be an integer from 0 to 16777215, got 4294967297"},
        BadScheduleCase{"fractional_alloc", with_tasks(R"({"id": "a", "alloc": [1.5], "start": 0, "duration": 1})"),
                        "s.json: task \"a\": alloc[0] is not an integer"},
        BadScheduleCase{"empty_alloc", with_tasks(R"({"id": "a", "alloc": [], "start": 0, "duration": 1})"),
                        "s.json: task \"a\": \"alloc\" is empty"},
        BadScheduleCase{"unsafe_id", with_tasks(R"({"id": "a/../../b", "alloc": [1], "start": 0, "duration": 1})"),
                        "s.json: tasks[0]: id \"a/../../b\" is not allowed: ids name files, so they use 1 to 200 "
                        "characters of A-Z a-z 0-9 . _ + - and do not start with '.' or '-'"},
        BadScheduleCase{"duplicate_id", with_tasks(kTaskA + "," + kTaskA), "s.json: task \"a\": scheduled twice"},
        BadScheduleCase{"alloc_lengths_differ",
                        with_tasks(kTaskA + R"(, {"id": "b", "alloc": [1], "start": 0, "duration": 1})"),
                        "s.json: task \"b\": alloc has 1 entries, the first task's 2"},
        BadScheduleCase{"packs_on_some",
                        with_tasks(R"({"id": "a", "alloc": [1], "start": 0, "duration": 1, "pack": 0},
                                      {"id": "b", "alloc": [1], "start": 0, "duration": 1})"),
                        "s.json: 1 of 2 tasks have a \"pack\": a schedule is list or pack, not both"},
        BadScheduleCase{"pack_beyond_tasks",
                        with_tasks(R"({"id": "a", "alloc": [1], "start": 0, "duration": 1, "pack": 5})"),
                        "s.json: task \"a\": \"pack\" must be an integer from 0 to 0, got 5"},
        BadScheduleCase{"alloc_not_the_recorded_resources",
                        R"({"algorithm": "x", "resources": [{"name": "cores", "capacity": 4}],
                            "tasks": [{"id": "a", "alloc": [1, 0], "start": 0, "duration": 1}]})",
                        "s.json: task \"a\": alloc has 2 entries, the schedule's resources are 1 (cores=4)"},
        BadScheduleCase{"alloc_above_recorded_capacity",
                        R"({"algorithm": "x", "resources": [{"name": "cores", "capacity": 4}],
                            "tasks": [{"id": "a", "alloc": [5], "start": 0, "duration": 1}]})",
                        "s.json: task \"a\": alloc[0] = 5 is above the capacity 4 of \"cores\""},
        BadScheduleCase{"makespan_infinite_as_string", R"({"algorithm": "x", "makespan": "inf", "tasks": []})",
                        "s.json: \"makespan\" is not a number"},
        BadScheduleCase{"traffic_without_model",
                        with_tasks(R"({"id": "a", "alloc": [1], "start": 0, "duration": 1,
                                      "traffic_bytes": {"dram": 1e9}})"),
                        "s.json: task \"a\": traffic_bytes: the document has no \"bandwidth\" model naming the "
                        "memory pools"},
        BadScheduleCase{"traffic_missing_a_pool",
                        std::string(R"({"algorithm": "x", )") + kDramModel +
                            R"(, "tasks": [{"id": "a", "alloc": [1], "start": 0, "duration": 1,
                                           "traffic_bytes": {}}]})",
                        "s.json: task \"a\": traffic_bytes: missing \"dram\""},
        BadScheduleCase{"traffic_of_another_pool",
                        std::string(R"({"algorithm": "x", )") + kDramModel +
                            R"(, "tasks": [{"id": "a", "alloc": [1], "start": 0, "duration": 1,
                                           "traffic_bytes": {"dram": 1, "hbm": 2}}]})",
                        "s.json: task \"a\": traffic_bytes: \"hbm\" is not a pool of the bandwidth model"},
        BadScheduleCase{"negative_traffic",
                        std::string(R"({"algorithm": "x", )") + kDramModel +
                            R"(, "tasks": [{"id": "a", "alloc": [1], "start": 0, "duration": 1,
                                           "traffic_bytes": {"dram": -1}}]})",
                        "s.json: task \"a\": traffic_bytes: dram must be finite, >= 0 and <= 1e+21, got -1"},
        BadScheduleCase{"bad_model",
                        R"({"algorithm": "x", "bandwidth": {"pools": [], "speed": 1}, "tasks": []})",
                        "s.json: bandwidth: unknown key \"speed\" (known: pools, provenance)"}),
    [](const auto& test) { return std::string(test.param.name); });

TEST(ScheduleDocumentTest, MatchingRefusesAScheduleMadeForOtherResources) {
  const Instance instance = testing::random_dense_instance(22, {3, 2}, 1);
  const PlanResult result = plan(find_algorithm("t-list-lpt"), instance, lower_bound(instance));
  ScheduleDocument document = make_schedule_document(instance, result.schedule);
  EXPECT_TRUE(find_violations(instance, match_schedule(document, instance, "s.json")).empty());
  document.resources[1].capacity = 4;
  try {
    (void)match_schedule(document, instance, "s.json");
    FAIL() << "matched a schedule made for other capacities";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "s.json: the schedule was made for resources r0=3, r1=4, the instance has r0=3, r1=2");
  }
}

TEST(ScheduleDocumentTest, ANodeResolvesRecordedResourcesByNameAndOlderFilesByAllocLength) {
  const std::vector<Resource> node{{"cores", 8}, {"fast_chunks", 20}};
  const auto resolve = [&](const std::string& text) {
    return resolve_schedule_resources(parse_schedule_document(text, "s.json"), node, "s.json");
  };
  // Recorded: the node's capacities, the schedule's choice of resources.
  auto resources = resolve(R"({"algorithm": "x", "resources": [{"name": "cores", "capacity": 4}], "tasks": []})");
  ASSERT_EQ(resources.size(), 1U);
  EXPECT_EQ(resources[0].capacity, 8);
  // Not recorded: a cores-only schedule on a node with a fast tier, and a cores + chunks one.
  EXPECT_EQ(resolve(R"({"algorithm": "x", "tasks": [{"id": "a", "alloc": [2], "start": 0, "duration": 1}]})").size(),
            1U);
  EXPECT_EQ(resolve(with_tasks(kTaskA)).size(), 2U);
  EXPECT_EQ(resolve(R"({"algorithm": "x", "tasks": []})").size(), 2U);
  EXPECT_THROW((void)resolve(R"({"algorithm": "x", "resources": [{"name": "fast_chunks", "capacity": 4}],
                                 "tasks": []})"),
               InputError);
  try {
    (void)resolve(with_tasks(R"({"id": "a", "alloc": [1, 0, 0], "start": 0, "duration": 1})"));
    FAIL() << "resolved a 3-resource schedule on a 2-resource node";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("s.json: task \"a\": alloc has 3 entries, this node schedules 2 resources "
                                          "(cores=8, fast_chunks=20)",
                                          0),
              0U)
        << e.what();
  }
}

}  // namespace
}  // namespace cosched::sched
