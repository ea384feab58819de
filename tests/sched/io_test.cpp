#include "cosched/sched/io.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "cosched/common/error.hpp"
#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/allocation.hpp"
#include "sched/test_support.hpp"

namespace cosched::sched {
namespace {

const char* const kValid = R"({"resources": [{"name": "cores", "capacity": 2}, {"name": "fast_chunks", "capacity": 1}],
  "tasks": [{"id": "a", "times": [null, null, 4.0, 3.0, 2.0, 1.5]},
            {"id": "b", "times": [null, 5, 2.5, 2.5, 2.0, 2.0]}]})";

// The whole message, so the position format is pinned down.
std::string error_of(const std::string& text) {
  try {
    (void)parse_instance(text, "inst.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

std::string with_task_b(const std::string& times) {
  return R"({"resources": [{"name": "cores", "capacity": 2}, {"name": "fast_chunks", "capacity": 1}],
            "tasks": [{"id": "a", "times": [1, 1, 1, 1, 1, 1]}, {"id": "b", "times": )" + times + "}]}";
}

TEST(InstanceJsonTest, ParsesResourcesAndRowMajorTimesWithNullAsInfeasible) {
  const Instance instance = parse_instance(kValid, "inst.json");
  ASSERT_EQ(instance.resources().size(), 2u);
  EXPECT_EQ(instance.resources()[1].name, "fast_chunks");
  EXPECT_EQ(instance.space().capacity(0), 2);
  const std::vector<int> one_core_fast{1, 1};  // index 1 * 2 + 1 = 3
  EXPECT_EQ(instance.time(0, one_core_fast), 3.0);
  const std::vector<int> nothing{0, 0};
  EXPECT_EQ(instance.time(0, nothing), testing::kInf);
  const std::vector<int> two_cores{2, 0};  // closure: min(2.0, t(1,0)=4.0, ...) = 2.0
  EXPECT_EQ(instance.time(0, two_cores), 2.0);
  const std::vector<int> fast_only{0, 1};
  EXPECT_EQ(instance.time(1, fast_only), 5.0);
}

TEST(InstanceJsonTest, ErrorsNameTheTaskAndThePosition) {
  EXPECT_EQ(error_of(with_task_b("[1, 1, 1, -2, 1, 1]")),
            "inst.json: task \"b\": times[3] must be finite, >= 0 and <= 1e+09, got -2");
  EXPECT_EQ(error_of(with_task_b("[1, 1, 1, 1, 1]")),
            "inst.json: task \"b\": times has 5 entries, expected 6 (product of capacity+1)");
  EXPECT_EQ(error_of(with_task_b("[1, 1, 1, \"NaN\", 1, 1]")),
            "inst.json: task \"b\": times[3] is not a number");
  EXPECT_EQ(error_of(with_task_b("{}")), "inst.json: task \"b\": \"times\" is not an array");
}

TEST(InstanceJsonTest, RejectsBadCapacitiesDuplicatesAndMissingFields) {
  EXPECT_EQ(error_of(R"({"resources": [{"name": "cores", "capacity": 0}], "tasks": []})"),
            "inst.json: resources[0]: capacity must be an integer from 1 to 16777215, got 0");
  EXPECT_EQ(error_of(R"({"resources": [{"name": "cores", "capacity": 1.5}], "tasks": []})"),
            "inst.json: resources[0]: capacity is not an integer");
  EXPECT_EQ(error_of(R"({"resources": [{"capacity": 1}], "tasks": []})"), "inst.json: resources[0]: missing \"name\"");
  EXPECT_EQ(error_of(R"({"resources": [], "tasks": []})"),
            "inst.json: \"resources\" is empty: at least one resource type is needed");
  EXPECT_EQ(error_of(R"({"tasks": []})"), "inst.json: missing \"resources\"");
  EXPECT_EQ(error_of(R"({"resources": [{"name": "c", "capacity": 1}]})"), "inst.json: missing \"tasks\"");
  EXPECT_EQ(error_of(R"({"resources": [{"name": "c", "capacity": 1}], "tasks": [{"times": [1, 1]}]})"),
            "inst.json: tasks[0]: missing \"id\"");
  EXPECT_EQ(error_of(R"({"resources": [{"name": "c", "capacity": 1}], "tasks": [{"id": "x"}]})"),
            "inst.json: task \"x\": missing \"times\"");
  EXPECT_EQ(error_of(R"({"resources": [{"name": "c", "capacity": 1}],
                         "tasks": [{"id": "x", "times": [1, 1]}, {"id": "x", "times": [1, 1]}]})"),
            "inst.json: task \"x\": duplicate id (tasks[0] and tasks[1])");
  EXPECT_NE(error_of("{not json").find("inst.json: not valid JSON"), std::string::npos);
}

