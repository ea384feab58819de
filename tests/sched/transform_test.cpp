// TF (Algorithm 2): Lemma 2 (valid and same makespan after back transformation) and Lemma 3 (L'_min(d) <= L_min(d)).
#include "cosched/sched/transform.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "cosched/common/error.hpp"
#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/allocation.hpp"
#include "cosched/sched/rigid.hpp"
#include "sched/test_support.hpp"

namespace cosched::sched {
namespace {

TEST(TransformTest, CapacityIsTheLcm) {
  EXPECT_EQ(transform_capacity({64, 32, 16, 8}), 64);
  EXPECT_EQ(transform_capacity({64, 20}), 320);
  EXPECT_EQ(transform_capacity({3, 4, 5}), 60);
  EXPECT_THROW((void)transform_capacity({65521, 65519, 65497}), ResourceError);
}

TEST(TransformTest, TimesAreReadAtTheFlooredVector) {
  const Instance instance = testing::random_dense_instance(3, {2, 3}, 2);
  const Instance single = transform_to_single_resource(instance);
  ASSERT_EQ(single.space().capacity(0), 6);
  std::vector<double> times(single.space().size());
  for (std::size_t j = 0; j < instance.task_count(); ++j) {
    single.tasks()[j].profile->fill_times(single.space(), times);
    for (int q = 0; q <= 6; ++q) {
      const std::vector<int> p{q * 2 / 6, q * 3 / 6};
      EXPECT_EQ(transform_back({2, 3}, q, 6), p);
      EXPECT_EQ(times[static_cast<std::size_t>(q)], instance.time(j, p));
      const std::vector<int> qv{q};
      EXPECT_EQ(single.time(j, qv), instance.time(j, p));
    }
  }
}

// t(p) = 12 / (1 + sum_i p_i) on any space: a profile that can be read on two spaces.
class HarmonicProfile final : public TimeProfile {
 public:
  void fill_times(const AllocationSpace& space, std::span<double> out) const override {
    for (std::size_t index = 0; index < space.size(); ++index) out[index] = time_at(space, space.decode(index));
  }
  double time_at(const AllocationSpace& /*space*/, std::span<const int> alloc) const override {
    int sum = 0;
    for (const int amount : alloc) sum += amount;
    return 12.0 / (1.0 + sum);
  }
};

// The T-variants planning one instance share TF's fronts: transforming the instance again gives the same view of
// each profile, hence the same front object; the profiles read on another space get views of their own with that
// space's times; I' keeps the original profiles alive.
TEST(TransformTest, TheViewOfTheFirstSpaceIsKeptWithTheProfile) {
  std::vector<Task> tasks;
  for (const char* id : {"a", "b"}) tasks.push_back({id, std::make_shared<HarmonicProfile>()});
  std::optional<Instance> instance(Instance({{"x", 2}, {"y", 3}}, tasks));
  const Instance first = transform_to_single_resource(*instance);
  const Instance again = transform_to_single_resource(*instance);
  ASSERT_EQ(first.space().capacity(0), 6);
  for (std::size_t j = 0; j < tasks.size(); ++j) {
    EXPECT_EQ(first.tasks()[j].profile.get(), again.tasks()[j].profile.get()) << "task " << j;
    EXPECT_EQ(first.tasks()[j].profile->front(first.space()), again.tasks()[j].profile->front(again.space()));
  }
  {
    const Instance wider({{"x", 4}, {"y", 3}}, tasks);
    const Instance other = transform_to_single_resource(wider);
    ASSERT_EQ(other.space().capacity(0), 12);
    for (std::size_t j = 0; j < tasks.size(); ++j) {
      EXPECT_NE(other.tasks()[j].profile.get(), first.tasks()[j].profile.get()) << "task " << j;
      for (int q = 0; q <= 12; ++q) {
        const std::vector<int> qv{q};
        EXPECT_EQ(other.time(j, qv), wider.time(j, transform_back({4, 3}, q, 12))) << "task " << j << ", q " << q;
      }
    }
  }
  tasks.clear();
  instance.reset();  // the two I' alone hold the original profiles now
  for (std::size_t j = 0; j < first.task_count(); ++j) {
    for (int q = 0; q <= 6; ++q) {
      const std::vector<int> qv{q};
      const std::vector<int> p = transform_back({2, 3}, q, 6);
      EXPECT_EQ(first.time(j, qv), 12.0 / (1.0 + p[0] + p[1])) << "task " << j << ", q " << q;
    }
  }
}

// Lemma 2: solve I' directly, map back, and compare with the T-variant's schedule of I.
TEST(TransformTest, Lemma2BackTransformedScheduleIsValidWithTheSameMakespan) {
  for (std::uint64_t seed = 0; seed < 300; ++seed) {
    const std::size_t d = 1 + seed % 4;
    std::vector<int> capacities;
    for (std::size_t i = 0; i < d; ++i) capacities.push_back(1 + static_cast<int>((seed + 3 * i) % 4));
    const Instance instance = testing::random_dense_instance(5000 + seed, capacities, 1 + seed % 7);
    const Instance single = transform_to_single_resource(instance);
    const int Q = single.space().capacity(0);
    const auto allocation = allocate_resources(single, static_cast<double>(d));
    RigidTasks rigid{{Q}, {}, allocation.time};
    for (std::size_t index : allocation.allocation) rigid.demand.push_back(static_cast<int>(index));
    for (const bool pack : {false, true}) {
      const RigidSchedule placed = pack ? pack_schedule(rigid, PackFit::first_fit)
                                        : list_schedule(rigid, ListOrder::longest_first);
      Schedule transformed{"I'", 0.0, 0.0, 0.0, {}, {}, {}};
      Schedule original{"I", 0.0, 0.0, 0.0, {}, {}, {}};
      for (std::size_t j = 0; j < instance.task_count(); ++j) {
        const int q = rigid.demand[j];
        transformed.tasks.push_back({{q}, placed.start[j], rigid.duration[j], pack ? placed.pack[j] : -1});
        original.tasks.push_back({transform_back(capacities, q, Q), placed.start[j], rigid.duration[j],
                                  pack ? placed.pack[j] : -1});
      }
      transformed.makespan = completion_time(transformed.tasks);
      original.makespan = completion_time(original.tasks);
      EXPECT_TRUE(find_violations(single, transformed).empty()) << "seed " << seed;
      EXPECT_TRUE(find_violations(instance, original).empty()) << "seed " << seed;
      EXPECT_EQ(original.makespan, transformed.makespan);
      const Schedule via_algorithm = find_algorithm(pack ? "t-pack-ff" : "t-list-lpt").schedule(instance);
      EXPECT_EQ(via_algorithm.makespan, transformed.makespan) << "seed " << seed;
    }
  }
}

// Lemma 3, both as the final inequality and through its construction q(p) = p^(k) Q / P(k). The paper writes
// k = argmin_i p_i/P(i), but its own inequality p_i <= floor(p^(k) P(i) / P(k)) needs the dominating share,
// k = argmax_i p_i/P(i) (with argmin the floored vector is below p and t' can be larger); we test the argmax.
TEST(TransformTest, Lemma3TransformedLowerBoundIsAtMostTheOriginal) {
  for (std::uint64_t seed = 0; seed < 300; ++seed) {
    const std::size_t d = 1 + seed % 4;
    std::vector<int> capacities;
    for (std::size_t i = 0; i < d; ++i) capacities.push_back(1 + static_cast<int>((seed / 2 + i) % 3));
    const Instance instance = testing::random_dense_instance(9000 + seed, capacities, 1 + seed % 6);
    const Instance single = transform_to_single_resource(instance);
    const int Q = single.space().capacity(0);
    const double s = static_cast<double>(d);
    const auto original = allocate_resources(instance, s);
    const auto transformed = allocate_resources(single, s);
    EXPECT_TRUE(testing::close_or_below(transformed.bound, original.bound)) << "seed " << seed;
    for (std::size_t j = 0; j < instance.task_count(); ++j) {
      const auto p = instance.space().decode(original.allocation[j]);
      std::size_t k = 0;
      for (std::size_t i = 1; i < d; ++i) {
        if (static_cast<long long>(p[i]) * capacities[k] > static_cast<long long>(p[k]) * capacities[i]) k = i;
      }
      const int q = p[k] * (Q / capacities[k]);
      const std::vector<int> qv{q};
      EXPECT_LE(single.time(j, qv), original.time[j]) << "seed " << seed;
      EXPECT_TRUE(testing::close_or_below(area(single.space(), qv, single.time(j, qv)),
                                          area(instance.space(), p, original.time[j])));
    }
  }
}

}  // namespace
}  // namespace cosched::sched
