// The fluid model's solver (sched/bandwidth.hpp): properties of weighted max-min sharing on random cases, small
// cases computed by hand, the capacity curve of a pool, and the floor rule of pool_capacities.
#include "cosched/sched/bandwidth.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace cosched::sched {
namespace {

constexpr double kRelative = 1e-9;

struct Case {
  std::vector<double> capacities;
  std::vector<FlowDemand> flows;
};

// Pools 1..4 (sometimes of capacity 0), flows 0..9 that use a random subset of the pools (sometimes none), with
// demands over six orders of magnitude and 1..16 cores. Capacities range from a tenth of the total demand on the
// pool to twice it, so some pools are over-subscribed and some are not.
Case random_case(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::size_t> pool_count(1, 4);
  std::uniform_int_distribution<std::size_t> flow_count(0, 9);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::uniform_int_distribution<int> cores(1, 16);
  Case c;
  c.capacities.assign(pool_count(rng), 0.0);
  const std::size_t flows = flow_count(rng);
  std::vector<double> total(c.capacities.size(), 0.0);
  for (std::size_t j = 0; j < flows; ++j) {
    FlowDemand flow;
    flow.cores = unit(rng) < 0.2 ? 0.5 + unit(rng) : static_cast<double>(cores(rng));
    for (std::size_t q = 0; q < c.capacities.size(); ++q) {
      const double demand = unit(rng) < 0.4 ? 0.0 : std::pow(10.0, 3.0 + 6.0 * unit(rng));
      flow.bytes_per_s.push_back(demand);
      total[q] += demand;
    }
    c.flows.push_back(std::move(flow));
  }
  for (std::size_t q = 0; q < c.capacities.size(); ++q) {
    c.capacities[q] = unit(rng) < 0.05 ? 0.0 : total[q] * (0.1 + 1.9 * unit(rng)) + (total[q] == 0.0 ? 1e9 : 0.0);
  }
  return c;
}

double load(const Case& c, const std::vector<double>& rate, std::size_t q) {
  double sum = 0.0;
  for (std::size_t j = 0; j < c.flows.size(); ++j) sum += rate[j] * c.flows[j].bytes_per_s[q];
  return sum;
}

bool saturated(const Case& c, const std::vector<double>& rate, std::size_t q) {
  return load(c, rate, q) >= c.capacities[q] * (1.0 - kRelative);
}

double total_demand(const FlowDemand& flow) {
  double sum = 0.0;
  for (const double d : flow.bytes_per_s) sum += d;
  return sum;
}

// The level of a flow: the bytes/s it moves per core (its share in the weighted max-min sense).
double level(const FlowDemand& flow, double rate) { return rate * total_demand(flow) / flow.cores; }


void check_capacities_and_rate_range(std::uint64_t seed) {
  const Case c = random_case(seed);
  const std::vector<double> rate = share_max_min(c.capacities, c.flows);
  ASSERT_EQ(rate.size(), c.flows.size());
  for (std::size_t j = 0; j < rate.size(); ++j) {
    EXPECT_GE(rate[j], 0.0) << "flow " << j;
    EXPECT_LE(rate[j], 1.0) << "flow " << j;  // never above its demand
  }
  for (std::size_t q = 0; q < c.capacities.size(); ++q) {
    EXPECT_LE(load(c, rate, q), c.capacities[q] * (1.0 + kRelative)) << "pool " << q;
  }
}

void check_bottlenecks(std::uint64_t seed) {
  // Max-min fairness, weighted by cores: a flow below rate 1 uses a full pool (Pareto: nothing is left to give
  // it), and on that pool no flow moves more bytes/s per core than it does (it is not starved for another).
  const Case c = random_case(seed);
  const std::vector<double> rate = share_max_min(c.capacities, c.flows);
  for (std::size_t j = 0; j < c.flows.size(); ++j) {
    if (rate[j] >= 1.0) continue;
    bool has_bottleneck = false;
    for (std::size_t q = 0; q < c.capacities.size() && !has_bottleneck; ++q) {
      if (c.flows[j].bytes_per_s[q] <= 0.0 || !saturated(c, rate, q)) continue;
      bool largest = true;
      for (std::size_t k = 0; k < c.flows.size(); ++k) {
        if (c.flows[k].bytes_per_s[q] <= 0.0) continue;
        const double mine = level(c.flows[j], rate[j]);
        largest = largest && level(c.flows[k], rate[k]) <= mine * (1.0 + kRelative) + 1e-12;
      }
      has_bottleneck = largest;
    }
    EXPECT_TRUE(has_bottleneck) << "flow " << j << " runs at " << rate[j] << " without a bottleneck";
  }
}

void check_one_shared_pool(std::uint64_t seed) {
  // Every flow on the same single pool, over-subscribed: the slowed ones share it per core.
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<FlowDemand> flows;
  double total = 0.0;
  for (int j = 0; j < 6; ++j) {
    flows.push_back({{1e9 * (0.1 + unit(rng))}, 1.0 + std::floor(8.0 * unit(rng))});
    total += flows.back().bytes_per_s[0];
  }
  flows.push_back(flows.front());  // an identical twin: equal weights, equal demands
  total += flows.front().bytes_per_s[0];
  const std::vector<double> capacity{total * (0.2 + 0.6 * unit(rng))};
  const std::vector<double> rate = share_max_min(capacity, flows);
  EXPECT_DOUBLE_EQ(rate.front(), rate.back());
  double per_core = -1.0;
  double used = 0.0;
  for (std::size_t j = 0; j < flows.size(); ++j) {
    used += rate[j] * flows[j].bytes_per_s[0];
    if (rate[j] >= 1.0) continue;
    const double mine = rate[j] * flows[j].bytes_per_s[0] / flows[j].cores;
    if (per_core < 0.0) per_core = mine;
    EXPECT_NEAR(mine, per_core, per_core * kRelative) << "flow " << j;
  }
  EXPECT_GT(per_core, 0.0) << "the pool is over-subscribed, so some flow is slowed";
  EXPECT_NEAR(used, capacity[0], capacity[0] * kRelative);
}

// Each parameter is a block of 25 seeds: 300 random cases per property without 300 test processes under ctest.
class ShareMaxMinProperty : public ::testing::TestWithParam<std::uint64_t> {
 protected:
  static constexpr std::uint64_t kSeedsPerBlock = 25;
  template <typename Check>
  void for_each_seed(Check check) const {
    for (std::uint64_t seed = GetParam() * kSeedsPerBlock; seed < (GetParam() + 1) * kSeedsPerBlock; ++seed) {
      SCOPED_TRACE(::testing::Message() << "seed " << seed);
      check(seed);
    }
  }
};

TEST_P(ShareMaxMinProperty, NoPoolAboveCapacityAndRatesWithinZeroAndOne) {
  for_each_seed(check_capacities_and_rate_range);
}

TEST_P(ShareMaxMinProperty, EverySlowedFlowHasASaturatedBottleneckWhereNoOtherFlowGetsMorePerCore) {
  for_each_seed(check_bottlenecks);
}

TEST_P(ShareMaxMinProperty, FlowsSlowedOnOneSharedPoolMoveBytesInProportionToTheirCores) {
  for_each_seed(check_one_shared_pool);
}

INSTANTIATE_TEST_SUITE_P(Seeds, ShareMaxMinProperty, ::testing::Range<std::uint64_t>(0, 12));

TEST(ShareMaxMin, TwoEqualFlowsOnAPoolOfHalfTheirDemandRunAtHalfSpeed) {
  const std::vector<FlowDemand> flows{{{4e9}, 2.0}, {{4e9}, 2.0}};
  const std::vector<double> capacity{4e9};
  EXPECT_EQ(share_max_min(capacity, flows), (std::vector<double>{0.5, 0.5}));
}

TEST(ShareMaxMin, FlowsWithMoreCoresGetMoreBytes) {
  // Level L per core: 1 core moves L, 3 cores move 3L; 4L = 8 GB/s gives L = 2 GB/s, i.e. 2 and 6 GB/s of
  // demands 8 and 8: rates 0.25 and 0.75.
  const std::vector<FlowDemand> flows{{{8e9}, 1.0}, {{8e9}, 3.0}};
  const std::vector<double> rate = share_max_min(std::vector<double>{8e9}, flows);
  EXPECT_DOUBLE_EQ(rate[0], 0.25);
  EXPECT_DOUBLE_EQ(rate[1], 0.75);
}

TEST(ShareMaxMin, ASmallFlowKeepsItsDemandAndTheRestGoesToTheLargeOne) {
  // Fair share 5 GB/s each, but the small flow needs only 1: it runs at 1 and the large one gets 9 of its 18.
  const std::vector<FlowDemand> flows{{{1e9}, 1.0}, {{18e9}, 1.0}};
  const std::vector<double> rate = share_max_min(std::vector<double>{10e9}, flows);
  EXPECT_DOUBLE_EQ(rate[0], 1.0);
  EXPECT_DOUBLE_EQ(rate[1], 0.5);
}

TEST(ShareMaxMin, AFlowOnTwoPoolsIsLimitedByTheTighterOne) {
  // Alone on both pools: dram lets it run at 6/8, mcdram at 30/20 (> 1), so 0.75.
  const std::vector<FlowDemand> flows{{{8e9, 20e9}, 4.0}};
  const std::vector<double> rate = share_max_min(std::vector<double>{6e9, 30e9}, flows);
  EXPECT_DOUBLE_EQ(rate[0], 0.75);
}

TEST(ShareMaxMin, AFlowWithoutDemandRunsAtFullSpeed) {
  const std::vector<FlowDemand> flows{{{0.0, 0.0}, 1.0}, {{5e9, 0.0}, 1.0}};
  const std::vector<double> rate = share_max_min(std::vector<double>{1e9, 1e9}, flows);
  EXPECT_EQ(rate[0], 1.0);
  EXPECT_DOUBLE_EQ(rate[1], 0.2);
}

TEST(ShareMaxMin, APoolOfCapacityZeroStopsTheFlowsThatNeedItOnly) {
  const std::vector<FlowDemand> flows{{{1e9, 1e9}, 1.0}, {{0.0, 1e9}, 1.0}};
  const std::vector<double> rate = share_max_min(std::vector<double>{0.0, 10e9}, flows);
  EXPECT_EQ(rate[0], 0.0);
  EXPECT_EQ(rate[1], 1.0);
}

TEST(ShareMaxMin, NoFlowsNoRates) { EXPECT_TRUE(share_max_min(std::vector<double>{1e9}, {}).empty()); }

TEST(ShareMaxMin, ProgressiveFillingAcrossTwoPools) {
  // a uses dram and mcdram (moves 6 GB/s alone), b only dram (4), c only mcdram (2); one core each, so at level L
  // (bytes/s per core) the rates are L/6, L/4, L/2. c reaches its demand first (L = 2 GB/s, mcdram then carries
  // 2/3 + 2 <= 3). dram saturates next, when 4 L/6 + 4 L/4 = 4 GB/s: L = 2.4 GB/s, a at 0.4 and b at 0.6;
  // mcdram ends at 0.8 + 2 GB/s, below its 3.
  const std::vector<FlowDemand> flows{{{4e9, 2e9}, 1.0}, {{4e9, 0.0}, 1.0}, {{0.0, 2e9}, 1.0}};
  const std::vector<double> rate = share_max_min(std::vector<double>{4e9, 3e9}, flows);
  EXPECT_DOUBLE_EQ(rate[0], 0.4);
  EXPECT_DOUBLE_EQ(rate[1], 0.6);
  EXPECT_DOUBLE_EQ(rate[2], 1.0);
}

TEST(BandwidthPoolCapacity, LinearBetweenPointsProportionalBelowTheFirstFlatBeyondTheLast) {
  const BandwidthPool pool{"dram", {2.0, 4.0, 8.0}, {10e9, 16e9, 20e9}};
  EXPECT_EQ(pool.capacity(0.0), 0.0);
  EXPECT_EQ(pool.capacity(-1.0), 0.0);
  EXPECT_DOUBLE_EQ(pool.capacity(1.0), 5e9);     // 10 GB/s * 1/2
  EXPECT_DOUBLE_EQ(pool.capacity(2.0), 10e9);
  EXPECT_DOUBLE_EQ(pool.capacity(3.0), 13e9);    // halfway from 10 to 16
  EXPECT_DOUBLE_EQ(pool.capacity(4.0), 16e9);
  EXPECT_DOUBLE_EQ(pool.capacity(5.0), 17e9);    // a quarter from 16 to 20
  EXPECT_DOUBLE_EQ(pool.capacity(8.0), 20e9);
  EXPECT_DOUBLE_EQ(pool.capacity(64.0), 20e9);
  const BandwidthPool single{"hbm", {1.0}, {7e9}};
  EXPECT_DOUBLE_EQ(single.capacity(0.5), 3.5e9);
  EXPECT_DOUBLE_EQ(single.capacity(1.0), 7e9);
  EXPECT_DOUBLE_EQ(single.capacity(3.0), 7e9);
}

BandwidthModel two_pool_model() {
  BandwidthModel model;
  model.pools = {{"dram", {1.0, 2.0}, {6e9, 10e9}}, {"mcdram", {1.0, 4.0}, {20e9, 40e9}}};
  return model;
}

TEST(PoolCapacities, CapacityAtTheCoresStreamingFromEachPool) {
  // dram: 1 + 1 cores stream from it (the third flow does not) -> 10 GB/s; mcdram: 1 + 2 cores -> 20 + 2/3 * 20.
  const std::vector<FlowDemand> flows{{{1e9, 1e9}, 1.0}, {{1e9, 0.0}, 1.0}, {{0.0, 1e9}, 2.0}};
  const std::vector<double> capacities = pool_capacities(two_pool_model(), flows);
  EXPECT_DOUBLE_EQ(capacities[0], 10e9);
  EXPECT_DOUBLE_EQ(capacities[1], 20e9 + 2.0 / 3.0 * 20e9);
}

TEST(PoolCapacities, AtLeastTheLargestSingleDemand) {
  // One core on dram gives 6 GB/s by the curve, but a task measured alone at 9 GB/s: the pool serves 9.
  const std::vector<FlowDemand> flows{{{9e9, 0.0}, 1.0}};
  const std::vector<double> capacities = pool_capacities(two_pool_model(), flows);
  EXPECT_DOUBLE_EQ(capacities[0], 9e9);
  EXPECT_DOUBLE_EQ(capacities[1], 0.0);  // nobody streams from it
  EXPECT_EQ(progress_rates(two_pool_model(), flows), std::vector<double>{1.0});  // a lone task is never slowed
}

TEST(PoolCapacities, TheFloorIsTheLargestDemandNotTheirSum) {
  // Two tasks each measured alone at 9 GB/s on dram (curve: 10 at 2 cores): the pool gives 10, not 18.
  const std::vector<FlowDemand> flows{{{9e9, 0.0}, 1.0}, {{9e9, 0.0}, 1.0}};
  const std::vector<double> capacities = pool_capacities(two_pool_model(), flows);
  EXPECT_DOUBLE_EQ(capacities[0], 10e9);
  const std::vector<double> rate = progress_rates(two_pool_model(), flows);
  EXPECT_DOUBLE_EQ(rate[0], 5.0 / 9.0);
  EXPECT_DOUBLE_EQ(rate[1], 5.0 / 9.0);
}

TEST(PoolCapacities, ALoneTaskIsNeverSlowedWhateverItsDemand) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int round = 0; round < 200; ++round) {
    const FlowDemand flow{{std::pow(10.0, 6.0 + 6.0 * unit(rng)), unit(rng) < 0.3 ? 0.0 : 1e12 * unit(rng)},
                          1.0 + std::floor(64.0 * unit(rng))};
    EXPECT_EQ(progress_rates(two_pool_model(), std::vector<FlowDemand>{flow}), std::vector<double>{1.0});
  }
}