TEST(InstanceJsonTest, LoadReportsMissingFile) {
  EXPECT_THROW((void)load_instance("/nonexistent/inst.json"), InputError);
}

TEST(InstanceJsonTest, DenseExportRoundTrips) {
  const Instance instance = testing::random_dense_instance(11, {3, 2}, 4);
  const Instance again = parse_instance(instance_to_json(instance), "roundtrip");
  std::vector<double> a(instance.space().size()), b(instance.space().size());
  for (std::size_t j = 0; j < instance.task_count(); ++j) {
    instance.tasks()[j].profile->fill_times(instance.space(), a);
    again.tasks()[j].profile->fill_times(again.space(), b);
    EXPECT_EQ(a, b);
  }
}

// Numbers JSON can write but a double cannot hold, times beyond kMaxSeconds, and capacities whose allocation space
// would need gigabytes: each an error naming the file and the place, never an internal error or a hang.
struct BadInstanceCase {
  const char* name;
  std::string text;
  std::string fragment;
};

class InstanceJsonRejects : public ::testing::TestWithParam<BadInstanceCase> {};

TEST_P(InstanceJsonRejects, WithAnInputErrorNamingThePlace) {
  const std::string what = error_of(GetParam().text);
  EXPECT_NE(what.find(GetParam().fragment), std::string::npos) << what;
  EXPECT_EQ(what.rfind("inst.json: ", 0), 0U) << what;
}

INSTANTIATE_TEST_SUITE_P(
    Malformed, InstanceJsonRejects,
    ::testing::Values(
        BadInstanceCase{"overflowing_time", with_task_b("[1, 1, 1, 1e999, 1, 1]"),
                        "not valid JSON at byte " + std::to_string(with_task_b("[1, 1, 1, 1e999").find("1e999") + 1) +
                            ": number overflow parsing '1e999'"},
        BadInstanceCase{"negative_overflow", with_task_b("[1, 1, 1, -1e999, 1, 1]"), "number overflow"},
        BadInstanceCase{"time_beyond_limit", with_task_b("[1, 1, 1, 1e300, 1, 1]"), "times[3] must be finite"},
        BadInstanceCase{"times_adding_up_beyond_limit", with_task_b("[1e9, 1e9, 1e9, 1e9, 1e9, 1e9]"),
                        "longest finite times add up to 1000000001, more than 1e+09"},
        BadInstanceCase{"capacity_not_an_int",
                        R"({"resources": [{"name": "c", "capacity": 3000000000}], "tasks": []})",
                        "capacity must be an integer from 1 to 16777215, got 3000000000"},
        BadInstanceCase{"capacity_beyond_uint64",
                        R"({"resources": [{"name": "c", "capacity": 18446744073709551616}], "tasks": []})",
                        "capacity is not an integer"},
        BadInstanceCase{"unsafe_id", R"({"resources": [{"name": "c", "capacity": 1}],
                                         "tasks": [{"id": "../escape", "times": [1, 1]}]})",
                        "tasks[0]: id \"../escape\" is not allowed"},
        BadInstanceCase{"empty_id", R"({"resources": [{"name": "c", "capacity": 1}],
                                        "tasks": [{"id": "", "times": [1, 1]}]})",
                        "tasks[0]: id \"\" is not allowed"},
        BadInstanceCase{"id_not_a_string", R"({"resources": [{"name": "c", "capacity": 1}],
                                               "tasks": [{"id": 7, "times": [1, 1]}]})",
                        "tasks[0]: \"id\" is not a string"},
        BadInstanceCase{"task_not_an_object", R"({"resources": [{"name": "c", "capacity": 1}], "tasks": [3]})",
                        "tasks[0]: is not a JSON object"},
        BadInstanceCase{"duplicate_resource", R"({"resources": [{"name": "c", "capacity": 1},
                                                                 {"name": "c", "capacity": 1}], "tasks": []})",
                        "resources[1]: \"c\" is named twice"},
        BadInstanceCase{"not_an_object", "[1, 2]", "is not a JSON object"}),
    [](const auto& test) { return std::string(test.param.name); });

