#include "cosched/launcher/launch.hpp"

#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "cosched/common/stats.hpp"
#include "cosched/common/error.hpp"
#include "cosched/common/checked.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/launcher/journal/inputs.hpp"
#include "cosched/launcher/journal/lock.hpp"
#include "cosched/launcher/journal/recorder.hpp"
#include "cosched/launcher/journal/replay.hpp"
#include "cosched/launcher/report.hpp"
#include "cosched/sim/policies.hpp"
#include "cosched/sim/prediction.hpp"
#include "cosched/sim/clocks/contention_clock.hpp"
#include "cosched/sim/clocks/simulated_clock.hpp"
#include "cosched/platform/host_memory.hpp"
#include "cosched/platform/topology.hpp"
#include "cosched/common/host.hpp"
#include "cosched/common/utc_time.hpp"
#include "cosched/sched/resource_kinds.hpp"

namespace cosched::launcher {

namespace {

std::size_t chunk_resource(const sim::LaunchPlan& plan) {
  for (std::size_t i = 0; i < plan.resource_names.size(); ++i) {
    if (sched::is_fast_chunks_resource(plan.resource_names[i])) return i;
  }
  return SIZE_MAX;
}

// Defence in depth: schedule parsers bound every time, but a plan can be built in code too, and a start of 1e12 s
// would be a launcher waiting forever.
void check_plan_times(const sim::LaunchPlan& plan, const std::string& source) {
  for (const sim::PlannedTask& task : plan.tasks) {
    const std::string where = fmt::format("{}: task \"{}\"", source.empty() ? "schedule" : source, task.id);
    (void)checked_number(task.planned_start, non_negative_up_to(kMaxSeconds), where, "planned_start");
    (void)checked_number(task.predicted_duration, non_negative_up_to(kMaxSeconds), where, "predicted_duration");
  }
}

// Checks the journal before anything runs, holding its lock (so that no other launch can start or resume it between
// this check and the end of the run). A new run refuses an existing journal unless --force; a resumed run replays
// it (the one replay, shared with `cosched report`, read through the locked descriptor) and refuses it unless it
// was written for these inputs. Returns what the journal says ran.
struct JournalHistory {
  std::vector<std::string> completed;        // ids whose last run ended ok: not run again
  std::map<std::string, std::size_t> runs;   // how many times each task started before this launch
};

JournalHistory prepare_journal(const LaunchSettings& settings, const BatchInputs& inputs, const JournalLock& lock) {
  const std::filesystem::path& path = settings.journal;
  const std::string text = lock.read_all();
  if (!settings.resume) {
    if (!text.empty() && !settings.force) {
      throw UsageError(fmt::format("journal {} already has a run: pass --resume {} to continue it, --force to "
                                   "replace it, or another --journal",
                                   path.string(), path.string()));
    }
    return {};
  }
  // The lock created a missing journal (check_resumable refused that case first): an empty one holds no run.
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
    throw InputError(path.string(), "is empty: it holds no run to resume (start one without --resume)");
  }
  const JournalReplay replay = replay_journal(parse_journal(text, path.string()));
  const BatchStart& first = replay.segments.front().header;
  if (!first.inputs) {
    throw InputError(path.string(), "the journal carries no digests of its schedule, workload and platform (an "
                                    "older cosched wrote it), so resuming cannot be checked: start a new journal");
  }
  const std::vector<std::string> differences = input_differences(*first.inputs, inputs);
  if (!differences.empty()) {
    throw InputError(path.string(), fmt::format("cannot resume: not the inputs the journal was written for — {}",
                                                fmt::join(differences, "; ")));
  }
  JournalHistory history{replay.completed_ids(), {}};
  for (const TaskReplay& task : replay.tasks) history.runs[task.id] = task.runs;
  return history;
}

// A plan whose predicted run leaves the node idle, waiting for a planned start or a release, longer than
// settings.max_wait_s (a start of 10^9 s is in range, but nobody means to wait 31 years) is refused before any work.
// The waits are those of the prediction under the same policy: what the launcher itself would wait, with the
// predicted durations (a late task only shortens a wait).
void check_idle_waits(const sim::EngineResult& predicted, const sim::LaunchPlan& plan, const LaunchSettings& settings) {
  std::vector<std::size_t> order;
  for (std::size_t j = 0; j < predicted.runs.size(); ++j) {
    if (predicted.runs[j].state == sim::TaskState::done) order.push_back(j);
  }
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return predicted.runs[a].launch.start < predicted.runs[b].launch.start;
  });
  double busy_until = 0.0;  // the batch starts at 0
  for (const std::size_t j : order) {
    const sim::TaskRun& run = predicted.runs[j];
    const double idle = run.launch.start - busy_until;
    if (idle > settings.max_wait_s) {
      throw InputError(settings.schedule_source.empty() ? "schedule" : settings.schedule_source,
                       fmt::format("task \"{}\" would start at {:g} s, after the node has idled {:g} s waiting for it "
                                   "(its planned start or release), more than --max-wait {:g} s: check the plan's "
                                   "times, or pass a larger --max-wait",
                                   plan.tasks[j].id, run.launch.start, idle, settings.max_wait_s));
    }
    busy_until = std::max(busy_until, run.completion.end);
  }
}

