// The session: arrays allocated and first-touched once, re-split between measurements when the backend can, and
// every measurement validated (in full on fresh arrays and before they go, sampled in between).
#include "cosched/common/stats.hpp"
#include "cosched/stream/stream_session.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <numeric>

#include <fmt/format.h>

#include "cosched/common/error.hpp"
#include "cosched/platform/tier_backends.hpp"
#include "pinned_team.hpp"
#include "run_plan.hpp"
#include "slice_work.hpp"

namespace cosched::stream {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::array<ArrayId, array_id_count> all_arrays{ArrayId::a, ArrayId::b, ArrayId::c};

// Holds a backend to the seam's contract: the array has the requested size and split, and both parts exist.
void check_split(const platform::TierBackend& backend, const platform::TieredSpan& span, std::size_t count,
                 std::size_t fast_count) {
  if (span.count() != count || span.fast_count != fast_count || (span.fast_count > 0 && span.fast == nullptr) ||
      (span.slow_count > 0 && span.slow == nullptr)) {
    throw RuntimeFailure(fmt::format("tier backend {} returned {} fast + {} slow elements for a request of {} fast "
                                     "of {}",
                                     backend.name(), span.fast_count, span.slow_count, fast_count, count));
  }
}

void fill_statistics(StreamResult& result) {
  std::vector<double> sorted = result.rep_times_s;
  std::sort(sorted.begin(), sorted.end());
  result.min_time_s = sorted.front();
  result.max_time_s = sorted.back();
  result.median_time_s = median(sorted);
  result.mean_time_s = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(sorted.size());
  const auto gbs = [&](double seconds) { return static_cast<double>(result.bytes_per_rep) / seconds / 1e9; };
  result.best_gbs = gbs(result.min_time_s);
  result.median_gbs = gbs(result.median_time_s);
  result.mean_gbs = gbs(result.mean_time_s);
  result.worst_gbs = gbs(result.max_time_s);
}

// "" when every compared element was right, else the count and the first wrong one.
std::string describe_mismatches(const std::vector<detail::SliceCheck>& checks, bool sampled) {
  std::size_t mismatches = 0;
  std::size_t checked = 0;
  const detail::Mismatch* first = nullptr;
  for (const detail::SliceCheck& check : checks) {
    mismatches += check.mismatches;
    checked += check.checked;
    if (first == nullptr && check.first) first = &*check.first;
  }
  if (mismatches == 0) return "";
  return fmt::format("{} of {} {}elements wrong; first: {}[{}] = {} (expected {})", mismatches, checked,
                     sampled ? "sampled (one per page) " : "", array_name(first->array), first->index, first->found,
                     first->expected);
}

}  // namespace

struct StreamSession::State {
  State(const StreamConfig& config, platform::TierBackend& tiers)
      : plan(detail::plan_run(config)),
        kernel(*plan.kernel),
        backend(tiers),
        cost(tiers.cost_model()),
        passes(detail::slow_passes_for(cost.slow_pass_factor)),
        page_elements(std::max<std::size_t>(1, platform::page_bytes() / sizeof(double))) {
    const auto threads = static_cast<unsigned>(plan.cores.size());
    for (unsigned t = 0; t < threads; ++t) slices.push_back(detail::thread_slice(plan.count, threads, t));
    expected_sums.assign(threads, 0.0);
  }

  detail::RunPlan plan;  // plan.fast_count is the arrays' current split
  const KernelSpec& kernel;
  platform::TierBackend& backend;
  platform::TierCostModel cost;
  detail::SlowPasses passes;
  std::size_t page_elements;
  std::vector<detail::Slice> slices;  // per thread
  std::vector<double> expected_sums;  // per thread: the reduction's exact sum over its slice
  std::array<platform::TieredArray, array_id_count> owned;
  detail::ArraySpans spans{};
  bool arrays_ready = false;              // allocated, consistently split, first-touched
  bool fresh = true;                      // not measured since allocation: the next measurement checks in full
  bool sampled_since_full_check = false;  // a finish() or re-allocation must compare everything first
  std::size_t allocations = 0;
  std::size_t resplits = 0;
  std::size_t measurements = 0;