// The bandwidth parts: the root "bandwidth" model and each task's "traffic_bytes" (docs/formats.md), read by the
// one parser and written by the one writer.
const std::string kResources = R"("resources": [{"name": "cores", "capacity": 2}, {"name": "fast_chunks", "capacity": 1}])";
const std::string kModel =
    R"("bandwidth": {"pools": [{"name": "dram", "cores": [1, 2], "bytes_per_s": [1e10, 1.2e10]}],
                     "provenance": {"host": "h", "emulated": true}})";

std::string instance_with(const std::string& bandwidth, const std::string& traffic) {
  return "{" + kResources + (bandwidth.empty() ? "" : ", " + bandwidth) +
         R"(, "tasks": [{"id": "a", "kernel": "triad", "times": [null, null, 4.0, 3.0, 2.0, 1.5])" +
         (traffic.empty() ? "" : R"(, "traffic_bytes": )" + traffic) + "}]}";
}

TEST(BandwidthJson, ReadsTheModelAndTheTrafficAndDemandIsTrafficOverTime) {
  const Instance instance = parse_instance(instance_with(kModel, R"({"dram": [0, 0, 8e9, 8e9, 8e9, 8e9]})"), "i");
  ASSERT_EQ(instance.bandwidth().pools.size(), 1U);
  EXPECT_EQ(instance.bandwidth().pools[0].name, "dram");
  EXPECT_DOUBLE_EQ(instance.bandwidth().pools[0].capacity(2), 1.2e10);
  EXPECT_EQ(instance.bandwidth().provenance.at("host"), "h");
  EXPECT_FALSE(instance.tasks()[0].attributes.contains("traffic_bytes"));  // typed, not an attribute
  EXPECT_EQ(instance.tasks()[0].attributes.at("kernel"), "triad");
  // 8e9 bytes in 3 s on 1 core: 2.67e9 bytes/s on average, while the pool gives one core 1e10. So the task streams
  // 26.7 % of its time, at 1e10 bytes/s (flow_of_task).
  const FlowDemand flow = instance.demand(0, std::vector<int>{1, 1});
  EXPECT_DOUBLE_EQ(flow.streaming_share, 8e9 / 3.0 / 1e10);
  EXPECT_DOUBLE_EQ(flow.bytes_per_s.at(0), 1e10);
  EXPECT_DOUBLE_EQ(flow.cores, 1.0);
}

TEST(BandwidthJson, RoundTripsThroughTheWriter) {
  const Instance instance = testing::with_random_traffic(testing::random_dense_instance(3, {2, 2}, 5), 3, 2);
  const Instance again = parse_instance(instance_to_json(instance), "again");
  ASSERT_EQ(again.bandwidth().pools.size(), 2U);
  for (std::size_t j = 0; j < instance.task_count(); ++j) {
    const auto& before = instance.tasks()[j].traffic;
    const auto& after = again.tasks()[j].traffic;
    ASSERT_EQ(before == nullptr, after == nullptr) << j;
    if (before != nullptr) {
      EXPECT_EQ(*before, *after) << j;
    }
  }
}

TEST(BandwidthJson, AnInstanceWithoutTheModelHasNone) {
  const Instance instance = parse_instance(instance_with("", ""), "i");
  EXPECT_TRUE(instance.bandwidth().empty());
  EXPECT_EQ(instance.tasks()[0].traffic, nullptr);
  EXPECT_TRUE(instance.demand(0, std::vector<int>{1, 0}).bytes_per_s.empty());
}

const std::string kTraffic = R"({"dram": [0, 0, 1, 1, 1, 1]})";