// A task that streams a share s of its time: only that share slows, by the pool's rate r: 1 / ((1 - s) + s / r).
TEST(StreamingShare, OnlyTheStreamingShareOfATaskSlowsDown) {
  // Two tasks streaming half their time at 9 GB/s each on dram (10 GB/s for 2 cores): the pool's rate is 5/9,
  // so each takes 0.5 + 0.5 * 9/5 = 1.4 times as long.
  const std::vector<FlowDemand> flows{{{9e9, 0.0}, 1.0, 0.5}, {{9e9, 0.0}, 1.0, 0.5}};
  const std::vector<double> rate = progress_rates(two_pool_model(), flows);
  EXPECT_DOUBLE_EQ(rate[0], 1.0 / 1.4);
  EXPECT_DOUBLE_EQ(rate[1], 1.0 / 1.4);
  // Streaming all the time, the task's rate is the pool's.
  const std::vector<FlowDemand> full{{{9e9, 0.0}, 1.0, 1.0}, {{9e9, 0.0}, 1.0, 1.0}};
  EXPECT_DOUBLE_EQ(progress_rates(two_pool_model(), full)[0], 5.0 / 9.0);
}

TEST(StreamingShare, ATaskBelowWhatItsCoresGetStreamsOnlyPartOfTheTime) {
  // dram gives one core 6 GB/s; a task moving 3 GB/s on average streams half the time, at 6 GB/s.
  const FlowDemand half = flow_of_task(two_pool_model(), {3e9, 0.0}, 1.0);
  EXPECT_DOUBLE_EQ(half.streaming_share, 0.5);
  EXPECT_DOUBLE_EQ(half.bytes_per_s[0], 6e9);
  EXPECT_DOUBLE_EQ(half.bytes_per_s[1], 0.0);
  // At or above what the pool gives its cores: it streams all the time, at its own average.
  const FlowDemand busy = flow_of_task(two_pool_model(), {9e9, 0.0}, 1.0);
  EXPECT_DOUBLE_EQ(busy.streaming_share, 1.0);
  EXPECT_DOUBLE_EQ(busy.bytes_per_s[0], 9e9);
  // The busiest pool sets the share; a task without traffic streams "all the time" (it never slows anyway).
  EXPECT_DOUBLE_EQ(flow_of_task(two_pool_model(), {0.0, 0.0}, 2.0).streaming_share, 1.0);
  // Never below the floor: a nearly idle task is not given an unbounded streaming demand.
  EXPECT_DOUBLE_EQ(flow_of_task(two_pool_model(), {1.0, 0.0}, 1.0).streaming_share, kMinStreamingShare);
}