// --resume of a journal that does not exist: refused before the lock would create it.
void check_resumable(const LaunchSettings& settings) {
  std::error_code error;
  if (settings.resume && !std::filesystem::exists(settings.journal, error)) {
    throw UsageError(fmt::format("--resume {}: no such journal", settings.journal.string()));
  }
}

// The folder of the tasks' stdout/stderr: --log-dir, or <journal>.logs beside the journal.
std::filesystem::path prepare_log_dir(const LaunchSettings& settings) {
  const std::filesystem::path dir =
      settings.log_dir.empty() ? std::filesystem::path(settings.journal.string() + ".logs") : settings.log_dir;
  const std::string what = settings.log_dir.empty() ? "log folder (<journal>.logs)" : "--log-dir";
  std::error_code error;
  const auto status = std::filesystem::status(dir, error);
  if (std::filesystem::exists(status) && !std::filesystem::is_directory(status)) {
    throw UsageError(fmt::format("{} {} is not a folder", what, dir.string()));
  }
  std::filesystem::create_directories(dir, error);
  if (error == std::errc::not_a_directory || error == std::errc::file_exists) {
    throw UsageError(fmt::format("{} {} cannot be created: a part of its path is a file", what, dir.string()));
  }
  if (error) throw PlatformError("mkdir", fmt::format("cannot create {} {}", what, dir.string()), error.value());
  return dir;
}

BatchStart batch_header(const sim::LaunchPlan& plan, const std::vector<TaskPrediction>& predicted,
                        const LaunchSummary& summary,
                        const LaunchSettings& settings, std::string_view policy, std::size_t repaired_bytes,
                        const BatchInputs& inputs) {
  BatchStart header;
  header.time_utc = iso8601_utc_micro(std::chrono::system_clock::now());
  header.host = host_name();
  header.launcher_pid = static_cast<int>(::getpid());
  header.policy = policy;
  header.algorithm = plan.algorithm;
  header.schedule = settings.schedule_source;
  header.workload = settings.workload_source;
  header.label = settings.label;
  header.tier_backend = settings.tier.backend;
  header.emulated = settings.tier.emulated();
  if (header.emulated) header.emulation_ratio = settings.tier.emulation_ratio;
  header.chunk_bytes = settings.tier.chunk_bytes;
  for (std::size_t i = 0; i < plan.capacities.size(); ++i) {
    header.resources.push_back({plan.resource_names[i], plan.capacities[i]});
  }
  header.lower_bound = plan.lower_bound;
  header.planned_makespan = plan.predicted_makespan();
  header.predicted_makespan = summary.predicted_makespan;
  header.predicted_makespan_contention = summary.predicted_makespan_contention;
  header.predicted_interval = settings.predicted_interval;
  header.fail_fast = settings.engine.fail_fast;
  header.timeout_s = settings.clock.timeout_s;
  header.resumed = settings.resume;
  header.already_completed = summary.already_completed;
  header.journal_repaired_bytes = repaired_bytes;
  for (std::size_t j = 0; j < plan.tasks.size(); ++j) {
    const sim::PlannedTask& task = plan.tasks[j];
    header.plan.push_back({task.id, task.demand, task.planned_start, task.predicted_duration,
                           predicted[j].start,
                           task.pack >= 0 ? std::optional<int>(task.pack) : std::nullopt});
  }
  header.inputs = inputs;
  header.slurm = settings.slurm;
  header.memory_warm_up = summary.memory_warm_up;
  return header;
}

