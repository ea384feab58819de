#include "stream/stream_measurer.hpp"

#include <fmt/format.h>

#include "cosched/common/error.hpp"
#include "cosched/platform/tier_backends.hpp"
#include "cosched/platform/topology.hpp"
#include "cosched/stream/kernels.hpp"
#include "cosched/stream/stream_run.hpp"

namespace cosched::profiler {
namespace {

platform::TierOptions tier_options(const PlatformConfig& platform) {
  platform::TierOptions options;
  options.backend = platform.tier_backend;
  options.emulation_ratio = platform.emulation_ratio;
  options.emulated_fast_bytes = platform.fast_capacity_bytes;
  options.budget_chunks = platform.fast_chunks;
  return options;
}

nlohmann::json topology_summary() {
  const auto topology = platform::Topology::this_system();
  return {{"source", topology.source()},
          {"cores", topology.cores().size()},
          {"pus", topology.pu_count()},
          {"numa_nodes", topology.numa_nodes().size()},
          {"fast_tier_bytes", topology.fast_tier_bytes()},
          {"memory_mode", std::string(platform::to_string(topology.memory_mode()))}};
}

class StreamMeasurer final : public PointMeasurer {
 public:
  explicit StreamMeasurer(const MeasurerOptions& options)
      : options_(options), backend_(platform::make_tier_backend(tier_options(options.platform))) {}

  std::string_view name() const override { return "stream"; }

  void check_kernel(const std::string& kernel) const override { (void)stream::find_kernel(kernel); }

  Measurement measure(const ProfilePoint& point) override {
    const auto& spec = stream::find_kernel(point.kernel);
    // The footprint is the whole task: split evenly over the arrays the kernel touches (as in the paper: write
    // has one array, ddot two, triad three), rounded down to whole doubles.
    const std::size_t arrays = spec.touched().size();
    stream::StreamConfig config;
    config.kernel = point.kernel;
    config.threads = point.cores;
    config.array_bytes = point.footprint_bytes / arrays / sizeof(double) * sizeof(double);
    config.reps = options_.reps;
    config.warmup_reps = options_.warmup;
    config.fast_fraction = fast_fraction(point.footprint_bytes, point.chunks, options_.platform.chunk_bytes());
    const stream::StreamResult result = stream::run_stream(config, *backend_);
    if (!result.validated) {
      throw RuntimeFailure(fmt::format("{} footprint_bytes={} cores={} chunks={}: results did not validate: {}",
                                       point.kernel, point.footprint_bytes, point.cores, point.chunks,
                                       result.validation_message));
    }
    Measurement measurement;
    measurement.times_s = result.rep_times_s;
    double timed = 0.0;
    for (double t : result.rep_times_s) timed += t;
    // Warm-up passes are not timed by run_stream; they cost about one median pass each.
    measurement.overhead_free_s = timed + options_.warmup * result.median_time_s;
    return measurement;
  }

  nlohmann::json describe() const override {
    const auto cost = backend_->cost_model();
    nlohmann::json context = {{"measurer", "stream"},
                              {"tier_backend", std::string(backend_->name())},
                              {"emulated", cost.emulated},
                              {"topology", topology_summary()}};
    if (cost.emulated) context["emulation_ratio"] = options_.platform.emulation_ratio;
    return context;
  }

 private:
  MeasurerOptions options_;
  std::unique_ptr<platform::TierBackend> backend_;
};

}  // namespace

std::unique_ptr<PointMeasurer> make_stream_measurer(const MeasurerOptions& options) {
  return std::make_unique<StreamMeasurer>(options);
}

}  // namespace cosched::profiler
