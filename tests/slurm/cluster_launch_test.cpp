// A cluster plan launched across a real 3-node Slurm cluster (one job step per node): every task runs exactly once
// on the node its plan named, and a step killed mid-run is resumed with only that node's unfinished tasks run
// again. Needs the local cluster (local_cluster.hpp); skipped without it.
#include <set>

#include "cluster_batch.hpp"
#include "support/files.hpp"

namespace cosched::slurm_test {
namespace {

using ClusterLaunch = ClusterBatch;

TEST_F(ClusterLaunch, RunsEveryTaskOnceOnTheNodeItsPlanNamed) {
  plan_batch({});
  const CommandResult launched = launch("");
  ASSERT_EQ(launched.exit_code, 0) << launched.out << launched.err;
  expect_every_task_once_on_its_node();

  // One job, one step per node: the nodes' tasks ran in separate steps of the same allocation.
  std::set<std::string> jobs, steps;
  for (const auto& [id, runs] : probe_runs()) {
    jobs.insert(runs.front().job);
    steps.insert(runs.front().node + "/" + runs.front().step);
  }
  EXPECT_EQ(jobs.size(), 1U);
  EXPECT_EQ(steps.size(), static_cast<std::size_t>(kNodes));
  for (int node = 0; node < kNodes; ++node) EXPECT_EQ(journal_of(node).segments.size(), 1U);
}

TEST_F(ClusterLaunch, AKilledStepIsResumedWithOnlyItsNodesUnfinishedTasks) {
  // On the second node only the first task completes; the others wait at the gate until the test opens it, so
  // the step is certainly killed with unfinished tasks.
  const fs::path gate = dir_ / "gate";
  plan_batch({"--hold-on", hosts_[1], "--gate", gate.string()});
  const auto held_node_tasks = planned_on(1);
  ASSERT_GE(held_node_tasks.size(), 2U) << "the test needs two tasks on the second node";

  BackgroundCommand first(launch_command(""), dir_);
  const bool blocked = eventually(
      [&] {
        for (const auto& entry : fs::directory_iterator(dir_)) {
          if (entry.path().filename().string().rfind("gate.held-", 0) == 0) return true;
        }
        return false;
      },
      60);
  ASSERT_TRUE(blocked) << "no task of " << hosts_[1] << " reached the gate\n" << first.output();
  std::string step;
  ASSERT_TRUE(eventually([&] { return !(step = running_step_on(hosts_[1])).empty(); }, 20)) << "no step on "
                                                                                              << hosts_[1];
  const CommandResult cancelled = run_in_cluster("scancel " + step, dir_, 30);
  ASSERT_EQ(cancelled.exit_code, 0) << cancelled.err;
  EXPECT_EQ(first.wait(90), 6) << "a launch that lost a step fails with exit 6\n" << first.output();

  const auto before = probe_runs();
  for (const int node : {0, 2}) {
    for (const auto& id : planned_on(node)) EXPECT_EQ(before.count(id), 1U) << id << " of an intact node";
  }
  std::size_t held_done = 0;
  for (const auto& id : held_node_tasks) held_done += before.count(id);
  ASSERT_EQ(held_done, 1U) << "exactly the first task of the killed node completed before the kill";

  test_support::write_file(gate, "open\n");
  const CommandResult resumed = launch("--resume");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.out << resumed.err;
  expect_every_task_once_on_its_node();

  // Only the killed node ran again, in a new step of a new allocation; the intact nodes' journals are untouched.
  const auto after = probe_runs();
  for (const auto& [id, runs] : after) {
    if (before.count(id) == 0) {
      EXPECT_EQ(runs.front().node, hosts_[1]) << id << " ran again although its node was intact";
      EXPECT_NE(runs.front().job, before.begin()->second.front().job) << id;
    }
  }
  EXPECT_EQ(journal_of(0).segments.size(), 1U);
  EXPECT_EQ(journal_of(2).segments.size(), 1U);
  const auto resumed_journal = journal_of(1);
  ASSERT_EQ(resumed_journal.segments.size(), 2U);
  EXPECT_EQ(resumed_journal.segments[1].header.already_completed.size(), 1U);
  const auto& killed = resumed_journal.segments[0].header.slurm;
  const auto& resumed_step = resumed_journal.segments[1].header.slurm;
  ASSERT_TRUE(killed && resumed_step);
  EXPECT_NE(killed->job_id, resumed_step->job_id) << "the resumed segment runs in the new allocation";
}

}  // namespace
}  // namespace cosched::slurm_test