BatchStatus batch_status(const sim::EngineResult& result) {
  if (result.interrupted) return BatchStatus::interrupted;
  if (result.stopped_by_failure) return BatchStatus::stopped;
  return result.failed > 0 ? BatchStatus::failed : BatchStatus::ok;
}

BatchEnd batch_footer(const LaunchSummary& summary) {
  const sim::EngineResult& observed = summary.observed;
  BatchEnd footer;
  footer.time_utc = iso8601_utc_micro(std::chrono::system_clock::now());
  footer.status = batch_status(observed);
  footer.observed_makespan = summary.observed_makespan;
  footer.predicted_makespan = summary.predicted_makespan;
  footer.lower_bound = summary.lower_bound;
  footer.ratio = summary.ratio();
  footer.tasks_completed = observed.completed;
  footer.tasks_failed = observed.failed;
  footer.tasks_killed = observed.killed;
  footer.tasks_not_started = observed.not_started;
  footer.overcommit_refusals = observed.overcommit_refusals.size();
  return footer;
}

}  // namespace

std::unique_ptr<sim::NodeResources> make_node_pool(const sim::LaunchPlan& plan, const exec::TierSetup& tier) {
  auto cores = std::make_shared<platform::CoreAllocator>(platform::Topology::this_system());
  std::shared_ptr<platform::FastTierBudget> budget;
  const std::size_t chunks = chunk_resource(plan);
  if (chunks != SIZE_MAX && plan.capacities[chunks] > 0) {
    const auto count = static_cast<std::size_t>(plan.capacities[chunks]);
    if (!(tier.chunk_bytes >= 1.0)) throw UsageError("the plan schedules fast chunks but their size is unknown");
    budget = std::make_shared<platform::FastTierBudget>(
        static_cast<std::size_t>(std::floor(tier.chunk_bytes * static_cast<double>(count))), count);
  }
  return std::make_unique<sim::NodeResources>(plan.resource_names, plan.capacities, std::move(cores), std::move(budget));
}

namespace {

// Both predictions of each task, for the journal and the summary.
std::vector<TaskPrediction> task_predictions(const sim::EngineResult& paper, const std::optional<sim::EngineResult>& contention) {
  std::vector<TaskPrediction> tasks;
  for (std::size_t j = 0; j < paper.runs.size(); ++j) {
    TaskPrediction task{paper.runs[j].launch.start, std::nullopt, std::nullopt};
    if (contention) {
      task.contention_start = contention->runs[j].launch.start;
      task.contention_end = contention->runs[j].completion.end;
    }
    tasks.push_back(task);
  }
  return tasks;
}

// The journal's recorder and the caller's observer, both told of every event.
class BothObservers final : public sim::EngineObserver {
 public:
  BothObservers(sim::EngineObserver& first, sim::EngineObserver& second) : first_(first), second_(second) {}
  void task_started(std::size_t task, const sim::TaskRun& run) override {
    first_.task_started(task, run);
    second_.task_started(task, run);
  }
  void task_ended(std::size_t task, const sim::TaskRun& run) override {
    first_.task_ended(task, run);
    second_.task_ended(task, run);
  }
  void overcommit_refused(std::size_t task, const std::string& why) override {
    first_.overcommit_refused(task, why);
    second_.overcommit_refused(task, why);
  }