TEST(StreamingShare, AverageTrafficIsKept) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int round = 0; round < 200; ++round) {
    const std::vector<double> average{1e10 * unit(rng), unit(rng) < 0.3 ? 0.0 : 5e10 * unit(rng)};
    const double cores = 1.0 + std::floor(64.0 * unit(rng));
    const FlowDemand flow = flow_of_task(two_pool_model(), average, cores);
    EXPECT_GT(flow.streaming_share, 0.0);
    EXPECT_LE(flow.streaming_share, 1.0);
    for (std::size_t q = 0; q < average.size(); ++q) {
      EXPECT_NEAR(flow.bytes_per_s[q] * flow.streaming_share, average[q], 1e-6 * (1.0 + average[q])) << round;
    }
  }
}

// A node of one pool: 20 GB/s to one core, 30 GB/s to two.
BandwidthModel one_pool_model() { return {{{"dram", {1.0, 2.0}, {20e9, 30e9}}}, {}}; }

TEST(PairedDemand, TheAverageAtWhichTheModelSlowsTwoCopiesAsMeasured) {
  // By hand: two 1-core copies moving a GB/s each stream a share s = a / 20 at 20 GB/s; together they ask 40 of
  // the pool's 30, so each streams at 0.75 of its demand and takes (1 - s) + s / 0.75 = 1 + s / 3 as long. A
  // measured slowdown of 1.2 is s = 0.6: a = 12 GB/s.
  const PairedDemand found = paired_demand(one_pool_model(), 0, 1.0, 1.2);
  EXPECT_FALSE(found.beyond_model);
  EXPECT_NEAR(found.average_bytes_per_s, 12e9, 1e-6 * 12e9);
  EXPECT_NEAR(found.model_max_slowdown, 2.0, 1e-12);
  // And the forward model gives the slowdown back.
  const FlowDemand copy = flow_of_task(one_pool_model(), {found.average_bytes_per_s}, 1.0);
  const std::vector<FlowDemand> pair{copy, copy};
  EXPECT_NEAR(1.0 / progress_rates(one_pool_model(), pair)[0], 1.2, 1e-9);
}

