#include "cosched/knowledge/strategy.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "knowledge/named_table.hpp"

namespace cosched::knowledge {

namespace {

constexpr double kIntervalZ = 1.2815515655446004;  // the 80 % interval: +-1.28 sd

std::size_t runs_at(const StrategyInput& input, int cores, int chunks, double work) {
  return static_cast<std::size_t>(std::count_if(input.known.begin(), input.known.end(), [&](const Measurement& m) {
    return m.cores == cores && m.fast_chunks == chunks && same_work(m.work, work);
  }));
}

// A cautious cost: the fit's estimate, else a measured run scaled as if the task sped up linearly in cores and its
// time grew in proportion to the work (both overestimate a task with a serial part or a fixed cost); the smallest
// such bound over the measured runs. NaN when nothing is known.
double quote(const StrategyInput& input, int cores, int chunks, double work) {
  if (input.fit != nullptr) return input.fit->estimate_seconds(cores, chunks, work);
  double best = std::numeric_limits<double>::quiet_NaN();
  for (const Measurement& m : input.known) {
    const double bound = m.seconds * std::max(1.0, static_cast<double>(m.cores) / cores) *
                         std::max(1.0, work / m.work) * (chunks < m.fast_chunks ? 2.0 : 1.0);
    if (std::isnan(best) || bound < best) best = bound;
  }
  return best;
}

// Adds `copies` runs at the point minus those already measured.
void want(const StrategyInput& input, std::vector<PlannedRun>& runs, int cores, int chunks, double work,
          std::size_t copies = 1) {
  const std::size_t have = runs_at(input, cores, chunks, work);
  const auto planned = static_cast<std::size_t>(std::count_if(runs.begin(), runs.end(), [&](const PlannedRun& r) {
    return r.cores == cores && r.fast_chunks == chunks && same_work(r.work, work);
  }));
  for (std::size_t k = have + planned; k < copies; ++k) runs.push_back({cores, chunks, work, 0.0});
}

std::vector<PlannedRun> cheapest_first(const StrategyInput& input, std::vector<PlannedRun> runs) {
  std::stable_sort(runs.begin(), runs.end(), [](const PlannedRun& a, const PlannedRun& b) {
    if (a.work != b.work) return a.work < b.work;
    if (a.cores != b.cores) return a.cores > b.cores;
    return a.fast_chunks < b.fast_chunks;
  });
  for (PlannedRun& run : runs) run.estimated_seconds = quote(input, run.cores, run.fast_chunks, run.work);
  return runs;
}

// 0 is left out: every strategy measures 0 chunks at the same core counts anyway.
std::vector<int> chunk_counts(const NodeShape& node) {
  std::vector<int> chunks;
  if (node.fast_chunks >= 2) chunks.push_back(node.fast_chunks / 2);
  if (node.fast_chunks >= 1) chunks.push_back(node.fast_chunks);
  return chunks;
}

// The halving count nearest P/4 in ratio: where fast memory is measured (a count the plans of a batch use).
int reference_cores(const NodeShape& node) {
  const double target = std::max(1.0, node.cores / 4.0);
  int best = node.cores;
  for (const int p : halving_cores(node.cores)) {
    if (std::abs(std::log(p / target)) < std::abs(std::log(best / target))) best = p;
  }
  return best;
}

// The amounts a short run at `cores` uses: the two smallest profiling amounts (one amount and twice it when the
// task gives one), which separate the run's fixed cost from its cost per unit at these cores (work_scaling.hpp),
// or the production amount alone when the task gives none. Above the reference count they grow with the cores (at
// most to half the production amount): a run's fixed cost (start-up, first touch) does not shrink with cores while
// its work does, and a run that is mostly fixed cost says little about the cost per unit — the extrapolation to
// production multiplies that error. Both amounts at every count: one amount with a fixed cost borrowed from other
// counts was tried and mispredicted programs whose first units cost more (a warm-up that scales with the cores'
// speed, so the fixed cost seen at many cores is not the one at few) by 15-20 % (docs/knowledge.md).
std::vector<double> short_amounts(const TaskWork& work, const NodeShape& node, int cores) {
  if (work.profiling.empty()) return {work.production};
  std::vector<double> amounts{work.profiling[0],
                              work.profiling.size() == 1 ? 2.0 * work.profiling[0] : work.profiling[1]};
  const double scale = std::max(1.0, static_cast<double>(cores) / reference_cores(node));
  for (double& amount : amounts) amount = std::min(amount * scale, 0.5 * work.production);
  if (same_work(amounts[0], amounts[1])) amounts.pop_back();
  return amounts;
}

void want_point(const StrategyInput& input, std::vector<PlannedRun>& runs, int cores, int chunks,
                const std::vector<double>& amounts) {
  for (const double work : amounts) want(input, runs, cores, chunks, work);
}

class Exhaustive final : public MeasurementStrategy {
 public:
  [[nodiscard]] std::string_view name() const override { return "exhaustive"; }
  [[nodiscard]] std::vector<PlannedRun> next_runs(const StrategyInput& input) const override {
    std::vector<PlannedRun> runs;
    std::vector<int> chunks{0};
    for (const int c : chunk_counts(input.node)) chunks.push_back(c);
    const auto copies = static_cast<std::size_t>(std::max(1, input.options.repetitions));
    for (int p = input.node.cores; p >= 1; --p) {
      for (const int c : chunks) want(input, runs, p, c, input.work.production, copies);
    }
    return cheapest_first(input, std::move(runs));
  }
};

// The sparse points (short or not): the given core counts without fast memory, the chunk counts at the reference
// count, and a second run at the reference count for the noise.
std::vector<PlannedRun> sparse_points(const StrategyInput& input, const std::vector<int>& cores, bool short_runs) {
  const auto amounts = [&](int p) {
    return short_runs ? short_amounts(input.work, input.node, p) : std::vector<double>{input.work.production};
  };
  std::vector<PlannedRun> runs;
  const int reference = reference_cores(input.node);
  for (const int p : cores) want_point(input, runs, p, 0, amounts(p));
  want_point(input, runs, reference, 0, amounts(reference));
  // Fast memory at the reference count, at its largest amount: the ratio to the run without.
  for (const int c : chunk_counts(input.node)) want(input, runs, reference, c, amounts(reference).back());
  want(input, runs, reference, 0, amounts(reference).front(), 2);
  return cheapest_first(input, std::move(runs));
}

class Sparse final : public MeasurementStrategy {
 public:
  [[nodiscard]] std::string_view name() const override { return "sparse"; }
  [[nodiscard]] std::vector<PlannedRun> next_runs(const StrategyInput& input) const override {
    return sparse_points(input, halving_cores(input.node.cores), false);
  }
};

class ShortRuns final : public MeasurementStrategy {
 public:
  [[nodiscard]] std::string_view name() const override { return "short-runs"; }
  [[nodiscard]] std::vector<PlannedRun> next_runs(const StrategyInput& input) const override {
    return sparse_points(input, halving_cores(input.node.cores), true);
  }
};

class Adaptive final : public MeasurementStrategy {
 public:
  [[nodiscard]] std::string_view name() const override { return "adaptive"; }
  [[nodiscard]] std::vector<PlannedRun> next_runs(const StrategyInput& input) const override {
    const int reference = reference_cores(input.node);
    std::vector<PlannedRun> runs =
        sparse_points(input, {input.node.cores, reference, std::max(1, (reference + 2) / 4)}, true);
    if (!runs.empty() || input.fit == nullptr || !input.planned) return runs;
    const FittedTask& fit = *input.fit;
    const int planned = input.planned->cores;
    const auto area_interval = [&](int cores) {
      const CurvePoint at = fit.at(cores, 0);
      const double area = cores * at.seconds;
      return std::pair{area * std::exp(-kIntervalZ * at.log_sd), area * std::exp(kIntervalZ * at.log_sd)};
    };
    const auto measured = [&](int cores) {
      return std::any_of(input.known.begin(), input.known.end(),
                         [&](const Measurement& m) { return m.cores == cores && m.fast_chunks == 0; });
    };
    const auto [planned_low, planned_high] = area_interval(planned);
    for (const int q : {planned, std::max(1, planned / 2), std::min(input.node.cores, planned * 2)}) {
      if (measured(q) || fit.at(q, 0).log_sd <= input.options.tolerance) continue;
      const auto [low, high] = area_interval(q);
      if (q != planned && (high < planned_low || low > planned_high)) continue;  // the choice does not hinge on it
      want_point(input, runs, q, 0, short_amounts(input.work, input.node, q));
    }
    const int chunks = input.planned->fast_chunks;
    if (chunks > 0) {
      const std::vector<int> references = fit.fast_memory().reference_cores();
      const bool near = std::any_of(references.begin(), references.end(), [&](int r) {
        return std::abs(std::log(static_cast<double>(r) / planned)) <= std::log(2.0) + 1e-9;
      });
      if (!near && fit.at(planned, chunks).log_sd > input.options.tolerance) {
        want_point(input, runs, planned, 0, short_amounts(input.work, input.node, planned));
        want_point(input, runs, planned, chunks, short_amounts(input.work, input.node, planned));
      }
    }
    return cheapest_first(input, std::move(runs));
  }
};

}  // namespace

std::vector<int> halving_cores(int cores, int step) {
  std::vector<int> counts;
  for (double p = cores; p >= 1.0 - 1e-9; p /= step) {
    const int rounded = std::max(1, static_cast<int>(std::lround(p)));
    if (counts.empty() || counts.back() != rounded) counts.push_back(rounded);
  }
  if (counts.back() != 1) counts.push_back(1);
  return counts;
}

double estimated_cost(const std::vector<PlannedRun>& runs) {
  double total = 0.0;
  for (const PlannedRun& run : runs) total += run.estimated_seconds;
  return total;
}

std::vector<PlannedRun> first_short_runs(const MeasurementStrategy& strategy, const StrategyInput& input) {
  const std::vector<PlannedRun> wanted = strategy.next_runs(input);
  if (wanted.empty()) return {};
  const PlannedRun& cheapest = wanted.front();
  const auto other_amount = std::find_if(wanted.begin(), wanted.end(), [&](const PlannedRun& run) {
    return run.cores == cheapest.cores && run.fast_chunks == cheapest.fast_chunks &&
           !same_work(run.work, cheapest.work);
  });
  if (other_amount == wanted.end()) return {};
  return {cheapest, *other_amount};
}

const std::vector<const MeasurementStrategy*>& measurement_strategies() {
  static const Exhaustive exhaustive;
  static const Sparse sparse;
  static const ShortRuns short_runs;
  static const Adaptive adaptive;
  static const std::vector<const MeasurementStrategy*> table{&exhaustive, &sparse, &short_runs, &adaptive};
  return table;
}

std::vector<std::string> measurement_strategy_names() { return detail::names_of(measurement_strategies()); }

const MeasurementStrategy& find_measurement_strategy(std::string_view name) {
  return detail::find_named(measurement_strategies(), name, "measurement strategy");
}

}  // namespace cosched::knowledge
