#pragma once
// The seam between a session and one kernel's code: a KernelWork owns what a kernel keeps between the phases of
// a session (its shape, per-thread partition, expected results) and does each phase for one thread of the pinned
// team. The session allocates the arrays, moves their tier split, times the reps and reports; it never knows
// which kernel it runs.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cosched/platform/memory_tier.hpp"
#include "cosched/stream/kernels.hpp"

namespace cosched::stream::detail {

// The session's arrays, indexed like KernelShape::arrays; an array with 0 words is an empty span.
using ArraySpanList = std::vector<platform::TieredSpan>;

// How the slow part is streamed: `full_passes` whole passes, then a prefix of `last_pass_fraction` of it.
struct SlowPasses {
  std::size_t full_passes = 1;
  double last_pass_fraction = 0.0;
};
// From a cost model's slow_pass_factor (>= 1; throws RuntimeFailure otherwise: fewer passes would skip elements).
[[nodiscard]] SlowPasses slow_passes_for(double slow_pass_factor);

struct WorkContext {
  const KernelSpec& kernel;
  const KernelShape& shape;
  unsigned threads = 1;
  bool streaming_stores = false;
  double slow_pass_factor = 1.0;  // the tier cost model's (1 on real tiers)
  std::size_t sample_stride = 1;  // of the session's sampled checks (a power of two)
  // First touch writes the initial values by streaming stores (stream_bytes): arrays larger than a core's own
  // cache, which the first rep reads from memory anyway.
  bool stream_initial_values = false;
};

struct Mismatch {
  std::size_t array = 0;  // index into KernelShape::arrays
  std::size_t index = 0;  // word of that array
  double found = 0;
  double expected = 0;
};

struct SliceCheck {
  std::size_t checked = 0;  // values compared
  std::size_t mismatches = 0;
  std::optional<Mismatch> first;
  void compare(std::size_t array, std::size_t index, double found, double expected) noexcept {
    ++checked;
    if (found != expected && mismatches++ == 0) first = Mismatch{array, index, found, expected};
  }
};

// Which elements a check compares: those with index % stride == offset (offset < stride). {1, 0} is every element;
// a stride of one page's doubles compares one element on every page of every array. A kernel whose result cannot
// be sampled that way compares everything.
struct CheckSample {
  std::size_t stride = 1;
  std::size_t offset = 0;
  [[nodiscard]] bool every_element() const noexcept { return stride == 1; }
  // The first compared index at or after `begin`: walk [begin, end) from it in steps of `stride`.
  [[nodiscard]] std::size_t first_from(std::size_t begin) const noexcept {
    return begin + (offset + stride - begin % stride) % stride;
  }
};

// Every member is called by every thread of the pinned team at once (OpenMP barriers allowed inside).
class KernelWork {
 public:
  KernelWork() = default;
  KernelWork(const KernelWork&) = delete;
  KernelWork& operator=(const KernelWork&) = delete;
  virtual ~KernelWork() = default;
  // What the report adds to the shape's problem description (gemm: the OpenBLAS core it runs with).
  [[nodiscard]] virtual std::string problem_note() const { return {}; }
  // Writes the initial contents: the first touch, by the thread that will work on those pages.
  virtual void first_touch(unsigned thread, const ArraySpanList& arrays) = 0;
  // Initial values whose computation, not their memory traffic, is most of a first touch (spmv derives every
  // non-zero from a hash), split into independent pieces that any core sharing the team's memory locality may
  // write. When the session has faulted the fresh pages in from more cores than the team has (so a page is already
  // where the team's touch would put it), it spreads the pieces over those cores, taken as they become free (not
  // members of the team: a piece is called from any thread, never two at once for one piece), and then the team
  // calls finish_first_touch instead of first_touch. Otherwise first_touch does it all. A kernel without such work
  // has no pieces.
  [[nodiscard]] virtual std::size_t shared_fill_pieces() const { return 0; }
  virtual void shared_fill(std::size_t /*piece*/, const ArraySpanList& /*arrays*/) {}
  // What first_touch writes beyond every shared_fill piece.
  virtual void finish_first_touch(unsigned thread, const ArraySpanList& arrays) { first_touch(thread, arrays); }
  // For a new team on arrays that `previous` (another team's work of the same kernel and shape) initialised and
  // may have run reps on: makes them this team's initial state. Writing every initial value again (the default)
  // always does; a kernel whose reps leave its inputs as first touch wrote them overrides it to write afresh only
  // what its reps overwrite — still every such element, so that this team's first (full) check shows any element
  // its reps skipped — and takes what it knows of the inputs from `previous` instead of recomputing it.
  virtual void take_over(unsigned thread, const ArraySpanList& arrays, const KernelWork& /*previous*/) {
    first_touch(thread, arrays);
  }
  // One timed repetition, the emulated slow tier's extra traffic included. Returns this thread's part of a
  // reduction's result (0 otherwise); extra passes' results go to `discarded`, which the caller keeps observable.
  virtual double run_rep(unsigned thread, const ArraySpanList& arrays, double& discarded) = 0;
  // Compares this thread's part of the result with what it must be after the reps run since first touch.
  virtual SliceCheck check(unsigned thread, const ArraySpanList& arrays, CheckSample sample) = 0;
  // A reduction's exact result of one rep, computed at first touch (each rep's sum must equal it).
  [[nodiscard]] virtual std::optional<double> expected_sum() const { return std::nullopt; }
};

// The element-wise STREAM kernels' work (stream_work.cpp).
[[nodiscard]] std::unique_ptr<KernelWork> make_elementwise_work(const WorkContext& context);

}  // namespace cosched::stream::detail
