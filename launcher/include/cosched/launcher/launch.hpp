#pragma once
// A whole launch: predict the plan on the simulated clock (the paper model) and, when the plan has a bandwidth
// model, on the contention clock (co-runners share memory bandwidth); run it on the wall clock with a journal;
// and compare.
// Resume: the journal of a killed run says which tasks completed (status ok); only the others run, appended to
// the same journal as a new segment — provided the journal was written for the same schedule, workload and
// platform (journal/inputs.hpp).
#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cosched/sim/engine.hpp"
#include "cosched/launcher/journal/events.hpp"
#include "cosched/sim/plan.hpp"
#include "cosched/sim/replanning.hpp"
#include "cosched/exec/task_command.hpp"
#include "cosched/config/platform.hpp"
#include "cosched/config/workload.hpp"
#include "cosched/launcher/clocks/wall_clock.hpp"

namespace cosched::launcher {

// Told what a launch is about to run — the plan (what is left of it on resume) and its predicted run, on the
// contention clock when the plan has a bandwidth model, else on the simulated one — then of every start and end,
// as the journal is (a status line: run_report.hpp).
class LaunchObserver : public sim::EngineObserver {
 public:
  virtual void launching(const sim::LaunchPlan& /*plan*/, const sim::EngineResult& /*predicted*/) {}
  // The launch re-planned its pending tasks at `now` (LaunchSettings::replanner), after the end it was told of.
  virtual void replanned(double /*now*/, const sim::Replan& /*replan*/) {}
};
// The longest the launcher waits with the node idle for a planned start or a release, unless told otherwise
// (--max-wait): one day. A plan whose prediction idles longer is refused before any work (launch()).
inline constexpr double kDefaultMaxWaitSeconds = 86'400.0;

// Whether the launcher touches and frees the most memory the plan's tasks hold at once just before the batch starts
// (platform/host_memory.hpp): where the hypervisor takes back free memory (automatic), always, or never. The tasks
// otherwise fault their memory back in through the host, far slower than their profiles, taken back to back.
enum class MemoryWarmUpMode { automatic, on, off };
// "auto", "on", "off"; UsageError otherwise.
[[nodiscard]] MemoryWarmUpMode parse_memory_warm_up_mode(std::string_view text);
[[nodiscard]] std::vector<std::string> memory_warm_up_mode_names();

struct LaunchSettings {
  std::filesystem::path journal;
  bool resume = false;                 // continue `journal` instead of starting it
  bool force = false;                  // a new run replaces an existing journal (--force)
  std::string policy = "auto";
  sim::EngineOptions engine;
  WallClockOptions clock;
  exec::TierSetup tier;
  std::filesystem::path stream_bench;  // empty: default_stream_bench_path()
  std::filesystem::path log_dir;       // task stdout/stderr; empty: next to the journal (<journal>.logs/)
  std::string schedule_source;         // for the journal header
  std::string workload_source;
  std::string label;                   // free text for the header (e.g. the demo's configuration)
  std::optional<SlurmStep> slurm;      // the Slurm step this launch runs in, for the header
  // The interval the caller predicted the batch's makespan in, for the header (a resumed segment states none).
  std::optional<PredictedInterval> predicted_interval;
  LaunchObserver* observer = nullptr;  // also told of the run (not owned); null: the journal only
  double max_wait_s = kDefaultMaxWaitSeconds;  // the longest idle wait the plan may ask for (finite, > 0)
  // How each task's process tree is held and ended (exec/process_tree.hpp): auto, cgroup, process-group.
  std::string containment = std::string(exec::kDefaultTreeContainment);
  MemoryWarmUpMode memory_warm_up = MemoryWarmUpMode::automatic;
  // Shown every task that ends in the run (not owned; null: none), to re-plan the pending tasks (sim/replanning.hpp)
  // where the launch rule re-plans (greedy). The predictions run the plan as made.
  sim::Replanner* replanner = nullptr;
};

struct TaskDeviation {
  std::string id;
  double predicted_start = 0, predicted_end = 0;  // simulated clock, same policy
  std::optional<double> predicted_contention_start, predicted_contention_end;  // contention clock, when a model
  double observed_start = 0, observed_end = 0;
  double launch_overhead_s = 0;
  sim::TaskStatus status = sim::TaskStatus::ok;
  std::vector<int> allocation = {};  // what it ran with: the plan's, or a re-plan's (LaunchSettings::replanner)
  // What the last re-plan that moved it predicted it takes at `allocation` (nullopt: not re-planned, or not said).
  std::optional<double> replanned_duration = std::nullopt;
  bool replanned = false;
  // Its predicted duration was a guess: nothing was known of its kind when it was predicted (the launch sets it from
  // a re-plan; whoever made the plan says so of its own guesses).
  bool guessed = false;
};

struct LaunchSummary {
  sim::LaunchPlan plan;                  // what ran (the remaining tasks when resumed)
  sim::EngineResult observed;
  std::vector<std::string> already_completed;  // skipped on resume
  double predicted_makespan = 0.0;  // simulated clock, same policy, predicted durations (the paper model)
  // Contention clock, same policy: the contention-aware prediction; nullopt when the plan has no bandwidth model.
  std::optional<double> predicted_makespan_contention;
  double observed_makespan = 0.0;
  double lower_bound = 0.0;
  std::vector<TaskDeviation> tasks;
  // The makespan the launch's last re-plan predicted (its time plus the rest it predicted); nullopt: none said.
  std::optional<double> replanned_makespan;
  std::optional<MemoryWarmUp> memory_warm_up;  // done before the first tasks started, when it was
  [[nodiscard]] double ratio() const noexcept {
    return predicted_makespan > 0 ? observed_makespan / predicted_makespan : 0.0;
  }
  // observed / predicted - 1 of each prediction (prediction.hpp); nullopt when there is none.
  [[nodiscard]] std::optional<double> error_paper() const;
  [[nodiscard]] std::optional<double> error_contention() const;
};

// The concrete node pool for `plan`: this machine's allowed cores through the core allocator and, when the plan
// schedules fast chunks, a budget of that many chunks of tier.chunk_bytes.
[[nodiscard]] std::unique_ptr<sim::NodeResources> make_node_pool(const sim::LaunchPlan& plan, const exec::TierSetup& tier);

// Runs the plan (or what is left of it), as the journal's one writer: the journal is locked (journal/lock.hpp) from
// before it is read until its last line. Everything is checked before anything runs: UsageError when another
// process holds the journal (naming it), when the journal already has a run (without resume or force), when it or
// the log folder is not a usable path, or when there is no journal to resume; InputError when a time of the plan
// is not finite or beyond kMaxSeconds, when its predicted run would leave the node idle longer than
// settings.max_wait_s, when a task id has no entry in the workload, or when the resumed journal is malformed or
// was written for another schedule, workload or platform (the message names which, and what the journal was
// written for).
[[nodiscard]] LaunchSummary launch(const sim::LaunchPlan& plan, const config::Workload& workload,
                                   const LaunchSettings& settings);

// Text for people: deviations per task, launch overheads, the lower bound, both predicted makespans, the
// observed one and the error of each prediction.
[[nodiscard]] std::string format_summary(const LaunchSummary& summary);

// Where a run goes, for the line printed before it starts: "<cores> cores[ + <n> fast chunks], tier backend
// <backend>[ (EMULATED fast tier)]".
[[nodiscard]] std::string describe_node(const config::PlatformConfig& node, const exec::TierSetup& tier);

}  // namespace cosched::launcher
