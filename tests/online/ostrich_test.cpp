// OStrich (seed 002): the virtual schedule on the paper's worked example (Fig. 2), the campaigns of the general-jobs
// extension, the real schedule's dispatch, and Lemma 1 and the per-campaign bound as properties of random
// multi-user workloads.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "cosched/online/ostrich.hpp"
#include "online/support.hpp"

namespace cosched::online {
namespace {

using testing::JobSpec;
using testing::rigid_workload;

constexpr double kTolerance = 1e-9;

// `specs` on `capacities`, job j owned by users[j].
OnlineWorkload user_workload(const std::vector<int>& capacities, const std::vector<JobSpec>& specs,
                             const std::vector<std::string>& users) {
  OnlineWorkload workload = rigid_workload(capacities, specs);
  for (std::size_t j = 0; j < users.size(); ++j) workload.arrivals[j].user = users[j];
  return workload;
}

// Fig. 2 (digest §3.1): m = 6, users 1 and 2 submit 48 and 18 units at t = 0, user 3 10 units at t = 2.
TEST(VirtualSchedule, ReproducesTheWorkedExampleOfFigure2) {
  VirtualSchedule v(6.0);
  const auto user1 = v.submit(0, 48.0, 0.0);
  const auto user2 = v.submit(1, 18.0, 0.0);
  EXPECT_EQ(v.active_users(), 2U);
  EXPECT_DOUBLE_EQ(v.completion(user1), 16.0);
  EXPECT_DOUBLE_EQ(v.completion(user2), 6.0);
  const auto user3 = v.submit(2, 10.0, 2.0);
  EXPECT_EQ(v.active_users(), 3U);
  EXPECT_DOUBLE_EQ(v.completion(user1), 23.0);
  EXPECT_DOUBLE_EQ(v.completion(user2), 8.0);
  EXPECT_DOUBLE_EQ(v.completion(user3), 7.0);
  // User 3's second campaign, submitted at 5 while the first runs in V: it waits for σ̃ = 7. With W = 8 the
  // provisional C̃ at submission (k̃ = 3) is the paper's 11.
  const auto second = v.submit(2, 8.0, 5.0);
  EXPECT_NE(second, user3);
  EXPECT_FALSE(v.started(second));
  EXPECT_TRUE(v.campaigns_forming());
  EXPECT_DOUBLE_EQ(v.completion(second), 11.0);
  v.advance(7.0);
  EXPECT_TRUE(v.completed(user3));
  EXPECT_DOUBLE_EQ(v.completion(user3), 7.0);
  EXPECT_TRUE(v.started(second));
  EXPECT_DOUBLE_EQ(v.virtual_start(second), 7.0);
  v.advance(100.0);
  EXPECT_DOUBLE_EQ(v.completion(user2), 8.0);
  EXPECT_EQ(v.active_users(), 0U);
}

// The same campaign with W = 11, the value for which C̃ = 11 holds once user 2 leaves at t = 8 (k̃: 3 → 2).
TEST(VirtualSchedule, TheSecondCampaignOfUser3CompletesAt11WithItsFinalWork) {
  VirtualSchedule v(6.0);
  const auto user1 = v.submit(0, 48.0, 0.0);
  (void)v.submit(1, 18.0, 0.0);
  (void)v.submit(2, 10.0, 2.0);
  const auto second = v.submit(2, 11.0, 5.0);
  EXPECT_EQ(v.next_completion(), std::optional<double>(7.0));
  v.advance(12.0);
  EXPECT_NEAR(v.completion(second), 11.0, kTolerance);
  // User 1: 42 left at 2, 2/s until 8 (12 done), 3/s until 11 (9 done), then alone: 21 / 6.
  EXPECT_NEAR(v.completion(user1), 14.5, kTolerance);
  EXPECT_NEAR(v.processed_work(), 6.0 * 12.0, kTolerance);
}

TEST(VirtualSchedule, AUserWhoSubmitsNothingGetsNoShare) {
  VirtualSchedule v(4.0);
  const auto alone = v.submit(7, 8.0, 0.0);  // users 0..6 exist as indices, none submits
  EXPECT_EQ(v.active_users(), 1U);
  EXPECT_DOUBLE_EQ(v.completion(alone), 2.0);
  // A user whose work is done in V leaves: the other gets the whole machine again.
  VirtualSchedule w(4.0);
  const auto small = w.submit(0, 4.0, 0.0);
  const auto large = w.submit(1, 12.0, 0.0);
  EXPECT_DOUBLE_EQ(w.completion(small), 2.0);
  w.advance(3.0);
  EXPECT_EQ(w.active_users(), 1U);
  EXPECT_DOUBLE_EQ(w.completion(large), 4.0);  // 8 left at 2, at 4 processors
  w.advance(5.0);
  EXPECT_EQ(w.active_users(), 0U);
  EXPECT_DOUBLE_EQ(w.processed_work(), 16.0);  // idle after 4
}

// Sec. VII: work released together is one campaign, work released while the user's campaign runs in V is the
// next one (released at its C̃), work released at that instant joins it, and users never share a campaign.
TEST(VirtualSchedule, FormsTheCampaignsOfTheGeneralJobsExtension) {
  VirtualSchedule v(2.0);
  const auto first = v.submit(0, 2.0, 0.0);
  EXPECT_EQ(v.submit(0, 2.0, 0.0), first);
  EXPECT_DOUBLE_EQ(v.work(first), 4.0);
  const auto other_user = v.submit(1, 2.0, 0.0);
  EXPECT_NE(other_user, first);
  const auto next = v.submit(0, 1.0, 1.0);
  EXPECT_EQ(v.submit(0, 1.0, 2.5), next);
  EXPECT_FALSE(v.started(next));
  EXPECT_DOUBLE_EQ(v.completion(other_user), 2.0);
  v.advance(4.0);  // first: 4 units at 1/s until 2, then alone at 2/s: C̃ = 3
  EXPECT_DOUBLE_EQ(v.completion(first), 3.0);
  EXPECT_DOUBLE_EQ(v.virtual_start(next), 3.0);
  EXPECT_DOUBLE_EQ(v.completion(next), 4.0);  // 2 units alone
  const auto later = v.submit(0, 2.0, 4.0);  // nothing running for user 0 at 4: a new campaign at once
  EXPECT_TRUE(v.started(later));
  EXPECT_EQ(v.submit(0, 2.0, 4.0), later);  // released at its start: the same batch
  EXPECT_DOUBLE_EQ(v.completion(later), 6.0);
}

TEST(Ostrich, IsRegistered) {
  const OnlineWorkload workload = rigid_workload({2}, {{0.0, 1.0}});
  EXPECT_EQ(make_online_policy("ostrich", {}, workload)->name(), "ostrich");
}

// User a's long jobs come first in release order, but user b's campaign completes first in V: b goes first.
// Then b submits again while its campaign still runs in V: that job waits for its virtual start (4/3) although a
// processor is free at 1, and starts then without any release or completion (the policy's wakeup).
TEST(Ostrich, StartsTheCampaignWithTheSmallestVirtualCompletionAndWaitsForVirtualStarts) {
  const OnlineWorkload workload = user_workload(
      {3}, {{0.0, 10.0}, {0.0, 10.0}, {0.0, 1.0}, {0.0, 1.0}, {1.0, 1.0}}, {"a", "a", "b", "b", "b"});
  const auto policy = make_online_policy("ostrich", {}, workload);
  const testing::Replay replay = testing::replay(workload, *policy);
  EXPECT_EQ(replay.start[2], 0.0);
  EXPECT_EQ(replay.start[3], 0.0);
  EXPECT_EQ(replay.start[0], 0.0);  // LPT inside a's campaign: equal lengths, lower index first
  EXPECT_EQ(replay.start[1], 1.0);
  EXPECT_NEAR(replay.start[4], 4.0 / 3.0, kTolerance);
}

// Proposition 1's instance: k users each submit m unit jobs at 0. Every campaign completes at k in V; the real
// schedule runs them one after another (equal C̃: the older campaign first) and the last completes at k.
TEST(Ostrich, RunsEqualCampaignsOneAfterAnotherAsInProposition1) {
  const int m = 3;
  const std::size_t k = 4;
  std::vector<JobSpec> specs;
  std::vector<std::string> users;
  for (std::size_t u = 0; u < k; ++u) {
    for (int j = 0; j < m; ++j) {
      specs.push_back({0.0, 1.0});
      users.push_back(fmt::format("u{}", u));
    }
  }
  const OnlineWorkload workload = user_workload({m}, specs, users);
  VirtualSchedule v(static_cast<double>(m));
  for (std::size_t u = 0; u < k; ++u) (void)v.submit(u, static_cast<double>(m), 0.0);
  for (std::size_t c = 0; c < k; ++c) EXPECT_DOUBLE_EQ(v.completion(c), static_cast<double>(k));
  const auto policy = make_online_policy("ostrich", {}, workload);
  const testing::Replay replay = testing::replay(workload, *policy);
  for (std::size_t j = 0; j < specs.size(); ++j) {
    EXPECT_EQ(replay.end[j], static_cast<double>(j / m + 1)) << "job " << j << " of user " << users[j];
  }
}

// The engine may refuse a start, and a resumed run shows pending jobs never released to the policy: the plan
// follows the pending jobs it is given.
TEST(Ostrich, FollowsThePendingJobsOfTheState) {
  const OnlineWorkload workload =
      user_workload({2}, {{0.0, 4.0}, {0.0, 2.0}, {0.0, 3.0}, {0.0, 1.0}}, {"a", "a", "b", "b"});
  const auto policy = make_online_policy("ostrich", {}, workload);
  testing::StateFixture fixture(workload, 1.0, {1, 2, 3});  // job 0 runs: the policy never saw it released
  fixture.run(0, {1}, 0.0, 4.0);
  const std::vector<Placement> first = policy->plan(fixture.state());
  testing::expect_valid_plan(fixture.state(), first);
  ASSERT_EQ(first.size(), 1U);
  EXPECT_EQ(first[0].job, 1U);  // a's campaign (2 units) completes before b's (4 units) in V
  // Refused: the same state again gets the same start.
  const std::vector<Placement> again = policy->plan(fixture.state());
  ASSERT_EQ(again.size(), 1U);
  EXPECT_EQ(again[0].job, first[0].job);
}

// Jobs wider than one processor and a second resource: nothing is ever over-committed (the replay checks every
// plan), every job runs, and the unknown user "" is a user like the others.
TEST(Ostrich, NeverOvercommitsRigidOrVectorJobs) {
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    std::vector<JobSpec> specs = testing::random_sequential_jobs(seed, 40, 30.0, 8);
    sched::Random random(seed + 7);
    std::vector<std::string> users;
    for (JobSpec& spec : specs) {
      spec.demand = {1 + static_cast<int>(random.index(3)), static_cast<int>(random.index(3))};
      users.push_back(std::vector<std::string>{"", "u1", "u2"}[random.index(3)]);
    }
    const OnlineWorkload workload = user_workload({5, 4}, specs, users);
    const auto policy = make_online_policy("ostrich", {}, workload);
    const testing::Replay replay = testing::replay(workload, *policy);
    for (std::size_t j = 0; j < specs.size(); ++j) {
      ASSERT_TRUE(std::isfinite(replay.start[j])) << "seed " << seed << ": job " << j << " never ran";
    }
  }
}

struct RandomUsers {
  OnlineWorkload workload;
  std::size_t users = 0;
  int processors = 0;
};

// Sequential jobs of 2..5 users on 3..8 processors, in bursts (campaigns) and singly.
RandomUsers random_users(std::uint64_t seed) {
  sched::Random random(seed);
  const std::size_t users = 2 + random.index(4);
  const int processors = 3 + static_cast<int>(random.index(6));
  std::vector<JobSpec> specs = testing::random_sequential_jobs(seed, 60, 50.0, 10);
  std::vector<std::string> owners;
  for (std::size_t j = 0; j < specs.size(); ++j) {
    // Runs of jobs of one user at one instant: the bursts the campaigns are made of.
    if (j > 0 && random.uniform01() < 0.5) {
      specs[j].release = specs[j - 1].release;
      owners.push_back(owners.back());
    } else {
      owners.push_back("user" + std::to_string(random.index(users)));
    }
  }
  return {user_workload({processors}, specs, owners), users, processors};
}

// What V alone (it depends on the releases only) says of a workload: each job's campaign and the work of the
// campaign before it for the same user, and V's processed work at the given instants.
struct VirtualView {
  std::vector<VirtualSchedule::Campaign> campaign;  // per job
  std::map<VirtualSchedule::Campaign, double> previous_work;
  std::vector<double> processed_at;
};

VirtualView virtual_view(const OnlineWorkload& workload, double processors, const std::vector<double>& instants) {
  VirtualSchedule v(processors);
  VirtualView view{std::vector<VirtualSchedule::Campaign>(workload.arrivals.size()), {}, {}};
  std::map<std::string, std::size_t> users;
  std::map<std::size_t, VirtualSchedule::Campaign> last_of_user;
  std::size_t next_instant = 0;
  for (const std::size_t job : testing::in_release_order(workload, workload.arrivals.size())) {
    const double release = workload.arrivals[job].release;
    for (; next_instant < instants.size() && instants[next_instant] <= release; ++next_instant) {
      v.advance(instants[next_instant]);
      view.processed_at.push_back(v.processed_work());
    }
    const std::size_t user = users.try_emplace(workload.arrivals[job].user, users.size()).first->second;
    const auto campaign = v.submit(user, workload.reference_time[job], release);
    view.campaign[job] = campaign;
    if (!view.previous_work.contains(campaign)) {
      const auto last = last_of_user.find(user);
      view.previous_work[campaign] = last == last_of_user.end() ? 0.0 : v.work(last->second);
      last_of_user[user] = campaign;
    }
  }
  for (; next_instant < instants.size(); ++next_instant) {
    v.advance(instants[next_instant]);
    view.processed_at.push_back(v.processed_work());
  }
  return view;
}

// Lemma 1: between the first and the last job start, R's idle surface exceeds V's by at most m·p_max.
TEST(Ostrich, Lemma1IdleSurfaceOfTheRealScheduleIsWithinMTimesPmaxOfTheVirtualOne) {
  for (std::uint64_t seed = 0; seed < 60; ++seed) {
    const RandomUsers random = random_users(seed);
    const auto policy = make_online_policy("ostrich", {}, random.workload);
    const testing::Replay replay = testing::replay(random.workload, *policy);
    const double first = *std::min_element(replay.start.begin(), replay.start.end());
    const double last = *std::max_element(replay.start.begin(), replay.start.end());
    const double m = random.processors;
    double busy = 0.0;
    double longest = 0.0;
    for (std::size_t j = 0; j < replay.start.size(); ++j) {
      busy += std::max(0.0, std::min(replay.end[j], last) - std::max(replay.start[j], first));
      longest = std::max(longest, random.workload.reference_time[j]);
    }
    const VirtualView view = virtual_view(random.workload, m, {first, last});
    const double idle_real = m * (last - first) - busy;
    const double idle_virtual = m * (last - first) - (view.processed_at[1] - view.processed_at[0]);
    EXPECT_LE(idle_real - idle_virtual, m * longest + kTolerance) << "seed " << seed;
  }
}

// Theorem 1 in the general-jobs form (Thm 2): every campaign i of a user, counted from its first job's release to
// its last job's completion, takes at most 3·p_max + (k/m)·(W_{i−1} + W_i), k the number of users.
TEST(Ostrich, EveryCampaignMeetsTheBoundOfTheorem1) {
  std::size_t campaigns = 0;
  for (std::uint64_t seed = 0; seed < 60; ++seed) {
    const RandomUsers random = random_users(seed);
    const OnlineWorkload& workload = random.workload;
    const auto policy = make_online_policy("ostrich", {}, workload);
    const testing::Replay replay = testing::replay(workload, *policy);
    const double m = random.processors;
    const VirtualView view = virtual_view(workload, m, {});
    const double longest = *std::max_element(workload.reference_time.begin(), workload.reference_time.end());
    std::map<VirtualSchedule::Campaign, std::pair<double, double>> span;  // first release, last completion
    for (std::size_t j = 0; j < replay.start.size(); ++j) {
      const auto entry = span.try_emplace(view.campaign[j], workload.arrivals[j].release, replay.end[j]).first;
      entry->second.first = std::min(entry->second.first, workload.arrivals[j].release);
      entry->second.second = std::max(entry->second.second, replay.end[j]);
    }
    std::map<VirtualSchedule::Campaign, double> work;  // W_i, from its jobs
    for (std::size_t j = 0; j < replay.start.size(); ++j) work[view.campaign[j]] += workload.reference_time[j];
    for (const auto& [campaign, times] : span) {
      const double bound = 3.0 * longest + static_cast<double>(random.users) / m *
                                               (view.previous_work.at(campaign) + work.at(campaign));
      EXPECT_LE(times.second - times.first, bound + kTolerance) << "seed " << seed << ", campaign " << campaign;
      ++campaigns;
    }
  }
  EXPECT_GT(campaigns, 500U);  // the property was checked on many campaigns
}

}  // namespace
}  // namespace cosched::online
