// Host facts and UTC stamps: one home for each, in the formats files carry.
#include <gtest/gtest.h>

#include <chrono>

#include "cosched/common/error.hpp"
#include "cosched/common/host.hpp"
#include "cosched/common/identifier.hpp"
#include "cosched/common/utc_time.hpp"

namespace cosched {
namespace {

using std::chrono::system_clock;

TEST(UtcTime, WritesEachFormatAndReadsTheIsoFormBack) {
  const system_clock::time_point time = parse_iso8601_utc("2024-02-29T23:59:58Z", "test");
  EXPECT_EQ(iso8601_utc(time), "2024-02-29T23:59:58Z");
  EXPECT_EQ(iso8601_utc_micro(time + std::chrono::microseconds(1234)), "2024-02-29T23:59:58.001234Z");
  EXPECT_EQ(compact_utc(time + std::chrono::seconds(2)), "20240301-000000");
  EXPECT_THROW((void)parse_iso8601_utc("2024-02-29 23:59:58Z", "test"), InputError);
  EXPECT_THROW((void)parse_iso8601_utc("2023-02-29T00:00:00Z", "test"), InputError);
}

TEST(Host, NamesThisHostAndThisExecutable) {
  EXPECT_FALSE(host_name().empty());
  const auto self = own_executable();
  ASSERT_TRUE(self.has_value());
  EXPECT_EQ(self->filename(), "common_tests");
  if (const auto load = load_average()) {
    EXPECT_GE(*load, 0.0);
  }
}

TEST(SafeIdentifier, MakesAnyTextAnIdByTheIdRule) {
  EXPECT_EQ(safe_identifier_from("my app", "command"), "my_app");
  EXPECT_EQ(safe_identifier_from("-.x/y", "command"), "x_y");
  EXPECT_EQ(safe_identifier_from("..", "command"), "command");
  EXPECT_EQ(safe_identifier_from(std::string(300, 'a'), "command").size(), kMaxIdentifierLength);
  for (const char* text : {"a b", "-x", ".hidden", "ünïcode", "../../etc"}) {
    EXPECT_TRUE(is_safe_identifier(safe_identifier_from(text, "command"))) << text;
  }
}

}  // namespace
}  // namespace cosched
