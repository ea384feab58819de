#include "cosched/platform/core_allocator.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <random>
#include <set>
#include <stdexcept>
#include <thread>

#include "cosched/common/error.hpp"
#include "cosched/platform/binding.hpp"
#include "support/test_data.hpp"

namespace cosched::platform {
namespace {

Topology saved_topology(const char* name) { return Topology::from_xml(test::topology_xml(name)); }

std::set<unsigned> values_of(const CoreAllocation& allocation, const Topology& topology, unsigned Core::*field) {
  std::set<unsigned> values;
  for (unsigned core : allocation.cores) values.insert(topology.cores()[core].*field);
  return values;
}

TEST(CoreAllocatorTest, TwoCoresOnKnlAreOneWholeTile) {
  const auto knl = saved_topology("knl-7250-68c-flat-quadrant.xml");
  CoreAllocator allocator(knl);
  const auto tile = allocator.allocate(2);
  ASSERT_EQ(tile.size(), 2U);
  EXPECT_EQ(values_of(tile, knl, &Core::l2).size(), 1U);
  EXPECT_EQ(tile.pus.size(), 2U);
  EXPECT_EQ(tile.all_pus().size(), 8U);  // 4 hardware threads per KNL core
  EXPECT_EQ(allocator.free_count(), 66U);
}

TEST(CoreAllocatorTest, SingleCoresFillAHalfUsedTileFirst) {
  const auto knl = saved_topology("knl-64c-flat-quadrant.xml");
  CoreAllocator allocator(knl);
  const auto three = allocator.allocate(3);  // one whole tile plus half of another
  EXPECT_EQ(values_of(three, knl, &Core::l2).size(), 2U);
  const auto one = allocator.allocate(1);
  // The lone free core of the half-used tile, rather than breaking a whole tile.
  std::set<unsigned> tiles = values_of(three, knl, &Core::l2);
  EXPECT_TRUE(tiles.contains(knl.cores()[one.cores[0]].l2));
}

TEST(CoreAllocatorTest, SixteenCoresOnSnc4StayInOneCluster) {
  const auto snc4 = saved_topology("knl-64c-flat-snc4.xml");
  CoreAllocator allocator(snc4);
  std::set<unsigned> clusters_used;
  for (int task = 0; task < 4; ++task) {
    const auto allocation = allocator.allocate(16);
    const auto clusters = values_of(allocation, snc4, &Core::cluster);
    ASSERT_EQ(clusters.size(), 1U) << "task " << task;
    EXPECT_EQ(values_of(allocation, snc4, &Core::l2).size(), 8U);  // 8 whole tiles
    clusters_used.insert(*clusters.begin());
  }
  EXPECT_EQ(clusters_used.size(), 4U);
  EXPECT_EQ(allocator.free_count(), 0U);
  EXPECT_THROW((void)allocator.allocate(1), ResourceError);
}

TEST(CoreAllocatorTest, BestFitKeepsWholeClustersFree) {
  const auto snc4 = saved_topology("knl-64c-flat-snc4.xml");
  CoreAllocator allocator(snc4);
  const auto ten = allocator.allocate(10);
  const unsigned first_cluster = *values_of(ten, snc4, &Core::cluster).begin();
  const auto sixteen = allocator.allocate(16);  // a fresh whole cluster, not 6 here + 10 there
  EXPECT_EQ(values_of(sixteen, snc4, &Core::cluster).size(), 1U);
  const auto six = allocator.allocate(6);  // exactly what is left of the first cluster
  EXPECT_EQ(values_of(six, snc4, &Core::cluster), std::set<unsigned>{first_cluster});
}

TEST(CoreAllocatorTest, TaskLargerThanAClusterTouchesAsFewAsPossible) {
  const auto snc4 = saved_topology("knl-64c-flat-snc4.xml");
  CoreAllocator allocator(snc4);
  const auto twenty = allocator.allocate(20);
  EXPECT_EQ(values_of(twenty, snc4, &Core::cluster).size(), 2U);
  EXPECT_EQ(values_of(twenty, snc4, &Core::l2).size(), 10U);  // whole tiles only
}

TEST(CoreAllocatorTest, ReleaseMakesCoresAvailableAgain) {
  const auto knl = saved_topology("knl-64c-flat-quadrant.xml");
  CoreAllocator allocator(knl);
  const auto all = allocator.allocate(64);
  EXPECT_THROW((void)allocator.allocate(1), ResourceError);
  allocator.release(all);
  EXPECT_EQ(allocator.free_count(), 64U);
  EXPECT_EQ(allocator.allocate(64).cores, all.cores);
}

TEST(CoreAllocatorTest, BadRequestsAndDoubleReleaseAreErrors) {
  const auto knl = saved_topology("knl-64c-flat-quadrant.xml");
  CoreAllocator allocator(knl);
  EXPECT_THROW((void)allocator.allocate(0), UsageError);
  EXPECT_THROW((void)allocator.allocate(65), ResourceError);
  const auto two = allocator.allocate(2);
  const auto other = allocator.allocate(4);
  allocator.release(two);
  EXPECT_THROW(allocator.release(two), std::invalid_argument);
  EXPECT_EQ(allocator.free_count(), 60U);  // the failed release changed nothing
  allocator.release(other);
  EXPECT_EQ(allocator.free_count(), 64U);
}

TEST(CoreAllocatorTest, NeverHandsOutACoreTwiceUnderChurn) {
  const auto xeonmax = saved_topology("xeonmax-9462-2s-flat-hbm.xml");
  CoreAllocator allocator(xeonmax);
  std::mt19937 random(12345);
  std::vector<CoreAllocation> live;
  std::vector<bool> owned(allocator.core_count(), false);
  for (int step = 0; step < 2000; ++step) {
    const bool grow = live.empty() || (allocator.free_count() > 0 && random() % 2 == 0);
    if (grow) {
      const std::size_t count = 1 + random() % std::min<std::size_t>(allocator.free_count(), 20);
      auto allocation = allocator.allocate(count);
      ASSERT_EQ(allocation.size(), count);
      for (unsigned core : allocation.cores) {
        ASSERT_FALSE(owned[core]) << "core " << core << " handed out twice at step " << step;
        owned[core] = true;
      }
      live.push_back(std::move(allocation));
    } else {
      const std::size_t victim = random() % live.size();
      for (unsigned core : live[victim].cores) owned[core] = false;
      allocator.release(live[victim]);
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(victim));
    }
    ASSERT_EQ(allocator.free_count(), static_cast<std::size_t>(std::count(owned.begin(), owned.end(), false)));
  }
}

TEST(CoreAllocatorTest, ConcurrentAllocationsDoNotOverlap) {
  const auto knl = saved_topology("knl-7250-68c-flat-quadrant.xml");
  CoreAllocator allocator(knl);
  std::vector<std::atomic<int>> holders(allocator.core_count());
  std::atomic<bool> overlap{false};
  auto worker = [&] {
    for (int round = 0; round < 500; ++round) {
      const auto allocation = allocator.allocate(1 + round % 5);
      for (unsigned core : allocation.cores) {
        if (holders[core].fetch_add(1) != 0) overlap = true;
      }
      for (unsigned core : allocation.cores) holders[core].fetch_sub(1);
      allocator.release(allocation);
    }
  };
  std::thread first(worker);
  std::thread second(worker);
  first.join();
  second.join();
  EXPECT_FALSE(overlap);
  EXPECT_EQ(allocator.free_count(), allocator.core_count());
}

TEST(CoreAllocatorTest, CoresWithoutCacheInformationStillPack) {
  // Hand-made machine: two packages of 3 cores, no L2 known (each core its own group).
  std::vector<Core> cores;
  for (unsigned i = 0; i < 6; ++i) {
    cores.push_back({.index = i, .pus = {i}, .l2 = i, .cluster = i / 3, .package = i / 3});
  }
  CoreAllocator allocator(std::move(cores));
  const auto two = allocator.allocate(2);
  EXPECT_EQ(two.cores, (std::vector<unsigned>{0, 1}));
  const auto three = allocator.allocate(3);  // the untouched package, not 1 + 2
  EXPECT_EQ(three.cores, (std::vector<unsigned>{3, 4, 5}));
  EXPECT_EQ(allocator.allocate(1).cores, std::vector<unsigned>{2});
}

TEST(CoreAllocatorTest, ThisSystemGivesTheAllowedPus) {
  const auto here = Topology::this_system();
  CoreAllocator allocator(here);
  const auto all = allocator.allocate(allocator.core_count());
  EXPECT_EQ(all.all_pus(), allowed_pus());
}

}  // namespace
}  // namespace cosched::platform
