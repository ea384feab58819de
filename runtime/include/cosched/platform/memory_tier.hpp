#pragma once
// The memory-tier seam. A task's buffer of B bytes with fast fraction f gets ceil(f*B) bytes (rounded up to
// pages, capped at B) in the fast tier and the rest in the slow tier. A backend (memkind, numa, emulated, ...)
// implements TierBackend and registers by name; stream_bench and the launcher only see this header.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace cosched::platform {

// One array split between the tiers: elements [0, fast_count) live at `fast`, elements [fast_count, count) at
// `slow` (slow[0] is element fast_count). A backend may make both parts one contiguous range (slow == fast +
// fast_count) or two separate allocations. Either pointer is null when its part is empty.
struct TieredSpan {
  double* fast = nullptr;
  double* slow = nullptr;
  std::size_t fast_count = 0;
  std::size_t slow_count = 0;
  [[nodiscard]] std::size_t count() const noexcept { return fast_count + slow_count; }
  [[nodiscard]] double& operator[](std::size_t i) const noexcept {
    return i < fast_count ? fast[i] : slow[i - fast_count];
  }
};

// Owns the memory behind a TieredSpan; releases it (and any fast-tier chunks accounted for it) on destruction.
class TieredArray {
 public:
  struct Releaser {
    virtual ~Releaser() = default;
  };
  TieredArray() = default;
  TieredArray(TieredSpan span, std::unique_ptr<Releaser> owner) : span_(span), owner_(std::move(owner)) {}
  [[nodiscard]] const TieredSpan& span() const noexcept { return span_; }
  [[nodiscard]] std::size_t fast_bytes() const noexcept { return span_.fast_count * sizeof(double); }
  [[nodiscard]] std::size_t slow_bytes() const noexcept { return span_.slow_count * sizeof(double); }
  // For TierBackend::resplit: the backend recognises its own arrays by their releaser and moves the split.
  [[nodiscard]] Releaser* releaser() const noexcept { return owner_.get(); }
  void set_span(const TieredSpan& span) noexcept { span_ = span; }

 private:
  TieredSpan span_;
  std::unique_ptr<Releaser> owner_;
};

// How a kernel must treat the slow part so that timing reflects the tier. For real tiers the hardware does it
// (slow_pass_factor == 1). The emulated backend asks the kernel to stream its slow part `slow_pass_factor` times
// (fractional factors stream a prefix on the last pass): real memory traffic, so co-runners contend; never a sleep.
struct TierCostModel {
  double slow_pass_factor = 1.0;
  bool emulated = false;
};

class TierBackend {
 public:
  virtual ~TierBackend() = default;
  [[nodiscard]] virtual std::string_view name() const = 0;  // "memkind", "numa", "emulated", ...
  [[nodiscard]] virtual TierCostModel cost_model() const = 0;
  // Allocates `count` doubles with `fast_count` of them in the fast tier. Pages are not touched: the caller's
  // threads first-touch them. Throws ResourceError when the fast tier cannot take them.
  [[nodiscard]] virtual TieredArray allocate(std::size_t count, std::size_t fast_count) = 0;
  // Moves the split of an array this backend allocated to `fast_count` elements, keeping every element's value,
  // so a caller can change the fast share without allocating and first-touching again. Returns false when the
  // backend cannot (the default, or an array it did not allocate): the caller then allocates anew. Throws
  // ResourceError, leaving the array as it was, when the fast tier cannot take the larger share.
  [[nodiscard]] virtual bool resplit(TieredArray& /*array*/, std::size_t /*fast_count*/) { return false; }
};

}  // namespace cosched::platform
