// The count-list syntax of --cores / --chunks and sweep files.
#include "cosched/config/count_list.hpp"

#include <gtest/gtest.h>

#include "cosched/common/error.hpp"

namespace cosched::config {
namespace {

TEST(CountList, ParsesListsAndRanges) {
  EXPECT_EQ(parse_count_list("0..3"), (std::vector<unsigned>{0, 1, 2, 3}));
  EXPECT_EQ(parse_count_list("8,1,2,4..5,2"), (std::vector<unsigned>{1, 2, 4, 5, 8}));
  EXPECT_EQ(parse_count_list("7"), (std::vector<unsigned>{7}));
  EXPECT_EQ(parse_count_list("4294967295..4294967295"), (std::vector<unsigned>{4294967295U}));  // no wrap-around
}

TEST(CountList, BadSyntaxAndHugeListsAreUsageErrors) {
  for (const char* bad : {"", "1,,2", "a", "3..1", "1..", "-1", "1.5", "0..4000000000", "0..900000,0..900000"}) {
    EXPECT_THROW((void)parse_count_list(bad), UsageError) << bad;
  }
}

}  // namespace
}  // namespace cosched::config
