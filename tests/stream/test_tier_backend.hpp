#pragma once
// A tiny TierBackend for tests: 64-byte aligned heap memory, fast and slow parts as separate allocations (or one
// contiguous block), a chosen cost model, and a copy of every array's contents taken when it is released, so
// tests can look at what a run left in memory after run_stream has freed it. With `supports_resplit`, a
// contiguous array's split can be moved in place (TierBackend::resplit), as the emulated backend does.
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "cosched/platform/memory_tier.hpp"

namespace cosched::stream::testing {

struct ReleasedArrays {
  std::vector<std::vector<double>> contents;  // in allocation order
};

class TestTierBackend final : public platform::TierBackend {
 public:
  enum class Layout { separate, contiguous };

  explicit TestTierBackend(platform::TierCostModel cost = {}, Layout layout = Layout::separate)
      : cost_(cost), layout_(layout) {}

  [[nodiscard]] std::string_view name() const override { return "test"; }
  [[nodiscard]] platform::TierCostModel cost_model() const override { return cost_; }

  [[nodiscard]] platform::TieredArray allocate(std::size_t count, std::size_t fast_count) override {
    ++allocations;
    auto owner = std::make_unique<Owner>(released_);
    platform::TieredSpan span;
    span.fast_count = fast_count;
    span.slow_count = count - fast_count;
    if (layout_ == Layout::contiguous) {
      double* block = owner->take(count);
      span.fast = fast_count > 0 ? block : nullptr;
      span.slow = span.slow_count > 0 ? block + fast_count : nullptr;
    } else {
      span.fast = fast_count > 0 ? owner->take(fast_count) : nullptr;
      span.slow = span.slow_count > 0 ? owner->take(span.slow_count) : nullptr;
    }
    owner->span = span;
    allocated_spans.push_back(span);
    return {span, std::move(owner)};
  }

  [[nodiscard]] bool resplit(platform::TieredArray& array, std::size_t fast_count) override {
    auto* owner = dynamic_cast<Owner*>(array.releaser());
    if (!supports_resplit || layout_ != Layout::contiguous || owner == nullptr) return false;
    double* block = owner->blocks.front();
    const std::size_t count = owner->span.count();
    platform::TieredSpan span;
    span.fast_count = fast_count;
    span.slow_count = count - fast_count;
    span.fast = fast_count > 0 ? block : nullptr;
    span.slow = span.slow_count > 0 ? block + fast_count : nullptr;
    owner->span = span;
    array.set_span(span);
    ++resplits;
    return true;
  }

  [[nodiscard]] const ReleasedArrays& released() const { return *released_; }
  int allocations = 0;
  int resplits = 0;
  bool supports_resplit = false;
  std::vector<platform::TieredSpan> allocated_spans;  // every allocation's span as handed out, in order

 private:
  struct Owner final : platform::TieredArray::Releaser {
    explicit Owner(std::shared_ptr<ReleasedArrays> sink) : released(std::move(sink)) {}
    ~Owner() override {
      std::vector<double> copy(span.count());
      for (std::size_t i = 0; i < span.count(); ++i) copy[i] = span[i];
      released->contents.push_back(std::move(copy));
      for (double* block : blocks) std::free(block);
    }
    double* take(std::size_t count) {
      const std::size_t bytes = (count * sizeof(double) + 63) / 64 * 64;
      auto* block = static_cast<double*>(std::aligned_alloc(64, bytes));
      if (block == nullptr) throw std::bad_alloc();
      blocks.push_back(block);
      return block;
    }
    std::shared_ptr<ReleasedArrays> released;
    std::vector<double*> blocks;
    platform::TieredSpan span;
  };

  platform::TierCostModel cost_;
  Layout layout_;
  std::shared_ptr<ReleasedArrays> released_ = std::make_shared<ReleasedArrays>();
};

}  // namespace cosched::stream::testing
