// The session: arrays allocated and first-touched once, re-split between measurements when the backend can, kept
// for a new team when the memory locality allows (written afresh by it), and every measurement validated (in full
// on freshly initialised arrays and before their contents go, sampled in between).
#include "cosched/common/stats.hpp"
#include "cosched/stream/stream_session.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <chrono>
#include <numeric>
#include <utility>
#include <span>

#include <fmt/format.h>

#include "cosched/common/error.hpp"
#include "cosched/platform/binding.hpp"
#include "cosched/platform/tier_backends.hpp"
#include "cosched/stream/kernel_isa.hpp"
#include "page_prefault.hpp"
#include "pinned_team.hpp"
#include "run_plan.hpp"
#include "system_memory.hpp"
#include "kernel_work.hpp"
#include "roofline_kernels.hpp"

namespace cosched::stream {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

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

void fill_statistics(StreamResult& result, std::uint64_t merit_count) {
  std::vector<double> sorted = result.rep_times_s;
  std::sort(sorted.begin(), sorted.end());
  result.min_time_s = sorted.front();
  result.max_time_s = sorted.back();
  result.median_time_s = median(sorted);
  result.mean_time_s = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(sorted.size());
  const auto rate = [&](std::uint64_t count, double seconds) { return static_cast<double>(count) / seconds / 1e9; };
  result.best_gbs = rate(result.bytes_per_rep, result.min_time_s);
  result.median_gbs = rate(result.bytes_per_rep, result.median_time_s);
  result.mean_gbs = rate(result.bytes_per_rep, result.mean_time_s);
  result.worst_gbs = rate(result.bytes_per_rep, result.max_time_s);
  result.best_merit = rate(merit_count, result.min_time_s);
  result.median_merit = rate(merit_count, result.median_time_s);
  result.mean_merit = rate(merit_count, result.mean_time_s);
  result.worst_merit = rate(merit_count, result.max_time_s);
}

// A sampled check compares one element per page of every array, and no more than about `sampled_pages` elements
// of the largest: past that many pages the stride doubles. So a check costs at most a few hundred cache misses
// per array, however large the footprint — tens of microseconds, against a point's passes of milliseconds (one
// element of every page of a 256 MiB triad took as long as a tenth of a pass) — and still lands in every thread's
// slice and every tier part of any size that matters; the element-wise kernels add the edges of those. A stride
// is always a power of two pages.
constexpr std::size_t sampled_pages = 512;

std::size_t sampled_check_stride(const KernelShape& shape) {
  const std::size_t page_elements = std::max<std::size_t>(1, platform::page_bytes() / sizeof(double));
  std::size_t largest = 0;
  for (const ArrayLayout& array : shape.arrays) largest = std::max<std::size_t>(largest, array.words);
  std::size_t stride = page_elements;
  while (largest / stride > sampled_pages) stride *= 2;
  return stride;
}

// "" when every compared element was right, else the count and the first wrong one.
std::string describe_mismatches(const std::vector<detail::SliceCheck>& checks, detail::CheckSample sample,
                                const KernelShape& shape) {
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
                     sample.every_element() ? "" : fmt::format("sampled (one in {}) ", sample.stride),
                     shape.arrays.at(first->array).name, first->index,
                     first->found, first->expected);
}

}  // namespace

struct StreamSession::State {
  State(const StreamConfig& config, platform::TierBackend& tiers)
      : plan(detail::plan_run(config)),
        kernel(*plan.kernel),
        backend(tiers),
        cost(tiers.cost_model()),
        sample_stride(sampled_check_stride(plan.shape)) {
    (void)detail::slow_passes_for(cost.slow_pass_factor);  // a broken cost model fails before allocating
    make_work();
    owned.resize(plan.shape.arrays.size());
    spans.resize(plan.shape.arrays.size());
  }
  // Releases the arrays in reverse order of allocation (as a std::array member did before; tests rely on it).
  ~State() {
    while (!owned.empty()) owned.pop_back();
  }
  State(const State&) = delete;
  State& operator=(const State&) = delete;

