// gups: HPCC RandomAccess. A table of n = 2^m 64-bit words, T[i] = i; one rep applies 4n updates
// T[r & (n-1)] ^= r, r walking HPCC's pseudo-random sequence (r <- r << 1 ^ (r < 0 ? POLY : 0)), one stream per
// thread: latency-bound. The figure of merit is GUP/s = updates / seconds / 1e9.
//
// Validation the HPCC way: xor is its own inverse, so applying the same updates again puts the table back to
// T[i] = i. HPCC lets concurrent updates race and tolerates 1 % wrong words; here updates of a team of more than
// one thread are atomic (lock xor), so the table returns exactly and any wrong word is an error.
#include <fmt/format.h>

#include "roofline_kernels.hpp"
#include "tiered_access.hpp"

namespace cosched::stream::detail {

namespace {

constexpr std::uint64_t hpcc_poly = 0x0000000000000007ULL;
constexpr std::uint64_t updates_per_word = kernels::gups_updates_per_word;
constexpr std::uint64_t stream_seed = 0x6a09e667f3bcc909ULL;
enum : std::size_t { table = 0 };

constexpr std::uint64_t next_random(std::uint64_t r) noexcept {
  return (r << 1) ^ (static_cast<std::int64_t>(r) < 0 ? hpcc_poly : 0);
}

class GupsWork final : public KernelWork {
 public:
  explicit GupsWork(const WorkContext& context)
      : n_(context.shape.dimension),
        threads_(context.threads),
        emulation_(context),
        applied_(context.threads, 0) {}

  void first_touch(unsigned thread, const ArraySpanList& arrays) override {
    const RowRange words = row_range(n_, threads_, thread);
    for (std::size_t i = words.begin; i < words.end; ++i) *u64_pointer(arrays[table], i) = i;
    applied_[thread] = 0;
  }

  double run_rep(unsigned thread, const ArraySpanList& arrays, double& discarded) override {
    apply_updates(thread, arrays[table]);
    emulation_.charge(thread, arrays, discarded);
    return 0.0;
  }

  // After an odd number of applications the table holds the updates once: a full check applies them once more
  // (untimed), then every word must be back at T[i] = i. A sampled check (between full ones) skips an odd table
  // instead of paying a whole rep to undo it: the updates accumulate, so a wrong or lost one still shows at the
  // next full check, which every session makes before it frees or re-allocates the table. (All threads apply
  // every rep and get the same sample, so they all take the same branch and barriers.)
  SliceCheck check(unsigned thread, const ArraySpanList& arrays, CheckSample sample) override {
    if (applied_[thread] % 2 == 1) {
      if (!sample.every_element()) return {};
      apply_updates(thread, arrays[table]);
#pragma omp barrier
    }
    SliceCheck check;
    const RowRange words = row_range(n_, threads_, thread);
    for (std::size_t i = sample.first_from(words.begin); i < words.end; i += sample.stride) {
      const std::uint64_t word = *u64_pointer(arrays[table], i);
      check.compare(table, i, static_cast<double>(word), static_cast<double>(i));
    }
#pragma omp barrier
    return check;
  }

 private:
  // This thread's share of the rep's updates, from its own start of the sequence.
  void apply_updates(unsigned thread, const platform::TieredSpan& words) {
    const RowRange share = row_range(updates_per_word * n_, threads_, thread);
    std::uint64_t r = mix64(stream_seed + thread) | 1U;  // never 0: the sequence would stay 0
    const std::uint64_t mask = n_ - 1;
    if (threads_ == 1) {
      for (std::size_t u = share.begin; u < share.end; ++u) {
        r = next_random(r);
        *u64_pointer(words, r & mask) ^= r;
      }
    } else {
      for (std::size_t u = share.begin; u < share.end; ++u) {
        r = next_random(r);
        __atomic_fetch_xor(u64_pointer(words, r & mask), r, __ATOMIC_RELAXED);
      }
    }
    ++applied_[thread];
  }

  std::size_t n_;
  unsigned threads_;
  SlowTierEmulation emulation_;
  std::vector<std::uint64_t> applied_;  // per thread (all apply every time): applications since first touch
};

}  // namespace


std::unique_ptr<KernelWork> make_gups_work(const WorkContext& context) { return std::make_unique<GupsWork>(context); }

}  // namespace cosched::stream::detail
