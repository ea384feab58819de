// Traffic per task (issue 10): the bytes a STREAM task moves from each tier and pool, from the kernel table, the
// fast fraction and the emulated tier's re-streaming, and (issue 23) its process's set-up — first touch and
// validation — computed by hand; and the instance that carries them.
#include "cosched/profiler/traffic.hpp"

#include <gtest/gtest.h>

#include "cosched/profiler/instance_builder.hpp"
#include "cosched/profiler/knl_model.hpp"
#include "cosched/sched/bandwidth.hpp"

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

// One task type of `passes` passes of triad over 120 MiB, two of them, and a profile of `pass_s` per pass at every
// allocation of `platform`; with `paired_s`, the point of 1 core and no chunk carries that memory-demand probe.
struct FlatTriad {
  config::Workload workload;
  ProfileSet profiles;
};
FlatTriad flat_triad(const config::PlatformConfig& platform, unsigned passes, double pass_s = 0.1,
                     std::optional<double> paired_s = std::nullopt) {
  FlatTriad flat;
  flat.workload.name = "w";
  config::add_stream_tasks(flat.workload, {"triad", 120 * kMiB, 2, passes});
  std::vector<ProfileRow> rows;
  for (unsigned c = 1; c <= platform.cores; ++c) {
    for (unsigned k = 0; k <= platform.fast_chunks; ++k) {
      rows.push_back({{"triad", 120 * kMiB, c, k}, pass_s, pass_s, pass_s, 1, 1.0});
      if (c == 1 && k == 0) rows.back().paired_s = paired_s;
    }
  }
  flat.profiles.add(rows, platform.chunk_bytes());
  return flat;
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
  const auto [workload, profiles] = flat_triad(platform, 3);
  NodeBandwidth node;
  node.model.pools.push_back({"dram", {1.0, 2.0}, {1e10, 1.2e10}});
  const sched::Instance instance = build_instance(workload, profiles, platform, &node);
  ASSERT_EQ(instance.bandwidth().pools.size(), 1U);
  ASSERT_NE(instance.tasks()[1].traffic, nullptr);
  const auto& dram = (*instance.tasks()[1].traffic)[0];
  // 1 core, 2 chunks: 3 passes x (60 MiB fast + 5 x 60 MiB slow) = 3 x 360 MiB, plus the set-up's 2 x 120 MiB
  // (first touch and validation, never re-streamed), all from the one DRAM pool.
  EXPECT_DOUBLE_EQ(dram[1 * 5 + 2], 3.0 * 360.0 * kMiB + 240.0 * kMiB);
  EXPECT_DOUBLE_EQ(dram[2 * 5 + 4], 3.0 * 120.0 * kMiB + 240.0 * kMiB);  // all fast: the footprint once per pass
  // (3 x 120 + 240) MiB in 3 x 0.1 s: 2.10e9 bytes/s on average, below the 1e10 one core gets: it streams 21 % of
  // the time, at 1e10 bytes/s.
  const sched::FlowDemand flow = instance.demand(0, std::vector<int>{1, 4});
  EXPECT_DOUBLE_EQ(flow.streaming_share, 600.0 * kMiB / 0.3 / 1e10);
  EXPECT_DOUBLE_EQ(flow.bytes_per_s[0] * flow.streaming_share, 600.0 * kMiB / 0.3);
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
  // Half fast: 2 passes x 60 MiB and the set-up's half of 2 x 120 MiB from each pool.
  EXPECT_DOUBLE_EQ(traffic[0][1 * 5 + 2], 2.0 * 60.0 * kMiB + 120.0 * kMiB);  // mcdram
  EXPECT_DOUBLE_EQ(traffic[1][1 * 5 + 2], 2.0 * 60.0 * kMiB + 120.0 * kMiB);  // ddr, streamed once
}

// The set-up phase of a process: first touch writes the footprint once, validation reads it once; the fast
// fraction splits it between the tiers and the emulated tier does not re-stream it.
TEST(Traffic, AProcessSetUpMovesTwiceTheFootprintSplitByTheFastFraction) {
  const auto emulated = platform_with("emulated");
  const TierTraffic none = stream_setup_traffic(120 * kMiB, 0, emulated);
  EXPECT_DOUBLE_EQ(none.fast_bytes, 0.0);
  EXPECT_DOUBLE_EQ(none.slow_bytes, 240.0 * kMiB);  // not 5 x: only kernel passes are re-streamed
  const TierTraffic quarter = stream_setup_traffic(120 * kMiB, 1, emulated);  // 30 of 120 MiB fast
  EXPECT_DOUBLE_EQ(quarter.fast_bytes, 60.0 * kMiB);
  EXPECT_DOUBLE_EQ(quarter.slow_bytes, 180.0 * kMiB);
}

