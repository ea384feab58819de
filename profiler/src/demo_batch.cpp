#include <fmt/chrono.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>

#include "cosched/common/error.hpp"
#include "cosched/platform/binding.hpp"
#include "cosched/platform/tier_backends.hpp"
#include "cosched/stream/kernels.hpp"
#include "cosched/stream/stream_run.hpp"
#include "cosched/exec/workload_file.hpp"
#include "cosched/profiler/launched_profile.hpp"
#include "demo_mixed_toml.hpp"
#include "cosched/profiler/calibration.hpp"
#include "cosched/profiler/demo_batch.hpp"
#include "cosched/profiler/instance_builder.hpp"
#include "cosched/common/utc_time.hpp"

namespace cosched::profiler::demo {

namespace {

constexpr std::uint64_t mib = std::uint64_t{1} << 20;
// On a node without a fast tier the demo emulates one: 480 MiB in 20 chunks of 24 MiB, so that the batch's two
// footprints (96 and 288 MiB) need 4 and 12 chunks and two large tasks cannot both be fully fast — the regime
// where scheduling fast memory matters (Fig. 2 and 3 of the paper). Both footprints are well beyond this VM's
// 32 MiB L3, so the tasks are memory-bound as on KNL, not cache-bound.
constexpr std::uint64_t emulated_fast_capacity = 480 * mib;
constexpr unsigned chunk_count = 20;
constexpr double emulation_ratio = 5.0;

std::filesystem::path default_output() {
  return std::filesystem::current_path() / ("cosched-demo-" + compact_utc(std::chrono::system_clock::now()));
}

// Passes that make one task's kernel time about `target_s` on one core with all of it fast (at least one: a pass
// of a compute-bound kernel may take longer).
unsigned calibrate_passes(const std::string& kernel, std::uint64_t footprint, double target_s,
                          platform::TierBackend& backend) {
  stream::StreamConfig config;
  config.kernel = kernel;
  config.threads = 1;
  config.array_bytes = footprint / stream::find_kernel(kernel).array_count() / sizeof(double) * sizeof(double);
  config.reps = 3;
  config.warmup_reps = 1;
  config.fast_fraction = 1.0;
  const stream::StreamResult result = stream::run_stream(config, backend);
  return static_cast<unsigned>(std::clamp(std::lround(target_s / result.median_time_s), 1L, 100000L));
}

// Adds `count` tasks of (kernel, footprint) to the setup's batch, with passes calibrated for the target time.
void add_group(DemoSetup& setup, const std::string& kernel, std::uint64_t footprint, unsigned count) {
  const auto backend = platform::make_tier_backend(setup.tier_options);
  const unsigned passes = calibrate_passes(kernel, footprint, setup.target_fast_s, *backend);
  setup.passes[{kernel, footprint}] = passes;
  setup.batch.push_back({kernel, footprint, count, passes});
  config::add_stream_tasks(setup.workload, setup.batch.back(), "demo batch");
}

}  // namespace

void check_demo_output(const DemoOptions& options) {
  if (options.output.empty()) return;  // a new folder named after the time
  std::error_code error;
  const auto status = std::filesystem::status(options.output, error);
  if (!std::filesystem::exists(status)) return;
  if (!std::filesystem::is_directory(status)) {
    throw UsageError(fmt::format("--output {} is not a folder: the demo writes a folder of results",
                                 options.output.string()));
  }
  if (!options.force && !std::filesystem::is_empty(options.output, error)) {
    throw UsageError(fmt::format("--output {} already holds files: pass --force to replace them, or name another "
                                 "folder",
                                 options.output.string()));
  }
}

DemoSetup make_setup(const DemoOptions& options) {
  DemoSetup setup;
  setup.options = options;
  setup.output = options.output.empty() ? default_output() : options.output;
  std::error_code error;
  std::filesystem::create_directories(setup.output / "runs", error);
  if (error) {
    throw UsageError(fmt::format("cannot create the demo's folder {}: {}", (setup.output / "runs").string(),
                                 error.message()));
  }
  setup.stream_bench = options.stream_bench.empty() ? exec::default_stream_bench_path() : options.stream_bench;

  const std::string backend = platform::auto_tier_backend_name();
  platform::TierOptions tier_options;
  tier_options.backend = backend;
  tier_options.emulation_ratio = emulation_ratio;
  const bool emulated = platform::tier_backend_info(backend).capabilities.emulated;
  // --quick halves the emulated tier (48 and 144 MiB tasks, still beyond the L3): every task's allocation and first
  // touch shrink with it.
  const std::uint64_t capacity = emulated ? emulated_fast_capacity / (options.quick ? 2 : 1)
                                          : platform::fast_tier_capacity_bytes(tier_options);
  tier_options.emulated_fast_bytes = capacity;
  tier_options.budget_chunks = chunk_count;

  setup.platform = config::this_machine_platform(backend, emulation_ratio, chunk_count, emulated ? capacity : 0);
  setup.platform.name = emulated ? "this node, EMULATED fast tier" : "this node";
  setup.platform.source = "cosched demo";
  setup.tier = exec::make_tier_setup(setup.platform);

  // Two footprints, 20 % and 60 % of the fast tier (whole MiB): small tasks fit beside others, large ones compete.
  setup.footprints = {capacity / 5 / mib * mib, capacity * 3 / 5 / mib * mib};
  setup.target_fast_s = options.quick ? 0.03 : 0.15;
  setup.profile_reps = options.quick ? 1 : 2;
  setup.noise_launches = 3;
  setup.fig3b_algorithms = options.quick ? std::vector<std::string>{"t-list-lpt"}
                                         : std::vector<std::string>{"t-list-spt", "t-list-lpt", "t-pack-nf",
                                                                    "t-pack-ff"};
  const unsigned count = (options.quick ? 2 : 4) * std::max(1U, options.batch_scale);

  setup.tier_options = tier_options;
  setup.workload.name = "demo";
  for (const auto& kernel : demo_kernels) {
    for (const std::uint64_t footprint : setup.footprints) add_group(setup, kernel, footprint, count);
  }
  return setup;
}

std::vector<config::StreamTaskGroup> demo_mixed_groups(const config::PlatformConfig& platform, bool quick) {
  config::WorkloadReadOptions options;
  options.platform = platform;
  options.known_kernels = exec::stream_kernel_names();
  const config::Workload workload =
      config::parse_workload_toml(demo_mixed_toml, std::string(demo_mixed_toml_source), options);
  // The file's entries come back as tasks, each entry's consecutively: fold them into groups again.
  std::vector<config::StreamTaskGroup> groups;
  for (const config::WorkloadTask& task : workload.tasks) {
    if (!task.is_stream()) {
      throw InputError(std::string(demo_mixed_toml_source), fmt::format("task {} is a command: the demo's mixed batch "
                                                                        "holds kernels only", task.id));
    }
    if (groups.empty() || groups.back().kernel != task.kernel || groups.back().footprint_bytes != task.footprint_bytes) {
      groups.push_back({task.kernel, task.footprint_bytes, 0, task.passes});
    }
    ++groups.back().count;
  }
  if (quick) {
    for (config::StreamTaskGroup& group : groups) group.count = std::max(1U, group.count / 2);
  }
  return groups;
}

DemoSetup make_mixed_setup(const DemoSetup& setup) {
  DemoSetup mixed = setup;
  mixed.output = setup.output / "mixed";
  std::error_code error;
  std::filesystem::create_directories(mixed.output / "runs", error);
  if (error) {
    throw UsageError(fmt::format("cannot create the demo's folder {}: {}", (mixed.output / "runs").string(),
                                 error.message()));
  }
  mixed.batch.clear();
  mixed.passes.clear();
  mixed.workload = {};
  mixed.workload.name = "demo-mixed";
  mixed.footprints.clear();
  for (const config::StreamTaskGroup& group : demo_mixed_groups(setup.platform, setup.options.quick)) {
    add_group(mixed, group.kernel, group.footprint_bytes, group.count);
    mixed.footprints.push_back(group.footprint_bytes);
  }
  return mixed;
}

std::filesystem::path profile_tasks(const DemoSetup& setup, const exec::TierSetup& tier, const std::string& name,
                                    bool chunk_points, Reporter& reporter) {
  profiler::LaunchedProfileOptions profile;
  profile.platform = setup.platform;
  profile.platform.tier_backend = tier.backend;
  profile.tier = tier;
  profile.stream_bench = setup.stream_bench;
  profile.reps = setup.profile_reps;
  profile.vary_chunks = chunk_points;
  profile.reporter = &reporter;
  const auto csv = setup.output / ("profile-" + name + ".csv");
  profiler::throw_if_interrupted(profiler::profile_stream_groups(setup.batch, profile, csv), csv);
  return csv;
}

void calibrate_bandwidth(DemoSetup& setup) {
  const auto begin = std::chrono::steady_clock::now();
  profiler::CalibrationOptions options;
  options.quick = setup.options.quick;
  options.tier_backend = setup.platform.tier_backend;
  SilentReporter quiet;  // the demo says it calibrates, and how long it took, itself
  setup.node = profiler::calibrate_node(options, quiet);
  setup.bandwidth = profiler::node_bandwidth(setup.node);
  write_text_file(setup.output / "node.toml", config::to_toml(setup.node), setup.overwrite(), "node file");
  setup.calibration_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
}

sched::Instance make_instance(const DemoSetup& setup, const std::filesystem::path& profile_csv,
                              const exec::TierSetup& tier, bool cores_only) {
  config::PlatformConfig platform = setup.platform;
  platform.tier_backend = tier.backend;  // the traffic of the tier the profile was measured with
  sched::Instance instance =
      profiler::build_instance(setup.workload, profiler::load_profile_set({profile_csv}), platform, &setup.bandwidth);
  if (!cores_only) return instance;
  // The chunks = 0 column: every task with all its memory where the configuration puts it, cores scheduled only.
  return sched::leading_resources(instance, 1);
}

}  // namespace cosched::profiler::demo