  // Releases the old arrays first, so their memory and fast-tier bytes are free for the new ones.
  void allocate() {
    arrays_ready = false;
    owned = {};
    spans = {};
    for (ArrayId id : all_arrays) {
      if (!kernel.touched().contains(id)) continue;
      const auto k = static_cast<std::size_t>(id);
      owned[k] = backend.allocate(plan.count, plan.fast_count);
      check_split(backend, owned[k].span(), plan.count, plan.fast_count);
      spans[k] = owned[k].span();
    }
    ++allocations;
    (void)detail::run_pinned_team(plan, [this](unsigned thread) {
      detail::fill_initial(kernel, spans, slices[thread]);
      expected_sums[thread] = detail::expected_sum(kernel, slices[thread]);
    });
    arrays_ready = true;
    fresh = true;
    sampled_since_full_check = false;
  }

  // Moves every array's split through the backend; false (nothing changed) when it cannot. A refused or broken
  // split puts the arrays already moved back, so all of them keep one split index.
  bool resplit_all(std::size_t fast_count) {
    std::vector<std::size_t> moved;
    auto roll_back = [&] {
      try {
        for (std::size_t k : moved) {
          if (!backend.resplit(owned[k], plan.fast_count)) arrays_ready = false;
        }
      } catch (...) {
        arrays_ready = false;  // cannot restore one split index: the next measurement allocates anew
      }
    };
    try {
      for (ArrayId id : all_arrays) {
        if (!kernel.touched().contains(id)) continue;
        const auto k = static_cast<std::size_t>(id);
        if (!backend.resplit(owned[k], fast_count)) {
          roll_back();
          return false;
        }
        moved.push_back(k);
        check_split(backend, owned[k].span(), plan.count, fast_count);
      }
    } catch (...) {
      roll_back();
      throw;
    }
    for (std::size_t k : moved) spans[k] = owned[k].span();
    plan.fast_count = fast_count;
    ++resplits;
    return true;
  }

  SessionCheck full_check() {
    std::vector<detail::SliceCheck> checks(slices.size());
    (void)detail::run_pinned_team(
        plan, [&](unsigned thread) { checks[thread] = detail::check_slice(kernel, spans, slices[thread]); });
    sampled_since_full_check = false;
    const std::string problem = describe_mismatches(checks, false);
    return {problem.empty(), problem};
  }

  // Puts the arrays at `fast_count`; returns a failure of the full check done before re-allocating ("" if none).
  std::string move_split(std::size_t fast_count) {
    if (arrays_ready && fast_count == plan.fast_count) return "";
    if (arrays_ready && resplit_all(fast_count)) return "";
    std::string problem;
    if (arrays_ready && sampled_since_full_check) {
      const SessionCheck check = full_check();
      if (!check.validated) problem = "before re-allocating for a new split: " + check.validation_message;
    }
    plan.fast_count = fast_count;
    allocate();
    return problem;
  }
};

StreamSession::StreamSession(const StreamConfig& config, platform::TierBackend& backend)
    : state_(std::make_unique<State>(config, backend)) {
  state_->allocate();
}

StreamSession::~StreamSession() = default;

std::size_t StreamSession::allocations() const noexcept { return state_->allocations; }
std::size_t StreamSession::resplits() const noexcept { return state_->resplits; }
std::size_t StreamSession::measurements() const noexcept { return state_->measurements; }

SessionCheck StreamSession::finish() {
  if (!state_->arrays_ready || !state_->sampled_since_full_check) return {};
  return state_->full_check();
}

