#pragma once
// What the kernels beyond STREAM share: addressing a word of an array split between the tiers, partitioning
// rows among the team, and the emulated slow tier's extra traffic.
#include <cstddef>
#include <cstdint>

#include "cosched/platform/memory_tier.hpp"
#include "kernel_work.hpp"

namespace cosched::stream::detail {

// Word i of a tiered array. The ternary on two pointers compiles to a conditional move, so random accesses pay
// no branch misprediction for the split. A granule (KernelShape) never straddles the split, so a pointer to the
// first word of a granule addresses the whole granule.
[[nodiscard]] inline double* word_pointer(const platform::TieredSpan& span, std::size_t i) noexcept {
  return i < span.fast_count ? span.fast + i : span.slow + (i - span.fast_count);
}

// Integer arrays live in the same 8-byte words (the backends allocate doubles); they are only ever accessed
// through these types, never as doubles.
[[nodiscard]] inline std::uint64_t* u64_pointer(const platform::TieredSpan& span, std::size_t i) noexcept {
  return reinterpret_cast<std::uint64_t*>(word_pointer(span, i));
}
[[nodiscard]] inline std::uint32_t* u32_pointer(const platform::TieredSpan& span, std::size_t word) noexcept {
  return reinterpret_cast<std::uint32_t*>(word_pointer(span, word));
}

// Rows [begin, end) of `count` that thread `thread` of `threads` works on: an even split.
struct RowRange {
  std::size_t begin = 0;
  std::size_t end = 0;
};
[[nodiscard]] constexpr RowRange row_range(std::size_t count, unsigned threads, unsigned thread) noexcept {
  return {count * thread / threads, count * (thread + 1) / threads};
}

// SplitMix64: the stateless seeded hash behind the generated inputs (spmv's columns and values, gups' stream
// starts), so any thread can regenerate any row for initialisation and validation.
[[nodiscard]] constexpr std::uint64_t mix64(std::uint64_t x) noexcept {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// The emulated slow tier for kernels that do not stream (docs/stream_bench.md): a rep's slow-tier traffic is
// charged (slow_pass_factor - 1) more times as sequential reads of the slow parts, scaled by how many bytes the
// kernel's byte model moves per byte of footprint. On real tiers (factor 1) this does nothing.
class SlowTierEmulation {
 public:
  SlowTierEmulation(const WorkContext& context);
  // This thread's share of the extra reads; their xor goes to `discarded` so the reads stay.
  void charge(unsigned thread, const ArraySpanList& arrays, double& discarded) const noexcept;

 private:
  SlowPasses extra_;  // full_passes - 1 whole extra sweeps, then a prefix
  unsigned threads_;
};

}  // namespace cosched::stream::detail
