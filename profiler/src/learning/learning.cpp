// What `cosched run` knows of a batch and learns from it (learning.hpp): the store, the budgeted strategy loop, the
// fits.
#include "cosched/profiler/learning.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <tuple>
#include <utility>

#include "cosched/common/error.hpp"
#include "cosched/common/stats.hpp"
#include "cosched/common/stop_signals.hpp"
#include "cosched/common/utc_time.hpp"
#include "cosched/profiler/instance_builder.hpp"
#include "cosched/profiler/process_measurer.hpp"
#include "cosched/profiler/run_history.hpp"
#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/allocation.hpp"
#include "cosched/sched/io.hpp"
#include "cosched/sched/naive.hpp"
#include "cosched/sched/resource_kinds.hpp"
#include "cosched/sched/schedule.hpp"
#include "cosched/sim/plan.hpp"
#include "cosched/sim/prediction.hpp"
#include "learning/kind_runner.hpp"

namespace cosched::profiler {

namespace {

using Clock = std::chrono::steady_clock;

// The planner that places the batch while it is being learnt: fast, so that re-planning after each run costs
// nothing next to a run (the real plan is the run's own algorithm, afterwards).
constexpr std::string_view kLearningPlanner = "t-list-lpt";
// How far a guessed time may be off, as an sd of ln t: at least a factor e either way when the batch has known times
// to guess from; 1.5 (a factor 4.5) for the 1-s guess made from nothing — a command may take a tenth of a second
// or minutes (measured on this VM by bench/interval_coverage.py: the root mean square of ln(observed / predicted)
// of batches whose every time was the 1-s guess was 1.32 over 14 runs).
constexpr double kUnknownLogSd = 1.0;
constexpr double kNothingKnownLogSd = 1.5;
// How far a relative's speed-up may be from a kind's own (ln-sd, a factor 1.22 either way): a prior, not a
// measurement — another input of one program can change how it scales (bench/results keeps what was seen).
constexpr double kBorrowedLogSd = 0.2;
// The attribute knowledge_instance gives a task whose times are the guess, and guessed_tasks reads back (from the
// plan in memory, or from the run folder's instance.json on --resume).
constexpr std::string_view kGuessedAttribute = "unknown";

knowledge::NodeShape shape_of(const TaskKind& kind, const config::PlatformConfig& platform, bool places_commands) {
  const bool chunks = kind.task.is_stream() || places_commands;
  return {static_cast<int>(platform.cores), chunks ? static_cast<int>(platform.fast_chunks) : 0};
}

// The kind's runs that lie on its shape (a command's runs with fast chunks where commands get none are left out).
std::vector<knowledge::Measurement> usable_runs(const KindState& state, const knowledge::NodeShape& shape) {
  std::vector<knowledge::Measurement> runs;
  for (const knowledge::Measurement& run : state.known.measurements()) {
    if (run.cores > shape.cores || run.fast_chunks > shape.fast_chunks) continue;
    runs.push_back(run);
  }
  return runs;
}

// The distinct core counts of `runs` without fast chunks.
std::set<int> core_counts(const std::vector<knowledge::Measurement>& runs) {
  std::set<int> cores;
  for (const knowledge::Measurement& run : runs) {
    if (run.fast_chunks == 0) cores.insert(run.cores);
  }
  return cores;
}

// The relative's time at each core count over its time at `base` cores (medians, at the one amount of work that
// has `base` and the most other core counts); empty when it ran at `base` and no other count at one amount.
std::map<int, double> relative_curve(const RelativeKind& relative, int base) {
  std::map<int, double> best;
  std::vector<double> amounts;
  for (const knowledge::Measurement& run : relative.runs) {
    if (std::none_of(amounts.begin(), amounts.end(), [&](double w) { return knowledge::same_work(w, run.work); })) {
      amounts.push_back(run.work);
    }
  }
  for (const double amount : amounts) {
    std::map<int, std::vector<double>> times;
    for (const knowledge::Measurement& run : relative.runs) {
      if (knowledge::same_work(run.work, amount)) times[run.cores].push_back(run.seconds);
    }
    if (!times.contains(base) || times.size() < 2 || times.size() <= best.size()) continue;
    const double at_base = median(times.at(base));
    best.clear();
    for (const auto& [cores, seconds] : times) best[cores] = median(seconds) / at_base;
  }
  return best;
}

// Runs borrowed from the relative (see RelativeKind): when the kind's own runs without fast chunks are at one core
// count, each of them scaled along the relative's curve to every other core count the relative ran at.
std::vector<knowledge::Measurement> borrowed_runs(const KindState& state, const std::vector<knowledge::Measurement>& own,
                                                  const knowledge::NodeShape& shape) {
  const std::set<int> cores = core_counts(own);
  if (!state.relative || cores.size() != 1) return {};
  const int base = *cores.begin();
  const std::map<int, double> curve = relative_curve(*state.relative, base);
  std::vector<knowledge::Measurement> borrowed;
  for (const knowledge::Measurement& run : own) {
    if (run.fast_chunks != 0) continue;
    for (const auto& [at, ratio] : curve) {
      if (at == base || at > shape.cores) continue;
      // A pair a factor apart either way, so that the fit carries the transfer's uncertainty rather than taking a
      // relative's curve for this kind's own measurements.
      for (const double factor : {std::exp(-kBorrowedLogSd), std::exp(kBorrowedLogSd)}) {
        borrowed.push_back({at, 0, run.work, run.seconds * ratio * factor});
      }
    }
  }
  return borrowed;
}

// What the kind is fitted on, and what a strategy takes as known: its runs, and those it borrows.
std::vector<knowledge::Measurement> runs_for_fit(const KindState& state, const knowledge::NodeShape& shape) {
  std::vector<knowledge::Measurement> runs = usable_runs(state, shape);
  const std::vector<knowledge::Measurement> borrowed = borrowed_runs(state, runs, shape);
  runs.insert(runs.end(), borrowed.begin(), borrowed.end());
  return runs;
}

// The relative of a command kind in `stored` (see RelativeKind): the one that ran at the most core counts (at least
// two), then the one with the most runs.
std::optional<RelativeKind> find_relative(const TaskKind& kind, const std::vector<KindKnowledge>& stored) {
  if (kind.identity.is_stream()) return std::nullopt;
  const KindKnowledge* best = nullptr;
  std::size_t best_cores = 1;
  for (const KindKnowledge& other : stored) {
    const CachedTask& task = other.task;
    if (task.is_stream() || task == kind.identity || task.argv.front() != kind.identity.argv.front() ||
        task.environment != kind.identity.environment || task.placement != kind.identity.placement) {
      continue;
    }
    const std::size_t cores = core_counts(other.measurements()).size();
    if (cores > best_cores || (best != nullptr && cores == best_cores && other.runs.size() > best->runs.size())) {
      best = &other;
      best_cores = cores;
    }
  }
  if (best == nullptr) return std::nullopt;
  RelativeKind relative;
  for (const std::string& word : best->task.argv) relative.command += (relative.command.empty() ? "" : " ") + word;
  for (const knowledge::Measurement& run : best->measurements()) {
    if (run.fast_chunks == 0) relative.runs.push_back(run);
  }
  return relative;
}

void fit_kind(KindState& state, const knowledge::NodeShape& shape, const knowledge::TaskFitOptions& options) {
  state.fits.clear();
  state.fit_notes.clear();
  const std::vector<knowledge::Measurement> runs = runs_for_fit(state, shape);
  state.borrows_curve = runs.size() > usable_runs(state, shape).size();
  if (runs.empty()) return;
  for (const double amount : state.kind.production) {
    knowledge::TaskWork work{amount, {}};
    for (const double profiling : state.kind.profiling) {
      if (profiling < amount) work.profiling.push_back(profiling);
    }
    try {
      state.fits[amount] = std::make_shared<const knowledge::FittedTask>(shape, work, runs, options);
    } catch (const InputError& e) {
      state.fit_notes.push_back(fmt::format("no fit at {:g}: {}", amount, e.what()));
    }
  }
}

// A fit over cores only, seen on a space of cores and fast chunks: the same time whatever the chunks.
class CoresOnlyProfile final : public sched::TimeProfile {
 public:
  CoresOnlyProfile(std::shared_ptr<const knowledge::FittedTask> fit, const knowledge::TimeChoice& times)
      : fit_(std::move(fit)), profile_(fit_->profile(times)) {}
  void fill_times(const sched::AllocationSpace& space, std::span<double> out) const override {
    std::vector<int> alloc(space.dimensions());
    for (std::size_t k = 0; k < space.size(); ++k) {
      space.decode(k, alloc);
      out[k] = time_at(space, alloc);
    }
  }
  [[nodiscard]] double time_at(const sched::AllocationSpace& /*space*/, std::span<const int> alloc) const override {
    const int cores[1] = {alloc[0]};
    return profile_->time_at(fit_->space(), cores);
  }

