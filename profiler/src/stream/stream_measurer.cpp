#include "stream/stream_measurer.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <tuple>
#include <vector>

#include "cosched/common/error.hpp"
#include "cosched/platform/tier_backends.hpp"
#include "cosched/platform/topology.hpp"
#include "cosched/stream/kernels.hpp"
#include "cosched/stream/stream_run.hpp"
#include "cosched/stream/stream_session.hpp"

namespace cosched::profiler {
namespace {

platform::TierOptions tier_options(const config::PlatformConfig& platform) {
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

  // Points of one (kernel, footprint) share a session: the sweep runs their core counts and, innermost, their
  // chunk counts one after the other, so the arrays are allocated and first-touched once where the machine allows
  // (one memory locality: stream::StreamSession::measure), and only their split and the team change.
  Measurement measure(const ProfilePoint& point) override {
    const double fraction = fast_fraction(point.footprint_bytes, point.chunks, options_.platform.chunk_bytes());
    const SessionKey key{point.kernel, point.footprint_bytes};
    if (!session_ || key != session_key_) {
      close_session();  // frees the old arrays (and their fast bytes) before the new ones are allocated
      session_ = std::make_unique<stream::StreamSession>(session_config(point, fraction), *backend_);
      session_key_ = key;
    }
    const std::size_t allocations_before = session_->allocations();
    const std::size_t resplits_before = session_->resplits();
    const std::size_t measured_before = session_->measurements();
    const stream::StreamResult result =
        session_->measure({fraction, options_.reps, options_.warmup, first_cores(point.cores)});
    if (!result.validated) fail(point, result.validation_message);

    Measurement measurement;
    measurement.times_s = result.rep_times_s;
    double timed = 0.0;
    for (double t : result.rep_times_s) timed += t;
    measurement.overhead_free_s = timed + result.warmup_time_s;
    // The session's first measurement runs on the arrays its constructor allocated.
    measurement.allocated = measured_before == 0 || session_->allocations() != allocations_before;
    measurement.resplit = session_->resplits() != resplits_before;
    last_point_ = point;
    return measurement;
  }

  void finish() override { close_session(); }

  nlohmann::json describe() const override {
    const auto cost = backend_->cost_model();
    nlohmann::json context = {{"measurer", "stream"},
                              {"tier_backend", std::string(backend_->name())},
                              {"emulated", cost.emulated},
                              {"topology", topology_summary()}};
    if (cost.emulated) context["emulation_ratio"] = options_.platform.emulation_ratio;
    if (closed_sessions_ > 0 || session_) context["sessions"] = session_totals();
    return context;
  }

 private:
  using SessionKey = std::tuple<std::string, std::uint64_t>;  // kernel, footprint_bytes

  // What the sessions did, for the sidecar: how the arrays were obtained and where the time outside the kernels'
  // reps went (docs/profiler.md, "Overhead accounting").
  [[nodiscard]] nlohmann::json session_totals() const {
    stream::SessionCounts totals = closed_;
    if (session_) totals += session_->counts();
    return {{"sessions", closed_sessions_ + (session_ ? 1 : 0)},
            {"allocations", totals.allocations},
            {"reinitialisations", totals.reinitialisations},
            {"prefaulted", totals.prefaulted},
            {"resplits", totals.resplits},
            {"preparation_s", totals.preparation_s},
            {"validation_s", totals.validation_s}};
  }

  // Checks the open session's arrays in full (unless its last measurement was) and frees them.
  void close_session() {
    if (!session_) return;
    const stream::SessionCheck check = session_->finish();
    closed_ += session_->counts();
    ++closed_sessions_;
    session_.reset();
    if (!check.validated) fail(last_point_, check.validation_message);
  }

  // The first `cores` allowed cores: the team of a point.
  static std::vector<unsigned> first_cores(unsigned cores) {
    std::vector<unsigned> team(cores);
    for (unsigned k = 0; k < cores; ++k) team[k] = k;
    return team;
  }

  stream::StreamConfig session_config(const ProfilePoint& point, double fraction) const {
    // The footprint is the whole task: split evenly over the arrays the kernel touches (as in the paper: write
    // has one array, ddot two, triad three), rounded down to whole doubles.
    const std::size_t arrays = stream::find_kernel(point.kernel).array_count();
    stream::StreamConfig config;
    config.kernel = point.kernel;
    config.threads = point.cores;
    config.array_bytes = point.footprint_bytes / arrays / sizeof(double) * sizeof(double);
    config.reps = options_.reps;
    config.warmup_reps = options_.warmup;
    config.fast_fraction = fraction;
    return config;
  }

  [[noreturn]] static void fail(const ProfilePoint& point, const std::string& message) {
    throw RuntimeFailure(fmt::format("{} footprint_bytes={} cores={} chunks={}: results did not validate: {}",
                                     point.kernel, point.footprint_bytes, point.cores, point.chunks, message));
  }

  MeasurerOptions options_;
  std::unique_ptr<platform::TierBackend> backend_;
  std::unique_ptr<stream::StreamSession> session_;  // declared after backend_: destroyed before it
  SessionKey session_key_;
  stream::SessionCounts closed_;  // of the sessions already closed
  std::size_t closed_sessions_ = 0;
  ProfilePoint last_point_;
};

}  // namespace

std::unique_ptr<PointMeasurer> make_stream_measurer(const MeasurerOptions& options) {
  return std::make_unique<StreamMeasurer>(options);
}

}  // namespace cosched::profiler