 private:
  sim::EngineObserver& first_;
  sim::EngineObserver& second_;
};

// The most memory the plan's tasks hold at once: the largest sum of the workload footprints of the tasks planned to
// run together (a command without footprint_bytes counts 0). Not only the first wave's: a later wave that needs more
// (one task alone first, then two together) would first-touch the rest as memory the host took back (issue 24:
// two 128 MiB tasks after a 128 MiB warm-up took 0.25-0.33 s more each). A sweep over the planned starts and ends;
// at one instant (within kSameInstant: a start computed as an end may differ from it by rounding) the ends come first
// (a finished task's memory is what the next one reuses), and a task planned to take no time counts at its start.
constexpr double kSameInstant = 1e-6;  // seconds

std::uint64_t peak_planned_bytes(const sim::LaunchPlan& plan, const config::Workload& workload) {
  enum Kind { end, start, end_of_instant_task };  // the order of events at one instant
  struct Event {
    double at;
    Kind kind;
    std::uint64_t bytes;
  };
  std::vector<Event> events;
  events.reserve(2 * plan.tasks.size());
  for (const sim::PlannedTask& task : plan.tasks) {
    const std::uint64_t bytes = workload.find(task.id).footprint_bytes;
    const bool lasts = task.planned_end() - task.planned_start > kSameInstant;
    events.push_back({task.planned_start, start, bytes});
    events.push_back(lasts ? Event{task.planned_end() - kSameInstant, end, bytes}
                           : Event{task.planned_start, end_of_instant_task, bytes});
  }
  std::sort(events.begin(), events.end(),
            [](const Event& a, const Event& b) { return a.at != b.at ? a.at < b.at : a.kind < b.kind; });
  std::uint64_t held = 0;
  std::uint64_t peak = 0;
  for (const Event& event : events) {
    held = event.kind == start ? held + event.bytes : held - event.bytes;
    peak = std::max(peak, held);
  }
  return peak;
}

// Touches and frees the plan's peak memory where the mode asks for it (platform/host_memory.hpp): just before the
// batch starts, so that its tasks find that memory resident rather than handed back to the hypervisor.
std::optional<MemoryWarmUp> warm_up_plan_memory(const sim::LaunchPlan& plan, const config::Workload& workload,
                                               MemoryWarmUpMode mode) {
  if (mode == MemoryWarmUpMode::off) return std::nullopt;
  std::string reason = "asked for (--memory-warm-up on)";
  if (mode == MemoryWarmUpMode::automatic) {
    platform::FreePageReporting reporting = platform::detect_free_page_reporting();
    if (!reporting.active) return std::nullopt;
    reason = std::move(reporting.evidence);
  }
  const platform::WarmedMemory warmed = platform::warm_up_memory(peak_planned_bytes(plan, workload));
  if (warmed.bytes == 0) return std::nullopt;
  return MemoryWarmUp{warmed.bytes, warmed.seconds, std::move(reason)};
}

}  // namespace

MemoryWarmUpMode parse_memory_warm_up_mode(std::string_view text) {
  if (text == "auto") return MemoryWarmUpMode::automatic;
  if (text == "on") return MemoryWarmUpMode::on;
  if (text == "off") return MemoryWarmUpMode::off;
  throw UsageError(fmt::format("--memory-warm-up {}: expected auto, on or off", text));
}

std::vector<std::string> memory_warm_up_mode_names() { return {"auto", "on", "off"}; }

std::optional<double> LaunchSummary::error_paper() const {
  return sim::prediction_error(observed_makespan, predicted_makespan);
}

std::optional<double> LaunchSummary::error_contention() const {
  return sim::prediction_error(observed_makespan, predicted_makespan_contention);
}