INSTANTIATE_TEST_SUITE_P(
    MalformedBandwidth, InstanceJsonRejects,
    ::testing::Values(
        BadInstanceCase{"traffic_without_model", instance_with("", kTraffic), "has no \"bandwidth\" model"},
        BadInstanceCase{"unknown_pool_in_traffic", instance_with(kModel, R"({"dram": [0, 0, 1, 1, 1, 1], "hbm": []})"),
                     "\"hbm\" is not a pool of the bandwidth model"},
        BadInstanceCase{"missing_pool_in_traffic", instance_with(kModel, "{}"), "missing \"dram\""},
        BadInstanceCase{"short_traffic", instance_with(kModel, R"({"dram": [0, 0, 1]})"), "has 3 entries, expected 6"},
        BadInstanceCase{"negative_traffic", instance_with(kModel, R"({"dram": [0, 0, -1, 1, 1, 1]})"), "dram[2]"},
        BadInstanceCase{"unknown_model_key", instance_with(R"("bandwidth": {"pools": [], "units": 3})", ""),
                     "unknown key \"units\""},
        BadInstanceCase{"unknown_pool_key",
                     instance_with(R"("bandwidth": {"pools": [{"name": "d", "cores": [1], "bytes_per_s": [1],
                                                               "gbs": [1]}]})",
                                   ""),
                     "pools[0]: unknown key \"gbs\""},
        BadInstanceCase{"unsorted_cores",
                     instance_with(R"("bandwidth": {"pools": [{"name": "d", "cores": [2, 1], "bytes_per_s": [1, 2]}]})",
                                   ""),
                     "cores[1] = 1 must be >= 1 and above the one before"},
        BadInstanceCase{"zero_bandwidth",
                     instance_with(R"("bandwidth": {"pools": [{"name": "d", "cores": [1], "bytes_per_s": [0]}]})", ""),
                     "bytes_per_s[0] = 0 must be finite and > 0"},
        BadInstanceCase{"length_mismatch",
                     instance_with(R"("bandwidth": {"pools": [{"name": "d", "cores": [1, 2], "bytes_per_s": [1]}]})",
                                   ""),
                     "needs as many bandwidths as core counts"},
        BadInstanceCase{"duplicate_pool",
                     instance_with(R"("bandwidth": {"pools": [{"name": "d", "cores": [1], "bytes_per_s": [1]},
                                                               {"name": "d", "cores": [1], "bytes_per_s": [1]}]})",
                                   ""),
                     "pool \"d\" is named twice"}),
    [](const auto& test) { return std::string(test.param.name); });

TEST(InstanceJsonTest, AllocationSpaceBeyondTheLimitIsAResourceErrorNamingTheFile) {
  try {
    (void)parse_instance(R"({"resources": [{"name": "c", "capacity": 16777215}, {"name": "f", "capacity": 1}],
                             "tasks": []})",
                         "inst.json");
    FAIL() << "accepted a space of 2^25 vectors";
  } catch (const ResourceError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("inst.json: the allocation space has more than 2^24 vectors", 0), 0U)
        << e.what();
  }
}

TEST(InstanceJsonTest, AttributesAreKeptVerbatimAndWrittenBack) {
  const std::string text = R"({"resources": [{"name": "cores", "capacity": 1}], "workload": "mix",
    "platform": {"name": "knl", "chunk_bytes": 8.5},
    "tasks": [{"id": "triad-1MiB-0", "times": [null, 2.0], "kernel": "triad", "footprint_bytes": 1048576,
               "passes": 3, "command": ["x", "{threads}"]}]})";
  const Instance instance = parse_instance(text, "inst.json");
  const auto& attributes = instance.tasks()[0].attributes;
  EXPECT_EQ(attributes, nlohmann::json::parse(R"({"kernel": "triad", "footprint_bytes": 1048576, "passes": 3,
                                                  "command": ["x", "{threads}"]})"));
  EXPECT_EQ(instance.attributes(), nlohmann::json::parse(R"({"workload": "mix",
                                                             "platform": {"name": "knl", "chunk_bytes": 8.5}})"));
  EXPECT_EQ(nlohmann::json::parse(instance_to_json(instance)), nlohmann::json::parse(text));
}

TEST(InstanceJsonTest, LeadingResourcesKeepTheColumnWithTheOthersAtZero) {
  const Instance instance = parse_instance(kValid, "inst.json");
  const Instance cores = leading_resources(instance, 1);
  ASSERT_EQ(cores.dimensions(), 1U);
  EXPECT_EQ(cores.resources()[0].name, "cores");
  for (int p = 0; p <= 2; ++p) {
    const std::vector<int> alone{p}, padded{p, 0};
    EXPECT_EQ(cores.time(0, alone), instance.time(0, padded)) << p;
    EXPECT_EQ(cores.time(1, alone), instance.time(1, padded)) << p;
  }
  EXPECT_EQ(cores.tasks()[1].id, "b");
}

