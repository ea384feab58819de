// Seed 001's fields in the Schedule JSON: "weighted_completion_sum" / "lower_bound_weighted_completion"
// (docs/formats.md); the Instance JSON's "weight" is tested in io_test.cpp.
#include <gtest/gtest.h>

#include "cosched/common/error.hpp"
#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/allocation.hpp"
#include "cosched/sched/io.hpp"

namespace cosched::sched {
namespace {

std::string instance_with_weight(const std::string& weight_member) {
  return R"({"resources": [{"name": "cores", "capacity": 2}],
    "tasks": [{"id": "a", "times": [null, 2, 1])" + weight_member + R"(}, {"id": "b", "times": [null, 4, 2]}]})";
}

TEST(ScheduleWeightedSumTest, IsRecordedForEveryScheduleAndReadsBack) {
  const Instance instance = parse_instance(instance_with_weight(R"(, "weight": 3)"), "inst.json");
  for (const auto& algorithm : algorithms()) {
    Schedule schedule = plan(*algorithm, instance, lower_bound(instance)).schedule;
    schedule.lower_bound_weighted_completion = 4.5;
    const ScheduleDocument document = parse_schedule_document(schedule_to_json(instance, schedule), "s.json");
    ASSERT_TRUE(document.weighted_completion_sum.has_value()) << algorithm->name();
    EXPECT_DOUBLE_EQ(*document.weighted_completion_sum, weighted_completion_sum(instance, schedule.tasks));
    EXPECT_EQ(document.lower_bound_weighted_completion, 4.5);
    EXPECT_EQ(match_schedule(document, instance, "s.json").lower_bound_weighted_completion, 4.5);
  }
}

TEST(ScheduleWeightedSumTest, BothFieldsAreOptionalAndValidated) {
  const std::string tasks = R"("tasks": [{"id": "a", "alloc": [1], "start": 0, "duration": 2}])";
  const ScheduleDocument old = parse_schedule_document(R"({"algorithm": "x", )" + tasks + "}", "s.json");
  EXPECT_FALSE(old.weighted_completion_sum.has_value());
  EXPECT_FALSE(old.lower_bound_weighted_completion.has_value());
  EXPECT_EQ(schedule_document_to_json(old).find("weighted"), std::string::npos);
  for (const char* field : {"weighted_completion_sum", "lower_bound_weighted_completion"}) {
    try {
      (void)parse_schedule_document(R"({"algorithm": "x", ")" + std::string(field) + R"(": -1, )" + tasks + "}",
                                    "s.json");
      ADD_FAILURE() << field;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace cosched::sched
