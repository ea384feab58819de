// One test per page-mover rule (cosched/platform/page_movers.hpp), each on a fake /proc and /sys: the files the
// rule reads, with the values that turn it on and off.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cosched/common/error.hpp"
#include "cosched/platform/page_movers.hpp"

namespace {

namespace fs = std::filesystem;
using cosched::platform::detect_page_movers;
using cosched::platform::PageMover;

class FakeRoot : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("cosched-page-movers-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  void write(const std::string& relative, const std::string& text) {
    fs::create_directories((root_ / relative).parent_path());
    std::ofstream(root_ / relative) << text << '\n';
  }
  void tiers(int count) {
    for (int i = 0; i < count; ++i) fs::create_directories(root_ / "sys/devices/virtual/memory_tiering" /
                                                            ("memory_tier" + std::to_string(4 * (i + 1))));
  }
  std::vector<PageMover> movers() const { return detect_page_movers(root_); }
  static std::vector<std::string> names(const std::vector<PageMover>& movers) {
    std::vector<std::string> result;
    for (const PageMover& mover : movers) result.push_back(mover.name);
    return result;
  }

  fs::path root_;
};

using Names = std::vector<std::string>;

TEST_F(FakeRoot, NothingReadableIsNoMover) { EXPECT_TRUE(movers().empty()); }

TEST_F(FakeRoot, NumaBalancingModesLeaveBoundPages) {
  write("proc/sys/kernel/numa_balancing", "0");
  EXPECT_TRUE(movers().empty());
  write("proc/sys/kernel/numa_balancing", "1");
  EXPECT_EQ(names(movers()), (Names{"numa-balancing"}));
  write("proc/sys/kernel/numa_balancing", "2");
  ASSERT_EQ(names(movers()), (Names{"numa-balancing-tiering"}));
  EXPECT_FALSE(movers()[0].moves_bound_pages);
  EXPECT_EQ(movers()[0].evidence, "/proc/sys/kernel/numa_balancing = 2");
  write("proc/sys/kernel/numa_balancing", "3");
  EXPECT_EQ(names(movers()), (Names{"numa-balancing", "numa-balancing-tiering"}));
  for (const PageMover& mover : movers()) EXPECT_FALSE(mover.moves_bound_pages) << mover.name;
}

TEST_F(FakeRoot, DemotionMovesBoundPagesOnlyWithALowerTier) {
  write("sys/kernel/mm/numa/demotion_enabled", "false");
  tiers(2);
  EXPECT_TRUE(movers().empty());
  write("sys/kernel/mm/numa/demotion_enabled", "true");
  ASSERT_EQ(names(movers()), (Names{"demotion"}));
  EXPECT_TRUE(movers()[0].moves_bound_pages);
  EXPECT_NE(movers()[0].evidence.find("2 kernel memory tier(s)"), std::string::npos) << movers()[0].evidence;
}

TEST_F(FakeRoot, DemotionWithOneTierHasNowhereToDemote) {
  write("sys/kernel/mm/numa/demotion_enabled", "true");
  tiers(1);
  ASSERT_EQ(names(movers()), (Names{"demotion"}));
  EXPECT_FALSE(movers()[0].moves_bound_pages);
}

TEST_F(FakeRoot, DamonMigrationSchemesOfARunningKdamond) {
  const std::string scheme = "sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/";
  write("sys/kernel/mm/damon/admin/kdamonds/0/state", "on");
  write(scheme + "action", "pageout");  // evicts, moves nothing between nodes (this VM's own kdamond)
  write(scheme + "target_nid", "-1");
  EXPECT_TRUE(movers().empty());
  write(scheme + "action", "migrate_cold");
  write(scheme + "target_nid", "1");
  ASSERT_EQ(names(movers()), (Names{"damon-migrate"}));
  EXPECT_TRUE(movers()[0].moves_bound_pages);
  EXPECT_NE(movers()[0].moves.find("node 1"), std::string::npos) << movers()[0].moves;
  write("sys/kernel/mm/damon/admin/kdamonds/0/state", "off");
  EXPECT_TRUE(movers().empty());
}

TEST_F(FakeRoot, NumadRunning) {
  write("proc/1/comm", "init");
  write("proc/self/comm", "numad");  // not a pid: ignored
  EXPECT_TRUE(movers().empty());
  write("proc/812/comm", "numad");
  ASSERT_EQ(names(movers()), (Names{"numad"}));
  EXPECT_TRUE(movers()[0].moves_bound_pages);
}

TEST_F(FakeRoot, APlacementIsRefusedOnlyWhereBoundPagesMove) {
  write("proc/sys/kernel/numa_balancing", "3");
  EXPECT_NO_THROW(cosched::platform::check_placement_holds(movers(), "tier backend \"numa\""));
  write("proc/812/comm", "numad");
  ::unsetenv("COSCHED_ALLOW_PAGE_MOVERS");
  try {
    cosched::platform::check_placement_holds(movers(), "tier backend \"numa\"");
    FAIL() << "numad did not refuse the placement";
  } catch (const cosched::ResourceError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("numad"), std::string::npos) << message;
    EXPECT_EQ(message.find("numa-balancing"), std::string::npos) << message;  // it leaves bound pages
    EXPECT_NE(message.find("COSCHED_ALLOW_PAGE_MOVERS=1"), std::string::npos) << message;
  }
  ::setenv("COSCHED_ALLOW_PAGE_MOVERS", "1", 1);
  EXPECT_NO_THROW(cosched::platform::check_placement_holds(movers(), "tier backend \"numa\""));
  ::unsetenv("COSCHED_ALLOW_PAGE_MOVERS");
}

}  // namespace
