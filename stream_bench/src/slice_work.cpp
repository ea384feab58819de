#include "slice_work.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "cosched/common/error.hpp"
#include "kernel_loops.hpp"
#include "vector_ops.hpp"

namespace cosched::stream::detail {

namespace {

constexpr std::size_t line_elements = 64 / sizeof(double);

// Calls fn(pointer to element first, first, n) for the part of [slice.begin, slice.end) in each tier.
template <class Fn>
void for_each_part(const platform::TieredSpan& span, Slice slice, Fn fn) {
  const std::size_t split = span.fast_count;
  if (slice.begin < split) {
    const std::size_t end = std::min(slice.end, split);
    fn(span.fast + slice.begin, slice.begin, end - slice.begin);
  }
  if (slice.end > split) {
    const std::size_t begin = std::max(slice.begin, split);
    fn(span.slow + (begin - split), begin, slice.end - begin);
  }
}

// Pointers to element `offset` of one tier's part of every touched array (null for untouched ones).
ArrayPointers part_pointers(const ArraySpans& spans, ArraySet touched, bool fast, std::size_t offset) noexcept {
  auto at = [&](ArrayId id) -> double* {
    if (!touched.contains(id)) return nullptr;
    const platform::TieredSpan& span = spans[static_cast<std::size_t>(id)];
    return (fast ? span.fast : span.slow) + offset;
  };
  return {at(ArrayId::a), at(ArrayId::b), at(ArrayId::c)};
}

constexpr std::array<ArrayId, array_id_count> all_arrays{ArrayId::a, ArrayId::b, ArrayId::c};

// The split index, the same for all of a kernel's arrays (run_stream checks the backend kept to that).
std::size_t fast_count_of(const KernelSpec& kernel, const ArraySpans& spans) noexcept {
  for (ArrayId id : all_arrays) {
    if (kernel.touched().contains(id)) return spans[static_cast<std::size_t>(id)].fast_count;
  }
  return 0;
}

// One period of an array's values: what first touch writes, what validation compares with.
using Pattern = std::array<double, initial_value_period>;

Pattern initial_pattern(ArrayId id) noexcept {
  Pattern values{};
  for (std::size_t j = 0; j < initial_value_period; ++j) values[j] = initial_value(id, j);
  return values;
}

// The table's element(a, b, c, s) on the initial values: the written array's contents, or ddot's terms.
Pattern result_pattern(const KernelSpec& kernel) noexcept {
  Pattern values{};
  for (std::size_t j = 0; j < initial_value_period; ++j) {
    values[j] = kernel.element(initial_value(ArrayId::a, j), initial_value(ArrayId::b, j),
                               initial_value(ArrayId::c, j), kernel_scalar);
  }
  return values;
}

// The number of elements of p[0, n) that differ from the periodic `values` taken from phase `phase` on. Written
// as a branch-free count over whole periods, which the compiler vectorises, so a full check runs at the speed of
// reading memory; check_slice looks for the first wrong element only when this finds one.
std::size_t count_pattern_mismatches(const double* p, std::size_t n, const Pattern& values,
                                     std::size_t phase) noexcept {
  Pattern rotated{};
  for (std::size_t j = 0; j < initial_value_period; ++j) rotated[j] = values[(phase + j) % initial_value_period];
  std::size_t wrong = 0;
  std::size_t k = 0;
  for (; k + initial_value_period <= n; k += initial_value_period) {
    for (std::size_t j = 0; j < initial_value_period; ++j) wrong += p[k + j] != rotated[j] ? 1 : 0;
  }
  for (std::size_t j = 0; k + j < n; ++j) wrong += p[k + j] != rotated[j] ? 1 : 0;
  return wrong;
}

// p[k] = values[(phase + k) % period] for k in [0, n). Streaming stores write whole lines without reading them
// first (an ordinary store reads each line it writes): on fresh or about-to-be-overwritten arrays larger than the
// cache that is ~2.7 times the speed (256 MiB: 15 ms against 42 ms on this VM) — set-up time the profiler's
// overhead counts. The period is a whole number of vectors, so once p is aligned whole periods go by vectors.
static_assert(initial_value_period % Vector::lanes == 0);
void fill_periodic(double* p, std::size_t n, const Pattern& values, std::size_t phase, bool streaming) noexcept {
  std::size_t k = 0;
  std::size_t j = phase;
  const auto scalar_until = [&](std::size_t stop) {
    for (; k < stop; ++k) {
      p[k] = values[j];
      if (++j == initial_value_period) j = 0;
    }
  };
  if (!streaming) {
    scalar_until(n);
    return;
  }
  std::size_t head = 0;
  while (head < n && reinterpret_cast<std::uintptr_t>(p + head) % (Vector::lanes * sizeof(double)) != 0) ++head;
  scalar_until(head);
  Pattern rotated{};
  for (std::size_t i = 0; i < initial_value_period; ++i) rotated[i] = values[(j + i) % initial_value_period];
  for (; k + initial_value_period <= n; k += initial_value_period) {
    for (std::size_t v = 0; v < initial_value_period; v += Vector::lanes) {
      Vector::stream(p + k + v, Vector::load(rotated.data() + v));
    }
  }
  scalar_until(n);
}

}  // namespace

Slice thread_slice(std::size_t count, unsigned threads, unsigned thread) noexcept {
  const std::size_t lines = (count + line_elements - 1) / line_elements;
  const std::size_t first = lines * thread / threads;
  const std::size_t last = lines * (thread + 1) / threads;
  return {std::min(first * line_elements, count), std::min(last * line_elements, count)};
}

void fill_initial(const KernelSpec& kernel, const ArraySpans& spans, Slice slice, ArraySet which,
                  bool streaming) noexcept {
  for (ArrayId id : all_arrays) {
    if (!kernel.touched().contains(id) || !which.contains(id)) continue;
    const Pattern values = initial_pattern(id);
    for_each_part(spans[static_cast<std::size_t>(id)], slice, [&](double* p, std::size_t first, std::size_t n) {
      fill_periodic(p, n, values, first % initial_value_period, streaming);
    });
  }
  if (streaming) store_fence();
}

SlowPasses slow_passes_for(double slow_pass_factor) {
  if (!(slow_pass_factor >= 1.0) || !std::isfinite(slow_pass_factor)) {
    throw RuntimeFailure("tier cost model asks for slow_pass_factor " + std::to_string(slow_pass_factor) +
                         ": the slow part must be streamed at least once");
  }
  const double full = std::floor(slow_pass_factor);
  return {static_cast<std::size_t>(full), slow_pass_factor - full};
}

double run_slice(const KernelSpec& kernel, const ArraySpans& spans, Slice slice, const SlowPasses& passes,
                 bool streaming, double& discarded) noexcept {
  const std::size_t split = fast_count_of(kernel, spans);
  double sum = 0.0;
  if (slice.begin < split) {
    const std::size_t end = std::min(slice.end, split);
    sum += run_kernel_range(kernel.id, part_pointers(spans, kernel.touched(), true, slice.begin), end - slice.begin,
                            kernel_scalar, streaming);
  }
  if (slice.end > split) {
    const std::size_t begin = std::max(slice.begin, split);
    const std::size_t n = slice.end - begin;
    const ArrayPointers slow = part_pointers(spans, kernel.touched(), false, begin - split);
    sum += run_kernel_range(kernel.id, slow, n, kernel_scalar, streaming);
    // The emulated slower tier: stream the slow part again. Kernels are idempotent, so results do not change.
    for (std::size_t pass = 1; pass < passes.full_passes; ++pass) {
      discarded += run_kernel_range(kernel.id, slow, n, kernel_scalar, streaming);
    }
    const auto prefix = static_cast<std::size_t>(std::llround(passes.last_pass_fraction * static_cast<double>(n)));
    discarded += run_kernel_range(kernel.id, slow, std::min(prefix, n), kernel_scalar, streaming);
  }
  return sum;
}

SliceCheck check_slice(const KernelSpec& kernel, const ArraySpans& spans, Slice slice, CheckSample outputs,
                       CheckSample inputs) noexcept {
  SliceCheck check;
  for (ArrayId id : all_arrays) {
    if (!kernel.touched().contains(id)) continue;
    const bool written = kernel.writes.contains(id);
    const Pattern expected = written ? result_pattern(kernel) : initial_pattern(id);
    const CheckSample sample = written ? outputs : inputs;
    const auto array = static_cast<std::size_t>(id);
    for_each_part(spans[array], slice, [&](double* p, std::size_t first, std::size_t n) {
      if (sample.every_element() && count_pattern_mismatches(p, n, expected, first % initial_value_period) == 0) {
        check.checked += n;
        return;
      }
      auto compare = [&](std::size_t k) {
        check.compare(array, first + k, p[k], expected[(first + k) % initial_value_period]);
      };
      for (std::size_t k = sample.first_from(first) - first; k < n; k += sample.stride) compare(k);
      if (sample.every_element()) return;
      // And the first and last line of the part, where the tier split and the thread's slice cut the array:
      // an off-by-one at either shows in every sampled check, not only when the offset happens to land there.
      auto compare_edge = [&](std::size_t k) {
        if ((first + k) % sample.stride != sample.offset) compare(k);
      };
      const std::size_t head = std::min(n, line_elements);
      for (std::size_t k = 0; k < head; ++k) compare_edge(k);
      for (std::size_t k = std::max(head, n - std::min(n, line_elements)); k < n; ++k) compare_edge(k);
    });
  }
  return check;
}

double expected_sum(const KernelSpec& kernel, Slice slice) noexcept {
  if (!kernel.is_reduction()) return 0.0;
  const Pattern terms = result_pattern(kernel);
  double sum = 0.0;
  std::size_t j = slice.begin % initial_value_period;
  for (std::size_t i = slice.begin; i < slice.end; ++i) {
    sum += terms[j];
    if (++j == initial_value_period) j = 0;
  }
  return sum;
}

}  // namespace cosched::stream::detail