TEST(ScheduleJsonTest, RoundTripsAndValidatesForListAndPack) {
  const Instance instance = testing::random_dense_instance(12, {3, 2}, 6);
  const double bound = lower_bound(instance);
  for (const char* name : {"d-list-lpt", "t-pack-ff"}) {
    const PlanResult result = plan(find_algorithm(name), instance, bound);
    const std::string text = schedule_to_json(instance, result.schedule);
    EXPECT_EQ(text.find("\"pack\"") != std::string::npos, std::string(name).find("pack") != std::string::npos);
    const Schedule parsed = parse_schedule(text, instance, "sched.json");
    EXPECT_EQ(parsed.algorithm, name);
    EXPECT_EQ(parsed.makespan, result.schedule.makespan);
    EXPECT_EQ(parsed.lower_bound, bound);
    EXPECT_TRUE(find_violations(instance, parsed).empty());
    for (std::size_t j = 0; j < instance.task_count(); ++j) {
      EXPECT_EQ(parsed.tasks[j].alloc, result.schedule.tasks[j].alloc);
      EXPECT_EQ(parsed.tasks[j].start, result.schedule.tasks[j].start);
      EXPECT_EQ(parsed.tasks[j].duration, result.schedule.tasks[j].duration);
      EXPECT_EQ(parsed.tasks[j].pack, result.schedule.tasks[j].pack);
    }
  }
}

TEST(ScheduleJsonTest, RejectsUnknownMissingAndRepeatedTasks) {
  const Instance instance = parse_instance(kValid, "inst.json");
  const auto parse = [&](const std::string& tasks) {
    try {
      (void)parse_schedule(R"({"algorithm": "x", "makespan": 1, "lower_bound": 1, "tasks": )" + tasks + "}",
                           instance, "sched.json");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string a = R"({"id": "a", "alloc": [1, 0], "start": 0, "duration": 4})";
  const std::string b = R"({"id": "b", "alloc": [1, 0], "start": 0, "duration": 2.5})";
  EXPECT_EQ(parse("[" + a + "]"), "sched.json: task \"b\": missing");
  EXPECT_EQ(parse("[" + a + "," + a + "," + b + "]"), "sched.json: task \"a\": scheduled twice");
  EXPECT_EQ(parse(R"([{"id": "z", "alloc": [1, 0], "start": 0, "duration": 4}])"),
            "sched.json: task \"z\": not in the instance");
  EXPECT_EQ(parse(R"([{"id": "a", "alloc": [1], "start": 0, "duration": 4}])"),
            "sched.json: task \"a\": alloc has 1 entries, expected 2");
}

// Seed 001: the optional per-task "weight" (default 1, finite, > 0, at most kMaxWeight).
std::string instance_with_weight(const std::string& weight_member) {
  return R"({"resources": [{"name": "cores", "capacity": 2}],
    "tasks": [{"id": "a", "times": [null, 2, 1])" + weight_member + R"(}, {"id": "b", "times": [null, 4, 2]}]})";
}

TEST(InstanceWeightTest, DefaultsToOneAndIsNotAnAttribute) {
  const Instance instance = parse_instance(instance_with_weight(R"(, "weight": 2.5)"), "inst.json");
  EXPECT_EQ(instance.tasks()[0].weight, 2.5);
  EXPECT_EQ(instance.tasks()[1].weight, 1.0);
  EXPECT_FALSE(instance.tasks()[0].attributes.contains("weight"));
}

TEST(InstanceWeightTest, IsWrittenWhenNotOneAndReadsBack) {
  const Instance instance = parse_instance(instance_with_weight(R"(, "weight": 7)"), "inst.json");
  const std::string text = instance_to_json(instance);
  EXPECT_EQ(text.find(R"("weight":1)"), std::string::npos) << text;  // the default stays implicit
  const Instance again = parse_instance(text, "again.json");
  EXPECT_EQ(again.tasks()[0].weight, 7.0);
  EXPECT_EQ(again.tasks()[1].weight, 1.0);
}

TEST(InstanceWeightTest, RefusesZeroNegativeHugeAndNonNumbers) {
  EXPECT_EQ(error_of(instance_with_weight(R"(, "weight": 0)")),
            R"(inst.json: task "a": "weight" must be finite, > 0 and <= 1e+09, got 0)");
  for (const char* bad : {R"(, "weight": -1)", R"(, "weight": 1e10)", R"(, "weight": "heavy")", R"(, "weight": null)"}) {
    EXPECT_NE(error_of(instance_with_weight(bad)).find(R"(task "a": "weight")"), std::string::npos) << bad;
  }
}

}  // namespace
}  // namespace cosched::sched
