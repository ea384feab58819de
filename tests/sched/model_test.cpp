#include "cosched/sched/model.hpp"

#include <gtest/gtest.h>

#include "cosched/common/error.hpp"
#include "sched/test_support.hpp"

namespace cosched::sched {
namespace {

using testing::kInf;

TEST(AllocationSpaceTest, RowMajorWithFirstResourceSlowest) {
  const AllocationSpace space({2, 3});
  EXPECT_EQ(space.size(), 12u);
  EXPECT_EQ(space.stride(0), 4u);
  EXPECT_EQ(space.stride(1), 1u);
  const std::vector<int> alloc{1, 2};
  EXPECT_EQ(space.index_of(alloc), 6u);
  EXPECT_EQ(space.decode(6), alloc);
  for (std::size_t index = 0; index < space.size(); ++index) EXPECT_EQ(space.index_of(space.decode(index)), index);
}

TEST(AllocationSpaceTest, RejectsCapacityBelowOne) {
  EXPECT_THROW(AllocationSpace({4, 0}), InputError);
  EXPECT_THROW(AllocationSpace(std::vector<int>{}), InputError);
}

TEST(AllocationSpaceTest, AreaIsShareSumTimesTimeAndInfiniteWhenTaskCannotRun) {
  const AllocationSpace space({4, 2});
  const std::vector<int> alloc{2, 1};
  EXPECT_DOUBLE_EQ(area(space, alloc, 3.0), (0.5 + 0.5) * 3.0);
  const std::vector<int> none{0, 0};
  EXPECT_EQ(area(space, none, kInf), kInf);  // footnote 3: never 0 * inf
  EXPECT_EQ(area(space, none, 2.0), 0.0);
}

// The sweep must equal the definition t(p) = min over q <= p of t(q).
TEST(MonotoneClosureTest, EqualsMinimumOverTheLowerBox) {
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    Random random(seed);
    const std::vector<int> capacities{1 + static_cast<int>(random.index(3)), 1 + static_cast<int>(random.index(3)),
                                      1 + static_cast<int>(random.index(2))};
    const AllocationSpace space(capacities);
    std::vector<double> raw(space.size());
    for (double& t : raw) t = random.uniform01() < 0.3 ? kInf : random.uniform_above(0.0, 10.0);
    std::vector<double> closed = raw;
    apply_monotone_closure(space, closed);
    std::vector<int> p(3), q(3);
    for (std::size_t a = 0; a < space.size(); ++a) {
      space.decode(a, p);
      double expected = kInf;
      for (std::size_t b = 0; b < space.size(); ++b) {
        space.decode(b, q);
        if (q[0] <= p[0] && q[1] <= p[1] && q[2] <= p[2]) expected = std::min(expected, raw[b]);
      }
      EXPECT_EQ(closed[a], expected) << "seed " << seed << " index " << a;
    }
  }
}

TEST(DenseTimeTableTest, ClosesOnConstructionAndReadsBack) {
  const AllocationSpace space({2});
  const DenseTimeTable table(space, {kInf, 3.0, 5.0});
  EXPECT_EQ(table.times(), (std::vector<double>{kInf, 3.0, 3.0}));
  const std::vector<int> two{2};
  EXPECT_EQ(table.time_at(space, two), 3.0);
}

TEST(InstanceTest, RejectsDuplicateIds) {
  const AllocationSpace space({1});
  auto table = std::make_shared<DenseTimeTable>(space, std::vector<double>{kInf, 1.0});
  EXPECT_THROW(Instance({{"cores", 1}}, {{"a", table}, {"a", table}}), InputError);
}

}  // namespace
}  // namespace cosched::sched
