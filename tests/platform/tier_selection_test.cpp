// Choosing a tier backend: names, "auto", bad input (unknown name, bad ratio, missing tiers), capacities and
// budgets. Cases that depend on memkind's environment run in a re-executed child (memkind reads it once).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

#include "cosched/common/error.hpp"
#include "cosched/platform/tier_backends.hpp"

namespace cosched::platform {
namespace {

TierOptions with_backend(std::string name) {
  TierOptions options;
  options.backend = std::move(name);
  return options;
}

// Child-process check: prints `problem` (if any) and exits 1, else exits 0.
[[noreturn]] void exit_with(const std::string& problem) {
  std::fputs(problem.c_str(), stderr);
  std::exit(problem.empty() ? 0 : 1);
}

TEST(TierSelection, ListsEveryBackendAndAuto) {
  const auto names = tier_backend_names();
  for (const char* name : {"auto", "none", "memkind", "numa", "emulated"}) {
    EXPECT_NE(std::ranges::find(names, name), names.end()) << name;
  }
}

TEST(TierSelection, UnknownBackendIsAUsageErrorListingTheKnownOnes) {
  try {
    (void)make_tier_backend(with_backend("mcdram"));
    FAIL() << "unknown backend accepted";
  } catch (const UsageError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("\"mcdram\""), std::string::npos) << message;
    EXPECT_NE(message.find("emulated"), std::string::npos) << message;
  }
  EXPECT_THROW((void)resolve_tier_backend_name(with_backend("")), UsageError);
}

TEST(TierSelection, AutoResolvesToARealOrEmulatedBackend) {
  const std::string chosen = auto_tier_backend_name();
  EXPECT_TRUE(chosen == "memkind" || chosen == "numa" || chosen == "emulated") << chosen;
  EXPECT_EQ(make_tier_backend(TierOptions{})->name(), chosen);
  EXPECT_EQ(resolve_tier_backend_name(with_backend("none")), "none");
}

TEST(TierSelection, AutoPicksMemkindWhenMemkindFindsHbwNodes) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        setenv("MEMKIND_HBW_NODES", "0", 1);
        const std::string chosen = auto_tier_backend_name();
        exit_with(chosen == "memkind" ? "" : "auto chose " + chosen);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(TierSelection, AutoPicksNumaForGivenFastNodesWhenMemkindHasNone) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        unsetenv("MEMKIND_HBW_NODES");
        TierOptions options;
        options.fast_nodes = {0};
        const std::string with_nodes = resolve_tier_backend_name(options);
        exit_with(with_nodes == "numa" ? "" : "auto with fast node 0 chose " + with_nodes);
      },
      ::testing::ExitedWithCode(0), "");
}

// Where fast nodes are known, numa wins even when memkind also finds HBW nodes: it binds both parts to the
// classified nodes (docs/memory-tiers.md, "Automatic choice").
TEST(TierSelection, AutoPrefersNumaToMemkindWhereFastNodesAreKnown) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        setenv("MEMKIND_HBW_NODES", "0", 1);
        TierOptions options;
        options.fast_nodes = {0};
        const std::string with_nodes = resolve_tier_backend_name(options);
        exit_with(with_nodes == "numa" ? "" : "auto with fast node 0 and memkind's HBW node 0 chose " + with_nodes);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(TierSelection, NumaWithoutAFastNodeIsAResourceError) {
  if (auto_tier_backend_name() != "emulated") GTEST_SKIP() << "this machine has a fast tier";
  EXPECT_THROW((void)make_tier_backend(with_backend("numa")), ResourceError);
  EXPECT_THROW((void)make_fast_tier_budget(with_backend("numa")), ResourceError);
}

TEST(TierSelection, NumaRejectsNodesThatDoNotExist) {
  TierOptions options = with_backend("numa");
  options.fast_nodes = {4000};
  options.slow_nodes = {0};
  EXPECT_THROW((void)make_tier_backend(options), ResourceError);
  options.fast_nodes = {0};
  options.slow_nodes = {4000};
  EXPECT_THROW((void)make_tier_backend(options), ResourceError);
}

TEST(TierSelection, NumaCapacityIsTheFastNodesSize) {
  TierOptions options = with_backend("numa");
  options.fast_nodes = {0};
  options.slow_nodes = {0};
  const std::size_t capacity = fast_tier_capacity_bytes(options);
  EXPECT_GT(capacity, 0U);
  EXPECT_EQ(make_fast_tier_budget(options)->capacity_bytes(), capacity);
}

TEST(TierSelection, EmulationRatioMustBeFiniteAndAtLeastOne) {
  for (double ratio : {0.99, 0.0, -5.0, std::nan(""), std::numeric_limits<double>::infinity()}) {
    TierOptions options = with_backend("emulated");
    options.emulation_ratio = ratio;
    EXPECT_THROW((void)make_tier_backend(options), UsageError) << ratio;
  }
}