  detail::RunPlan plan;  // plan.fast_words is the arrays' current split, plan.cores the current team
  const KernelSpec& kernel;
  platform::TierBackend& backend;
  platform::TierCostModel cost;
  std::size_t sample_stride;  // of a sampled check (sampled_check_stride)
  unsigned threads = 0;
  std::unique_ptr<detail::KernelWork> work;  // for the current team
  // The work of the team that initialised the kept arrays, until the current team has taken them over.
  std::unique_ptr<detail::KernelWork> previous_work;
  std::vector<platform::TieredArray> owned;  // indexed like plan.shape.arrays; empty for an array of 0 words
  detail::ArraySpanList spans;
  std::vector<std::vector<unsigned>> touched_by;  // the PUs of the cores that first-touched the arrays
  // The PUs of the cores that faulted fresh arrays in (the team's first, then its mates), until they are
  // initialised: they may do the work's shared_fill pieces too.
  std::vector<std::vector<unsigned>> fill_cores;
  bool arrays_ready = false;              // allocated, consistently split, first-touched
  bool initialise_again = false;          // kept for a new team, whose threads must write the initial values
  bool fresh = true;                      // not measured since initialised: the next measurement checks in full
  bool sampled_since_full_check = false;  // a finish(), re-allocation or re-initialisation compares all first
  SessionCounts counts;
  // What the measurements so far reported of counts' preparation and validation time: the next one reports the rest
  // (the first one also what the constructor spent preparing its arrays).
  double reported_preparation_s = 0.0;
  double reported_validation_s = 0.0;

  [[nodiscard]] std::size_t words(std::size_t k) const { return plan.shape.arrays[k].words; }

  void make_work() {
    threads = static_cast<unsigned>(plan.cores.size());
    const bool larger_than_a_cores_cache = plan.shape.footprint_bytes() > detail::private_cache_bytes();
    const detail::WorkContext context{kernel,        plan.shape,   threads, plan.streaming_stores,
                                      cost.slow_pass_factor, sample_stride, larger_than_a_cores_cache};
    work = detail::make_kernel_work(context);
  }

  // The current team writes the initial values: the first touch of fresh pages, or, on kept arrays, what its
  // work needs written afresh (KernelWork::take_over, from the work of the team before).
  void initialise() {
    const Clock::time_point start = Clock::now();
    if (previous_work && initialise_again) {
      (void)detail::run_pinned_team(plan,
                                    [this](unsigned thread) { work->take_over(thread, spans, *previous_work); });
    } else if (shared_fill()) {
      (void)detail::run_pinned_team(plan, [this](unsigned thread) { work->finish_first_touch(thread, spans); });
    } else {
      (void)detail::run_pinned_team(plan, [this](unsigned thread) { work->first_touch(thread, spans); });
    }
    fill_cores.clear();
    previous_work.reset();
    counts.preparation_s += seconds_since(start);
    initialise_again = false;
    fresh = true;
    sampled_since_full_check = false;
  }

  // The work's shared_fill pieces, spread over fill_cores: true when they all ran (some thread could do them).
  bool shared_fill() {
    const std::size_t pieces = work->shared_fill_pieces();
    if (fill_cores.empty() || pieces == 0) return false;
    const auto fill_piece = [this](std::size_t piece) { work->shared_fill(piece, spans); };
    return detail::spread_over_cores(pieces, fill_cores, fill_piece) > 0;
  }

  // Fresh pages are most of a session's preparation: the OS zeroes each page at its first touch and, on a VM whose
  // host took the memory back (docs/fidelity.md, "Memory the hypervisor took back"), faults it in through the host
  // at a fraction of the memory's speed. Faults on different cores proceed in parallel, so when more allowed cores
  // share the team's memory locality than the team has, they fault every fresh page in first (a page lands where
  // the team's own first touch would have put it) and the team then writes its values into resident pages.
  void prefault_fresh_pages() {
    const std::vector<std::vector<unsigned>> allowed = platform::allowed_cores();
    const std::vector<unsigned> mates = first_touch_mates(platform::Topology::this_system(), allowed, plan.core_pus);
    if (mates.size() <= plan.cores.size()) return;
    std::vector<std::vector<unsigned>> mate_pus{plan.core_pus.front()};  // the caller's thread: the team's first
    for (unsigned core : mates) {
      if (allowed[core] != plan.core_pus.front()) mate_pus.push_back(allowed[core]);
    }
    std::vector<std::span<double>> regions;
    for (const platform::TieredSpan& span : spans) {
      regions.emplace_back(span.fast, span.fast_count);
      regions.emplace_back(span.slow, span.slow_count);
    }
    if (detail::prefault_pages(regions, mate_pus) > 0) {
      ++counts.prefaulted;
      fill_cores = std::move(mate_pus);
    }
  }

  // Releases the old arrays first, so their memory and fast-tier bytes are free for the new ones.
  void allocate() {
    const Clock::time_point start = Clock::now();
    arrays_ready = false;
    previous_work.reset();  // fresh arrays: first touch, nothing to take over
    initialise_again = false;
    for (auto& array : owned) array = {};
    for (auto& span : spans) span = {};
    for (std::size_t k = 0; k < owned.size(); ++k) {
      if (words(k) == 0) continue;
      owned[k] = backend.allocate(words(k), plan.fast_words[k]);
      check_split(backend, owned[k].span(), words(k), plan.fast_words[k]);
      spans[k] = owned[k].span();
    }
    prefault_fresh_pages();
    ++counts.allocations;
    counts.preparation_s += seconds_since(start);
    touched_by = plan.core_pus;
    initialise();
    arrays_ready = true;
  }