TEST(PairedDemand, NoSlowdownIsNoTrafficAndTooMuchIsAskingForTheWholePool) {
  EXPECT_EQ(paired_demand(one_pool_model(), 0, 1.0, 1.0).average_bytes_per_s, 0.0);
  EXPECT_EQ(paired_demand(one_pool_model(), 0, 1.0, 0.97).average_bytes_per_s, 0.0);  // noise: faster than alone
  const PairedDemand beyond = paired_demand(one_pool_model(), 0, 1.0, 2.5);          // the model's most is 2
  EXPECT_TRUE(beyond.beyond_model);
  EXPECT_DOUBLE_EQ(beyond.average_bytes_per_s, 30e9);
}

// By hand: past 4/3, streaming all the time at what the curve gives one core (20 GB/s) no longer explains the pair,
// so each copy moves more: at a > 20 GB/s each, the pool serves max(30, a) and each copy gets 15, a slowdown of
// a / 15. A measured 1.5 is 22.5 GB/s.
TEST(PairedDemand, ASlowdownBeyondStreamingAtOneCoresCurveIsMoreThanThatCurve) {
  const PairedDemand found = paired_demand(one_pool_model(), 0, 1.0, 1.5);
  EXPECT_FALSE(found.beyond_model);
  EXPECT_NEAR(found.average_bytes_per_s, 22.5e9, 1e-6 * 22.5e9);
}