LaunchSummary launch(const sim::LaunchPlan& full_plan, const config::Workload& workload,
                     const LaunchSettings& settings) {
  check_plan_times(full_plan, settings.schedule_source);
  // The policy is checked before the journal and the log folder are touched: a bad name leaves nothing behind.
  (void)sim::make_policy(settings.policy, full_plan);
  const BatchInputs inputs = batch_inputs(full_plan, workload, settings.tier);  // every id must have a command
  (void)checked_number(settings.max_wait_s, positive_up_to(kMaxSeconds), "launch", "max_wait_s");
  // An unknown containment, or one this machine does not offer, is refused before any work.
  (void)exec::tree_containment(settings.containment);
  check_output_path(settings.journal, Overwrite::replace, "journal");  // not a folder, and its folder exists
  check_resumable(settings);
  LaunchSummary summary;
  std::optional<sim::EngineResult> predicted;
  // A new run's plan, its prediction and its waits are known before the journal is read: a plan that would idle
  // too long is refused before the journal exists. A resumed run's are known once the journal says what is left.
  const auto plan_what_is_left = [&] {
    summary.plan = sim::remaining_plan(full_plan, summary.already_completed);
    predicted = sim::predict(summary.plan, settings.policy);
    check_idle_waits(*predicted, summary.plan, settings);
  };
  if (!settings.resume) plan_what_is_left();

  // Tasks' process trees are watched from the start, off the first task's critical path (exec/process_tree.hpp).
  // Started before the journal is opened: the watchdog is a fork of this process, and until it has closed what it
  // inherited, a copy of the journal's descriptor would hold the journal's lock after this launch has ended.
  exec::start_tree_watchdog();

  // From here to the last line, this launch is the journal's one writer.
  JournalLock lock = JournalLock::acquire(settings.journal);
  const JournalHistory history = prepare_journal(settings, inputs, lock);
  if (settings.resume) {
    summary.already_completed = history.completed;
    plan_what_is_left();
  }
  const sim::LaunchPlan& plan = summary.plan;
  summary.lower_bound = plan.lower_bound;
  summary.predicted_makespan = predicted->observed_makespan;
  std::optional<sim::EngineResult> contention;
  if (!plan.bandwidth.empty()) {
    contention = sim::predict_contention(plan, settings.policy);
    summary.predicted_makespan_contention = contention->observed_makespan;
  }
  const std::vector<TaskPrediction> predictions = task_predictions(*predicted, contention);

  auto pool = make_node_pool(plan, settings.tier);
  // stream_bench is looked up only when the batch has STREAM tasks: a batch of commands does not need it.
  const bool has_stream_tasks = std::any_of(plan.tasks.begin(), plan.tasks.end(), [&](const sim::PlannedTask& task) {
    return workload.find(task.id).is_stream();
  });
  const std::filesystem::path stream_bench = !settings.stream_bench.empty() ? settings.stream_bench
                                             : has_stream_tasks             ? exec::default_stream_bench_path()
                                                                            : std::filesystem::path();
  // The log folder is made once this node has been found to hold the plan (a plan wider than the node is refused
  // above with nothing left behind).
  const std::filesystem::path log_dir = prepare_log_dir(settings);

  // --force: the new run replaces the old journal (checked above), now that nothing else can refuse it.
  if (!settings.resume && settings.force) lock.truncate();
  JournalWriter journal(std::move(lock));
  // The re-plans the launch takes are journaled between its tasks' events (journal/recorder.hpp).
  std::optional<JournalingReplanner> journaled_replanner;
  if (settings.replanner != nullptr) journaled_replanner.emplace(*settings.replanner, journal, settings.observer);
  auto policy =
      sim::make_policy(settings.policy, plan, journaled_replanner ? &*journaled_replanner : nullptr);
  // Last before the header and the first start: the memory it leaves resident is free for the first tasks only
  // until the hypervisor takes it back (within a second or two on the development VM).
  summary.memory_warm_up = warm_up_plan_memory(plan, workload, settings.memory_warm_up);
  journal.append(batch_header(plan, predictions, summary, settings, policy->name(), journal.repaired_bytes(), inputs));

  // Each attempt of a task has its own logs: a resumed task does not overwrite what its earlier attempts wrote.
  std::vector<unsigned> attempts;
  for (const sim::PlannedTask& task : plan.tasks) {
    const auto earlier = history.runs.find(task.id);
    attempts.push_back(1 + (earlier == history.runs.end() ? 0U : static_cast<unsigned>(earlier->second)));
  }
  const exec::TierSetup tier = settings.tier;
  WallClock clock(
      [&](std::size_t task, const platform::Grant& grant) {
        exec::TaskLaunch launch = exec::build_task_launch(workload.find(plan.tasks[task].id), grant, tier,
                                                          stream_bench, exec::TaskLogs{log_dir, attempts[task]});
        launch.spec.containment = settings.containment;
        return launch;
      },
      settings.clock);
  JournalRecorder recorder(journal, plan, predictions);
  std::optional<BothObservers> both;
  if (settings.observer != nullptr) {
    settings.observer->launching(plan, contention ? *contention : *predicted);
    both.emplace(recorder, *settings.observer);
  }
  sim::EngineObserver* observer = both ? static_cast<sim::EngineObserver*>(&*both) : &recorder;
  summary.observed = sim::run_engine(plan, *policy, clock, *pool, observer, settings.engine);
  summary.observed_makespan = summary.observed.observed_makespan;
  if (journaled_replanner) summary.replanned_makespan = journaled_replanner->predicted_makespan();
  journal.append(batch_footer(summary));

  for (std::size_t j = 0; j < plan.tasks.size(); ++j) {
    const sim::TaskRun& run = summary.observed.runs[j];
    if (run.state != sim::TaskState::done) continue;
    const sim::TaskRun& sim = predicted->runs[j];
    summary.tasks.push_back({plan.tasks[j].id, sim.launch.start, sim.completion.end, predictions[j].contention_start,
                             predictions[j].contention_end, run.launch.start, run.completion.end,
                             run.launch.overhead_s, run.completion.status, run.grant.amounts});
    if (journaled_replanner) {
      const auto replanned = journaled_replanner->replanned().find(j);
      if (replanned != journaled_replanner->replanned().end()) {
        summary.tasks.back().replanned = true;
        summary.tasks.back().replanned_duration = replanned->second.predicted_seconds;
        summary.tasks.back().guessed = replanned->second.guessed;
      }
    }
  }
  return summary;
}