TEST(TierSelection, EmulatedCostModelStreamsTheSlowPartRatioTimes) {
  EXPECT_EQ(make_tier_backend(with_backend("emulated"))->cost_model().slow_pass_factor, 5.0);  // paper's default
  TierOptions options = with_backend("emulated");
  options.emulation_ratio = 2.5;
  const TierCostModel model = make_tier_backend(options)->cost_model();
  EXPECT_EQ(model.slow_pass_factor, 2.5);
  EXPECT_TRUE(model.emulated);
  options.emulation_ratio = 1.0;  // ratio 1: fast and slow equal, still "emulated"
  EXPECT_EQ(make_tier_backend(options)->cost_model().slow_pass_factor, 1.0);
}

TEST(TierSelection, RealAndUntieredBackendsDoNotEmulate) {
  const TierCostModel none = make_tier_backend(with_backend("none"))->cost_model();
  EXPECT_FALSE(none.emulated);
  EXPECT_EQ(none.slow_pass_factor, 1.0);
  TierOptions numa = with_backend("numa");
  numa.fast_nodes = numa.slow_nodes = {0};
  EXPECT_FALSE(make_tier_backend(numa)->cost_model().emulated);
}

TEST(TierSelection, NoneHasNoFastTier) {
  EXPECT_EQ(fast_tier_capacity_bytes(with_backend("none")), 0U);
  EXPECT_THROW((void)make_fast_tier_budget(with_backend("none")), ResourceError);
  auto backend = make_tier_backend(with_backend("none"));
  EXPECT_THROW((void)backend->allocate(1000, 1), ResourceError);
  EXPECT_EQ(backend->allocate(1000, 0).slow_bytes(), 8000U);
}

TEST(TierSelection, EmulatedCapacityDefaultsToASeventhOfMemoryAndCanBeConfigured) {
  EXPECT_EQ(fast_tier_capacity_bytes(with_backend("emulated")), default_emulated_fast_bytes());
  EXPECT_GT(default_emulated_fast_bytes(), 0U);
  TierOptions options = with_backend("emulated");
  options.emulated_fast_bytes = std::size_t{64} << 20;
  options.budget_chunks = 8;
  const auto budget = make_fast_tier_budget(options);
  EXPECT_EQ(budget->capacity_bytes(), std::size_t{64} << 20);
  EXPECT_EQ(budget->chunk_count(), 8U);
}

TEST(TierSelection, EmulatedRefusesToOverCommitItsFastTierAndReleaseReturnsIt) {
  TierOptions options = with_backend("emulated");
  options.emulated_fast_bytes = std::size_t{20} << 20;  // 20 one-MiB chunks
  options.budget = make_fast_tier_budget(options);
  auto backend = make_tier_backend(options);
  const std::size_t one_mib = (std::size_t{1} << 20) / sizeof(double);
  {
    const TieredArray first = backend->allocate(12 * one_mib, 12 * one_mib);
    EXPECT_THROW((void)backend->allocate(10 * one_mib, 9 * one_mib), ResourceError);
    const TieredArray slow_only = backend->allocate(10 * one_mib, 0);  // slow bytes are not budgeted
    EXPECT_EQ(options.budget->free_chunks(), 8U);
  }
  EXPECT_EQ(options.budget->free_chunks(), 20U);
  EXPECT_NO_THROW((void)backend->allocate(20 * one_mib, 20 * one_mib));
}

TEST(TierSelection, BudgetLargerThanTheTierIsRefused) {
  TierOptions options = with_backend("emulated");
  options.emulated_fast_bytes = std::size_t{20} << 20;
  options.budget = std::make_shared<FastTierBudget>(std::size_t{40} << 20);
  EXPECT_THROW((void)make_tier_backend(options), UsageError);
}

TEST(TierSelection, BackendsSharingABudgetShareItsCapacity) {
  TierOptions options = with_backend("emulated");
  options.emulated_fast_bytes = std::size_t{20} << 20;
  options.budget = make_fast_tier_budget(options);
  auto first = make_tier_backend(options);
  auto second = make_tier_backend(options);
  const std::size_t count = (std::size_t{12} << 20) / sizeof(double);
  const TieredArray held = first->allocate(count, count);
  EXPECT_THROW((void)second->allocate(count, count), ResourceError);
}

TEST(TierSelection, MoreFastElementsThanTheArrayIsAUsageError) {
  EXPECT_THROW((void)make_tier_backend(with_backend("emulated"))->allocate(10, 11), UsageError);
  TierOptions numa = with_backend("numa");
  numa.fast_nodes = numa.slow_nodes = {0};
  EXPECT_THROW((void)make_tier_backend(numa)->allocate(10, 11), UsageError);
}

TEST(TierSelection, NumaChargesThePageHoldingAnUnalignedBoundaryAsFast) {
  TierOptions options = with_backend("numa");
  options.fast_nodes = options.slow_nodes = {0};
  options.budget = make_fast_tier_budget(options);
  auto backend = make_tier_backend(options);
  const TieredArray array = backend->allocate(100'000, 1);  // one fast element: its whole page is bound fast
  EXPECT_EQ(options.budget->used_bytes(), page_bytes());
  EXPECT_EQ(array.span().fast_count, 1U);
}

}  // namespace
}  // namespace cosched::platform
