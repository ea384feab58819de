// A new team on kept arrays writes afresh only what its reps overwrite (KernelWork::take_over): kept inputs
// really are kept (a wrong one shows in the next team's first check), and the pages keep the placement the
// backend gave them. (session_teams_test.cpp runs every kernel across teams.)
#include <gtest/gtest.h>
#include <numaif.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cosched/platform/binding.hpp"
#include "cosched/platform/tier_backends.hpp"
#include "cosched/platform/topology.hpp"
#include "cosched/stream/kernels.hpp"
#include "cosched/stream/stream_session.hpp"
#include "stream/session_config.hpp"
#include "stream/test_tier_backend.hpp"

namespace cosched::stream {
namespace {

using namespace testing;  // cosched::stream::testing: the session tests' backend, sizes and configurations

constexpr std::size_t count = kSessionElements;

// Whether arrays first-touched on core 0 may serve a team on cores 0 and 1 here (one memory locality).
bool first_two_cores_share_placement() {
  const auto allowed = platform::allowed_cores();
  return share_first_touch_placement(platform::Topology::this_system(), {allowed.at(0), allowed.at(1)});
}

// An input element made wrong after a team's last full check, where no sample looks: the next team keeps the
// inputs (it writes only the outputs afresh), so its first reps read the wrong value and its full check of the
// outputs reports it. Writing every initial value again, as a new team did before, would have hidden it.
struct KeptInput {
  std::string kernel;
  std::size_t array;    // index into the kernel's arrays: an input
  std::size_t element;  // not on a sampled page offset, inside the grid's interior for stencil
  std::string output;   // the array the wrong input shows in
};

void PrintTo(const KeptInput& input, std::ostream* out) { *out << input.kernel; }

class KeptInputs : public ::testing::TestWithParam<KeptInput> {};

TEST_P(KeptInputs, AWrongKeptInputShowsInTheNextTeamsFirstCheck) {
  if (!two_cores_allowed()) GTEST_SKIP() << "needs two allowed cores";
  const KeptInput& input = GetParam();
  TestTierBackend backend;
  StreamSession session(one_core_config(input.kernel), backend);
  ASSERT_TRUE(session.measure({0.0, 1, 0}).validated);  // a full check: nothing to check before the next team
  backend.allocated_spans.at(input.array)[input.element] += 0.5;
  const StreamResult next_team = session.measure({0.0, 1, 0, {0, 1}});
  if (!first_two_cores_share_placement()) {  // the new team gets fresh arrays: the wrong value is gone
    EXPECT_TRUE(next_team.validated) << next_team.validation_message;
    return;
  }
  EXPECT_FALSE(next_team.validated);
  EXPECT_EQ(next_team.validation_message.find("before"), std::string::npos) << next_team.validation_message;
  EXPECT_NE(next_team.validation_message.find(input.output + "["), std::string::npos) << next_team.validation_message;
}

INSTANTIATE_TEST_SUITE_P(
    Kernels, KeptInputs,
    ::testing::Values(KeptInput{"triad", 1, 1000, "a"},         // a = b + s c: b
                      KeptInput{"stencil", 0, 2 * 169 + 2 * 13 + 2, "grid1"},  // 13^3 grids: point (2, 2, 2)
                      KeptInput{"spmv", 0, 1000, "y"}),          // a matrix value of row 62
    [](const ::testing::TestParamInfo<KeptInput>& test) { return test.param.kernel; });

// A backend that hands out another's arrays and remembers their spans, so a test can look at the pages.
class RecordingBackend final : public platform::TierBackend {
 public:
  explicit RecordingBackend(std::unique_ptr<platform::TierBackend> inner) : inner_(std::move(inner)) {}
  [[nodiscard]] std::string_view name() const override { return inner_->name(); }
  [[nodiscard]] platform::TierCostModel cost_model() const override { return inner_->cost_model(); }
  [[nodiscard]] platform::TieredArray allocate(std::size_t words, std::size_t fast_words) override {
    platform::TieredArray array = inner_->allocate(words, fast_words);
    spans.push_back(array.span());
    return array;
  }
  [[nodiscard]] bool resplit(platform::TieredArray& array, std::size_t fast_words) override {
    return inner_->resplit(array, fast_words);
  }
  std::vector<platform::TieredSpan> spans;

 private:
  std::unique_ptr<platform::TierBackend> inner_;
};

// The first page of `part` (n doubles) whose memory policy is not MPOL_BIND to node 0 alone or that is not on
// node 0, as "element i: policy p nodes m node k"; "" when every page is.
std::string misplaced_page(const double* part, std::size_t n) {
  const std::size_t step = std::max<std::size_t>(1, platform::page_bytes() / sizeof(double));
  for (std::size_t i = 0; i < n; i += step) {
    void* page = const_cast<double*>(part + i);
    int policy = -1;
    unsigned long nodes = 0;
    if (get_mempolicy(&policy, &nodes, 64, page, MPOL_F_ADDR) != 0) policy = -errno;
    int node = -1;
    if (move_pages(0, 1, &page, nullptr, &node, 0) != 0) node = -errno;
    if (policy != MPOL_BIND || nodes != 1UL || node != 0) {
      return "element " + std::to_string(i) + ": policy " + std::to_string(policy) + " nodes " +
             std::to_string(nodes) + " node " + std::to_string(node);
    }
  }
  return "";
}

// The numa backend binds each part to its nodes (node 0 plays both tiers here, as in tier_backend_test.cpp):
// every team on the kept arrays leaves each page bound and on that node.
TEST(SessionTakeOver, KeepsTheNumaBackendsPlacementOfEveryPage) {
  if (!two_cores_allowed()) GTEST_SKIP() << "needs two allowed cores";
  platform::TierOptions options;
  options.backend = "numa";
  options.fast_nodes = {0};
  options.slow_nodes = {0};
  RecordingBackend backend(platform::make_tier_backend(options));
  StreamConfig config = one_core_config("triad");
  config.array_bytes = (std::size_t{3} << 20) + 8 * 123;  // one and a half huge pages and a bit
  config.fast_fraction = 0.5;
  StreamSession session(config, backend);
  for (const std::vector<unsigned>& team : {std::vector<unsigned>{0}, std::vector<unsigned>{0, 1}}) {
    ASSERT_TRUE(session.measure({0.5, 1, 0, team}).validated);
  }
  ASSERT_GE(backend.spans.size(), 3U);  // the last three are triad's arrays in use (earlier ones are freed)
  for (auto span_it = backend.spans.end() - 3; span_it != backend.spans.end(); ++span_it) {
    const platform::TieredSpan& span = *span_it;
    ASSERT_GT(span.fast_count, 0U);
    ASSERT_GT(span.slow_count, 0U);
    EXPECT_EQ(misplaced_page(span.fast, span.fast_count), "") << "fast part";
    EXPECT_EQ(misplaced_page(span.slow, span.slow_count), "") << "slow part";
  }
  EXPECT_TRUE(session.finish().validated);
}

}  // namespace
}  // namespace cosched::stream