std::string describe_node(const config::PlatformConfig& node, const exec::TierSetup& tier) {
  return fmt::format("{} cores{}, tier backend {}{}", node.cores,
                     node.fast_chunks > 0 ? fmt::format(" + {} fast chunks", node.fast_chunks) : std::string(),
                     tier.backend, tier.emulated() ? " (EMULATED fast tier)" : "");
}

std::string format_summary(const LaunchSummary& summary) {
  std::string text;
  if (!summary.already_completed.empty()) {
    text += fmt::format("resumed: {} tasks already completed in the journal were not run again\n",
                        summary.already_completed.size());
  }
  // "d end": observed end - predicted end, by the paper model and (when there is one) the contention-aware one.
  const bool contention = summary.predicted_makespan_contention.has_value();
  text += fmt::format("{:<28} {:>10} {:>10} {:>10} {:>10}{} {:>10} {:>8}\n", "task", "pred start", "obs start",
                      "d start", "d end", contention ? fmt::format(" {:>10}", "d end (c)") : "", "overhead",
                      "status");
  std::vector<double> overheads;
  for (const auto& task : summary.tasks) {
    std::string contention_end;
    if (contention) {
      contention_end = task.predicted_contention_end
                           ? fmt::format(" {:>+10.3f}", task.observed_end - *task.predicted_contention_end)
                           : fmt::format(" {:>10}", "-");
    }
    text += fmt::format("{:<28} {:>10.3f} {:>10.3f} {:>+10.3f} {:>+10.3f}{} {:>8.2f}ms {:>8}\n", task.id,
                        task.predicted_start, task.observed_start, task.observed_start - task.predicted_start,
                        task.observed_end - task.predicted_end, contention_end, task.launch_overhead_s * 1e3,
                        to_string(task.status));
    overheads.push_back(task.launch_overhead_s);
  }
  const auto& r = summary.observed;
  text += fmt::format("tasks: {} ok, {} failed, {} killed, {} not started{}{}\n", r.completed, r.failed, r.killed,
                      r.not_started, r.interrupted ? " (interrupted)" : "",
                      r.stopped_by_failure ? " (stopped by --fail-fast)" : "");
  if (!overheads.empty()) {
    text += fmt::format("launch overhead per task (spawn to exec + binding + placement): median {:.3f} ms, max {:.3f} ms\n",
                        median(overheads) * 1e3, summarize(overheads).max * 1e3);
  }
  if (summary.memory_warm_up) text += describe_memory_warm_up(*summary.memory_warm_up);
  text += sim::format_makespans({summary.lower_bound, summary.predicted_makespan, summary.predicted_makespan_contention,
                            summary.observed_makespan});
  return text;
}

}  // namespace cosched::launcher
