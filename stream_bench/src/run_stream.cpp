// The parallel run: one OpenMP team, one thread per requested core, each pinned before it first-touches its
// slice; every rep starts and ends on a barrier so the wall-clock time covers all threads' traffic.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <numeric>

#include <fmt/format.h>

#include "cosched/common/error.hpp"
#include "cosched/platform/binding.hpp"
#include "cosched/stream/stream_run.hpp"
#include "run_plan.hpp"
#include "slice_work.hpp"

namespace cosched::stream {

namespace {

using Clock = std::chrono::steady_clock;

struct TierArrays {
  std::array<platform::TieredArray, array_id_count> owned;
  detail::ArraySpans spans{};
};

// Allocates the kernel's arrays and holds the backend to the seam's contract: every array split at the same index.
TierArrays allocate_arrays(const KernelSpec& kernel, const detail::RunPlan& plan, platform::TierBackend& backend) {
  TierArrays arrays;
  for (std::size_t id = 0; id < array_id_count; ++id) {
    if (!kernel.touched().contains(static_cast<ArrayId>(id))) continue;
    arrays.owned[id] = backend.allocate(plan.count, plan.fast_count);
    const platform::TieredSpan& span = arrays.owned[id].span();
    if (span.count() != plan.count || span.fast_count != plan.fast_count ||
        (span.fast_count > 0 && span.fast == nullptr) || (span.slow_count > 0 && span.slow == nullptr)) {
      throw RuntimeFailure(fmt::format("tier backend {} returned {} fast + {} slow elements for a request of {} "
                                       "fast of {}",
                                       backend.name(), span.fast_count, span.slow_count, plan.fast_count,
                                       plan.count));
    }
    arrays.spans[id] = span;
  }
  return arrays;
}

double median_of_sorted(const std::vector<double>& sorted) {
  const std::size_t n = sorted.size();
  return n % 2 == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
}

void fill_statistics(StreamResult& result) {
  std::vector<double> sorted = result.rep_times_s;
  std::sort(sorted.begin(), sorted.end());
  result.min_time_s = sorted.front();
  result.max_time_s = sorted.back();
  result.median_time_s = median_of_sorted(sorted);
  result.mean_time_s = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(sorted.size());
  const auto gbs = [&](double seconds) { return static_cast<double>(result.bytes_per_rep) / seconds / 1e9; };
  result.best_gbs = gbs(result.min_time_s);
  result.median_gbs = gbs(result.median_time_s);
  result.mean_gbs = gbs(result.mean_time_s);
  result.worst_gbs = gbs(result.max_time_s);
}

void fill_validation(StreamResult& result, const KernelSpec& kernel, const std::vector<detail::SliceCheck>& checks,
                     const std::vector<std::vector<double>>& thread_sums) {
  std::size_t mismatches = 0;
  const detail::Mismatch* first = nullptr;
  double expected_sum = 0.0;
  for (const detail::SliceCheck& check : checks) {
    mismatches += check.mismatches;
    if (first == nullptr && check.first) first = &*check.first;
    expected_sum += check.expected_sum;
  }
  std::string problem;
  if (mismatches > 0) {
    problem = fmt::format("{} of {} elements wrong; first: {}[{}] = {} (expected {})", mismatches,
                          result.array_count * (result.array_bytes / sizeof(double)), array_name(first->array),
                          first->index, first->found, first->expected);
  }
  if (kernel.is_reduction()) {
    for (std::size_t rep = 0; rep < result.reps; ++rep) {
      double sum = 0.0;  // threads in order: the partial sums are exact, so any order gives the same value
      for (const auto& sums : thread_sums) sum += sums[rep];
      result.sum = sum;
      if (sum != expected_sum && problem.empty()) {
        problem = fmt::format("{} of rep {} = {} (expected {})", kernel.name, rep, sum, expected_sum);
      }
    }
  }
  result.validated = problem.empty();
  result.validation_message = problem;
}

}  // namespace

StreamResult run_stream(const StreamConfig& config, platform::TierBackend& backend) {
  const detail::RunPlan plan = detail::plan_run(config);
  const KernelSpec& kernel = *plan.kernel;
  const platform::TierCostModel cost = backend.cost_model();
  const detail::SlowPasses passes = detail::slow_passes_for(cost.slow_pass_factor);
  TierArrays arrays = allocate_arrays(kernel, plan, backend);

  const unsigned threads = config.threads;
  const unsigned total_reps = config.warmup_reps + config.reps;
  std::vector<ThreadPlacement> placements(threads);
  std::vector<std::exception_ptr> errors(threads);
  std::vector<std::vector<double>> thread_sums(threads, std::vector<double>(config.reps, 0.0));
  std::vector<double> discarded(threads, 0.0);
  std::vector<detail::SliceCheck> checks(threads);
  std::vector<double> rep_times(config.reps, 0.0);
  Clock::time_point rep_start;
  int team_size = 0;
  bool abandon = false;

  // The caller's thread becomes OpenMP thread 0 and gets pinned; give it its own binding back afterwards.
  const std::vector<unsigned> caller_binding = platform::current_thread_binding();
  omp_set_dynamic(0);
#pragma omp parallel num_threads(threads) default(shared)
  {
    const auto thread = static_cast<unsigned>(omp_get_thread_num());
    try {
      platform::bind_current_thread(plan.core_pus[thread]);
      placements[thread] = {thread, plan.cores[thread], plan.core_pus[thread], platform::current_thread_binding(), 0};
    } catch (...) {
      errors[thread] = std::current_exception();
    }
#pragma omp barrier
#pragma omp single
    {
      team_size = omp_get_num_threads();
      abandon = team_size != static_cast<int>(threads) ||
                std::any_of(errors.begin(), errors.end(), [](const auto& e) { return e != nullptr; });
    }
    // Every thread reads the same `abandon` after the single's barrier, so all skip or all run the barriers below.
    if (!abandon) {
      const detail::Slice slice = detail::thread_slice(plan.count, threads, thread);
      detail::fill_initial(kernel, arrays.spans, slice);
      for (unsigned rep = 0; rep < total_reps; ++rep) {
#pragma omp barrier
#pragma omp master
        rep_start = Clock::now();
        const double sum =
            detail::run_slice(kernel, arrays.spans, slice, passes, plan.streaming_stores, discarded[thread]);
#pragma omp barrier
        if (rep >= config.warmup_reps) {
#pragma omp master
          rep_times[rep - config.warmup_reps] = std::chrono::duration<double>(Clock::now() - rep_start).count();
          thread_sums[thread][rep - config.warmup_reps] = sum;
        }
      }
      try {
        placements[thread].observed_pu = platform::current_pu();
      } catch (...) {
        errors[thread] = std::current_exception();
      }
      checks[thread] = detail::check_slice(kernel, arrays.spans, slice);
    }
  }
  platform::bind_current_thread(caller_binding);
  for (const std::exception_ptr& error : errors) {
    if (error) std::rethrow_exception(error);
  }
  if (team_size != static_cast<int>(threads)) {
    throw ResourceError(fmt::format("OpenMP started {} threads instead of {} (OMP_THREAD_LIMIT?)", team_size,
                                    threads));
  }

  StreamResult result;
  result.kernel = std::string(kernel.name);
  result.formula = std::string(kernel.formula);
  result.threads = threads;
  result.cores = plan.cores;
  result.placements = std::move(placements);
  result.array_count = kernel.touched().size();
  result.array_bytes = plan.count * sizeof(double);
  result.bytes_per_element = kernel.bytes_per_element();
  result.bytes_per_rep = kernel.bytes_per_element() * plan.count;
  result.reps = config.reps;
  result.stores = kernel.is_reduction() ? "none"  // ddot stores nothing: --stores does not apply
                                         : std::string(to_string(plan.streaming_stores ? StoreMode::streaming
                                                                                       : StoreMode::regular));
  result.rep_times_s = std::move(rep_times);
  fill_statistics(result);
  fill_validation(result, kernel, checks, thread_sums);
  result.fast_fraction = config.fast_fraction.value_or(0.0);
  result.tier_backend = std::string(backend.name());
  result.emulated = cost.emulated;
  result.slow_pass_factor = cost.slow_pass_factor;
  for (const platform::TieredArray& array : arrays.owned) {
    result.fast_bytes += array.fast_bytes();
    result.slow_bytes += array.slow_bytes();
  }
  return result;
}

}  // namespace cosched::stream
