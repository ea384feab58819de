// Measuring the node bandwidth model (calibration.hpp; the method and its reasons: docs/calibration.md).
#include "cosched/profiler/calibration.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <exception>
#include <thread>
#include <chrono>
#include <cmath>
#include <memory>
#include <cstdlib>
#include <set>

#include "cosched/common/constants.hpp"
#include "cosched/common/error.hpp"
#include "cosched/common/stats.hpp"
#include "cosched/common/version.hpp"
#include "cosched/config/platform.hpp"
#include "cosched/platform/binding.hpp"
#include "cosched/platform/tier_backends.hpp"
#include "cosched/stream/kernels.hpp"
#include "cosched/stream/stream_run.hpp"
#include "cosched/common/host.hpp"
#include "cosched/common/utc_time.hpp"

namespace cosched::profiler {
namespace {

using Clock = std::chrono::steady_clock;

// A pool as it is measured: which tiers stream from it, the share of every array placed in the fast tier (unset:
// nothing is asked of a fast tier) and the backend that allocates the arrays.
struct PoolPlan {
  std::string name;
  std::vector<std::string> tiers;
  std::optional<double> fast_fraction;
  std::string backend;
};

struct NodePlan {
  std::string tier_backend;  // the backend the model describes (resolved from "auto")
  bool emulated = false;
  std::vector<PoolPlan> pools;
  std::vector<unsigned> cores;
  std::size_t array_bytes = 0;
};

// A real fast tier (numa, memkind) and the slow tier are two pools, measured with every array all fast or all
// slow. The emulated tier is the same DRAM as the slow one, and a node without a fast tier has only the slow one:
// one pool "dram", measured as plain memory (backend "none": the emulation's re-streaming is not bandwidth).
std::vector<PoolPlan> plan_pools(const std::string& backend, const platform::TierCapabilities& capabilities) {
  if (capabilities.has_fast_tier && !capabilities.emulated) {
    return {{"fast-tier", {"fast"}, 1.0, backend}, {"slow-tier", {"slow"}, 0.0, backend}};
  }
  std::vector<std::string> tiers{std::string(config::kSlowTier)};
  if (capabilities.emulated) tiers.insert(tiers.begin(), std::string(config::kFastTier));
  return {{"dram", std::move(tiers), std::nullopt, "none"}};
}

std::vector<unsigned> plan_cores(const std::vector<unsigned>& asked) {
  const auto allowed = static_cast<unsigned>(std::min<std::size_t>(platform::allowed_cores().size(), config::kMaxCores));
  std::vector<unsigned> cores = asked;
  if (cores.empty()) {
    for (unsigned k = 1; k <= allowed; ++k) cores.push_back(k);
  }
  std::sort(cores.begin(), cores.end());
  cores.erase(std::unique(cores.begin(), cores.end()), cores.end());
  if (cores.empty()) throw ResourceError("this process may use no core (its cpuset)");
  if (cores.front() == 0) throw UsageError("--cores: a core count is at least 1");
  if (cores.back() > allowed) {
    throw ResourceError(fmt::format("--cores: {} cores asked, but this process may use only {} (its cpuset)",
                                    cores.back(), allowed));
  }
  return cores;
}

stream::StreamConfig run_config(const std::string& kernel, unsigned cores, const NodePlan& node,
                                const PoolPlan& pool, unsigned reps) {
  stream::StreamConfig config;
  config.kernel = kernel;
  config.threads = cores;  // cores left empty: the first `cores` allowed cores, i.e. pinned compactly
  config.array_bytes = node.array_bytes;
  config.reps = reps;
  config.warmup_reps = kCalibrationWarmupReps;
  config.fast_fraction = pool.fast_fraction;
  return config;
}

NodePlan plan_node(const CalibrationOptions& options) {
  if (options.kernels.empty()) throw UsageError("--kernels: name at least one kernel");
  std::set<std::string> seen;
  for (const std::string& kernel : options.kernels) {
    (void)stream::find_kernel(kernel);  // UsageError listing the kernels
    if (!seen.insert(kernel).second) throw UsageError(fmt::format("--kernels: kernel '{}' is given twice", kernel));
  }
  if (!(options.array_mib > 0) || !std::isfinite(options.array_mib)) {
    throw UsageError(fmt::format("--size-mib: {} is not a positive size", options.array_mib));
  }
  if (options.timed_reps() < 1 || options.timed_reps() > kMaxCalibrationReps) {
    throw UsageError(fmt::format("--reps: {} is outside 1..{}", options.timed_reps(), kMaxCalibrationReps));
  }
  if (options.round_count() < 1 || options.round_count() > kMaxCalibrationRounds) {
    throw UsageError(fmt::format("--rounds: {} is outside 1..{}", options.round_count(), kMaxCalibrationRounds));
  }
  platform::TierOptions tier;
  tier.backend = options.tier_backend;
  NodePlan node;
  node.tier_backend = platform::resolve_tier_backend_name(tier);
  const auto capabilities = platform::tier_backend_info(node.tier_backend).capabilities;
  node.emulated = capabilities.emulated;
  // A real tier that is not there (numa without fast nodes, memkind without HBW nodes) is refused now, not after
  // the first pool was measured; so is one too small for a kernel's arrays all fast.
  const std::size_t fast_capacity = capabilities.has_fast_tier ? platform::fast_tier_capacity_bytes(tier) : 0;
  node.pools = plan_pools(node.tier_backend, capabilities);
  node.cores = plan_cores(options.cores);
  node.array_bytes = static_cast<std::size_t>(std::llround(options.array_mib * kBytesPerMiB)) / sizeof(double) *
                     sizeof(double);
  if (node.array_bytes == 0) {
    throw UsageError(fmt::format("--size-mib: {} MiB holds no double", options.array_mib));
  }
  const std::size_t available = stream::available_memory_bytes();
  for (const std::string& kernel : options.kernels) {
    const auto needed = static_cast<double>(
        stream::required_bytes(run_config(kernel, node.cores.back(), node, node.pools.front(), 1)));
    const bool fast_pool = node.pools.front().fast_fraction.value_or(0.0) > 0.0;
    const auto limit = static_cast<double>(fast_pool ? std::min(available, fast_capacity) : available);
    if (needed > limit) {
      throw ResourceError(fmt::format("--size-mib {}: kernel {} needs {:.0f} MiB, only {:.0f} MiB of {} {} "
                                      "available", options.array_mib, kernel, needed / kBytesPerMiB,
                                      limit / kBytesPerMiB,
                                      fast_pool ? "the fast tier" : "memory", fast_pool ? "are" : "is"));
    }
  }
  return node;
}

// One point of one round: k cores streaming from the pool, as k co-running tasks do — k independent single-core
// runs started together, each over freshly allocated arrays of 1/k of the size (the same total footprint), each
// pinned to its own core; the point is the sum of their GB/s (each the median of its timed reps). Not one k-thread
// team: its barrier after every rep makes each core wait for the slowest, which co-running tasks never do, and on
// this VM a team measured 2 cores at 2x one core while two co-running processes were slowed by 10-30 %.
double measure_point(const stream::StreamConfig& config, platform::TierBackend& backend, std::string& stores) {
  const unsigned streams = config.threads;
  std::vector<stream::StreamResult> results(streams);
  std::vector<std::exception_ptr> errors(streams);
  const auto run_one = [&](unsigned k) {
    try {
      stream::StreamConfig one = config;
      one.threads = 1;
      one.cores = {k};
      one.array_bytes = std::max<std::size_t>(sizeof(double), config.array_bytes / streams);
      results[k] = stream::run_stream(one, backend);
    } catch (...) {
      errors[k] = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  for (unsigned k = 1; k < streams; ++k) threads.emplace_back(run_one, k);
  run_one(0);
  for (auto& thread : threads) thread.join();
  double total = 0.0;
  for (unsigned k = 0; k < streams; ++k) {
    if (errors[k]) std::rethrow_exception(errors[k]);
    if (!results[k].validated) {
      throw RuntimeFailure(fmt::format("calibration: {} on core {} of {} computed wrong values: {}", config.kernel, k,
                                       streams, results[k].validation_message));
    }
    total += results[k].median_gbs;
  }
  stores = results.front().stores;
  return total;
}

// To the MB/s: a node file for people to read, far below the spread of any measurement.
double rounded_gbs(double gbs) { return std::max(1e-3, std::round(gbs * 1e3) / 1e3); }

std::string describe_method(const CalibrationOptions& options, const NodePlan& node,
                            const std::map<std::string, std::string>& stores, double load_average) {
  std::vector<std::string> arrays;
  std::vector<std::string> store_modes;
  for (const std::string& kernel : options.kernels) {
    arrays.push_back(fmt::format("{} {}", kernel, stream::find_kernel(kernel).array_count()));
    store_modes.push_back(fmt::format("{} {}", kernel, stores.count(kernel) != 0 ? stores.at(kernel) : "?"));
  }
  return fmt::format("cosched calibrate: in-process STREAM kernels; k cores = k independent single-core runs at once "
                     "(as k co-running tasks stream), each pinned to one of the first k allowed cores, over its 1/k "
                     "of arrays of {:g} MiB each ({}); per (pool, cores, kernel) the median over {} rounds, "
                     "each a fresh allocation with {} warm-up and {} timed reps (its median rep), the order of the "
                     "points alternating forward/backward between rounds, after one priming run; stores: {}; pool "
                     "curve: per core count the median over kernels; load average {:.2f} at the start{}",
                     static_cast<double>(node.array_bytes) / kBytesPerMiB, fmt::join(arrays, ", "),
                     options.round_count(),
                     kCalibrationWarmupReps, options.timed_reps(), fmt::join(store_modes, ", "), load_average,
                     node.emulated ? "; emulated fast tier: one pool, measured as plain memory (backend none)" : "");
}

config::MemoryPool pool_model(const PoolPlan& pool, const NodePlan& node, const CalibrationOptions& options,
                              const std::vector<CalibrationSample>& samples) {
  config::MemoryPool model;
  model.name = pool.name;
  model.tiers = pool.tiers;
  model.bandwidth.cores = node.cores;
  for (const std::string& kernel : options.kernels) model.kernels[kernel].cores = node.cores;
  for (const unsigned cores : node.cores) {
    std::vector<double> kernel_medians;
    for (const CalibrationSample& sample : samples) {
      if (sample.pool != pool.name || sample.cores != cores) continue;
      kernel_medians.push_back(median(sample.gbs_per_round));
      model.kernels[sample.kernel].gbs.push_back(rounded_gbs(kernel_medians.back()));
    }
    model.bandwidth.gbs.push_back(rounded_gbs(median(kernel_medians)));
  }
  return model;
}

}  // namespace

void check_calibration_options(const CalibrationOptions& options) { (void)plan_node(options); }

Calibration calibrate(const CalibrationOptions& options, Reporter& reporter) {
  const auto started = Clock::now();
  const auto date = std::chrono::system_clock::now();
  const NodePlan node = plan_node(options);
  std::map<std::string, std::unique_ptr<platform::TierBackend>> backends;
  for (const PoolPlan& pool : node.pools) {
    if (backends.count(pool.backend) != 0) continue;
    platform::TierOptions tier;
    tier.backend = pool.backend;
    backends[pool.backend] = platform::make_tier_backend(tier);
  }
  Calibration calibration;
  calibration.load_average = load_average().value_or(-1.0);
  calibration.allowed_cores = static_cast<unsigned>(platform::allowed_cores().size());
  for (const PoolPlan& pool : node.pools) {
    for (const unsigned cores : node.cores) {
      for (const std::string& kernel : options.kernels) calibration.samples.push_back({pool.name, cores, kernel, {}});
    }
  }
  reporter.note(fmt::format("calibrate: {} pool(s) x {} core counts x {} kernels, {} rounds of {} warm-up + {} timed "
                            "reps, arrays of {:g} MiB, tier backend {}{}",
                            node.pools.size(), node.cores.size(), options.kernels.size(), options.round_count(),
                            kCalibrationWarmupReps, options.timed_reps(),
                            static_cast<double>(node.array_bytes) / kBytesPerMiB, node.tier_backend,
                            node.emulated ? " (EMULATED fast tier: one pool)" : ""));
  if (calibration.machine_was_busy()) {
    reporter.warning(fmt::format("calibrate: warning: the machine is busy (load average {:.2f} on {} cores): other "
                                 "work shares the cores and the memory system, so the curves measure what it leaves; "
                                 "calibrate on a quiet machine",
                                 calibration.load_average, calibration.allowed_cores));
  }
  // A fresh process streams at about half speed for its first 100-200 ms: one untimed run takes it past that.
  std::string stores;
  const PoolPlan& first = node.pools.front();
  (void)measure_point(run_config(options.kernels.front(), node.cores.back(), node, first, 1),
                      *backends.at(first.backend), stores);
  std::map<std::string, std::string> stores_of;
  for (unsigned round = 0; round < options.round_count(); ++round) {
    // Odd rounds walk the points backwards, so a slow phase of the machine does not always hit the same points.
    for (std::size_t i = 0; i < calibration.samples.size(); ++i) {
      CalibrationSample& sample = calibration.samples[round % 2 == 0 ? i : calibration.samples.size() - 1 - i];
      const PoolPlan& pool = *std::find_if(node.pools.begin(), node.pools.end(),
                                           [&](const PoolPlan& p) { return p.name == sample.pool; });
      const auto config = run_config(sample.kernel, sample.cores, node, pool, options.timed_reps());
      sample.gbs_per_round.push_back(measure_point(config, *backends.at(pool.backend), stores));
      stores_of[sample.kernel] = stores;
    }
    Progress progress;
    progress.operation = "calibrate";
    progress.style = ProgressStyle::log;
    progress.done = round + 1;
    progress.total = options.round_count();
    progress.elapsed_s = std::chrono::duration<double>(Clock::now() - started).count();
    progress.event = fmt::format("calibrate: round {}/{} done, {:.1f} s", round + 1, options.round_count(),
                                 progress.elapsed_s);
    reporter.progress(progress);
  }

  config::NodeModel& model = calibration.model;
  model.provenance.host = host_name();
  model.provenance.date = iso8601_utc(date);
  model.provenance.method = describe_method(options, node, stores_of, calibration.load_average);
  model.provenance.cosched_version = std::string(kVersion);
  model.provenance.source = "calibrated";
  model.provenance.tier_backend = node.tier_backend;
  model.provenance.emulated = node.emulated;
  for (const PoolPlan& pool : node.pools) model.pools.push_back(pool_model(pool, node, options, calibration.samples));
  config::check_node_model(model);
  calibration.wall_s = std::chrono::duration<double>(Clock::now() - started).count();
  return calibration;
}

config::NodeModel calibrate_node(const CalibrationOptions& options, Reporter& reporter) {
  return calibrate(options, reporter).model;
}

std::string calibration_table(const Calibration& calibration) {
  const config::NodeModel& model = calibration.model;
  std::string text;
  if (model.provenance.emulated) {
    text += fmt::format("EMULATED fast tier (backend {}): the fast and the slow tier are one pool of plain DRAM\n",
                        model.provenance.tier_backend);
  }
  for (const config::MemoryPool& pool : model.pools) {
    text += fmt::format("{:<10} {:<10} {:>5}", "pool", "tiers", "cores");
    for (const auto& [kernel, curve] : pool.kernels) text += fmt::format("  {:>22}", kernel + " GB/s (range)");
    text += fmt::format("  {:>10}\n", "model GB/s");
    for (std::size_t i = 0; i < pool.bandwidth.cores.size(); ++i) {
      const unsigned cores = pool.bandwidth.cores[i];
      text += fmt::format("{:<10} {:<10} {:>5}", pool.name, fmt::format("{}", fmt::join(pool.tiers, ",")), cores);
      for (const auto& entry : pool.kernels) {
        // Named, not structured bindings: the fuzzers' clang cannot capture a binding in the lambda below.
        const std::string& kernel = entry.first;
        const auto& curve = entry.second;
        const auto sample = std::find_if(calibration.samples.begin(), calibration.samples.end(), [&](const auto& s) {
          return s.pool == pool.name && s.cores == cores && s.kernel == kernel;
        });
        std::string range;
        if (sample != calibration.samples.end() && !sample->gbs_per_round.empty()) {
          const SampleSummary summary = summarize(sample->gbs_per_round);
          range = fmt::format(" ({:.1f}-{:.1f})", summary.min, summary.max);
        }
        text += fmt::format("  {:>22}", fmt::format("{:.2f}{}", curve.gbs[i], range));
      }
      text += fmt::format("  {:>10.2f}{}\n", pool.bandwidth.gbs[i], model.provenance.emulated ? "  EMULATED" : "");
    }
  }
  return text;
}

}  // namespace cosched::profiler