 private:
  std::shared_ptr<const knowledge::FittedTask> fit_;
  std::shared_ptr<const sched::TimeProfile> profile_;
};

std::shared_ptr<const sched::TimeProfile> profile_on(const sched::AllocationSpace& space,
                                                     const std::shared_ptr<const knowledge::FittedTask>& fit,
                                                     const knowledge::TimeChoice& times) {
  if (fit->space().dimensions() == space.dimensions()) return fit->profile(times);
  return std::make_shared<const CoresOnlyProfile>(fit, times);
}

// The guess for a task of a kind never measured: the median of the known tasks' one-core times, else of the kinds
// this node knows outside the batch (BatchKnowledge::node_task_seconds), else a second; and how far off it may be.
// The unknown task is taken as one more of the batch's tasks (or of the node's), so its ln time spreads around the
// guess as theirs do (their root mean square), never less than kUnknownLogSd: measured on this VM
// (bench/interval_coverage.py), short commands drawn into a batch of long programs ran at a tenth of the guess.
struct UnknownGuess {
  double seconds = 1.0;
  double log_sd = kNothingKnownLogSd;
};
UnknownGuess unknown_guess(const config::Workload& workload, const BatchKnowledge& known) {
  std::vector<double> known_times;
  for (const config::WorkloadTask& task : workload.tasks) {
    const KindState& state = known.of(task);
    const auto fit = state.fits.find(work_of(task));
    if (fit != state.fits.end()) known_times.push_back(fit->second->at(1, 0).seconds);
  }
  if (known_times.empty()) known_times = known.node_task_seconds;
  if (known_times.empty()) return {};
  const double guess = median(known_times);
  double squares = 0.0;
  for (const double t : known_times) squares += std::log(t / guess) * std::log(t / guess);
  return {guess, std::max(kUnknownLogSd, std::sqrt(squares / static_cast<double>(known_times.size())))};
}

// The probe of a kind as the instance reads it, at the amount `work` its task runs: the probed runs scaled by the
// fit's time at the probe's allocation (the bytes a run moves grow with its work as its time does).
std::optional<PairedProbe> probe_for(const KindState& state, double work) {
  if (!state.known.probe) return std::nullopt;
  const auto fit = state.fits.find(work);
  if (fit == state.fits.end()) return std::nullopt;
  const KnownProbe& probe = *state.known.probe;
  const double alone = fit->second->at(static_cast<int>(probe.cores), 0).seconds;
  const double scale = alone / probe.alone_s;
  return PairedProbe{probe.cores, alone, probe.paired_s * scale, probe.paired_min_s * scale,
                     probe.paired_max_s * scale};
}

// Where a plan of what is known puts each kind (its largest task) and the plan's predicted makespan: what the
// adaptive strategy refines and what the auto budget is a share of. Chosen on the expected times and predicted on
// the medians as the launch runs it, greedily, as workflow/src/batch_plan.cpp plans (its starts were planned on
// the longer times: kept, they would add their waits to the prediction).
struct KnownPlan {
  double makespan = 0.0;
  std::map<std::string, knowledge::PlannedAllocation> allocation;  // by kind name
};

KnownPlan plan_known(const config::Workload& workload, const BatchKnowledge& known,
                     const config::PlatformConfig& platform, bool places_commands) {
  const sched::Instance medians = knowledge_instance(workload, known, platform, nullptr, places_commands).instance;
  const sched::Instance expected =
      knowledge_instance(workload, known, platform, nullptr, places_commands, knowledge::kExpectedTimes).instance;
  sched::Schedule planned = sched::retimed(
      medians,
      sched::plan(sched::find_algorithm(kLearningPlanner), expected, sched::lower_bound(medians)).schedule);
  planned.launch_rule = "greedy";  // the learning planner's plans are lists
  KnownPlan result{sim::predict(sim::plan_from_schedule(medians, planned), "auto").observed_makespan, {}};
  for (std::size_t j = 0; j < workload.tasks.size(); ++j) {
    const config::WorkloadTask& task = workload.tasks[j];
    const KindState& state = known.of(task);
    if (work_of(task) != state.kind.largest()) continue;
    const std::vector<int>& alloc = planned.tasks[j].alloc;
    result.allocation[state.kind.name] = {alloc[0], alloc.size() > 1 ? alloc[1] : 0};
  }
  return result;
}

// The makespan of a plan of what is known for sure: every fitted time one sd up, planned and predicted on those.
double cautious_makespan(const config::Workload& workload, const BatchKnowledge& known,
                         const config::PlatformConfig& platform, bool places_commands) {
  const sched::Instance cautious =
      knowledge_instance(workload, known, platform, nullptr, places_commands, knowledge::cautious_times(1.0))
          .instance;
  return sched::plan(sched::find_algorithm(kLearningPlanner), cautious, sched::lower_bound(cautious))
      .schedule.makespan;
}

// A kind's share of the batch: what its tasks take on one core by what is known (0 when unknown).
double kind_weight(const config::Workload& workload, const BatchKnowledge& known, const KindState& state) {
  double total = 0.0;
  for (const config::WorkloadTask& task : workload.tasks) {
    if (&known.of(task) != &state) continue;
    const auto fit = state.fits.find(work_of(task));
    if (fit != state.fits.end()) total += fit->second->at(1, 0).seconds;
  }
  return total;
}

// The memory-demand probe of a command that is known and was never probed, when the budget allows it: two copies
// side by side on half the cores each, after the same run alone (about 2.5 runs), at the kind's least amount of
// work. Its traffic then takes part in the contention-aware prediction.
void probe_commands(BatchKnowledge& known, const detail::KindRunner& runner, const config::PlatformConfig& platform,
                    const ProfileCache& cache, Reporter* reporter) {
  const unsigned cores = platform.cores / 2;
  if (cores == 0) return;
  for (std::size_t k = 0; k < known.kinds.size(); ++k) {
    KindState& state = known.kinds[k];
    if (state.kind.task.is_stream() || state.known.probe || state.fits.empty()) continue;
    const double work = state.kind.profiling.empty() ? state.kind.production.front() : state.kind.profiling.back();
    // Two runs one after the other (the pair's copies side by side), each paying the overhead of a run.
    const double alone_s = state.fits.begin()->second->estimate_seconds(static_cast<int>(cores), 0, work);
    const double cost = 2.0 * known.expected_run_cost(k, 1.25 * alone_s);
    if (!(cost <= known.budget_s - known.spent_s)) {
      known.stopped_by_budget = true;
      continue;
    }
    std::string why;
    const auto begin = Clock::now();
    std::optional<KnownProbe> probe = runner.probe(state.kind, cores, work, why);
    known.count_run(k, std::nullopt, std::chrono::duration<double>(Clock::now() - begin).count());
    if (!probe) {
      state.notes.push_back(fmt::format("its memory-demand probe failed ({}): it is taken not to contend", why));
      continue;
    }
    state.known.probe = *probe;
    store_knowledge(cache, state.known);  // as soon as it is measured, as a run is (learn_batch)
    ++state.measured_now;
    if (reporter != nullptr) {
      reporter->note(fmt::format("probed {}: two copies side by side ({} core{} each) took {:.2f} x as long as one "
                                 "alone",
                                 state.kind.name, cores, cores == 1 ? "" : "s", probe->paired_s / probe->alone_s));
    }
  }
}

// The first short runs of a batch with nothing of it known (learning.hpp, ProfileBudget::first_runs_share): of each
// kind whose first short runs (knowledge::first_short_runs) take at most `share` of its tasks' work together, those
// two runs; the kinds with the most tasks first (in the file's order among equals). Every such kind, not one: a
// kind left unknown runs on one core at a guess, which on a large node is far worse than the naive way's share (in
// the simulated KNL study, the first short runs of one kind made the first batch 7.4 x the exhaustive plan, the
// naive way's 4.3 x).
struct FirstRuns {
  std::size_t kind = 0;
  std::vector<knowledge::PlannedRun> runs;
  double share = 0.0;  // of its tasks' work
  std::size_t tasks = 0;
};
std::vector<FirstRuns> choose_first_runs(const config::Workload& workload, const BatchKnowledge& known,
                                         const knowledge::MeasurementStrategy& strategy,
                                         const LearningOptions& options) {
  std::vector<FirstRuns> chosen;
  for (std::size_t k = 0; k < known.kinds.size(); ++k) {
    const KindState& state = known.kinds[k];
    if (state.kind.profiling.empty() || state.known_at_all()) continue;
    FirstRuns first{k, {}, 0.0, 0};
    double work = 0.0;
    for (const config::WorkloadTask& task : workload.tasks) {
      if (&known.of(task) != &state) continue;
      work += work_of(task);
      ++first.tasks;
    }
    knowledge::StrategyInput input;
    input.node = shape_of(state.kind, options.launched.platform, options.tier_places_commands);
    input.work = {state.kind.largest(), state.kind.profiling};
    input.options = options.strategy_options;
    first.runs = knowledge::first_short_runs(strategy, input);
    if (first.runs.empty()) continue;
    first.share = (first.runs[0].work + first.runs[1].work) / work;
    if (first.share <= options.budget.first_runs_share) chosen.push_back(std::move(first));
  }
  std::stable_sort(chosen.begin(), chosen.end(),
                   [](const FirstRuns& a, const FirstRuns& b) { return a.tasks > b.tasks; });
  return chosen;
}

std::string describe_run(const TaskKind& kind, const knowledge::PlannedRun& run) {
  return fmt::format("{} on {} core{}{}{}", kind.name, run.cores, run.cores == 1 ? "" : "s",
                     run.fast_chunks > 0 ? fmt::format(" + {} fast chunks", run.fast_chunks) : "",
                     kind.task.is_stream() ? fmt::format(", {:g} passes", run.work)
                     : kind.task.work      ? fmt::format(", work {:g}", run.work)
                                           : "");
}

}  // namespace

double BatchKnowledge::expected_run_cost(std::size_t kind, double estimated_s) const {
  const KindState& state = kinds.at(kind);
  if (state.run_overhead_s) return estimated_s + *state.run_overhead_s;
  double overhead = run_overhead_s().value_or(recorded_run_overhead_s.value_or(0.0));
  if (warm_up_s_per_byte && state.kind.task.is_stream()) {
    overhead = std::max(overhead, *warm_up_s_per_byte * static_cast<double>(state.kind.task.footprint_bytes));
  }
  return estimated_s + overhead;
}

void BatchKnowledge::count_run(std::size_t kind, std::optional<double> measured_s, double wall_s,
                               std::optional<double> stopped_at_s) {
  spent_s += wall_s;
  ++runs;
  const std::optional<double> ran_s = measured_s ? measured_s : stopped_at_s;
  if (!ran_s) return;
  std::optional<double>& overhead = kinds.at(kind).run_overhead_s;
  overhead = std::max(overhead.value_or(0.0), std::max(0.0, wall_s - *ran_s));
}

std::optional<double> BatchKnowledge::run_overhead_s() const {
  std::optional<double> largest;
  for (const KindState& state : kinds) {
    if (state.run_overhead_s) largest = std::max(largest.value_or(0.0), *state.run_overhead_s);
  }
  return largest;
}

std::size_t BatchKnowledge::unknown_kinds() const {
  return static_cast<std::size_t>(
      std::count_if(kinds.begin(), kinds.end(), [](const KindState& state) { return !state.known_at_all(); }));
}

const KindState& BatchKnowledge::of(const config::WorkloadTask& task) const {
  for (const KindState& state : kinds) {
    if (task.is_stream() ? (state.kind.task.is_stream() && state.kind.task.kernel == task.kernel &&
                            state.kind.task.footprint_bytes == task.footprint_bytes)
                         : (!state.kind.task.is_stream() && state.kind.name == task.profile)) {
      return state;
    }
  }
  throw std::logic_error("a task of the batch without its kind: " + task.id);
}

std::string allocation_words(const std::vector<int>& alloc) {
  std::string words = fmt::format("{} core{}", alloc.at(0), alloc[0] == 1 ? "" : "s");
  if (alloc.size() > 1 && alloc[1] > 0) words += fmt::format(" + {} fast chunk{}", alloc[1], alloc[1] == 1 ? "" : "s");
  return words;
}

KindState& BatchKnowledge::of(const config::WorkloadTask& task) {
  return const_cast<KindState&>(std::as_const(*this).of(task));
}

void add_observed_run(BatchKnowledge& known, const config::WorkloadTask& task, const std::vector<int>& allocation,
                      double seconds, const LearningOptions& options) {
  if (allocation.empty() || allocation[0] < 1 || !(seconds >= kMinRunSeconds)) return;
  KindState& state = known.of(task);
  const int chunks = allocation.size() > 1 ? allocation[1] : 0;
  state.known.add({{allocation[0], chunks, work_of(task), seconds}, RunSource::observed,
                   iso8601_utc(std::chrono::system_clock::now())});
  fit_kind(state, shape_of(state.kind, options.launched.platform, options.tier_places_commands), options.fit);
  if (allocation[0] == 1 && chunks == 0) known.node_task_seconds.push_back(seconds);
}

BatchKnowledge learn_batch(config::Workload& workload, const ProfileCache& cache, const LearningOptions& options) {
  Reporter* reporter = options.launched.reporter;
  const auto say = [&](const std::string& line) {
    if (reporter != nullptr) reporter->note(line);
  };
  const config::PlatformConfig& platform = options.launched.platform;
  BatchKnowledge known;
  const std::vector<TaskKind> kinds = task_kinds(workload, options.launched.tier.command_placement);
  const knowledge::MeasurementStrategy& strategy = knowledge::find_measurement_strategy(options.strategy);
  const FileLock lock = cache.lock([&](const std::string& holder) {
    say(fmt::format("waiting for the profile cache of this node: {} holds it", holder));
  });
  check_knowledge_store(cache);
  const std::vector<KindKnowledge> stored = stored_knowledge(cache);
  if (!options.forget) known.node_task_seconds = node_task_seconds(stored);
  known.recorded_run_overhead_s = recent_run_overhead(cache);
  if (ProcessMeasurer::warms_up_memory()) known.warm_up_s_per_byte = recent_warm_up_seconds_per_byte(cache);
  for (const TaskKind& kind : kinds) {
    KnowledgeLookup found = look_up_knowledge(cache, kind.identity);
    if (options.forget && !found.knowledge.runs.empty()) {
      found.knowledge.runs.clear();
      found.knowledge.probe.reset();
      found.note = "--reprofile: what was known of it is set aside";
    }
    KindState state{kind, std::move(found.knowledge), std::move(found.note), 0, 0.0, {}, {}, std::nullopt,
                    options.forget ? std::nullopt : find_relative(kind, stored), false, {}};
    fit_kind(state, shape_of(kind, platform, options.tier_places_commands), options.fit);
    known.kinds.push_back(std::move(state));
  }
  for (const KindState& state : known.kinds) {
    if (!state.note.empty()) say(fmt::format("{}: {}", state.kind.name, state.note));
  }

  const detail::KindRunner runner(options.launched);
  // Ctrl-C (SIGINT, SIGTERM): the run being measured finishes, what was measured is stored, nothing of the batch runs.
  const StopSignals stop;
  // One run of kinds[k] within `deadline_s` (nullopt: the task's own timeout), counted, stored as soon as it is
  // measured (whole, under the cache's lock: a run killed — SIGKILL, a crash — loses only the run in progress, not
  // every run of this call), told, and fitted. False when it did not end well (then a note, and no more of it).
  const auto measure = [&](std::size_t k, const knowledge::PlannedRun& run, std::optional<double> deadline_s) {
    KindState& state = known.kinds[k];
    std::string why;
    const auto begin = Clock::now();
    const std::optional<double> seconds = runner.run(state.kind, run, deadline_s, why);
    known.count_run(k, seconds, std::chrono::duration<double>(Clock::now() - begin).count(), deadline_s);
    if (!seconds) {
      state.notes.push_back(fmt::format("a profiling run ({}) did not end well ({}): no more runs of it",
                                        describe_run(state.kind, run), why));
      return false;
    }
    state.known.add({{run.cores, run.fast_chunks, run.work, *seconds},
                     RunSource::profiled,
                     iso8601_utc(std::chrono::system_clock::now())});
    store_knowledge(cache, state.known);
    ++state.measured_now;
    state.measured_s += *seconds;
    if (reporter != nullptr) {
      Progress progress;
      progress.operation = "profile";
      progress.style = ProgressStyle::log;
      progress.done = known.runs;
      progress.elapsed_s = known.spent_s;
      progress.event = fmt::format("measured {}: {:.3g} s", describe_run(state.kind, run), *seconds);
      progress.fields = {{"kind", state.kind.name}, {"cores", run.cores}, {"chunks", run.fast_chunks},
                         {"work", run.work},        {"seconds", *seconds}, {"budget_s", known.budget_s},
                         {"spent_s", known.spent_s}};
      reporter->progress(progress);
    }
    fit_kind(state, shape_of(state.kind, platform, options.tier_places_commands), options.fit);
    return true;
  };

  // The budget. A plan can be made once a kind is known: the kinds never measured are in it at the guess
  // (knowledge_instance), one more task of the batch each.
  const auto plannable = [&] { return known.unknown_kinds() < known.kinds.size(); };
  if (known.unknown_kinds() > 0 && !options.budget.seconds) {
    // Each kind never measured that says how its work scales is measured first by two short runs when they cost a
    // small share of its tasks (ProfileBudget::first_runs_share): with nothing of the batch known, for a plan and a
    // budget's scale; beside known kinds, so that every new kind enters the plan measured and the budget is set on
    // what is known — paid from the budget, a new kind came first but a plan with it on one core at the guess set
    // the budget at up to 3 x the batch's makespan (bench/results/2026-11-30-first-short-runs-new-kinds.md).
    const bool nothing_known = !plannable();
    const std::vector<FirstRuns> first = choose_first_runs(workload, known, strategy, options);
    std::vector<std::string> told;
    for (const FirstRuns& kind : first) {
      for (const knowledge::PlannedRun& run : kind.runs) {
        if (stop.requested() || !measure(kind.kind, run, std::nullopt)) break;
      }
      const KindState& state = known.kinds[kind.kind];
      told.push_back(fmt::format("{} ({:.0f} % of its tasks' work{})", state.kind.name, 100.0 * kind.share,
                                 state.known_at_all() ? "" : ", not enough to fit it"));
    }
    if (!first.empty()) {
      const std::string measured = nothing_known
                                       ? fmt::format("nothing of the batch was known: {} kind(s)", first.size())
                                       : fmt::format("{} kind(s) never measured", first.size());
      say(fmt::format("{} that say how their work scales measured first by two short runs each, {:.3g} s{}: {}",
                      measured, known.spent_s, nothing_known ? ", for a plan and a budget's scale" : "",
                      fmt::join(told, ", ")));
    }
  }
  const std::size_t unknown = known.unknown_kinds();
  std::optional<KnownPlan> plan;
  std::optional<double> cautious;  // planned on every fit one sd up: what knowing more may save
  // What runs of the kinds known before this call may spend (an automatic budget beside kinds never measured).
  double known_kinds_cap_s = std::numeric_limits<double>::infinity();
  if (plannable()) {
    plan = plan_known(workload, known, platform, options.tier_places_commands);
    cautious = cautious_makespan(workload, known, platform, options.tier_places_commands);
  }
  if (options.budget.seconds) {
    known.budget_s = *options.budget.seconds;
    known.budget_why = "--profile-budget";
  } else if (!plan) {
    known.budget_s = 0.0;
    known.budget_why = fmt::format("{} kind(s) never measured: nothing of the batch is known, so its cost cannot be "
                                   "told before it runs; it runs the naive way and is learnt from this run "
                                   "(--profile-budget S measures its kinds first)",
                                   unknown);
  } else {
    known.share_s = options.budget.share * plan->makespan;
    const double saved = std::min(saved_profiling_budget(cache, workload.name),
                                  options.budget.max_saved_shares * *known.share_s);
    known.budget_s = *known.share_s + saved;
    known.budget_why = fmt::format(
        "{:.0f} % of the batch's predicted {:.3g} s{}{}", 100.0 * options.budget.share, plan->makespan,
        unknown > 0 ? fmt::format(" with its {} kind(s) never measured at a guessed {:.3g} s a task", unknown,
                                  unknown_guess(workload, known).seconds)
                    : "",
        saved > 0.0 ? fmt::format(", and {:.3g} s its earlier runs saved", saved) : "");
    // Never more than knowing may save: with every kind known, the plan on every fit one sd up is what the fits'
    // uncertainty may cost, and no run can save more. (A kind never measured is at the guess in both plans, so its
    // risk is not in the difference: then the share alone.)
    const double may_save = std::max(0.0, *cautious - plan->makespan);
    if (unknown == 0 && may_save < known.budget_s) {
      known.budget_s = may_save;
      known.budget_why += fmt::format("; at most what knowing more may save, {:.2g} s", may_save);
    } else if (unknown > 0 && may_save < known.budget_s) {
      // The rest is for the kinds never measured: a run of a kind already known can save no more than the known
      // kinds' risk, which is the difference (theirs at the guess in both plans). Without this cap, a new kind too
      // dear for the budget left it to known kinds: the debian batch with one program new spent 0.95-1.0 s on zstd
      // runs after saying knowing more may save up to 0.21 s.
      known_kinds_cap_s = may_save;
      known.budget_why += fmt::format("; on the kinds already known at most what knowing more of them may save, "
                                      "{:.2g} s",
                                      may_save);
    }
    if (known.spent_s > 0.0) {
      known.budget_why += fmt::format("; its first short runs spent {:.3g} s of it", known.spent_s);
    }
  }

  // Said up front: what is known, what knowing more may cost, and what it may save.
  std::size_t observed = 0, profiled = 0;
  for (const KindState& state : known.kinds) {
    observed += state.known.count(RunSource::observed);
    profiled += state.known.count(RunSource::profiled);
  }
  std::string saving;
  if (plan) {
    saving = fmt::format("; planned on what is known for sure (every fit one sd up) the batch takes {:.3g} s, on "
                         "the fits' medians {:.3g} s: knowing more may save up to {:.2g} s",
                         *cautious, plan->makespan, std::max(0.0, *cautious - plan->makespan));
  }
  say(fmt::format("knowing: {} of {} task kind(s) known ({} run(s) observed in earlier batches, {} profiled); "
                  "profiling budget {:.3g} s ({}){}",
                  known.kinds.size() - unknown, known.kinds.size(), observed, profiled, known.budget_s,
                  known.budget_why, saving));

  // The strategy's runs, the kinds that weigh most first, one run at a time, within the budget.
  std::vector<bool> done(known.kinds.size(), false);
  std::vector<bool> known_before(known.kinds.size(), false);  // the kinds known_kinds_cap_s bounds
  for (std::size_t k = 0; k < known.kinds.size(); ++k) known_before[k] = known.kinds[k].known_at_all();
  double spent_on_known_s = 0.0;
  const auto allowance = [&](std::size_t k, double remaining) {  // what a run of kind k may cost now
    return known_before[k] ? std::min(remaining, known_kinds_cap_s - spent_on_known_s) : remaining;
  };
  bool capped_known = false;  // a known kind's run was left to the kinds never measured
  std::map<std::tuple<std::size_t, int, int, double>, int> repeats;  // runs per (kind, cores, chunks, work) here
  while (known.budget_s - known.spent_s > 0.0 && !stop.requested()) {
    std::vector<std::size_t> order(known.kinds.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    // A kind never measured first: its tasks would run on one core at a guess, the plan's largest risk (in the
    // simulated study a new program's tasks on one core set the makespan, up to 11.5 x the exhaustive plan's).
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      const bool known_a = known.kinds[a].known_at_all(), known_b = known.kinds[b].known_at_all();
      if (known_a != known_b) return known_b;
      return kind_weight(workload, known, known.kinds[a]) > kind_weight(workload, known, known.kinds[b]);
    });
    const double remaining = known.budget_s - known.spent_s;
    std::optional<std::pair<std::size_t, knowledge::PlannedRun>> next;
    for (const std::size_t k : order) {
      if (done[k]) continue;
      KindState& state = known.kinds[k];
      const knowledge::NodeShape shape = shape_of(state.kind, platform, options.tier_places_commands);
      knowledge::StrategyInput input;
      input.node = shape;
      input.work = {state.kind.largest(), state.kind.profiling};
      input.known = runs_for_fit(state, shape);
      const auto fit = state.fits.find(state.kind.largest());
      if (fit != state.fits.end()) input.fit = fit->second.get();
      if (plan) {
        const auto at = plan->allocation.find(state.kind.name);
        if (at != plan->allocation.end()) input.planned = at->second;
      }
      input.options = options.strategy_options;
      const std::vector<knowledge::PlannedRun> runs = strategy.next_runs(input);
      if (runs.empty()) {
        done[k] = true;
        continue;
      }
      const knowledge::PlannedRun& run = runs.front();
      // A point whose runs do not settle (noise far above the strategy's tolerance) is not measured for ever: at
      // most `repetitions` times in one call, then the kind is as known as this node lets it be.
      if (repeats[{k, run.cores, run.fast_chunks, run.work}] >= std::max(1, options.strategy_options.repetitions)) {
        done[k] = true;
        continue;
      }
      double estimated_s = run.estimated_seconds;
      if (std::isnan(estimated_s) && !options.budget.seconds && plan) {
        // An automatic budget prices a kind never measured as the plan does: one more task of the batch at the
        // guess, the run's share of its largest task's work (a short run of a kind that says how its work scales
        // costs a part of a production run whatever its speed-up), its overhead as a run's (expected_run_cost). The
        // runner stops it at what is left.
        estimated_s = unknown_guess(workload, known).seconds * run.work / state.kind.largest();
      }
      const bool unknown_cost = std::isnan(estimated_s);
      const double allowed = allowance(k, remaining);
      if ((unknown_cost && !options.budget.seconds) ||
          (!unknown_cost && known.expected_run_cost(k, estimated_s) > allowed)) {
        known.stopped_by_budget = true;
        capped_known = capped_known || (!unknown_cost && known.expected_run_cost(k, estimated_s) <= remaining);
        continue;
      }
      next.emplace(k, run);
      break;
    }
    if (!next) break;
    const KindState& state = known.kinds[next->first];
    const knowledge::PlannedRun& run = next->second;
    ++repeats[{next->first, run.cores, run.fast_chunks, run.work}];
    const bool was_known = state.known_at_all();
    const double spent_before = known.spent_s;
    const bool measured = measure(next->first, run, allowance(next->first, remaining));
    if (known_before[next->first]) spent_on_known_s += known.spent_s - spent_before;
    if (!measured) {
      done[next->first] = true;
      continue;
    }
    // Newly known kinds, or the plan moving, change which runs matter: the plan follows what was learnt.
    if (plannable() && (!plan || !was_known || state.measured_now % 2 == 0)) {
      plan = plan_known(workload, known, platform, options.tier_places_commands);
    }
  }
  if (reporter != nullptr && known.runs > 0) reporter->progress_done("profile");
  if (known.budget_s - known.spent_s > 0.0 && !stop.requested()) {
    probe_commands(known, runner, platform, cache, reporter);
  }
  if (known.runs > 0 || known.stopped_by_budget) {
    std::string stopped;
    if (known.stopped_by_budget) {
      stopped = "; stopped there: more runs would have cost more than what was left";
      if (capped_known) stopped += ", or, of the kinds already known, more than knowing more of them may save";
    }
    say(fmt::format("profiled {} run(s) in {:.3g} s of the {:.3g} s budget{}", known.runs, known.spent_s,
                    known.budget_s, stopped));
  }

