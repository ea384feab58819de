// Invariants every tier backend keeps (parameterized over the backends that work in this process), and the
// memkind backend's real MEMKIND_HBW path, which runs in a fresh child process because memkind reads
// MEMKIND_HBW_NODES once, at its first call.
#include <gtest/gtest.h>
#include <hbwmalloc.h>
#include <memkind.h>
#include <numaif.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "cosched/common/error.hpp"
#include "cosched/platform/tier_backends.hpp"

namespace cosched::platform {
namespace {

using Problems = std::vector<std::string>;

std::string join(const Problems& problems) {
  std::string text;
  for (const auto& problem : problems) text += problem + "\n";
  return text;
}

// Where the kernel put a touched page, and the memory policy that governs it.
struct PagePlacement {
  int policy = -1;
  unsigned long policy_nodes = 0;  // nodemask bits 0..63
  int node = -1;                   // move_pages status: the page's node, or a negative errno
};

PagePlacement placement_of(void* address) {
  PagePlacement placement;
  if (get_mempolicy(&placement.policy, &placement.policy_nodes, 64, address, MPOL_F_ADDR) != 0) {
    placement.policy = -errno;
  }
  void* page = address;
  int status = -1;
  placement.node = move_pages(0, 1, &page, nullptr, &status, 0) == 0 ? status : -errno;
  return placement;
}

// What a backend must place: the policy each tier's pages carry and the nodes they may be on.
struct ExpectedPlacement {
  int fast_policy = MPOL_DEFAULT;
  int slow_policy = MPOL_DEFAULT;
  unsigned long fast_nodes = 0;  // 0: any node
  unsigned long slow_nodes = 0;
};

void check_pages(const double* begin, std::size_t count, int policy, unsigned long nodes, const char* tier,
                 Problems& problems) {
  const std::size_t step = std::max<std::size_t>(1, page_bytes() / sizeof(double));
  for (std::size_t i = 0; i < count; i += step) {
    const PagePlacement placement = placement_of(const_cast<double*>(begin + i));
    if (placement.policy != policy) {
      problems.push_back(std::string(tier) + " element " + std::to_string(i) + ": policy " +
                         std::to_string(placement.policy) + ", expected " + std::to_string(policy));
      return;
    }
    if (placement.node < 0) {
      problems.push_back(std::string(tier) + " element " + std::to_string(i) + ": move_pages status " +
                         std::to_string(placement.node));
      return;
    }
    if (nodes != 0 && ((nodes >> placement.node) & 1UL) == 0) {
      problems.push_back(std::string(tier) + " element " + std::to_string(i) + " on node " +
                         std::to_string(placement.node));
      return;
    }
    if (nodes != 0 && placement.policy_nodes != nodes) {
      problems.push_back(std::string(tier) + " policy nodes " + std::to_string(placement.policy_nodes));
      return;
    }
  }
}

// Allocates `count` doubles with fraction `fraction` fast and checks counts, pointers, writability, placement
// and budget accounting; returns what is wrong.
Problems allocation_problems(const TierOptions& base_options, std::size_t count, double fraction,
                             const ExpectedPlacement& expected) {
  Problems problems;
  TierOptions options = base_options;
  const bool has_fast_tier = fast_tier_capacity_bytes(options) > 0;
  if (has_fast_tier) options.budget = make_fast_tier_budget(options);
  auto backend = make_tier_backend(options);
  const std::size_t fast = fast_element_count(count, fraction);
  {
    const TieredArray array = backend->allocate(count, fast);
    const TieredSpan& span = array.span();
    if (span.fast_count != fast || span.slow_count != count - fast) {
      problems.push_back("span counts " + std::to_string(span.fast_count) + "+" + std::to_string(span.slow_count));
    }
    if ((span.fast == nullptr) != (span.fast_count == 0) || (span.slow == nullptr) != (span.slow_count == 0)) {
      problems.push_back("a pointer is null exactly when its part is not empty");
    }
    if (array.fast_bytes() != fast * sizeof(double)) problems.push_back("fast_bytes() disagrees with the span");
    if (span.fast && span.slow && span.fast + span.fast_count > span.slow && span.slow + span.slow_count > span.fast) {
      problems.push_back("fast and slow parts overlap");
    }
    for (std::size_t i = 0; i < count; ++i) span[i] = static_cast<double>(i);
    double sum = 0;
    for (std::size_t i = 0; i < count; ++i) sum += span[i];
    const double expected_sum = static_cast<double>(count) * static_cast<double>(count - 1) / 2;
    if (sum != expected_sum) problems.push_back("memory did not keep what was written");
    check_pages(span.fast, span.fast_count, expected.fast_policy, expected.fast_nodes, "fast", problems);
    check_pages(span.slow, span.slow_count, expected.slow_policy, expected.slow_nodes, "slow", problems);
    if (options.budget) {
      const std::size_t used = options.budget->used_bytes();
      if (used < fast * sizeof(double) || used > fast * sizeof(double) + page_bytes()) {
        problems.push_back("budget holds " + std::to_string(used) + " bytes for " +
                           std::to_string(fast * sizeof(double)) + " fast bytes");
      }
    }
  }
  if (options.budget && options.budget->used_bytes() != 0) problems.push_back("release did not return the budget");
  return problems;
}

struct BackendCase {
  std::string label;
  TierOptions options;
  ExpectedPlacement placement;
  std::vector<double> fractions;
};

void PrintTo(const BackendCase& backend_case, std::ostream* out) { *out << backend_case.label; }

class TierBackendInvariants : public ::testing::TestWithParam<BackendCase> {};

TEST_P(TierBackendInvariants, SplitsCountsWritesAndAccounts) {
  const BackendCase& param = GetParam();
  // Three huge pages and a bit: the boundary and the array end both fall inside pages.
  const std::size_t count = 3 * (std::size_t{2} << 20) / sizeof(double) + 123;
  for (double fraction : param.fractions) {
    const Problems problems = allocation_problems(param.options, count, fraction, param.placement);
    EXPECT_TRUE(problems.empty()) << "fraction " << fraction << ":\n" << join(problems);
  }
}

TEST_P(TierBackendInvariants, ReportsItsName) {
  const BackendCase& param = GetParam();
  EXPECT_EQ(make_tier_backend(param.options)->name(), param.options.backend);
}

TierOptions with_backend(std::string name) {
  TierOptions options;
  options.backend = std::move(name);
  return options;
}

TierOptions numa_on_node_zero() {
  // One node plays both tiers here; the binding, not the node, is what the test can see.
  TierOptions options = with_backend("numa");
  options.fast_nodes = {0};
  options.slow_nodes = {0};
  return options;
}

INSTANTIATE_TEST_SUITE_P(
    Backends, TierBackendInvariants,
    ::testing::Values(BackendCase{"none", with_backend("none"), {}, {0.0}},
                      BackendCase{"emulated", with_backend("emulated"), {}, {0.0, 0.3, 1.0}},
                      BackendCase{"numa", numa_on_node_zero(), {MPOL_BIND, MPOL_BIND, 1UL, 1UL}, {0.0, 0.3, 1.0}}),
    [](const ::testing::TestParamInfo<BackendCase>& test) { return test.param.label; });

// ---- memkind, in a child process with a fresh memkind -------------------------------------------------------

// Runs `check` in a re-executed copy of this test binary (gtest "threadsafe" death-test style), so memkind
// initialises there after `check` has set up the environment. The child exits 0 when check returns no problems.
template <typename Check>
[[noreturn]] void run_and_exit(Check check) {
  const Problems problems = check();
  std::fputs(join(problems).c_str(), stderr);
  std::exit(problems.empty() ? 0 : 1);
}

TEST(MemkindBackend, AllocatesFastPartThroughMemkindHbwWhenHbwNodesAreConfigured) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(run_and_exit([] {
                setenv("MEMKIND_HBW_NODES", "0", 1);
                Problems problems = allocation_problems(with_backend("memkind"), 3 * (1 << 18) + 123, 0.3,
                                                        {MPOL_BIND, MPOL_BIND, 1UL, 1UL});
                auto backend = make_tier_backend(with_backend("memkind"));
                const TieredArray array = backend->allocate(1 << 20, 1 << 19);
                // memkind itself must say the fast part is MEMKIND_HBW memory, not a fallback.
                if (memkind_detect_kind(array.span().fast) != MEMKIND_HBW) problems.push_back("fast part not HBW");
                if (memkind_detect_kind(array.span().slow) != MEMKIND_REGULAR) {
                  problems.push_back("slow part not MEMKIND_REGULAR");
                }
                if (backend->cost_model().emulated || backend->cost_model().slow_pass_factor != 1.0) {
                  problems.push_back("a real tier must not ask for emulation");
                }
                return problems;
              }),
              ::testing::ExitedWithCode(0), "");
}

TEST(MemkindBackend, RefusesMoreHbwThanTheBudgetHolds) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(run_and_exit([] {
                setenv("MEMKIND_HBW_NODES", "0", 1);
                Problems problems;
                TierOptions options = with_backend("memkind");
                options.budget = std::make_shared<FastTierBudget>(std::size_t{20} << 20, 20);
                auto backend = make_tier_backend(options);
                const TieredArray first = backend->allocate(std::size_t{2} << 20, std::size_t{2} << 20);  // 16 MiB
                try {
                  (void)backend->allocate(std::size_t{1} << 20, std::size_t{1} << 20);  // 8 MiB more: 24 > 20
                  problems.push_back("over-commit accepted");
                } catch (const ResourceError&) {
                }
                return problems;
              }),
              ::testing::ExitedWithCode(0), "");
}

TEST(MemkindBackend, RequestedWithoutHbwNodesIsAResourceError) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(run_and_exit([] {
                unsetenv("MEMKIND_HBW_NODES");
                Problems problems;
                if (hbw_check_available() == 0) return problems;  // real HBM here: nothing to refuse
                try {
                  (void)make_tier_backend(with_backend("memkind"));
                  problems.push_back("memkind backend built without HBW nodes");
                } catch (const ResourceError& error) {
                  if (std::string(error.what()).find("MEMKIND_HBW_NODES") == std::string::npos) {
                    problems.push_back(std::string("error does not say how to emulate HBW: ") + error.what());
                  }
                }
                return problems;
              }),
              ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace cosched::platform
