// Traffic per task (issue 10): the bytes a STREAM task moves from each tier and pool, from the kernel table, the
// fast fraction and the emulated tier's re-streaming, computed by hand; and the instance that carries them.
#include "cosched/profiler/traffic.hpp"

#include <gtest/gtest.h>

#include "cosched/profiler/instance_builder.hpp"
#include "cosched/profiler/knl_model.hpp"

namespace cosched::profiler {
namespace {

constexpr std::uint64_t kMiB = 1ULL << 20;

config::PlatformConfig platform_with(const std::string& backend) {
  config::PlatformConfig p;
  p.cores = 2;
  p.fast_capacity_bytes = 120 * kMiB;
  p.fast_chunks = 4;  // 30 MiB chunks
  p.tier_backend = backend;
  p.emulation_ratio = 5.0;
  return p;
}

TEST(Traffic, OnePassMovesTheFootprintSplitByTheFastFraction) {
  const auto real = platform_with("numa");
  // triad over 120 MiB: 3 arrays of 40 MiB, 24 bytes per element -> 120 MiB per pass.
  const TierTraffic none = stream_traffic_per_pass("triad", 120 * kMiB, 0, real);
  EXPECT_DOUBLE_EQ(none.fast_bytes, 0.0);
  EXPECT_DOUBLE_EQ(none.slow_bytes, 120.0 * kMiB);
  const TierTraffic half = stream_traffic_per_pass("triad", 120 * kMiB, 2, real);  // 60 of 120 MiB fast
  EXPECT_DOUBLE_EQ(half.fast_bytes, 60.0 * kMiB);
  EXPECT_DOUBLE_EQ(half.slow_bytes, 60.0 * kMiB);
  // write touches one array: its footprint is the one array, written once.
  EXPECT_DOUBLE_EQ(stream_traffic_per_pass("write", 64 * kMiB, 0, real).slow_bytes, 64.0 * kMiB);
}

TEST(Traffic, TheEmulatedSlowTierIsStreamedRatioTimes) {
  const auto emulated = platform_with("emulated");
  const TierTraffic half = stream_traffic_per_pass("ddot", 120 * kMiB, 2, emulated);
  EXPECT_DOUBLE_EQ(half.fast_bytes, 60.0 * kMiB);
  EXPECT_DOUBLE_EQ(half.slow_bytes, 5.0 * 60.0 * kMiB);
}

TEST(Traffic, TheInstanceCarriesThePoolsAndEveryTasksTrafficTimesItsPasses) {
  const auto platform = platform_with("emulated");
  config::Workload workload;
  workload.name = "w";
  config::add_stream_tasks(workload, {"triad", 120 * kMiB, 2, 3});
  std::vector<ProfileRow> rows;
  for (unsigned c = 1; c <= platform.cores; ++c) {
    for (unsigned k = 0; k <= platform.fast_chunks; ++k) {
      rows.push_back({{"triad", 120 * kMiB, c, k}, 0.1, 0.1, 0.1, 1, 1.0});
    }
  }
  ProfileSet profiles;
  profiles.add(rows, platform.chunk_bytes());
  NodeBandwidth node;
  node.model.pools.push_back({"dram", {1.0, 2.0}, {1e10, 1.2e10}});
  const sched::Instance instance = build_instance(workload, profiles, platform, &node);
  ASSERT_EQ(instance.bandwidth().pools.size(), 1U);
  ASSERT_NE(instance.tasks()[1].traffic, nullptr);
  const auto& dram = (*instance.tasks()[1].traffic)[0];
  // 1 core, 2 chunks: 3 passes x (60 MiB fast + 5 x 60 MiB slow) = 3 x 360 MiB, all from the one DRAM pool.
  EXPECT_DOUBLE_EQ(dram[1 * 5 + 2], 3.0 * 360.0 * kMiB);
  EXPECT_DOUBLE_EQ(dram[2 * 5 + 4], 3.0 * 120.0 * kMiB);  // all fast: the footprint once per pass
  // 3 x 120 MiB in 3 x 0.1 s: 1.26e9 bytes/s on average, below the 1e10 one core gets: it streams 12.6 % of the
  // time, at 1e10 bytes/s.
  const sched::FlowDemand flow = instance.demand(0, std::vector<int>{1, 4});
  EXPECT_DOUBLE_EQ(flow.streaming_share, 120.0 * kMiB / 0.1 / 1e10);
  EXPECT_DOUBLE_EQ(flow.bytes_per_s[0] * flow.streaming_share, 120.0 * kMiB / 0.1);
  // Without a node model: no pools, no traffic.
  const sched::Instance plain = build_instance(workload, profiles, platform);
  EXPECT_TRUE(plain.bandwidth().empty());
  EXPECT_EQ(plain.tasks()[0].traffic, nullptr);
}

TEST(Traffic, ARealNodeSendsEachTiersBytesToItsPool) {
  config::NodeModel node;
  node.provenance.tier_backend = "numa";
  node.pools.push_back({"mcdram", {"fast"}, {{1, 64}, {15.0, 450.0}}, {}});
  node.pools.push_back({"ddr", {"slow"}, {{1, 64}, {10.0, 90.0}}, {}});
  const NodeBandwidth bandwidth = node_bandwidth(node);
  EXPECT_EQ(bandwidth.fast_pool, 0U);
  EXPECT_EQ(bandwidth.slow_pool, 1U);
  EXPECT_DOUBLE_EQ(bandwidth.model.pools[1].capacity(64), 90e9);
  config::WorkloadTask task;
  task.id = "t";
  task.kernel = "triad";
  task.footprint_bytes = 120 * kMiB;
  task.passes = 2;
  const auto traffic = task_traffic_table(task, bandwidth, platform_with("numa"));
  EXPECT_DOUBLE_EQ(traffic[0][1 * 5 + 2], 2.0 * 60.0 * kMiB);  // half fast: mcdram
  EXPECT_DOUBLE_EQ(traffic[1][1 * 5 + 2], 2.0 * 60.0 * kMiB);  // half slow: ddr, streamed once
}

}  // namespace
}  // namespace cosched::profiler
