#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "cosched/platform/binding.hpp"
#include "cosched/stream/stream_run.hpp"
#include "stream/test_tier_backend.hpp"

namespace cosched::stream {
namespace {

StreamConfig pinned_config(std::vector<unsigned> cores) {
  StreamConfig config;
  config.kernel = "triad";
  config.threads = static_cast<unsigned>(cores.size());
  config.cores = std::move(cores);
  config.array_bytes = std::size_t{1} << 20;  // big enough that every thread streams for a while
  config.reps = 2;
  return config;
}

// Each OpenMP thread read its own binding back from the OS inside the run: it must be exactly its core's PUs,
// and the PU it ran on must be one of them.
void expect_pinned_as_asked(const StreamResult& result, const std::vector<unsigned>& cores) {
  const auto allowed = platform::allowed_cores();
  ASSERT_EQ(result.placements.size(), cores.size());
  EXPECT_EQ(result.cores, cores);
  for (unsigned thread = 0; thread < cores.size(); ++thread) {
    const ThreadPlacement& placement = result.placements[thread];
    EXPECT_EQ(placement.thread, thread);
    EXPECT_EQ(placement.core, cores[thread]);
    EXPECT_EQ(placement.bound_pus, allowed[cores[thread]]);
    const auto& pus = allowed[cores[thread]];
    EXPECT_NE(std::find(pus.begin(), pus.end(), placement.observed_pu), pus.end())
        << "thread " << thread << " ran on PU " << placement.observed_pu;
  }
}

TEST(Pinning, FirstNCoresByDefault) {
  const auto cores = platform::allowed_cores().size();
  std::vector<unsigned> expected(cores);
  for (unsigned k = 0; k < cores; ++k) expected[k] = k;
  StreamConfig config = pinned_config(expected);
  config.cores.clear();  // "the first N"
  testing::TestTierBackend backend;
  const StreamResult result = run_stream(config, backend);
  EXPECT_EQ(result.threads, cores);
  expect_pinned_as_asked(result, expected);
}

TEST(Pinning, ExplicitCoreListInAnyOrder) {
  const auto cores = platform::allowed_cores().size();
  std::vector<unsigned> reversed(cores);
  for (unsigned k = 0; k < cores; ++k) reversed[k] = static_cast<unsigned>(cores - 1 - k);
  testing::TestTierBackend backend;
  expect_pinned_as_asked(run_stream(pinned_config(reversed), backend), reversed);
}

TEST(Pinning, SingleThreadOnTheLastCore) {
  const auto last = static_cast<unsigned>(platform::allowed_cores().size() - 1);
  testing::TestTierBackend backend;
  expect_pinned_as_asked(run_stream(pinned_config({last}), backend), {last});
}

TEST(Pinning, CallerGetsItsBindingBack) {
  const std::vector<unsigned> before = platform::current_thread_binding();
  testing::TestTierBackend backend;
  (void)run_stream(pinned_config({0}), backend);
  EXPECT_EQ(platform::current_thread_binding(), before);
}

}  // namespace
}  // namespace cosched::stream
