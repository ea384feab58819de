#include <gtest/gtest.h>

#include <string>

#include "cosched/stream/report.hpp"
#include "stream/test_tier_backend.hpp"

namespace cosched::stream {
namespace {

StreamResult small_run(platform::TierCostModel cost, std::optional<double> fraction) {
  StreamConfig config;
  config.kernel = "copy";
  config.array_bytes = 64 * 1024;
  config.reps = 2;
  config.fast_fraction = fraction;
  testing::TestTierBackend backend(cost);
  return run_stream(config, backend);
}

TEST(Report, JsonHasTheDocumentedFieldsWithTheirTypes) {
  const nlohmann::json json = to_json(small_run({}, std::nullopt));
  for (const char* field : {"kernel", "formula", "tier_backend", "stores", "validation_message"}) {
    EXPECT_TRUE(json.at(field).is_string()) << field;
  }
  for (const char* field : {"threads", "array_bytes", "reps", "fast_bytes", "slow_bytes", "bytes_per_rep",
                            "bytes_per_element", "array_count"}) {
    EXPECT_TRUE(json.at(field).is_number_unsigned()) << field;
  }
  for (const char* field : {"best_gbs", "median_gbs", "min_time_s", "median_time_s", "fast_fraction",
                            "slow_pass_factor"}) {
    EXPECT_TRUE(json.at(field).is_number()) << field;
  }
  EXPECT_TRUE(json.at("validated").is_boolean());
  EXPECT_TRUE(json.at("emulated").is_boolean());
  EXPECT_TRUE(json.at("cores").is_array());
  EXPECT_TRUE(json.at("placements").is_array());
  EXPECT_EQ(json.at("kernel"), "copy");
  EXPECT_EQ(json.at("array_bytes"), 64 * 1024);
  EXPECT_EQ(json.at("slow_bytes"), 2 * 64 * 1024);
  EXPECT_EQ(json.at("validated"), true);
  EXPECT_FALSE(json.contains("emulation_ratio"));  // only when emulated
  EXPECT_FALSE(json.contains("sum"));              // only for ddot
}

TEST(Report, EmulatedRunsSayItInJsonAndText) {
  const StreamResult result = small_run({4.0, true}, 0.5);
  const nlohmann::json json = to_json(result);
  EXPECT_EQ(json.at("emulated"), true);
  EXPECT_EQ(json.at("emulation_ratio"), 4.0);
  EXPECT_EQ(json.at("fast_fraction"), 0.5);
  EXPECT_NE(format_report(result).find("EMULATED fast tier"), std::string::npos);
  EXPECT_EQ(format_report(small_run({}, 0.5)).find("EMULATED"), std::string::npos);
}

TEST(Report, TextSaysWhenValidationFailed) {
  StreamResult result = small_run({}, std::nullopt);
  EXPECT_NE(format_report(result).find("validation: passed"), std::string::npos);
  result.validated = false;
  result.validation_message = "c[3] = 1 (expected 2)";
  EXPECT_NE(format_report(result).find("VALIDATION FAILED: c[3] = 1 (expected 2)"), std::string::npos);
}

}  // namespace
}  // namespace cosched::stream
