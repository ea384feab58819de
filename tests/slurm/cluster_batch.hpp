#pragma once
// A small batch planned over the nodes of the local cluster and launched across them: what the Slurm tests check
// (docs/slurm-local.md). Its tasks are slurm_probe runs (tests/slurm/probe), which record the Slurm node and step
// each one completed on, so the tests see every task's runs independently of cosched's own journals and report.
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cosched/launcher/journal/replay.hpp"
#include "local_cluster.hpp"

namespace cosched::slurm_test {

// One completed probe: where it ran.
struct ProbeRun {
  std::string node;  // SLURMD_NODENAME
  std::string job;   // SLURM_JOB_ID
  std::string step;  // SLURM_STEP_ID
};

class ClusterBatch : public ::testing::Test {
 protected:
  static constexpr int kNodes = 3;
  static constexpr int kTasks = 9;

  void SetUp() override;

  // inst.json: kTasks probe tasks (t0..t8, each with `probe_flags` too) on nodes of 2 cores, then
  // `cosched plan --nodes 3` into plan/.
  void plan_batch(const std::vector<std::string>& probe_flags);

  // `cosched launch plan --slurm <flags>` inside `salloc` of the three nodes.
  [[nodiscard]] std::string launch_command(const std::string& flags) const;
  [[nodiscard]] CommandResult launch(const std::string& flags) const;

  // `cosched report plan --json`, parsed (fails the test when the report does).
  [[nodiscard]] nlohmann::json report() const;

  // The ids plan node `node` holds (its schedule), and its journal replayed.
  [[nodiscard]] std::vector<std::string> planned_on(int node) const;
  [[nodiscard]] launcher::JournalReplay journal_of(int node) const;
  // SLURMD_NODENAME in each batch_start header of plan node `node`'s journal (one per segment).
  [[nodiscard]] std::vector<std::string> journal_slurm_nodes(int node) const;

  // What the probes recorded: every completed run of every task.
  [[nodiscard]] std::map<std::string, std::vector<ProbeRun>> probe_runs() const;

  // Every task of the plan ran exactly once, on the host of its plan node, and the report and the journals say so.
  void expect_every_task_once_on_its_node() const;

  fs::path dir_;
  fs::path plan_;
  fs::path record_;
  std::vector<std::string> hosts_;  // the allocation's nodes: plan node k runs on hosts_[k]
};

}  // namespace cosched::slurm_test