  for (const KindState& state : known.kinds) {
    for (const std::string& note : state.notes) say(fmt::format("{}: {}", state.kind.name, note));
    for (const std::string& note : state.fit_notes) say(fmt::format("{}: {}", state.kind.name, note));
    if (state.borrows_curve) {
      say(fmt::format("{}: its speed-up over cores is borrowed from a relative ({}: the same program, other "
                      "arguments), scaled by its own run(s) on {} core(s)",
                      state.kind.name, bounded_echo(state.relative->command),
                      *core_counts(usable_runs(state, shape_of(state.kind, platform, options.tier_places_commands)))
                           .begin()));
    }
  }
  if (stop.requested()) {
    throw RuntimeFailure(fmt::format("interrupted while measuring the batch's kinds: the {} run(s) measured are kept "
                                     "in {}, nothing of the batch ran; the same command continues from them",
                                     known.runs, (cache.node_folder() / "knowledge").string()));
  }
  return known;
}

KnowledgeInstance knowledge_instance(const config::Workload& workload, const BatchKnowledge& known,
                                     const config::PlatformConfig& platform, const NodeBandwidth* bandwidth,
                                     bool tier_places_commands, const knowledge::TimeChoice& choice) {
  std::vector<sched::Resource> resources{{std::string(sched::kCoresResource), static_cast<int>(platform.cores)}};
  if (platform.fast_chunks > 0) {  // a node without a fast tier schedules cores only
    resources.push_back({std::string(sched::kFastChunksResource), static_cast<int>(platform.fast_chunks)});
  }
  const sched::AllocationSpace space(sched::capacities_of(resources));
  const UnknownGuess guess = unknown_guess(workload, known);
  const sched::BandwidthModel model =
      bandwidth != nullptr ? batch_bandwidth_model(*bandwidth, workload) : sched::BandwidthModel{};
  nlohmann::json command_traffic_found = nlohmann::json::object();
  nlohmann::json stream_traffic_found = nlohmann::json::object();
  std::vector<sched::Task> tasks;
  std::vector<std::vector<double>> log_sd;
  std::vector<std::vector<double>> log_gain_bound;
  const double tier_gain = fast_tier_log_gain(platform, bandwidth);
  std::vector<int> alloc(space.dimensions());
  for (const config::WorkloadTask& task : workload.tasks) {
    const KindState& state = known.of(task);
    const double amount = work_of(task);
    const auto fit = state.fits.find(amount);
    nlohmann::json attributes = task;  // what it runs, by the workload schema's one writer (config::to_json)
    attributes.erase("id");
    std::vector<double> sd(space.size(), 0.0);
    std::vector<double> gain(space.size(), 0.0);
    std::shared_ptr<const sched::TimeProfile> profile;
    if (fit != state.fits.end()) {
      profile = profile_on(space, fit->second, choice);
      const bool fast_memory_known = fit->second->fast_memory().measured();
      for (std::size_t k = 0; k < space.size(); ++k) {
        space.decode(k, alloc);
        if (alloc[0] == 0) continue;
        const int chunks = fit->second->space().dimensions() > 1 && alloc.size() > 1 ? alloc[1] : 0;
        sd[k] = fit->second->interval_log_sd(alloc[0], chunks);
        if (chunks > 0 && !fast_memory_known) gain[k] = tier_gain;
      }
    } else {
      // Never measured: a safe allocation only — one core, no fast chunk — at the guess; and the naive way's even
      // share of the node when the batch has fewer tasks than cores (sched::naive_cores), at the same guess: no
      // speed-up is assumed, the cores would idle otherwise.
      std::vector<double> times(space.size(), std::numeric_limits<double>::infinity());
      std::vector<int> safe(space.dimensions(), 0);
      for (const int cores : {1, sched::naive_cores(static_cast<int>(platform.cores), workload.tasks.size())}) {
        safe[0] = cores;
        times[space.index_of(safe)] = guess.seconds;
      }
      profile = std::make_shared<sched::DenseTimeTable>(space, std::move(times));
      std::fill(sd.begin(), sd.end(), guess.log_sd);
      attributes[std::string(kGuessedAttribute)] = true;
    }
    std::shared_ptr<const sched::TrafficTable> traffic;
    if (bandwidth != nullptr && fit != state.fits.end()) {
      traffic = task_traffic(task, probe_for(state, amount), !task.is_stream() && tier_places_commands, model,
                             *bandwidth, platform, task.is_stream() ? stream_traffic_found : command_traffic_found);
    }
    tasks.push_back({task.id, std::move(profile), std::move(attributes), std::move(traffic)});
    log_sd.push_back(std::move(sd));
    log_gain_bound.push_back(std::move(gain));
  }
  sched::Instance instance =
      assemble_batch_instance(std::move(resources), std::move(tasks), workload, platform, model,
                              std::move(command_traffic_found), std::move(stream_traffic_found));
  const bool commands_only = std::none_of(workload.tasks.begin(), workload.tasks.end(),
                                          [](const config::WorkloadTask& task) { return task.is_stream(); });
  if (commands_only && !tier_places_commands && instance.resources().size() > 1) {
    // Cores only: the chunks = 0 column of every table (one resource, its allocation index the core count).
    const auto cores_column = [&](const std::vector<std::vector<double>>& tables) {
      std::vector<std::vector<double>> columns;
      for (const auto& table : tables) {
        std::vector<double> column;
        for (int cores = 0; cores <= static_cast<int>(platform.cores); ++cores) {
          const int at[2] = {cores, 0};
          column.push_back(table[space.index_of(at)]);
        }
        columns.push_back(std::move(column));
      }
      return columns;
    };
    return {sched::leading_resources(instance, 1), cores_column(log_sd), cores_column(log_gain_bound)};
  }
  return {std::move(instance), std::move(log_sd), std::move(log_gain_bound)};
}

