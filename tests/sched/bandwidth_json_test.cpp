// The Instance JSON's bandwidth parts: the root "bandwidth" model and each task's "traffic_bytes" (docs/formats.md),
// read by the one parser and written by the one writer; every malformed part is an InputError naming the place.
#include <gtest/gtest.h>

#include <string>

#include "cosched/common/error.hpp"
#include "cosched/sched/io.hpp"
#include "sched/test_support.hpp"

namespace cosched::sched {
namespace {

const std::string kResources = R"("resources": [{"name": "cores", "capacity": 2}, {"name": "fast_chunks", "capacity": 1}])";
const std::string kModel =
    R"("bandwidth": {"pools": [{"name": "dram", "cores": [1, 2], "bytes_per_s": [1e10, 1.2e10]}],
                     "provenance": {"host": "h", "emulated": true}})";

std::string instance_with(const std::string& bandwidth, const std::string& traffic) {
  return "{" + kResources + (bandwidth.empty() ? "" : ", " + bandwidth) +
         R"(, "tasks": [{"id": "a", "kernel": "triad", "times": [null, null, 4.0, 3.0, 2.0, 1.5])" +
         (traffic.empty() ? "" : R"(, "traffic_bytes": )" + traffic) + "}]}";
}

std::string error_of(const std::string& text) {
  try {
    (void)parse_instance(text, "inst.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
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

struct BadBandwidth {
  const char* name;
  std::string text;
  std::string fragment;
};

class BandwidthJsonRejects : public ::testing::TestWithParam<BadBandwidth> {};

TEST_P(BandwidthJsonRejects, WithAnInputErrorNamingThePlace) {
  const std::string what = error_of(GetParam().text);
  EXPECT_NE(what.find(GetParam().fragment), std::string::npos) << what;
  EXPECT_EQ(what.rfind("inst.json", 0), 0U) << what;
}

const std::string kTraffic = R"({"dram": [0, 0, 1, 1, 1, 1]})";

INSTANTIATE_TEST_SUITE_P(
    Malformed, BandwidthJsonRejects,
    ::testing::Values(
        BadBandwidth{"traffic_without_model", instance_with("", kTraffic), "has no \"bandwidth\" model"},
        BadBandwidth{"unknown_pool_in_traffic", instance_with(kModel, R"({"dram": [0, 0, 1, 1, 1, 1], "hbm": []})"),
                     "\"hbm\" is not a pool of the bandwidth model"},
        BadBandwidth{"missing_pool_in_traffic", instance_with(kModel, "{}"), "missing \"dram\""},
        BadBandwidth{"short_traffic", instance_with(kModel, R"({"dram": [0, 0, 1]})"), "has 3 entries, expected 6"},
        BadBandwidth{"negative_traffic", instance_with(kModel, R"({"dram": [0, 0, -1, 1, 1, 1]})"), "dram[2]"},
        BadBandwidth{"unknown_model_key", instance_with(R"("bandwidth": {"pools": [], "units": 3})", ""),
                     "unknown key \"units\""},
        BadBandwidth{"unknown_pool_key",
                     instance_with(R"("bandwidth": {"pools": [{"name": "d", "cores": [1], "bytes_per_s": [1],
                                                               "gbs": [1]}]})",
                                   ""),
                     "pools[0]: unknown key \"gbs\""},
        BadBandwidth{"unsorted_cores",
                     instance_with(R"("bandwidth": {"pools": [{"name": "d", "cores": [2, 1], "bytes_per_s": [1, 2]}]})",
                                   ""),
                     "cores[1] = 1 must be >= 1 and above the one before"},
        BadBandwidth{"zero_bandwidth",
                     instance_with(R"("bandwidth": {"pools": [{"name": "d", "cores": [1], "bytes_per_s": [0]}]})", ""),
                     "bytes_per_s[0] = 0 must be finite and > 0"},
        BadBandwidth{"length_mismatch",
                     instance_with(R"("bandwidth": {"pools": [{"name": "d", "cores": [1, 2], "bytes_per_s": [1]}]})",
                                   ""),
                     "needs as many bandwidths as core counts"},
        BadBandwidth{"duplicate_pool",
                     instance_with(R"("bandwidth": {"pools": [{"name": "d", "cores": [1], "bytes_per_s": [1]},
                                                               {"name": "d", "cores": [1], "bytes_per_s": [1]}]})",
                                   ""),
                     "pool \"d\" is named twice"}),
    [](const ::testing::TestParamInfo<BadBandwidth>& param_info) { return std::string(param_info.param.name); });

}  // namespace
}  // namespace cosched::sched
