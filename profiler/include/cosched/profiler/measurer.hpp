#pragma once
// The seam between the sweep and whatever produces times: a PointMeasurer times one point (real stream kernels,
// whole stream_bench processes, or the KNL bandwidth model). The sweep loop, CSV, resume and progress are shared
// by all of them; a sweep chooses one by name (`cosched profile --measurer NAME`).
#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cosched/config/platform.hpp"
#include "cosched/profiler/command_spec.hpp"
#include "cosched/profiler/profile.hpp"

namespace cosched::profiler {

struct Measurement {
  std::vector<double> times_s;   // one entry per timed repetition
  // A measurer that times runs at two pass counts: each repetition's fixed cost (ProfileRow::fixed_s is their
  // median); empty otherwise.
  std::vector<double> fixed_s;
  // The memory-demand probe (CommandMeasurer, ProcessMeasurer): for each copy of each paired run, its time over
  // the time of the same run alone just before — a ratio within one moment of the machine, as speeds here must be
  // compared. ProfileRow::paired_s is time_s x their median, paired_min_s and paired_max_s time_s x their extremes;
  // empty where not probed.
  std::vector<double> paired_slowdowns;
  double overhead_free_s = 0.0;  // time the kernels themselves ran (timed reps + warm-ups), for overhead accounting
  // How the point's arrays were obtained: a new allocation with its first touch, a split moved in place, or as
  // the previous point left them. Only the stream measurer sets these.
  bool allocated = false;
  bool resplit = false;
  // A point that could not be measured (a command that failed, hung or was not found): the row's status
  // (ProfileRow::status) and a message naming the point and the cause; times_s is then ignored.
  std::string failure;
  std::string failure_message;
  // What the user should know of a point that was measured, naming the point ("" if nothing): e.g. a cost per
  // pass the runs did not resolve (ProcessMeasurer).
  std::string note;
};

class PointMeasurer {
 public:
  virtual ~PointMeasurer() = default;
  [[nodiscard]] virtual std::string_view name() const = 0;
  // Throws UsageError when this measurer cannot run `kernel`.
  virtual void check_kernel(const std::string& kernel) const = 0;
  [[nodiscard]] virtual Measurement measure(const ProfilePoint& point) = 0;
  // Called once after the last point of a sweep (also an interrupted one): a measurer that keeps state across
  // points (the stream measurer's session) finishes it here and throws RuntimeFailure if that finds a problem.
  virtual void finish() {}
  // Context for the sidecar: tier backend, emulation ratio, host topology summary, ...
  [[nodiscard]] virtual nlohmann::json describe() const = 0;
  // False when this measurer cannot give a point its fast chunks here (commands on a node without a tier that
  // places them): the sweep then measures chunks = 0 only, and the sidecar says why (describe()).
  [[nodiscard]] virtual bool varies_fast_memory() const { return true; }
};

// The kernel passes of one timed run, for a measurer that times whole tasks: one count — a point's time per pass
// is then the run's time / passes, what the run pays once spread over its passes — or two, low < high: each point
// is timed at both, the difference gives the cost of a pass (ProfileRow::time_s) and the rest what a run pays
// whatever its passes (ProfileRow::fixed_s), so that a task of any passes is predicted.
struct PassCounts {
  unsigned low = 1;
  unsigned high = 0;  // 0: one count
  [[nodiscard]] bool separates_fixed_cost() const noexcept { return high > 0; }
  friend bool operator==(const PassCounts&, const PassCounts&) = default;
};
// One or two counts as given (`--passes 20`, `--passes 1,20`, `passes = [1, 20]`). Throws UsageError naming `what`
// for none or more than two, a count out of [1, config::kMaxPasses], or two that are not increasing.
[[nodiscard]] PassCounts pass_counts(const std::vector<unsigned>& counts, std::string_view what);
// Runs of one point at two pass counts, split into the cost of a pass (the difference over the passes between)
// and the fixed cost of a run (what the shorter run paid beyond its passes, >= 0). Noise can make the longer run
// no longer, when the passes between cost less than the start-up varies: the pass then costs a floor, a
// thousandth of the longer run's time per pass, and `resolved` is false — a floor is no measurement.
struct PassSplit {
  double per_pass_s = 0.0;
  double fixed_s = 0.0;
  bool resolved = true;
};
[[nodiscard]] PassSplit split_by_passes(double low_s, double high_s, const PassCounts& passes);
// For sidecars and cache entries: the count, or [low, high].
[[nodiscard]] nlohmann::json pass_counts_json(const PassCounts& passes);

struct MeasurerOptions {
  config::PlatformConfig platform;
  unsigned reps = 5;
  unsigned warmup = 1;
  // Kernel passes of one timed run, for a measurer that times whole tasks (MeasurerKind::times_whole_tasks); its
  // times stay per pass, the unit of every profile. The others take 1 pass per repetition.
  PassCounts passes{};
  // The command measurer: what to run (sweep_config.hpp) and how commands get fast memory.
  std::vector<CommandProfileSpec> commands{};
  CommandPlacementOptions placement{};
};

// What a sweep must know about a measurer before it makes one (no caller branches on a measurer's name).
struct MeasurerKind {
  // Set for a model: nothing runs on this machine, so the sweep shows no progress, counts no overhead and uses no
  // tier backend, and its platform defaults to the node modelled. Empty for a measurer that runs something here.
  std::function<config::PlatformConfig()> modelled_node;
  // Times one run of MeasurerOptions::passes kernel passes per repetition (the process measurer). A measurer
  // without it refuses passes other than one count of 1.
  bool times_whole_tasks = false;
  // The passes a sweep gives it when the sweep names none (SweepConfig::passes): the process measurer's two counts,
  // so that its tables carry each run's fixed cost and predict a launched task of any passes.
  PassCounts default_passes{};
  [[nodiscard]] bool is_model() const { return static_cast<bool>(modelled_node); }
};

using MeasurerFactory = std::function<std::unique_ptr<PointMeasurer>(const MeasurerOptions&)>;

// Adds a library user's own measurer to the built-in ones. Call it before any make_measurer; throws
// std::logic_error for a name already taken.
void register_measurer(std::string name, MeasurerFactory factory, MeasurerKind kind = {});

// The built-in "knl-model", "stream", "process" and "command", then the registered ones.
[[nodiscard]] std::vector<std::string> measurer_names();
// The measurer of a sweep that names none: whole stream_bench processes timed as `cosched launch` runs them, at
// kDefaultProcessPasses, so that the default tables predict what a plan launches (issue 39). "stream" (warm passes
// in-process) stays a choice for tables of the kernels themselves.
inline constexpr std::string_view kDefaultMeasurer = "process";
// The process measurer's passes when a sweep gives none: 1 and 20. The 19 passes between must cost clearly more
// than the start-up varies, or the difference is a floor and not a cost per pass (split_by_passes): triad at 64 MiB
// on one core of the 2-core VM, they cost ~50 ms against a fixed cost of ~25 ms.
inline constexpr PassCounts kDefaultProcessPasses{1, 20};
// Throws UsageError for an unknown name, listing the known ones.
[[nodiscard]] const MeasurerKind& measurer_kind(std::string_view name);
// Throws UsageError for an unknown name or passes the measurer does not take, ResourceError when the measurer
// cannot work here.
[[nodiscard]] std::unique_ptr<PointMeasurer> make_measurer(std::string_view name, const MeasurerOptions& options);

}  // namespace cosched::profiler
