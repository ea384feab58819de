// The `fairshare` policy (Slurm's classic fair-share factor with decayed usage, plus age, EASY in priority order):
// the ledger's decay and factor on exact values, a user who submits nothing holds no share, and on a replay a
// heavy user's waiting job is overtaken by a light user's later one.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "cosched/online/fair_share.hpp"
#include "online/support.hpp"

namespace cosched::online {
namespace {

TEST(FairShareLedger, UsageIsTheDecayedIntegralAndHalvesEveryHalfLife) {
  FairShareLedger ledger(100.0);
  ledger.add_user("heavy");
  ledger.advance(100.0);
  // 2 processors from 0 to 100, seen at 100: 2 x 100/ln 2 x (1 - 2^-1).
  ledger.charge("heavy", 2.0, 0.0, 100.0);
  EXPECT_NEAR(ledger.usage("heavy"), 100.0 / std::numbers::ln2, 1e-9);
  ledger.advance(200.0);
  EXPECT_NEAR(ledger.usage("heavy"), 50.0 / std::numbers::ln2, 1e-9);
  ledger.advance(150.0);  // the clock never goes back
  EXPECT_EQ(ledger.now(), 200.0);
}

TEST(FairShareLedger, AHeavyUsersFactorDecaysAsItUsesMore) {
  FairShareLedger ledger(kFairShareHalfLife);
  ledger.add_user("heavy");
  ledger.add_user("light");
  EXPECT_EQ(ledger.factor("heavy"), 1.0);  // nobody has used anything
  ledger.advance(10.0);
  ledger.charge("heavy", 1.0, 0.0, 10.0);
  ledger.charge("light", 1.0, 0.0, 10.0);
  EXPECT_NEAR(ledger.factor("heavy"), 0.5, 1e-12);  // used exactly its share: 2^(-(1/2)/(1/2))
  double previous = ledger.factor("heavy");
  for (double t = 20.0; t <= 50.0; t += 10.0) {
    ledger.advance(t);
    ledger.charge("heavy", 4.0, t - 10.0, t);
    EXPECT_LT(ledger.factor("heavy"), previous) << t;
    previous = ledger.factor("heavy");
    EXPECT_GT(ledger.factor("light"), 0.5);
  }
  // Decay alone changes no normalised usage: both users' usage halves.
  const double before = ledger.factor("heavy");
  ledger.advance(50.0 + kFairShareHalfLife);
  EXPECT_NEAR(ledger.factor("heavy"), before, 1e-12);
}

TEST(FairShareLedger, AUserWhoSubmitsNothingGetsNoShare) {
  FairShareLedger ledger;
  ledger.add_user("a");
  ledger.add_user("b");
  EXPECT_EQ(ledger.users(), 2u);
  EXPECT_EQ(ledger.share("a"), 0.5);  // the silent user does not dilute the others' shares
  EXPECT_EQ(ledger.share("silent"), 0.0);
  EXPECT_EQ(ledger.factor("silent"), 0.0);
  EXPECT_EQ(ledger.usage("silent"), 0.0);
  ledger.add_user("c");
  EXPECT_DOUBLE_EQ(ledger.share("a"), 1.0 / 3.0);
}

// One processor. The heavy user's job runs 0..10 while its second job (released at 1) and the light user's job
// (released at 2) wait: at 10 the light user's job starts first under fairshare, the heavy one's under FCFS.
OnlineWorkload heavy_and_light() {
  OnlineWorkload workload = testing::rigid_workload({1}, {{0.0, 10.0}, {1.0, 10.0}, {2.0, 10.0}});
  workload.arrivals[0].user = "heavy";
  workload.arrivals[1].user = "heavy";
  workload.arrivals[2].user = "light";
  return workload;
}

TEST(FairSharePolicy, ALightUsersJobJumpsAheadOfAHeavyUsersEarlierOne) {
  const OnlineWorkload workload = heavy_and_light();
  const auto fairshare = make_online_policy("fairshare", {}, workload);
  const testing::Replay shared = testing::replay(workload, *fairshare);
  EXPECT_EQ(shared.start[0], 0.0);
  EXPECT_EQ(shared.start[2], 10.0);
  EXPECT_EQ(shared.start[1], 20.0);
  const auto fcfs = make_online_policy("fcfs", {}, workload);
  const testing::Replay in_order = testing::replay(workload, *fcfs);
  EXPECT_EQ(in_order.start[1], 10.0);  // the order fairshare changes
}

TEST(FairSharePolicy, WithOneUserItIsEasyInReleaseOrder) {
  const OnlineWorkload workload = testing::rigid_workload({2}, testing::random_sequential_jobs(7, 30, 40.0, 9));
  const auto fairshare = make_online_policy("fairshare", {}, workload);
  const auto easy = make_online_policy("easy", {}, workload);
  EXPECT_EQ(testing::replay(workload, *fairshare).start, testing::replay(workload, *easy).start);
}

}  // namespace
}  // namespace cosched::online
