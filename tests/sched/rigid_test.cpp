#include "cosched/sched/rigid.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace cosched::sched {
namespace {

// Capacity (4, 2); durations 3, 1, 2, 2 with demands (3,1), (2,1), (1,1), (2,2).
RigidTasks example() { return {{4, 2}, {3, 1, 2, 1, 1, 1, 2, 2}, {3.0, 1.0, 2.0, 2.0}}; }

TEST(ListScheduleTest, LptStartsEveryTaskThatFitsAtEachEvent) {
  // LPT list: 0 (3), 2 (2), 3 (2), 1 (1). t=0: 0 fits (free 1,1), 2 fits (free 0,0); 3 and 1 wait.
  // t=2: task 2 ends (free 1,1): 3 needs (2,2) no; 1 needs (2,1) no. t=3: task 0 ends (free 4,2): 3 starts
  // (free 2,0), 1 needs fast: no. t=5: 1 starts.
  const RigidSchedule schedule = list_schedule(example(), ListOrder::longest_first);
  EXPECT_EQ(schedule.start, (std::vector<double>{0.0, 5.0, 0.0, 3.0}));
  EXPECT_TRUE(schedule.pack.empty());
}

TEST(ListScheduleTest, SptOrder) {
  // SPT list: 1 (1), 2 (2), 3 (2), 0 (3). t=0: 1 (free 2,1), 2 (free 1,0). t=1: 1 ends (free 3,1): 3 no, 0 fits
  // (free 0,0). t=2: 2 ends (free 1,1): 3 no. t=4: 0 ends: 3 starts.
  const RigidSchedule schedule = list_schedule(example(), ListOrder::shortest_first);
  EXPECT_EQ(schedule.start, (std::vector<double>{1.0, 0.0, 0.0, 4.0}));
}

TEST(PackScheduleTest, NextFitOnlyLooksAtTheLastPack) {
  // Non-increasing: 0 (3), 2 (2), 3 (2), 1 (1). Pack 0: {0, 2} (full). 3 -> pack 1 (free 2,0). 1 needs fast -> pack 2.
  const RigidSchedule schedule = pack_schedule(example(), PackFit::next_fit);
  EXPECT_EQ(schedule.pack, (std::vector<int>{0, 2, 0, 1}));
  EXPECT_EQ(schedule.start, (std::vector<double>{0.0, 5.0, 0.0, 3.0}));
}

TEST(PackScheduleTest, FirstFitGoesBackToEarlierPacks) {
  // Pack 0 = {(3,1)} keeps (1,1) free, pack 1 = {(2,2)} keeps (2,0): the short task (1,1) only fits pack 0.
  const RigidTasks tasks{{4, 2}, {3, 1, 2, 2, 1, 1}, {3.0, 2.0, 1.0}};
  EXPECT_EQ(pack_schedule(tasks, PackFit::first_fit).pack, (std::vector<int>{0, 1, 0}));
  EXPECT_EQ(pack_schedule(tasks, PackFit::next_fit).pack, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(pack_schedule(tasks, PackFit::next_fit).start, (std::vector<double>{0.0, 3.0, 5.0}));
}

// Issue #27: the guard of the list scheduler's loop stays on in Release. A task demanding more than a capacity
// (a caller's bug: Instance checks demands) never fits; with nothing running the loop would wait for ever, and an
// off-by-one in `fits` made exactly that a hang instead of a failure. Now it is a logic_error (an internal error).
TEST(ListScheduleTest, ATaskThatCanNeverFitIsAnInternalErrorNotAHang) {
  const RigidTasks too_wide{{2}, {1, 3}, {1.0, 1.0}};
  EXPECT_THROW((void)list_schedule(too_wide, ListOrder::longest_first), std::logic_error);
  // A task demanding exactly the capacity fits (the boundary of `fits`).
  const RigidTasks exact{{2, 1}, {2, 1, 1, 0}, {1.0, 2.0}};
  EXPECT_EQ(list_schedule(exact, ListOrder::longest_first).start, (std::vector<double>{2.0, 0.0}));
  EXPECT_EQ(pack_schedule(exact, PackFit::first_fit).pack, (std::vector<int>{1, 0}));
}

// Issue #27 (mutation testing): FF that picked the last fitting pack instead of the first went unnoticed (the test
// above has one fitting pack only). Capacity 4; by non-increasing duration: (3) opens pack 0 (1 left), (4) pack 1
// (0 left), (3) pack 2 (1 left); the last task (1) fits packs 0 and 2: FF (the core paper's PS_d) takes pack 0 and
// starts at 0, NF takes the last pack, 2, and starts when packs 0 and 1 are done (5 + 4).
TEST(PackScheduleTest, FirstFitTakesTheFirstOfSeveralFittingPacks) {
  const RigidTasks tasks{{4}, {3, 4, 3, 1}, {5.0, 4.0, 3.0, 1.0}};
  const RigidSchedule first_fit = pack_schedule(tasks, PackFit::first_fit);
  EXPECT_EQ(first_fit.pack, (std::vector<int>{0, 1, 2, 0}));
  EXPECT_EQ(first_fit.start, (std::vector<double>{0.0, 5.0, 9.0, 0.0}));
  const RigidSchedule next_fit = pack_schedule(tasks, PackFit::next_fit);
  EXPECT_EQ(next_fit.pack, (std::vector<int>{0, 1, 2, 2}));
  EXPECT_EQ(next_fit.start, (std::vector<double>{0.0, 5.0, 9.0, 9.0}));
}

}  // namespace
}  // namespace cosched::sched