  // Moves every array's split through the backend; false (nothing changed) when it cannot. A refused or broken
  // split puts the arrays already moved back, so the arrays keep the plan's split.
  bool resplit_all(const std::vector<std::size_t>& fast_words) {
    std::vector<std::size_t> moved;
    auto roll_back = [&] {
      try {
        for (std::size_t k : moved) {
          if (!backend.resplit(owned[k], plan.fast_words[k])) arrays_ready = false;
        }
      } catch (...) {
        arrays_ready = false;  // cannot restore the plan's split: the next measurement allocates anew
      }
    };
    try {
      for (std::size_t k = 0; k < owned.size(); ++k) {
        if (words(k) == 0) continue;
        if (!backend.resplit(owned[k], fast_words[k])) {
          roll_back();
          return false;
        }
        moved.push_back(k);
        check_split(backend, owned[k].span(), words(k), fast_words[k]);
      }
    } catch (...) {
      roll_back();
      throw;
    }
    for (std::size_t k : moved) spans[k] = owned[k].span();
    plan.fast_words = fast_words;
    ++counts.resplits;
    return true;
  }

  SessionCheck full_check() {
    const Clock::time_point start = Clock::now();
    std::vector<detail::SliceCheck> checks(threads);
    (void)detail::run_pinned_team(plan, [&](unsigned thread) { checks[thread] = work->check(thread, spans, {}); });
    sampled_since_full_check = false;
    counts.validation_s += seconds_since(start);
    const std::string problem = describe_mismatches(checks, {}, plan.shape);
    return {problem.empty(), problem};
  }

  // A full check before the arrays' contents are replaced, unless the last measurement was checked in full; ""
  // when it passes, else the problem prefixed with `before`.
  std::string check_before_replacing(const char* before) {
    if (!arrays_ready || !sampled_since_full_check) return "";
    const SessionCheck check = full_check();
    return check.validated ? "" : fmt::format("before {}: {}", before, check.validation_message);
  }

  // Gives the session the team of `cores` (none: keep the team). The arrays stay when every core that touched them
  // and every new one share a memory locality; the new team then initialises them again (prepare() does) so that
  // its first measurement shows every element it did not write. Returns a failure of the old team's last
  // measurement, found by the full check done first ("" if none).
  std::string change_team(const std::vector<unsigned>& cores) {
    if (cores.empty() || cores == plan.cores) return "";
    detail::Team team = detail::plan_team(static_cast<unsigned>(cores.size()), cores);
    std::vector<std::vector<unsigned>> all_cores = touched_by;
    all_cores.insert(all_cores.end(), team.core_pus.begin(), team.core_pus.end());
    const bool keep = arrays_ready && share_first_touch_placement(platform::Topology::this_system(), all_cores);
    const std::string problem =  // by the old team's work, which knows what its measurements left
        check_before_replacing(keep ? "initialising the arrays for a new team" : "re-allocating for a new team");
    plan.cores = std::move(team.cores);
    plan.core_pus = std::move(team.core_pus);
    // The old work knows what the arrays hold; a team that changes again before taking over keeps the first.
    if (keep && !previous_work) previous_work = std::move(work);
    make_work();
    if (keep) {
      initialise_again = true;
    } else {
      arrays_ready = false;  // prepare() allocates anew for this team
    }
    return problem;
  }

  // Puts the arrays at `fast_words`; returns a failure of the full check done before re-allocating ("" if none).
  std::string move_split(const std::vector<std::size_t>& fast_words) {
    if (arrays_ready && fast_words == plan.fast_words) return "";
    if (arrays_ready && resplit_all(fast_words)) return "";
    const std::string problem = check_before_replacing("re-allocating for a new split");
    plan.fast_words = fast_words;
    allocate();
    return problem;
  }

  // The team and the split of `run`, the arrays ready for it; the first problem found on the way ("" if none).
  std::string prepare(const SessionRun& run) {
    const std::vector<std::size_t> fast_words = detail::fast_words_for(plan.shape, run.fast_fraction);  // checks it
    std::string problem = change_team(run.cores);
    const std::string split_problem = move_split(fast_words);
    if (problem.empty()) problem = split_problem;
    if (initialise_again) {
      initialise();
      ++counts.reinitialisations;
    }
    return problem;
  }
};

StreamSession::StreamSession(const StreamConfig& config, platform::TierBackend& backend)
    : state_(std::make_unique<State>(config, backend)) {
  state_->allocate();
}

StreamSession::~StreamSession() = default;

const SessionCounts& StreamSession::counts() const noexcept { return state_->counts; }