// Hand-worked rates with the set-up bytes: two 1-core tasks on one pool of 1e10 bytes/s (whatever the cores),
// each a 2-pass triad over 120 MiB, all slow on a real node, taking 0.1 s per pass alone: 2 x 120 MiB + 240 MiB
// = 480 MiB in 0.2 s, 2.5166e9 bytes/s on average; one core alone gets 1e10, so it streams s = 0.25166 of its time
// at 1e10 bytes/s (without the set-up: s = 0.12583). Together they ask 2e10 of the pool's 1e10 while streaming:
// each gets r = 1/2 of its demand, and progresses at 1 / ((1 - s) + s / r) = 1 / (1 + s) = 0.79894 (without the
// set-up bytes: 0.88824) — the set-up's bytes make co-running tasks slow each other more.
TEST(Traffic, SetUpBytesEnterTheContentionRatesComputedByHand) {
  const auto platform = platform_with("numa");
  const auto [workload, profiles] = flat_triad(platform, 2);
  config::NodeModel node;
  node.provenance.tier_backend = "numa";
  node.pools.push_back({"ddr", {"fast", "slow"}, {{1, 2}, {10.0, 10.0}}, {}});
  const NodeBandwidth bandwidth = node_bandwidth(node);
  const sched::Instance instance = build_instance(workload, profiles, platform, &bandwidth);
  const std::vector<int> one_core_all_slow{1, 0};
  const std::vector<sched::FlowDemand> flows{instance.demand(0, one_core_all_slow),
                                             instance.demand(1, one_core_all_slow)};
  const double share = 480.0 * kMiB / 0.2 / 1e10;
  EXPECT_NEAR(share, 0.25166, 1e-5);
  EXPECT_DOUBLE_EQ(flows[0].streaming_share, share);
  EXPECT_DOUBLE_EQ(flows[0].bytes_per_s[0], 1e10);
  const std::vector<double> rates = sched::progress_rates(instance.bandwidth(), flows);
  ASSERT_EQ(rates.size(), 2U);
  EXPECT_DOUBLE_EQ(rates[0], 1.0 / (1.0 + share));
  EXPECT_NEAR(rates[1], 0.79894, 1e-5);
}