// A pool that serves two copies in full (40 GB/s to two cores, 20 to one) slows them only once each moves more than
// half of 40: a measured 1.3 is 1.3 x 20 = 26 GB/s each.
TEST(PairedDemand, APoolThatServesTwoCopiesInFullIsSlowedByCopiesMovingMoreThanOneCoresCurve) {
  const BandwidthModel wide{{{"dram", {1.0, 2.0}, {20e9, 40e9}}}, {}};
  const PairedDemand found = paired_demand(wide, 0, 1.0, 1.3);
  EXPECT_FALSE(found.beyond_model);
  EXPECT_NEAR(found.average_bytes_per_s, 26e9, 1e-6 * 26e9);
}

// A probe's spread (issue 23) is a range of averages. By hand, on one_pool_model: below 20 GB/s the pair slows by
// 1 + a / 60, so copies that slowed 1.1 to 1.2 moved 6 to 12 GB/s each; one that slowed 1.5 to 2.5 (beyond the
// model's 2) moved 22.5 GB/s up to all of the pool's 30.
TEST(PairedDemandRange, TheAveragesThatFitTheProbesSpread) {
  const PairedDemandRange spread = paired_demand_range(one_pool_model(), 0, 1.0, 1.1, 1.2);
  EXPECT_NEAR(spread.lowest_bytes_per_s, 6e9, 1e-6 * 6e9);
  EXPECT_NEAR(spread.highest_bytes_per_s, 12e9, 1e-6 * 12e9);
  const PairedDemandRange beyond = paired_demand_range(one_pool_model(), 0, 1.0, 1.5, 2.5);
  EXPECT_NEAR(beyond.lowest_bytes_per_s, 22.5e9, 1e-6 * 22.5e9);
  EXPECT_DOUBLE_EQ(beyond.highest_bytes_per_s, 30e9);
  // One slowdown, no spread: one average, paired_demand's.
  const PairedDemandRange one = paired_demand_range(one_pool_model(), 0, 1.0, 1.2, 1.2);
  EXPECT_NEAR(one.lowest_bytes_per_s, one.highest_bytes_per_s, 1e-6 * 12e9);
  EXPECT_DOUBLE_EQ(one.lowest_bytes_per_s, paired_demand(one_pool_model(), 0, 1.0, 1.2).average_bytes_per_s);
}

