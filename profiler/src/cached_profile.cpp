// A batch profiled through the profile cache (cached_profile.hpp).
#include "cosched/profiler/cached_profile.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <map>

#include "cosched/common/error.hpp"
#include "cosched/common/host.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/common/utc_time.hpp"
#include "cosched/common/version.hpp"
#include "cosched/exec/task_command.hpp"
#include "cosched/profiler/profile_context.hpp"
#include "cosched/profiler/profile_csv.hpp"

namespace cosched::profiler {

CachedProfileOptions CachedProfileOptions::for_run(const config::PlatformConfig& platform, const exec::TierSetup& tier,
                                                   unsigned reps, Reporter& reporter) {
  CachedProfileOptions options;
  options.launched.platform = platform;
  options.launched.tier = tier;
  options.launched.stream_bench = exec::default_stream_bench_path();
  options.launched.reps = reps;
  options.launched.reporter = &reporter;
  options.calibration.quick = true;
  options.calibration.tier_backend = tier.backend;
  options.reporter = &reporter;
  return options;
}

namespace {

void say(const CachedProfileOptions& options, const std::string& text) {
  if (options.reporter != nullptr) options.reporter->note(text);
}

// The node model of the run: --node as given; else the cache's, calibrated when it is missing or stale.
config::NodeModel node_model(const ProfileCache& cache, const CachedProfileOptions& options, std::string& origin) {
  if (options.node_file) {
    origin = options.node_file->string();
    return config::load_node_model(*options.node_file);
  }
  const std::filesystem::path path = cache.node_model_path();
  std::string why = "this node has no node model in the cache yet";
  if (std::filesystem::exists(path)) {
    config::NodeModel model = config::load_node_model(path);
    const auto warnings = config::node_model_warnings(model, std::chrono::system_clock::now(), host_name());
    if (warnings.empty()) {
      origin = path.string();
      return model;
    }
    why = "the cached node model is stale: " + warnings.front();
  }
  say(options, fmt::format("calibrating this node's memory bandwidth ({}) ...", why));
  SilentReporter quiet;  // its rounds are not the run's news: the line above says what happens
  config::NodeModel model = calibrate_node(options.calibration, quiet);
  write_text_file(path, config::to_toml(model), Overwrite::replace, "node file");
  model.provenance.source = path.string();
  origin = fmt::format("{} (calibrated now)", path.string());
  return model;
}

// The task types of the batch, in order of first appearance: each STREAM kernel at a footprint (with the most
// passes any of its tasks runs) and each distinct command (distinct_commands names them).
struct TaskTypes {
  std::vector<config::StreamTaskGroup> stream;
  std::vector<CommandProfileSpec> commands;
};

TaskTypes task_types(config::Workload& workload) {
  TaskTypes types;
  types.commands = distinct_commands(workload, true);
  for (const auto& task : workload.tasks) {
    if (!task.is_stream()) continue;
    const auto same = std::find_if(types.stream.begin(), types.stream.end(), [&](const auto& group) {
      return group.kernel == task.kernel && group.footprint_bytes == task.footprint_bytes;
    });
    if (same == types.stream.end()) {
      types.stream.push_back({task.kernel, task.footprint_bytes, 1, task.passes});
    } else {
      same->passes = std::max(same->passes, task.passes);
    }
  }
  return types;
}

config::WorkloadTask command_task(const CommandProfileSpec& command) {
  config::WorkloadTask task;
  task.command = command.argv;
  task.environment = command.environment;
  task.footprint_bytes = command.footprint_bytes;
  return task;
}

// The scratch files (measuring-<pid>.csv, its sidecar and their hidden temporaries) of a run killed while it
// measured (issue 41: no later run removed them). Only the holder of the node's lock measures, so under the lock
// every one there is a dead run's.
void remove_dead_runs_scratch(const ProfileCache& cache) {
  std::error_code error;
  for (std::filesystem::directory_iterator it(cache.node_folder(), error), end; !error && it != end;
       it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.rfind("measuring-", 0) == 0 || name.rfind(".measuring-", 0) == 0) {
      std::error_code ignored;
      std::filesystem::remove(it->path(), ignored);
    }
  }
}

constexpr const char* kInterrupted =
    "interrupted while profiling the batch: nothing measured in this run was stored in the cache, nothing of the "
    "batch ran";

// Measures `types` into a scratch CSV of the node's folder (removed after), and returns its rows. Hold the lock.
std::vector<ProfileRow> measure(const TaskTypes& types, const ProfileCache& cache,
                                const CachedProfileOptions& options, std::vector<std::string>& failures) {
  const std::filesystem::path csv = cache.node_folder() / fmt::format("measuring-{}.csv", ::getpid());
  struct Scratch {
    std::filesystem::path csv;
    ~Scratch() {
      std::error_code ignored;
      std::filesystem::remove(csv, ignored);
      std::filesystem::remove(sidecar_path(csv), ignored);
    }
  } scratch{csv};
  std::vector<ProfileRow> rows;
  if (!types.stream.empty()) {
    LaunchedProfileOptions launched = options.launched;
    launched.separate_fixed_cost = true;
    const SweepOutcome outcome = profile_stream_groups(types.stream, launched, csv);
    if (outcome.interrupted) throw RuntimeFailure(kInterrupted);
    for (const std::string& line : sweep_messages(outcome, 5)) say(options, line);
    rows = read_profile_csv(csv).rows;
  }
  if (!types.commands.empty()) {
    const SweepOutcome outcome = profile_commands(types.commands, options.launched, csv);
    if (outcome.interrupted) throw RuntimeFailure(kInterrupted);
    failures = outcome.failures;
    for (auto& row : read_profile_csv(csv).rows) rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace

std::size_t CachedProfile::measured() const {
  return static_cast<std::size_t>(
      std::count_if(types.begin(), types.end(), [](const auto& type) { return type.state != CacheState::hit; }));
}

CachedProfile profile_through_cache(config::Workload workload, const ProfileCache& cache,
                                    const CachedProfileOptions& options) {
  const FileLock lock = cache.lock([&](const std::string& holder) {
    say(options, fmt::format("waiting for the profile cache of this node: {} holds it", holder));
  });
  remove_dead_runs_scratch(cache);
  CachedProfile result;
  result.node = node_model(cache, options, result.node_origin);
  const CacheExpectation expected{node_model_digest(result.node), options.launched.platform.cores};
  const std::string placement = options.launched.tier.command_placement;

  const TaskTypes all = task_types(workload);
  TaskTypes missing;
  std::map<std::string, CacheEntry> entries;  // by task type name
  const auto look_up = [&](const std::string& name, const CachedTask& task) {
    TaskTypeProfile type{name, task, CacheState::stale, "--reprofile"};
    if (!options.reprofile) {
      CacheLookup found = cache.lookup(task, expected);
      type.state = found.state;
      type.reason = found.reason;
      if (found.entry) entries.emplace(name, std::move(*found.entry));
    }
    if (type.state != CacheState::hit) say(options, fmt::format("profile of {}: {} ({}): measuring", name,
                                                                to_string(type.state), type.reason));
    result.types.push_back(std::move(type));
    return result.types.back().state != CacheState::hit;
  };
  for (const auto& group : all.stream) {
    config::WorkloadTask task;
    task.kernel = group.kernel;
    task.footprint_bytes = group.footprint_bytes;
    const std::string name = config::stream_task_id(group.kernel, group.footprint_bytes, 0);
    if (look_up(name.substr(0, name.rfind('-')), cached_task_of(task, placement))) missing.stream.push_back(group);
  }
  for (const auto& command : all.commands) {
    if (look_up(command.name, cached_task_of(command_task(command), placement))) missing.commands.push_back(command);
  }

  std::vector<std::string> failures;
  if (!missing.stream.empty() || !missing.commands.empty()) {
    const std::vector<ProfileRow> rows = measure(missing, cache, options, failures);
    for (TaskTypeProfile& type : result.types) {
      if (type.state == CacheState::hit) continue;
      CacheEntry entry;
      entry.cosched_version = COSCHED_VERSION;
      entry.date = iso8601_utc(std::chrono::system_clock::now());
      entry.node = cache.node();
      entry.calibration = expected.calibration;
      entry.task = type.task;
      entry.measurer = type.task.is_stream() ? "process" : "command";
      entry.probe_cores = options.launched.platform.cores / 2;
      entry.reps = options.launched.reps;
      entry.chunk_bytes = options.launched.platform.chunk_bytes();
      const std::string kernel = type.task.row_kernel(type.name);
      bool failed = false;
      for (const ProfileRow& row : rows) {
        if (row.point.kernel != kernel || row.point.footprint_bytes != type.task.footprint_bytes) continue;
        failed = failed || !row.ok();
        ProfileRow kept = row;
        kept.point.kernel = type.task.row_kernel("cached");
        entry.rows.push_back(std::move(kept));
      }
      if (type.task.is_stream()) {
        const auto group = std::find_if(all.stream.begin(), all.stream.end(), [&](const auto& g) {
          return g.kernel == type.task.kernel && g.footprint_bytes == type.task.footprint_bytes;
        });
        entry.passes = fixed_cost_passes(group->passes);
      } else {
        entry.program = program_stamp(type.task.argv.front());
      }
      if (failed || entry.rows.empty()) continue;  // a command that failed is measured again next time
      cache.store(entry);
      entries.emplace(type.name, std::move(entry));
    }
  }
  if (!failures.empty()) {
    throw RuntimeFailure(fmt::format("{} profiled point(s) failed (first: {}); nothing of the batch ran",
                                     failures.size(), failures.front()));
  }
  for (const TaskTypeProfile& type : result.types) {
    const CacheEntry& entry = entries.at(type.name);
    std::vector<ProfileRow> rows = entry.rows;
    for (ProfileRow& row : rows) row.point.kernel = type.task.row_kernel(type.name);
    result.profiles.add(rows, entry.chunk_bytes);
  }
  result.workload = std::move(workload);
  return result;
}

sched::Instance batch_instance(const CachedProfile& profile, const config::PlatformConfig& platform,
                               bool tier_places_commands) {
  const NodeBandwidth bandwidth = node_bandwidth(profile.node);
  sched::Instance instance = build_instance(profile.workload, profile.profiles, platform, &bandwidth);
  const bool commands_only = std::none_of(profile.workload.tasks.begin(), profile.workload.tasks.end(),
                                          [](const config::WorkloadTask& task) { return task.is_stream(); });
  if (commands_only && !tier_places_commands && instance.resources().size() > 1) {
    return sched::leading_resources(instance, 1);
  }
  return instance;
}

}  // namespace cosched::profiler