std::set<std::string> guessed_tasks(const sched::Instance& instance, const std::string& source) {
  std::set<std::string> guessed;
  for (const sched::Task& task : instance.tasks()) {
    if (!task.attributes.is_object()) continue;  // null: no attributes, so not guessed
    const auto found = task.attributes.find(kGuessedAttribute);
    if (found == task.attributes.end()) continue;
    if (!found->is_boolean()) {
      throw InputError(source, fmt::format("task \"{}\": \"{}\" must be true or false (whether its times were a "
                                           "guess), got {}",
                                           task.id, kGuessedAttribute, bounded_echo(found->dump())));
    }
    if (found->get<bool>()) guessed.insert(task.id);
  }
  return guessed;
}

std::vector<double> node_task_seconds(const std::vector<KindKnowledge>& stored) {
  std::vector<double> seconds;
  for (const KindKnowledge& kind : stored) {
    std::vector<double> at_most_work;
    double most_work = 0.0;
    for (const KnownRun& known : kind.runs) {
      if (known.run.cores != 1 || known.run.fast_chunks != 0 || known.run.work < most_work) continue;
      if (known.run.work > most_work) at_most_work.clear();
      most_work = known.run.work;
      at_most_work.push_back(known.run.seconds);
    }
    if (!at_most_work.empty()) seconds.push_back(median(at_most_work));
  }
  return seconds;
}