SessionCounts& SessionCounts::operator+=(const SessionCounts& other) noexcept {
  allocations += other.allocations;
  resplits += other.resplits;
  reinitialisations += other.reinitialisations;
  prefaulted += other.prefaulted;
  measurements += other.measurements;
  preparation_s += other.preparation_s;
  validation_s += other.validation_s;
  return *this;
}

SessionCheck StreamSession::finish() {
  if (!state_->arrays_ready || !state_->sampled_since_full_check) return {};
  return state_->full_check();
}

StreamResult StreamSession::measure(const SessionRun& run) {
  State& s = *state_;
  if (run.reps == 0) throw UsageError("reps must be at least 1");
  const std::string earlier_problem = s.prepare(run);

  const bool sampled = !s.fresh;
  // The offset walks through all of a stride's elements over successive measurements (97 is coprime with the
  // power-of-two stride).
  const detail::CheckSample sample = sampled ? detail::CheckSample{s.sample_stride,
                                                                   s.counts.measurements * 97 % s.sample_stride}
                                             : detail::CheckSample{};
  const unsigned threads = s.threads;
  const unsigned total_reps = run.warmup_reps + run.reps;
  std::vector<double> times(total_reps, 0.0);
  std::vector<std::vector<double>> thread_sums(threads, std::vector<double>(run.reps, 0.0));
  std::vector<double> discarded(threads, 0.0);
  std::vector<detail::SliceCheck> checks(threads);
  std::vector<double> check_s(threads, 0.0);
  Clock::time_point rep_start;

  std::vector<ThreadPlacement> placements = detail::run_pinned_team(s.plan, [&](unsigned thread) {
    // Every rep starts and ends on a barrier, so thread 0's clock covers all threads' traffic. The barrier that
    // starts a rep also waits for a thread that slept at the end of the last one to be running again: its wake-up
    // stays out of the rep's time (a single barrier between reps would put it in, milliseconds when other
    // processes want the cores).
    for (unsigned rep = 0; rep < total_reps; ++rep) {
#pragma omp barrier
#pragma omp master
      rep_start = Clock::now();
      const double sum = s.work->run_rep(thread, s.spans, discarded[thread]);
#pragma omp barrier
#pragma omp master
      times[rep] = std::chrono::duration<double>(Clock::now() - rep_start).count();
      if (rep >= run.warmup_reps) thread_sums[thread][rep - run.warmup_reps] = sum;
    }
    const Clock::time_point check_start = Clock::now();
    checks[thread] = s.work->check(thread, s.spans, sample);
    check_s[thread] = seconds_since(check_start);
  });
  // The checks' own time: the slowest thread's (the team's end is the measurement's, not the check's).
  s.counts.validation_s += *std::max_element(check_s.begin(), check_s.end());
  ++s.counts.measurements;
  s.fresh = false;
  s.sampled_since_full_check = sampled;

  StreamResult result;
  result.kernel = std::string(s.kernel.name);
  result.formula = std::string(s.kernel.formula);
  result.threads = threads;
  result.cores = s.plan.cores;
  result.placements = std::move(placements);
  const KernelShape& shape = s.plan.shape;
  result.array_count = s.kernel.array_count();
  result.array_bytes = shape.footprint_bytes() / result.array_count;
  result.bytes_per_element = s.kernel.bytes_per_element();
  result.bytes_per_rep = shape.bytes_per_rep;
  result.flops_per_rep = shape.flops_per_rep;
  result.updates_per_rep = shape.updates_per_rep;
  result.merit_unit = std::string(merit_unit_name(s.kernel.merit));
  result.problem = shape.problem + s.work->problem_note();
  for (const ArrayLayout& array : shape.arrays) {
    if (array.words > 0) result.arrays.push_back({array.name, array.words * sizeof(double)});
  }
  result.reps = run.reps;
  // ddot stores nothing, and the other kernels' stores are their own: --stores applies to element-wise stores.
  result.stores = !s.kernel.elementwise() || s.kernel.is_reduction()
                      ? "none"
                      : std::string(to_string(s.plan.streaming_stores ? StoreMode::streaming : StoreMode::regular));
  if (s.kernel.elementwise()) result.kernel_isa = std::string(kernel_isa_name(active_kernel_isa()));
  result.warmup_time_s = std::accumulate(times.begin(), times.begin() + run.warmup_reps, 0.0);
  result.preparation_s = s.counts.preparation_s - std::exchange(s.reported_preparation_s, s.counts.preparation_s);
  result.validation_s = s.counts.validation_s - std::exchange(s.reported_validation_s, s.counts.validation_s);
  result.rep_times_s.assign(times.begin() + run.warmup_reps, times.end());
  fill_statistics(result, shape.merit_count(s.kernel.merit));

  std::string problem = earlier_problem;
  if (problem.empty()) problem = describe_mismatches(checks, sample, shape);
  if (const std::optional<double> expected_sum = s.work->expected_sum()) {
    const double expected = *expected_sum;
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