// Where the model's slowdown is flat: a pool of 20 GB/s to one core and 40 to two never slows two 1-core copies
// until each moves more than 20 GB/s (then by a / 20). A pair that did not slow fits any average up to 20 GB/s, not
// only 0; one that slowed 0.97 to 1.3 fits anything up to 26.
TEST(PairedDemandRange, ANoSlowdownFitsEveryAverageTheModelDoesNotSlow) {
  const BandwidthModel wide{{{"dram", {1.0, 2.0}, {20e9, 40e9}}}, {}};
  const PairedDemandRange none = paired_demand_range(wide, 0, 1.0, 1.0, 1.0);
  EXPECT_EQ(none.lowest_bytes_per_s, 0.0);
  EXPECT_NEAR(none.highest_bytes_per_s, 20e9, 1e-6 * 20e9);
  const PairedDemandRange noisy = paired_demand_range(wide, 0, 1.0, 0.97, 1.3);
  EXPECT_EQ(noisy.lowest_bytes_per_s, 0.0);
  EXPECT_NEAR(noisy.highest_bytes_per_s, 26e9, 1e-6 * 26e9);
}

TEST(PairedDemand, LargerSlowdownsMeanMoreTraffic) {
  const BandwidthModel model = two_pool_model();
  double previous = -1.0;
  for (double slowdown = 1.0; slowdown < 2.0; slowdown += 0.05) {  // the model's whole range: every slowdown tells
    const double average = paired_demand(model, 0, 1.0, slowdown).average_bytes_per_s;
    EXPECT_GT(average, previous) << slowdown;
    previous = average;
  }
}

}  // namespace
}  // namespace cosched::sched
