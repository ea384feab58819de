#include "cosched/knowledge/task_fit.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <set>

#include "cosched/common/error.hpp"
#include "cosched/knowledge/work_scaling.hpp"

namespace cosched::knowledge {

namespace {

// Times at one measured (cores, chunks), brought to the production amount: ln seconds and extra variance each.
struct ProductionPoint {
  std::vector<double> log_seconds;
  std::vector<double> extra_variance;
};

struct PointKey {
  int cores;
  int chunks;
  auto operator<=>(const PointKey&) const = default;
};

using Grouped = std::map<PointKey, std::vector<Measurement>>;

// Step 1 of task_fit.hpp: every measured point at the production amount.
std::map<PointKey, ProductionPoint> to_production(const Grouped& grouped, const TaskWork& work,
                                                  const TaskFitOptions& options, double& fixed_seconds,
                                                  double& quote_fixed_seconds, std::vector<std::string>& notes) {
  std::map<PointKey, ProductionPoint> points;
  struct FixedCost {
    PointKey key;
    double seconds;
    double variance;
  };
  std::vector<FixedCost> fixed_costs;  // of the points that separated it
  std::vector<double> quote_fixed;     // theirs, and those of the points measured at production and another amount
  std::vector<std::pair<PointKey, const std::vector<Measurement>*>> one_amount;
  for (const auto& [key, runs] : grouped) {
    ProductionPoint point;
    std::vector<WorkSample> scaled;
    std::vector<double> amounts;
    for (const Measurement& run : runs) {
      if (same_work(run.work, work.production)) {
        point.log_seconds.push_back(std::log(run.seconds));
        point.extra_variance.push_back(0.0);
      } else {
        scaled.push_back({run.work, run.seconds});
        if (std::none_of(amounts.begin(), amounts.end(), [&](double a) { return same_work(a, run.work); })) {
          amounts.push_back(run.work);
        }
      }
    }
    if (point.log_seconds.empty() && amounts.size() >= 2) {
      const WorkScalingFit fit(scaled, options.fit);
      const CurvePoint at = fit.predict(work.production);
      point.log_seconds.push_back(std::log(at.seconds));
      point.extra_variance.push_back(at.log_sd * at.log_sd);
      fixed_costs.push_back({key, fit.fixed_seconds(), fit.fixed_variance()});
      quote_fixed.push_back(fit.fixed_seconds());
    } else if (point.log_seconds.empty()) {
      one_amount.emplace_back(key, &runs);
      continue;
    } else if (!amounts.empty()) {
      // Measured at production and at other amounts (a launch's run beside a short profiling run, or the batch's
      // tasks of one kind at two sizes): its time is the production runs', and the runs together separate the
      // fixed cost a short run's quote needs (estimate_seconds). Not the other points' carry: lent to the short
      // runs of other core counts, it made the simulated KNL's recurring plans 1.178 x the exhaustive plan
      // against 1.120 x (docs/knowledge.md).
      for (const Measurement& run : runs) {
        if (same_work(run.work, work.production)) scaled.push_back({run.work, run.seconds});
      }
      quote_fixed.push_back(WorkScalingFit(scaled, options.fit).fixed_seconds());
    }
    points[key] = std::move(point);
  }
  if (!fixed_costs.empty()) {
    double mean = 0.0;
    for (const FixedCost& cost : fixed_costs) mean += cost.seconds;
    fixed_seconds = mean / static_cast<double>(fixed_costs.size());
  }
  if (!quote_fixed.empty()) {
    quote_fixed_seconds = std::accumulate(quote_fixed.begin(), quote_fixed.end(), 0.0) /
                          static_cast<double>(quote_fixed.size());
  }
  // How far the fixed cost at one core count may be from the one separated at another: the spread seen across the
  // counts that separated one (their sample variance), when at least two did.
  std::set<int> separating_counts;
  for (const FixedCost& cost : fixed_costs) separating_counts.insert(cost.key.cores);
  std::optional<double> spread_variance;
  if (separating_counts.size() >= 2) {
    double sum2 = 0.0;
    for (const FixedCost& cost : fixed_costs) sum2 += (cost.seconds - fixed_seconds) * (cost.seconds - fixed_seconds);
    spread_variance = sum2 / static_cast<double>(fixed_costs.size() - 1);
  }
  std::size_t carried_points = 0;
  std::size_t too_far = 0;  // runs left out: more than max_proportional_carry from production, nothing separated
  std::map<PointKey, ProductionPoint> unsure;  // runs carried less surely than the one-count prior says (below)
  for (const auto& [point_key, runs] : one_amount) {
    const PointKey& key = point_key;  // a plain reference: clang 14 does not capture structured bindings
    // The fixed cost carried: that of the nearest point that separated it, the same cores if any (a cost per unit
    // that is not constant — a warm-up — leaves a part of it in the fixed cost, and that part depends on the
    // cores); in seconds, not as a share of the run, since a start-up does not shrink with the cores. Without any,
    // none (the run scaled in proportion to its work).
    const auto distance = [&](const FixedCost& cost) {
      const double cores = std::abs(std::log(static_cast<double>(cost.key.cores) / key.cores));
      return cores + (cost.key.chunks == key.chunks ? 0.0 : 1e-6);
    };
    const FixedCost* nearest = nullptr;
    for (const FixedCost& cost : fixed_costs) {
      if (nearest == nullptr || distance(cost) < distance(*nearest)) nearest = &cost;
    }
    ProductionPoint point;
    for (const Measurement& run : *runs) {
      const double carry = std::max(work.production / run.work, run.work / work.production);
      if (nearest == nullptr && carry > options.max_proportional_carry) {
        ++too_far;
        continue;
      }
      // Var(fixed) at this point: the borrowed cost's fit error, plus — when it was separated at other cores —
      // how much it may differ here: the spread across counts when seen, else the prior (fixed_share_sd of this
      // run's time, one sd). With no cost separated anywhere, fixed = 0 with the prior alone: the ln-sd added is
      // then fixed_share_sd x |1 - w / W| (first order in the share), 0 for a run at W, the prior in full for a
      // short run carried far, so that the fit and the strategies see the assumption, not a measured point.
      const double prior = options.fixed_share_sd * run.seconds;
      double fixed = 0.0;
      double variance = prior * prior;
      if (nearest != nullptr) {
        fixed = nearest->seconds;
        variance = nearest->variance;
        if (nearest->key.cores != key.cores) variance += spread_variance.value_or(prior * prior);
      }
      const double scale = work.production / run.work;
      const double variable = std::max(run.seconds - fixed, 1e-3 * run.seconds);
      const double seconds = fixed + scale * variable;
      // At most the bracket's width (work_scaling.hpp); the run's own noise is the fit over cores' to add.
      const double bound = carried_log_sd_bound(run.work, work.production, 0.0);
      const double extra_variance =
          std::min((scale - 1.0) * (scale - 1.0) * variance / (seconds * seconds), bound * bound);
      // A short run whose time is mostly the fixed cost borrowed from other cores is carried as the difference of
      // two like numbers times the scale: less surely than the one-count prior from the lending count says, it is
      // set aside (below).
      const bool less_than_prior = nearest != nullptr && nearest->key.cores != key.cores &&
                                   extra_variance > amdahl_prior_log_ratio(nearest->key.cores, key.cores).second;
      ProductionPoint& into = less_than_prior ? unsure[key] : point;
      into.log_seconds.push_back(std::log(seconds));
      into.extra_variance.push_back(extra_variance);
    }
    if (point.log_seconds.empty()) continue;  // every run left out or set aside
    points[key] = std::move(point);
    ++carried_points;
  }
  if (too_far > 0) {
    notes.push_back(fmt::format("{} run(s) at one amount of work more than {:g} x from the production amount {:g}, "
                                "and no point separates the fixed cost: left out (its share of a short run is "
                                "unknown; a run at a second amount at the same cores separates it)",
                                too_far, options.max_proportional_carry, work.production));
  }
  // The runs set aside join the fit where the other points stand on two core counts or more: the laws weigh them by
  // their variance, and no prior is in play. Where the others stand on one count, such a run would put the fit on
  // two and take the place of the one-count prior, though it tells less: kept there, a 16-core run of 10 units
  // carried to 2000 by a 2-core fixed cost left the simulated KNL's fits an sd of ln t of 9-13 away from 2 cores,
  // where the prior says ~1, and the plans kept such tasks where they had run, 2-3 x the exhaustive plan
  // (bench/results/2026-12-02-unsure-carried-runs.md). Left out there.
  std::set<int> counts;
  for (const auto& [key, point] : points) {
    if (key.chunks == 0) counts.insert(key.cores);
  }
  std::size_t left_out = 0;
  for (const auto& [key, set_aside] : unsure) {
    if (counts.size() < 2) {
      left_out += set_aside.log_seconds.size();
      continue;
    }
    ProductionPoint& point = points[key];
    point.log_seconds.insert(point.log_seconds.end(), set_aside.log_seconds.begin(), set_aside.log_seconds.end());
    point.extra_variance.insert(point.extra_variance.end(), set_aside.extra_variance.begin(),
                                set_aside.extra_variance.end());
  }
  if (left_out > 0) {
    notes.push_back(fmt::format("{} run(s) at one amount of work carried to the production amount {:g} by a fixed "
                                "cost separated at other cores, less surely than the one-count prior from those cores "
                                "says, and the other runs at one core count: left out (most of such a run is its fixed "
                                "cost; the fit follows the prior)",
                                left_out, work.production));
  }
  if (fixed_costs.empty() && carried_points > 0) {
    notes.push_back(fmt::format("{} point(s) measured at one amount of work only, and no point separates the fixed "
                                "cost: carried in proportion to the work (a fixed cost of 0; sd of ln widened by {:g} "
                                "x |1 - amount / production|; runs more than {:g} x from production left out)",
                                carried_points, options.fixed_share_sd, options.max_proportional_carry));
  }
  return points;
}

double mean_of(const std::vector<double>& values) {
  double sum = 0.0;
  for (const double v : values) sum += v;
  return sum / static_cast<double>(values.size());
}

}  // namespace

FittedTask::FittedTask(const NodeShape& node, const TaskWork& work, const std::vector<Measurement>& measurements,
                       const TaskFitOptions& options)
    : node_(node),
      work_(work),
      space_(node.fast_chunks > 0 ? std::vector<int>{node.cores, node.fast_chunks} : std::vector<int>{node.cores}) {
  check_measurements(node, work, measurements, "task fit");
  double nearest_carry = std::numeric_limits<double>::infinity();  // |ln(W / w)| to the measured amount nearest W
  for (const Measurement& m : measurements) {
    nearest_carry = std::min(nearest_carry, std::abs(std::log(work.production / m.work)));
  }
  carry_misfit_log_sd_ = options.carry_misfit_sd * nearest_carry;
  Grouped grouped;
  for (const Measurement& m : measurements) grouped[{m.cores, node.fast_chunks > 0 ? m.fast_chunks : 0}].push_back(m);
  const std::map<PointKey, ProductionPoint> points = to_production(grouped, work, options, fixed_seconds_, quote_fixed_seconds_, notes_);

  std::vector<CoreSample> samples;
  for (const auto& [key, point] : points) {
    if (key.chunks != 0) continue;
    for (std::size_t i = 0; i < point.log_seconds.size(); ++i) {
      samples.push_back({key.cores, std::exp(point.log_seconds[i]), point.extra_variance[i]});
    }
  }
  if (samples.empty()) {
    // Say why when runs were left out (to_production's notes), not only that none remained.
    throw InputError("task fit", notes_.empty() ? std::string("no run without fast memory")
                                                : fmt::format("no usable run without fast memory: {}",
                                                              fmt::join(notes_, "; ")));
  }
  cores_ = std::make_shared<const SpeedupFit>(samples, options.fit);
  noise_log_sd_ = cores_->noise_log_sd();

  // Step 3: the fast-memory ratio from each point with chunks against the point without at the same cores. A point
  // with chunks measured at production whose partner was only carried there from short runs (a launch's task run
  // with fast memory, at cores the strategy had measured in short runs only) says more about the task's time at
  // its cores than a ratio against that partner would: once a ratio was measured elsewhere, it is taken back to 0
  // chunks through that ratio and joins the fit over cores (step 3b), as is a point with chunks and no partner.
  // Left out, two observed runs of 38.7 s at 64 cores + 16 chunks moved the simulated KNL's fit there from 29.9 s
  // to 31.3 s only (the short runs at 64 cores carried 25 x, the law's curve below them).
  const double noise2 = noise_log_sd_ * noise_log_sd_;
  const auto variance_of = [&](const ProductionPoint& point) {
    return noise2 / static_cast<double>(point.log_seconds.size()) + mean_of(point.extra_variance);
  };
  const auto at_production = [](const ProductionPoint& point) {
    return std::all_of(point.extra_variance.begin(), point.extra_variance.end(), [](double v) { return v == 0.0; });
  };
  std::vector<ChunkSample> ratios;
  std::vector<ChunkSample> against_carried;  // ratios of a point at production against a carried partner
  std::vector<std::pair<PointKey, const ProductionPoint*>> with_chunks_only;
  for (const auto& [key, point] : points) {
    if (key.chunks == 0) continue;
    const auto without = points.find({key.cores, 0});
    if (without == points.end()) {
      with_chunks_only.emplace_back(key, &point);
      continue;
    }
    const ProductionPoint& base = without->second;
    const ChunkSample ratio{key.cores, key.chunks, mean_of(point.log_seconds) - mean_of(base.log_seconds),
                            variance_of(point) + variance_of(base)};
    if (at_production(point) && !at_production(base)) {
      against_carried.push_back(ratio);
      with_chunks_only.emplace_back(key, &point);
    } else {
      ratios.push_back(ratio);
    }
  }
  if (ratios.empty()) {  // no other ratio: those against a carried partner, as the only ones there are
    ratios = std::move(against_carried);
    std::erase_if(with_chunks_only, [&](const auto& entry) { return points.count({entry.first.cores, 0}) > 0; });
  }
  fast_ = std::make_shared<const FastMemoryFit>(ratios, options.transfer_error);
  if (node.fast_chunks > 0 && !fast_->measured()) {
    notes_.emplace_back("fast memory not measured: taken to change nothing");
  }
  // Step 3b: the points with chunks only, through the ratio, into the fit over cores — with the ratio's variance
  // there (its transfer error away from the counts it was measured at). Without any ratio, a point with chunks
  // still bounds the time without them at its cores from below (the tables are closed: more fast memory never makes
  // a task longer). Where the fit over cores is below that bound, the point joins it at the ratio the fit assumes
  // everywhere then (1, no variance): left out, a run of 74.9 s observed at 64 cores + 11 chunks on the simulated
  // KNL was predicted at 42.8 s at 64 + 12 in the next batch (a cache-driven jump the laws extrapolate past).
  // Where the fit is above it, the point agrees with the fit and says nothing more: it is left out.
  std::size_t taken_back = 0;
  std::size_t bounding = 0;
  for (const auto& [key, point] : with_chunks_only) {
    if (!fast_->measured()) {
      if (mean_of(point->log_seconds) <= std::log(cores_->curve(key.cores).back().seconds)) {
        notes_.push_back(fmt::format("{} chunks measured at {} cores without a run at 0 chunks there: left out "
                                     "(the fit without fast memory is no faster there)",
                                     key.chunks, key.cores));
        continue;
      }
      for (std::size_t i = 0; i < point->log_seconds.size(); ++i) {
        samples.push_back({key.cores, std::exp(point->log_seconds[i]), point->extra_variance[i]});
      }
      ++bounding;
      continue;
    }
    const auto [ratio, ratio_variance] = fast_->log_ratio(key.cores, key.chunks);
    for (std::size_t i = 0; i < point->log_seconds.size(); ++i) {
      const double variance = point->extra_variance[i] + ratio_variance;
      samples.push_back({key.cores, std::exp(point->log_seconds[i] - ratio), variance});
    }
    ++taken_back;
  }
  if (taken_back > 0) {
    notes_.push_back(fmt::format("{} point(s) with fast memory and no surer run without it at their cores: taken "
                                 "to 0 chunks through the fast-memory ratio, into the fit over cores",
                                 taken_back));
  }
  if (bounding > 0) {
    notes_.push_back(fmt::format("{} point(s) with fast memory, no run without it at their cores and no ratio "
                                 "measured, slower than the fit without fast memory there: taken as its bound, "
                                 "into the fit over cores",
                                 bounding));
  }
  if (taken_back + bounding > 0) {
    cores_ = std::make_shared<const SpeedupFit>(samples, options.fit);
    noise_log_sd_ = cores_->noise_log_sd();
  }

  // Step 4: the table, closed along every resource; the closure carries the uncertainty of the time it takes.
  const std::vector<CurvePoint> curve = cores_->curve(node.cores);
  const int chunk_count = node.fast_chunks;
  std::vector<double> medians(space_.size(), std::numeric_limits<double>::infinity());
  log_sd_.assign(space_.size(), 0.0);
  for (int p = 1; p <= node.cores; ++p) {
    for (int c = 0; c <= chunk_count; ++c) {
      const auto [ratio, ratio_variance] = fast_->log_ratio(p, c);
      const CurvePoint& base = curve[static_cast<std::size_t>(p - 1)];
      std::size_t k = index(p, c);
      medians[k] = base.seconds * std::exp(ratio);
      log_sd_[k] = std::sqrt(base.log_sd * base.log_sd + ratio_variance);
      const auto take = [&](std::size_t from) {
        if (medians[from] < medians[k]) {
          medians[k] = medians[from];
          log_sd_[k] = log_sd_[from];
        }
      };
      if (p > 1) take(index(p - 1, c));
      if (c > 0) take(index(p, c - 1));
    }
  }
  profile_ = std::make_shared<const sched::DenseTimeTable>(space_, std::move(medians));
}

std::size_t FittedTask::index(int cores, int chunks) const {
  return node_.fast_chunks > 0 ? space_.index_of(std::vector<int>{cores, chunks})
                               : space_.index_of(std::vector<int>{cores});
}

CurvePoint FittedTask::at(int cores, int chunks) const {
  const int c = node_.fast_chunks > 0 ? chunks : 0;
  const std::size_t k = index(cores, c);
  const std::vector<int> alloc = node_.fast_chunks > 0 ? std::vector<int>{cores, c} : std::vector<int>{cores};
  return {profile_->time_at(space_, alloc), log_sd_[k]};
}

std::shared_ptr<const sched::TimeProfile> FittedTask::profile(const TimeChoice& choice) const {
  if (choice.sds_above == 0.0 && choice.variance_share == 0.0) return profile_;
  std::vector<double> times(space_.size());
  profile_->fill_times(space_, times);
  for (std::size_t k = 0; k < times.size(); ++k) {
    times[k] *= std::exp(choice.sds_above * log_sd_[k] + choice.variance_share * log_sd_[k] * log_sd_[k]);
  }
  // Closed again by the table (a surer time with fewer resources is a time with these: some may idle).
  return std::make_shared<const sched::DenseTimeTable>(space_, std::move(times));
}

double FittedTask::predictive_log_sd(int cores, int chunks) const {
  const double fit = at(cores, chunks).log_sd;
  return std::sqrt(fit * fit + noise_log_sd_ * noise_log_sd_);
}

double FittedTask::interval_log_sd(int cores, int chunks) const {
  const double predictive = predictive_log_sd(cores, chunks);
  return std::sqrt(predictive * predictive + carry_misfit_log_sd_ * carry_misfit_log_sd_);
}

double FittedTask::estimate_seconds(int cores, int chunks, double work) const {
  const CurvePoint point = at(cores, chunks);
  const double production = point.seconds * std::exp(predictive_log_sd(cores, chunks));
  return short_run_seconds(production, work, work_.production, quote_fixed_seconds_);
}

double short_run_seconds(double production_s, double work, double production, double fixed_s) {
  const double fixed = std::clamp(fixed_s, 0.0, production_s);
  return fixed + (production_s - fixed) * work / production;
}

}  // namespace cosched::knowledge