double fast_tier_log_gain(const config::PlatformConfig& platform, const NodeBandwidth* bandwidth) {
  if (bandwidth != nullptr && bandwidth->fast_pool != bandwidth->slow_pool) {
    return std::max(0.0, std::log(bandwidth->model.peak(bandwidth->fast_pool) /
                                  bandwidth->model.peak(bandwidth->slow_pool)));
  }
  return std::max(0.0, std::log(platform.emulation_ratio));
}

sched::Schedule naive_schedule(const sched::Instance& instance) {
  std::vector<int> each(instance.dimensions(), 0);
  each.front() = sched::naive_cores(instance.resources().front().capacity, instance.task_count());
  sched::Schedule schedule = sched::naive_schedule(instance, sched::file_order(instance.task_count()), each);
  schedule.lower_bound = sched::lower_bound(instance);
  return schedule;
}

std::size_t learn_from_launch(const config::Workload& workload, const std::vector<ObservedTask>& observed,
                              const ProfileCache& cache, const std::string& placement) {
  config::Workload batch = workload;
  const std::vector<TaskKind> kinds = task_kinds(batch, placement);
  const FileLock lock = cache.lock([](const std::string&) {});
  std::map<std::string, KindKnowledge> updated;  // by kind name
  std::size_t learnt = 0;
  for (const ObservedTask& ran : observed) {
    const auto task = std::find_if(batch.tasks.begin(), batch.tasks.end(),
                                   [&](const config::WorkloadTask& t) { return t.id == ran.id; });
    if (task == batch.tasks.end() || !(ran.seconds * ran.contention_factor >= kMinRunSeconds) ||
        ran.allocation.empty() || ran.allocation[0] < 1) {
      continue;
    }
    const TaskKind& kind = kind_of(kinds, *task, placement);
    auto [entry, fresh] = updated.try_emplace(kind.name);
    if (fresh) entry->second = look_up_knowledge(cache, kind.identity).knowledge;
    const int chunks = ran.allocation.size() > 1 ? ran.allocation[1] : 0;
    entry->second.add({{ran.allocation[0], chunks, work_of(*task), ran.seconds * ran.contention_factor},
                       RunSource::observed,
                       iso8601_utc(std::chrono::system_clock::now())});
    ++learnt;
  }
  for (const auto& [name, knowledge] : updated) store_knowledge(cache, knowledge);
  return learnt;
}

}  // namespace cosched::profiler