StreamResult StreamSession::measure(const SessionRun& run) {
  State& s = *state_;
  if (run.reps == 0) throw UsageError("reps must be at least 1");
  const std::size_t fast_count =
      run.fast_fraction ? platform::fast_element_count(s.plan.count, *run.fast_fraction) : 0;
  const std::string earlier_problem = s.move_split(fast_count);

  const bool sampled = !s.fresh;
  // A stride of one page compares one element of every page; the offset walks through all of a page's elements
  // over successive measurements (97 is coprime with any power-of-two page).
  const detail::CheckSample sample =
      sampled ? detail::CheckSample{s.page_elements, s.measurements * 97 % s.page_elements} : detail::CheckSample{};
  const auto threads = static_cast<unsigned>(s.slices.size());
  const unsigned total_reps = run.warmup_reps + run.reps;
  std::vector<double> times(total_reps, 0.0);
  std::vector<std::vector<double>> thread_sums(threads, std::vector<double>(run.reps, 0.0));
  std::vector<double> discarded(threads, 0.0);
  std::vector<detail::SliceCheck> checks(threads);
  Clock::time_point rep_start;
  const bool streaming = s.plan.streaming_stores;

  std::vector<ThreadPlacement> placements = detail::run_pinned_team(s.plan, [&](unsigned thread) {
    const detail::Slice slice = s.slices[thread];
    // Every rep starts and ends on a barrier, so thread 0's clock covers all threads' traffic.
    for (unsigned rep = 0; rep < total_reps; ++rep) {
#pragma omp barrier
#pragma omp master
      rep_start = Clock::now();
      const double sum = detail::run_slice(s.kernel, s.spans, slice, s.passes, streaming, discarded[thread]);
#pragma omp barrier
#pragma omp master
      times[rep] = std::chrono::duration<double>(Clock::now() - rep_start).count();
      if (rep >= run.warmup_reps) thread_sums[thread][rep - run.warmup_reps] = sum;
    }
    checks[thread] = detail::check_slice(s.kernel, s.spans, slice, sample);
  });
  ++s.measurements;
  s.fresh = false;
  s.sampled_since_full_check = sampled;

  StreamResult result;
  result.kernel = std::string(s.kernel.name);
  result.formula = std::string(s.kernel.formula);
  result.threads = threads;
  result.cores = s.plan.cores;
  result.placements = std::move(placements);
  result.array_count = s.kernel.touched().size();
  result.array_bytes = s.plan.count * sizeof(double);
  result.bytes_per_element = s.kernel.bytes_per_element();
  result.bytes_per_rep = s.kernel.bytes_per_element() * s.plan.count;
  result.reps = run.reps;
  result.stores = s.kernel.is_reduction() ? "none"  // ddot stores nothing: --stores does not apply
                                          : std::string(to_string(streaming ? StoreMode::streaming
                                                                            : StoreMode::regular));
  result.warmup_time_s = std::accumulate(times.begin(), times.begin() + run.warmup_reps, 0.0);
  result.rep_times_s.assign(times.begin() + run.warmup_reps, times.end());
  fill_statistics(result);

  std::string problem = earlier_problem;
  if (problem.empty()) problem = describe_mismatches(checks, sampled);
  if (s.kernel.is_reduction()) {
    // The partial sums are exact (docs/stream_bench.md), so any order of adding them gives the same value.
    const double expected = std::accumulate(s.expected_sums.begin(), s.expected_sums.end(), 0.0);
    for (unsigned rep = 0; rep < run.reps; ++rep) {
      double sum = 0.0;
      for (const auto& sums : thread_sums) sum += sums[rep];
      result.sum = sum;
      if (sum != expected && problem.empty()) {
        problem = fmt::format("{} of rep {} = {} (expected {})", s.kernel.name, rep, sum, expected);
      }
    }
  }
  result.validated = problem.empty();
  result.validation_message = problem;

  result.fast_fraction = run.fast_fraction.value_or(0.0);
  result.tier_backend = std::string(s.backend.name());
  result.emulated = s.cost.emulated;
  result.slow_pass_factor = s.cost.slow_pass_factor;
  for (const platform::TieredArray& array : s.owned) {
    result.fast_bytes += array.fast_bytes();
    result.slow_bytes += array.slow_bytes();
  }
  return result;
}

}  // namespace cosched::stream