// Written shares, STREAM counting (arrays written over arrays moved): triad writes a of (a, b, c), copy c of (a, c),
// ddot none of (a, b), write its one array. Kernels that are not element-wise, and unknown names, have none.
TEST(Traffic, WrittenShareCountsTheArraysAKernelWrites) {
  EXPECT_DOUBLE_EQ(*written_share("triad"), 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(*written_share("copy"), 0.5);
  EXPECT_DOUBLE_EQ(*written_share("ddot"), 0.0);
  EXPECT_DOUBLE_EQ(*written_share("write"), 1.0);
  EXPECT_FALSE(written_share("gemm").has_value());
  EXPECT_FALSE(written_share("no-such-kernel").has_value());
}

// The node of the unseen batch's chain (issue 24, run 2): pool curve the median over kernels, 17.3 GB/s at one
// core (ddot's) and 34.4 at two (write's, a noisy point); triad alone 22.0 and 29.3.
config::NodeModel calibrated_node() {
  config::NodeModel node;
  node.provenance.tier_backend = "emulated";
  node.provenance.emulated = true;
  config::MemoryPool dram{"dram", {"fast", "slow"}, {{1, 2}, {17.3, 34.4}}, {}};
  dram.kernels["ddot"] = {{1, 2}, {17.3, 36.4}};
  dram.kernels["triad"] = {{1, 2}, {22.0, 29.3}};
  dram.kernels["write"] = {{1, 2}, {10.4, 34.4}};
  node.pools.push_back(dram);
  return node;
}

config::Workload batch_of(std::initializer_list<const char*> kernels) {
  config::Workload workload;  // unnamed: assigning the name here trips GCC 12's -Wrestrict false positive
  for (const char* kernel : kernels) config::add_stream_tasks(workload, {kernel, 120 * kMiB, 2, 5});
  return workload;
}

// Triad (1/3) and copy (1/2) are both nearest to triad of (ddot 0, triad 1/3, write 1): the batch's pool is the
// triad curve, and the provenance says so. A batch whose kernels are nearest to different calibrated kernels, or
// with a kernel that is not element-wise, keeps the node file's curve (the median over kernels).
TEST(Traffic, ABatchThatReadsAndWritesLikeOneCalibratedKernelSharesThatKernelsCurve) {
  const NodeBandwidth node = node_bandwidth(calibrated_node());
  ASSERT_EQ(node.kernel_curves.size(), 1U);
  EXPECT_EQ(node.kernel_curves[0].size(), 3U);
  const sched::BandwidthModel triad_and_copy = batch_bandwidth_model(node, batch_of({"triad", "copy"}));
  ASSERT_EQ(triad_and_copy.pools.size(), 1U);
  EXPECT_EQ(triad_and_copy.pools[0].name, "dram");
  EXPECT_EQ(triad_and_copy.pools[0].bytes_per_s, (std::vector<double>{22.0e9, 29.3e9}));
  EXPECT_EQ(triad_and_copy.provenance.at("pool_curve").at("dram"),
            "the triad curve: every STREAM task of the batch reads and writes nearest to it");
  EXPECT_EQ(triad_and_copy.provenance.at("emulated"), true);  // the node's provenance is kept
  const sched::BandwidthModel reads = batch_bandwidth_model(node, batch_of({"ddot"}));
  EXPECT_EQ(reads.pools[0].bytes_per_s, (std::vector<double>{17.3e9, 36.4e9}));
  for (const config::Workload& mixed_batch : {batch_of({"triad", "ddot", "write"}), batch_of({"triad", "gemm"})}) {
    const sched::BandwidthModel mixed = batch_bandwidth_model(node, mixed_batch);
    EXPECT_EQ(mixed.pools[0].bytes_per_s, (std::vector<double>{17.3e9, 34.4e9})) << mixed_batch.tasks.size();
    EXPECT_FALSE(mixed.provenance.contains("pool_curve"));
  }
  // A documented model without kernel curves keeps its pools.
  config::NodeModel documented = calibrated_node();
  documented.pools[0].kernels.clear();
  EXPECT_EQ(batch_bandwidth_model(node_bandwidth(documented), batch_of({"triad"})).pools[0].bytes_per_s,
            (std::vector<double>{17.3e9, 34.4e9}));
}

// Through the instance (what `cosched instance --node`, `cosched run` and the demo plan with): two 1-core triad
// tasks of 120 MiB, 5 passes of 0.1 s each alone, all fast (emulated: no re-streaming): (5 + 2) x 120 MiB in
// 0.5 s, 1.7616e9 bytes/s on average. With the triad curve one core gets 22e9: the task streams
// s = 1.7616 / 22 = 0.080073 of its time at 22e9. Two of them ask 44e9 of the 29.3e9 two cores get: r = 29.3 / 44,
// progress 1 / ((1 - s) + s / r) = 0.96138. (With the median curve: s = 1.7616 / 17.3, two ask 34.6e9 of 34.4e9,
// r = 0.99422, progress 0.99941: no slowdown to speak of, where two co-running triads measured 1.45 x.)
TEST(Traffic, TheBatchCurveEntersTheContentionRatesComputedByHand) {
  const auto platform = platform_with("emulated");
  const auto [workload, profiles] = flat_triad(platform, 5);
  const NodeBandwidth bandwidth = node_bandwidth(calibrated_node());
  const sched::Instance instance = build_instance(workload, profiles, platform, &bandwidth);
  const std::vector<int> one_core_all_fast{1, 4};
  const std::vector<sched::FlowDemand> flows{instance.demand(0, one_core_all_fast),
                                             instance.demand(1, one_core_all_fast)};
  const double average = 7.0 * 120.0 * kMiB / 0.5;
  EXPECT_NEAR(average, 1.7616e9, 1e5);
  const double share = average / 22.0e9;
  EXPECT_DOUBLE_EQ(flows[0].streaming_share, share);
  EXPECT_DOUBLE_EQ(flows[0].bytes_per_s[0], 22.0e9);
  const std::vector<double> rates = sched::progress_rates(instance.bandwidth(), flows);
  ASSERT_EQ(rates.size(), 2U);
  EXPECT_DOUBLE_EQ(rates[0], 1.0 / ((1.0 - share) + share / (29.3 / 44.0)));
  EXPECT_NEAR(rates[1], 0.96138, 1e-5);
}

// Tasks running the profiled command "solver", one per id.
config::Workload solver_batch(std::initializer_list<const char*> ids) {
  config::Workload workload;
  workload.name = "w";
  for (const char* id : ids) {
    config::WorkloadTask task;
    task.id = id;
    task.command = {"/bin/true"};
    task.profile = "solver";
    workload.tasks.push_back(task);
  }
  return workload;
}

// How much the instance's contention model slows its first two tasks side by side, 1 core each and no fast chunk.
double one_core_pair_slowdown(const sched::Instance& instance) {
  const std::vector<int> one_core{1, 0};
  const std::vector<sched::FlowDemand> pair{instance.demand(0, one_core), instance.demand(1, one_core)};
  return 1.0 / sched::progress_rates(instance.bandwidth(), pair)[0];
}

// An emulated node's one DRAM pool: 20 GB/s to one core, 30 GB/s to two.
NodeBandwidth one_dram_pool() {
  config::NodeModel node;
  node.provenance.tier_backend = "emulated";
  node.pools.push_back({"dram", {"fast", "slow"}, {{1, 2}, {20.0, 30.0}}, {}});
  return node_bandwidth(node);
}

// A command's traffic from its memory-demand probe (issue 24), by hand: one DRAM pool giving 20 GB/s to one core
// and 30 GB/s to two. The command takes 2 s alone on 1 core and 2.4 s as two copies side by side: the model slows
// two copies that stream a share s of their time at 20 GB/s by 1 + s / 3 (they ask 40 of the pool's 30), so
// s = 0.6, 12 GB/s on average: 24 GB a run, at every allocation, all in the slow tier's pool (the emulated tier
// does not place commands' memory, so its rows are at 0 chunks only).
TEST(ProbedTraffic, TheProbesSlowdownReadWithTheModelGivesTheBytesOfARun) {
  const auto platform = platform_with("emulated");
  const config::Workload workload = solver_batch({"a", "b"});
  ProfileRow alone{{"command:solver", 0, 1, 0}, 2.0, 2.0, 2.0, 3, 0.0};
  alone.paired_s = 2.4;
  alone.paired_min_s = 2.2;  // the probe's spread: slowdowns of 1.1 to 1.2, so s of 0.3 to 0.6, 6 to 12 GB/s
  alone.paired_max_s = 2.4;
  const ProfileRow two_cores{{"command:solver", 0, 2, 0}, 1.2, 1.2, 1.2, 3, 0.0};
  ProfileSet profiles;
  profiles.add({alone, two_cores}, platform.chunk_bytes());
  const NodeBandwidth bandwidth = one_dram_pool();
  const sched::Instance instance = build_instance(workload, profiles, platform, &bandwidth);
  ASSERT_NE(instance.tasks()[0].traffic, nullptr);
  EXPECT_EQ(instance.tasks()[0].traffic, instance.tasks()[1].traffic);  // one table per command
  const auto& dram = (*instance.tasks()[0].traffic)[0];
  for (const std::size_t index : {1 * 5 + 0, 2 * 5 + 0, 2 * 5 + 4}) EXPECT_NEAR(dram[index], 24e9, 24e9 * 1e-9);
  const nlohmann::json& found = instance.attributes().at("command_traffic").at("solver");
  EXPECT_NEAR(found.at("slowdown").get<double>(), 1.2, 1e-12);
  EXPECT_NEAR(found.at("average_gbs").get<double>(), 12.0, 1e-6);
  // The forward model gives the pair's slowdown back: two copies at 1 core each, from the instance.
  EXPECT_NEAR(one_core_pair_slowdown(instance), 1.2, 1e-6);
  const std::vector<std::string> lines = probed_traffic_lines(instance);
  ASSERT_EQ(lines.size(), 1U);
  EXPECT_NE(lines[0].find("solver: two copies side by side (1 core each) took 1.20 x as long"), std::string::npos)
      << lines[0];
  EXPECT_NE(lines[0].find("24.00 GB a run"), std::string::npos) << lines[0];
  // The spread is reported, not used: what fits it, 6 to 12 GB/s.
  EXPECT_NEAR(found.at("slowdown_min").get<double>(), 1.1, 1e-12);
  EXPECT_NEAR(found.at("fits_gbs").at(0).get<double>(), 6.0, 1e-6);
  EXPECT_NEAR(found.at("fits_gbs").at(1).get<double>(), 12.0, 1e-6);
  EXPECT_NE(lines[0].find("as long as one alone (1.10-1.20, fitting 6.0-12.0 GB/s): it moves"), std::string::npos)
      << lines[0];
}

// A STREAM task's probe (issue 23), by hand: one DRAM pool, 20 GB/s to one core and 30 to two. Triad over 120 MiB,
// 3 passes of 0.05 s (0.15 s a run) at every allocation; at 1 core and no chunk two copies took 1.2 x as long. As
// for a command: 12 GB/s on average, 1.8 GB a run. It counts 3 x 5 x 120 MiB (the emulated tier re-streams all of
// it) + 2 x 120 MiB of set-up = 2040 MiB there, so 1.8e9 / (2040 MiB) = 0.84147 of what it counts reaches memory,
// and every allocation whose memory is all slow moves that share of what it counts (2 cores: the same bytes);
// with fast chunks the counted bytes stand (all fast on 2 cores: 600 MiB).
TEST(ProbedTraffic, AStreamTasksProbeScalesTheBytesItCountsWhereItsMemoryIsAllSlow) {
  const auto platform = platform_with("emulated");
  const auto [workload, profiles] = flat_triad(platform, 3, 0.05, 0.06);
  const NodeBandwidth bandwidth = one_dram_pool();
  const sched::Instance instance = build_instance(workload, profiles, platform, &bandwidth);
  ASSERT_NE(instance.tasks()[0].traffic, nullptr);
  const double share = 1.8e9 / (2040.0 * kMiB);
  EXPECT_NEAR(share, 0.84147, 1e-5);
  const auto& dram = (*instance.tasks()[0].traffic)[0];
  EXPECT_NEAR(dram[1 * 5 + 0], 1.8e9, 1.8e9 * 1e-9);
  EXPECT_NEAR(dram[2 * 5 + 0], 1.8e9, 1.8e9 * 1e-9);
  EXPECT_DOUBLE_EQ(dram[2 * 5 + 4], 600.0 * kMiB);
  EXPECT_DOUBLE_EQ(dram[1 * 5 + 2], (3.0 * 360.0 + 240.0) * kMiB);
  const nlohmann::json& found =
      instance.attributes().at("stream_traffic").at("triad 120 MiB, 3 passes");
  EXPECT_NEAR(found.at("share_of_counted").get<double>(), share, 1e-9);
  EXPECT_NEAR(found.at("slowdown").get<double>(), 1.2, 1e-12);
  EXPECT_NEAR(one_core_pair_slowdown(instance), 1.2, 1e-6);  // the forward model gives the pair's slowdown back
  const std::vector<std::string> lines = probed_traffic_lines(instance);
  ASSERT_EQ(lines.size(), 1U);
  EXPECT_NE(lines[0].find("took 1.20 x as long as one alone: it moves 1.80 GB a run, 84 % of the 2.14 GB it counts"),
            std::string::npos)
      << lines[0];
  // Without the probe: what it counts.
  const auto unprobed = flat_triad(platform, 3, 0.05);
  const sched::Instance counted = build_instance(unprobed.workload, unprobed.profiles, platform, &bandwidth);
  EXPECT_DOUBLE_EQ((*counted.tasks()[0].traffic)[0][1 * 5 + 0], 2040.0 * kMiB);
  EXPECT_FALSE(counted.attributes().contains("stream_traffic"));
}

// Without a probe (a profile from before it, or a node of one core) a command has no traffic, and says why.
TEST(ProbedTraffic, ACommandWithoutAProbeHasNoTrafficAndTheInstanceSaysWhy) {
  const auto platform = platform_with("emulated");
  const config::Workload workload = solver_batch({"a"});
  ProfileSet profiles;
  profiles.add({{{"command:solver", 0, 1, 0}, 2.0, 2.0, 2.0, 3, 0.0}, {{"command:solver", 0, 2, 0}, 1.2, 1.2, 1.2, 3, 0.0}},
               platform.chunk_bytes());
  const NodeBandwidth bandwidth = one_dram_pool();
  const sched::Instance instance = build_instance(workload, profiles, platform, &bandwidth);
  EXPECT_EQ(instance.tasks()[0].traffic, nullptr);
  const std::vector<std::string> lines = probed_traffic_lines(instance);
  ASSERT_EQ(lines.size(), 1U);
  EXPECT_NE(lines[0].find("not probed"), std::string::npos) << lines[0];
}

}  // namespace
}  // namespace cosched::profiler
